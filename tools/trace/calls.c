/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * calls.c - the wrappers of the calls that start and end the rank's
 * record: MPI_Init, MPI_Init_thread (the job's time starts), MPI_Finalize
 * and MPI_Abort (the records and the profile are written out).
 */
#include "wrap.h"

int MPI_Init(int *argc, char ***argv)
{
    uint64_t t0 = shmpi_trace_now();
    shmpi_trace_started(t0);
    int rc = PMPI_Init(argc, argv);
    shmpi_trace_call(SHMPI_TRACE_FN_Init, t0, rc);
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    uint64_t t0 = shmpi_trace_now();
    shmpi_trace_started(t0);
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    shmpi_trace_call(SHMPI_TRACE_FN_Init_thread, t0, rc);
    return rc;
}

int MPI_Finalize(void)
{
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Finalize();
    shmpi_trace_call(SHMPI_TRACE_FN_Finalize, t0, rc);
    shmpi_trace_finished();
    return rc;
}

/* What the rank did up to here is kept: the job fails, but its trace
   shows how far each rank got. */
int MPI_Abort(MPI_Comm comm, int errorcode)
{
    shmpi_trace_call(SHMPI_TRACE_FN_Abort, shmpi_trace_now(), MPI_SUCCESS);
    shmpi_trace_finished();
    return PMPI_Abort(comm, errorcode);
}
