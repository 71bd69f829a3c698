/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cart_query.c - what a Cartesian communicator says about its grid
 * (MPI-3.1 7.5.5, 7.5.6): MPI_Cartdim_get, MPI_Cart_get, MPI_Cart_rank,
 * MPI_Cart_coords, MPI_Cart_shift.  All local.
 *
 * Ranks are row-major in the coordinates (the last dimension varies
 * fastest), as the standard requires.  A coordinate out of range wraps
 * around on a periodic dimension and is an error (MPI_ERR_ARG) on any
 * other; a shift off the edge of a non-periodic dimension gives
 * MPI_PROC_NULL.
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "comm/topo.h"

SHMPI_WEAK_ALIAS(Cartdim_get)
SHMPI_WEAK_ALIAS(Cart_get)
SHMPI_WEAK_ALIAS(Cart_rank)
SHMPI_WEAK_ALIAS(Cart_coords)
SHMPI_WEAK_ALIAS(Cart_shift)

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    static const char *fn = "MPI_Cartdim_get";
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_topo *t = shmpi_topo_of(comm, MPI_CART, fn, &rc);
    if (!t || (rc = shmpi_topo_check_out(fn, comm, ndims, "ndims")))
        return rc;
    *ndims = t->ndims;
    return MPI_SUCCESS;
}

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[],
                  int coords[])
{
    static const char *fn = "MPI_Cart_get";
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_topo *t = shmpi_topo_of(comm, MPI_CART, fn, &rc);
    if (!t ||
        (rc = shmpi_topo_check_room(fn, comm, maxdims, t->ndims, dims,
                                    "dims")) ||
        (rc = shmpi_topo_check_room(fn, comm, maxdims, t->ndims, periods,
                                    "periods")) ||
        (rc = shmpi_topo_check_room(fn, comm, maxdims, t->ndims, coords,
                                    "coords")))
        return rc;
    for (int d = 0; d < t->ndims; d++) {
        dims[d] = t->dims[d];
        periods[d] = t->periods[d];
        coords[d] = t->coords[d];
    }
    return MPI_SUCCESS;
}

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    static const char *fn = "MPI_Cart_rank";
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_topo *t = shmpi_topo_of(comm, MPI_CART, fn, &rc);
    if (!t || (rc = shmpi_topo_check_out(fn, comm, rank, "rank")))
        return rc;
    if (t->ndims > 0 && !coords)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "coords is NULL");
    int r = 0;
    for (int d = 0; d < t->ndims; d++) {
        int n = t->dims[d], c = coords[d];
        if ((c < 0 || c >= n) && !t->periods[d])
            return shmpi_raise(comm, MPI_ERR_ARG, fn,
                               "coords[%d] is %d, outside the non-periodic "
                               "dimension of %d", d, c, n);
        r = r * n + (c % n + n) % n;
    }
    *rank = r;
    return MPI_SUCCESS;
}

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    static const char *fn = "MPI_Cart_coords";
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_topo *t = shmpi_topo_of(comm, MPI_CART, fn, &rc);
    if (!t)
        return rc;
    if (rank < 0 || rank >= comm->size)
        return shmpi_raise(comm, MPI_ERR_RANK, fn,
                           "rank %d is not a rank of the communicator "
                           "(size %d)", rank, comm->size);
    rc = shmpi_topo_check_room(fn, comm, maxdims, t->ndims, coords,
                               "coords");
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_topo_cart_coords(t, rank, coords);
    return MPI_SUCCESS;
}

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp,
                    int *rank_source, int *rank_dest)
{
    static const char *fn = "MPI_Cart_shift";
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_topo *t = shmpi_topo_of(comm, MPI_CART, fn, &rc);
    if (!t)
        return rc;
    if (direction < 0 || direction >= t->ndims)
        return shmpi_raise(comm, MPI_ERR_DIMS, fn,
                           "direction %d is not a dimension of the %d-D "
                           "grid", direction, t->ndims);
    if ((rc = shmpi_topo_check_out(fn, comm, rank_source, "rank_source")) ||
        (rc = shmpi_topo_check_out(fn, comm, rank_dest, "rank_dest")))
        return rc;
    shmpi_topo_cart_shift(t, comm->rank, direction, disp, rank_source,
                          rank_dest);
    return MPI_SUCCESS;
}
