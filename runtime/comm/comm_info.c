/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm_info.c - hints on communicators (MPI-3.1 6.4.4):
 * MPI_Comm_set_info, MPI_Comm_get_info and MPI_Comm_dup_with_info.
 *
 * shmpi acts on no communicator hint yet, so none is kept: set_info
 * accepts any info object and ignores it (an implementation must be
 * prepared to ignore keys it does not know, 9), and get_info returns what
 * the standard asks for when no hint is in use, a new empty info object.
 * When a hint comes to matter, it is read here with shmpi_info_get*
 * (core/info.h), stored in the communicator, and reported by get_info.
 *
 * MPI_Comm_set_info is collective, but with nothing stored there is
 * nothing to agree on: it needs no communication.
 */
#include "comm/comm.h"
#include "core/error.h"
#include "core/info.h"
#include "core/pmpi.h"

SHMPI_WEAK_ALIAS(Comm_set_info)
SHMPI_WEAK_ALIAS(Comm_get_info)
SHMPI_WEAK_ALIAS(Comm_dup_with_info)

/* MPI_INFO_NULL is refused, as Open MPI and MPICH refuse it: it is no
   info object, and a program that meant "no hints" passes an empty one. */
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    static const char *fn = "MPI_Comm_set_info";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (!shmpi_info_ok(info))
        return shmpi_raise(comm, MPI_ERR_INFO, fn, "info is %s",
                           info == MPI_INFO_NULL ? "MPI_INFO_NULL"
                                                 : "not a valid info object");
    return MPI_SUCCESS;
}

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    static const char *fn = "MPI_Comm_get_info";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (!info_used)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "info_used is NULL");
    struct shmpi_info *info = shmpi_info_new();
    if (!info)
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for an info object");
    *info_used = info;
    return MPI_SUCCESS;
}

/*
 * MPI_Comm_dup, with info's hints instead of comm's; MPI_INFO_NULL means
 * none.  A process whose info is bad still takes part in the exchange
 * before it raises the error, so that under an error handler that
 * returns the other processes are not left waiting; the communicator it
 * got is freed again.
 */
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    static const char *fn = "MPI_Comm_dup_with_info";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    MPI_Comm c;
    int rc = shmpi_comm_dup(comm, newcomm ? &c : NULL, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (info != MPI_INFO_NULL && !shmpi_info_ok(info)) {
        PMPI_Comm_free(&c);
        return shmpi_raise(comm, MPI_ERR_INFO, fn,
                           "info is not a valid info object");
    }
    *newcomm = c;
    shmpi_comm_handed(c, fn);
    return MPI_SUCCESS;
}
