/* abi_coll: the collectives' nonblocking, persistent and large-count forms, MPI_Alltoallw and MPI_Reduce_scatter through the standard ABI, with its handles, requests and roots. */
/* shmpi-test: np=1,2,3,4 timeout=60 ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built against include/abi/mpi.h: MPI_INT is 0x209, MPI_SUM 0x21,
 * MPI_REQUEST_NULL 0x180, MPI_INFO_NULL 0x130; each result is checked,
 * so a handle the layer does not translate fails the call or the check.
 */
#include "check.h"

#include <stdint.h>

static int rank, size;

/* Complete r, a nonblocking collective's or a started persistent one's. */
static void complete(MPI_Request *r, int persistent)
{
    CHECK(*r != MPI_REQUEST_NULL && (uintptr_t)*r >= 0x1000, "a request");
    CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
    CHECK((*r == MPI_REQUEST_NULL) == !persistent,
          "after the wait the request is %s", persistent ? "kept" : "null");
}

static void check_nonblocking(void)
{
    MPI_Request r;
    CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &r));
    complete(&r, 0);
    int v = rank + 1, sum = -1, root = size - 1, b = rank == root ? 9 : 0;
    CHECK_MPI(MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    complete(&r, 0);
    CHECK(sum == size * (size + 1) / 2, "Iallreduce %d", sum);
    CHECK_MPI(MPI_Ibcast(&b, 1, MPI_INT, root, MPI_COMM_WORLD, &r));
    complete(&r, 0);
    CHECK(b == 9, "Ibcast %d", b);
    sum = -1;
    CHECK_MPI(MPI_Ireduce(&v, &sum, 1, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD, &r));
    complete(&r, 0);
    CHECK(rank != root || sum == size, "Ireduce MPI_MAX %d", sum);
    int *all = malloc((size_t)size * sizeof *all);
    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)size * sizeof *displs);
    CHECK(all && counts && displs, "malloc");
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = size - 1 - i;      /* reversed */
    }
    CHECK_MPI(MPI_Iallgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, &r));
    complete(&r, 0);
    for (int i = 0; i < size; i++)
        CHECK(all[i] == i, "Iallgather [%d] %d", i, all[i]);
    CHECK_MPI(MPI_Iallgatherv(&rank, 1, MPI_INT, all, counts, displs, MPI_INT,
                              MPI_COMM_WORLD, &r));
    complete(&r, 0);
    for (int i = 0; i < size; i++)
        CHECK(all[size - 1 - i] == i, "Iallgatherv [%d]", i);
    int x = -1;
    CHECK_MPI(MPI_Iscatter(all, 1, MPI_INT, &x, 1, MPI_INT, 0, MPI_COMM_WORLD, &r));
    complete(&r, 0);
    CHECK(x == size - 1 - rank, "Iscatter %d", x);
    CHECK_MPI(MPI_Igather(&rank, 1, MPI_INT, all, 1, MPI_INT, root, MPI_COMM_WORLD, &r));
    complete(&r, 0);
    for (int i = 0; rank == root && i < size; i++)
        CHECK(all[i] == i, "Igather [%d]", i);
    int scan = -1;
    CHECK_MPI(MPI_Iscan(&v, &scan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    complete(&r, 0);
    CHECK(scan == (rank + 1) * (rank + 2) / 2, "Iscan %d", scan);
    CHECK_MPI(MPI_Iexscan(&v, &scan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    complete(&r, 0);
    CHECK(rank == 0 || scan == rank * (rank + 1) / 2, "Iexscan %d", scan);
    for (int i = 0; i < size; i++)
        all[i] = rank * size + i;
    int *got = malloc((size_t)size * sizeof *got);
    CHECK(got != NULL, "malloc");
    CHECK_MPI(MPI_Ialltoall(all, 1, MPI_INT, got, 1, MPI_INT, MPI_COMM_WORLD, &r));
    complete(&r, 0);
    for (int i = 0; i < size; i++)
        CHECK(got[i] == i * size + rank, "Ialltoall [%d] %d", i, got[i]);
    int rs = -1;
    CHECK_MPI(MPI_Ireduce_scatter(counts, &rs, counts, MPI_INT, MPI_SUM,
                                  MPI_COMM_WORLD, &r));
    complete(&r, 0);
    CHECK(rs == size, "Ireduce_scatter %d", rs);
    free(all);
    free(counts);
    free(displs);
    free(got);
}

static void check_persistent(void)
{
    int v = 0, sum = -1, root = 0, b = -1;
    MPI_Request r[3];
    CHECK_MPI(MPI_Allreduce_init(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &r[0]));
    CHECK_MPI(MPI_Bcast_init(&b, 1, MPI_INT, root, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &r[1]));
    CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]));
    for (int round = 0; round < 3; round++) {
        v = rank + round;
        b = rank == root ? 100 + round : -1;
        CHECK_MPI(MPI_Start(&r[0]));
        complete(&r[0], 1);
        CHECK(sum == size * (size - 1) / 2 + size * round, "round %d sum %d",
              round, sum);
        CHECK_MPI(MPI_Startall(2, &r[1]));
        CHECK_MPI(MPI_Waitall(2, &r[1], MPI_STATUSES_IGNORE));
        CHECK(b == 100 + round, "round %d bcast %d", round, b);
    }
    for (int i = 0; i < 3; i++) {
        CHECK_MPI(MPI_Request_free(&r[i]));
        CHECK(r[i] == MPI_REQUEST_NULL, "freed");
    }
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    int *ones = malloc((size_t)size * sizeof *ones);
    CHECK(ones != NULL, "malloc");
    for (int i = 0; i < size; i++)
        ones[i] = 1;
    int rs = -1, rsb = -1;
    CHECK_MPI(MPI_Reduce_scatter_init(ones, &rs, ones, MPI_INT, MPI_SUM,
                                      MPI_COMM_WORLD, info, &r[0]));
    CHECK_MPI(MPI_Reduce_scatter_block_init(ones, &rsb, 1, MPI_INT, MPI_SUM,
                                            MPI_COMM_WORLD, info, &r[1]));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Startall(2, r));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK(rs == size && rsb == size, "Reduce_scatter(_block)_init %d %d", rs, rsb);
    CHECK_MPI(MPI_Request_free(&r[0]));
    CHECK_MPI(MPI_Request_free(&r[1]));
    free(ones);
}

