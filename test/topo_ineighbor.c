/* topo_ineighbor: the five nonblocking neighbor collectives, all in flight at once on a periodic Cartesian grid and on a distributed graph (with a derived type freed before the wait, and an MPI_ANY_SOURCE receive that must not see their messages), give exactly what the blocking ones give. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define MAXN 8   /* neighbors: 2 per dimension of a 2-D grid, 3 in the graph */
#define K 3      /* elements per block */

/* Open MPI 4.1's nonblocking neighbor collectives pair the two blocks
   of a periodic dimension of one or two processes in list order, its
   blocking ones as the standard says. */
#ifdef OPEN_MPI
#define LIBNBC_CART_PAIR_BUG 1
#else
#define LIBNBC_CART_PAIR_BUG 0
#endif

static int rank, size;

/* MPI_UNWEIGHTED through a variable: GCC takes the constant for a
   pointer to nothing and warns about it under Open MPI's mpi.h */
static int *volatile unweighted;

/* Element i of block b that this rank sends. */
static int value(int b, int i)
{
    return rank * 1000 + b * 10 + i;
}

struct bufs {
    int send_same[K];               /* allgather(v)'s one block */
    int send[MAXN * K];             /* alltoall(v,w)'s blocks */
    int recv[5][MAXN * 2 * K];      /* one per call, spaced for the v form */
};

static void fill(struct bufs *b)
{
    for (int i = 0; i < K; i++)
        b->send_same[i] = value(99, i);
    for (int j = 0; j < MAXN; j++)
        for (int i = 0; i < K; i++)
            b->send[j * K + i] = value(j, i);
    for (int c = 0; c < 5; c++)
        for (int i = 0; i < MAXN * 2 * K; i++)
            b->recv[c][i] = -1;
}

/* Start (req != NULL) or run the five calls on comm with n neighbors. */
static void five(MPI_Comm comm, int n, struct bufs *b, MPI_Datatype pair,
                 MPI_Request *req)
{
    int counts[MAXN], displs[MAXN], sdispls[MAXN], wcounts[MAXN];
    MPI_Aint sbytes[MAXN], rbytes[MAXN];
    MPI_Datatype stypes[MAXN], rtypes[MAXN];
    for (int j = 0; j < n; j++) {
        counts[j] = K;
        displs[j] = 2 * K * j;              /* gaps between the blocks */
        sdispls[j] = K * j;
        sbytes[j] = (MPI_Aint)(j * K * sizeof(int));
        rbytes[j] = (MPI_Aint)((n - 1 - j) * K * sizeof(int)); /* reversed */
        stypes[j] = MPI_INT;
        rtypes[j] = MPI_INT;
        wcounts[j] = K;
    }
    if (req) {
        CHECK_MPI(MPI_Ineighbor_allgather(b->send_same, K, MPI_INT,
                                          b->recv[0], K, MPI_INT, comm,
                                          &req[0]));
        CHECK_MPI(MPI_Ineighbor_allgatherv(b->send_same, K, MPI_INT,
                                           b->recv[1], counts, displs,
                                           MPI_INT, comm, &req[1]));
        /* K ints sent as pairs of ... one int: the pair type is a vector
           of K ints with stride 1, a derived type freed before the wait */
        CHECK_MPI(MPI_Ineighbor_alltoall(b->send, 1, pair, b->recv[2], K,
                                         MPI_INT, comm, &req[2]));
        CHECK_MPI(MPI_Ineighbor_alltoallv(b->send, counts, sdispls,
                                          MPI_INT, b->recv[3], counts,
                                          displs, MPI_INT, comm, &req[3]));
        CHECK_MPI(MPI_Ineighbor_alltoallw(b->send, wcounts, sbytes, stypes,
                                          b->recv[4], wcounts, rbytes,
                                          rtypes, comm, &req[4]));
    } else {
        CHECK_MPI(MPI_Neighbor_allgather(b->send_same, K, MPI_INT,
                                         b->recv[0], K, MPI_INT, comm));
        CHECK_MPI(MPI_Neighbor_allgatherv(b->send_same, K, MPI_INT,
                                          b->recv[1], counts, displs,
                                          MPI_INT, comm));
        CHECK_MPI(MPI_Neighbor_alltoall(b->send, 1, pair, b->recv[2], K,
                                        MPI_INT, comm));
        CHECK_MPI(MPI_Neighbor_alltoallv(b->send, counts, sdispls, MPI_INT,
                                         b->recv[3], counts, displs,
                                         MPI_INT, comm));
        CHECK_MPI(MPI_Neighbor_alltoallw(b->send, wcounts, sbytes, stypes,
                                         b->recv[4], wcounts, rbytes,
                                         rtypes, comm));
    }
}

/* distinct: no neighbor appears twice, or the pairing of its blocks is
   certain.  A graph's repeated edges pair in list order in shmpi, and the
   two blocks of a periodic dimension of one or two processes pair as the
   standard says (down to up: MPI-4.0 Annex B.1.1); Open MPI 4.1 pairs
   both in list order in the nonblocking forms only, and MPI-3.1 did not
   say how repeated graph edges pair, so otherwise only the allgathers
   are compared. */
static void compare(MPI_Comm comm, int n, int distinct, const char *what)
{
    static struct bufs nb, bl;
    MPI_Datatype pair;
    MPI_Request req[6];
    int spare = -5, got = 0;
    fill(&nb);
    fill(&bl);
    CHECK_MPI(MPI_Type_vector(1, K, 1, MPI_INT, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    CHECK_MPI(MPI_Irecv(&spare, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                        comm, &req[5]));
    five(comm, n, &nb, pair, req);
    CHECK_MPI(MPI_Type_free(&pair));
    CHECK_MPI(MPI_Waitall(5, req, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Test(&req[5], &got, MPI_STATUS_IGNORE));
    CHECK(!got, "%s: the wildcard receive matched a collective message",
          what);
    CHECK_MPI(MPI_Cancel(&req[5]));
    CHECK_MPI(MPI_Wait(&req[5], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Type_vector(1, K, 1, MPI_INT, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    five(comm, n, &bl, pair, NULL);
    CHECK_MPI(MPI_Type_free(&pair));
    for (int c = 0; c < (distinct ? 5 : 2); c++)
        for (int i = 0; i < MAXN * 2 * K; i++)
            CHECK(nb.recv[c][i] == bl.recv[c][i],
                  "%s: call %d element %d: nonblocking %d, blocking %d",
                  what, c, i, nb.recv[c][i], bl.recv[c][i]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    unweighted = MPI_UNWEIGHTED;

    /* a periodic 2-D grid: 4 neighbors, some repeated when a dimension
       has one or two processes */
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Comm cart, graph;
    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    compare(cart, 4, !LIBNBC_CART_PAIR_BUG || (dims[0] >= 3 && dims[1] >= 3),
            "cart");

    /* a graph: rank receives from rank-1, rank+1, rank+2 and sends to
       rank+1, rank-1, rank-2 (mod size) */
    int src[3], dst[3];
    for (int j = 0; j < 3; j++) {
        int d = j == 0 ? -1 : j; /* -1, +1, +2 */
        src[j] = ((rank + d) % size + size) % size;
        dst[j] = ((rank - d) % size + size) % size;
    }
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 3, src,
                                             unweighted, 3, dst, unweighted,
                                             MPI_INFO_NULL, 0, &graph));
    compare(graph, 3, size >= 4, "graph");

    CHECK_MPI(MPI_Comm_free(&cart));
    CHECK_MPI(MPI_Comm_free(&graph));
    MPI_Finalize();
    return 0;
}
