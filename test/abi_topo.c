/* abi_topo: groups, communicators made from groups, Cartesian, graph and distributed graph topologies and the neighbor collectives through the standard ABI. */
/* shmpi-test: np=1,2,3,4 timeout=60 ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built against include/abi/mpi.h: MPI_GROUP_EMPTY is 0x109, MPI_IDENT
 * 201, MPI_CART 211, MPI_PROC_NULL -3, MPI_UNWEIGHTED (int *)10; every
 * comparison, topology kind, shifted rank and weight sentinel is checked
 * against those.
 */
#include "check.h"

#include <stdint.h>

static int rank, size;

static void check_groups(void)
{
    MPI_Group world, evens, odds, u, none;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int gs = -1, gr = -1;
    CHECK_MPI(MPI_Group_size(world, &gs));
    CHECK_MPI(MPI_Group_rank(world, &gr));
    CHECK(gs == size && gr == rank, "world group %d/%d", gr, gs);
    int range[1][3] = { { 0, size - 1, 2 } };
    CHECK_MPI(MPI_Group_range_incl(world, 1, range, &evens));
    CHECK_MPI(MPI_Group_difference(world, evens, &odds));
    CHECK_MPI(MPI_Group_union(evens, odds, &u));
    int res = -1;
    CHECK_MPI(MPI_Group_compare(u, world, &res));
    CHECK(res == MPI_SIMILAR || (size <= 2 && res == MPI_IDENT),
          "union compares %d", res);
    CHECK_MPI(MPI_Group_compare(world, world, &res));
    CHECK(res == MPI_IDENT, "compare %d", res);
    CHECK_MPI(MPI_Group_intersection(evens, odds, &none));
    CHECK(none == MPI_GROUP_EMPTY && (uintptr_t)none == 0x109,
          "an empty intersection is MPI_GROUP_EMPTY");
    int in[3] = { 0, MPI_PROC_NULL, size - 1 }, out[3] = { -7, -7, -7 };
    CHECK_MPI(MPI_Group_translate_ranks(world, 3, in, evens, out));
    CHECK(out[0] == 0 && out[1] == MPI_PROC_NULL &&
          out[2] == ((size - 1) % 2 ? MPI_UNDEFINED : (size - 1) / 2),
          "translate_ranks %d %d %d", out[0], out[1], out[2]);
    int first = 0;
    MPI_Group g0, rest;
    CHECK_MPI(MPI_Group_incl(world, 1, &first, &g0));
    CHECK_MPI(MPI_Group_excl(world, 1, &first, &rest));
    CHECK_MPI(MPI_Group_free(&u));
    CHECK_MPI(MPI_Group_range_excl(world, 1, range, &u));
    int n = -1;
    CHECK_MPI(MPI_Group_size(u, &n));
    CHECK(n == size / 2, "range_excl size %d", n);

    MPI_Comm ec, eg, fg;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, evens, &ec));
    CHECK((rank % 2 == 0) == (ec != MPI_COMM_NULL), "Comm_create membership");
    if (rank % 2 == 0) {
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 5, &eg));
        int a = -1, b = -1;
        CHECK_MPI(MPI_Comm_rank(ec, &a));
        CHECK_MPI(MPI_Comm_rank(eg, &b));
        CHECK(a == rank / 2 && b == a, "ranks %d %d", a, b);
        CHECK_MPI(MPI_Comm_create_from_group(evens, "abi.test.evens",
                                             MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                             &fg));
        MPI_Errhandler eh;
        CHECK_MPI(MPI_Comm_get_errhandler(fg, &eh));
        CHECK(eh == MPI_ERRORS_RETURN, "from_group errhandler");
        CHECK_MPI(MPI_Comm_compare(ec, fg, &res));
        CHECK(res == MPI_CONGRUENT, "congruent %d", res);
        MPI_Group cg;
        CHECK_MPI(MPI_Comm_group(fg, &cg));
        CHECK_MPI(MPI_Group_compare(cg, evens, &res));
        CHECK(res == MPI_IDENT, "group of the new comm %d", res);
        CHECK_MPI(MPI_Group_free(&cg));
        CHECK_MPI(MPI_Comm_free(&ec));
        CHECK_MPI(MPI_Comm_free(&eg));
        CHECK_MPI(MPI_Comm_free(&fg));
    }
    MPI_Group *gs_[] = { &world, &evens, &odds, &u, &g0, &rest };
    for (int i = 0; i < 6; i++) {
        CHECK_MPI(MPI_Group_free(gs_[i]));
        CHECK(*gs_[i] == MPI_GROUP_NULL, "freed group is MPI_GROUP_NULL");
    }
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
}

