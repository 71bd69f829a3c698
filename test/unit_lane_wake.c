/* unit_lane_wake: the wake-up by lane of core/wait.c under MPI_THREAD_MULTIPLE: threads of one rank, each waiting for one lane (or for all), hand a token round, each hand-over published and then rung on a lane's bell only - the next thread's lane, or a lane nobody waits for - and a thread woken by its lane's ring makes the turn it owes the other lanes; a lost wake-up leaves a thread asleep for ever. */
/* shmpi-test: unit timeout=90 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Thread t may take turn k only when k % n == t.  It waits with
 * shmpi_core_wait_until_in(my_turn, .., own[t]): own[t] is one lane, or
 * every lane (the waits of rooms that know no lanes).  The thread that
 * takes a turn stores the next turn (release) and rings one lane's bell
 * of this rank (shmpi_core_lane_ring), as a sender does after it
 * published a record, and as a sender's without the ringer's fence
 * where the process registered for the global fence (unit.h registers
 * it): the lane the next thread waits for, or - in the first phase, at
 * random - the last lane, which no thread of that phase waits for (a
 * ring nobody owns must wake everyone: wait.c).  The
 * policy is made to sleep at once (no spin, no yield), so every turn is
 * handed over by a futex wake-up: a ring that woke the wrong bitset, or
 * a sleeper counted on the wrong bell, leaves the next thread asleep and
 * the test's timeout fails it.  Checked besides, at each poll: the
 * thread counts in lane_waiting of its lanes; at the end, every bell's
 * word and the doorbell's sleepers are back to 0.  Printed, not checked
 * (it depends on scheduling): polls of threads whose turn it was not.
 */
#include "unit.h"

#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"

#define TURNS 2000             /* per thread and phase */

static _Atomic long turn;
static _Atomic long idle_polls;
static int nthreads, phase_unowned; /* set before the threads start */
static uint32_t own[UNIT_MAX_PROCS];

struct poller {
    int t;
    uint64_t rnd;
};

static int my_turn(void *arg)
{
    struct poller *p = arg;
    for (uint32_t k = 0; k < shmpi_p2p_nlanes(); k++)
        if ((own[p->t] >> k) & 1)
            UCHECK(atomic_load_explicit(&shmpi_proc.wait.lane_waiting[k].n,
                                        memory_order_relaxed) >= 1,
                   "thread %d waits for lane %u, not counted", p->t, k);
    int go = atomic_load_explicit(&turn, memory_order_acquire) % nthreads ==
             p->t;
    if (!go)
        atomic_fetch_add_explicit(&idle_polls, 1, memory_order_relaxed);
    return go;
}

/* Hand the token to the next thread and ring one lane for it. */
static void hand_over(struct poller *p)
{
    int next = (p->t + 1) % nthreads;
    uint32_t lanes = shmpi_p2p_nlanes(), k;
    if (phase_unowned && unit_rand(&p->rnd) % 2)
        k = lanes - 1; /* nobody's */
    else
        k = (uint32_t)__builtin_ctz(own[next]); /* one of next's lanes */
    atomic_fetch_add_explicit(&turn, 1, memory_order_release);
    shmpi_core_lane_ring(shmpi_arena_lane_bell(shmpi_proc.arena, 0, k), 0,
                         k, shmpi_proc.fence_registered);
}

#define THREADS 6

static void check_quiet(void);

static pthread_barrier_t phase_barrier;

/* Phase 1: thread t waits for lane t % (L - 1), the last lane is
   nobody's and half the hand-overs ring it; phase 2: thread THREADS - 1
   waits for every lane, the others for lane t % L, and every hand-over
   rings a lane the next thread waits for.  Thread 0 sets each phase up
   between barriers. */
static void setup(int phase)
{
    uint32_t lanes = shmpi_p2p_nlanes();
    uint32_t all = (2u << (lanes - 1)) - 1;
    nthreads = THREADS;
    phase_unowned = phase == 1 && lanes > 1;
    for (int t = 0; t < THREADS; t++) {
        uint32_t n = phase_unowned ? lanes - 1 : lanes;
        own[t] = 1u << (t % n);
    }
    if (phase == 2)
        own[THREADS - 1] = all;
    atomic_store(&turn, 0);
}

