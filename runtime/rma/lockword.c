/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lockword.c - a reader-writer lock in one 32-bit shared word, taken and
 * released by any member of a window with no help from the member that
 * owns it.  Two per member, in its struct shmpi_win_ctl: `lock` (the
 * passive-target lock of MPI_Win_lock / lock_all) and `acc_lock` (the
 * element-wise atomicity of accumulates, acclock.c).
 *
 * The word is SHMPI_WIN_LOCK_EXCL | (holder + 1) while held exclusively,
 * holder the member that took it, else the number of shared holders.
 * Exclusive: CAS 0 -> EXCL | (me + 1).  Shared: CAS n -> n + 1 while EXCL
 * is clear.  Exclusive release stores 0; shared release subtracts 1.  The
 * holder in the word costs nothing (the CAS writes a constant of the
 * process either way) and is exact, never stale: the deadlock report
 * names it, and draws the waiter's edge to it (describe_take).  Shared
 * holders are only counted: a word of names would cost every shared
 * take a second store.  No fairness: a stream of shared holders can keep an
 * exclusive one waiting (the programs that lock this hard are rare, and
 * queueing would cost every uncontended lock a second cache line).
 *
 * Memory ordering.  A release of the word (the store of 0, the fetch_sub)
 * is a release operation and a successful take an acquire, so everything
 * a holder wrote - its puts, which are plain memcpy stores into the
 * target's mapping, and its load/store accesses to a shared window - is
 * visible to the next holder once its take succeeds: the take reads the
 * value the release wrote, or a later one of the same release sequence
 * (every later change of the word is a read-modify-write).  Puts through
 * process_vm_writev are complete when the syscall returns, before the
 * release.  All operations on the word are seq_cst, not just acq/rel,
 * for the two Dekker pairs below and for acc_lock's exclusive take
 * against announced atomics (acclock.c); on x86 that costs nothing (a
 * locked instruction is already a full barrier) and on arm64 little.
 *
 * Waiting.  A process that finds the word held waits in shmpi_core_wait_until
 * (core/wait.h): it spins, yields, then sleeps on its own doorbell -
 * turning the pt2pt progress engine all along, so that a rank waiting for
 * a lock still serves the messages its peers (maybe the holder) need.
 * Whoever releases must then ring the waiters' doorbells, so a waiter
 * says which word it waits for in its own ctl->lock_waiting and counts
 * itself in the word's sleepers counter:
 *   waiter:   lock_waiting = code; sleepers += 1 (seq_cst); try to take
 *   releaser: release the word (seq_cst); if (sleepers) ring each member
 *             whose lock_waiting == code
 * In the single total order of seq_cst operations either the releaser's
 * load of sleepers comes after the waiter's increment (it rings; reading
 * the increment it also sees lock_waiting), or the waiter's take comes
 * after the release (it succeeds, or fails because someone else took
 * the word - who will release it in turn).  The doorbell closes the
 * remaining race against the sleep itself (core/wait.c).  Only a release
 * that can admit a waiter rings: an exclusive release, or the last
 * shared one (while shared holders remain, only exclusive takers wait,
 * and they need 0).
 *
 * Several threads (MPI_THREAD_MULTIPLE).  lock_waiting is one word per
 * member, and two threads of one process may wait at once for different
 * words (two targets locked by two threads, an accumulate lock): each
 * storing its own code would hide the other's, whose releaser would not
 * ring.  So under MULTIPLE a waiter stores SHMPI_WIN_WAITING_ANY -
 * "ring me at any release of this window's words that finds sleepers" -
 * and the window counts its waiting threads (win->lock_waiters, under
 * win->lock); the first stores ANY, the last stores 0.  The argument
 * above holds for each thread: its store of ANY, or the earlier one of
 * another thread that is still waiting, happens before its increment of
 * sleepers (the window lock orders the two threads), and 0 is stored
 * only once no thread of the process waits.  A release of a word may
 * then ring a process that waits for another word of the window: a
 * needless wake-up, no lost one.
 */
#include <stdio.h>

#include "rma/sync.h"

#include "core/blocked.h"
#include "core/lock.h"
#include "core/wait.h"
#include "rma/state.h"

struct lockword {
    _Atomic uint32_t *word;
    _Atomic uint32_t *sleepers;
    uint32_t code;             /* for ctl->lock_waiting */
};

static struct lockword lockword_of(MPI_Win win, int target, int acc)
{
    struct shmpi_win_ctl *c = shmpi_win_ctl_of(win, target);
    return (struct lockword){
        .word = acc ? &c->acc_lock : &c->lock,
        .sleepers = acc ? &c->acc_sleepers : &c->lock_sleepers,
        .code = ((uint32_t)target + 1) << 1 | (uint32_t)acc,
    };
}

/* The word's value while this process holds it exclusively; 0 for a
   shared take. */
static uint32_t excl_value(MPI_Win win, int exclusive)
{
    return exclusive ? SHMPI_WIN_LOCK_EXCL | ((uint32_t)win->comm->rank + 1)
                     : 0;
}

/* One attempt, starting from the likely value 0 (free): a single CAS
   when the word is free, and no separate load to miss on first.  excl:
   excl_value(). */
static int try_take(_Atomic uint32_t *w, uint32_t excl)
{
    uint32_t v = 0;
    do {
        if ((v & SHMPI_WIN_LOCK_EXCL) || (excl && v != 0))
            return 0;
    } while (!atomic_compare_exchange_weak_explicit(
        w, &v, excl ? excl : v + 1, memory_order_seq_cst,
        memory_order_seq_cst));
    return 1;
}

