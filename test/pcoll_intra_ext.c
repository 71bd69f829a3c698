/* pcoll_intra_ext: the seventeen persistent collectives of MPI-4.0 6.13 (Barrier_init .. Exscan_init) on an intracommunicator: each planned once with an info object and started four times with new buffer contents each time, the results checked exactly (gaps of the v forms untouched, MPI_IN_PLACE allreduce); MPI_Test of an inactive one; all seventeen started at once by MPI_Startall and completed by MPI_Waitall; each freed inactive.  ext: Open MPI 4.1 has only the MPIX_ names. */
/* shmpi-test: np=1,2,3,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#define B 3     /* elements per block */
#define ITERS 4
#define GAP (-7)

static int rank, size, it;

/* What process r contributes at element j in start `it`. */
static int val(int r, int j)
{
    return 1000 * r + 100 * it + j + 1;
}

enum {
    BARRIER, BCAST, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER,
    ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW, REDUCE, ALLREDUCE,
    ALLREDUCE_IP, RSCATTER, RSCATTER_BLOCK, SCAN, EXSCAN, NCOLL
};

static const char *names[NCOLL] = {
    "Barrier", "Bcast", "Gather", "Gatherv", "Scatter", "Scatterv",
    "Allgather", "Allgatherv", "Alltoall", "Alltoallv", "Alltoallw",
    "Reduce", "Allreduce", "Allreduce in place", "Reduce_scatter",
    "Reduce_scatter_block", "Scan", "Exscan"};

/* Every collective's own buffers, so that all can run at once. */
static int *sbuf[NCOLL], *rbuf[NCOLL];
static int *cnt, *dsp, *cnt2, *dsp2, *vcnt, *vdsp;
static int *bdsp, *bdsp2;  /* Alltoallw: bytes */
static MPI_Datatype *types;
static int seg_off, total;  /* Reduce_scatter: this rank's segment */

/* Alltoallv: elements a sends to b (symmetric). */
static int c2(int a, int b)
{
    return (a + b) % 3 + 1;
}

static void alloc_all(void)
{
    for (int c = 0; c < NCOLL; c++) {
        sbuf[c] = calloc((size_t)(4 * size * (size + 1) + 8), sizeof(int));
        rbuf[c] = calloc((size_t)(4 * size * (size + 1) + 8), sizeof(int));
        CHECK(sbuf[c] && rbuf[c], "out of memory");
    }
    cnt = malloc(size * sizeof *cnt);
    dsp = malloc(size * sizeof *dsp);
    cnt2 = malloc(size * sizeof *cnt2);
    dsp2 = malloc(size * sizeof *dsp2);
    vcnt = malloc(size * sizeof *vcnt);
    vdsp = malloc(size * sizeof *vdsp);
    bdsp = malloc(size * sizeof *bdsp);
    bdsp2 = malloc(size * sizeof *bdsp2);
    types = malloc(size * sizeof *types);
    total = 0;
    for (int i = 0; i < size; i++) {
        vcnt[i] = i + 1;             /* v forms: i+1 from/to rank i */
        vdsp[i] = i * (size + 1);    /* with gaps between blocks */
        cnt[i] = c2(rank, i);        /* alltoallv: this rank to i */
        dsp[i] = 4 * i;
        cnt2[i] = c2(i, rank);       /* alltoallv: i to this rank */
        dsp2[i] = 4 * (size - 1 - i); /* received in reverse order */
        bdsp[i] = dsp[i] * (int)sizeof(int);
        bdsp2[i] = dsp2[i] * (int)sizeof(int);
        types[i] = MPI_INT;
        if (i < rank)
            seg_off += i + 1;
        total += i + 1;
    }
}

/* The send data of start `it`; receive buffers set to GAP. */
static void fill(void)
{
    int n = 4 * size * (size + 1) + 8;
    for (int c = 0; c < NCOLL; c++)
        for (int k = 0; k < n; k++) {
            sbuf[c][k] = val(rank, k);
            rbuf[c][k] = GAP;
        }
    for (int k = 0; k < n; k++) /* bcast: only the root's counts */
        sbuf[BCAST][k] = rank == size - 1 ? val(rank, k) : GAP;
    for (int k = 0; k < B; k++)
        rbuf[ALLREDUCE_IP][k] = val(rank, k);
}

