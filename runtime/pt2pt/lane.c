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
 * Solo holding.  A program that asks for MULTIPLE and calls MPI from
 * one thread would pay the mutex's two locked instructions (its CAS and
 * its exchange) on every MPI_Isend and MPI_Irecv (2.2 and 2.0 a message,
 * 2026-11-30, COUNT_LEVEL=multiple perf/run-perf pt2pt-count, counted as
 * perf/README.md's "the lane bell without the sender's fence" says).  So
 * the thread that brings MPI up (conn.c's lane_init, in a job
 * registered for the global fence, core/fence.h) holds every lane
 * without its mutex - solo - until another thread takes or tries one.
 * That thread takes the mutex as ever (which the solo holder never
 * touches), sees `solo` still set, and ends solo holding for good
 * (shmpi_p2p_lane_solo_end): every lane's solo word made ENDING, a
 * seq_cst fence, the global fence (membarrier), every word 0 (release);
 * then it waits until the lane it took is not held solo (solo_in 0,
 * acquire), yielding.  An asymmetric Dekker pair:
 *     solo holder:  solo_in = 1; compiler fence; solo == me ?
 *     ender:        solo = ENDING; fence; global fence; solo_in ?
 * The global fence runs a full fence on every CPU that runs a thread of
 * the process (a thread not running has passed one at its switch), at
 * a point between its call and its return.  If the holder's second load
 * of solo comes after that point on its CPU, it reads ENDING or 0 (the
 * store came before the call) and takes the mutex instead; if it came
 * before, so did its store of solo_in = 1, which the fence drained: the
 * ender's loads after the call see it (or the 0 the hold's end stored
 * after it) and wait.  A thread that reads solo 0 (acquire) reads the
 * store an ender made after its global fence returned, so it too sees
 * every solo_in a hold set before that fence.  A hold's end stores
 * solo_in = 0 with release after the hold's last write of the lane, and
 * the waiter's acquire load of that 0 makes every write of the hold
 * visible to it; from then on the solo holder, whose first load of solo
 * no longer reads its tag, takes the mutex like any thread, and the
 * mutex orders everything as before.  The mutex's `missed` pair is not
 * needed for a solo hold: a thread that tries the lane meanwhile takes
 * the free mutex and waits for the hold to end, it does not fail.  The
 * wait is short and cannot deadlock: a lane is never held across a wait
 * (lane.h), and the waiter holds no lane but the one it took and lane 0
 * (the lock order).  Without the global fence (not registered) no
 * thread holds solo, and every lane is the mutex alone.
 *
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
    shmpi_p2p_lane_after_mutex(k);
    shmpi_p2p_lane_own(k, me);
    return 1;
}

/* Every lane's solo word set to `to` (a lane nobody holds solo stays
   0: a thread that ends solo holding never brings it back). */
static void solo_set_all(uintptr_t to)
{
    struct shmpi_pt2pt *pt = shmpi_proc.pt2pt;
    for (uint32_t i = 0; i <= pt->lane_mask; i++)
        if (atomic_load_explicit(&pt->lanes[i].lock.solo,
                                 memory_order_relaxed))
            atomic_store_explicit(&pt->lanes[i].lock.solo, to,
                                  memory_order_release);
}

/* The end of solo holding (at the top): solo marked ending on every
   lane, the global fence, 0; then k's solo hold, if one began before,
   waited out.  A refused fence is tried again: nothing may take a lane
   the solo holder may still enter without it. */
void shmpi_p2p_lane_solo_end(struct shmpi_lane_lock *k)
{
    if (atomic_load_explicit(&k->solo, memory_order_acquire)) {
        solo_set_all(SHMPI_LANE_SOLO_ENDING);
        atomic_thread_fence(memory_order_seq_cst);
        while (shmpi_core_fence_all_ranks() != 0)
            sched_yield();
        solo_set_all(0);
    }
    while (atomic_load_explicit(&k->solo_in, memory_order_acquire))
        sched_yield();
}

static struct shmpi_lane *lane_of(struct shmpi_lane_lock *k)
{
    return (struct shmpi_lane *)((char *)k - offsetof(struct shmpi_lane, lock));
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
    if (atomic_load_explicit(&k->solo_in, memory_order_relaxed)) {
        atomic_store_explicit(&k->solo_in, 0, memory_order_release);
        if (completed)
            shmpi_p2p_ring(&l->peers[shmpi_proc.rank]);
        return;
    }
    /* core/lock.h's unlock made seq_cst for the pair above: on x86 the
       same xchg, and no mfence after it (no difference measurable in 8 B
       latency on this VM, 2026-11-29, perf/threads -t lat: the fence is
       simply not needed) */
    if (atomic_exchange_explicit(&k->mutex.word, 0, memory_order_seq_cst) ==
        2)
        shmpi_core_mutex_wake(&k->mutex);
    if (atomic_load_explicit(&k->missed, memory_order_seq_cst) &&
        atomic_exchange_explicit(&k->missed, 0, memory_order_relaxed))
        completed = 1;
    if (completed)
        shmpi_p2p_ring(&l->peers[shmpi_proc.rank]);
}
