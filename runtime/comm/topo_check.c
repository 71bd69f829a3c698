/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topo_check.c - argument checks of the topology constructors and mapping
 * calls (topo.h), with the classes of MPI-3.1 Table 8.1: MPI_ERR_DIMS
 * for a bad dimension argument, MPI_ERR_RANK for a process number out of
 * range, MPI_ERR_ARG for everything else.
 */
#include "core/error.h"
#include "comm/topo.h"

int shmpi_topo_check_grid(const char *fn, MPI_Comm comm, int ndims,
                          const int *dims, const int *periods, int *nnodes)
{
    if (ndims < 0)
        return shmpi_raise(comm, MPI_ERR_DIMS, fn,
                           "ndims is negative (%d)", ndims);
    if (ndims > 0 && (!dims || !periods))
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "%s is NULL",
                           dims ? "periods" : "dims");
    long long n = 1;
    for (int d = 0; d < ndims; d++) {
        if (dims[d] <= 0)
            return shmpi_raise(comm, MPI_ERR_DIMS, fn,
                               "dims[%d] is %d: each dimension needs at "
                               "least one process", d, dims[d]);
        if (n <= comm->size)  /* past the size it only has to grow */
            n *= dims[d];
    }
    if (n > comm->size)
        return shmpi_raise(comm, MPI_ERR_ARG, fn,
                           "the grid has more processes than the "
                           "communicator's %d", comm->size);
    *nnodes = (int)n;
    return MPI_SUCCESS;
}

int shmpi_topo_check_graph(const char *fn, MPI_Comm comm, int nnodes,
                           const int *index, const int *edges)
{
    if (nnodes < 0 || nnodes > comm->size)
        return shmpi_raise(comm, MPI_ERR_ARG, fn,
                           "nnodes is %d, not 0 .. the communicator's size "
                           "(%d)", nnodes, comm->size);
    if (nnodes > 0 && !index)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "index is NULL");
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i > 0 ? index[i - 1] : 0))
            return shmpi_raise(comm, MPI_ERR_ARG, fn,
                               "index[%d] is %d: index must be a "
                               "non-decreasing count of edges", i,
                               index[i]);
    int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
    if (nedges > 0 && !edges)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "edges is NULL");
    for (int i = 0; i < nedges; i++)
        if (edges[i] < 0 || edges[i] >= nnodes)
            return shmpi_raise(comm, MPI_ERR_RANK, fn,
                               "edges[%d] is %d, not a node of the %d",
                               i, edges[i], nnodes);
    return MPI_SUCCESS;
}

int shmpi_topo_check_ranks(const char *fn, MPI_Comm comm, int n,
                           const int *ranks, const int *weights,
                           const char *what)
{
    if (n > 0 && !ranks)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "%s is NULL", what);
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= comm->size)
            return shmpi_raise(comm, MPI_ERR_RANK, fn,
                               "%s[%d] is %d, not a rank of the "
                               "communicator (size %d)", what, i, ranks[i],
                               comm->size);
    if (weights == MPI_UNWEIGHTED || n == 0)
        return MPI_SUCCESS;
    if (!weights || weights == MPI_WEIGHTS_EMPTY)
        return shmpi_raise(comm, MPI_ERR_ARG, fn,
                           "the weights of %s are %s but there are %d",
                           what, weights ? "MPI_WEIGHTS_EMPTY" : "NULL", n);
    for (int i = 0; i < n; i++)
        if (weights[i] < 0)
            return shmpi_raise(comm, MPI_ERR_ARG, fn,
                               "the weight of %s[%d] is negative (%d)",
                               what, i, weights[i]);
    return MPI_SUCCESS;
}

int shmpi_topo_check_comm(const char *fn, MPI_Comm comm)
{
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (comm->is_inter)
        return shmpi_raise(comm, MPI_ERR_COMM, fn,
                           "%s is an intercommunicator: process topologies "
                           "are for intracommunicators only",
                           comm->name[0] ? comm->name : "the communicator");
    return MPI_SUCCESS;
}

int shmpi_topo_check_out(const char *fn, MPI_Comm comm, const void *p,
                         const char *what)
{
    if (!p)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "%s is NULL", what);
    return MPI_SUCCESS;
}

int shmpi_topo_check_room(const char *fn, MPI_Comm comm, int max, int need,
                          const void *array, const char *what)
{
    if (max < need)
        return shmpi_raise(comm, MPI_ERR_ARG, fn,
                           "%s has room for %d entries, %d are needed",
                           what, max, need);
    if (need > 0 && !array)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "%s is NULL", what);
    return MPI_SUCCESS;
}
