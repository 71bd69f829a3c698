/*
 * bcast.c - MPI_Bcast: the root packs its buffer into its half (its
 * control line for up to 16 bytes) and every other member unpacks it;
 * larger buffers pipeline through both halves (xchg.c).
 */
#include "coll/check.h"
#include "coll/xchg.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Bcast)

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root,
               MPI_Comm comm)
{
    static const char fn[] = "MPI_Bcast";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_root(fn, comm, root);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_data(fn, comm, buffer, count, datatype,
                                   "buffer");
    if (rc != MPI_SUCCESS)
        return rc;
    /* every member's buffer holds as many bytes as the root's: nothing
       to move, for anyone */
    if (comm->size == 1 || count == 0 || datatype->size == 0)
        return MPI_SUCCESS;
    int at_root = comm->rank == root;
    struct shmpi_coll_xchg x = {
        .shape = SHMPI_XCHG_ONE, .writes = at_root, .readers = SHMPI_COLL_ALL,
        .sources = at_root ? SHMPI_COLL_NOBODY : root,
        .mine = {buffer, count, datatype,
                 (uint64_t)count * (uint64_t)datatype->size},
        .in = {.base = buffer, .count = count, .type = datatype}};
    return shmpi_coll_move(comm, &x, fn);
}
