/* unit_lane_bias: the biased lanes of pt2pt/lane.c: four threads of one rank take lane 0 in bursts long enough to bias it to each in turn, and revoke each other's bias by enters and by tries, while a fifth stops them at random instructions with a signal (a preemption anywhere, also between a biased thread's look at the bias and its mark); no two ever hold the lane, and every hold is counted. */
/* shmpi-test: unit timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What it is after: a thread that was the lane's biased thread, read
 * the bias as its own, and was stopped before it marked itself inside,
 * comes back after another thread revoked that bias and became biased
 * itself.  Its mark and the withdrawal of its mark must not touch what
 * the new biased thread's revoker reads, or that revoker and the new
 * biased thread both hold the lane.  A burst is long enough to bias the
 * lane again after every revocation (SHMPI_LANE_BIAS_RUN doubled up to
 * SHMPI_LANE_BIAS_SHIFT_MAX times); the signal's handler sleeps long
 * enough for another thread's burst to end the bias and start its own.
 *
 * Checked: the holder word never names another thread (mutual
 * exclusion), and the count of holds - plain, written only under the
 * lane, so ThreadSanitizer sees a race if two hold it - is exact.  A
 * hold that never ends (a leave that kept the mutex) is the watchdog's
 * (unit.h).  Printed, not checked (scheduling): the signals delivered
 * and the tries that gave up.  With one flag "inside" in the lane,
 * written by whichever thread thought itself biased, 9 runs in 30
 * failed (2026-12-02).
 */
#include "unit.h"

#include <time.h>

#include "pt2pt/pt2pt.h"

#define WORKERS 4
/* bursts per worker: under ThreadSanitizer, whose bursts are 60 times
   slower, enough to see any race of the holds it watches */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BURSTS 12
#endif
#endif
#ifndef BURSTS
#define BURSTS 256
#endif
#define BURST_MAX (SHMPI_LANE_BIAS_RUN << SHMPI_LANE_BIAS_SHIFT_MAX)
#define TRY_EVERY 8             /* one take in TRY_EVERY is a try */
#define STOP_US 2000            /* the handler's sleep */
#define STOP_EVERY_US 300       /* between two signals */

static long holds;              /* under the lane */
static _Atomic long counted, gave_up, stops;
static _Atomic int holder = -1;
static _Atomic int workers_left = WORKERS, stopper_done;
static pthread_t worker_id[WORKERS];
static _Atomic int worker_known[WORKERS];

static void on_stop(int sig)
{
    (void)sig;
    struct timespec ts = {0, STOP_US * 1000L};
    nanosleep(&ts, NULL);
    atomic_fetch_add_explicit(&stops, 1, memory_order_relaxed);
}

/* The holder word read and written, not exchanged: a locked
   instruction per hold would slow the bursts that make the biases. */
static void hold(int t, struct shmpi_lane *l)
{
    int was = atomic_load_explicit(&holder, memory_order_relaxed);
    UCHECK(was == -1, "thread %d takes the lane held by %d", t, was);
    atomic_store_explicit(&holder, t, memory_order_relaxed);
    holds++;
    was = atomic_load_explicit(&holder, memory_order_relaxed);
    UCHECK(was == t, "thread %d found holder %d as it left", t, was);
    atomic_store_explicit(&holder, -1, memory_order_relaxed);
    shmpi_p2p_lane_leave(l);
}

static void worker(int t)
{
    struct shmpi_lane *l = shmpi_p2p_lane_of(0);
    uint64_t rnd = (uint64_t)t * 7919 + 1;
    long mine = 0;
    for (int b = 0; b < BURSTS; b++) {
        /* a burst as long as the longest run that biases, or a short one
           that only revokes */
        long n = unit_rand(&rnd) % 2 ? BURST_MAX + BURST_MAX / 4
                                     : (long)(unit_rand(&rnd) % 64) + 1;
        for (long i = 0; i < n; i++) {
            if (unit_rand(&rnd) % TRY_EVERY == 0) {
                if (!shmpi_p2p_lane_try(l)) {
                    atomic_fetch_add_explicit(&gave_up, 1,
                                              memory_order_relaxed);
                    continue;
                }
            } else {
                shmpi_p2p_lane_enter(l);
            }
            hold(t, l);
            mine++;
        }
        sched_yield();
    }
    atomic_fetch_add_explicit(&counted, mine, memory_order_relaxed);
    atomic_fetch_sub_explicit(&workers_left, 1, memory_order_release);
    /* alive until the stopper has sent its last signal */
    while (!atomic_load_explicit(&stopper_done, memory_order_acquire))
        sched_yield();
}

/* Signals a random worker every STOP_EVERY_US until all are done. */
static void stopper(void)
{
    uint64_t rnd = 12345;
    struct timespec ts = {0, STOP_EVERY_US * 1000L};
    while (atomic_load_explicit(&workers_left, memory_order_acquire)) {
        int t = (int)(unit_rand(&rnd) % WORKERS);
        if (atomic_load_explicit(&worker_known[t], memory_order_acquire))
            pthread_kill(worker_id[t], SIGUSR1);
        nanosleep(&ts, NULL);
    }
    atomic_store_explicit(&stopper_done, 1, memory_order_release);
}

static void body(int t, void *arg)
{
    (void)arg;
    if (t == WORKERS) {
        stopper();
        return;
    }
    worker_id[t] = pthread_self();
    atomic_store_explicit(&worker_known[t], 1, memory_order_release);
    worker(t);
}

int main(void)
{
    struct sigaction sa = {.sa_handler = on_stop, .sa_flags = SA_RESTART};
    sigemptyset(&sa.sa_mask);
    UCHECK(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
    shmpi_proc.mt = 1;         /* the lane lock is a no-op below MULTIPLE */
    unit_threads(WORKERS + 1, body, NULL);
    UCHECK(shmpi_proc.fence_registered,
           "no global fence here: the lanes were never biased");
    UCHECK(holds == counted, "%ld holds counted under the lane, %ld by the "
           "threads", holds, (long)counted);
    printf("unit_lane_bias: %d threads, %ld holds, %ld tries gave up, %ld "
           "signals\n", WORKERS, holds, (long)gave_up, (long)stops);
    return 0;
}
