/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wait.c - spin, then yield, then sleep on the doorbell (see wait.h).
 *
 * The lost-wake-up race is closed Dekker style, with a seq_cst fence on
 * each side:
 *   waiter: sleepers += 1; fence; old = seq; if (!done()) futex_wait(seq, old)
 *   ringer: publish;       fence; if (sleepers > 0) { seq += 1; futex_wake }
 * Either the ringer sees the sleeper, or the waiter's done() sees what was
 * published.  A ringer of a registered job may leave its fence out
 * (shmpi_core_ring_fence, wait.h) because the waiter then adds a global
 * one (membarrier) after its own: the asymmetric form of the same pair.
 * The ringers that do: pt2pt's lane bell on every send and every other
 * lane ring (shmpi_core_lane_ring), the collectives' words
 * (coll/sync.c's shmpi_coll_ring, coll/pallreduce.c's start); the
 * others (shmpi_core_doorbell_ring) keep their fence.  Every sleeper,
 * whatever it waits for, sleeps here, in sleep_once, so every sleeper
 * of a registered job runs the global fence.
 * If the ringer bumps seq after the waiter read `old`, futex_wait finds
 * seq != old in the kernel and returns at once.  The futexes are shared
 * (no FUTEX_PRIVATE_FLAG): the doorbell lives in memory mapped by
 * several processes.
 *
 * Tunables (core/tunables.c, read at MPI_Init; each rank its own):
 *   SHMPI_SPIN_US  how long to spin before yielding; default 100 us when
 *                  ranks <= CPUs, 0 when oversubscribed (spinning then
 *                  only steals the CPU from the rank we wait for)
 *   SHMPI_YIELDS   sched_yield calls before sleeping; default 4 when
 *                  ranks <= CPUs, 16 when oversubscribed (a yield hands
 *                  the CPU to a runnable rank at once; a futex round
 *                  trip costs far more)
 *
 * Threads (MPI_THREAD_MULTIPLE): under mt a thread that waits counts
 * itself in shmpi_proc.wait.waiting; while another thread of the rank
 * waits too, a thread spins at most SHARED_SPIN_NS, however progress
 * moves (the threads share the rank's cores: a spinning thread keeps
 * the one that may progress off its CPU, and a poll of a thread that
 * helps another thread's lane moves progress without ending its own
 * wait), and a poll that found nothing yields.  That count is per rank on purpose:
 * it is about the rank's CPUs, whatever the lanes.  It also counts
 * itself in lane_waiting[k] for each lane k its wait is for: pt2pt's
 * fast receive, which holds lane k while it spins, spins only while
 * nobody else waits for lane k (pt2pt/fastpath.c).  done() may find a
 * lane held by another thread and return 0 at once (pt2pt/lane.h): that
 * thread rings the lane's bell when it leaves.
 *
 * Waking by lane.  Every thread of a rank sleeps on the rank's doorbell
 * futex, with FUTEX_WAIT_BITSET: bit k set for each lane k of pt2pt its
 * wait is for ("own" lanes: a request's lane, a probe's communicator's;
 * every lane for the waits of rooms that do not know lanes, and below
 * MULTIPLE none), and BITS_ANY, which every sleeper has.  Each (rank,
 * lane) has a bell in its post block (struct shmpi_lane_bell) whose
 * word counts the rank's sleepers for that lane: 1 per sleeper that
 * owns the lane, BELL_ANY per sleeper that does not.  Rings:
 *   shmpi_core_doorbell_ring(R)        R's sleepers count > 0: wake all
 *                                      (bitset BITS_ANY) - rooms that do
 *                                      not know lanes (coll, rma, comm)
 *   shmpi_core_lane_ring(R, k)         a record published in lane k, a
 *                                      request completed under it: if an
 *                                      owner of k sleeps, wake the
 *                                      owners of k only (bitset 1 << k);
 *                                      if only non-owners, wake all
 * So a message in lane k wakes the threads waiting in lane k, not the
 * threads of the other lanes (the herd of one bell per rank), and a
 * lane nobody waits for still wakes somebody - every sleeper is counted
 * on every lane, own or not - who will turn its progress (a thread
 * waiting on A must move a send it started on B, MPI-3.1 3.7.4: test
 * p2p_lanes_progress / thread_lanes_progress).  A waiter over several
 * lanes (MPI_Waitany on requests of lanes 1 and 2) owns them all: the
 * bitset has both bits.
 *
 * Why the owners alone may take a ring of lane k that non-owners would
 * also want (a record of a send that thread V started on k, V asleep
 * waiting on another lane).  Every thread that leaves the doorbell -
 * woken, or its done() true before it slept - unregisters, makes a
 * seq_cst fence and then one turn of progress (hooks.turn: pt2pt's,
 * over every lane), before it may return.  A ring that chose the owners
 * read the bell's word with an owner T counted; T's unregistration
 * comes later in that word's modification order, so the ringer's fence
 * precedes T's in S (C11 7.17.3, C++20 [atomics.order] p4, the
 * coherence-ordered-before clause), and T's turn, after its fence, sees
 * what the ringer published before its own.  A ringer of a registered
 * job leaves its fence out only before its first look at the word
 * (shmpi_core_lane_ring); a look that finds a sleeper goes on to
 * shmpi_core_lane_wake, which makes a seq_cst fence and reads the word
 * again, and only that second read chooses whom to wake.  So the fence
 * is there whenever the owners are chosen, and T's way back needs no
 * global fence (it ran one, a membarrier call of some 3 us on this VM,
 * per sleep, until the ring had its fence, 2026-11-30).  A ringer whose
 * first look found nobody saw neither T nor V: V counted itself later,
 * and its own global fence before its last done() settles it.  That turn reads
 * the record (pt2pt/lane.c: a lane with a record is never skipped) or
 * finds the lane held and marks `missed`, and the holder rings lane k
 * again as it leaves: with nobody owning k asleep that ring wakes
 * everyone, V included.  The turn is paid only on the way back from the
 * doorbell, after a futex call, and only under MULTIPLE.
 *
 * Woken once.  A thread woken on a core its sibling keeps stays counted
 * until it runs and counts itself out, and every record of the lane
 * until then found the count and called FUTEX_WAKE again: with 2
 * threads a rank on one core, 1 to 2 wake calls per window of 64
 * messages from the sender (perf/threads -n 2 -m dup, perf stat -e
 * syscalls:sys_enter_futex on each rank, 2026-11-30), each a system
 * call of some 3 us on this VM.  So the ring that wakes a lane's
 * sleepers sets BELL_WOKEN in the bell's word (an acq_rel CAS, which
 * only one ringer wins), and a ring that finds it set wakes nobody.
 * Every change of the sleepers clears it: a count in or out (the same
 * CAS that changes the count), and a sleeper once more after it read
 * the seq it will sleep on (clear_woken, release, then a seq_cst
 * fence, before its last done()).  The ring's slow path starts with a
 * seq_cst fence and reads the word after it.  A ring R that skipped
 * read BELL_WOKEN set by a ring W; each sleeper Y counted then is one
 * of these:
 *   - Y's clear after its seq read comes after R's read in the word's
 *     order: R's fence precedes Y's in S (coherence-ordered-before) and
 *     Y's last done() sees R's record;
 *   - it comes before W's CAS: W's acquire CAS read Y's release clear
 *     (or later), so Y's seq read happens before W's bump, and Y's
 *     futex call returns at once or W's wake finds it - a wake of the
 *     bitset W chose, which is the one R would have chosen while the
 *     word has not changed: an owner of the lane is still counted, or
 *     nobody is and W woke everyone;
 *   - Y counted itself out after R's read (it was woken): under
 *     MULTIPLE R's fence precedes turn_owed's in S and Y's turn sees
 *     R's record; below MULTIPLE the one thread polls on, and its next
 *     count in, later in the word's order than R's read, comes with a
 *     fence after R's.
 * A count out clears the flag, so a ring after it picks the bitset
 * anew: the owners woken by W gone, the non-owners still asleep are
 * woken as before.
 *
 * The lost wake-up race is the same Dekker pair for both bells:
 *   waiter: count itself in the rank's and every lane's word; fence;
 *           old = seq (acquire); if (!done()) futex_wait_bitset(seq, old)
 *   ringer: publish; fence; read the word; if counted: seq += 1
 *           (release); futex_wake_bitset
 * Either the ringer's load sees the count - then it bumps the seq the
 * waiter sleeps on and wakes a bitset that has the waiter's bit (its
 * own lane's, or BITS_ANY), or the waiter read seq after the bump and
 * its done() sees what the bump's release published - or the waiter's
 * fence comes after the ringer's and its done() sees the publication.
 * In a registered job the ringer's fence is the compiler's and the
 * waiter's global fence, after its count, takes its place (wait.h,
 * shmpi_core_ring_fence).  A ring bumps the rank's seq even for the
 * owners of one lane: a thread of another lane between its read of seq
 * and its futex call then returns at once and polls again, a spurious
 * wake-up, never a lost one.
 *
 * State: the spin and yield policy is shmpi_proc.wait (core/proc.h),
 * set by shmpi_core_wait_configure at MPI_Init and by MPI_T_cvar_write
 * (tool/cvar.c) whenever a tool asks, from any thread.  Its members are
 * atomics loaded relaxed: each is one number read whole, nothing else
 * is published with it, and a wait that runs with the old value a
 * little longer is still correct (the policy paces spinning, it never
 * decides whether a wait ends).  `waiting`, the threads in a wait, is
 * an atomic too.
 */