static void plan(MPI_Comm comm, MPI_Info info, MPI_Request *r)
{
    int root0 = 0, rootl = size - 1, rootm = size / 2, root1 = 1 % size;
    CHECK_MPI(MPI_Barrier_init(comm, info, &r[BARRIER]));
    CHECK_MPI(MPI_Bcast_init(sbuf[BCAST], B, MPI_INT, rootl, comm, info,
                             &r[BCAST]));
    CHECK_MPI(MPI_Gather_init(sbuf[GATHER], B, MPI_INT, rbuf[GATHER], B,
                              MPI_INT, root0, comm, info, &r[GATHER]));
    CHECK_MPI(MPI_Gatherv_init(sbuf[GATHERV], rank + 1, MPI_INT,
                               rbuf[GATHERV], vcnt, vdsp, MPI_INT, root1,
                               comm, info, &r[GATHERV]));
    CHECK_MPI(MPI_Scatter_init(sbuf[SCATTER], B, MPI_INT, rbuf[SCATTER], B,
                               MPI_INT, root0, comm, info, &r[SCATTER]));
    CHECK_MPI(MPI_Scatterv_init(sbuf[SCATTERV], vcnt, vdsp, MPI_INT,
                                rbuf[SCATTERV], rank + 1, MPI_INT, rootl,
                                comm, info, &r[SCATTERV]));
    CHECK_MPI(MPI_Allgather_init(sbuf[ALLGATHER], B, MPI_INT,
                                 rbuf[ALLGATHER], B, MPI_INT, comm, info,
                                 &r[ALLGATHER]));
    CHECK_MPI(MPI_Allgatherv_init(sbuf[ALLGATHERV], rank + 1, MPI_INT,
                                  rbuf[ALLGATHERV], vcnt, vdsp, MPI_INT,
                                  comm, info, &r[ALLGATHERV]));
    CHECK_MPI(MPI_Alltoall_init(sbuf[ALLTOALL], B, MPI_INT, rbuf[ALLTOALL],
                                B, MPI_INT, comm, info, &r[ALLTOALL]));
    CHECK_MPI(MPI_Alltoallv_init(sbuf[ALLTOALLV], cnt, dsp, MPI_INT,
                                 rbuf[ALLTOALLV], cnt2, dsp2, MPI_INT, comm,
                                 info, &r[ALLTOALLV]));
    CHECK_MPI(MPI_Alltoallw_init(sbuf[ALLTOALLW], cnt, bdsp, types,
                                 rbuf[ALLTOALLW], cnt2, bdsp2, types, comm,
                                 info, &r[ALLTOALLW]));
    CHECK_MPI(MPI_Reduce_init(sbuf[REDUCE], rbuf[REDUCE], B, MPI_INT,
                              MPI_SUM, rootm, comm, info, &r[REDUCE]));
    CHECK_MPI(MPI_Allreduce_init(sbuf[ALLREDUCE], rbuf[ALLREDUCE], B,
                                 MPI_INT, MPI_MAX, comm, info,
                                 &r[ALLREDUCE]));
    CHECK_MPI(MPI_Allreduce_init(MPI_IN_PLACE, rbuf[ALLREDUCE_IP], B,
                                 MPI_INT, MPI_SUM, comm, info,
                                 &r[ALLREDUCE_IP]));
    CHECK_MPI(MPI_Reduce_scatter_init(sbuf[RSCATTER], rbuf[RSCATTER], vcnt,
                                      MPI_INT, MPI_SUM, comm, info,
                                      &r[RSCATTER]));
    CHECK_MPI(MPI_Reduce_scatter_block_init(sbuf[RSCATTER_BLOCK],
                                            rbuf[RSCATTER_BLOCK], B, MPI_INT,
                                            MPI_SUM, comm, info,
                                            &r[RSCATTER_BLOCK]));
    CHECK_MPI(MPI_Scan_init(sbuf[SCAN], rbuf[SCAN], B, MPI_INT, MPI_SUM, comm,
                            info, &r[SCAN]));
    CHECK_MPI(MPI_Exscan_init(sbuf[EXSCAN], rbuf[EXSCAN], B, MPI_INT,
                              MPI_SUM, comm, info, &r[EXSCAN]));
}

