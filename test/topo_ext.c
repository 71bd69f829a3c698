/* topo_ext: shmpi's own choices where the standard leaves the error class open or Open MPI 4.1 does otherwise (bad dimensions, out-of-range ranks in edges, arrays too short for an answer, MPI_IN_PLACE, truncation, a NULL request), MPI_UNDEFINED from the mapping calls outside the grid or graph, one process with bad arguments not leaving the others waiting, and edges named by their destinations in MPI_Dist_graph_create (which Open MPI 4.1.4 sometimes never finishes). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size;

static void class_choices(MPI_Comm cart, MPI_Comm graph)
{
    int d[2] = {0, 1}, p[2] = {0, 0}, v[4], n, m;
    MPI_Comm c = MPI_COMM_NULL;
    /* dimensions */
    CHECK_CLASS(MPI_Cart_create(MPI_COMM_WORLD, -1, d, p, 0, &c),
                MPI_ERR_DIMS);
    CHECK_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, d, p, 0, &c),
                MPI_ERR_DIMS);
    CHECK_CLASS(MPI_Cart_map(MPI_COMM_WORLD, 2, d, p, &n), MPI_ERR_DIMS);
    CHECK_CLASS(MPI_Cart_map(MPI_COMM_WORLD, 1, (int[]){size + 1}, p, &n),
                MPI_ERR_ARG);
    int full[2] = {2, 2};
    CHECK_CLASS(MPI_Dims_create(6, 2, full), MPI_ERR_DIMS);
    CHECK_CLASS(MPI_Cart_shift(cart, 1, 1, &n, &m), MPI_ERR_DIMS);
    /* ranks */
    CHECK_CLASS(MPI_Cart_coords(cart, size, 1, v), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Graph_neighbors(graph, size, 4, v), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 1, (int[]){1},
                                 (int[]){1}, 0, &c), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Dist_graph_create_adjacent(
                    MPI_COMM_WORLD, 1, (int[]){size}, MPI_UNWEIGHTED, 0,
                    NULL, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, (int[]){0},
                                      (int[]){1}, (int[]){-1},
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c),
                MPI_ERR_RANK);
    /* graph structure */
    if (size >= 2)
        CHECK_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 2, (int[]){1, 0},
                                     (int[]){0}, 0, &c), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Graph_map(MPI_COMM_WORLD, size + 1, (int[]){0},
                              (int[]){0}, &n), MPI_ERR_ARG);
    /* arrays too short for the answer */
    CHECK_CLASS(MPI_Cart_coords(cart, 0, 0, v), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Cart_get(cart, 0, v, v, v), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Graph_neighbors(graph, 0, 0, v), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Graph_get(graph, size - 1, 4 * size, v, v),
                MPI_ERR_ARG);
    /* an info that is not one (a handle of another kind) */
    CHECK_CLASS(MPI_Dist_graph_create_adjacent(
                    MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL,
                    MPI_WEIGHTS_EMPTY, (MPI_Info)MPI_COMM_WORLD, 0, &c),
                MPI_ERR_INFO);
    /* buffers */
    CHECK_CLASS(MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, v, 1,
                                       MPI_INT, cart), MPI_ERR_BUFFER);
    if (size > 1)
        CHECK_CLASS(MPI_Neighbor_allgather(v, 1, MPI_INT, NULL, 1, MPI_INT,
                                           cart), MPI_ERR_BUFFER);
    /* the nonblocking forms: a NULL request (Open MPI 4.1 crashes) */
    CHECK_CLASS(MPI_Ineighbor_allgather(v, 1, MPI_INT, v, 1, MPI_INT, cart,
                                        NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Ineighbor_alltoallw(v, NULL, NULL, NULL, v, NULL, NULL,
                                        NULL, graph, NULL), MPI_ERR_ARG);
    CHECK(c == MPI_COMM_NULL, "a failed constructor set its result");
}

static void zero_dims(void)
{
    MPI_Comm c;
    int n, m;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &c));
    if (rank > 0) {
        CHECK(c == MPI_COMM_NULL, "rank %d in a 0-D grid", rank);
        return;
    }
    CHECK_MPI(MPI_Cartdim_get(c, &n));
    CHECK_MPI(MPI_Comm_size(c, &m));
    CHECK(n == 0 && m == 1, "0-D grid: %d dims, %d processes", n, m);
    CHECK_MPI(MPI_Cart_rank(c, NULL, &n));
    CHECK(n == 0, "0-D Cart_rank gave %d", n);
    CHECK_CLASS(MPI_Cart_shift(c, 0, 1, &n, &m), MPI_ERR_DIMS);
    CHECK_MPI(MPI_Comm_free(&c));
}

