/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * acclock.c - the accumulate lock of a window member: what makes
 * accumulates to its memory atomic per element (MPI-3.1 11.7.1), taken
 * by origins alone.
 *
 * Two kinds of holders.  An accumulate that works element by element
 * (acc.c: a range, or a type no instruction covers) holds the member's
 * acc_lock word exclusively (lockword.c).  A single-instruction atomic
 * (atomic.c: one aligned element of 1 to 8 bytes) needs only that no
 * exclusive holder works meanwhile: any number of them may run at once,
 * the hardware keeps them atomic among themselves.  Taking the word
 * shared for each one would cost two read-modify-writes on a line every
 * origin of the target writes; instead an atomic announces itself in a
 * word of its own origin's, atomic_on (target + 1 | BUSY), which stays in
 * the origin's cache, and the exclusive holder waits until no origin
 * announces its target.  Two ways to announce:
 *
 * ANNOUNCED (Dekker, a fence on both sides):
 *   atomic:    atomic_on = BUSY (seq_cst); if (acc_lock is EXCL) back
 *              off: atomic_on = 0 (release), take the word shared the
 *              slow way; else do the instruction; atomic_on = 0 or the
 *              lease (release)
 *   exclusive: take acc_lock EXCL (seq_cst CAS); wait until no member's
 *              atomic_on is BUSY on this target (seq_cst loads)
 * In the single total order of the seq_cst operations, either the
 * atomic's load of acc_lock comes first - then its store of BUSY
 * precedes the exclusive holder's load of it, which waits for the
 * release store that ends it and so finds the instruction's effect
 * visible - or the CAS comes first, and the atomic sees EXCL and backs
 * off.  (The value the holder reads may be a later store of the same
 * origin - its next BUSY on another target - which C11 counts in the
 * release sequence of the store before; on x86 and ARM a release store
 * is ordered before later stores anyway.)
 *
 * LEASED (acclock.h; no fence on the atomic's side).  The seq_cst store
 * is an xchg, a locked instruction: one of the three a fetch_and_op +
 * flush paid without leases (the atomic and flush's fence are the
 * others).  An origin that
 * holds a lease on the target instead stores BUSY plainly and loads the
 * target's acc_no_leases; the CPU may load before its store is visible.
 * What makes that safe is the first exclusive holder: it sets
 * acc_no_leases (seq_cst) and, if any lease was ever asked for, fences
 * every CPU that runs a rank (core/fence.h) before it waits for BUSY
 * words.  A leased atomic whose load comes before that fence in its
 * program had its store of BUSY made visible by the fence, and is
 * waited for; one whose load comes after (a rank switched out and back
 * in passed a fence too) sees acc_no_leases and goes the announced way.
 * Once that first holder's wait is over no leased atomic runs on the
 * target and none is granted, so later exclusive holders need no fence.
 *   Taking a lease (an announced atomic that did not back off, before
 *   its instruction): acc_leased = 1 (seq_cst; skipped when an acquire
 *   load finds it set, by whoever set it), then load acc_no_leases
 *   (seq_cst); keep the lease only if it is 0.  Against the exclusive
 *   holder's store of acc_no_leases and load of acc_leased, Dekker
 *   again: either the holder sees acc_leased and fences, or the lease is
 *   refused.  The skip's load must be acquire: then the store it read
 *   happens before the load of acc_no_leases, and still precedes it in
 *   the seq_cst order (with a relaxed load, ARM could read acc_no_leases
 *   = 0 early while the holder misses the other origin's store).
 * So a window whose target sees only one-instruction atomics pays no
 * fence per atomic; the first element-wise accumulate on that target
 * costs one fence of every CPU (an interprocessor interrupt each) and
 * returns it to ANNOUNCED.
 *
 * An atomic_on holder runs one instruction and no MPI progress, so the
 * exclusive holder's wait is short and cannot deadlock; when ranks
 * outnumber CPUs it yields, for the holder may be preempted.  A lease
 * itself is never waited for.
 *
 * SEVERAL THREADS (MPI_THREAD_MULTIPLE).  atomic_on is one word per
 * origin, written with plain stores: two threads of one origin would
 * overwrite each other's BUSY - the second to finish clears it while the
 * first still runs its instruction, and an exclusive holder that reads
 * the cleared word combines an element under it.  So under MULTIPLE an
 * origin never announces: shmpi_rma_atomic_enter_slow takes acc_lock
 * shared at once (SHMPI_ATOMIC_LOCKED) and returns before any store of
 * atomic_on, and leave gives the word back without one, so this
 * origin's atomic_on stays 0 from the window's creation on.  Then the
 * inline fast path (acclock.h) never finds its lease there and always
 * comes here, and the exclusive holder's wait passes over this origin;
 * what excludes its atomics from an element-wise accumulate is the
 * word itself: a shared take is a seq_cst CAS that fails while EXCL is
 * set, an exclusive one a CAS from 0 that fails while a shared holder
 * counts in it, and a release is a release (lockword.c) - so either the
 * exclusive holder comes after the atomic's release and sees its
 * effect, or the atomic comes after the exclusive release.  Other
 * origins, at any level, keep their leases and announcements against
 * the same word: the argument above never relied on an origin
 * announcing.  Each atomic then costs two read-modify-writes of the
 * target's acc_lock line, shared by every origin of the target;
 * one announce slot per thread would give the fence-free path back.
 * Below MULTIPLE this costs nothing: the branch on shmpi_proc.mt is on
 * the slow path only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/fence.h"
#include "core/wait.h"
#include "rma/acclock.h"
#include "rma/sync.h"

static _Atomic uint32_t *atomic_on(MPI_Win win, int member)
{
    return &shmpi_win_ctl_of(win, member)->atomic_on;
}

/* An announced atomic that did not back off: may it keep a lease on
   target? */
static int lease_taken(MPI_Win win, int target)
{
    struct shmpi_win_ctl *t = shmpi_win_ctl_of(win, target);
    if (!shmpi_proc.fence_registered ||
        atomic_load_explicit(&t->acc_no_leases, memory_order_relaxed))
        return 0;
    if (!atomic_load_explicit(&t->acc_leased, memory_order_acquire))
        atomic_store_explicit(&t->acc_leased, 1, memory_order_seq_cst);
    return !atomic_load_explicit(&t->acc_no_leases, memory_order_seq_cst);
}

uint32_t shmpi_rma_atomic_enter_slow(MPI_Win win, int target)
{
    if (shmpi_proc.mt) { /* SEVERAL THREADS above: no announcing */
        shmpi_rma_word_lock(win, target, 1, 0);
        return SHMPI_ATOMIC_LOCKED;
    }
    _Atomic uint32_t *mine = atomic_on(win, win->comm->rank);
    uint32_t lease = (uint32_t)target + 1;
    atomic_store_explicit(mine, lease | SHMPI_ATOMIC_BUSY,
                          memory_order_seq_cst);
    if (!(atomic_load_explicit(&shmpi_win_ctl_of(win, target)->acc_lock,
                               memory_order_seq_cst) &
          SHMPI_WIN_LOCK_EXCL))
        return lease_taken(win, target) ? lease : 0;
    atomic_store_explicit(mine, 0, memory_order_release);
    shmpi_rma_word_lock(win, target, 1, 0); /* waits for the exclusive */
    return SHMPI_ATOMIC_LOCKED;
}

void shmpi_rma_atomic_leave_locked(MPI_Win win, int target)
{
    shmpi_rma_word_unlock(win, target, 1, 0);
}

/* The first exclusive holder of target's acc_lock ends leases on it. */
static void end_leases(MPI_Win win, int target, const char *fn)
{
    struct shmpi_win_ctl *t = shmpi_win_ctl_of(win, target);
    if (atomic_load_explicit(&t->acc_no_leases, memory_order_relaxed))
        return; /* only exclusive holders store it: no race */
    atomic_store_explicit(&t->acc_no_leases, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&t->acc_leased, memory_order_seq_cst) &&
        shmpi_core_fence_all_ranks() != 0) {
        char what[160];
        snprintf(what, sizeof what,
                 "an origin holds a lease for one-instruction atomics on "
                 "rank %d's window memory, and membarrier failed here (%s)",
                 target, strerror(errno));
        shmpi_core_fatal(MPI_ERR_INTERN, fn, what);
    }
}

static void wait_atomics_out(MPI_Win win, int target)
{
    uint32_t busy = ((uint32_t)target + 1) | SHMPI_ATOMIC_BUSY;
    for (int m = 0; m < win->comm->size; m++)
        while (atomic_load_explicit(atomic_on(win, m),
                                    memory_order_seq_cst) == busy) {
            shmpi_cpu_relax(); /* leave the holder its line */
            shmpi_core_poll_idle();
        }
}

void shmpi_rma_acc_lock(MPI_Win win, int target, const char *fn)
{
    shmpi_rma_word_lock(win, target, 1, 1);
    end_leases(win, target, fn);
    wait_atomics_out(win, target);
}

void shmpi_rma_acc_unlock(MPI_Win win, int target)
{
    shmpi_rma_word_unlock(win, target, 1, 1);
}
