/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cart.c - making Cartesian communicators (MPI-3.1 7.5.1, 7.5.5, 7.5.7,
 * 7.5.8): MPI_Cart_create, MPI_Cart_sub, MPI_Cart_map.
 *
 * The grid holds the first nnodes processes of the old communicator, in
 * their order (`reorder` is ignored: topo.h); the others get
 * MPI_COMM_NULL.  A zero-dimensional grid (ndims 0, or a Cart_sub that
 * keeps no dimension) is one process.
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "comm/topo.h"

SHMPI_WEAK_ALIAS(Cart_create)
SHMPI_WEAK_ALIAS(Cart_sub)
SHMPI_WEAK_ALIAS(Cart_map)

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
                     const int periods[], int reorder, MPI_Comm *comm_cart)
{
    static const char *fn = "MPI_Cart_create";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_topo_check_comm(fn, comm_old);
    if (rc != MPI_SUCCESS)
        return rc;
    int nnodes = 0;
    rc = shmpi_topo_check_grid(fn, comm_old, ndims, dims, periods, &nnodes);
    if (rc == MPI_SUCCESS)
        rc = shmpi_topo_check_out(fn, comm_old, comm_cart, "comm_cart");
    int member = rc == MPI_SUCCESS && comm_old->rank < nnodes;
    struct shmpi_topo *t =
        member ? shmpi_topo_cart(ndims, dims, periods, comm_old->rank)
               : NULL;
    return shmpi_topo_split(comm_old, member ? 0 : MPI_UNDEFINED, t, rc,
                            comm_cart, fn);
}

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    static const char *fn = "MPI_Cart_sub";
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_topo *t = shmpi_topo_of(comm, MPI_CART, fn, &rc);
    if (!t)
        return rc;
    rc = t->ndims > 0 && !remain_dims
             ? shmpi_raise(comm, MPI_ERR_ARG, fn, "remain_dims is NULL")
             : shmpi_topo_check_out(fn, comm, newcomm, "newcomm");
    if (rc != MPI_SUCCESS)
        return shmpi_topo_split(comm, MPI_UNDEFINED, NULL, rc, newcomm, fn);
    return shmpi_topo_split(comm, shmpi_topo_cart_sub_color(t, remain_dims),
                            shmpi_topo_cart_sub(t, remain_dims),
                            MPI_SUCCESS, newcomm, fn);
}

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[],
                  const int periods[], int *newrank)
{
    static const char *fn = "MPI_Cart_map";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_topo_check_comm(fn, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    int nnodes;
    rc = shmpi_topo_check_grid(fn, comm, ndims, dims, periods, &nnodes);
    if (rc == MPI_SUCCESS)
        rc = shmpi_topo_check_out(fn, comm, newrank, "newrank");
    if (rc != MPI_SUCCESS)
        return rc;
    *newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
