/* topo_neighbor: the five neighbor collectives (allgather, allgatherv, alltoall, alltoallv, alltoallw), blocking and nonblocking, over Cartesian grids (with MPI_PROC_NULL edges, and periodic dimensions of one or two processes, where down and up are one process) and a distributed graph, with derived datatypes on both sides, zero counts, scattered displacements, every element checked and untouched slots left alone; a wildcard receive posted meanwhile never sees their messages. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define MAXN 16   /* neighbors */
#define K 4       /* elements of a full block */
#define UNTOUCHED (-7)

/* Open MPI 4.1's nonblocking neighbor collectives (libnbc) pair the two
   blocks of a periodic dimension of one or two processes in list order,
   which the errata of MPI-3.1 (MPI-4.0 Annex B.1.1) rule out; its
   blocking ones are right.  Those cases are for shmpi only. */
#ifdef OPEN_MPI
#define LIBNBC_CART_PAIR_BUG 1
#else
#define LIBNBC_CART_PAIR_BUG 0
#endif

static int rank, size;
static int nonblocking; /* the I-forms, each waited for at once */

/* blocking(args) or nonblocking(args, &request) and a wait */
#define CALL(blocking, nonblocking_form, ...)                              \
    do {                                                                   \
        if (nonblocking) {                                                 \
            MPI_Request rq_;                                               \
            CHECK_MPI(nonblocking_form(__VA_ARGS__, &rq_));                \
            CHECK_MPI(MPI_Wait(&rq_, MPI_STATUS_IGNORE));                  \
        } else {                                                           \
            CHECK_MPI(blocking(__VA_ARGS__));                              \
        }                                                                  \
    } while (0)

/* MPI_UNWEIGHTED through a variable: GCC takes the constant for a
   pointer to nothing and warns about it under Open MPI's mpi.h */
static int *volatile no_weights;

/* A topology as seen from one process: whom block j comes from, whom
   block b goes to, and which of the sender's blocks arrives in slot j. */
struct nbrs {
    MPI_Comm comm;
    int n;                     /* indegree = outdegree here */
    int src[MAXN], dst[MAXN];
    int cart;                  /* slot 2d holds the -1 neighbor's block
                                  2d + 1 and slot 2d + 1 the +1
                                  neighbor's block 2d; otherwise slot j
                                  holds block j */
};

static int partner(const struct nbrs *t, int j)
{
    return t->cart ? j ^ 1 : j;
}

/* Element k of block b of process s. */
static int value(int s, int b, int k) { return 10000 * s + 100 * b + k; }

/* Block b of sender s holds this many elements (alltoallv/w): some are
   empty. */
static int count_of(int b) { return b % 3; }

static void check_slot(const struct nbrs *t, int j, const int *got, int n,
                       int block, const char *what)
{
    for (int k = 0; k < n; k++) {
        int want = t->src[j] == MPI_PROC_NULL
                       ? UNTOUCHED
                       : value(t->src[j], block, k);
        CHECK(got[k] == want, "%s slot %d element %d: %d, expected %d",
              what, j, k, got[k], want);
    }
}

static void fill(int *a, int n, int v)
{
    for (int i = 0; i < n; i++)
        a[i] = v;
}

/* Neighbor_allgather: K ints picked out of every other int by a vector
   type, received as K contiguous ints per slot. */
static void allgather(const struct nbrs *t)
{
    int sendv[2 * K], recvv[MAXN * K];
    MPI_Datatype every_other;
    CHECK_MPI(MPI_Type_vector(K, 1, 2, MPI_INT, &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    for (int k = 0; k < K; k++) {
        sendv[2 * k] = value(rank, 0, k);
        sendv[2 * k + 1] = -1;
    }
    fill(recvv, MAXN * K, UNTOUCHED);
    CALL(MPI_Neighbor_allgather, MPI_Ineighbor_allgather, sendv, 1,
         every_other, recvv, K, MPI_INT, t->comm);
    for (int j = 0; j < t->n; j++)
        check_slot(t, j, &recvv[j * K], K, 0, "allgather");
    CHECK_MPI(MPI_Type_free(&every_other));
}

/* Neighbor_allgatherv: slots in reverse order with a gap between them,
   received through a type of two ints. */
static void allgatherv(const struct nbrs *t)
{
    int sendv[K], recvv[MAXN * (K + 2)], counts[MAXN], displs[MAXN];
    MPI_Datatype two;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &two));
    CHECK_MPI(MPI_Type_commit(&two));
    for (int k = 0; k < K; k++)
        sendv[k] = value(rank, 0, k);
    for (int j = 0; j < t->n; j++) {
        counts[j] = K / 2;
        displs[j] = (t->n - 1 - j) * (K + 2) / 2;
    }
    fill(recvv, MAXN * (K + 2), UNTOUCHED);
    CALL(MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv, sendv, K,
         MPI_INT, recvv, counts, displs, two, t->comm);
    for (int j = 0; j < t->n; j++) {
        const int *slot = &recvv[displs[j] * 2];
        check_slot(t, j, slot, K, 0, "allgatherv");
        CHECK(slot[K] == UNTOUCHED && slot[K + 1] == UNTOUCHED,
              "allgatherv wrote past slot %d", j);
    }
    CHECK_MPI(MPI_Type_free(&two));
}

