/* coll_error_sync_ext: under MPI_ERRORS_RETURN, each blocking collective with one rank (the root, or another) passing a bad argument: that rank gets the right error class, every other rank gets either its right result or MPI_ERR_OTHER, never a wrong result, and the Allreduce, Bcast, Barrier, Gather and large Allreduce that follow are right everywhere. */
/* shmpi-test: np=2,3,4,7 timeout=120 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: MPI-3.1 8.3 leaves the state after an error undefined; shmpi
 * promises more - a right answer or an error, never a wrong answer and
 * never a hang - and this checks that promise.
 */
#include "check.h"

#define N 4         /* elements of a block */
#define BIG 20000   /* doubles of the large Allreduce (folded in slices) */
#define NONE (-99)  /* what an untouched element holds */

static int rank, size;
static MPI_Comm comm;

/* Element k of the block rank r sends to rank d. */
static int val(int r, int d, int k) { return 1000 * r + 10 * d + k + 1; }

/* One case: run the collective, with a bad argument where bad is set;
   then check the result when the call succeeded.  *class: the error
   class the bad rank must get. */
struct ccase {
    const char *name;
    int (*run)(int bad, int root, int *recv, int *class);
    /* element k of the right result of this rank, of nrecv (NONE: not
       checked); root_only: only the root has one */
    int (*want)(int root, int k);
    int nrecv, root_only;
};

static int send_block[64 * N];

static void fill_send(void)
{
    for (int d = 0; d < size; d++)
        for (int k = 0; k < N; k++)
            send_block[d * N + k] = val(rank, d, k);
}

/* ---- the collectives ---------------------------------------------- */

static int r_bcast(int bad, int root, int *recv, int *class)
{
    *class = MPI_ERR_TYPE;
    for (int k = 0; k < N; k++)
        recv[k] = rank == root ? val(root, 0, k) : NONE;
    return MPI_Bcast(recv, N, bad ? MPI_DATATYPE_NULL : MPI_INT, root, comm);
}
static int w_bcast(int root, int k) { return val(root, 0, k % N); }

static int r_gather(int bad, int root, int *recv, int *class)
{
    *class = rank == root ? MPI_ERR_TYPE : MPI_ERR_COUNT;
    if (rank == root)
        return MPI_Gather(send_block, N, MPI_INT, recv, N,
                          bad ? MPI_DATATYPE_NULL : MPI_INT, root, comm);
    return MPI_Gather(send_block, bad ? -1 : N, MPI_INT, recv, N, MPI_INT,
                      root, comm);
}
static int r_gather_count(int bad, int root, int *recv, int *class)
{
    *class = MPI_ERR_COUNT;
    return MPI_Gather(send_block, bad && rank != root ? -1 : N, MPI_INT,
                      recv, bad && rank == root ? -1 : N, MPI_INT, root,
                      comm);
}

static int r_gatherv(int bad, int root, int *recv, int *class)
{
    int counts[64], displs[64];
    for (int i = 0; i < size; i++) {
        counts[i] = N;
        displs[i] = i * N;
    }
    *class = rank == root ? MPI_ERR_ARG : MPI_ERR_TYPE;
    return MPI_Gatherv(send_block, N,
                       bad && rank != root ? MPI_DATATYPE_NULL : MPI_INT,
                       recv, bad && rank == root ? NULL : counts, displs,
                       MPI_INT, root, comm);
}

static int r_scatter(int bad, int root, int *recv, int *class)
{
    *class = rank == root ? MPI_ERR_TYPE : MPI_ERR_COUNT;
    return MPI_Scatter(send_block, N,
                       bad && rank == root ? MPI_DATATYPE_NULL : MPI_INT,
                       recv, bad && rank != root ? -1 : N, MPI_INT, root,
                       comm);
}
/* block `rank` of the root's send buffer */
static int w_scatter(int root, int k) { return val(root, rank, k); }

static int r_scatterv(int bad, int root, int *recv, int *class)
{
    int counts[64], displs[64];
    for (int i = 0; i < size; i++) {
        counts[i] = N;
        displs[i] = i * N;
    }
    *class = rank == root ? MPI_ERR_ARG : MPI_ERR_COUNT;
    return MPI_Scatterv(send_block, bad && rank == root ? NULL : counts,
                        displs, MPI_INT, recv,
                        bad && rank != root ? -1 : N, MPI_INT, root, comm);
}

static int r_allgather(int bad, int root, int *recv, int *class)
{
    (void)root;
    *class = MPI_ERR_TYPE;
    return MPI_Allgather(send_block, N, bad ? MPI_DATATYPE_NULL : MPI_INT,
                         recv, N, MPI_INT, comm);
}

