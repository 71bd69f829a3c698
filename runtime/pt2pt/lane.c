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
 *     doorbell (an exchange takes the
 *     mark, so a try that fails against the next holder meanwhile keeps
 *     its own).  The ring wakes the waiter: a waiter about to sleep
 *     counted itself in the doorbell's sleepers, then fenced (wait.c),
 *     before it wrote missed = 1; the leaver read that 1 before the
 *     ring's fence, so the ring's load sees the count.  A waiter that had
 *     not counted itself yet polls again before it sleeps.  And a waiter
 *     that read the doorbell's seq after the ring's increment (release)
 *     sees the unlock before it too (its fence acquires), so its second
 *     try does not fail against this holder.
 *   - completed is written and read under the lane; the ring's own fence
 *     (shmpi_core_doorbell_ring) pairs with the waiter's, as for any
 *     publisher (wait.c): the request's release store of `complete` came
 *     before it.
 */
#include "pt2pt/lane.h"

#include "core/lock.h"
#include "core/wait.h"

static uintptr_t self(void)
{
    return (uintptr_t)__builtin_thread_pointer();
}

static void own(struct shmpi_lane_lock *k, uintptr_t me)
{
    atomic_store_explicit(&k->owner, me, memory_order_relaxed);
    k->depth = 1;
}

void shmpi_p2p_lane_enter_mt(struct shmpi_lane_lock *k)
{
    uintptr_t me = self();
    if (atomic_load_explicit(&k->owner, memory_order_relaxed) == me) {
        k->depth++;
        return;
    }
    shmpi_core_mutex_lock(&k->mutex);
    own(k, me);
}

int shmpi_p2p_lane_try_mt(struct shmpi_lane_lock *k)
{
    uintptr_t me = self();
    if (atomic_load_explicit(&k->owner, memory_order_relaxed) == me) {
        k->depth++;
        return 1;
    }
    if (!shmpi_core_mutex_trylock(&k->mutex)) {
        atomic_store_explicit(&k->missed, 1, memory_order_relaxed);
        atomic_thread_fence(memory_order_seq_cst);
        if (!shmpi_core_mutex_trylock(&k->mutex))
            return 0;
    }
    own(k, me);
    return 1;
}

void shmpi_p2p_lane_leave_mt(struct shmpi_lane_lock *k)
{
    if (--k->depth)
        return;
    int completed = k->completed;
    k->completed = 0;
    atomic_store_explicit(&k->owner, 0, memory_order_relaxed);
    /* core/lock.h's unlock made seq_cst for the pair above: on x86 the
       same xchg, and no mfence after it (no difference measurable in 8 B
       latency on this VM, 2026-11-29, perf/threads -t lat: the fence is
       simply not needed) */
    if (atomic_exchange_explicit(&k->mutex.word, 0, memory_order_seq_cst) ==
        2)
        shmpi_core_mutex_wake(&k->mutex);
    /* an exchange, not a store of 0: a try that fails against the next
       holder meanwhile must not lose its mark unless this ring is after
       it */
    if (atomic_load_explicit(&k->missed, memory_order_seq_cst) &&
        atomic_exchange_explicit(&k->missed, 0, memory_order_relaxed))
        completed = 1;
    if (completed)
        shmpi_core_doorbell_ring(shmpi_proc.rank);
}
