/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lock.c - passive target synchronization (MPI-3.1 11.5.3): MPI_Win_lock,
 * MPI_Win_unlock, MPI_Win_lock_all, MPI_Win_unlock_all.
 *
 * The lock of target t is the word ctl[t].lock, a reader-writer lock that
 * the origin takes and releases alone (lockword.c): the target may be
 * computing, or blocked in MPI_Recv, and takes no part.  MPI_Win_lock
 * returns with the lock held (11.5.3 allows delaying it to the first RMA
 * call or to unlock, except on one's own window; taking it at once keeps
 * one rule for all targets, and costs one CAS).  MPI_Win_lock_all takes a
 * shared lock on every member, one after the other, so that an exclusive
 * MPI_Win_lock of anyone excludes it; unlock_all releases them.
 *
 * Unlock has no operation to wait for - RMA calls complete when they
 * return (win.h) - so releasing the word is all of it, and its release
 * ordering is what makes the puts of this epoch visible to the next
 * holder (lockword.c, Memory ordering).
 *
 * MPI_MODE_NOCHECK: the program promises that no conflicting lock is held
 * or requested while this one is, so no lock word is touched; unlock then
 * is MPI_Win_flush's fence (flush.c) and nothing else.  The entry in
 * win->epoch_part carries SHMPI_LOCK_NOCHECK to say so.
 *
 * The window's info "no_locks" = "true" promises that passive target is
 * never used: MPI_Win_lock and lock_all say so instead of locking.  A
 * target in an exposure epoch (between MPI_Win_post and MPI_Win_wait) may
 * not be locked (11.5.3): the lock is taken, the target's `exposed` word
 * read (seq_cst, the Dekker pair of pscw.c's check_not_locked), and on
 * conflict the lock is released and MPI_ERR_RMA_SYNC raised.
 *
 * MPI_PROC_NULL is accepted by lock and unlock and does nothing (as MPICH
 * and Open MPI do): it opens no epoch.
 */
#include "rma/sync.h"

#include "core/check.h"
#include "core/pmpi.h"

SHMPI_WEAK_ALIAS(Win_lock)
SHMPI_WEAK_ALIAS(Win_unlock)
SHMPI_WEAK_ALIAS(Win_lock_all)
SHMPI_WEAK_ALIAS(Win_unlock_all)

static int check_locks_allowed(MPI_Win win, const char *fn)
{
    if (win->no_locks)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "the window was given info no_locks=true, "
                               "a promise that passive-target "
                               "synchronization (MPI_Win_lock, "
                               "MPI_Win_lock_all) is never used on it "
                               "(11.2.1)");
    return MPI_SUCCESS;
}

/* Take t's lock word (unless NOCHECK) and record the lock in
   epoch_part[].  Without win->lock: the take may wait for another
   process, and a thread of this one may hold what that process waits
   for (see PMPI_Win_lock). */
static int take(MPI_Win win, int t, int type, int nocheck, const char *fn)
{
    if (!nocheck)
        shmpi_rma_word_lock(win, t, 0, type == MPI_LOCK_EXCLUSIVE);
    if (atomic_load_explicit(&shmpi_win_ctl_of(win, t)->exposed,
                             memory_order_seq_cst)) {
        if (!nocheck)
            shmpi_rma_word_unlock(win, t, 0, type == MPI_LOCK_EXCLUSIVE);
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "target %d is in an exposure epoch "
                               "(MPI_Win_post .. MPI_Win_wait): a window may "
                               "not be locked and exposed at once (11.5.3)",
                               t);
    }
    shmpi_rma_part_set(win, t,
                       (uint8_t)(type | (nocheck ? SHMPI_LOCK_NOCHECK : 0)));
    return MPI_SUCCESS;
}

/* Release t's lock as epoch_part[] recorded it. */
static void give_back(MPI_Win win, int t)
{
    uint8_t l = win->epoch_part[t];
    if (l & SHMPI_LOCK_NOCHECK)
        atomic_thread_fence(memory_order_seq_cst);
    else
        shmpi_rma_word_unlock(win, t, 0,
                              (l & ~SHMPI_LOCK_NOCHECK) == MPI_LOCK_EXCLUSIVE);
    shmpi_rma_part_set(win, t, 0);
}

static int check_lock_args(MPI_Win win, int type, int rank, int assert,
                           const char *fn)
{
    int rc = shmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (type != MPI_LOCK_SHARED && type != MPI_LOCK_EXCLUSIVE)
        return shmpi_win_raise(win, MPI_ERR_LOCKTYPE, fn,
                               "lock type %d is neither MPI_LOCK_SHARED nor "
                               "MPI_LOCK_EXCLUSIVE", type);
    if ((rc = shmpi_rma_check_rank(win, rank, fn)) != MPI_SUCCESS)
        return rc;
    return shmpi_rma_check_assert(win, assert, MPI_MODE_NOCHECK, fn);
}

/* May this process lock rank now?  Checked without win->lock (access and
   epoch_part are atomics, win.h), and the lock word is then taken
   without it (take), so two threads locking two targets at once (11.5.3
   allows a process several lock epochs, on different targets) wait for
   the two words side by side, and a thread unlocking a third target
   meanwhile is not held up - the process another one waits for may be
   waiting for exactly that unlock.  Only the record takes win->lock.
   Between check and record another thread may lock other targets;
   locking the same target, or opening another kind of epoch, at the
   same time is the program's error (11.5.3, 11.5), which shmpi does not
   always catch then, but which breaks no count here: nlocked counts the
   locks recorded, and unlock gives back only a lock it finds. */