static void check_cart(void)
{
    int dims[2] = { 0, 0 }, periods[2] = { 1, 0 };
    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    CHECK(dims[0] * dims[1] == size, "Dims_create %dx%d", dims[0], dims[1]);
    MPI_Comm cart;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    int kind = -1;
    CHECK_MPI(MPI_Topo_test(cart, &kind));
    CHECK(kind == MPI_CART, "Topo_test %d", kind);
    CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &kind));
    CHECK(kind == MPI_UNDEFINED, "no topology: %d", kind);
    int nd = -1, d[2], p[2], c[2], r = -1;
    CHECK_MPI(MPI_Cartdim_get(cart, &nd));
    CHECK_MPI(MPI_Cart_get(cart, 2, d, p, c));
    CHECK_MPI(MPI_Cart_rank(cart, c, &r));
    CHECK(nd == 2 && r == rank && p[0] == 1 && p[1] == 0, "Cart_get");
    int cc[2];
    CHECK_MPI(MPI_Cart_coords(cart, rank, 2, cc));
    CHECK(cc[0] == c[0] && cc[1] == c[1], "Cart_coords");
    int src = -9, dst = -9;
    CHECK_MPI(MPI_Cart_shift(cart, 1, 1, &src, &dst));
    CHECK(c[1] != dims[1] - 1 || dst == MPI_PROC_NULL, "shift off the edge %d", dst);
    CHECK(c[1] != 0 || src == MPI_PROC_NULL, "shift from off the edge %d", src);
    int nr = -1;
    CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &nr));
    CHECK(nr == rank, "Cart_map %d", nr);

    /* neighbor collectives: 4 neighbors, MPI_PROC_NULL ones untouched */
    int sendv[4], recvv[4], ones[4] = { 1, 1, 1, 1 }, di[4] = { 0, 1, 2, 3 };
    for (int i = 0; i < 4; i++) {
        sendv[i] = rank * 10 + i;
        recvv[i] = -1;
    }
    CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, recvv, 1, MPI_INT, cart));
    int lo, hi;
    CHECK_MPI(MPI_Cart_shift(cart, 0, 1, &lo, &hi));
    CHECK(recvv[0] == (lo == MPI_PROC_NULL ? -1 : lo) &&
          recvv[1] == (hi == MPI_PROC_NULL ? -1 : hi), "Neighbor_allgather dim 0");
    CHECK(recvv[2] == (src == MPI_PROC_NULL ? -1 : src) &&
          recvv[3] == (dst == MPI_PROC_NULL ? -1 : dst), "Neighbor_allgather dim 1");
    MPI_Request req;
    for (int i = 0; i < 4; i++)
        recvv[i] = -1;
    CHECK_MPI(MPI_Ineighbor_alltoallv(sendv, ones, di, MPI_INT, recvv, ones, di,
                                      MPI_INT, cart, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    /* from the lower neighbor in a dimension comes its block to the upper */
    CHECK(src == MPI_PROC_NULL || recvv[2] == src * 10 + 3, "alltoallv %d", recvv[2]);
    for (int i = 0; i < 4; i++)
        recvv[i] = -1;
    CHECK_MPI(MPI_Neighbor_alltoall(sendv, 1, MPI_INT, recvv, 1, MPI_INT, cart));
    CHECK(hi == MPI_PROC_NULL || recvv[1] == hi * 10, "alltoall %d", recvv[1]);
    MPI_Datatype types[4] = { MPI_INT, MPI_INT, MPI_INT, MPI_INT };
    MPI_Aint ad[4] = { 0, 4, 8, 12 };
    for (int i = 0; i < 4; i++)
        recvv[i] = -1;
    CHECK_MPI(MPI_Neighbor_alltoallw_init(sendv, ones, ad, types, recvv, ones,
                                          ad, types, cart, MPI_INFO_NULL, &req));
    CHECK_MPI(MPI_Start(&req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Request_free(&req));
    CHECK(dst == MPI_PROC_NULL || recvv[3] == dst * 10 + 2, "alltoallw %d", recvv[3]);
    CHECK(lo == MPI_PROC_NULL || recvv[0] == lo * 10 + 1, "alltoallw dim 0 %d", recvv[0]);
    CHECK_CLASS(MPI_Neighbor_alltoallw(sendv, ones, ad, types, recvv, ones, ad,
                                       types, MPI_COMM_WORLD), MPI_ERR_TOPOLOGY);

    int keep[2] = { 0, 1 };
    MPI_Comm row;
    CHECK_MPI(MPI_Cart_sub(cart, keep, &row));
    int rs = -1;
    CHECK_MPI(MPI_Comm_size(row, &rs));
    CHECK(rs == dims[1], "Cart_sub size %d", rs);
    CHECK_MPI(MPI_Comm_free(&row));
    CHECK_MPI(MPI_Comm_free(&cart));
}

/* A ring, as a graph and as a distributed graph. */
static void check_graphs(void)
{
    int *index = malloc((size_t)size * sizeof *index);
    int *edges = malloc((size_t)size * sizeof *edges);
    CHECK(index && edges, "malloc");
    for (int i = 0; i < size; i++) {
        index[i] = i + 1;
        edges[i] = (i + 1) % size;
    }
    MPI_Comm g;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g));
    int kind = -1, nn = -1, ne = -1, cnt = -1, nb = -1;
    CHECK_MPI(MPI_Topo_test(g, &kind));
    CHECK(kind == MPI_GRAPH, "Topo_test graph %d", kind);
    CHECK_MPI(MPI_Graphdims_get(g, &nn, &ne));
    CHECK(nn == size && ne == size, "Graphdims_get %d %d", nn, ne);
    CHECK_MPI(MPI_Graph_neighbors_count(g, rank, &cnt));
    CHECK_MPI(MPI_Graph_neighbors(g, rank, 1, &nb));
    CHECK(cnt == 1 && nb == (rank + 1) % size, "Graph_neighbors %d", nb);
    int *ix2 = malloc((size_t)size * sizeof *ix2), *ed2 = malloc((size_t)size * sizeof *ed2);
    CHECK(ix2 && ed2, "malloc");
    CHECK_MPI(MPI_Graph_get(g, size, size, ix2, ed2));
    CHECK(ix2[size - 1] == size && ed2[size - 1] == 0, "Graph_get");
    int nr = -1;
    CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &nr));
    CHECK(nr == rank, "Graph_map %d", nr);
    CHECK_MPI(MPI_Comm_free(&g));
    free(ix2);
    free(ed2);

    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Comm dg;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &prev,
                                             MPI_UNWEIGHTED, 1, &next,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg));
    CHECK_MPI(MPI_Topo_test(dg, &kind));
    CHECK(kind == MPI_DIST_GRAPH, "Topo_test dist graph %d", kind);
    int indeg = -1, outdeg = -1, weighted = -1, s = -1, d = -1;
    CHECK_MPI(MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted));
    CHECK(indeg == 1 && outdeg == 1 && !weighted, "dist counts");
    CHECK_MPI(MPI_Dist_graph_neighbors(dg, 1, &s, MPI_UNWEIGHTED, 1, &d,
                                       MPI_UNWEIGHTED));
    CHECK(s == prev && d == next, "dist neighbors %d %d", s, d);
    int got = -1;
    CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, &got, 1, MPI_INT, dg));
    CHECK(got == prev, "dist Neighbor_allgather %d", got);
    int one = 1, zero = 0;
    MPI_Datatype t = MPI_INT;
    MPI_Aint z = 0;
    got = -1;
    MPI_Request req;
    CHECK_MPI(MPI_Ineighbor_alltoallw(&rank, &one, &z, &t, &got, &one, &z, &t,
                                      dg, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(got == prev, "dist Ineighbor_alltoallw %d", got);
    CHECK_MPI(MPI_Comm_free(&dg));

    /* weighted, every rank giving its own out-edge */
    int w = rank + 1;
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &one, &next, &w,
                                    MPI_INFO_NULL, 0, &dg));
    int sw = -1, dw = -1;
    CHECK_MPI(MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted));
    CHECK(weighted && indeg == 1 && outdeg == 1, "weighted counts");
    CHECK_MPI(MPI_Dist_graph_neighbors(dg, 1, &s, &sw, 1, &d, &dw));
    CHECK(sw == prev + 1 && dw == rank + 1, "weights %d %d", sw, dw);
    CHECK_MPI(MPI_Comm_free(&dg));
    /* no edges from this rank: MPI_WEIGHTS_EMPTY */
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 0, &rank, &zero, &next,
                                    MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &dg));
    CHECK_MPI(MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted));
    CHECK(indeg == 0 && outdeg == 0, "empty dist graph");
    CHECK_MPI(MPI_Comm_free(&dg));
    free(index);
    free(edges);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_groups();
    check_cart();
    check_graphs();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
