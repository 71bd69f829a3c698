/* unit_lane: the lane lock of pt2pt/lane.h under MPI_THREAD_MULTIPLE: four threads of one rank take turns in a fixed order, each waiting for its turn in shmpi_core_wait_until with polls that only try the lane, as a blocked MPI call does; no two ever hold the lane, no turn is lost, and no thread is left asleep on lane 0's bell. */
/* shmpi-test: unit timeout=90 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Thread t may take turn k only when k % THREADS == t.  It waits with
 * shmpi_core_wait_until(my_turn), whose poll tries the lane and gives up
 * at once if another thread holds it (shmpi_p2p_lane_try, what the
 * progress engine's polls do).  The thread that takes a turn marks a
 * completion under the lane, as a request completed by progress does,
 * and enters the lane once more inside (the recursion of a progress hook
 * that re-enters pt2pt); one poll in YIELD_EVERY yields the CPU while it
 * holds the lane, so that the others' tries fail.  With four threads on the machine's two CPUs
 * the waiters spin nowhere (core/wait.c: threads share the rank) and go
 * to sleep, as waiters of lane 0 (shmpi_core_wait_until_in), so every
 * turn is handed over by a ring of lane 0's bell: the leaver's, because
 * it completed something, or because a try failed while it held the
 * lane (lane.c's `missed`).  A ring lost
 * leaves the thread whose turn it is asleep for ever: the watchdog of
 * unit.h fails the test.  Checked besides: the holder word never names
 * another thread (mutual exclusion, recursion included), and the turn
 * counter - plain, written only under the lane - ends at THREADS x TURNS.
 * Printed, not checked (it depends on scheduling): how often a try
 * failed.
 */
#include "unit.h"

#include "pt2pt/pt2pt.h"

#define THREADS 4
#define TURNS 5000             /* per thread */
#define YIELD_EVERY 4          /* polls that hold the lane across a yield */

static long turn;              /* under the lane */
static _Atomic int holder = -1;
static _Atomic long failed_tries;

static void hold(int t)
{
    int was = atomic_exchange_explicit(&holder, t, memory_order_relaxed);
    UCHECK(was == -1 || was == t, "thread %d holds the lane held by %d", t,
           was);
}

struct poller {
    int t;
    uint64_t rnd;
};

static int my_turn(void *arg)
{
    struct poller *p = arg;
    int t = p->t;
    struct shmpi_lane *l = shmpi_p2p_lane_of(0);
    if (!shmpi_p2p_lane_try(l)) {
        atomic_fetch_add_explicit(&failed_tries, 1, memory_order_relaxed);
        return 0;
    }
    hold(t);
    int go = turn % THREADS == t;
    if (go) {
        shmpi_p2p_lane_enter(l); /* recursive: a depth count */
        hold(t);
        turn++;
        l->lock.completed = 1;   /* as shmpi_p2p_request_complete_more */
        shmpi_p2p_lane_leave(l);
    }
    if (unit_rand(&p->rnd) % YIELD_EVERY == 0)
        sched_yield(); /* the others' tries fail meanwhile, and they sleep */
    int was = atomic_exchange_explicit(&holder, -1, memory_order_relaxed);
    UCHECK(was == t, "thread %d found holder %d as it left", t, was);
    shmpi_p2p_lane_leave(l);
    return go;
}

static void body(int t, void *arg)
{
    (void)arg;
    struct poller p = {t, (uint64_t)t + 1};
    for (int i = 0; i < TURNS; i++)
        shmpi_core_wait_until_in(my_turn, &p, 1u << 0);
}

int main(void)
{
    shmpi_proc.mt = 1;         /* the lane lock is a no-op below MULTIPLE */
    unit_threads(THREADS, body, NULL);
    UCHECK(turn == (long)THREADS * TURNS, "%ld turns, expected %ld", turn,
           (long)THREADS * TURNS);
    printf("unit_lane: %d threads x %d turns, %ld tries found the lane "
           "held\n", THREADS, TURNS, (long)failed_tries);
    return 0;
}