/* Phase 3 (two lanes or more): the turn a thread owes the other lanes
   when it leaves the doorbell (wait.c).  V waits for lane 0, O for
   lane 1, both asleep; the driver marks work "in lane 1" that only
   V needs (as a clear to send for a send V started there) and, in the
   same ring, O's own flag: the ring of lane 1 finds an owner, O, and
   wakes O alone, whose wait is over at once.  Only O's turn, the
   progress it makes before it returns (here turn_hook, standing for
   pt2pt's), does the work, which sets V's flag and rings lane 0.
   Without that turn V sleeps for ever. */
#define ROUNDS 300
static _Atomic int flag_o, flag_v, lane1_work;
static pthread_barrier_t trio;

static int flag_set(void *arg)
{
    return atomic_load_explicit((_Atomic int *)arg, memory_order_acquire);
}

static int turn_hook(void)
{
    if (!atomic_exchange_explicit(&lane1_work, 0, memory_order_acquire))
        return 0;
    atomic_store_explicit(&flag_v, 1, memory_order_release);
    shmpi_core_lane_ring(shmpi_arena_lane_bell(shmpi_proc.arena, 0, 0), 0, 0,
                         shmpi_proc.fence_registered);
    return 1;
}

static uint32_t owners(uint32_t lane)
{
    return atomic_load(&shmpi_arena_lane_bell(shmpi_proc.arena, 0, lane)
                            ->sleepers) & 0xffffu;
}

static void phase3(int t)
{
    for (int r = 0; r < ROUNDS; r++) {
        if (t == 0) {
            while (owners(0) < 1 || owners(1) < 1)
                sched_yield(); /* both asleep, or about to be */
            atomic_store_explicit(&lane1_work, 1, memory_order_relaxed);
            atomic_store_explicit(&flag_o, 1, memory_order_release);
            shmpi_core_lane_ring(
                shmpi_arena_lane_bell(shmpi_proc.arena, 0, 1), 0, 1,
                shmpi_proc.fence_registered);
        } else {
            _Atomic int *flag = t == 1 ? &flag_o : &flag_v;
            shmpi_core_wait_until_in(flag_set, (void *)flag,
                                     t == 1 ? 1u << 1 : 1u << 0);
            atomic_store(flag, 0);
        }
        pthread_barrier_wait(&trio);
    }
}

static void body(int t, void *arg)
{
    (void)arg;
    struct poller p = {t, (uint64_t)t + 7};
    if (shmpi_p2p_nlanes() > 1 && t < 3) {
        if (t == 0) {
            shmpi_core_wait_set_spin(0);
            shmpi_core_wait_set_yields(0);
            shmpi_proc.hooks.turn = turn_hook;
        }
        pthread_barrier_wait(&trio);
        phase3(t);
        if (t == 0)
            shmpi_proc.hooks.turn = shmpi_p2p_progress;
    }
    for (int phase = 1; phase <= 2; phase++) {
        if (t == 0) {
            /* after unit_become_rank's wait_configure: sleep at once */
            shmpi_core_wait_set_spin(0);
            shmpi_core_wait_set_yields(0);
            setup(phase);
        }
        pthread_barrier_wait(&phase_barrier);
        for (int i = 0; i < TURNS; i++) {
            shmpi_core_wait_until_in(my_turn, &p, own[t]);
            hand_over(&p);
        }
        pthread_barrier_wait(&phase_barrier);
        if (t == 0)
            check_quiet();
    }
}

static void check_quiet(void)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    UCHECK(atomic_load(&shmpi_arena_slot(a, 0)->doorbell.sleepers) == 0,
           "sleepers left on the doorbell");
    for (uint32_t k = 0; k < a->lanes; k++) {
        UCHECK(atomic_load(&shmpi_arena_lane_bell(a, 0, k)->sleepers) == 0,
               "lane %u's bell still counts sleepers", k);
        UCHECK(atomic_load(&shmpi_proc.wait.lane_waiting[k].n) == 0,
               "lane %u still counts waiters", k);
    }
}

int main(void)
{
    shmpi_proc.mt = 1;         /* the lanes and the bells' owners count
                                  only under MULTIPLE */
    pthread_barrier_init(&phase_barrier, NULL, THREADS);
    pthread_barrier_init(&trio, NULL, 3);
    unit_threads(THREADS, body, NULL);
    printf("unit_lane_wake: %d threads x %d turns x 2 phases over %u "
           "lanes, %ld polls found another's turn; %d rounds of the owed "
           "turn; rings %s\n",
           THREADS, TURNS, shmpi_p2p_nlanes(), (long)idle_polls,
           shmpi_p2p_nlanes() > 1 ? ROUNDS : 0,
           shmpi_proc.fence_registered ? "without the ringer's fence"
                                       : "with the ringer's fence");
    return 0;
}