#include "core/wait.h"

#include <limits.h>
#include <stdint.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/blocked.h"
#include "core/fence.h"
#include "core/hooks.h"
#include "core/proc.h"

void shmpi_core_wait_configure(const struct shmpi_tun_set *tun)
{
    shmpi_core_wait_set_spin(tun->value[SHMPI_TUN_SPIN_US]);
    shmpi_core_wait_set_yields(tun->value[SHMPI_TUN_YIELDS]);
}

void shmpi_core_wait_set_spin(uint64_t us)
{
    atomic_store_explicit(&shmpi_proc.wait.spin_ns, 1000 * (long)us,
                          memory_order_relaxed);
}

void shmpi_core_wait_set_yields(uint64_t yields)
{
    atomic_store_explicit(&shmpi_proc.wait.yields, (int)yields,
                          memory_order_relaxed);
}

static long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static uint64_t events_now(void)
{
    return atomic_load_explicit(&shmpi_proc.progress_events,
                                memory_order_relaxed);
}

/* Under mt: another thread of this rank waits too. */
static int threads_share(void)
{
    return shmpi_proc.mt && atomic_load_explicit(&shmpi_proc.wait.waiting,
                                                 memory_order_relaxed) > 1;
}

/* While another thread of the rank waits (threads_share): the longest
   spin, from the first clock read, whatever progress does.  Every poll
   that found nothing yielded before, a system call of some 4 us on this
   VM: 0.5 to 1.3 of them per window of 64 messages on each rank with 2
   threads a rank on one core.  Spinning this long first, the threads
   hand the core over 0.02 to 0.06 times a window, and the 8 B rate
   read 2.35-2.96 M msg/s (dup) and 2.59-3.55 (world) against 1.97-2.20
   and 2.89-3.33 yielding at once; 4 threads a rank, dup: 2.56-2.96
   against 1.35-1.37 (perf/threads -n 2 or 4 -T 600, the two builds
   alternated, 2-3 runs each, load average 6, 2026-11-30; spins of
   50 us and 1 ms read 2.07-2.15 and 1.87-1.95 with 2 threads, dup).
   A thread whose sibling needs the core for what it waits for loses
   at most this much before it yields. */
