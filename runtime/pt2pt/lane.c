/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lane.c - the lane lock under MPI_THREAD_MULTIPLE (lane.h).
 *
 * A thread's tag is its thread pointer (the TLS base: %fs on x86-64,
 * tpidr_el0 on arm64): distinct for every live thread, never 0, one
 * load.  (The address of a _Thread_local variable costs a call to
 * __tls_get_addr in a shared library: 2026-11-29, perf/run-perf
 * pt2pt-count COUNT_LEVEL=multiple.)
 *
 * Memory ordering.
 *   - The lane's state is published by the mutex (core/lock.h): its
 *     release exchange on unlock, the next holder's acquire CAS.
 *   - missed and the unlock form a Dekker pair:
 *       try that fails:  missed = 1; seq_cst fence; try the mutex again
 *       leave:           seq_cst exchange unlocks; seq_cst load of missed
 *     In the single order S of seq_cst operations and fences, if the
 *     leaver's load comes after the waiter's fence it sees missed = 1
 *     (stored before that fence); if it comes before, the unlock does
 *     too, and the waiter's second try (after its fence) sees the mutex
 *     free (C11 7.17.3 p9-p11 / C++20 [atomics.order] p4).  So either
 *     that try takes the mutex, or the leaver sees missed and rings the
 *     lane's bell (an exchange takes the
 *     mark, so a try that fails against the next holder meanwhile keeps
 *     its own).  The ring reaches the waiter: a waiter about to sleep
 *     counted itself in every lane's bell, then fenced (wait.c), before
 *     it wrote missed = 1; the leaver's seq_cst load read that 1, so it
 *     synchronizes with the waiter's fence (a release fence before the
 *     store it read) and the ring's load, after it, sees the count -
 *     whether the ring has its own fence or not (shmpi_core_lane_ring).
 *     If the waiter waits for this lane it is woken; if not, and a
 *     thread that does sleeps, that one is woken instead and makes the
 *     turn it owes every lane before it returns (wait.c), which takes
 *     this lane or marks it missed again.  A waiter that had not counted
 *     itself yet polls again before it sleeps.  And a waiter that read
 *     the doorbell's seq after the ring's increment (release) sees the
 *     unlock before it too (its acquire load), so its second try does
 *     not fail against this holder.
 *   - completed is written and read under the lane; the ring's own fence
 *     (shmpi_core_lane_ring), or in a job with the global fence the
 *     sleeper's global one, pairs with the waiter's, as for any
 *     publisher (wait.c): the request's release store of `complete` came
 *     before it, and the request's waiter waits for this lane (pt2pt's
 *     waits name their request's lane: completion.c).
 *
 * Biased lanes.  A thread that takes a lane's mutex pays two locked
 * instructions (its CAS and its exchange), and each drains the store
 * buffer, which holds the record just written into a ring on a line the
 * receiving core polls: the drain waits for that line to come back, one
 * crossing between cores per line of records.  With the mutex alone
 * MPI_Isend and MPI_Irecv cost 2.2 and 2.0 locked instructions a
 * message (2026-11-30, COUNT_LEVEL=multiple perf/run-perf pt2pt-count,
 * counted as perf/README.md's "the lane bell without the sender's
 * fence" says), and with one thread biased for all lanes, 2 threads a
 * rank, each on its own communicator, still streamed 7.2 M msg/s
 * against 15.8 with one (2026-11-30, perf/threads -t rate -m dup
 * -n 1,2: the second thread's lanes were the mutex's).  So a lane has a
 * biased thread, `solo`, which holds it without the mutex, in a job
 * registered for the global fence (core/fence.h; else solo stays
 * nobody's and every lane is the mutex alone).
 *
 *   Marks.  solo names the biased thread's mark (lane.h, struct
 *   shmpi_lane_solo: its tag, and a byte per lane it holds solo), not
 *   the thread: the flag "inside" must be written by that thread alone.
 *   A thread that read solo as its own, then did not run until another
 *   thread had revoked that bias and become biased itself, still sets
 *   its flag and, seeing solo changed, clears it - in a flag of the
 *   lane, over the new biased thread's, whose revoker then read "not
 *   inside" and took the lane with it (test unit_lane_bias; the
 *   mutex's holder, reading that flag to choose how to leave, kept the
 *   mutex).  In its own mark it touches nothing of anyone else's.
 *   A holder knows how it holds the lane from `held` (its mark's byte
 *   of the lane, or NULL for the mutex), written at its take, read at
 *   its leave.  The check of the mark's tag and `held` cost MPI_Isend
 *   of 8 B 4 instructions at MULTIPLE over a flag in the lane (277
 *   against 273, MPI_Irecv 254 against 250: 2026-12-02,
 *   COUNT_LEVEL=multiple perf/run-perf pt2pt-count); a lane without a
 *   bias has nobody's mark in solo, not 0, so that the tag's test is the
 *   take's only one.
 *
 *   Bias.  At init (conn.c's lane_init) every lane is biased to the
 *   thread that brings MPI up.  Under the mutex a lane counts the takes
 *   in a row of one thread (run_tag, run: the takes of enters, the
 *   calls that touch the lane; a try, a poll of a wait, neither counts
 *   nor ends a run: the waiters of other lanes would bias the lane to
 *   themselves, or keep its own thread from ever getting it); at
 *   SHMPI_LANE_BIAS_RUN << run_shift takes that thread stores its mark
 *   in solo, still holding the mutex, so nobody is inside: its later
 *   entries take the lane solo, and the next thread that takes the
 *   mutex (acquire, after our release unlock) sees solo set.
 *
 *   Revocation by an enter (shmpi_p2p_lane_solo_end), by a thread that
 *   took the mutex (the biased thread never touches it) and found solo
 *   set: solo made nobody's, a seq_cst fence, the global fence
 *   (membarrier), run_shift one more (at most
 *   SHMPI_LANE_BIAS_SHIFT_MAX: a lane that threads really share stops
 *   paying a membarrier, some us on this VM, every few messages); then
 *   it waits until the lane's byte in the revoked mark is clear
 *   (acquire), yielding.  An asymmetric Dekker pair:
 *     biased thread:  mark.in[lane] = 1; compiler fence; solo == mark ?
 *     revoker:        solo = nobody; fence; global fence; mark.in[lane] ?
 *   The global fence runs a full fence on every CPU that runs a thread
 *   of the process (a thread not running has passed one at its switch),
 *   at a point between its call and its return.  If the biased thread's
 *   second load of solo comes after that point on its CPU, it reads
 *   nobody's mark (the store came before the call) and takes the mutex
 *   instead, which the revoker holds; if it came before, so did its
 *   store of the byte, which the fence drained: the revoker's loads
 *   after the call see it (or the 0 the hold's end stored after it)
 *   and wait.  A hold's end clears the byte with release after the
 *   hold's last write of the lane, and the revoker's acquire load of
 *   that 0 makes every write of the hold visible to it; from then on
 *   the lane is the mutex's, which orders everything as before.  The
 *   wait is short and cannot deadlock: a lane is never held across a
 *   wait (lane.h), a hold of the biased thread waits for no lane it may
 *   not wait for (the lock order: lane 0, then another), and a try never
 *   waits (below).
 *
 *   Tries.  A poll (shmpi_p2p_lane_try_mt: the waits' turns over every
 *   lane, progress.c) of a lane biased to another thread does not take
 *   the mutex if the biased thread will come back to the lane: it gives
 *   up (shmpi_p2p_lane_skip) while that thread holds it or entered it
 *   since the poller's last look, up to SKIPS_MAX looks with gen
 *   unchanged (a lane left alone, whose biased thread may be computing
 *   outside MPI while the poller's wait needs the lane moved: MPI-3.1
 *   3.7.4, test thread_bias_progress), and never in a thread's last look
 *   before it sleeps or its turn after (core/wait.h: a give-up nobody
 *   rings for).  Without that, the waiters of the other threads' lanes
 *   revoked each bias within microseconds.  A poll that does take the
 *   mutex revokes as an enter does (shmpi_p2p_lane_solo_end_try), but
 *   without growing run_shift (its biased thread did not share it, it
 *   left it) and without waiting: if the byte is still set after the
 *   global fence, the try gives the mutex back and fails.  Nobody rings
 *   for that failure (the hold's end is one release store, no `missed`
 *   to read): a thread that fails so in its last look before it sleeps
 *   counts it as progress (shmpi_proc.progress_events), and core/wait.c
 *   sleeps only when a last look moved nothing, so it polls again; the
 *   hold is short (never across a wait).  A try that gives the mutex
 *   back reads `missed` after its seq_cst unlock as a leave does
 *   (shmpi_p2p_lane_drop_mutex), for the tries that failed against its
 *   own short hold.  A revocation by a try leaves solo nobody's, the
 *   mutex free and the revoked mark in `ended` (under the mutex): the
 *   next thread that takes the mutex reads that mark's byte (acquire)
 *   and waits (an enter) or gives up (a try) as above, until the hold's
 *   release store clears it; then ended is NULL again.  No bias is made
 *   while ended is set (the enter that biases has waited it out).
 *
 *   Tags.  A thread's tag is the thread pointer: a thread that ended and
 *   left a lane biased to it can have a successor with the same tag,
 *   which then inherits the bias and the mark - the old thread is gone,
 *   never inside, its bytes 0.
 * Skipping quiet lanes.  A waiting thread turns every lane its rank uses
 * (progress.c), but a try writes the lane's lock line (the CAS, and
 * `missed` when it fails): with a try per lane per poll, the waiters of
 * all lanes would keep pulling every lane's line to their core.  So a
 * poll first reads the lane's watch (shmpi_p2p_lane_quiet_mt), which
 * only reads: the lane's line and those of its channels stay shared
 * while the lane is idle, and nothing bounces until a record comes.
 *
 *   The watch.  The holder, as it leaves (depth back to 0, before the
 *   unlock), writes what the next record of each channel will look like
 *   from this lane's private positions: the seq word of the next record
 *   of each hot ring and the seq that will make it valid (ring.h: a
 *   record is valid when its seq, stored last with release, is the one
 *   after the last consumed), the mailbox's stub `next` (mpsc.h: what a
 *   producer writes when it pushes onto the empty queue; `first` not at
 *   the stub means a node may still be queued: busy), and `busy` for
 *   what no record will announce: a backlog (sends that wait for space:
 *   the receiver rings our doorbell when it frees some, it writes no
 *   record of ours), an armed progress hook (coll's schedules).  While
 *   no thread of the rank waits the leave writes `busy` only: a waiter
 *   then tries the lane once, and its own leave writes the whole watch
 *   (busy is "try it", never wrong).
 *   Quiet = gen even and unchanged across the reads, busy 0, the
 *   mailbox word 0, and no watched seq word holding its expected value.
 *
 *   A sequence lock on gen: shmpi_p2p_lane_own (lane.h) makes it odd
 *   (relaxed: the mutex's acquire already orders it after the last
 *   holder), leave writes the
 *   watch after a release fence (so a reader whose loads see a new
 *   watch value sees the odd gen too, after its acquire fence) and makes
 *   gen even with release; the reader loads gen (acquire: it sees the
 *   watch of that leave), the watch (relaxed atomics), fences (acquire)
 *   and loads gen again.  Odd or changed: 0, the caller tries as before,
 *   and the `missed` pair above covers a holder.  Equal and even: no
 *   holder came between, the positions are the consumer's own, exactly.
 *   A torn read (watch words of two leaves) always shows as a change of
 *   gen, so a pointer read is one of a leave's, into the arena, which
 *   stays mapped: a stale one is a harmless read.
 *
 *   Why a skipped lane cannot hide what the waiter needs.  Everything a
 *   lane can be given from outside is a record (a sender's release store
 *   of a ring seq or of a mailbox link, then shmpi_core_lane_ring of this
 *   rank's lane), a completion (under the lane: its holder rings, above),
 *   or space a receiver frees (busy: never skipped).  A record published
 *   before the reader's acquire load of the watched word is seen (the
 *   load reads that word itself, the very position the consumer reads
 *   next); one published after it is followed by the sender's ring.  A
 *   waiter sleeps only after counting itself on every lane's bell, a
 *   seq_cst fence (and the global one, in a job registered for it),
 *   and one more done() - one more read of every watch (core/wait.c):
 *   in the order S either the sender's fence comes first, and that read
 *   sees the record, or the waiter's does, and the sender's load of the
 *   lane's bell sees it and wakes it (or an owner of the lane, who then
 *   turns it: wait.c); with the global fence and no fence of the
 *   sender's, that fence reached the sender's CPU after its store - the
 *   read sees the record - or before it, so before its load too - the
 *   load sees the count.  The same Dekker pair as every ring: the watch only
 *   replaces "try the lane, then look" by "look" while the lane is
 *   free.
 */
