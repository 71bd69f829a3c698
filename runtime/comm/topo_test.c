/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topo_test.c - MPI_Topo_test (MPI-3.1 7.5.5): which kind of topology a
 * communicator carries.  Local.
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "comm/topo.h"

SHMPI_WEAK_ALIAS(Topo_test)

int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    static const char *fn = "MPI_Topo_test";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    int rc = shmpi_topo_check_out(fn, comm, status, "status");
    if (rc != MPI_SUCCESS)
        return rc;
    *status = comm->topo ? comm->topo->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