#define SHARED_SPIN_NS 5000L

/* Spin while done() is false, for up to spin_ns since the last time
   progress moved something: a transfer in full swing never sleeps.
   While threads share the rank's CPUs, SHARED_SPIN_NS at most, from
   the first clock read. */
static int spin(const struct shmpi_core_waitfor *w, void *arg)
{
    int (*done)(void *) = w->done;
    long spin_ns = atomic_load_explicit(&shmpi_proc.wait.spin_ns,
                                        memory_order_relaxed);
    int shared = threads_share();
    if (shared && spin_ns > SHARED_SPIN_NS)
        spin_ns = SHARED_SPIN_NS;
    if (spin_ns <= 0)
        return done(arg);
    /* the clock is read after the first polls, not before: a wait that
       is over at once (a sync request completes in its first poll)
       costs no clock read */
    long deadline = -1;
    uint64_t seen = events_now();
    for (;;) {
        for (int i = 0; i < 64; i++) {
            if (done(arg))
                return 1;
            shmpi_cpu_relax();
        }
        long now = now_ns();
        if (deadline < 0 || (!shared && seen != events_now())) {
            seen = events_now();
            deadline = now + spin_ns;
        } else if (now > deadline) {
            return 0;
        }
    }
}

#define BELL_ANY (1u << 16)      /* a lane bell's word: a non-owner */
#define BELL_OWNERS (BELL_ANY - 1) /* its owners (SHMPI_ARENA_LANES_MAX
                                      lanes, fewer threads than 32768) */
