/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm_name.c - communicator names (MPI-3.1 6.8): MPI_Comm_set_name and
 * MPI_Comm_get_name.
 *
 * The name is a label for tools and error messages (shmpi's own error
 * lines and MPI_Abort's report use it).  MPI_COMM_WORLD and MPI_COMM_SELF
 * start named after themselves (comm.c), every other communicator with
 * the empty name, which MPI_Comm_dup does not copy (6.8: a name belongs to
 * one handle).  Setting is local, allowed on the predefined communicators
 * too, and cuts a longer name to MPI_MAX_OBJECT_NAME - 1 characters, as
 * Open MPI and MPICH do.
 */
#include "comm/comm.h"
#include "core/error.h"
#include "core/pmpi.h"

SHMPI_WEAK_ALIAS(Comm_set_name)
SHMPI_WEAK_ALIAS(Comm_get_name)

int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    static const char *fn = "MPI_Comm_set_name";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (!comm_name)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "comm_name is NULL");
    shmpi_core_name_set(comm->name, comm_name);
    return MPI_SUCCESS;
}

/* comm_name must have room for MPI_MAX_OBJECT_NAME characters. */
int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    static const char *fn = "MPI_Comm_get_name";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (!comm_name || !resultlen)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "%s is NULL",
                           comm_name ? "resultlen" : "comm_name");
    *resultlen = shmpi_core_name_get(comm->name, comm_name);
    return MPI_SUCCESS;
}
