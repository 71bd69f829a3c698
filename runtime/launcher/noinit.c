/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * noinit.c - ranks that exit 0 without ever calling MPI_Init.
 *
 * Such a rank is fine when the job is not an MPI job at all (`mpirun -np
 * 4 hostname`, as with Open MPI and MPICH), and a failure when the other
 * ranks do use MPI: they would wait for it forever.  Which one it is may
 * not be known yet when the rank exits - the others may still be starting
 * - so the rank is remembered and the question asked again at every later
 * exit and, while ranks are alive, on a timer that backs off from 10 ms
 * to 1 s.  A timer, not an event, because a rank reaching MPI_Init tells
 * nobody (see the report to runtime/core: a futex word or a control pipe
 * would make this an event); it only runs in this rare state, never in a
 * normal job.
 */
#include <errno.h>

#include "launcher/job.h"

#define RECHECK_FIRST_MS 10
#define RECHECK_MAX_MS 1000

static int rank_state(const struct shmpi_job *j, int r)
{
    return atomic_load_explicit(&shmpi_arena_slot(j->hdr, r)->state,
                                memory_order_acquire);
}

/* Has any rank but except called MPI_Init? */
static bool mpi_used(const struct shmpi_job *j, int except)
{
    for (int r = 0; r < j->np; r++)
        if (r != except && rank_state(j, r) >= SHMPI_RANK_INITIALIZED)
            return true;
    return false;
}

static void arm_recheck(struct shmpi_job *j)
{
    if (j->recheck_armed || j->alive == 0 || j->decided)
        return;
    shmpi_ln_loop_timeout(j, UD_RECHECK, &j->recheck_ts, j->recheck_ms);
    j->recheck_armed = true;
}

void shmpi_ln_noinit_check(struct shmpi_job *j)
{
    int r = j->noinit_rank;
    if (r < 0 || j->decided || !mpi_used(j, r))
        return;
    j->named = r;
    shmpi_ln_fail(j, 1, "rank %d (pid %d) exited without calling MPI_Init; "
                  "job aborted", r, (int)j->ranks[r].pid);
}

/* Rank r exited 0 and never called MPI_Init. */
void shmpi_ln_noinit_exit(struct shmpi_job *j, int r)
{
    if (j->noinit_rank < 0) {
        j->noinit_rank = r;
        j->recheck_ms = RECHECK_FIRST_MS;
    }
    shmpi_ln_noinit_check(j);
    arm_recheck(j);
}

void shmpi_ln_noinit_timer(struct shmpi_job *j, int res)
{
    j->recheck_armed = false;
    if (res != -ETIME)
        return;
    shmpi_ln_noinit_check(j);
    j->recheck_ms = j->recheck_ms * 2 < RECHECK_MAX_MS ? j->recheck_ms * 2
                                                       : RECHECK_MAX_MS;
    arm_recheck(j);
}