#define BELL_WOKEN (1u << 31)    /* its sleepers were woken (at the top) */
#define BITS_ANY (1u << 31)      /* every sleeper's futex bitset */

/* Count this thread in (add) or out of (sub) the rank's doorbell and
   every lane's bell, owner of the lanes in own. */
static void count_sleeper(uint32_t own, int add)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    int me = shmpi_proc.rank;
    struct shmpi_doorbell *bell = &shmpi_arena_slot(a, me)->doorbell;
    if (add)
        atomic_fetch_add_explicit(&bell->sleepers, 1, memory_order_relaxed);
    else
        atomic_fetch_sub_explicit(&bell->sleepers, 1, memory_order_relaxed);
    for (uint32_t k = 0; k < a->lanes; k++) {
        _Atomic uint32_t *w = &shmpi_arena_lane_bell(a, me, k)->sleepers;
        uint32_t v = (own >> k) & 1 ? 1 : BELL_ANY;
        /* the sleepers change: the word's BELL_WOKEN no longer speaks
           for all of them (at the top) */
        uint32_t old = atomic_load_explicit(w, memory_order_relaxed);
        while (!atomic_compare_exchange_weak_explicit(
            w, &old, (add ? old + v : old - v) & ~BELL_WOKEN,
            memory_order_relaxed, memory_order_relaxed))
            ;
    }
}

/* After the doorbell's seq was read, before the last done(): every
   lane bell's BELL_WOKEN cleared, with release (a ringer's acquire CAS
   that sets it again then orders our read of seq before its bump: the
   bump wakes us), and a seq_cst fence, which a ringer that skipped on
   BELL_WOKEN pairs with its own (at the top). */
static void clear_woken(void)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    for (uint32_t k = 0; k < a->lanes; k++)
        atomic_fetch_and_explicit(
            &shmpi_arena_lane_bell(a, shmpi_proc.rank, k)->sleepers,
            ~BELL_WOKEN, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
}

/* The thread's last look before it sleeps, and its turn after
   (wait.h). */
static _Thread_local int last_look;

int shmpi_core_wait_last_look(void)
{
    return last_look;
}

/* On the way back from the doorbell under MULTIPLE, this thread
   counted out: the turn of every lane that a ring which woke only the
   owners of its lane may have left to us (at the top).  Its fence pairs
   with the one of shmpi_core_lane_wake, before the read of our count
   that chose the owners: that read came before our count out, so its
   fence precedes ours and the turn sees the ringer's record. */
