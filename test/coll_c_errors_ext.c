/* coll_c_errors_ext: the MPI-4.0 large-count collective and one-sided calls check their MPI_Count and MPI_Aint arguments as the MPI-3.1 forms check theirs: negative counts and count-array entries (MPI_ERR_COUNT), missing count arrays (MPI_ERR_ARG), a missing request (MPI_ERR_ARG), a bad info (MPI_ERR_INFO), a disp_unit that is not positive or beyond INT_MAX (MPI_ERR_DISP), RMA data of 2^64 bytes (MPI_ERR_COUNT, where its byte count would wrap around) and beyond the window (MPI_ERR_RMA_RANGE), and a collective still usable afterwards.  ext: Open MPI 4.1 has no _c functions. */
/* shmpi-test: np=1,2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <limits.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, rc;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Comm comm = MPI_COMM_WORLD;
    int buf[64] = {0}, out[64] = {0};
    MPI_Count *cnt = calloc((size_t)size, sizeof *cnt);
    MPI_Aint *dsp = calloc((size_t)size, sizeof *dsp);
    CHECK(cnt && dsp, "out of memory");
    for (int i = 0; i < size; i++) {
        cnt[i] = 1;
        dsp[i] = i;
    }
    MPI_Request req;

    /* every process passes the same wrong argument */
    rc = MPI_Bcast_c(buf, -1, MPI_INT, 0, comm);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    rc = MPI_Allreduce_c(buf, out, (MPI_Count)-5, MPI_INT, MPI_SUM, comm);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    cnt[size - 1] = -3; /* one negative entry */
    rc = MPI_Allgatherv_c(buf, 1, MPI_INT, out, cnt, dsp, MPI_INT, comm);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    rc = MPI_Alltoallv_c(buf, cnt, dsp, MPI_INT, out, cnt, dsp, MPI_INT,
                         comm);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    rc = MPI_Reduce_scatter_c(buf, out, cnt, MPI_INT, MPI_SUM, comm);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    rc = MPI_Iallgatherv_c(buf, 1, MPI_INT, out, cnt, dsp, MPI_INT, comm,
                           &req);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    rc = MPI_Alltoallv_init_c(buf, cnt, dsp, MPI_INT, out, cnt, dsp,
                              MPI_INT, comm, MPI_INFO_NULL, &req);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    cnt[size - 1] = 1;
    rc = MPI_Allgatherv_c(buf, 1, MPI_INT, out, NULL, dsp, MPI_INT, comm);
    CHECK_CLASS(rc, MPI_ERR_ARG);
    rc = MPI_Reduce_scatter_c(buf, out, NULL, MPI_INT, MPI_SUM, comm);
    CHECK_CLASS(rc, MPI_ERR_ARG);
    rc = MPI_Ibcast_c(buf, 1, MPI_INT, 0, comm, NULL);
    CHECK_CLASS(rc, MPI_ERR_ARG);
    rc = MPI_Bcast_init_c(buf, 1, MPI_INT, 0, comm, (MPI_Info)&rc, &req);
    CHECK_CLASS(rc, MPI_ERR_INFO);

    /* the neighbourhood forms, on a ring */
    int dims[1] = {size}, periods[1] = {1};
    MPI_Comm ring;
    CHECK_MPI(MPI_Cart_create(comm, 1, dims, periods, 0, &ring));
    CHECK_MPI(MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN));
    MPI_Count two[2] = {1, -2};
    MPI_Aint at[2] = {0, 1};
    rc = MPI_Neighbor_alltoallv_c(buf, two, at, MPI_INT, out, two, at,
                                  MPI_INT, ring);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    rc = MPI_Ineighbor_allgather_c(buf, (MPI_Count)-1, MPI_INT, out, 1,
                                   MPI_INT, ring, &req);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    CHECK_MPI(MPI_Comm_free(&ring));

    /* the communicator still works: sum of ranks by the _c form */
    MPI_Count one = 1;
    int mine = rank, sum = -1;
    CHECK_MPI(MPI_Allreduce_c(&mine, &sum, one, MPI_INT, MPI_SUM, comm));
    CHECK(sum == size * (size - 1) / 2, "Allreduce_c after the errors: %d",
          sum);

    /* one-sided */
    MPI_Win win;
    int *mem;
    rc = MPI_Win_allocate_c(64, 0, MPI_INFO_NULL, comm, &mem, &win);
    CHECK_CLASS(rc, MPI_ERR_DISP);
    rc = MPI_Win_allocate_c(64, (MPI_Aint)INT_MAX + 1, MPI_INFO_NULL, comm,
                            &mem, &win);
    CHECK_CLASS(rc, MPI_ERR_DISP);
    rc = MPI_Win_create_c(buf, 64, (MPI_Aint)INT_MAX + 8, MPI_INFO_NULL,
                          comm, &win);
    CHECK_CLASS(rc, MPI_ERR_DISP);
    CHECK_MPI(MPI_Win_allocate_c(64, 4, MPI_INFO_NULL, comm, &mem, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    rc = MPI_Put_c(buf, (MPI_Count)-1, MPI_INT, 0, 0, 1, MPI_INT, win);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    rc = MPI_Get_c(buf, 1, MPI_INT, 0, 0, (MPI_Count)-7, MPI_INT, win);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    /* beyond the window: 2^40 ints, whose bytes an int could not count */
    rc = MPI_Accumulate_c(buf, (MPI_Count)1 << 40, MPI_INT, 0, 0,
                          (MPI_Count)1 << 40, MPI_INT, MPI_SUM, win);
    CHECK_CLASS(rc, MPI_ERR_RMA_RANGE);
    /* 2^64 bytes: a count, not wrapped around into the window */
    rc = MPI_Put_c(buf, (MPI_Count)1 << 62, MPI_INT, 0, 0,
                   (MPI_Count)1 << 62, MPI_INT, win);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    rc = MPI_Get_accumulate_c(buf, 1, MPI_INT, out, (MPI_Count)1 << 62,
                              MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    MPI_Aint qsize;
    rc = MPI_Win_shared_query_c(win, 0, &qsize, NULL, &mem);
    CHECK_CLASS(rc, MPI_ERR_ARG);
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Win_free(&win));
    free(cnt);
    free(dsp);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
