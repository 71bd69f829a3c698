/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hooks.h - progress hooks: how the wait loop (core/wait.c) and the
 * progress engine (pt2pt/progress.c) run work that lives in rooms above
 * them, without calling those rooms by name.
 *
 * The rooms are layers (README, "Layout of the tree"): a room calls only
 * itself and rooms below.  But waiting and progress sit low - core's wait
 * loop under everything, pt2pt's engine under every nonblocking
 * operation - and some of what must happen while a rank waits belongs
 * higher up.  So base keeps this small registry, and each room above puts
 * its functions in it once, at MPI_Init (init/init.c), in this order:
 *
 *   pt2pt  shmpi_p2p_init sets the stall hook: the pull of large
 *          unexpected messages (pt2pt/pull.c), which is what breaks a
 *          deadlock of crossed rendezvous sends.  The wait loop runs it
 *          when spinning and yielding moved nothing, before it sleeps.
 *   coll   shmpi_nbc_init adds a progress hook: the schedule engine of
 *          the nonblocking collectives (coll/sched.c).  The progress
 *          engine runs it after its own work on each of its lanes, with
 *          the lane held, while coll has it armed in that lane (a
 *          schedule of that lane is active).  shmpi_coll_init adds
 *          another: the doorbell rings that a persistent Allreduce's
 *          start left for later (coll/pallreduce.c), armed in lane 0
 *          while some are owed.
 *
 * pt2pt's own progress needs no hook: only pt2pt and the rooms above it
 * call shmpi_p2p_progress, and they call it directly.
 *
 * The cost on the hot path is what the direct calls cost before: the
 * progress engine tests one word (`armed`) and calls nothing while no
 * hook is armed; the stall hook is called only on the way to sleep.
 */
#ifndef SHMPI_HOOKS_H
#define SHMPI_HOOKS_H

#include "core/proc.h"   /* the registry is shmpi_proc.hooks */

/* MPI_Init: a new progress hook, disarmed; returns its number h.  A
   room arms h in a lane while it has work for fn there (one store,
   under the lane, from then until the hook finds nothing left), so that
   an idle room costs no call. */
int shmpi_core_progress_hook_add(int (*fn)(unsigned lane));

static inline void shmpi_progress_hook_arm(int h, unsigned lane, int on)
{
    if (on)
        shmpi_proc.hooks.armed[lane] |= 1u << h;
    else
        shmpi_proc.hooks.armed[lane] &= ~(1u << h);
}

/* The progress engine, after its own work on a lane, with it held: the
   hooks armed there, in the order they were added; how many things they
   moved. */
int shmpi_core_run_armed_hooks(unsigned lane);
static inline int shmpi_progress_hooks(unsigned lane)
{
    return __builtin_expect(shmpi_proc.hooks.armed[lane] != 0, 0)
               ? shmpi_core_run_armed_hooks(lane)
               : 0;
}

/* MPI_Init: what the wait loop calls when it stalls. */
void shmpi_core_stall_hook_set(int (*fn)(void));
/* What a thread calls each time it leaves a sleep on the doorbell,
   after its sleeper counts went down (core/wait.c): set once, by the
   check mode's first watched window (rma/local_check.c), before which
   it is NULL and costs one predicted branch on the way out of a sleep. */
void shmpi_core_woke_hook_set(void (*fn)(void));
/* MPI_Init: one turn of progress, which a thread makes under
   MPI_THREAD_MULTIPLE each time it leaves the doorbell (core/wait.c
   says why). */
void shmpi_core_turn_hook_set(int (*fn)(void));

#endif
