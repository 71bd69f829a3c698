/* pcoll_inter_ext: the persistent collectives of MPI-4.0 6.13 on an intercommunicator (the even ranks against the odd ones): Barrier_init, Bcast_init, Gather_init, Scatter_init (roots MPI_ROOT / MPI_PROC_NULL), Allgather_init, Alltoall_init, Reduce_init, Allreduce_init, Reduce_scatter_block_init (groups of different sizes), each started four times with new data and checked exactly, then all at once by MPI_Startall; freed inactive.  ext: Open MPI 4.1 has only the MPIX_ names. */
/* shmpi-test: np=2,3,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "intercomm.h"

#define B 2
#define GAP (-7)
#define ITERS 4
#define ROOM 16

static int rank, it, lr, ln, rn, grp;

static int val(int w, int j)
{
    return 1000 * w + 100 * it + j + 1;
}

/* World rank of remote rank i. */
static int rw(int i)
{
    return grp ? 2 * i : 2 * i + 1;
}

enum {
    BARRIER, BCAST, GATHER, SCATTER, ALLGATHER, ALLTOALL, REDUCE, ALLREDUCE,
    RSB, N
};
static const char *names[N] = {"Barrier", "Bcast", "Gather", "Scatter",
                               "Allgather", "Alltoall", "Reduce",
                               "Allreduce", "Reduce_scatter_block"};
static int sbuf[N][ROOM], rbuf[N][ROOM];

static void fill(void)
{
    for (int c = 0; c < N; c++)
        for (int k = 0; k < ROOM; k++) {
            sbuf[c][k] = val(rank, k);
            rbuf[c][k] = GAP;
        }
    for (int k = 0; k < ROOM; k++) /* bcast: only world rank 0's counts */
        sbuf[BCAST][k] = rank == 0 ? val(0, k) : GAP;
}

#define EXPECT(c, k, want)                                                 \
    CHECK(rbuf[c][k] == (want), "%s, start %d: element %d is %d, "       \
          "expected %d", names[c], it, (int)(k), rbuf[c][k], (int)(want))

static int remote_sum(int j)
{
    int s = 0;
    for (int i = 0; i < rn; i++)
        s += val(rw(i), j);
    return s;
}

static void check(void)
{
    for (int k = 0; k < B; k++) {
        CHECK(sbuf[BCAST][k] == (grp == 1 || rank == 0 ? val(0, k) : GAP),
              "Bcast, start %d: element %d is %d", it, k, sbuf[BCAST][k]);
        /* gather to world 1, scatter from world 0 */
        for (int i = 0; i < rn; i++) {
            EXPECT(GATHER, i * B + k, rank == 1 ? val(rw(i), k) : GAP);
            EXPECT(ALLGATHER, i * B + k, val(rw(i), k));
            EXPECT(ALLTOALL, i * B + k, val(rw(i), lr * B + k));
        }
        EXPECT(SCATTER, k, grp == 1 ? val(0, lr * B + k) : GAP);
        EXPECT(REDUCE, k, rank == 0 ? remote_sum(k) : GAP);
        EXPECT(ALLREDUCE, k, remote_sum(k));
    }
    for (int k = 0; k < rn; k++)
        EXPECT(RSB, k, remote_sum(lr * rn + k));
    EXPECT(RSB, rn, GAP);
}

/* A rooted call's root argument: root is local rank 0 of group g. */
static int root_arg(int g)
{
    return grp != g ? 0 : lr == 0 ? MPI_ROOT : MPI_PROC_NULL;
}

int main(int argc, char **argv)
{
    int size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Comm half, inter;
    parity_intercomm(MPI_COMM_WORLD, 3, &half, &inter);
    grp = rank % 2;
    CHECK_MPI(MPI_Comm_rank(inter, &lr));
    CHECK_MPI(MPI_Comm_size(inter, &ln));
    CHECK_MPI(MPI_Comm_remote_size(inter, &rn));
    CHECK(rn * B <= ROOM && ln * B <= ROOM, "too many processes");

    MPI_Request r[N];
    MPI_Info i0 = MPI_INFO_NULL;
    CHECK_MPI(MPI_Barrier_init(inter, i0, &r[BARRIER]));
    CHECK_MPI(MPI_Bcast_init(sbuf[BCAST], B, MPI_INT, root_arg(0), inter, i0,
                             &r[BCAST]));
    CHECK_MPI(MPI_Gather_init(sbuf[GATHER], B, MPI_INT, rbuf[GATHER], B,
                              MPI_INT, root_arg(1), inter, i0, &r[GATHER]));
    CHECK_MPI(MPI_Scatter_init(sbuf[SCATTER], B, MPI_INT, rbuf[SCATTER], B,
                               MPI_INT, root_arg(0), inter, i0, &r[SCATTER]));
    CHECK_MPI(MPI_Allgather_init(sbuf[ALLGATHER], B, MPI_INT,
                                 rbuf[ALLGATHER], B, MPI_INT, inter, i0,
                                 &r[ALLGATHER]));
    CHECK_MPI(MPI_Alltoall_init(sbuf[ALLTOALL], B, MPI_INT, rbuf[ALLTOALL],
                                B, MPI_INT, inter, i0, &r[ALLTOALL]));
    CHECK_MPI(MPI_Reduce_init(sbuf[REDUCE], rbuf[REDUCE], B, MPI_INT,
                              MPI_SUM, root_arg(0), inter, i0, &r[REDUCE]));
    CHECK_MPI(MPI_Allreduce_init(sbuf[ALLREDUCE], rbuf[ALLREDUCE], B,
                                 MPI_INT, MPI_SUM, inter, i0,
                                 &r[ALLREDUCE]));
    /* both groups' vectors hold ln * rn elements (5.10.1) */
    CHECK_MPI(MPI_Reduce_scatter_block_init(sbuf[RSB], rbuf[RSB], rn,
                                            MPI_INT, MPI_SUM, inter, i0,
                                            &r[RSB]));
    for (it = 0; it < ITERS; it++) {
        fill();
        for (int c = 0; c < N; c++) {
            CHECK_MPI(MPI_Start(&r[c]));
            CHECK_MPI(MPI_Wait(&r[c], MPI_STATUS_IGNORE));
        }
        check();
    }
    for (it = ITERS; it < ITERS + 2; it++) {
        fill();
        CHECK_MPI(MPI_Startall(N, r));
        CHECK_MPI(MPI_Waitall(N, r, MPI_STATUSES_IGNORE));
        check();
    }
    for (int c = 0; c < N; c++)
        CHECK_MPI(MPI_Request_free(&r[c]));
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
