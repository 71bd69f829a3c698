/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * acclock.h - the cheap side of the accumulate lock (acclock.c), inline:
 * what a one-instruction atomic (atomic.c) does around its instruction.
 *
 *   uint32_t token = shmpi_rma_atomic_enter(win, target);
 *   ... the one instruction on target's memory ...
 *   shmpi_rma_atomic_leave(win, target, token);
 *
 * With a lease on target (acclock.c), enter is a plain store of the
 * origin's own atomic_on and a load of the target's acc_no_leases, and
 * no fence: the first exclusive holder of the target's acc_lock fences
 * every CPU for it.  Without one, enter announces itself with a seq_cst
 * store (an xchg) and may take a lease for the next time.  Under
 * MPI_THREAD_MULTIPLE an origin has no lease ever and takes acc_lock
 * shared instead (acclock.c, SEVERAL THREADS): decided in the slow path,
 * so the inline path below is the same at every level.
 */
#ifndef SHMPI_RMA_ACCLOCK_H
#define SHMPI_RMA_ACCLOCK_H

#include <stdatomic.h>
#include <stdint.h>

#include "rma/win.h"

#define SHMPI_ATOMIC_BUSY 0x80000000u  /* in atomic_on: instruction runs */
#define SHMPI_ATOMIC_LOCKED UINT32_MAX /* token: acc_lock taken shared */

uint32_t shmpi_rma_atomic_enter_slow(MPI_Win win, int target);
void shmpi_rma_atomic_leave_locked(MPI_Win win, int target);

static inline _Atomic uint32_t *shmpi_rma_my_atomic_on(MPI_Win win)
{
    return &shmpi_win_ctl_of(win, win->comm->rank)->atomic_on;
}

/* Returns the token leave wants: the atomic_on value to restore (the
   lease, or 0), or SHMPI_ATOMIC_LOCKED. */
static inline uint32_t shmpi_rma_atomic_enter(MPI_Win win, int target)
{
    _Atomic uint32_t *mine = shmpi_rma_my_atomic_on(win);
    uint32_t lease = (uint32_t)target + 1;
    if (atomic_load_explicit(mine, memory_order_relaxed) == lease) {
        atomic_store_explicit(mine, lease | SHMPI_ATOMIC_BUSY,
                              memory_order_relaxed);
        /* Only the compiler is kept from loading before the store; the
           CPU may still, and the revoker's fence of every CPU covers
           that (acclock.c). */
        atomic_signal_fence(memory_order_seq_cst);
        if (!atomic_load_explicit(&shmpi_win_ctl_of(win, target)->acc_no_leases,
                                  memory_order_relaxed))
            return lease;
    }
    return shmpi_rma_atomic_enter_slow(win, target);
}

/* Release: the instruction's effect is visible before the word says it
   is over, to an exclusive holder that waits for that (acclock.c). */
static inline void shmpi_rma_atomic_leave(MPI_Win win, int target,
                                          uint32_t token)
{
    if (token == SHMPI_ATOMIC_LOCKED)
        shmpi_rma_atomic_leave_locked(win, target);
    else
        atomic_store_explicit(shmpi_rma_my_atomic_on(win), token,
                              memory_order_release);
}

#endif
