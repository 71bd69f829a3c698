/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bcast.c - MPI_Bcast: the root packs its buffer into its half (its
 * control line for up to 16 bytes) and every other member unpacks it;
 * larger buffers pipeline through both halves (xchg.c).  On an
 * intercommunicator, the schedule of coll/ibcast.c.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "coll/args.h"
#include "coll/check.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"
#include "coll/data.h"

SHMPI_WEAK_ALIAS(Bcast)
SHMPI_WEAK_ALIAS(Bcast_c)

int shmpi_coll_args_bcast(const char *fn, MPI_Comm comm, void *buffer,
                          MPI_Count count, MPI_Datatype datatype, int root,
                          struct shmpi_coll_args *a)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_root(fn, comm, root);
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, root, MPI_OP_NULL, 0, NULL);
    shmpi_coll_args_root(a, comm, root);
    if (a->idle)
        return shmpi_coll_order(fn, comm, rc, root, MPI_OP_NULL, 0, NULL);
    rc = shmpi_coll_check_data(fn, comm, buffer, count, datatype, "buffer");
    if (rc == MPI_SUCCESS)
        a->out = a->in = shmpi_coll_one_block(buffer, count, datatype);
    return shmpi_coll_order(fn, comm, rc, root, MPI_OP_NULL, count, datatype);
}

/* Both forms: MPI_Bcast and MPI_Bcast_c (MPI-4.0 large counts). */
static int bcast(const char *fn, void *buffer, MPI_Count count,
                 MPI_Datatype datatype, int root, MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_bcast(fn, comm, buffer, count, datatype, root,
                                   &a);
    if (rc != MPI_SUCCESS)
        return shmpi_coll_refuse_call(comm, rc, 0);
    if (comm->is_inter)
        return shmpi_nbc_blocking(comm, shmpi_nbc_data_bcast, &a, fn);
    /* an empty broadcast still runs: a member whose count was wrong
       takes its part without knowing it was empty (coll.h) */
    if (comm->size == 1)
        return MPI_SUCCESS;
    struct shmpi_coll_xchg x = {
        .shape = SHMPI_XCHG_ONE, .writes = a.at_root,
        .readers = SHMPI_COLL_ALL,
        .sources = a.at_root ? SHMPI_COLL_NOBODY : root,
        .mine = {buffer, count, datatype,
                 (uint64_t)count * (uint64_t)datatype->size},
        .in = a.in};
    return shmpi_coll_move(comm, &x, root, fn);
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root,
               MPI_Comm comm)
{
    return bcast("MPI_Bcast", buffer, count, datatype, root, comm);
}

int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype,
                 int root, MPI_Comm comm)
{
    return bcast("MPI_Bcast_c", buffer, count, datatype, root, comm);
}
