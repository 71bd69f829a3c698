/* topo_errors: bad arguments to the topology calls and the neighbor collectives return the standard's error class under MPI_ERRORS_RETURN (MPI_ERR_TOPOLOGY, MPI_ERR_DIMS, MPI_ERR_ARG, MPI_ERR_RANK, MPI_ERR_COMM, MPI_ERR_COUNT, MPI_ERR_TYPE), reach the communicator's own handler, and leave everything usable. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Only classes on which the standard's Table 8.1 and Open MPI 4.1 agree
 * are asserted here; topo_ext checks shmpi's choice where they do not
 * (a zero or negative dimension to MPI_Cart_create, out-of-range ranks
 * in graph edges, a direction past the last dimension, arrays too short
 * for the answer, MPI_IN_PLACE, ...).
 */
#include "check.h"

static int handler_calls, handler_code;
static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_code = *code;
}

static int rank, size;

static void dims_errors(void)
{
    int d[3] = {0, 0, 0};
    CHECK_CLASS(MPI_Dims_create(0, 2, d), MPI_ERR_DIMS);
    CHECK_CLASS(MPI_Dims_create(-4, 2, d), MPI_ERR_DIMS);
    CHECK_CLASS(MPI_Dims_create(4, -1, d), MPI_ERR_DIMS);
    int neg[2] = {-2, 0};
    CHECK_CLASS(MPI_Dims_create(4, 2, neg), MPI_ERR_DIMS);
    int nodiv[3] = {0, 3, 0};
    CHECK_CLASS(MPI_Dims_create(7, 3, nodiv), MPI_ERR_DIMS);
    CHECK(nodiv[0] == 0 && nodiv[1] == 3 && nodiv[2] == 0,
          "a failed Dims_create changed dims");
    CHECK_CLASS(MPI_Dims_create(4, 2, NULL), MPI_ERR_ARG);
}

/* The calls of one kind of topology on a communicator of another. */
static void wrong_topology(MPI_Comm none, MPI_Comm cart, MPI_Comm graph)
{
    int v[4] = {0}, n, m, w;
    MPI_Comm sub;
    CHECK_CLASS(MPI_Cartdim_get(none, &n), MPI_ERR_TOPOLOGY);
    CHECK_CLASS(MPI_Cart_get(none, 1, v, v, v), MPI_ERR_TOPOLOGY);
    CHECK_CLASS(MPI_Cart_rank(none, v, &n), MPI_ERR_TOPOLOGY);
    CHECK_CLASS(MPI_Cart_coords(none, 0, 1, v), MPI_ERR_TOPOLOGY);
    CHECK_CLASS(MPI_Cart_shift(none, 0, 1, &n, &m), MPI_ERR_TOPOLOGY);
    CHECK_CLASS(MPI_Cart_sub(none, v, &sub), MPI_ERR_TOPOLOGY);
    CHECK_CLASS(MPI_Cart_shift(graph, 0, 1, &n, &m), MPI_ERR_TOPOLOGY);
    CHECK_CLASS(MPI_Graphdims_get(cart, &n, &m), MPI_ERR_TOPOLOGY);
    CHECK_CLASS(MPI_Dist_graph_neighbors_count(cart, &n, &m, &w),
                MPI_ERR_TOPOLOGY);
    CHECK_CLASS(MPI_Neighbor_alltoall(v, 1, MPI_INT, v, 1, MPI_INT, none),
                MPI_ERR_TOPOLOGY);
}

