/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * epoch.c - the epoch state machine of MPI-3.1 11.5, at one process, and
 * the entry every RMA communication call makes into it (shmpi_rma_enter_epoch:
 * a check that also opens a fence epoch and waits for a PSCW target's post).
 *
 * Access epochs (this process as origin), win->access:
 *
 *   NONE  --fence(!NOSUCCEED)-->  FENCE  --fence(NOSUCCEED)-->  NONE
 *   NONE or unused FENCE  --start-->  PSCW  --complete-->  NONE
 *   NONE or unused FENCE  --lock(t)-->  LOCK  --unlock(last t)-->  NONE
 *   NONE or unused FENCE  --lock_all-->  LOCK_ALL  --unlock_all-->  NONE
 *   LOCK  --lock(t') for a t' not yet locked-->  LOCK  (11.5.3: several
 *                                               lock epochs at once)
 *
 * A fence that does not say MPI_MODE_NOSUCCEED may start an epoch: it
 * does only "if it is followed by another fence call and by RMA
 * communication calls issued between these two fence calls" (11.5.1).
 * So after such a fence the state is FENCE but the epoch is not yet open
 * (win->fence_open == 0): MPI_Win_lock, lock_all and start are still
 * allowed and replace it - programs commonly end the last fence phase
 * with a plain MPI_Win_fence(0) and go on with locks (MPICH allows the
 * same).  The first RMA call sets fence_open; from then on only another
 * fence may follow, and it may not say MPI_MODE_NOPRECEDE.
 *
 * Exposure epochs (this process as target): post .. wait (or a test that
 * returned true), win->post_group set in between.  A fence may not come
 * inside one, nor a second post; access and exposure epochs may overlap
 * otherwise.  Passive target has no exposure epoch, but a window may not
 * be locked and exposed at once (11.5.3): post checks its own lock word,
 * lock checks the target's `exposed` word (lock.c, pscw.c).
 *
 * Every rule broken raises MPI_ERR_RMA_SYNC with a message naming the
 * rule and the way out.  What cannot be seen from one process is not
 * checked: a post with no matching start, asserts that differ between
 * processes, a lock taken in opposite orders by two processes.
 *
 * Sync counters (shmpi_sync(7)): a started sync_ops request opens an
 * access epoch to its target for the kinds of call its sync_mode names
 * (sync_epoch.c): win->access = SHMPI_EPOCH_SYNC_OPS, win->epoch_part[t]
 * the MPI_MODE_WIN_* bits covered; shmpi_rma_enter_epoch_fully checks
 * the call's kind against them (not_in_sync_ops), and the other
 * synchronization calls refuse to start inside it through
 * shmpi_rma_epoch_name / shmpi_rma_check_no_access.
 */
#include "rma/sync.h"
#include "rma/sync_counter.h"

#include <stdio.h>

int shmpi_rma_check_win(MPI_Win win, const char *fn)
{
    return shmpi_win_ok(win) ? MPI_SUCCESS : shmpi_win_raise_bad(win, fn);
}

/* "MPI_MODE_NOSTORE | MPI_MODE_NOPUT", or a hex number for bits that
   are no MPI_MODE_*. */
static const char *mode_names(int bits, char *buf, size_t len)
{
    static const struct { int bit; const char *name; } modes[] = {
        {MPI_MODE_NOCHECK, "MPI_MODE_NOCHECK"},
        {MPI_MODE_NOSTORE, "MPI_MODE_NOSTORE"},
        {MPI_MODE_NOPUT, "MPI_MODE_NOPUT"},
        {MPI_MODE_NOPRECEDE, "MPI_MODE_NOPRECEDE"},
        {MPI_MODE_NOSUCCEED, "MPI_MODE_NOSUCCEED"},
    };
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
        if (bits & modes[i].bit) {
            used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                     used ? " | " : "", modes[i].name);
            bits &= ~modes[i].bit;
            if (used >= len)
                return buf;
        }
    if (bits)
        snprintf(buf + used, len - used, "%s%#x", used ? " | " : "",
                 (unsigned)bits);
    return buf;
}

int shmpi_rma_check_assert(MPI_Win win, int assert, int allowed,
                           const char *fn)
{
    if (!(assert & ~allowed))
        return MPI_SUCCESS;
    char bad[128], good[128];
    return shmpi_win_raise(win, MPI_ERR_ASSERT, fn,
                           "assert has %s, which this call does not take: "
                           "its asserts are %s (11.5.5)",
                           mode_names(assert & ~allowed, bad, sizeof bad),
                           mode_names(allowed, good, sizeof good));
}

int shmpi_rma_check_rank(MPI_Win win, int rank, const char *fn)
{
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= win->comm->size))
        return shmpi_win_raise(win, MPI_ERR_RANK, fn,
                               "rank %d is not in the window's group "
                               "(size %d)", rank, win->comm->size);
    return MPI_SUCCESS;
}