/* Alltoallw: to peer p an int and a double, each from its own datatype;
   blocking, nonblocking and persistent. */
static void check_alltoallw(void)
{
    struct item { int i; double d; };
    struct item *out = malloc((size_t)size * sizeof *out);
    struct item *in = malloc((size_t)size * sizeof *in);
    int *cnt = malloc((size_t)size * sizeof *cnt);
    int *dsp = malloc((size_t)size * sizeof *dsp);
    MPI_Datatype *types = malloc((size_t)size * sizeof *types);
    CHECK(out && in && cnt && dsp && types, "malloc");
    MPI_Datatype pair;
    int bl[2] = { 1, 1 };
    MPI_Aint d[2] = { 0, sizeof(double) };
    MPI_Datatype t2[2] = { MPI_INT, MPI_DOUBLE };
    d[1] = (MPI_Aint)((char *)&out[0].d - (char *)&out[0]);
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, t2, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    for (int p = 0; p < size; p++) {
        cnt[p] = 1;
        dsp[p] = p * (int)sizeof(struct item);
        types[p] = pair;
    }
    for (int form = 0; form < 3; form++) {
        for (int p = 0; p < size; p++) {
            out[p] = (struct item){ rank * 10 + p, form + p * 0.5 };
            in[p] = (struct item){ -1, -1 };
        }
        MPI_Request r;
        if (form == 0) {
            CHECK_MPI(MPI_Alltoallw(out, cnt, dsp, types, in, cnt, dsp, types,
                                    MPI_COMM_WORLD));
        } else if (form == 1) {
            CHECK_MPI(MPI_Ialltoallw(out, cnt, dsp, types, in, cnt, dsp, types,
                                     MPI_COMM_WORLD, &r));
            complete(&r, 0);
        } else {
            CHECK_MPI(MPI_Alltoallw_init(out, cnt, dsp, types, in, cnt, dsp,
                                         types, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
            for (int p = 0; p < size; p++)
                types[p] = MPI_DATATYPE_NULL;  /* read at the init only */
            CHECK_MPI(MPI_Start(&r));
            complete(&r, 1);
            CHECK_MPI(MPI_Request_free(&r));
        }
        for (int p = 0; p < size; p++)
            CHECK(in[p].i == p * 10 + rank && in[p].d == form + rank * 0.5,
                  "form %d from %d: %d %g", form, p, in[p].i, in[p].d);
    }
    CHECK_MPI(MPI_Type_free(&pair));
    int v = rank, *rc = cnt, res = -1;
    for (int p = 0; p < size; p++)
        rc[p] = 1;
    int *vals = malloc((size_t)size * sizeof *vals);
    CHECK(vals != NULL, "malloc");
    for (int p = 0; p < size; p++)
        vals[p] = v + p;
    CHECK_MPI(MPI_Reduce_scatter(vals, &res, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(res == size * (size - 1) / 2 + size * rank, "Reduce_scatter %d", res);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Alltoallw(out, cnt, dsp, types, in, cnt, dsp, types,
                              MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Ibarrier(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    free(vals);
    free(out); free(in); free(cnt); free(dsp); free(types);
}

/* the _c forms: MPI_Count counts and MPI_Aint displacements */
static void check_large_count(void)
{
    double v = rank + 1, sum = -1;
    CHECK_MPI(MPI_Allreduce_c(&v, &sum, (MPI_Count)1, MPI_DOUBLE, MPI_SUM,
                              MPI_COMM_WORLD));
    CHECK(sum == size * (size + 1) / 2.0, "Allreduce_c %g", sum);
    int b = rank == 0 ? 77 : -1;
    MPI_Request r;
    CHECK_MPI(MPI_Ibcast_c(&b, (MPI_Count)1, MPI_INT, 0, MPI_COMM_WORLD, &r));
    complete(&r, 0);
    CHECK(b == 77, "Ibcast_c %d", b);
    MPI_Count *counts = malloc((size_t)size * sizeof *counts);
    MPI_Aint *displs = malloc((size_t)size * sizeof *displs);
    int *all = malloc((size_t)size * sizeof *all);
    CHECK(counts && displs && all, "malloc");
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = size - 1 - i;
    }
    CHECK_MPI(MPI_Allgatherv_c(&rank, (MPI_Count)1, MPI_INT, all, counts,
                               displs, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < size; i++)
        CHECK(all[size - 1 - i] == i, "Allgatherv_c [%d]", i);
    int rs = -1, *ones = all;
    for (int i = 0; i < size; i++)
        ones[i] = 1;
    CHECK_MPI(MPI_Reduce_scatter_init_c(ones, &rs, counts, MPI_INT, MPI_SUM,
                                        MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Start(&r));
    complete(&r, 1);
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(rs == size, "Reduce_scatter_init_c %d", rs);
    free(counts);
    free(displs);
    free(all);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_nonblocking();
    check_persistent();
    check_alltoallw();
    check_large_count();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
