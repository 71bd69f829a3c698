/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * calls.c - the wrappers of the calls that start and end the rank's
 * record: MPI_Init, MPI_Init_thread (the job's time starts), MPI_Finalize
 * and MPI_Abort (the records and the profile are written out), and the
 * first MPI_Session_init and the last MPI_Session_finalize of a process
 * without MPI_Init (the same).
 */
#include <stdatomic.h>

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

/* Sessions not yet finalized: when the last goes and the World Model
   is not up, MPI has ended in this process (runtime/init/init.c: it
   cannot start again), and the records are written out as at
   MPI_Finalize. */
static atomic_int sessions;

/* Is the World Model up (initialized, not finalized)? */
static int world_up(void)
{
    int init = 0, fin = 0;
    PMPI_Initialized(&init);
    PMPI_Finalized(&fin);
    return init && !fin;
}

/* The job's time starts with the first session, if MPI_Init has not
   come first. */
int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler,
                     MPI_Session *session)
{
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Session_init(info, errhandler, session);
    if (rc == MPI_SUCCESS &&
        atomic_fetch_add_explicit(&sessions, 1, memory_order_relaxed) == 0 &&
        !world_up())
        shmpi_trace_started(t0);
    shmpi_trace_call(SHMPI_TRACE_FN_Session_init, t0, rc);
    return rc;
}

int MPI_Session_finalize(MPI_Session *session)
{
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Session_finalize(session);
    shmpi_trace_call(SHMPI_TRACE_FN_Session_finalize, t0, rc);
    if (rc == MPI_SUCCESS &&
        atomic_fetch_sub_explicit(&sessions, 1, memory_order_relaxed) == 1 &&
        !world_up())
        shmpi_trace_finished();
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
