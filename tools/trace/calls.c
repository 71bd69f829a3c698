/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * calls.c - the wrappers of the calls that start and end the rank's
 * record: MPI_Init, MPI_Init_thread (the job's time starts), MPI_Finalize
 * and MPI_Abort (the records and the profile are written out); and of
 * the calls that say the thread level, which decides whether the posted
 * tables are locked (posted.c): MPI_Init, MPI_Init_thread,
 * MPI_Session_init.
 */
#include <string.h>

#include "wrap.h"

/* The World Model's level, once it is up (posted.c locks its tables
   only under MULTIPLE). */
static void world_level(int rc)
{
    int level;
    if (rc == MPI_SUCCESS && PMPI_Query_thread(&level) == MPI_SUCCESS)
        shmpi_trace_level(level);
}

int MPI_Init(int *argc, char ***argv)
{
    uint64_t t0 = shmpi_trace_now();
    shmpi_trace_started(t0);
    int rc = PMPI_Init(argc, argv);
    shmpi_trace_call(SHMPI_TRACE_FN_Init, t0, rc);
    world_level(rc);
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    uint64_t t0 = shmpi_trace_now();
    shmpi_trace_started(t0);
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    shmpi_trace_call(SHMPI_TRACE_FN_Init_thread, t0, rc);
    world_level(rc);
    return rc;
}

/* A session's level: its info's "thread_level" (MPI-4.1 11.3.1). */
int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler,
                     MPI_Session *session)
{
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Session_init(info, errhandler, session);
    shmpi_trace_call(SHMPI_TRACE_FN_Session_init, t0, rc);
    MPI_Info got;
    if (rc != MPI_SUCCESS ||
        PMPI_Session_get_info(*session, &got) != MPI_SUCCESS) {
        if (rc == MPI_SUCCESS)
            shmpi_trace_level(MPI_THREAD_MULTIPLE);   /* not known */
        return rc;
    }
    char v[64];
    int len = (int)sizeof v, flag = 0;
    if (PMPI_Info_get_string(got, "thread_level", &len, v, &flag) !=
            MPI_SUCCESS || !flag || strcmp(v, "MPI_THREAD_MULTIPLE") == 0)
        shmpi_trace_level(MPI_THREAD_MULTIPLE);
    else
        shmpi_trace_level(MPI_THREAD_SINGLE);
    PMPI_Info_free(&got);
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
