/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * environ.c - inquiries about the environment and MPI_Abort
 * (MPI-3.1 8.1, 8.6, 8.7).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "core/objects.h"
#include "core/pmpi.h"
#include "core/proc.h"

SHMPI_WEAK_ALIAS(Abort)
SHMPI_WEAK_ALIAS(Get_processor_name)
SHMPI_WEAK_ALIAS(Get_version)
SHMPI_WEAK_ALIAS(Get_library_version)
SHMPI_WEAK_ALIAS(Wtime)
SHMPI_WEAK_ALIAS(Wtick)

/*
 * Aborts the whole job, whatever comm is (the standard allows it).  The
 * rank records why in its arena slot; the launcher reads that once the
 * rank is gone, kills the other ranks and exits with errorcode.
 */
int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    struct shmpi_proc *p = &shmpi_proc;
    shmpi_core_die_once(); /* one thread reports (core/error.c) */
    const char *name = shmpi_comm_ok(comm) && comm->name[0] ? comm->name
                                                             : "comm";
    fflush(stdout);
    fflush(stderr);
    if (!p->slot || p->singleton) { /* no launcher will report it */
        fprintf(stderr, "shmpi: rank %d called MPI_Abort(%s, %d)\n",
                p->slot ? p->rank : shmpi_tun_env_rank(p->rank), name,
                errorcode);
    }
    if (p->slot) {
        p->slot->abort_kind = SHMPI_ABORT_CALLED;
        p->slot->abort_code = errorcode;
        snprintf(p->slot->abort_what, sizeof p->slot->abort_what,
                 "MPI_Abort(%.64s, %d)", name, errorcode);
        int none = 0;
        atomic_compare_exchange_strong(&p->arena->first_abort, &none,
                                       p->rank + 1);
        atomic_store_explicit(&p->slot->state, SHMPI_RANK_ABORTED,
                              memory_order_release);
    }
    _exit(errorcode & 255 ? errorcode & 255 : 1);
}

int PMPI_Get_processor_name(char *name, int *resultlen)
{
    SHMPI_REQUIRE_INIT("MPI_Get_processor_name");
    if (!name || !resultlen)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG,
                           "MPI_Get_processor_name",
                           "name or resultlen is NULL");
    if (gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0)
        snprintf(name, MPI_MAX_PROCESSOR_NAME, "localhost");
    name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

/* Callable at any time, even before MPI_Init (8.1.1). */
int PMPI_Get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_version",
                           "version or subversion is NULL");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int PMPI_Get_library_version(char *version, int *resultlen)
{
    if (!version || !resultlen)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG,
                           "MPI_Get_library_version",
                           "version or resultlen is NULL");
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                     "shmpi %s (MPI %d.%d, shared memory, one machine)",
                     SHMPI_VERSION_STRING, MPI_VERSION, MPI_SUBVERSION);
    *resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING
                     ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1;
    return MPI_SUCCESS;
}

/* CLOCK_MONOTONIC is one clock for the whole machine, so MPI_Wtime is
   comparable across ranks (attribute MPI_WTIME_IS_GLOBAL is true). */
double PMPI_Wtime(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double PMPI_Wtick(void)
{
    struct timespec r;
    clock_getres(CLOCK_MONOTONIC, &r);
    return (double)r.tv_sec + (double)r.tv_nsec * 1e-9;
}
