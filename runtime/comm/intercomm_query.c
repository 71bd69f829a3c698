/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * intercomm_query.c - what an intercommunicator is (MPI-3.1 6.6.1):
 * MPI_Comm_test_inter, MPI_Comm_remote_size, MPI_Comm_remote_group.
 * MPI_Comm_size, MPI_Comm_rank and MPI_Comm_group answer for the local
 * group (comm.c, group.c).
 */
#include "comm/comm.h"
#include "core/error.h"
#include "core/pmpi.h"

SHMPI_WEAK_ALIAS(Comm_test_inter)
SHMPI_WEAK_ALIAS(Comm_remote_size)
SHMPI_WEAK_ALIAS(Comm_remote_group)

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    static const char fn[] = "MPI_Comm_test_inter";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (!flag)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "flag is NULL");
    *flag = comm->is_inter;
    return MPI_SUCCESS;
}

/* comm, which must be an intercommunicator: only those have a remote
   group. */
static int check_inter(MPI_Comm comm, const char *fn)
{
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (!comm->is_inter)
        return shmpi_raise(comm, MPI_ERR_COMM, fn,
                           "%s is an intracommunicator: only an "
                           "intercommunicator has a remote group",
                           comm->name[0] ? comm->name : "comm");
    return MPI_SUCCESS;
}

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    static const char fn[] = "MPI_Comm_remote_size";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_inter(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!size)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "size is NULL");
    *size = comm->remote_size;
    return MPI_SUCCESS;
}

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    static const char fn[] = "MPI_Comm_remote_group";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_inter(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!group)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "group is NULL");
    shmpi_group_retain(comm->remote_group);
    *group = comm->remote_group;
    shmpi_group_handed(*group, fn);
    return MPI_SUCCESS;
}
