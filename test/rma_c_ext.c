/* rma_c_ext: the MPI-4.0 large-count one-sided calls - MPI_Win_create_c, MPI_Win_allocate_c, MPI_Win_allocate_shared_c with MPI_Win_shared_query_c (an MPI_Aint disp_unit in, the same out), and MPI_Put_c, MPI_Get_c, MPI_Accumulate_c, MPI_Get_accumulate_c, MPI_Rput_c, MPI_Rget_c, MPI_Raccumulate_c, MPI_Rget_accumulate_c between ring neighbours, every value checked.  ext: Open MPI 4.1 has no _c functions. */
/* shmpi-test: np=1,2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define N 16 /* ints in each rank's window */

static int rank, size, right, left;

static int val(int r, int k)
{
    return 100 * r + k + 1;
}

/* Put_c and Get_c (and the request forms) on win, whose unit is an int,
   under a passive epoch; its memory at mem. */
static void put_get(MPI_Win win, int *mem, const char *what)
{
    int src[N], back[N];
    for (int k = 0; k < N; k++) {
        src[k] = val(rank, k);
        mem[k] = -1;
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    MPI_Count half = N / 2;
    CHECK_MPI(MPI_Put_c(src, half, MPI_INT, right, 0, half, MPI_INT, win));
    MPI_Request r;
    CHECK_MPI(MPI_Rput_c(src + half, half, MPI_INT, right, half, half,
                         MPI_INT, win, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_flush_all(win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int k = 0; k < N; k++)
        CHECK(mem[k] == val(left, k), "%s: Put_c/Rput_c: element %d is %d, "
              "expected %d", what, k, mem[k], val(left, k));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Get_c(back, half, MPI_INT, right, 0, half, MPI_INT, win));
    CHECK_MPI(MPI_Rget_c(back + half, half, MPI_INT, right, half, half,
                         MPI_INT, win, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_unlock_all(win));
    for (int k = 0; k < N; k++) /* right holds what this rank put */
        CHECK(back[k] == val(rank, k), "%s: Get_c/Rget_c: element %d is "
              "%d, expected %d", what, k, back[k], val(rank, k));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* Accumulate_c, Raccumulate_c, Get_accumulate_c and
   Rget_accumulate_c: every rank adds into its right neighbour. */
static void accumulate(MPI_Win win, int *mem)
{
    int src[N], old[N];
    for (int k = 0; k < N; k++) {
        src[k] = val(rank, k);
        mem[k] = 5;
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Accumulate_c(src, (MPI_Count)N, MPI_INT, right, 0,
                               (MPI_Count)N, MPI_INT, MPI_SUM, win));
    MPI_Request r;
    CHECK_MPI(MPI_Raccumulate_c(src, (MPI_Count)N, MPI_INT, right, 0,
                                (MPI_Count)N, MPI_INT, MPI_SUM, win, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_flush_all(win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int k = 0; k < N; k++)
        CHECK(mem[k] == 5 + 2 * val(left, k), "Accumulate_c/Raccumulate_c:"
              " element %d is %d, expected %d", k, mem[k],
              5 + 2 * val(left, k));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    /* old = target; target = -src (MPI_REPLACE), then fetch it back */
    for (int k = 0; k < N; k++)
        src[k] = -val(rank, k);
    CHECK_MPI(MPI_Get_accumulate_c(src, (MPI_Count)N, MPI_INT, old,
                                   (MPI_Count)N, MPI_INT, right, 0,
                                   (MPI_Count)N, MPI_INT, MPI_REPLACE, win));
    for (int k = 0; k < N; k++)
        CHECK(old[k] == 5 + 2 * val(rank, k), "Get_accumulate_c: old "
              "element %d is %d, expected %d", k, old[k],
              5 + 2 * val(rank, k));
    CHECK_MPI(MPI_Rget_accumulate_c(NULL, 0, MPI_INT, old, (MPI_Count)N,
                                    MPI_INT, right, 0, (MPI_Count)N,
                                    MPI_INT, MPI_NO_OP, win, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_unlock_all(win));
    for (int k = 0; k < N; k++)
        CHECK(old[k] == -val(rank, k), "Rget_accumulate_c: element %d is "
              "%d, expected %d", k, old[k], -val(rank, k));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    MPI_Aint unit = (MPI_Aint)sizeof(int);
    MPI_Win win;

    int *mine = calloc(N, sizeof(int));
    CHECK(mine, "out of memory");
    CHECK_MPI(MPI_Win_create_c(mine, N * unit, unit, MPI_INFO_NULL,
                               MPI_COMM_WORLD, &win));
    put_get(win, mine, "Win_create_c");
    CHECK_MPI(MPI_Win_free(&win));
    free(mine);

    int *mem = NULL;
    CHECK_MPI(MPI_Win_allocate_c(N * unit, unit, MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &mem, &win));
    int *du = NULL, flag = 0;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag));
    CHECK(flag && *du == (int)unit, "MPI_WIN_DISP_UNIT is %d, expected %d",
          flag ? *du : -1, (int)unit);
    put_get(win, mem, "Win_allocate_c");
    accumulate(win, mem);
    CHECK_MPI(MPI_Win_free(&win));

    /* shared: rank r gives N + r ints with unit 2 * sizeof(int) */
    MPI_Aint mysize = (MPI_Aint)(N + rank) * unit;
    CHECK_MPI(MPI_Win_allocate_shared_c(mysize, 2 * unit, MPI_INFO_NULL,
                                        MPI_COMM_WORLD, &mem, &win));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int k = 0; k < N + rank; k++)
        mem[k] = val(rank, k);
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_sync(win));
    MPI_Aint qsize = -1, qunit = -1;
    int *qbase = NULL;
    CHECK_MPI(MPI_Win_shared_query_c(win, right, &qsize, &qunit, &qbase));
    CHECK(qsize == (MPI_Aint)(N + right) * unit && qunit == 2 * unit,
          "Win_shared_query_c: size %ld, disp_unit %ld, expected %ld and "
          "%ld", (long)qsize, (long)qunit,
          (long)((N + right) * unit), (long)(2 * unit));
    for (int k = 0; k < N + right; k++)
        CHECK(qbase[k] == val(right, k), "Win_shared_query_c: element %d "
              "of rank %d's memory is %d, expected %d", k, right, qbase[k],
              val(right, k));
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