static int r_allgatherv(int bad, int root, int *recv, int *class)
{
    int counts[64], displs[64];
    (void)root;
    for (int i = 0; i < size; i++) {
        counts[i] = N;
        displs[i] = i * N;
    }
    *class = MPI_ERR_COUNT;
    return MPI_Allgatherv(send_block, bad ? -1 : N, MPI_INT, recv, counts,
                          displs, MPI_INT, comm);
}
/* block 0 of every rank, in rank order (gather and allgather) */
static int w_blocks0(int root, int k)
{
    (void)root;
    return val(k / N, 0, k % N);
}

static int r_alltoall(int bad, int root, int *recv, int *class)
{
    (void)root;
    *class = MPI_ERR_TYPE;
    return MPI_Alltoall(send_block, N, MPI_INT, recv, N,
                        bad ? MPI_DATATYPE_NULL : MPI_INT, comm);
}

static int r_alltoallv(int bad, int root, int *recv, int *class)
{
    int counts[64], displs[64];
    (void)root;
    for (int i = 0; i < size; i++) {
        counts[i] = N;
        displs[i] = i * N;
    }
    *class = MPI_ERR_ARG;
    return MPI_Alltoallv(send_block, counts, displs, MPI_INT, recv,
                         bad ? NULL : counts, displs, MPI_INT, comm);
}

static int r_alltoallw(int bad, int root, int *recv, int *class)
{
    int counts[64], displs[64];
    MPI_Datatype types[64];
    (void)root;
    for (int i = 0; i < size; i++) {
        counts[i] = N;
        displs[i] = i * N * (int)sizeof(int);
        types[i] = MPI_INT;
    }
    if (bad)
        types[size - 1] = MPI_DATATYPE_NULL;
    *class = MPI_ERR_TYPE;
    return MPI_Alltoallw(send_block, counts, displs, types, recv, counts,
                         displs, types, comm);
}
/* block `rank` of every rank, in rank order */
static int w_alltoall(int root, int k)
{
    (void)root;
    return val(k / N, rank, k % N);
}

static int r_reduce(int bad, int root, int *recv, int *class)
{
    *class = rank == root ? MPI_ERR_BUFFER : MPI_ERR_OP;
    return MPI_Reduce(send_block, bad && rank == root ? NULL : recv, N,
                      MPI_INT, bad && rank != root ? MPI_OP_NULL : MPI_SUM,
                      root, comm);
}

static int r_allreduce(int bad, int root, int *recv, int *class)
{
    (void)root;
    *class = MPI_ERR_OP;
    return MPI_Allreduce(send_block, recv, N, MPI_INT,
                         bad ? MPI_OP_NULL : MPI_SUM, comm);
}
/* the sum over ranks of their block 0 */
static int w_sum(int root, int k)
{
    int s = 0;
    (void)root;
    for (int r = 0; r < size; r++)
        s += val(r, 0, k);
    return s;
}

static int r_reduce_scatter_block(int bad, int root, int *recv, int *class)
{
    (void)root;
    *class = MPI_ERR_COUNT;
    return MPI_Reduce_scatter_block(send_block, recv, bad ? -1 : N, MPI_INT,
                                    MPI_SUM, comm);
}

static int r_reduce_scatter(int bad, int root, int *recv, int *class)
{
    int counts[64];
    (void)root;
    for (int i = 0; i < size; i++)
        counts[i] = N;
    *class = MPI_ERR_ARG;
    return MPI_Reduce_scatter(send_block, recv, bad ? NULL : counts,
                              MPI_INT, MPI_SUM, comm);
}
/* the sum over ranks of their block `rank` */
static int w_sum_mine(int root, int k)
{
    int s = 0;
    (void)root;
    for (int r = 0; r < size; r++)
        s += val(r, rank, k);
    return s;
}

static int r_scan(int bad, int root, int *recv, int *class)
{
    (void)root;
    *class = MPI_ERR_TYPE;
    return MPI_Scan(send_block, recv, N, bad ? MPI_DATATYPE_NULL : MPI_INT,
                    MPI_SUM, comm);
}
static int w_scan(int root, int k)
{
    int s = 0;
    (void)root;
    for (int r = 0; r <= rank; r++)
        s += val(r, 0, k);
    return s;
}

