/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wait.c - spin, then yield, then sleep on the doorbell (see wait.h).
 *
 * The lost-wake-up race is closed Dekker style, with a seq_cst fence on
 * each side:
 *   waiter: sleepers += 1; fence; old = seq; if (!done()) futex_wait(seq, old)
 *   ringer: publish;       fence; if (sleepers > 0) { seq += 1; futex_wake }
 * Either the ringer sees the sleeper, or the waiter's done() sees what was
 * published.  If the ringer bumps seq after the waiter read `old`,
 * futex_wait finds seq != old in the kernel and returns at once.  The
 * futexes are shared (no FUTEX_PRIVATE_FLAG): the doorbell lives in
 * memory mapped by several processes.
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
 * Threads (MPI_THREAD_MULTIPLE): every thread of a rank sleeps on the
 * rank's doorbell, and a ring wakes them all.  Under mt a thread that
 * waits counts itself in shmpi_proc.wait.waiting; while another thread
 * of the rank waits too, nobody spins (the threads share the rank's
 * cores: a spinning thread would keep the one that progresses off its
 * CPU) and a poll that found nothing yields.  That count is per rank
 * on purpose: it is about the rank's CPUs, whatever the lanes.  The
 * thread also counts itself in lane_waiting[k] for each lane k its wait
 * is for: pt2pt's fast receive, which holds lane k while it spins,
 * spins only while nobody else waits for lane k (pt2pt/fastpath.c).
 * done() may find the progress engine held by another thread and
 * return 0 at once (pt2pt/lane.h): that thread rings the doorbell when
 * it leaves.
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

/* Spin while done() is false, for up to spin_ns since the last time
   progress moved something: a transfer in full swing never sleeps. */
static int spin(int (*done)(void *), void *arg)
{
    long spin_ns = atomic_load_explicit(&shmpi_proc.wait.spin_ns,
                                        memory_order_relaxed);
    if (spin_ns <= 0 || threads_share())
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
        if (deadline < 0 || seen != events_now()) {
            seen = events_now();
            deadline = now + spin_ns;
        } else if (now > deadline) {
            return 0;
        }
    }
}

static int sleep_once(struct shmpi_doorbell *bell, int (*done)(void *),
                      void *arg)
{
    atomic_fetch_add_explicit(&bell->sleepers, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    uint32_t old = atomic_load_explicit(&bell->seq, memory_order_relaxed);
    uint64_t events = events_now();
    int ok = done(arg);
    /* sleep only if nothing moved: progress works in batches, and what
       is left of a batch wakes nobody */
    if (!ok && events == events_now())
        syscall(SYS_futex, (uint32_t *)&bell->seq, FUTEX_WAIT, old, NULL,
                NULL, 0);
    atomic_fetch_sub_explicit(&bell->sleepers, 1, memory_order_relaxed);
    return ok;
}

static int yield_some(int (*done)(void *), void *arg)
{
    int yields = atomic_load_explicit(&shmpi_proc.wait.yields,
                                      memory_order_relaxed);
    for (int i = 0; i < yields; i++) {
        sched_yield();
        if (done(arg))
            return 1;
    }
    return 0;
}

static void wait_loop(int (*done)(void *), void *arg)
{
    struct shmpi_doorbell *bell = &shmpi_proc.slot->doorbell;
    while (!spin(done, arg) && !yield_some(done, arg)) {
        if (shmpi_proc.hooks.stalled() > 0)
            continue; /* stalled on crossed large sends: pulled, retry */
        if (sleep_once(bell, done, arg))
            return;
    }
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
void shmpi_core_wait_until_in(int (*done)(void *), void *arg, uint32_t lanes)
{
    if (!__builtin_expect(shmpi_proc.mt, 0)) {
        wait_loop(done, arg);
        return;
    }
    uint32_t all = (2u << (shmpi_proc.arena->lanes - 1)) - 1;
    uint32_t own = lanes & all ? lanes & all : all;
    atomic_fetch_add_explicit(&shmpi_proc.wait.waiting, 1,
                              memory_order_relaxed);
    count_waiter(own, 1);
    wait_loop(done, arg);
    count_waiter(own, -1);
    atomic_fetch_sub_explicit(&shmpi_proc.wait.waiting, 1,
                              memory_order_relaxed);
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

void shmpi_core_doorbell_ring(int rank)
{
    struct shmpi_doorbell *bell =
        &shmpi_arena_slot(shmpi_proc.arena, rank)->doorbell;
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&bell->sleepers, memory_order_relaxed) == 0)
        return;
    atomic_fetch_add_explicit(&bell->seq, 1, memory_order_release);
    syscall(SYS_futex, (uint32_t *)&bell->seq, FUTEX_WAKE, INT_MAX, NULL,
            NULL, 0);
}