/* rbuf[c][k] must be want; c names the collective in the message. */
#define EXPECT(c, k, want)                                                 \
    CHECK(rbuf[c][k] == (want), "%s, start %d: element %d is %d, "       \
          "expected %d", names[c], it, (int)(k), rbuf[c][k], (int)(want))

static int sum_upto(int n, int j) /* val(0..n-1, j) summed */
{
    int s = 0;
    for (int q = 0; q < n; q++)
        s += val(q, j);
    return s;
}

static void check_v(int c, int at_root) /* gatherv/allgatherv layout */
{
    if (!at_root)
        return;
    for (int i = 0; i < size; i++)
        for (int k = 0; k < size + 1; k++)
            EXPECT(c, vdsp[i] + k, k <= i ? val(i, k) : GAP);
}

static void check(void)
{
    int root1 = 1 % size;
    for (int j = 0; j < B; j++) {
        CHECK(sbuf[BCAST][j] == val(size - 1, j), "Bcast, start %d: "
              "element %d is %d, expected %d", it, j, sbuf[BCAST][j],
              val(size - 1, j));
        EXPECT(SCATTER, j, val(0, rank * B + j));
        EXPECT(REDUCE, j, rank == size / 2 ? sum_upto(size, j) : GAP);
        EXPECT(ALLREDUCE, j, val(size - 1, j));
        EXPECT(ALLREDUCE_IP, j, sum_upto(size, j));
        EXPECT(RSCATTER_BLOCK, j, sum_upto(size, rank * B + j));
        EXPECT(SCAN, j, sum_upto(rank + 1, j));
        if (rank > 0)
            EXPECT(EXSCAN, j, sum_upto(rank, j));
    }
    EXPECT(SCATTER, B, GAP);
    for (int i = 0; i < size; i++)
        for (int j = 0; j < B; j++) {
            EXPECT(GATHER, i * B + j, rank == 0 ? val(i, j) : GAP);
            EXPECT(ALLGATHER, i * B + j, val(i, j));
            EXPECT(ALLTOALL, i * B + j, val(i, rank * B + j));
        }
    check_v(GATHERV, rank == root1);
    check_v(ALLGATHERV, 1);
    for (int k = 0; k < size + 1; k++)
        EXPECT(SCATTERV, k, k <= rank ? val(size - 1, vdsp[rank] + k) : GAP);
    for (int j = 0; j < rank + 1; j++)
        EXPECT(RSCATTER, j, sum_upto(size, seg_off + j));
    EXPECT(RSCATTER, rank + 1, GAP);
    for (int c = ALLTOALLV; c <= ALLTOALLW; c++)
        for (int i = 0; i < size; i++)
            for (int k = 0; k < 4; k++)
                EXPECT(c, dsp2[i] + k,
                       k < cnt2[i] ? val(i, dsp[rank] + k) : GAP);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    alloc_all();
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "no_such_hint", "ignored"));
    MPI_Request r[NCOLL];
    it = 0;
    fill(); /* the init calls read no data: set it before or after */
    plan(MPI_COMM_WORLD, info, r);
    CHECK_MPI(MPI_Info_free(&info));

    /* one at a time, four starts each */
    for (it = 0; it < ITERS; it++) {
        fill();
        for (int c = 0; c < NCOLL; c++) {
            CHECK_MPI(MPI_Start(&r[c]));
            CHECK_MPI(MPI_Wait(&r[c], MPI_STATUS_IGNORE));
            CHECK(r[c] != MPI_REQUEST_NULL, "%s: Wait freed it", names[c]);
        }
        check();
        int flag = 0;
        MPI_Status st;
        CHECK_MPI(MPI_Test(&r[it], &flag, &st));
        CHECK(flag && st.MPI_TAG == MPI_ANY_TAG &&
              st.MPI_SOURCE == MPI_ANY_SOURCE,
              "MPI_Test of an inactive request: flag %d, empty status",
              flag);
    }

    /* all at once, twice */
    for (it = ITERS; it < ITERS + 2; it++) {
        fill();
        CHECK_MPI(MPI_Startall(NCOLL, r));
        CHECK_MPI(MPI_Waitall(NCOLL, r, MPI_STATUSES_IGNORE));
        check();
    }

    for (int c = 0; c < NCOLL; c++) {
        CHECK_MPI(MPI_Request_free(&r[c]));
        CHECK(r[c] == MPI_REQUEST_NULL, "Request_free left the handle");
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
