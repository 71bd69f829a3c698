/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * graph.c - graph topologies (MPI-3.1 7.5.3, 7.5.5, 7.5.8):
 * MPI_Graph_create, MPI_Graph_map, MPI_Graphdims_get, MPI_Graph_get,
 * MPI_Graph_neighbors_count, MPI_Graph_neighbors.
 *
 * Every process is given the whole graph and keeps it: node i's edges
 * are edges[index[i-1] .. index[i]) (index[-1] being 0).  Self-loops and
 * repeated edges are allowed; the edges need not be symmetric, although
 * the neighbor collectives only complete when they are (each edge is a
 * message both ways).  The first nnodes processes of the old
 * communicator are the nodes, in their order; the others get
 * MPI_COMM_NULL.
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "comm/topo.h"

SHMPI_WEAK_ALIAS(Graph_create)
SHMPI_WEAK_ALIAS(Graph_map)
SHMPI_WEAK_ALIAS(Graphdims_get)
SHMPI_WEAK_ALIAS(Graph_get)
SHMPI_WEAK_ALIAS(Graph_neighbors_count)
SHMPI_WEAK_ALIAS(Graph_neighbors)

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[],
                      const int edges[], int reorder, MPI_Comm *comm_graph)
{
    static const char *fn = "MPI_Graph_create";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_topo_check_comm(fn, comm_old);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = shmpi_topo_check_graph(fn, comm_old, nnodes, index, edges);
    if (rc == MPI_SUCCESS)
        rc = shmpi_topo_check_out(fn, comm_old, comm_graph, "comm_graph");
    int member = rc == MPI_SUCCESS && comm_old->rank < nnodes;
    struct shmpi_topo *t =
        member ? shmpi_topo_graph(nnodes, index, edges, comm_old->rank)
               : NULL;
    return shmpi_topo_split(comm_old, member ? 0 : MPI_UNDEFINED, t, rc,
                            comm_graph, fn);
}

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[],
                   const int edges[], int *newrank)
{
    static const char *fn = "MPI_Graph_map";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_topo_check_comm(fn, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = shmpi_topo_check_graph(fn, comm, nnodes, index, edges);
    if (rc == MPI_SUCCESS)
        rc = shmpi_topo_check_out(fn, comm, newrank, "newrank");
    if (rc != MPI_SUCCESS)
        return rc;
    *newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    static const char *fn = "MPI_Graphdims_get";
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_topo *t = shmpi_topo_of(comm, MPI_GRAPH, fn, &rc);
    if (!t || (rc = shmpi_topo_check_out(fn, comm, nnodes, "nnodes")) ||
        (rc = shmpi_topo_check_out(fn, comm, nedges, "nedges")))
        return rc;
    *nnodes = t->nnodes;
    *nedges = t->nnodes > 0 ? t->index[t->nnodes - 1] : 0;
    return MPI_SUCCESS;
}

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[],
                   int edges[])
{
    static const char *fn = "MPI_Graph_get";
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_topo *t = shmpi_topo_of(comm, MPI_GRAPH, fn, &rc);
    if (!t)
        return rc;
    int nedges = t->nnodes > 0 ? t->index[t->nnodes - 1] : 0;
    if ((rc = shmpi_topo_check_room(fn, comm, maxindex, t->nnodes, index,
                                    "index")) ||
        (rc = shmpi_topo_check_room(fn, comm, maxedges, nedges, edges,
                                    "edges")))
        return rc;
    for (int i = 0; i < t->nnodes; i++)
        index[i] = t->index[i];
    for (int i = 0; i < nedges; i++)
        edges[i] = t->edges[i];
    return MPI_SUCCESS;
}

/* Node rank's edges in t: *first into t->edges, and how many. */
static int edges_of(const struct shmpi_topo *t, int rank, int *first)
{
    *first = rank > 0 ? t->index[rank - 1] : 0;
    return t->index[rank] - *first;
}

static int check_node(const char *fn, MPI_Comm comm, int rank)
{
    if (rank < 0 || rank >= comm->size)
        return shmpi_raise(comm, MPI_ERR_RANK, fn,
                           "rank %d is not a rank of the communicator "
                           "(size %d)", rank, comm->size);
    return MPI_SUCCESS;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    static const char *fn = "MPI_Graph_neighbors_count";
    SHMPI_REQUIRE_INIT(fn);
    int rc, first;
    struct shmpi_topo *t = shmpi_topo_of(comm, MPI_GRAPH, fn, &rc);
    if (!t || (rc = check_node(fn, comm, rank)) ||
        (rc = shmpi_topo_check_out(fn, comm, nneighbors, "nneighbors")))
        return rc;
    *nneighbors = edges_of(t, rank, &first);
    return MPI_SUCCESS;
}

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
                         int neighbors[])
{
    static const char *fn = "MPI_Graph_neighbors";
    SHMPI_REQUIRE_INIT(fn);
    int rc, first;
    struct shmpi_topo *t = shmpi_topo_of(comm, MPI_GRAPH, fn, &rc);
    if (!t || (rc = check_node(fn, comm, rank)))
        return rc;
    int n = edges_of(t, rank, &first);
    rc = shmpi_topo_check_room(fn, comm, maxneighbors, n, neighbors,
                               "neighbors");
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < n; i++)
        neighbors[i] = t->edges[first + i];
    return MPI_SUCCESS;
}