const char *shmpi_rma_epoch_name(MPI_Win win)
{
    switch (shmpi_rma_access(win)) {
    case SHMPI_EPOCH_NONE:
        return "no access epoch";
    case SHMPI_EPOCH_FENCE:
        return "a fence epoch";
    case SHMPI_EPOCH_PSCW:
        return "the access epoch of MPI_Win_start";
    case SHMPI_EPOCH_LOCK:
        return "a passive-target epoch of MPI_Win_lock";
    case SHMPI_EPOCH_LOCK_ALL:
        return "the passive-target epoch of MPI_Win_lock_all";
    case SHMPI_EPOCH_SYNC_OPS:
        return "a sync_ops epoch (MPI_Win_sync_ops_init)";
    }
    return "an unknown epoch";
}

/* How to end the access epoch this process is in. */
static const char *way_out(MPI_Win win)
{
    switch (shmpi_rma_access(win)) {
    case SHMPI_EPOCH_FENCE:
        return "end it with MPI_Win_fence(MPI_MODE_NOSUCCEED, win)";
    case SHMPI_EPOCH_PSCW:
        return "end it with MPI_Win_complete";
    case SHMPI_EPOCH_LOCK:
        return "end it with MPI_Win_unlock of each target locked";
    case SHMPI_EPOCH_LOCK_ALL:
        return "end it with MPI_Win_unlock_all";
    case SHMPI_EPOCH_SYNC_OPS:
        return "complete the started sync_ops requests";
    case SHMPI_EPOCH_NONE:
        break;
    }
    return "";
}

/* `access` is read once: under MPI_THREAD_MULTIPLE other threads may
   open and close epochs of kind `joins` meanwhile (two threads locking
   two targets), and a second read could find one opened after the first
   found none. */
int shmpi_rma_check_no_access(MPI_Win win, enum shmpi_win_epoch joins,
                              const char *fn)
{
    enum shmpi_win_epoch access =
        atomic_load_explicit(&win->access, memory_order_relaxed);
    if (access == SHMPI_EPOCH_NONE || access == joins ||
        (access == SHMPI_EPOCH_FENCE && !win->fence_open))
        return MPI_SUCCESS;
    if (access == SHMPI_EPOCH_FENCE)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "called while a fence epoch is open (RMA "
                               "calls since the last MPI_Win_fence): "
                               "access epochs may not overlap (11.5); %s",
                               way_out(win));
    return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                           "called inside %s: access epochs may not "
                           "overlap (11.5); %s", shmpi_rma_epoch_name(win),
                           way_out(win));
}

static int outside(MPI_Win win, int target, const char *fn)
{
    if (target == MPI_PROC_NULL)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "MPI_PROC_NULL target outside an access "
                               "epoch: even it needs one (11.3); call "
                               "MPI_Win_fence, MPI_Win_start, MPI_Win_lock "
                               "or MPI_Win_lock_all first");
    return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                           "target %d outside an access epoch: call "
                           "MPI_Win_fence, MPI_Win_start, MPI_Win_lock or "
                           "MPI_Win_lock_all first", target);
}

static int not_covered(MPI_Win win, int target, const char *fn)
{
    switch (shmpi_rma_access(win)) {
    case SHMPI_EPOCH_LOCK:
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "target %d is not locked: this passive-"
                               "target epoch covers only the targets of "
                               "MPI_Win_lock; call MPI_Win_lock(..., %d, "
                               "...) first", target, target);
    case SHMPI_EPOCH_PSCW:
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "target %d is not in the group given to "
                               "MPI_Win_start: this epoch may access only "
                               "those targets (11.5.2)", target);
    default:
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "target %d is not covered by %s", target,
                               shmpi_rma_epoch_name(win));
    }
}