static void cart_errors(MPI_Comm cart)
{
    int c[1], n, m;
    CHECK_CLASS(MPI_Cart_rank(cart, (int[]){size}, &n), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Cart_rank(cart, (int[]){-1}, &n), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Cart_shift(cart, -1, 1, &n, &m), MPI_ERR_DIMS);
    CHECK_CLASS(MPI_Cart_coords(cart, -1, 1, c), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Cartdim_get(cart, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Cart_get(cart, 1, NULL, NULL, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Topo_test(cart, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Topo_test(MPI_COMM_NULL, &n), MPI_ERR_COMM);
}

static void create_errors(void)
{
    int dims[2] = {size, 2}, periods[2] = {0, 0}, index[1] = {1},
        edges[1] = {0}, src[1] = {0}, w[1] = {1}, neg[1] = {-1};
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_CLASS(MPI_Cart_create(MPI_COMM_NULL, 1, dims, periods, 0, &c),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 0,
                                 &c), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &c),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, src, w, 0,
                                               src, w, MPI_INFO_NULL, 0, &c),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, NULL, w,
                                               0, src, w, MPI_INFO_NULL, 0,
                                               &c), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, NULL,
                                               0, src, w, MPI_INFO_NULL, 0,
                                               &c), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, neg,
                                               0, src, w, MPI_INFO_NULL, 0,
                                               &c), MPI_ERR_ARG);
    int degs[1] = {1}, dsts[1] = {0};
    CHECK_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, -1, src, degs, dsts,
                                      w, MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, src, neg, dsts, w,
                                      MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
    CHECK(c == MPI_COMM_NULL, "a failed constructor set its result");
}

static void graph_errors(MPI_Comm graph)
{
    int n;
    CHECK_CLASS(MPI_Graph_neighbors_count(graph, -1, &n), MPI_ERR_RANK);
}

static void neighbor_errors(MPI_Comm cart)
{
    int a[8] = {0}, b[8], counts[2] = {-1, -1}, displs[2] = {0, 0};
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &loose));
    CHECK_CLASS(MPI_Neighbor_allgather(a, -1, MPI_INT, b, 1, MPI_INT, cart),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Neighbor_allgather(a, 1, MPI_INT, b, -1, MPI_INT, cart),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Neighbor_allgather(a, 1, MPI_DATATYPE_NULL, b, 1,
                                       MPI_INT, cart), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Neighbor_alltoall(a, 1, MPI_INT, b, 1, MPI_DATATYPE_NULL,
                                      cart), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Neighbor_alltoall(a, 1, loose, b, 2, MPI_INT, cart),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Neighbor_alltoallv(a, NULL, displs, MPI_INT, b, counts,
                                       displs, MPI_INT, cart), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Neighbor_alltoallv(a, counts, displs, MPI_INT, b, counts,
                                       displs, MPI_INT, cart),
                MPI_ERR_COUNT);
    CHECK_MPI(MPI_Type_free(&loose));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    dims_errors();
    create_errors();

    /* a grid and a graph to misuse; they take the handler of WORLD */
    int dims[1] = {size}, periods[1] = {0}, index[64], edges[64];
    MPI_Comm cart, graph, none;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart));
    for (int i = 0; i < size; i++) {
        index[i] = i + 1;
        edges[i] = (i + 1) % size;
    }
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0,
                               &graph));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &none));
    wrong_topology(none, cart, graph);
    cart_errors(cart);
    graph_errors(graph);
    neighbor_errors(cart);

    /* errors on the grid go to the grid's own handler */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(cart, eh));
    int n, m;
    CHECK_CLASS(MPI_Cart_shift(cart, -1, 1, &n, &m), MPI_ERR_DIMS);
    CHECK(handler_calls == 1, "the grid's handler ran %d times",
          handler_calls);
    CHECK_CLASS(handler_code, MPI_ERR_DIMS);
    CHECK_MPI(MPI_Errhandler_free(&eh));

    /* and the grid still works */
    int mine = rank, got[2] = {-1, -1};
    CHECK_MPI(MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT,
                                     cart));
    CHECK(got[0] == (rank > 0 ? rank - 1 : -1) &&
              got[1] == (rank < size - 1 ? rank + 1 : -1),
          "after the errors: got (%d, %d)", got[0], got[1]);

    CHECK_MPI(MPI_Comm_free(&none));
    CHECK_MPI(MPI_Comm_free(&graph));
    CHECK_MPI(MPI_Comm_free(&cart));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
