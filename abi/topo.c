/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topo.c - the ABI's virtual topologies (abi.h): Cartesian, graph and
 * distributed graph communicators and their queries.  Ranks, and
 * MPI_PROC_NULL out of MPI_Cart_shift, pass as they are; MPI_Topo_test's
 * kinds are the ABI's 211 .. 213; the weights' sentinels MPI_UNWEIGHTED
 * and MPI_WEIGHTS_EMPTY are 10 and 11 in the ABI, and are translated to
 * shmpi's on the way in.
 */
#include "abi/abi.h"

#define ABI_UNWEIGHTED    ((int *)10)
#define ABI_WEIGHTS_EMPTY ((int *)11)

static inline int *weights_in(const int *w)
{
    return w == ABI_UNWEIGHTED ? MPI_UNWEIGHTED
         : w == ABI_WEIGHTS_EMPTY ? MPI_WEIGHTS_EMPTY : (int *)w;
}

ABI_FN(int, Cart_create, (abi_Comm comm, int ndims, const int dims[],
                          const int periods[], int reorder,
                          abi_Comm *newcomm))
{
    MPI_Comm c;
    int rc = PMPI_Cart_create(comm_in(comm), ndims, dims, periods, reorder,
                              newcomm ? &c : NULL);
    MADE(rc, newcomm, c, abi_Comm, COMM);
    return rc;
}

ABI_FN(int, Cart_sub, (abi_Comm comm, const int remain_dims[],
                       abi_Comm *newcomm))
{
    MPI_Comm c;
    int rc = PMPI_Cart_sub(comm_in(comm), remain_dims, newcomm ? &c : NULL);
    MADE(rc, newcomm, c, abi_Comm, COMM);
    return rc;
}

ABI_FN(int, Cart_get, (abi_Comm comm, int maxdims, int dims[],
                       int periods[], int coords[]))
{
    return PMPI_Cart_get(comm_in(comm), maxdims, dims, periods,
                         coords);
}

ABI_FN(int, Cart_rank, (abi_Comm comm, const int coords[], int *rank))
{
    return PMPI_Cart_rank(comm_in(comm), coords, rank);
}

ABI_FN(int, Cart_coords, (abi_Comm comm, int rank, int maxdims,
                          int coords[]))
{
    return PMPI_Cart_coords(comm_in(comm), rank, maxdims,
                            coords);
}

ABI_FN(int, Cart_shift, (abi_Comm comm, int direction, int disp,
                         int *rank_source, int *rank_dest))
{
    return PMPI_Cart_shift(comm_in(comm), direction, disp, rank_source,
                           rank_dest);
}

ABI_FN(int, Cart_map, (abi_Comm comm, int ndims, const int dims[],
                       const int periods[], int *newrank))
{
    return PMPI_Cart_map(comm_in(comm), ndims, dims, periods,
                         newrank);
}

ABI_FN(int, Cartdim_get, (abi_Comm comm, int *ndims))
{
    return PMPI_Cartdim_get(comm_in(comm), ndims);
}

ABI_FN(int, Dims_create, (int nnodes, int ndims, int dims[]))
{
    return PMPI_Dims_create(nnodes, ndims, dims);
}

ABI_FN(int, Graph_create, (abi_Comm comm, int nnodes, const int index[],
                           const int edges[], int reorder,
                           abi_Comm *newcomm))
{
    MPI_Comm c;
    int rc = PMPI_Graph_create(comm_in(comm), nnodes, index, edges, reorder,
                               newcomm ? &c : NULL);
    MADE(rc, newcomm, c, abi_Comm, COMM);
    return rc;
}

ABI_FN(int, Graphdims_get, (abi_Comm comm, int *nnodes, int *nedges))
{
    return PMPI_Graphdims_get(comm_in(comm), nnodes, nedges);
}

ABI_FN(int, Graph_get, (abi_Comm comm, int maxindex, int maxedges,
                        int index[], int edges[]))
{
    return PMPI_Graph_get(comm_in(comm), maxindex, maxedges, index,
                          edges);
}

ABI_FN(int, Graph_neighbors_count, (abi_Comm comm, int rank,
                                    int *nneighbors))
{
    return PMPI_Graph_neighbors_count(comm_in(comm), rank,
                                      nneighbors);
}

ABI_FN(int, Graph_neighbors, (abi_Comm comm, int rank, int maxneighbors,
                              int neighbors[]))
{
    return PMPI_Graph_neighbors(comm_in(comm), rank,
                                maxneighbors, neighbors);
}

ABI_FN(int, Graph_map, (abi_Comm comm, int nnodes, const int index[],
                        const int edges[], int *newrank))
{
    return PMPI_Graph_map(comm_in(comm), nnodes, index, edges,
                          newrank);
}

ABI_FN(int, Dist_graph_create, (abi_Comm comm, int n, const int sources[],
                                const int degrees[],
                                const int destinations[], const int *weights,
                                abi_Info info, int reorder,
                                abi_Comm *newcomm))
{
    MPI_Comm c;
    int rc = PMPI_Dist_graph_create(comm_in(comm), n, sources, degrees,
                                    destinations, weights_in(weights),
                                    info_in(info), reorder,
                                    newcomm ? &c : NULL);
    MADE(rc, newcomm, c, abi_Comm, COMM);
    return rc;
}

ABI_FN(int, Dist_graph_create_adjacent, (abi_Comm comm, int indegree,
                                         const int sources[],
                                         const int *sourceweights,
                                         int outdegree,
                                         const int destinations[],
                                         const int *destweights,
                                         abi_Info info, int reorder,
                                         abi_Comm *newcomm))
{
    MPI_Comm c;
    int rc = PMPI_Dist_graph_create_adjacent(
        comm_in(comm), indegree, sources, weights_in(sourceweights),
        outdegree, destinations, weights_in(destweights), info_in(info),
        reorder, newcomm ? &c : NULL);
    MADE(rc, newcomm, c, abi_Comm, COMM);
    return rc;
}

ABI_FN(int, Dist_graph_neighbors_count, (abi_Comm comm, int *indegree,
                                         int *outdegree, int *weighted))
{
    return PMPI_Dist_graph_neighbors_count(comm_in(comm), indegree,
                                           outdegree, weighted);
}

ABI_FN(int, Dist_graph_neighbors, (abi_Comm comm, int maxindegree,
                                   int sources[], int *sourceweights,
                                   int maxoutdegree, int destinations[],
                                   int *destweights))
{
    return PMPI_Dist_graph_neighbors(
        comm_in(comm), maxindegree, sources, weights_in(sourceweights),
        maxoutdegree, destinations, weights_in(destweights));
}

ABI_FN(int, Topo_test, (abi_Comm comm, int *status))
{
    int rc = PMPI_Topo_test(comm_in(comm), status);
    if (rc == MPI_SUCCESS)
        *status = *status == MPI_CART ? 211 : *status == MPI_GRAPH ? 212
                : *status == MPI_DIST_GRAPH ? 213 : *status;
    return rc;
}
