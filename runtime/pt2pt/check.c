/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check.c - argument checks of the point-to-point calls, on top of
 * those of the (buffer, count, datatype) triple (datatypes/check.c):
 * every bad argument is reported with the class the standard names for
 * it, and a message that says which argument and why.
 */
#include <limits.h>

#include "core/error.h"
#include "core/objects.h"
#include "datatypes/check.h"
#include "datatypes/datatype.h"
#include "pt2pt/check.h"

static int check_rank(const char *fn, MPI_Comm comm, int rank,
                      int any_allowed, const char *what)
{
    if (rank == MPI_PROC_NULL || (any_allowed && rank == MPI_ANY_SOURCE))
        return MPI_SUCCESS;
    if (rank < 0 || rank >= shmpi_comm_peer_count(comm))
        return shmpi_raise(comm, MPI_ERR_RANK, fn,
                           "%s %d is not a rank of %s%s (size %d)", what,
                           rank, comm->is_inter ? "the remote group of " : "",
                           comm->name[0] ? comm->name : "the communicator",
                           shmpi_comm_peer_count(comm));
    return MPI_SUCCESS;
}

int shmpi_p2p_check_send_fully(const char *fn, const void *buf, MPI_Count count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm)
{
    int rc = shmpi_dt_check_buffer(fn, comm, buf, count, datatype);
    if (rc == MPI_SUCCESS)
        rc = check_rank(fn, comm, dest, 0, "destination");
    if (rc == MPI_SUCCESS && tag < 0)
        rc = shmpi_raise(comm, MPI_ERR_TAG, fn,
                         "tag %d is negative (send tags are 0..MPI_TAG_UB)",
                         tag);
    return rc;
}

int shmpi_p2p_check_recv_fully(const char *fn, const void *buf, MPI_Count count,
                               MPI_Datatype datatype, int source, int tag,
                               MPI_Comm comm)
{
    int rc = shmpi_dt_check_buffer(fn, comm, buf, count, datatype);
    if (rc == MPI_SUCCESS)
        rc = check_rank(fn, comm, source, 1, "source");
    if (rc == MPI_SUCCESS && tag < 0 && tag != MPI_ANY_TAG)
        rc = shmpi_raise(comm, MPI_ERR_TAG, fn,
                         "tag %d is negative and not MPI_ANY_TAG", tag);
    return rc;
}