#include "pt2pt/lane.h"

#include <sched.h>
#include <stddef.h>

#include "core/fence.h"
#include "core/hooks.h"
#include "core/lock.h"
#include "core/wait.h"
#include "pt2pt/pt2pt.h"

/* A word of the watch, stored only if it changed: an idle lane's lines
   stay as the readers have them. */
static void put(_Atomic uint32_t *w, uint32_t v)
{
    if (atomic_load_explicit(w, memory_order_relaxed) != v)
        atomic_store_explicit(w, v, memory_order_relaxed);
}

static void put_ptr(_Atomic uintptr_t *w, const volatile void *p)
{
    uintptr_t v = (uintptr_t)p;
    if (atomic_load_explicit(w, memory_order_relaxed) != v)
        atomic_store_explicit(w, v, memory_order_relaxed);
}

void shmpi_p2p_lane_watch_publish(struct shmpi_lane *l)
{
    struct shmpi_lane_lock *k = &l->lock;
    atomic_thread_fence(memory_order_release); /* after gen's odd store */
    uint32_t busy = l->nbacklog || shmpi_proc.hooks.armed[l->index];
    if (l->mailbox.q) {
        busy |= l->mailbox.first != SHMPI_MPSC_STUB;
        put_ptr(&k->mail, &l->mailbox.q->stub.next);
    }
    put(&k->busy, busy);
    uint32_t n = (uint32_t)l->nhot;
    for (uint32_t i = 0; i < n; i++) {
        const struct shmpi_ring_rx *rx = &l->peers[l->hot[i]].rx;
        put_ptr(&k->watch[i].word,
                &shmpi_ring_prefix_at(rx->ring, rx->pos_at)->seq);
        put(&k->watch[i].expect, rx->seq + 1);
    }
    put(&k->nwatch, n);
}

