/* topo_graph: graph topologies (a ring with self-loops and repeated edges where the job is small, a star, a graph smaller than the job) and distributed graphs (adjacent and general, weighted and not, MPI_WEIGHTS_EMPTY, no edges with NULL weights (still weighted), edges named by another process): every query, neighbor order, weights, MPI_Comm_dup, and MPI_Neighbor_allgather/alltoall over them checked by values. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size;

/* MPI_UNWEIGHTED where an output array goes, through a variable: GCC
   takes the constant for a pointer to nothing and warns about it under
   Open MPI's mpi.h */
static int *volatile no_weights;

/* ------------------------------------------------------------------ */
/* Graphs                                                              */
/* ------------------------------------------------------------------ */

/* Node i of a ring is joined to i + 1 and i - 1 (a self-loop twice on
   one node, a double edge on two). */
static int ring_graph(int n, int *index, int *edges)
{
    for (int i = 0; i < n; i++) {
        edges[2 * i] = (i + 1) % n;
        edges[2 * i + 1] = (i - 1 + n) % n;
        index[i] = 2 * (i + 1);
    }
    return 2 * n;
}

/* Node 0 is joined to every other, each of them to 0 only. */
static int star_graph(int n, int *index, int *edges)
{
    int e = 0;
    for (int i = 1; i < n; i++)
        edges[e++] = i;
    index[0] = e;
    for (int i = 1; i < n; i++) {
        edges[e++] = 0;
        index[i] = e;
    }
    return e;
}

static void check_graph(MPI_Comm g, int n, const int *index,
                        const int *edges)
{
    int status, nnodes, nedges, nedges_want = n > 0 ? index[n - 1] : 0;
    CHECK_MPI(MPI_Topo_test(g, &status));
    CHECK(status == MPI_GRAPH, "Topo_test gave %d", status);
    CHECK_MPI(MPI_Graphdims_get(g, &nnodes, &nedges));
    CHECK(nnodes == n && nedges == nedges_want,
          "Graphdims_get: %d nodes, %d edges; expected %d, %d", nnodes,
          nedges, n, nedges_want);
    int gi[64], ge[128];
    CHECK_MPI(MPI_Graph_get(g, 64, 128, gi, ge));
    for (int i = 0; i < n; i++)
        CHECK(gi[i] == index[i], "Graph_get index[%d] = %d", i, gi[i]);
    for (int i = 0; i < nedges; i++)
        CHECK(ge[i] == edges[i], "Graph_get edges[%d] = %d", i, ge[i]);
    for (int r = 0; r < n; r++) {
        int first = r > 0 ? index[r - 1] : 0, count, nb[64];
        CHECK_MPI(MPI_Graph_neighbors_count(g, r, &count));
        CHECK(count == index[r] - first, "node %d: %d neighbors", r, count);
        CHECK_MPI(MPI_Graph_neighbors(g, r, 64, nb));
        for (int i = 0; i < count; i++)
            CHECK(nb[i] == edges[first + i],
                  "node %d neighbor %d is %d, expected %d", r, i, nb[i],
                  edges[first + i]);
    }
}

/* Every node gathers (rank, 7) pairs from its neighbors, in their
   order. */
static void gather_over(MPI_Comm g, const int *index, const int *edges)
{
    int first = rank > 0 ? index[rank - 1] : 0, count = index[rank] - first;
    int mine[2] = {rank, 7}, got[128];
    for (int i = 0; i < 2 * count; i++)
        got[i] = -1;
    CHECK_MPI(MPI_Neighbor_allgather(mine, 2, MPI_INT, got, 2, MPI_INT, g));
    for (int i = 0; i < count; i++)
        CHECK(got[2 * i] == edges[first + i] && got[2 * i + 1] == 7,
              "block %d: (%d, %d), expected (%d, 7)", i, got[2 * i],
              got[2 * i + 1], edges[first + i]);
}

static void graphs(void)
{
    int index[64], edges[128];
    for (int kind = 0; kind < 2; kind++) {
        int n = size;
        if (kind == 0)
            ring_graph(n, index, edges);
        else
            star_graph(n, index, edges);
        MPI_Comm g, dup;
        CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g));
        CHECK(g != MPI_COMM_NULL, "every process is a node");
        check_graph(g, n, index, edges);
        gather_over(g, index, edges);
        CHECK_MPI(MPI_Comm_dup(g, &dup));
        check_graph(dup, n, index, edges);
        gather_over(dup, index, edges);
        CHECK_MPI(MPI_Comm_free(&dup));
        CHECK_MPI(MPI_Comm_free(&g));
        int newrank;
        CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &newrank));
        CHECK(newrank >= 0 && newrank < n, "Graph_map gave %d", newrank);
    }
    if (size > 1) { /* the last process is not a node */
        int n = size - 1;
        ring_graph(n, index, edges);
        MPI_Comm g;
        CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 1, &g));
        if (rank == n) {
            CHECK(g == MPI_COMM_NULL, "the last process is not a node");
        } else {
            check_graph(g, n, index, edges);
            gather_over(g, index, edges);
            CHECK_MPI(MPI_Comm_free(&g));
        }
    }
}