/* Neighbor_alltoall: blocks of K/2 pairs sent, K ints received. */
static void alltoall(const struct nbrs *t)
{
    int sendv[MAXN * K], recvv[MAXN * K];
    MPI_Datatype two;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &two));
    CHECK_MPI(MPI_Type_commit(&two));
    for (int b = 0; b < t->n; b++)
        for (int k = 0; k < K; k++)
            sendv[b * K + k] = value(rank, b, k);
    fill(recvv, MAXN * K, UNTOUCHED);
    CALL(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, sendv, K / 2,
         two, recvv, K, MPI_INT, t->comm);
    for (int j = 0; j < t->n; j++)
        check_slot(t, j, &recvv[j * K], K, partner(t, j), "alltoall");
    CHECK_MPI(MPI_Type_free(&two));
}

/* Neighbor_alltoallv: block b has count_of(b) elements (some none), in a
   send buffer laid out backwards; received with a vector type that
   leaves a gap after every element. */
static void alltoallv(const struct nbrs *t)
{
    int sendv[MAXN * K], recvv[MAXN * 2 * K];
    int scounts[MAXN], sdispls[MAXN], rcounts[MAXN], rdispls[MAXN];
    MPI_Datatype spaced; /* one int, then a gap of one */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int),
                                      &spaced));
    CHECK_MPI(MPI_Type_commit(&spaced));
    for (int b = 0; b < t->n; b++) {
        scounts[b] = count_of(b);
        sdispls[b] = (t->n - 1 - b) * K;
        for (int k = 0; k < scounts[b]; k++)
            sendv[sdispls[b] + k] = value(rank, b, k);
    }
    for (int j = 0; j < t->n; j++) {
        rcounts[j] = count_of(partner(t, j));
        rdispls[j] = j * K;
    }
    fill(recvv, MAXN * 2 * K, UNTOUCHED);
    CALL(MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv, sendv,
         scounts, sdispls, MPI_INT, recvv, rcounts, rdispls, spaced,
         t->comm);
    for (int j = 0; j < t->n; j++) {
        int got[K];
        for (int k = 0; k < rcounts[j]; k++) {
            got[k] = recvv[2 * (rdispls[j] + k)];
            CHECK(recvv[2 * (rdispls[j] + k) + 1] == UNTOUCHED,
                  "alltoallv wrote into a gap of slot %d", j);
        }
        check_slot(t, j, got, rcounts[j], partner(t, j), "alltoallv");
    }
    CHECK_MPI(MPI_Type_free(&spaced));
}

/* Neighbor_alltoallw: block b is count_of(b) of a vector type (every
   other int) at a byte displacement; slot j is one contiguous type of
   its length, at a byte displacement of its own. */
static void alltoallw(const struct nbrs *t)
{
    int sendv[MAXN * 2 * K], recvv[MAXN * K];
    int scounts[MAXN], rcounts[MAXN];
    MPI_Aint sdispls[MAXN], rdispls[MAXN];
    MPI_Datatype stypes[MAXN], rtypes[MAXN], every_other;
    CHECK_MPI(MPI_Type_vector(1, 1, 2, MPI_INT, &every_other));
    CHECK_MPI(MPI_Type_create_resized(every_other, 0, 2 * sizeof(int),
                                      &stypes[0]));
    CHECK_MPI(MPI_Type_free(&every_other));
    CHECK_MPI(MPI_Type_commit(&stypes[0]));
    fill(sendv, MAXN * 2 * K, -1);
    for (int b = 0; b < t->n; b++) {
        stypes[b] = stypes[0];
        scounts[b] = count_of(b);
        sdispls[b] = (MPI_Aint)(b * 2 * K * sizeof(int));
        for (int k = 0; k < scounts[b]; k++)
            sendv[b * 2 * K + 2 * k] = value(rank, b, k);
    }
    for (int j = 0; j < t->n; j++) {
        int len = count_of(partner(t, j));
        CHECK_MPI(MPI_Type_contiguous(len, MPI_INT, &rtypes[j]));
        CHECK_MPI(MPI_Type_commit(&rtypes[j]));
        rcounts[j] = 1;
        rdispls[j] = (MPI_Aint)((t->n - 1 - j) * K * sizeof(int));
    }
    fill(recvv, MAXN * K, UNTOUCHED);
    CALL(MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw, sendv,
         scounts, sdispls, stypes, recvv, rcounts, rdispls, rtypes,
         t->comm);
    for (int j = 0; j < t->n; j++) {
        const int *slot = &recvv[rdispls[j] / sizeof(int)];
        int len = count_of(partner(t, j));
        check_slot(t, j, slot, len, partner(t, j), "alltoallw");
        CHECK(len == K || slot[len] == UNTOUCHED,
              "alltoallw wrote past slot %d", j);
        CHECK_MPI(MPI_Type_free(&rtypes[j]));
    }
    CHECK_MPI(MPI_Type_free(&stypes[0]));
}

