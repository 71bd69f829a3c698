/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lane.h - the lane lock: who may touch a lane's state (pt2pt.h, struct
 * shmpi_lane) when several threads call MPI at once.
 *
 * Below MPI_THREAD_MULTIPLE (shmpi_proc.mt == 0) one thread at a time
 * is the program's promise and every operation here is one predicted
 * branch on a word SHMPI_REQUIRE_INIT has already loaded.  Under
 * MULTIPLE a lane is a recursive mutex (core/lock.h's futex word, plus
 * an owner and a depth): every pt2pt entry point takes the lane of what
 * it touches around that part, and the internal calls it makes take it
 * again (depth) - the progress hooks run inside progress, MPI_Comm_idup's
 * copy callbacks re-enter MPI from there.  A lane is never held across a
 * wait: a blocked call leaves it before shmpi_core_wait_until, whose
 * polls take it with shmpi_p2p_lane_try and give up at once if another
 * thread holds it (that thread is progressing the lane).
 *
 *   shmpi_p2p_lane_enter(l) ... shmpi_p2p_lane_leave(l)
 *   if (shmpi_p2p_lane_try(l)) { ... shmpi_p2p_lane_leave(l); }
 *
 * Bias.  A lane has at most one biased thread, which holds it without
 * the mutex: a store and a load of the lane's own line, no locked
 * instruction.  Every lane starts biased to the thread that brought MPI
 * up; a thread that takes a lane's mutex SHMPI_LANE_BIAS_RUN times in a
 * row (doubled per revocation) becomes its biased thread, and a thread
 * that wants a lane biased to another revokes that lane's bias with the
 * global fence (lane.c).  So threads that each use communicators of
 * their own pay no locked instruction per message.
 *
 * Waking.  A thread whose poll finds the lane held may go to sleep
 * (core/wait.c) while the holder completes what it waits for, or leaves
 * the lane with records unread.  Two flags make the holder ring the
 * lane's bell when it leaves, so that sleeper is not forgotten:
 *   missed     a try failed while the lane was held (lane.c argues the
 *              Dekker pair it forms with the unlock)
 *   completed  a request completed under the lane (request.h): its
 *              waiter may be another thread, asleep
 * The bell wakes the threads that wait for this lane, or every sleeper
 * of the rank if none does (core/wait.c).  Ringing costs a fence and
 * one load of the bell's word unless somebody sleeps (wait.h).
 *
 * Lock order: a lane, then the core process locks (core/lock.h).  Never
 * two lanes at once, but for one case: lane 0, then another - a
 * schedule of coll that talks in several lanes (an intercommunicator's,
 * coll/sched.c) lives in lane 0 and starts its messages in their lanes
 * with lane 0 held.  So nothing may wait for lane 0 while it holds
 * another (a request made under lane k comes from lane k's free list:
 * shmpi_p2p_request_new_in); tries (the polls of waits) wait for
 * nothing and may be made holding anything.
 */
#ifndef SHMPI_P2P_LANE_H
#define SHMPI_P2P_LANE_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/lock.h"
#include "core/lock_type.h"
#include "core/proc.h"
#include "shm_arena/arena.h"

/* One hot ring of a lane as its last holder left it (lane.c): the seq
   word its next record will be published in, and the value that will
   make it valid. */
struct shmpi_lane_watch {
    _Atomic uintptr_t word;    /* an _Atomic uint32_t in the arena */
    _Atomic uint32_t expect;
};

/* A biased thread's mark (lane.c), one per thread tag that was ever
   biased, never freed: in[k] is 1 while the thread holds lane k solo,
   or is about to look whether it may.  Written by that thread
   alone - a flag in the lane, written by every thread that once was
   biased, let one that came back late erase the flag of the thread
   biased since - and read by a thread that revokes its bias.  A line of
   its own: the biased threads of two lanes write their marks on every
   message. */
struct shmpi_lane_solo {
    _Atomic uintptr_t tag;     /* the thread's tag, set once */
    _Atomic uint8_t in[SHMPI_ARENA_LANES_MAX]; /* a byte per lane: a
                                  store, where a bit would cost a load and
                                  an or besides (2026-12-02, perf/run-perf
                                  pt2pt-count COUNT_LEVEL=multiple) */
} __attribute__((aligned(64)));