static int r_exscan(int bad, int root, int *recv, int *class)
{
    (void)root;
    *class = MPI_ERR_OP;
    return MPI_Exscan(send_block, recv, N, MPI_INT,
                      bad ? MPI_OP_NULL : MPI_SUM, comm);
}
static int w_exscan(int root, int k)
{
    int s = 0;
    (void)root;
    if (rank == 0)
        return NONE; /* undefined at rank 0: not checked */
    for (int r = 0; r < rank; r++)
        s += val(r, 0, k);
    return s;
}

/* ---- what follows every case --------------------------------------- */

static void after(const char *name, int bad_rank)
{
    int one = rank + 1, sum = -1;
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(sum == size * (size + 1) / 2,
          "%s (bad rank %d): the next Allreduce gave %d, expected %d", name,
          bad_rank, sum, size * (size + 1) / 2);
    int root = size - 1, b[N];
    for (int k = 0; k < N; k++)
        b[k] = rank == root ? 7 * k + 3 : NONE;
    CHECK_MPI(MPI_Bcast(b, N, MPI_INT, root, comm));
    for (int k = 0; k < N; k++)
        CHECK(b[k] == 7 * k + 3, "%s (bad rank %d): Bcast element %d: %d",
              name, bad_rank, k, b[k]);
    CHECK_MPI(MPI_Barrier(comm));
    int g[64];
    CHECK_MPI(MPI_Gather(&one, 1, MPI_INT, g, 1, MPI_INT, 0, comm));
    for (int r = 0; r < size && rank == 0; r++)
        CHECK(g[r] == r + 1, "%s (bad rank %d): Gather from %d: %d", name,
              bad_rank, r, g[r]);
    static double big[BIG], bigsum[BIG];
    for (int i = 0; i < BIG; i++)
        big[i] = rank + i;
    CHECK_MPI(MPI_Allreduce(big, bigsum, BIG, MPI_DOUBLE, MPI_SUM, comm));
    for (int i = 0; i < BIG; i += 997)
        CHECK(bigsum[i] == size * (size - 1) / 2.0 + (double)size * i,
              "%s (bad rank %d): large Allreduce element %d: %g", name,
              bad_rank, i, bigsum[i]);
}

static void one_case(const struct ccase *c, int bad_rank, int root)
{
    int recv[64 * N], class = 0, bad = rank == bad_rank;
    for (int i = 0; i < 64 * N; i++)
        recv[i] = NONE;
    fill_send();
    int rc = c->run(bad, root, recv, &class);
    if (bad) {
        CHECK_CLASS(rc, class);
    } else if (rc != MPI_SUCCESS) {
        CHECK_CLASS(rc, MPI_ERR_OTHER);
    } else if (!c->root_only || rank == root) {
        /* succeeded: the result must be right */
        for (int k = 0; k < c->nrecv; k++) {
            int w = c->want(root, k);
            CHECK(w == NONE || recv[k] == w,
                  "%s (bad rank %d, root %d): succeeded with element %d = "
                  "%d, expected %d",
                  c->name, bad_rank, root, k, recv[k], w);
        }
    }
    after(c->name, bad_rank);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size <= 64, "at most 64 ranks");
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    int all = size * N;
    const struct ccase cases[] = {
        {"Bcast", r_bcast, w_bcast, N, 0},
        {"Gather", r_gather, w_blocks0, all, 1},
        {"Gather (recvcount)", r_gather_count, w_blocks0, all, 1},
        {"Gatherv", r_gatherv, w_blocks0, all, 1},
        {"Scatter", r_scatter, w_scatter, N, 0},
        {"Scatterv", r_scatterv, w_scatter, N, 0},
        {"Allgather", r_allgather, w_blocks0, all, 0},
        {"Allgatherv", r_allgatherv, w_blocks0, all, 0},
        {"Alltoall", r_alltoall, w_alltoall, all, 0},
        {"Alltoallv", r_alltoallv, w_alltoall, all, 0},
        {"Alltoallw", r_alltoallw, w_alltoall, all, 0},
        {"Reduce", r_reduce, w_sum, N, 1},
        {"Allreduce", r_allreduce, w_sum, N, 0},
        {"Reduce_scatter_block", r_reduce_scatter_block, w_sum_mine, N, 0},
        {"Reduce_scatter", r_reduce_scatter, w_sum_mine, N, 0},
        {"Scan", r_scan, w_scan, N, 0},
        {"Exscan", r_exscan, w_exscan, N, 0},
    };
    int ncases = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < ncases; i++) {
        /* the root fails, then another rank, then nobody */
        one_case(&cases[i], 0, 0);
        if (size > 1)
            one_case(&cases[i], size - 1, 0);
        one_case(&cases[i], -1, 0);
    }
    CHECK_MPI(MPI_Comm_free(&comm));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