struct take_wait {
    _Atomic uint32_t *word;
    uint32_t excl;             /* excl_value() */
    MPI_Win win;               /* for the deadlock report only */
    int target, acc;
};

/* Polls with a load and tries the CAS only when it could succeed: a
   failing CAS would take the line away from the holder each time. */
static int taken(void *arg)
{
    struct take_wait *t = arg;
    uint32_t v = atomic_load_explicit(t->word, memory_order_seq_cst);
    int takeable = t->excl ? v == 0 : !(v & SHMPI_WIN_LOCK_EXCL);
    return takeable && try_take(t->word, t->excl);
}

/* For the launcher's wait-for graph (core/wait.h): which lock of which
   member, and how it is held.  An exclusive holder is in the word: the
   line names it and the graph gets an edge to it (its world rank, the
   return value); shared holders are counted, no edge.  The relaxed load
   reads the word as it is when the launcher asks, long after the take
   it shows: every rank sleeps by then, the holder too. */
static int describe_take(void *arg, char *buf, size_t len)
{
    const struct take_wait *t = arg;
    MPI_Comm comm = t->win->comm;
    char win[MPI_MAX_OBJECT_NAME + 48], peer[160], holder[160];
    uint32_t v = atomic_load_explicit(t->word, memory_order_relaxed);
    char held[240];
    int waits_for = -1;
    if (v & SHMPI_WIN_LOCK_EXCL) {
        int m = (int)(v & ~SHMPI_WIN_LOCK_EXCL) - 1;
        waits_for = shmpi_comm_to_world(comm, m);
        shmpi_core_blocked_peer(holder, sizeof holder, comm, waits_for);
        snprintf(held, sizeof held, "held exclusively by %s, since its %s",
                 holder, t->acc ? "accumulate" : "MPI_Win_lock (exclusive)");
    } else {
        snprintf(held, sizeof held, "held by %u shared holder%s", v,
                 v == 1 ? "" : "s");
    }
    shmpi_win_label_short(t->win, win, sizeof win);
    shmpi_core_blocked_peer(peer, sizeof peer, comm,
                            shmpi_comm_to_world(comm, t->target));
    snprintf(buf, len, "%s on %s: the %s of %s is %s",
             t->acc ? "an accumulate (MPI_Accumulate & co.)"
             : t->excl ? "MPI_Win_lock (exclusive)"
                       : "MPI_Win_lock (shared)",
             win, t->acc ? "accumulate lock" : "lock", peer, held);
    return waits_for;
}

static const struct shmpi_rma_waitfor take_waitfor = {taken, describe_take};

/* This process's lock_waiting says code (ANY under MULTIPLE: see the
   top comment), or, code 0, no longer. */
static void say_waiting(MPI_Win win, uint32_t code)
{
    _Atomic uint32_t *mine =
        &shmpi_win_ctl_of(win, win->comm->rank)->lock_waiting;
    if (__builtin_expect(!shmpi_proc.mt, 1)) {
        atomic_store_explicit(mine, code, memory_order_relaxed);
        return;
    }
    shmpi_core_mutex_lock(&win->lock);
    if (code ? win->lock_waiters++ == 0 : --win->lock_waiters == 0)
        atomic_store_explicit(mine, code ? SHMPI_WIN_WAITING_ANY : 0,
                              memory_order_relaxed);
    shmpi_core_mutex_unlock(&win->lock);
}

void shmpi_rma_word_lock(MPI_Win win, int target, int acc, int exclusive)
{
    struct lockword lw = lockword_of(win, target, acc);
    uint32_t excl = excl_value(win, exclusive);
    if (try_take(lw.word, excl))
        return;
    /* the slow path: register (see the top comment), then wait */
    say_waiting(win, lw.code);
    atomic_fetch_add_explicit(lw.sleepers, 1, memory_order_seq_cst);
    struct take_wait t = {lw.word, excl, win, target, acc};
    shmpi_rma_wait(&take_waitfor, &t, 1);
    atomic_fetch_sub_explicit(lw.sleepers, 1, memory_order_relaxed);
    say_waiting(win, 0);
}

/* Ring every member waiting for this word.  The seq_cst load of sleepers
   read a value written by the increments' release sequence, so the
   lock_waiting stores made before them are visible to the relaxed loads
   here. */
static void wake_waiters(MPI_Win win, uint32_t code)
{
    for (int m = 0; m < win->comm->size; m++) {
        uint32_t w = atomic_load_explicit(
            &shmpi_win_ctl_of(win, m)->lock_waiting, memory_order_relaxed);
        if (w == code || w == SHMPI_WIN_WAITING_ANY)
            shmpi_core_doorbell_ring(shmpi_comm_to_world(win->comm, m));
    }
}

void shmpi_rma_word_unlock(MPI_Win win, int target, int acc, int exclusive)
{
    struct lockword lw = lockword_of(win, target, acc);
    uint32_t left = 0;
    if (exclusive)
        atomic_store_explicit(lw.word, 0, memory_order_seq_cst);
    else
        left = atomic_fetch_sub_explicit(lw.word, 1, memory_order_seq_cst) - 1;
    if (left == 0 &&
        atomic_load_explicit(lw.sleepers, memory_order_seq_cst) != 0)
        wake_waiters(win, lw.code);
}