struct shmpi_lane_lock {
    struct shmpi_core_lock mutex;
    _Atomic uintptr_t owner;   /* the holding thread's tag (lane.c), or 0;
                                  relaxed: only its own value matters to a
                                  thread (a thread reads its own tag only
                                  if it stored it, and stores 0 before it
                                  unlocks) */
    int depth;                 /* entries of the owner after its first;
                                  the owner's only, 0 while free */
    int completed;             /* under the lane: a request completed */
    /* The lane's biased thread (lane.c), which holds it without the
       mutex.  solo: its mark (a struct shmpi_lane_solo *), or
       shmpi_p2p_lane_nobody's.  held: the holder's: its mark's byte of
       this lane if it holds the lane solo, else NULL.  lane: this lane's
       index (struct shmpi_lane's, which the inline take cannot reach),
       in a mark's `in`; set at init. */
    _Atomic uintptr_t solo;
    _Atomic uint8_t *held;
    uint32_t lane;
    /* Under the mutex only: the thread of the last takes of the mutex,
       how many in a row, and the revocations of this lane's bias so
       far (each doubles the run that biases it again, lane.c) */
    uintptr_t run_tag;
    uint32_t run;
    uint32_t run_shift;
    /* Under the mutex only: the mark of a bias revoked by a try while
       its thread held the lane, whose hold the next thread to take the
       mutex waits out (lane.c); NULL once it has ended */
    struct shmpi_lane_solo *ended;
    _Atomic uint32_t missed;   /* a try found the lane held */
    /* What a waiter of another lane reads before it tries this one
       (shmpi_p2p_lane_quiet_mt, lane.c): written by the holder as it
       leaves, read by anyone, a sequence lock on gen */
    _Atomic uint32_t gen;      /* odd while the lane is held */
    _Atomic uint32_t busy;     /* work that no record announces: a
                                  backlog, an armed hook, a mailbox
                                  between two nodes */
    _Atomic uintptr_t mail;    /* the mailbox's idle word (its stub's
                                  next), or 0: no mailbox */
    _Atomic uint32_t nwatch;   /* hot rings in watch */
    struct shmpi_lane_watch *watch; /* SHMPI_FAST_RINGS + 1, set at init */
};

/* solo of a lane without a biased thread, or while a thread revokes
   the bias: a mark whose tag is no thread's (0), so that the take's one
   test of the tag covers it (lane.c). */
extern struct shmpi_lane_solo shmpi_p2p_lane_nobody;
#define SHMPI_LANE_NOBODY ((uintptr_t)&shmpi_p2p_lane_nobody)

/* Takes of the mutex in a row by one thread that bias the lane to it,
   times 2 to the power run_shift, which each revocation raises up to
   SHMPI_LANE_BIAS_SHIFT_MAX: a lane that several threads really share
   stops paying a global fence per few messages (lane.c). */
#define SHMPI_LANE_BIAS_RUN 16u
#define SHMPI_LANE_BIAS_SHIFT_MAX 12u

struct shmpi_lane;
/* The out-of-line parts (lane.c): a try that found the mutex taken by
   another thread, or the lane biased to another thread, and a leave
   with something to tell - a waiter to give the watch, a completion or
   a failed try to ring for; the revocation of a lane's bias, by a
   thread that took the mutex and found solo set or a revoked bias's
   hold not seen to end (solo_end waits for the hold, solo_end_try does
   not); the bias. */
void shmpi_p2p_lane_solo_end(struct shmpi_lane_lock *k);
int shmpi_p2p_lane_solo_end_try(struct shmpi_lane_lock *k);
void shmpi_p2p_lane_bias(struct shmpi_lane_lock *k, uintptr_t me);
void shmpi_p2p_lane_lock_init(struct shmpi_lane_lock *k, uint32_t lane);
int shmpi_p2p_lane_skip(const struct shmpi_lane_lock *k);
int shmpi_p2p_lane_try_slow(struct shmpi_lane_lock *k, uintptr_t me);
void shmpi_p2p_lane_leave_slow(struct shmpi_lane_lock *k);
void shmpi_p2p_lane_rung(struct shmpi_lane_lock *k);
/* Under MULTIPLE: 1 if the lane has certainly nothing for a poll now -
   not held, no record in its mailbox or hot rings, nothing pending -
   read without writing a line (lane.c argues why a lane skipped on this
   cannot hide what a waiter needs).  0 means "try it". */
int shmpi_p2p_lane_quiet_mt(const struct shmpi_lane_lock *k);
/* The holder's view of its lane, for shmpi_p2p_lane_quiet_mt: set up at
   init (conn.c) and refreshed by every leave. */
void shmpi_p2p_lane_watch_publish(struct shmpi_lane *l);

/* A thread's tag (lane.c): its thread pointer. */
static inline uintptr_t shmpi_p2p_lane_self(void)
{
    return (uintptr_t)__builtin_thread_pointer();
}