static void mapping(void)
{
    int newrank, dims[1] = {size - 1}, periods[1] = {1};
    if (size < 2)
        return;
    CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, &newrank));
    CHECK(newrank == (rank < size - 1 ? rank : MPI_UNDEFINED),
          "Cart_map gave %d", newrank);
    int index[1] = {0};
    CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, 1, index, NULL, &newrank));
    CHECK(newrank == (rank == 0 ? 0 : MPI_UNDEFINED), "Graph_map gave %d",
          newrank);
}

/* Rank 0 names a source out of range; the others are right and get
   their graph - nobody waits forever. */
static void one_bad_process(void)
{
    int src[1] = {rank == 0 ? size + 5 : (rank + size - 1) % size};
    int dst[1] = {(rank + 1) % size};
    MPI_Comm g = MPI_COMM_NULL;
    int rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src,
                                            MPI_UNWEIGHTED, 1, dst,
                                            MPI_UNWEIGHTED, MPI_INFO_NULL,
                                            0, &g);
    if (rank == 0) {
        CHECK_CLASS(rc, MPI_ERR_RANK);
        CHECK(g == MPI_COMM_NULL, "the failed process got a graph");
        return;
    }
    CHECK_MPI(rc);
    int status;
    CHECK_MPI(MPI_Topo_test(g, &status));
    CHECK(status == MPI_DIST_GRAPH, "Topo_test gave %d", status);
    CHECK_MPI(MPI_Comm_free(&g));
}

/* A neighbor that sends more than its slot holds: MPI_ERR_TRUNCATE on
   the communicator, and the next call is fine. */
static void truncation(MPI_Comm ring)
{
    int two[4] = {rank, rank, rank, rank}, one[2] = {-1, -1};
    int rc = MPI_Neighbor_alltoall(two, 2, MPI_INT, one, 1, MPI_INT, ring);
    CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
    CHECK_MPI(MPI_Neighbor_alltoall(two, 1, MPI_INT, one, 1, MPI_INT, ring));
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    CHECK((one[0] == left && one[1] == right) ||
              (size <= 2 && one[0] == right && one[1] == left),
          "after the truncation: (%d, %d)", one[0], one[1]);
}

/* (peer, weight) pairs as one number, to compare lists in any order. */
static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static void same_pairs(const int *peers, const int *weights,
                       const int *want_peers, const int *want_weights,
                       const char *what)
{
    int got[2], want[2];
    for (int k = 0; k < 2; k++) {
        got[k] = 1000 * peers[k] + weights[k];
        want[k] = 1000 * want_peers[k] + want_weights[k];
    }
    qsort(got, 2, sizeof *got, cmp_int);
    qsort(want, 2, sizeof *want, cmp_int);
    CHECK(got[0] == want[0] && got[1] == want[1],
          "%s: %d %d, expected %d %d", what, got[0], got[1], want[0],
          want[1]);
}

/* Each process names the two edges into it, with weights 10 s + d. */
static void named_by_destination(void)
{
    int srcs[2], degs[2] = {1, 1}, dsts[2] = {rank, rank}, ws[2];
    int outs[2], outw[2];
    for (int k = 0; k < 2; k++) {
        srcs[k] = (rank - 1 - k + 2 * size) % size;
        ws[k] = 10 * srcs[k] + rank;
        outs[k] = (rank + 1 + k) % size;
        outw[k] = 10 * rank + outs[k];
    }
    MPI_Comm g;
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 2, srcs, degs, dsts, ws,
                                    MPI_INFO_NULL, 0, &g));
    int in, out, weighted, s[4], sw[4], d[4], dw[4];
    CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted));
    CHECK(in == 2 && out == 2 && weighted, "in %d out %d weighted %d", in,
          out, weighted);
    CHECK_MPI(MPI_Dist_graph_neighbors(g, 4, s, sw, 4, d, dw));
    same_pairs(s, sw, srcs, ws, "sources");
    same_pairs(d, dw, outs, outw, "destinations");
    CHECK_MPI(MPI_Comm_free(&g));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int dims[1] = {size}, periods[1] = {1}, index[64], edges[64];
    MPI_Comm cart, graph;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart));
    for (int i = 0; i < size; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + 1) % size;
        edges[2 * i + 1] = (i + size - 1) % size;
    }
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0,
                               &graph));
    class_choices(cart, graph);
    zero_dims();
    mapping();
    one_bad_process();
    truncation(cart);
    named_by_destination();
    CHECK_MPI(MPI_Comm_free(&graph));
    CHECK_MPI(MPI_Comm_free(&cart));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