static void turn_owed(void)
{
    atomic_thread_fence(memory_order_seq_cst);
    if (shmpi_proc.hooks.turn) {
        last_look = 1;
        shmpi_proc.hooks.turn();
        last_look = 0;
    }
}

/* own: the lanes this wait is for, within the job's (0 below
   MULTIPLE: one thread, any ring is for it). */
static int sleep_once(uint32_t own, const struct shmpi_core_waitfor *w,
                      void *arg)
{
    struct shmpi_doorbell *bell = &shmpi_proc.slot->doorbell;
    count_sleeper(own, 1);
    atomic_thread_fence(memory_order_seq_cst);
    /* the rare side of the light ring (wait.h, shmpi_core_ring_fence):
       a ringer that left its fence out saw the count, or its store
       came before this fence and done() sees it.  If the kernel
       refused, no sleep this turn: the loop polls again */
    int fenced = !shmpi_proc.fence_registered ||
                 shmpi_core_fence_all_ranks() == 0;
    uint32_t old = atomic_load_explicit(&bell->seq, memory_order_acquire);
    clear_woken();
    uint64_t events = events_now();
    last_look = 1;
    int ok = w->done(arg);
    last_look = 0;
    /* sleep only if nothing moved: progress works in batches, and what
       is left of a batch wakes nobody.  Counted asleep (core/blocked.c)
       around the futex call only: the launcher's deadlock test needs
       every thread it counts to be here, with no timeout, where only a
       ring (which bumps seq, and gen as we leave) can end the sleep */
    if (!ok && fenced && events == events_now()) {
        shmpi_core_blocked_enter(w, arg);
        syscall(SYS_futex, (uint32_t *)&bell->seq, FUTEX_WAIT_BITSET, old,
                NULL, NULL, own | BITS_ANY);
        shmpi_core_blocked_leave(w, arg);
    }
    count_sleeper(own, 0);
    if (shmpi_proc.hooks.woke) /* the counts down first: hooks.h */
        shmpi_proc.hooks.woke();
    if (own) /* MULTIPLE: the turn owed to the lanes (at the top) */
        turn_owed();
    return ok;
}

static int yield_some(const struct shmpi_core_waitfor *w, void *arg)
{
    int (*done)(void *) = w->done;
    int yields = atomic_load_explicit(&shmpi_proc.wait.yields,
                                      memory_order_relaxed);
    for (int i = 0; i < yields; i++) {
        sched_yield();
        if (done(arg))
            return 1;
    }
    return 0;
}

/* The first sleep of a wait starts the hang report's clock, its end
   stops it (core/blocked.c): a wait that never sleeps touches neither. */
static void wait_loop(uint32_t own, const struct shmpi_core_waitfor *w,
                      void *arg)
{
    long since = -1;
    while (!spin(w, arg) && !yield_some(w, arg)) {
        if (shmpi_proc.hooks.stalled() > 0)
            continue; /* stalled on crossed large sends: pulled, retry */
        if (since < 0)
            since = shmpi_core_blocked_since();
        if (sleep_once(own, w, arg))
            break;
    }
    if (since > 0)
        shmpi_core_blocked_wait_over(since);
}

/* Count this thread in (1) or out of (-1) the waiters of each lane of
   own. */
static void count_waiter(uint32_t own, int d)
{
    for (; own; own &= own - 1)
        atomic_fetch_add_explicit(
            &shmpi_proc.wait.lane_waiting[__builtin_ctz(own)].n, d,
            memory_order_relaxed);
}

/* After a wake-up, spin again: whoever woke us is likely to send more. */
static void wait_counted(const struct shmpi_core_waitfor *w, void *arg,
                         uint32_t lanes)
{
    if (!__builtin_expect(shmpi_proc.mt, 0)) {
        wait_loop(0, w, arg);
        return;
    }
    uint32_t all = (2u << (shmpi_proc.arena->lanes - 1)) - 1;
    uint32_t own = lanes & all ? lanes & all : all;
    atomic_fetch_add_explicit(&shmpi_proc.wait.waiting, 1,
                              memory_order_relaxed);
    count_waiter(own, 1);
    wait_loop(own, w, arg);
    count_waiter(own, -1);
    atomic_fetch_sub_explicit(&shmpi_proc.wait.waiting, 1,
                              memory_order_relaxed);
}