/* The lane is ours (an acquire CAS or exchange took the mutex, or the
   solo take held it: `in` its mark's byte, NULL for the mutex): the
   owner for recursion, how to leave, gen odd for the watch's readers
   (relaxed: the mutex's acquire orders it after the last holder's
   leave; a solo take's last holder was this thread - the bias was
   made under the mutex, and another thread holds the lane only after
   a revocation; lane.c). */
static inline void shmpi_p2p_lane_own(struct shmpi_lane_lock *k,
                                      uintptr_t me, _Atomic uint8_t *in)
{
    atomic_store_explicit(&k->owner, me, memory_order_relaxed);
    k->held = in;
    atomic_store_explicit(
        &k->gen, atomic_load_explicit(&k->gen, memory_order_relaxed) + 1,
        memory_order_relaxed);
}

/* The biased thread takes the lane without its mutex (lane.c argues
   the asymmetric pair): its mark's byte set, then solo read again; the
   compiler's fence between, the global fence of the thread that ends
   the bias (membarrier) in place of a CPU's.  My mark's byte of this
   lane, or NULL: not biased to me, or no longer. */
static inline _Atomic uint8_t *
shmpi_p2p_lane_solo_take(struct shmpi_lane_lock *k, uintptr_t me)
{
    uintptr_t s = atomic_load_explicit(&k->solo, memory_order_relaxed);
    struct shmpi_lane_solo *mark = (struct shmpi_lane_solo *)s;
    if (atomic_load_explicit(&mark->tag, memory_order_relaxed) != me)
        return NULL;
    /* the mark is mine alone: a plain store, no locked instruction */
    _Atomic uint8_t *in = &mark->in[k->lane];
    atomic_store_explicit(in, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);
    if (__builtin_expect(
            atomic_load_explicit(&k->solo, memory_order_relaxed) == s, 1))
        return in;
    atomic_store_explicit(in, 0, memory_order_release);
    return NULL;
}

/* The end of a solo hold: the mark's byte cleared, with release after
   every write of the hold (lane.c). */
static inline void shmpi_p2p_lane_solo_leave(struct shmpi_lane_lock *k)
{
    atomic_store_explicit(k->held, 0, memory_order_release);
}

/* The mutex just taken by me for an enter: one more take in a row,
   which may bias the lane to me (lane.c). */
static inline void shmpi_p2p_lane_run(struct shmpi_lane_lock *k,
                                      uintptr_t me)
{
    if (k->run_tag != me) {
        k->run_tag = me;
        k->run = 1;
    } else if (__builtin_expect(++k->run >= SHMPI_LANE_BIAS_RUN
                                                << k->run_shift,
                                0)) {
        shmpi_p2p_lane_bias(k, me);
    }
}

/* Two loads of the line the mutex brought: a bias to revoke, or the
   hold of a bias revoked by a try, not seen to end (lane.c). */
static inline int shmpi_p2p_lane_solo_seen(struct shmpi_lane_lock *k)
{
    return __builtin_expect(
        (atomic_load_explicit(&k->solo, memory_order_acquire) !=
         SHMPI_LANE_NOBODY) |
            (k->ended != NULL),
        0);
}

/* The mutex just taken by an enter: the lane is ours once its bias is
   revoked and its hold waited out (then shmpi_p2p_lane_own(k, me,
   NULL)). */
static inline void shmpi_p2p_lane_after_mutex(struct shmpi_lane_lock *k,
                                              uintptr_t me)
{
    if (shmpi_p2p_lane_solo_seen(k))
        shmpi_p2p_lane_solo_end(k);
    shmpi_p2p_lane_run(k, me);
}

/* The unlock, seq_cst for the `missed` pair, whose load follows
   (lane.c). */
static inline void shmpi_p2p_lane_drop_mutex(struct shmpi_lane_lock *k)
{
    if (__builtin_expect(atomic_exchange_explicit(&k->mutex.word, 0,
                                                  memory_order_seq_cst) == 2,
                         0))
        shmpi_core_mutex_wake(&k->mutex);
    if (__builtin_expect(
            atomic_load_explicit(&k->missed, memory_order_seq_cst), 0))
        shmpi_p2p_lane_rung(k);
}

/* The mutex just taken by a try, which waits for nothing: 1 with the
   lane ours, or 0 with the mutex given back because the biased thread
   holds the lane (lane.c). */