/* ------------------------------------------------------------------ */
/* Distributed graphs                                                  */
/* ------------------------------------------------------------------ */

struct edge {
    int peer, weight;
};

static int by_peer_weight(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    if (x->peer != y->peer)
        return x->peer - y->peer;
    return x->weight - y->weight;
}

/* The two lists hold the same (peer, weight) pairs, in any order (in the
   same order when ordered). */
static void same_edges(int n, const int *peers, const int *weights,
                       const struct edge *want, int ordered,
                       const char *what)
{
    struct edge got[64], w[64];
    for (int i = 0; i < n; i++) {
        got[i] = (struct edge){peers[i], weights ? weights[i] : 0};
        w[i] = want[i];
        if (!weights)
            w[i].weight = 0;
    }
    if (!ordered) {
        qsort(got, (size_t)n, sizeof *got, by_peer_weight);
        qsort(w, (size_t)n, sizeof *w, by_peer_weight);
    }
    for (int i = 0; i < n; i++)
        CHECK(got[i].peer == w[i].peer && got[i].weight == w[i].weight,
              "%s %d: (%d, %d), expected (%d, %d)", what, i, got[i].peer,
              got[i].weight, w[i].peer, w[i].weight);
}

static void check_dist(MPI_Comm g, int indeg, const struct edge *in,
                       int outdeg, const struct edge *out, int weighted,
                       int ordered)
{
    int status, gi, go, gw;
    CHECK_MPI(MPI_Topo_test(g, &status));
    CHECK(status == MPI_DIST_GRAPH, "Topo_test gave %d", status);
    CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &gi, &go, &gw));
    CHECK(gi == indeg && go == outdeg && !gw == !weighted,
          "neighbors_count: in %d out %d weighted %d; expected %d %d %d", gi,
          go, gw, indeg, outdeg, weighted);
    int src[64], sw[64], dst[64], dw[64];
    CHECK_MPI(MPI_Dist_graph_neighbors(g, 64, src, sw, 64, dst, dw));
    same_edges(indeg, src, weighted ? sw : NULL, in, ordered, "source");
    same_edges(outdeg, dst, weighted ? dw : NULL, out, ordered,
               "destination");
    /* no weights asked for: the ranks alone */
    CHECK_MPI(MPI_Dist_graph_neighbors(g, 64, src, no_weights, 64, dst,
                                       no_weights));
    same_edges(indeg, src, NULL, in, ordered, "source");
}

/* Over the graph's own order: block i to destination d is 1000 rank + d,
   so block j from source s must be 1000 s + rank (graphs without
   repeated edges). */
static void alltoall_over(MPI_Comm g)
{
    int indeg, outdeg, weighted, src[64], dst[64];
    CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
    CHECK_MPI(MPI_Dist_graph_neighbors(g, 64, src, no_weights, 64, dst,
                                       no_weights));
    int sendv[64], recvv[64];
    for (int i = 0; i < outdeg; i++)
        sendv[i] = 1000 * rank + dst[i];
    for (int j = 0; j < indeg; j++)
        recvv[j] = -1;
    CHECK_MPI(MPI_Neighbor_alltoall(sendv, 1, MPI_INT, recvv, 1, MPI_INT, g));
    for (int j = 0; j < indeg; j++)
        CHECK(recvv[j] == 1000 * src[j] + rank,
              "block %d from %d: %d, expected %d", j, src[j], recvv[j],
              1000 * src[j] + rank);
}

/* Each process receives from rank - 1 and rank - 2 and sends to rank + 1
   and rank + 2 (around the job), weight 10 s + d on edge s -> d. */