/* All five, while a receive for any source and tag waits on the same
   communicator: it must get the program's message, sent afterwards. */
static void all_five(const struct nbrs *t)
{
    int user = -1, mine = 4242;
    MPI_Request rq;
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(&user, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                        t->comm, &rq));
    allgather(t);
    allgatherv(t);
    alltoall(t);
    alltoallv(t);
    alltoallw(t);
    int crank;
    CHECK_MPI(MPI_Comm_rank(t->comm, &crank));
    CHECK_MPI(MPI_Send(&mine, 1, MPI_INT, crank, 9, t->comm));
    CHECK_MPI(MPI_Wait(&rq, &st));
    CHECK(user == mine && st.MPI_TAG == 9 && st.MPI_SOURCE == crank,
          "the wildcard receive got %d (tag %d, source %d)", user,
          st.MPI_TAG, st.MPI_SOURCE);
}

/* The grid of ndims dimensions dims (0: MPI_Dims_create's choice). */
static void cartesian(int ndims, const int *dims_in, const int *periods)
{
    int dims[3] = {0, 0, 0}, pair_twice = 0;
    struct nbrs t = {.cart = 1, .n = 2 * ndims};
    memcpy(dims, dims_in, ndims * sizeof(int));
    CHECK_MPI(MPI_Dims_create(size, ndims, dims));
    for (int d = 0; d < ndims; d++)
        pair_twice |= periods[d] && dims[d] <= 2;
    if (nonblocking && pair_twice && LIBNBC_CART_PAIR_BUG)
        return;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0,
                              &t.comm));
    for (int d = 0; d < ndims; d++) {
        CHECK_MPI(MPI_Cart_shift(t.comm, d, 1, &t.src[2 * d],
                                 &t.src[2 * d + 1]));
        t.dst[2 * d] = t.src[2 * d];
        t.dst[2 * d + 1] = t.src[2 * d + 1];
    }
    all_five(&t);
    CHECK_MPI(MPI_Comm_free(&t.comm));
}

/* Receive from rank - 1 and rank + 3, send to rank + 1 and rank - 3
   (around the job): slot j of each process is block j of its source. */
static void dist_graph(void)
{
    struct nbrs t = {.cart = 0, .n = 2};
    t.src[0] = (rank - 1 + size) % size;
    t.src[1] = (rank + 3) % size;
    t.dst[0] = (rank + 1) % size;
    t.dst[1] = (rank - 3 + 3 * size) % size;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(
        MPI_COMM_WORLD, 2, t.src, no_weights, 2, t.dst, no_weights,
        MPI_INFO_NULL, 0, &t.comm));
    all_five(&t);
    CHECK_MPI(MPI_Comm_free(&t.comm));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    no_weights = MPI_UNWEIGHTED;
    for (nonblocking = 0; nonblocking < 2; nonblocking++) {
        cartesian(2, (int[]){0, 0}, (int[]){0, 0});
        cartesian(3, (int[]){0, 0, 0}, (int[]){0, 0, 0});
        /* periodic: below 3 processes in a dimension its -1 and +1
           neighbors are one process, below 2 this one */
        cartesian(1, (int[]){0}, (int[]){1});
        cartesian(2, (int[]){0, 0}, (int[]){1, 1});
        cartesian(2, (int[]){1, 0}, (int[]){1, 1});
        cartesian(3, (int[]){0, 0, 0}, (int[]){1, 0, 1});
        dist_graph();
    }
    CHECK_MPI(MPI_Finalize());
    return 0;
}