static inline int shmpi_p2p_lane_try_after_mutex(struct shmpi_lane_lock *k,
                                                 uintptr_t me)
{
    if (shmpi_p2p_lane_solo_seen(k) && !shmpi_p2p_lane_solo_end_try(k)) {
        shmpi_p2p_lane_drop_mutex(k);
        return 0;
    }
    shmpi_p2p_lane_own(k, me, NULL);
    return 1;
}

/* Inline: one thread under MULTIPLE pays an enter and a leave on every
   message, and the calls and the recursion count of the out-of-line
   forms were half of that (2026-11-29, perf/run-perf pt2pt-count
   COUNT_LEVEL=multiple: MPI_Isend of 1 B 366 instructions against 275
   at SINGLE, 49 of them in enter and leave).  The owner is read first:
   an entry of the holder (an internal call that takes the lane again:
   a request released under the lane) is a depth count; anyone else
   takes the mutex, whose acquire CAS fails only against another
   holder. */
static inline __attribute__((always_inline)) void
shmpi_p2p_lane_enter_mt(struct shmpi_lane_lock *k)
{
    uintptr_t me = shmpi_p2p_lane_self();
    if (atomic_load_explicit(&k->owner, memory_order_relaxed) == me) {
        k->depth++;
        return;
    }
    _Atomic uint8_t *in = shmpi_p2p_lane_solo_take(k, me);
    if (!in) {
        shmpi_core_mutex_lock(&k->mutex);
        shmpi_p2p_lane_after_mutex(k, me);
    }
    shmpi_p2p_lane_own(k, me, in);
}

static inline int shmpi_p2p_lane_try_mt(struct shmpi_lane_lock *k)
{
    uintptr_t me = shmpi_p2p_lane_self();
    if (atomic_load_explicit(&k->owner, memory_order_relaxed) == me) {
        k->depth++;
        return 1;
    }
    _Atomic uint8_t *in = shmpi_p2p_lane_solo_take(k, me);
    if (in) {
        shmpi_p2p_lane_own(k, me, in);
        return 1;
    }
    if (__builtin_expect(
            atomic_load_explicit(&k->solo, memory_order_relaxed) !=
                SHMPI_LANE_NOBODY,
            0) &&
        shmpi_p2p_lane_skip(k))
        return 0;
    if (__builtin_expect(shmpi_core_mutex_trylock(&k->mutex), 1))
        return shmpi_p2p_lane_try_after_mutex(k, me);
    return shmpi_p2p_lane_try_slow(k, me);
}

/* depth counts the holder's entries after the first.  The plain leave
   is the one of a lane nobody waits for and under which nothing
   completed (lane.c's comment has the orderings): busy marks the watch
   "try me", gen even with release, the unlock an exchange, seq_cst
   for the `missed` pair, whose load follows; a waiter of the rank, a
   completion or a failed try take leave_slow or rung.  A hold of the
   biased thread ends with its mark's byte cleared (release) instead of
   the unlock: no try marks `missed` against it (lane.c). */
static inline __attribute__((always_inline)) void
shmpi_p2p_lane_leave_mt(struct shmpi_lane_lock *k)
{
    if (k->depth) {
        k->depth--;
        return;
    }
    if (__builtin_expect(
            k->completed | atomic_load_explicit(&shmpi_proc.wait.waiting,
                                                memory_order_relaxed),
            0)) {
        shmpi_p2p_lane_leave_slow(k);
        return;
    }
    if (!atomic_load_explicit(&k->busy, memory_order_relaxed))
        atomic_store_explicit(&k->busy, 1, memory_order_relaxed);
    atomic_store_explicit(
        &k->gen, atomic_load_explicit(&k->gen, memory_order_relaxed) + 1,
        memory_order_release);
    atomic_store_explicit(&k->owner, 0, memory_order_relaxed);
    if (k->held) {
        shmpi_p2p_lane_solo_leave(k);
        return;
    }
    shmpi_p2p_lane_drop_mutex(k);
}

static inline void shmpi_p2p_lane_lock(struct shmpi_lane_lock *k)
{
    if (__builtin_expect(shmpi_proc.mt, 0))
        shmpi_p2p_lane_enter_mt(k);
}

static inline int shmpi_p2p_lane_trylock(struct shmpi_lane_lock *k)
{
    return !__builtin_expect(shmpi_proc.mt, 0) || shmpi_p2p_lane_try_mt(k);
}

static inline void shmpi_p2p_lane_unlock(struct shmpi_lane_lock *k)
{
    if (__builtin_expect(shmpi_proc.mt, 0))
        shmpi_p2p_lane_leave_mt(k);
}

#endif
