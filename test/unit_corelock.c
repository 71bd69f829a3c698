/* unit_corelock: the mutex of core/lock.h, eight threads of one process taking it a million times in all, some holding it across a yield so that the others sleep on it: never two holders, no update lost, no waiter left asleep. */
/* shmpi-test: unit timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each thread takes the lock ROUNDS times.  Inside, it marks itself the
 * holder (a relaxed exchange that must find no other holder), adds one
 * to a plain counter and to a plain per-thread tally, and one time in
 * YIELD_EVERY calls sched_yield, so that with more threads than CPUs the
 * others find the word held, mark it 2 and go to sleep on the futex.
 * Checked: the holder word never names another thread (mutual
 * exclusion), the counter ends at THREADS * ROUNDS (no update lost:
 * the release of each unlock publishes the plain store to the next
 * holder), and every thread finishes (a lost wake-up leaves a thread
 * asleep for ever: the watchdog of unit.h).  Printed, not checked
 * (it depends on scheduling): how often an unlock found a sleeper.
 * Under ThreadSanitizer (unit.h says how) a relaxed unlock shows as a
 * race on the counter.
 */
#include <sched.h>

#include "unit.h"

#include "core/lock.h"

#define THREADS 8
#define ROUNDS 125000
#define YIELD_EVERY 64

static struct shmpi_core_lock lock;
static _Atomic int holder = -1;
static long counter;
static long tally[THREADS];
static _Atomic long contended;

static void body(int t, void *arg)
{
    (void)arg;
    uint64_t r = (uint64_t)t + 1;
    for (int i = 0; i < ROUNDS; i++) {
        shmpi_core_mutex_lock(&lock);
        int was = atomic_exchange_explicit(&holder, t, memory_order_relaxed);
        UCHECK(was == -1, "thread %d took the lock held by %d", t, was);
        counter++;
        tally[t]++;
        if (unit_rand(&r) % YIELD_EVERY == 0)
            sched_yield();
        was = atomic_exchange_explicit(&holder, -1, memory_order_relaxed);
        UCHECK(was == t, "thread %d found holder %d at its unlock", t, was);
        if (atomic_load_explicit(&lock.word, memory_order_relaxed) == 2)
            atomic_fetch_add_explicit(&contended, 1, memory_order_relaxed);
        shmpi_core_mutex_unlock(&lock);
    }
}

int main(void)
{
    unit_threads(THREADS, body, NULL);
    long sum = 0;
    for (int t = 0; t < THREADS; t++) {
        UCHECK(tally[t] == ROUNDS, "thread %d counted %ld", t, tally[t]);
        sum += tally[t];
    }
    UCHECK(counter == sum, "counter %ld, expected %ld", counter, sum);
    printf("unit_corelock: %d threads x %d rounds, %ld unlocks found a "
           "sleeper\n", THREADS, ROUNDS, (long)contended);
    return 0;
}
