/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * proc.c - the state of this rank (proc.h), and the refusals of a process
 * that may not use MPI (now, or ever as the rank it takes itself for).
 * Here, in base, because every room reads the state and checks it on
 * entry (SHMPI_REQUIRE_INIT); MPI_Init (init/init.c), at the top, fills
 * it in and is one of the refusals' callers.
 */
#include <stdio.h>
#include <unistd.h>

#include "core/error.h"
#include "core/proc.h"

/* wait: the policy before shmpi_core_wait_configure reads the tunables */
struct shmpi_proc shmpi_proc = {.wait = {.spin_ns = 100000, .yields = 4},
                                .init_fn = "MPI_Init"};

_Noreturn void shmpi_core_not_the_rank(const char *fn, int rank,
                                       int owner_pid,
                                       const char *why)
{
    shmpi_core_die_once();
    fflush(stdout);
    fprintf(stderr, "shmpi: %s: this process (pid %d) is not rank %d "
            "(pid %d): %s (%s)\n", fn, (int)getpid(), rank, owner_pid, why,
            shmpi_core_error_class_name(MPI_ERR_OTHER));
    fflush(stderr);
    _exit(MPI_ERR_OTHER);
}

_Noreturn void shmpi_core_not_initialized(const char *fn)
{
    struct shmpi_proc *p = &shmpi_proc;
    if (p->forked_from)
        shmpi_core_not_the_rank(fn, p->rank, p->forked_from,
            "a child a rank made with fork() cannot use MPI");
    shmpi_core_fatal(MPI_ERR_OTHER, fn,
                     p->finalized ? "called after MPI_Finalize (or the "
                                    "last MPI_Session_finalize)"
                                  : "called before MPI_Init (or "
                                    "MPI_Session_init)");
}