static void adjacent(int weighted)
{
    int src[2], sw[2], dst[2], dw[2];
    struct edge in[2], out[2];
    for (int k = 0; k < 2; k++) {
        src[k] = (rank - 1 - k + 2 * size) % size;
        dst[k] = (rank + 1 + k) % size;
        sw[k] = 10 * src[k] + rank;
        dw[k] = 10 * rank + dst[k];
        in[k] = (struct edge){src[k], sw[k]};
        out[k] = (struct edge){dst[k], dw[k]};
    }
    MPI_Comm g, dup;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(
        MPI_COMM_WORLD, 2, src, weighted ? sw : MPI_UNWEIGHTED, 2, dst,
        weighted ? dw : MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
    check_dist(g, 2, in, 2, out, weighted, 1);
    CHECK_MPI(MPI_Comm_dup(g, &dup));
    check_dist(dup, 2, in, 2, out, weighted, 1);
    CHECK_MPI(MPI_Comm_free(&dup));
    if (size > 2)  /* no repeated edge */
        alltoall_over(g);
    /* the two sources send different things: (s, 0) and (s, 1) to their
       first and second destination */
    int sendv[4] = {rank, 0, rank, 1}, recvv[4] = {-1, -1, -1, -1};
    CHECK_MPI(MPI_Neighbor_alltoall(sendv, 2, MPI_INT, recvv, 2, MPI_INT, g));
    for (int k = 0; k < 2; k++)
        CHECK(recvv[2 * k] == src[k] && recvv[2 * k + 1] == k,
              "from source %d: (%d, %d), expected (%d, %d)", k,
              recvv[2 * k], recvv[2 * k + 1], src[k], k);
    CHECK_MPI(MPI_Comm_free(&g));
}

/* A chain 0 -> 1 -> ... -> size-1: the ends have an empty side, given as
   MPI_WEIGHTS_EMPTY. */
static void chain(void)
{
    int src[1] = {rank - 1}, dst[1] = {rank + 1}, sw[1] = {rank},
        dw[1] = {rank + 1};
    int indeg = rank > 0, outdeg = rank < size - 1;
    MPI_Comm g;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(
        MPI_COMM_WORLD, indeg, src, indeg ? sw : MPI_WEIGHTS_EMPTY, outdeg,
        dst, outdeg ? dw : MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g));
    struct edge in[1] = {{rank - 1, rank}}, out[1] = {{rank + 1, rank + 1}};
    check_dist(g, indeg, in, outdeg, out, 1, 1);
    int mine = 100 + rank, got = -1;
    CHECK_MPI(MPI_Neighbor_allgather(&mine, 1, MPI_INT, &got, 1, MPI_INT, g));
    CHECK(got == (rank > 0 ? 99 + rank : -1), "chain: got %d", got);
    CHECK_MPI(MPI_Comm_free(&g));
}

/* The same edges as adjacent(), all named by rank 0 (sources, degrees,
   destinations).  Edges named by their destinations are left to
   topo_ext: Open MPI 4.1.4's MPI_Dist_graph_create sometimes never
   returns on those. */
static void general(int weighted)
{
    int srcs[64], degs[64], dsts[128], ws[128], n = 0, e = 0;
    for (int s = 0; s < size && rank == 0; s++)
        for (int k = 1; k <= 2; k++) {
            int d = (s + k) % size;
            srcs[n] = s;
            degs[n++] = 1;
            dsts[e] = d;
            ws[e++] = 10 * s + d;
        }
    MPI_Comm g;
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts,
                                    !weighted ? MPI_UNWEIGHTED
                                    : e       ? ws
                                              : MPI_WEIGHTS_EMPTY,
                                    MPI_INFO_NULL, 0, &g));
    struct edge in[2], out[2];
    for (int k = 0; k < 2; k++) {
        int s = (rank - 1 - k + 2 * size) % size, d = (rank + 1 + k) % size;
        in[k] = (struct edge){s, 10 * s + rank};
        out[k] = (struct edge){d, 10 * rank + d};
    }
    check_dist(g, 2, in, 2, out, weighted, 0);
    if (size > 2)
        alltoall_over(g);
    CHECK_MPI(MPI_Comm_free(&g));
}

/* Graphs without an edge whose weights are NULL: weighted all the same,
   since only MPI_UNWEIGHTED makes a graph unweighted and an empty side
   may pass any array (7.5.4).  Adjacent: rank 0 has a self-loop of
   weight 7, the others no edge (NULL sources and weights); general:
   nobody names an edge. */
static void no_edges(void)
{
    int *none = NULL, src[1] = {0}, w[1] = {7};
    int lonely = rank > 0;
    struct edge in[1] = {{0, 7}};
    MPI_Comm g;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(
        MPI_COMM_WORLD, lonely ? 0 : 1, lonely ? none : src,
        lonely ? none : w, lonely ? 0 : 1, lonely ? none : src,
        lonely ? none : w, MPI_INFO_NULL, 0, &g));
    check_dist(g, !lonely, in, !lonely, in, 1, 1);
    CHECK_MPI(MPI_Comm_free(&g));
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 0, none, none, none,
                                    none, MPI_INFO_NULL, 0, &g));
    check_dist(g, 0, in, 0, in, 1, 0);
    CHECK_MPI(MPI_Comm_free(&g));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    no_weights = MPI_UNWEIGHTED;
    graphs();
    adjacent(1);
    adjacent(0);
    chain();
    general(1);
    general(0);
    no_edges();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
