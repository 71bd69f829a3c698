/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcontrol.c - MPI_Pcontrol (MPI-3.1 14.2.4), the profiling interface's
 * one call.
 *
 * The standard defines MPI_Pcontrol for profiling libraries: "MPI
 * libraries themselves make no use of this routine, and simply return
 * immediately to the user code".  shmpi has no profiler of its own, so
 * doing nothing is the whole of its job; what matters is that the call
 * exists under both names (pmpi.h), so that a tool's MPI_Pcontrol
 * replaces ours at link time and the program's calls reach the tool.
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"

SHMPI_WEAK_ALIAS(Pcontrol)

int PMPI_Pcontrol(const int level, ...)
{
    SHMPI_REQUIRE_INIT("MPI_Pcontrol");
    return MPI_SUCCESS;
}