/* Which calls a sync_ops epoch covers for target, for messages. */
static const char *covered_calls(int bits)
{
    static const char *names[8] = {
        "no calls", "MPI_Put", "MPI_Get", "MPI_Put and MPI_Get",
        "accumulates", "MPI_Put and accumulates", "MPI_Get and accumulates",
        "MPI_Put, MPI_Get and accumulates"};
    return names[bits & 7];
}

static int not_in_sync_ops(MPI_Win win, int target, int kind, const char *fn)
{
    if (!win->epoch_part[target])
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "target %d is not covered by a started "
                               "sync_ops request (MPI_Win_sync_ops_init "
                               "with that target, then MPI_Start)", target);
    const char *needs = kind == MPI_MODE_WIN_PUT ? "MPI_MODE_WIN_PUT"
                        : kind == MPI_MODE_WIN_GET ? "MPI_MODE_WIN_GET"
                                                   : "MPI_MODE_WIN_ACCUMULATE";
    return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                           "the started sync_ops requests to target %d "
                           "cover %s only; this call needs sync_mode %s",
                           target, covered_calls(win->epoch_part[target]),
                           needs);
}

int shmpi_rma_enter_epoch_fully(MPI_Win win, int target, int kind,
                                const char *fn)
{
    if (target != MPI_PROC_NULL && (target < 0 || target >= win->comm->size))
        return shmpi_rma_check_rank(win, target, fn);
    switch (shmpi_rma_access(win)) {
    case SHMPI_EPOCH_NONE:
        return outside(win, target, fn);
    case SHMPI_EPOCH_FENCE:
        /* every thread's first call of the epoch stores the same 1:
           relaxed, and only when it is not 1 yet (no line written by
           each put of a fence epoch) */
        if (!atomic_load_explicit(&win->fence_open, memory_order_relaxed))
            atomic_store_explicit(&win->fence_open, 1, memory_order_relaxed);
        return MPI_SUCCESS;
    case SHMPI_EPOCH_LOCK_ALL:
        return MPI_SUCCESS;
    case SHMPI_EPOCH_LOCK:
        if (target == MPI_PROC_NULL || win->epoch_part[target])
            return MPI_SUCCESS;
        return not_covered(win, target, fn);
    case SHMPI_EPOCH_SYNC_OPS:
        if (target == MPI_PROC_NULL || (win->epoch_part[target] & kind))
            return MPI_SUCCESS;
        return not_in_sync_ops(win, target, kind, fn);
    case SHMPI_EPOCH_PSCW:
        /* acquire: pairs with shmpi_rma_await_post's release (pscw.c) */
        if (target == MPI_PROC_NULL ||
            atomic_load_explicit(&win->epoch_part[target],
                                 memory_order_acquire) == SHMPI_TARGET_OPEN)
            return MPI_SUCCESS;
        if (win->epoch_part[target] == SHMPI_TARGET_AWAIT_POST) {
            shmpi_rma_await_post(win, target);
            return MPI_SUCCESS;
        }
        return not_covered(win, target, fn);
    }
    return not_covered(win, target, fn);
}

int shmpi_rma_epoch_check_closed(MPI_Win win, const char *before,
                                 const char *fn)
{
    if (win->post_group != MPI_GROUP_NULL)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "the exposure epoch of MPI_Win_post is still "
                               "open: call MPI_Win_wait before %s", before);
    if (win->access == SHMPI_EPOCH_FENCE && win->fence_open)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "RMA calls were made since the last "
                               "MPI_Win_fence: call MPI_Win_fence to "
                               "complete them before %s", before);
    if (win->access != SHMPI_EPOCH_NONE && win->access != SHMPI_EPOCH_FENCE)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "called inside %s; %s before %s",
                               shmpi_rma_epoch_name(win), way_out(win),
                               before);
    return shmpi_rma_sync_check_change(win, fn);
}
