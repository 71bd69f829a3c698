/*
 * state.c - shmpi_proc.rma, made at MPI_Init (state.h), and the wait of
 * every blocking RMA call (shmpi_rma_wait).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <sched.h>
#include <stdlib.h>

#include "core/proc.h"
#include "core/wait.h"
#include "pt2pt/progress.h"
#include "rma/state.h"

int shmpi_rma_init(void)
{
    shmpi_proc.rma = calloc(1, sizeof *shmpi_proc.rma);
    return shmpi_proc.rma ? 0 : -1;
}

struct rma_wait {
    int (*ready)(void *);
    void *arg;
    int progress;
};

static int ready_or_progress(void *p)
{
    struct rma_wait *w = p;
    if (w->ready(w->arg))
        return 1;
    if (w->progress)
        shmpi_p2p_progress();
    return 0;
}

/* Polls of a thread without the turn between two sched_yield calls. */
#define POLLS_PER_YIELD 64

/* MULTIPLE.  The pt2pt engine and shmpi_core_wait_until (which reads
   the engine's counters and calls its stall hook) are one caller's at a
   time until pt2pt is made thread-safe, so only the holder of the turn
   runs them; the other waiters poll their own word, which is all they
   wait for (lock words, post and complete counters, a mailbox's state
   are shared memory that other processes write).  A waiter never blocks
   on the turn itself: the holder may wait long (a lock held elsewhere),
   and a thread that blocked behind it could not see its own word free -
   nor release what the holder's lock waits for, through another rank.
   The holder leaves the turn once its own wait is over; the next poll
   of another waiter takes it. */
static void wait_mt(struct rma_wait *w)
{
    struct shmpi_core_lock *turn = &shmpi_proc.rma->turn;
    for (unsigned i = 1;; i++) {
        if (shmpi_core_mutex_trylock(turn)) {
            shmpi_core_wait_until(ready_or_progress, w);
            shmpi_core_mutex_unlock(turn);
            return;
        }
        if (w->ready(w->arg))
            return;
        if (shmpi_proc.oversubscribed || i % POLLS_PER_YIELD == 0)
            sched_yield();
        else
            shmpi_cpu_relax();
    }
}

void shmpi_rma_progress(void)
{
    struct shmpi_core_lock *turn = &shmpi_proc.rma->turn;
    if (__builtin_expect(!shmpi_proc.mt, 1)) {
        shmpi_p2p_progress();
    } else if (shmpi_core_mutex_trylock(turn)) {
        shmpi_p2p_progress();
        shmpi_core_mutex_unlock(turn);
    }
}

void shmpi_rma_wait(int (*ready)(void *), void *arg, int progress)
{
    struct rma_wait w = {ready, arg, progress};
    if (__builtin_expect(shmpi_proc.mt, 0))
        wait_mt(&w);
    else
        shmpi_core_wait_until(ready_or_progress, &w);
}