/* While MPI_T times waits (tool/pvar.c's shmpi_wait_time): a wait that
   is over at its first poll reads no clock; one that is not adds the
   time until it is over. */
static __attribute__((noinline, cold)) void
wait_timed(const struct shmpi_core_waitfor *w, void *arg, uint32_t lanes)
{
    if (w->done(arg))
        return;
    long t0 = now_ns();
    wait_counted(w, arg, lanes);
    atomic_fetch_add_explicit(&shmpi_proc.watch.wait_ns,
                              (uint64_t)(now_ns() - t0), memory_order_relaxed);
}

void shmpi_core_wait_for(const struct shmpi_core_waitfor *w, void *arg,
                         uint32_t lanes)
{
    if (shmpi_core_watching(SHMPI_WATCH_WAIT))
        wait_timed(w, arg, lanes);
    else
        wait_counted(w, arg, lanes);
}

void shmpi_core_wait_until_in(int (*done)(void *), void *arg, uint32_t lanes)
{
    const struct shmpi_core_waitfor w = {done, NULL};
    shmpi_core_wait_for(&w, arg, lanes);
}

void shmpi_core_wait_until(int (*done)(void *), void *arg)
{
    shmpi_core_wait_until_in(done, arg, SHMPI_WAIT_ALL_LANES);
}

void shmpi_core_poll_idle(void)
{
    if (shmpi_proc.oversubscribed ||
        (shmpi_proc.mt && atomic_load_explicit(&shmpi_proc.wait.waiting,
                                               memory_order_relaxed) > 0))
        sched_yield();
}

/* Bump rank's seq and wake its sleepers whose bitset meets bits. */
static void wake(int rank, uint32_t bits)
{
    struct shmpi_doorbell *bell =
        &shmpi_arena_slot(shmpi_proc.arena, rank)->doorbell;
    atomic_fetch_add_explicit(&bell->seq, 1, memory_order_release);
    syscall(SYS_futex, (uint32_t *)&bell->seq, FUTEX_WAKE_BITSET, INT_MAX,
            NULL, NULL, bits);
}

void shmpi_core_doorbell_ring(int rank)
{
    struct shmpi_doorbell *bell =
        &shmpi_arena_slot(shmpi_proc.arena, rank)->doorbell;
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&bell->sleepers, memory_order_relaxed) == 0)
        return;
    wake(rank, BITS_ANY);
}

/* shmpi_core_ring_look's look found a sleeper (wait.h). */
void shmpi_core_doorbell_wake(int rank)
{
    wake(rank, BITS_ANY);
}

_Atomic uint32_t *shmpi_core_doorbell_sleepers(int rank)
{
    return &shmpi_arena_slot(shmpi_proc.arena, rank)->doorbell.sleepers;
}

/* The ring of a lane whose bell counted sleepers (wait.h): its owners
   if one sleeps, else everyone - unless a ring since the sleepers last
   changed woke them already (BELL_WOKEN, at the top).  The fence first:
   the other half of clear_woken's. */
void shmpi_core_lane_wake(struct shmpi_lane_bell *b, int rank, uint32_t lane)
{
    atomic_thread_fence(memory_order_seq_cst);
    uint32_t s = atomic_load_explicit(&b->sleepers, memory_order_relaxed);
    do {
        if (s == 0 || (s & BELL_WOKEN))
            return;
    } while (!atomic_compare_exchange_weak_explicit(
        &b->sleepers, &s, s | BELL_WOKEN, memory_order_acq_rel,
        memory_order_relaxed));
    wake(rank, s & BELL_OWNERS ? 1u << lane : BITS_ANY);
}