static int check_may_lock(MPI_Win win, int rank, const char *fn)
{
    if (win->access == SHMPI_EPOCH_LOCK && win->epoch_part[rank])
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "MPI_Win_lock(%d) while this process already "
                               "holds a lock on %d: call MPI_Win_unlock(%d) "
                               "first (11.5.3: each lock epoch must target "
                               "a different process)", rank, rank, rank);
    return shmpi_rma_check_no_access(win, SHMPI_EPOCH_LOCK, fn);
}

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    static const char fn[] = "MPI_Win_lock";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_lock_args(win, lock_type, rank, assert, fn);
    if (rc == MPI_SUCCESS)
        rc = check_locks_allowed(win, fn);
    if (rc != MPI_SUCCESS || rank == MPI_PROC_NULL)
        return rc;
    if ((rc = check_may_lock(win, rank, fn)) ||
        (rc = take(win, rank, lock_type, assert & MPI_MODE_NOCHECK, fn)))
        return rc;
    shmpi_core_lock(&win->lock);
    if (win->nlocked++ == 0) /* access changes: see win.h, THE EPOCH STATE */
        shmpi_rma_set_access(win, SHMPI_EPOCH_LOCK);
    atomic_store_explicit(&win->fence_open, 0, memory_order_relaxed);
    shmpi_core_unlock(&win->lock);
    return MPI_SUCCESS;
}

/* Does this process hold a lock on rank? */
static int check_locked(MPI_Win win, int rank, const char *fn)
{
    if (win->access == SHMPI_EPOCH_LOCK_ALL)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "MPI_Win_unlock(%d) inside the epoch of "
                               "MPI_Win_lock_all: end that with "
                               "MPI_Win_unlock_all", rank);
    if (win->access != SHMPI_EPOCH_LOCK || !win->epoch_part[rank])
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "MPI_Win_unlock(%d) without MPI_Win_lock(%d)"
                               " (this process is in %s)", rank, rank,
                               shmpi_rma_epoch_name(win));
    return MPI_SUCCESS;
}

int PMPI_Win_unlock(int rank, MPI_Win win)
{
    static const char fn[] = "MPI_Win_unlock";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_rma_check_win(win, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_rma_check_rank(win, rank, fn);
    if (rc != MPI_SUCCESS || rank == MPI_PROC_NULL)
        return rc;
    if ((rc = check_locked(win, rank, fn)))
        return rc;
    if (shmpi_core_checking()) {
        shmpi_rma_origin_complete(win, rank, fn);
        shmpi_rma_conflict_end(win, rank);
    }
    /* checked again under the lock: two threads unlocking one target at
       once (an error of the program) give it back once */
    shmpi_core_lock(&win->lock);
    int held = win->epoch_part[rank] != 0;
    if (held) {
        give_back(win, rank);
        if (--win->nlocked == 0)
            shmpi_rma_set_access(win, SHMPI_EPOCH_NONE);
    }
    shmpi_core_unlock(&win->lock);
    return held ? MPI_SUCCESS : check_locked(win, rank, fn);
}

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    static const char fn[] = "MPI_Win_lock_all";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_rma_check_win(win, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_rma_check_assert(win, assert, MPI_MODE_NOCHECK, fn);
    if (rc == MPI_SUCCESS)
        rc = check_locks_allowed(win, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_rma_check_no_access(win, SHMPI_EPOCH_NONE, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    /* the words are taken without win->lock, as in MPI_Win_lock; another
       thread may open no epoch on win meanwhile (11.5) */
    for (int t = 0; t < win->comm->size; t++) {
        rc = take(win, t, MPI_LOCK_SHARED, assert & MPI_MODE_NOCHECK, fn);
        if (rc != MPI_SUCCESS) {
            while (t-- > 0)
                give_back(win, t);
            return rc;
        }
    }
    shmpi_core_lock(&win->lock);
    shmpi_rma_set_access(win, SHMPI_EPOCH_LOCK_ALL);
    atomic_store_explicit(&win->fence_open, 0, memory_order_relaxed);
    shmpi_core_unlock(&win->lock);
    return MPI_SUCCESS;
}

int PMPI_Win_unlock_all(MPI_Win win)
{
    static const char fn[] = "MPI_Win_unlock_all";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->access != SHMPI_EPOCH_LOCK_ALL)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "MPI_Win_unlock_all without MPI_Win_lock_all "
                               "(this process is in %s%s)",
                               shmpi_rma_epoch_name(win),
                               win->access == SHMPI_EPOCH_LOCK
                                   ? ": end it with MPI_Win_unlock"
                                   : "");
    if (shmpi_core_checking()) {
        shmpi_rma_origin_complete(win, -1, fn);
        shmpi_rma_conflict_end(win, -1);
    }
    shmpi_core_lock(&win->lock);
    for (int t = 0; t < win->comm->size; t++)
        give_back(win, t);
    shmpi_rma_set_access(win, SHMPI_EPOCH_NONE);
    shmpi_core_unlock(&win->lock);
    return MPI_SUCCESS;
}
