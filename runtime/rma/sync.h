/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync.h - what the synchronization files of runtime/rma/ share:
 * epoch.c (the epoch rules), fence.c, pscw.c, lock.c, flush.c and
 * lockword.c (the reader-writer lock in a shared word).
 *
 * Everything here rests on one fact of the data path (win.h): an RMA
 * call has completed, at the origin and at the target, when it returns.
 * So no synchronization call ever waits for an operation to finish; each
 * one orders memory (a release that publishes what this process wrote,
 * an acquire that makes visible what others wrote), waits for the other
 * processes' matching calls where its epoch needs them (fence, post ->
 * start, complete -> wait, a lock held elsewhere), and checks that the
 * program follows the epoch rules of MPI-3.1 11.5 (epoch.c).
 */
#ifndef SHMPI_RMA_SYNC_H
#define SHMPI_RMA_SYNC_H

#include "core/error.h"
#include "core/proc.h"
#include "rma/win.h"

/* win->epoch_part[t] in a PSCW epoch; a lock epoch keeps MPI_LOCK_* there,
   a sync_ops epoch the MPI_MODE_WIN_* bits it covers (sync_epoch.c).
   Only one kind of access epoch is open at a time, and each kind leaves
   every entry 0 when it ends. */
enum {
    SHMPI_TARGET_CLOSED,       /* not a target of this epoch */
    SHMPI_TARGET_AWAIT_POST,   /* in the start group, its post not seen */
    SHMPI_TARGET_OPEN,         /* accessible now */
};

/* In win->epoch_part[t]: the lock was taken with MPI_MODE_NOCHECK, so no
   lock word is held and unlock releases none. */
#define SHMPI_LOCK_NOCHECK 0x80

/* The epoch state's stores (win.h, THE EPOCH STATE): relaxed; the
   synchronization calls make them holding win->lock, or (lock.c's take)
   where the standard excludes every other writer of that entry. */
static inline void shmpi_rma_set_access(MPI_Win win, enum shmpi_win_epoch e)
{
    atomic_store_explicit(&win->access, e, memory_order_relaxed);
}
static inline void shmpi_rma_part_set(MPI_Win win, int target, uint8_t v)
{
    atomic_store_explicit(&win->epoch_part[target], v, memory_order_relaxed);
}

/* epoch.c: MPI_ERR_WIN (through MPI_COMM_WORLD's handler, as there is no
   window to take one from) unless win is a live window. */
int shmpi_rma_check_win(MPI_Win win, const char *fn);
/* epoch.c: MPI_ERR_ASSERT unless assert has only bits of `allowed`. */
int shmpi_rma_check_assert(MPI_Win win, int assert, int allowed,
                           const char *fn);
/* epoch.c: MPI_ERR_RANK unless 0 <= rank < size (or MPI_PROC_NULL). */
int shmpi_rma_check_rank(MPI_Win win, int rank, const char *fn);
/* epoch.c: the access epoch this process is in, for messages: "a fence
   epoch", "the access epoch of MPI_Win_start", ... */
const char *shmpi_rma_epoch_name(MPI_Win win);
/* epoch.c: MPI_ERR_RMA_SYNC if an open access epoch forbids opening
   another one with fn (start, lock, lock_all, a sync_ops request): the
   message says which.  An epoch of kind `joins` does not forbid it (the
   locks of other targets for MPI_Win_lock, other sync_ops requests for
   MPI_Start); SHMPI_EPOCH_NONE when any open epoch does. */
int shmpi_rma_check_no_access(MPI_Win win, enum shmpi_win_epoch joins,
                              const char *fn);

/* pscw.c: wait for target's MPI_Win_post of this epoch, then open it. */
void shmpi_rma_await_post(MPI_Win win, int target);

/* lockword.c: take / release target's passive-target lock word (acc 0)
   or accumulate lock word (acc 1), blocking while it is held in a
   conflicting mode; the target takes no part. */
void shmpi_rma_word_lock(MPI_Win win, int target, int acc, int exclusive);
void shmpi_rma_word_unlock(MPI_Win win, int target, int acc,
                           int exclusive);

#endif