int shmpi_p2p_lane_quiet_mt(const struct shmpi_lane_lock *k)
{
    uint32_t gen = atomic_load_explicit(&k->gen, memory_order_acquire);
    if ((gen & 1) || atomic_load_explicit(&k->busy, memory_order_relaxed))
        return 0;
    uintptr_t mail = atomic_load_explicit(&k->mail, memory_order_relaxed);
    if (mail && atomic_load_explicit((_Atomic uint64_t *)mail,
                                     memory_order_acquire))
        return 0;
    uint32_t n = atomic_load_explicit(&k->nwatch, memory_order_relaxed);
    for (uint32_t i = 0; i < n; i++) {
        uintptr_t w =
            atomic_load_explicit(&k->watch[i].word, memory_order_relaxed);
        if (atomic_load_explicit((_Atomic uint32_t *)w,
                                 memory_order_acquire) ==
            atomic_load_explicit(&k->watch[i].expect, memory_order_relaxed))
            return 0;
    }
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit(&k->gen, memory_order_relaxed) == gen;
}

/* The try found the mutex held: the `missed` pair (at the top). */
int shmpi_p2p_lane_try_slow(struct shmpi_lane_lock *k, uintptr_t me)
{
    atomic_store_explicit(&k->missed, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    if (!shmpi_core_mutex_trylock(&k->mutex))
        return 0;
    return shmpi_p2p_lane_try_after_mutex(k, me);
}

/* The global fence, tried again if the kernel refuses it: nothing may
   take a lane its biased thread may still enter without the mutex. */
static void fence_all(void)
{
    while (shmpi_core_fence_all_ranks() != 0)
        sched_yield();
}

/* The bias revoked if k has one (at the top): solo nobody's, a seq_cst
   fence, the global fence; the revoked thread's mark is the one whose
   hold the revoker waits out (ended); revoked by a thread that entered
   the lane for a call of its own (grow), the next bias of this lane
   takes a run twice as long. */
static void revoke(struct shmpi_lane_lock *k, int grow)
{
    uintptr_t s = atomic_load_explicit(&k->solo, memory_order_relaxed);
    if (s == SHMPI_LANE_NOBODY)
        return;
    atomic_store_explicit(&k->solo, SHMPI_LANE_NOBODY, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    fence_all();
    k->ended = (struct shmpi_lane_solo *)s;
    if (grow && k->run_shift < SHMPI_LANE_BIAS_SHIFT_MAX)
        k->run_shift++;
}

/* 1 once the hold of the revoked bias (ended) is over, or there was
   none: this lane's byte in its mark clear (acquire: the hold's writes
   are ours), and ended forgotten. */
static int hold_over(struct shmpi_lane_lock *k)
{
    if (k->ended &&
        atomic_load_explicit(&k->ended->in[k->lane], memory_order_acquire))
        return 0;
    k->ended = NULL;
    return 1;
}

/* An enter's revocation (at the top): the bias, then the hold of the
   biased thread that began before it, waited out, yielding. */
void shmpi_p2p_lane_solo_end(struct shmpi_lane_lock *k)
{
    revoke(k, 1);
    while (!hold_over(k))
        sched_yield();
}

/* A try's revocation (at the top), which waits for nothing: 1 if the
   lane is free of its biased thread, 0 if that thread still holds it -
   then, in a thread's last look before it sleeps, "something moved",
   so that it polls again instead of sleeping (core/wait.c). */
int shmpi_p2p_lane_solo_end_try(struct shmpi_lane_lock *k)
{
    revoke(k, 0);
    if (hold_over(k))
        return 1;
    if (shmpi_core_wait_last_look())
        atomic_fetch_add_explicit(&shmpi_proc.progress_events, 1,
                                  memory_order_relaxed);
    return 0;
}

/* The marks (lane.h), one per tag that was ever biased: a thread that
   ended leaves its mark to a successor with the same tag (at the top,
   "Tags").  A program whose threads brought more tags than that to a
   bias gets no more biased lanes: the mutex alone, still right. */
#define MARKS_MAX 256u
static struct shmpi_lane_solo marks[MARKS_MAX];
static _Atomic uint32_t marks_used;
struct shmpi_lane_solo shmpi_p2p_lane_nobody; /* tag 0 (lane.h) */

/* me's mark, made if it has none, or NULL if none is left.  Two threads
   make theirs at once in two slots (the add); a slot claimed and not
   yet tagged reads as another thread's. */
static struct shmpi_lane_solo *mark_of(uintptr_t me)
{
    uint32_t n = atomic_load_explicit(&marks_used, memory_order_relaxed);
    for (uint32_t i = 0; i < n && i < MARKS_MAX; i++)
        if (atomic_load_explicit(&marks[i].tag, memory_order_relaxed) == me)
            return &marks[i];
    if (n >= MARKS_MAX)
        return NULL;
    uint32_t i =
        atomic_fetch_add_explicit(&marks_used, 1, memory_order_relaxed);
    if (i >= MARKS_MAX)
        return NULL;
    atomic_store_explicit(&marks[i].tag, me, memory_order_relaxed);
    return &marks[i];
}

/* The run of takes made `me` the lane's biased thread: it holds the
   mutex, so nobody is inside, and the mutex's release publishes solo
   to the next thread that takes it (at the top). */
void shmpi_p2p_lane_bias(struct shmpi_lane_lock *k, uintptr_t me)
{
    k->run = 0;
    struct shmpi_lane_solo *mark;
    if (shmpi_proc.fence_registered && (mark = mark_of(me)))
        atomic_store_explicit(&k->solo, (uintptr_t)mark,
                              memory_order_relaxed);
}

/* A lane's lock as MPI_Init leaves it (its struct zeroed before):
   biased to the thread that brings MPI up, if the global fence can end
   that (at the top). */
void shmpi_p2p_lane_lock_init(struct shmpi_lane_lock *k, uint32_t lane)
{
    k->lane = lane;
    atomic_store_explicit(&k->solo, SHMPI_LANE_NOBODY, memory_order_relaxed);
    shmpi_p2p_lane_bias(k, shmpi_p2p_lane_self());
}

static struct shmpi_lane *lane_of(struct shmpi_lane_lock *k)
{
    return (struct shmpi_lane *)((char *)k - offsetof(struct shmpi_lane, lock));
}

/* Per thread, per lane: the lane's gen when this thread's try last
   skipped it for its biased thread, plus one (0: not since it tried),
   and how many tries in a row it skipped. */
static _Thread_local struct {
    uint32_t gen, n;
} skipped[SHMPI_ARENA_LANES_MAX];

/* A try of a lane biased to another thread (at the top): 1 to give up
   without a look at the mutex - the biased thread holds the lane, or
   entered it since this thread last gave up, so it comes back to it -
   0 to take the mutex and revoke the bias: the last look before a
   sleep, a lane left alone since the last skip, or SKIPS_MAX skips in
   a row. */
#define SKIPS_MAX 4096u
int shmpi_p2p_lane_skip(const struct shmpi_lane_lock *k)
{
    uint32_t gen = atomic_load_explicit(&k->gen, memory_order_relaxed);
    uint32_t i = lane_of((struct shmpi_lane_lock *)k)->index;
    if (skipped[i].gen != gen + 1) {
        skipped[i].gen = gen + 1;
        skipped[i].n = 0;
    }
    if (shmpi_core_wait_last_look() || skipped[i].n >= SKIPS_MAX) {
        skipped[i].n = 0;
        return 0;
    }
    skipped[i].n++;
    return 1;
}

/* The failed try's mark, taken by an exchange, not cleared by a store:
   a try that fails against the next holder meanwhile must not lose its
   mark unless this ring comes after it. */
void shmpi_p2p_lane_rung(struct shmpi_lane_lock *k)
{
    if (atomic_exchange_explicit(&k->missed, 0, memory_order_relaxed))
        shmpi_p2p_ring(&lane_of(k)->peers[shmpi_proc.rank]);
}

/* The last leave of a section under which a request completed, or
   while a thread of the rank waits: the plain leave (lane.h) with the
   whole watch and the ring. */
void shmpi_p2p_lane_leave_slow(struct shmpi_lane_lock *k)
{
    struct shmpi_lane *l = lane_of(k);
    int completed = k->completed;
    k->completed = 0;
    /* nobody waits: nobody reads the watch now, so it is only marked
       "try me" (busy is always safe to read), and the first poll of a
       waiter takes the lane and writes it whole as it leaves.  Every MPI
       call enters and leaves its lane; the whole watch at each leave
       cost MPI_Irecv 145 instructions at MULTIPLE with one thread
       (2026-11-29, COUNT_LEVEL=multiple perf/run-perf pt2pt-count) */
    if (atomic_load_explicit(&shmpi_proc.wait.waiting, memory_order_relaxed))
        shmpi_p2p_lane_watch_publish(l);
    else
        put(&k->busy, 1);
    atomic_store_explicit(
        &k->gen, atomic_load_explicit(&k->gen, memory_order_relaxed) + 1,
        memory_order_release);
    atomic_store_explicit(&k->owner, 0, memory_order_relaxed);
    if (k->held) {
        shmpi_p2p_lane_solo_leave(k);
    } else {
        /* core/lock.h's unlock made seq_cst for the pair above: on x86
           the same xchg, and no mfence after it (no difference
           measurable in 8 B latency on this VM, 2026-11-29,
           perf/threads -t lat: the fence is simply not needed) */
        if (atomic_exchange_explicit(&k->mutex.word, 0,
                                     memory_order_seq_cst) == 2)
            shmpi_core_mutex_wake(&k->mutex);
        if (atomic_load_explicit(&k->missed, memory_order_seq_cst) &&
            atomic_exchange_explicit(&k->missed, 0, memory_order_relaxed))
            completed = 1;
    }
    if (completed)
        shmpi_p2p_ring(&l->peers[shmpi_proc.rank]);
}
