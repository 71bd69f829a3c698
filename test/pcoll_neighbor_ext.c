/* pcoll_neighbor_ext: the persistent neighborhood collectives of MPI-4.0 (MPI_Neighbor_allgather_init .. _alltoallw_init) on a periodic Cartesian ring and on a distributed graph with two out- and two in-edges per process (repeated edges at np 1 and 2), each planned once and started four times with new data, then all five at once by MPI_Startall; results checked exactly, gaps untouched; freed inactive.  ext: Open MPI 4.1 has only the MPIX_ names. */
/* shmpi-test: np=1,2,3,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define B 3
#define W 4          /* room per block */
#define GAP (-7)
#define ITERS 4

static int rank, size, it;

static int val(int r, int j)
{
    return 1000 * r + 100 * it + j + 1;
}

enum { ALLGATHER, ALLTOALL, ALLGATHERV, ALLTOALLV, ALLTOALLW, N };
static const char *names[N] = {"allgather", "alltoall", "allgatherv",
                               "alltoallv", "alltoallw"};
static int sbuf[N][2 * W], rbuf[N][2 * W];
static int down, up, src[2], dst[2];

static void fill(void)
{
    for (int c = 0; c < N; c++)
        for (int k = 0; k < 2 * W; k++) {
            sbuf[c][k] = val(rank, k);
            rbuf[c][k] = GAP;
        }
}

#define EXPECT(c, k, want)                                                 \
    CHECK(rbuf[c][k] == (want), "%s, start %d: element %d is %d, "       \
          "expected %d", names[c], it, (int)(k), rbuf[c][k], (int)(want))

static int vcount(int s) /* allgatherv: what s sends */
{
    return s % 3 + 1;
}

static int acount(int s, int i) /* alltoallv/w: s's block i */
{
    return (s + i) % 2 + 1;
}

static void check(void)
{
    for (int k = 0; k < B; k++) {
        EXPECT(ALLGATHER, k, val(down, k));
        EXPECT(ALLGATHER, B + k, val(up, k));
        EXPECT(ALLTOALL, k, val(down, B + k));
        EXPECT(ALLTOALL, B + k, val(up, k));
    }
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < W; k++) {
            EXPECT(ALLGATHERV, i * W + k,
                   k < vcount(src[i]) ? val(src[i], k) : GAP);
            for (int c = ALLTOALLV; c <= ALLTOALLW; c++)
                EXPECT(c, i * W + k,
                       k < acount(src[i], i) ? val(src[i], i * W + k) : GAP);
        }
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Comm ring, graph;
    int dims[1] = {size}, periods[1] = {1};
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    CHECK_MPI(MPI_Cart_shift(ring, 0, 1, &down, &up));
    for (int i = 0; i < 2; i++) {
        dst[i] = (rank + 1 + i) % size;
        src[i] = (rank - 1 - i + 2 * size) % size;
    }
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src,
                                             MPI_UNWEIGHTED, 2, dst,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL,
                                             0, &graph));
    int vcnt[2], vdsp[2], scnt[2], rcnt[2], dsp[2];
    MPI_Aint bdsp[2];
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    for (int i = 0; i < 2; i++) {
        vcnt[i] = vcount(src[i]);
        vdsp[i] = dsp[i] = i * W;
        scnt[i] = acount(rank, i);
        rcnt[i] = acount(src[i], i);
        bdsp[i] = (MPI_Aint)(i * W * (int)sizeof(int));
    }
    MPI_Request r[N];
    CHECK_MPI(MPI_Neighbor_allgather_init(sbuf[ALLGATHER], B, MPI_INT,
                                          rbuf[ALLGATHER], B, MPI_INT, ring,
                                          MPI_INFO_NULL, &r[ALLGATHER]));
    CHECK_MPI(MPI_Neighbor_alltoall_init(sbuf[ALLTOALL], B, MPI_INT,
                                         rbuf[ALLTOALL], B, MPI_INT, ring,
                                         MPI_INFO_NULL, &r[ALLTOALL]));
    CHECK_MPI(MPI_Neighbor_allgatherv_init(sbuf[ALLGATHERV], vcount(rank),
                                           MPI_INT, rbuf[ALLGATHERV], vcnt,
                                           vdsp, MPI_INT, graph,
                                           MPI_INFO_NULL, &r[ALLGATHERV]));
    CHECK_MPI(MPI_Neighbor_alltoallv_init(sbuf[ALLTOALLV], scnt, dsp,
                                          MPI_INT, rbuf[ALLTOALLV], rcnt,
                                          dsp, MPI_INT, graph, MPI_INFO_NULL,
                                          &r[ALLTOALLV]));
    CHECK_MPI(MPI_Neighbor_alltoallw_init(sbuf[ALLTOALLW], scnt, bdsp, types,
                                          rbuf[ALLTOALLW], rcnt, bdsp, types,
                                          graph, MPI_INFO_NULL,
                                          &r[ALLTOALLW]));
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
    CHECK_MPI(MPI_Comm_free(&ring));
    CHECK_MPI(MPI_Comm_free(&graph));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
