/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wait.h - how a rank blocks, and how it is woken.
 *
 * A blocked MPI call waits with shmpi_core_wait_until(done, arg): it calls
 * done() - which makes progress on pending communication and says whether
 * the call may return - first in a spin loop (a cache line crosses between
 * cores in well under a microsecond, while a futex wake-up takes a system
 * call on each side and a context switch, so spinning first wins when
 * ranks do not outnumber cores), then between sched_yield calls, then -
 * after the stall hook (core/hooks.h), with which pt2pt pulls in large
 * unexpected messages, what unblocks crossed rendezvous sends
 * (pt2pt/pull.c) - asleep on the rank's doorbell futex in the arena.
 *
 * The rule that keeps this correct: whoever makes something true that
 * rank R may be waiting for (a record in R's ring, space in a ring R
 * writes, the end of a barrier) publishes it with a release store and
 * then calls shmpi_core_doorbell_ring(R).  Ringing costs one fence and one load
 * unless R sleeps; the rings of pt2pt's lanes and of the collectives'
 * words leave the fence out where the job has the global fence
 * (shmpi_core_ring_fence below).
 */
#ifndef SHMPI_WAIT_H
#define SHMPI_WAIT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "shm_arena/arena.h"

/* Between two polls of memory another core writes: the pause lets that
   core keep the line long enough to finish writing it.  A poll loop
   without it took the line back after the writer's first store, so the
   writer had to fetch it again for the rest: 8 B ping-pong latency fell
   by a fifth (0.081 -> 0.064 us near, 0.290 -> 0.233 far) when the
   receive's spin got it (2026-11-22, perf/pt2pt -t lat, runs of the
   two builds alternated; commit 0249e01). */
static inline void shmpi_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* Once at MPI_Init: SHMPI_SPIN_US and SHMPI_YIELDS from the tunables
   in effect, whose defaults depend on whether ranks outnumber CPUs. */
struct shmpi_tun_set;
void shmpi_core_wait_configure(const struct shmpi_tun_set *tun);
/* And at any time after (MPI_T_cvar_write, tool/cvar.c), from any
   thread: SHMPI_SPIN_US in us, SHMPI_YIELDS; within the tunables'
   ranges. */
void shmpi_core_wait_set_spin(uint64_t us);
void shmpi_core_wait_set_yields(uint64_t yields);

/* What a wait waits for: done(arg) says whether it is over (and makes
   progress); describe(arg, buf, len) writes one line - the MPI call and
   what it waits for, e.g. "MPI_Recv: receive from rank 1 (rank 1 in
   MPI_COMM_WORLD), tag 7" - and returns the rank of MPI_COMM_WORLD
   it waits for, or -1 (any, several, none known); it is called only when the launcher asks
   a sleeping rank (core/blocked.h: a deadlock or hang report), on the
   waiting thread, with arg still alive.  NULL: a line that says only
   "an MPI call".  Static, one per kind of wait: the call site passes a
   pointer and nothing else is paid unless the thread sleeps. */
struct shmpi_core_waitfor {
    int (*done)(void *arg);
    int (*describe)(void *arg, char *buf, size_t len);
};

/* Under MPI_THREAD_MULTIPLE: 1 while this thread polls for the last
   time before it sleeps, or turns the lanes on its way back (wait.c).
   A poll may give up on a lane for a reason that nobody rings for when
   it goes away (pt2pt/lane.c: a lane biased to another thread) only
   while this is 0. */
int shmpi_core_wait_last_look(void);

/* Returns once done(arg) returned non-zero. */
void shmpi_core_wait_until(int (*done)(void *arg), void *arg);
/* The same for a wait that knows which of pt2pt's lanes its done()
   waits on (bit k: lane k; SHMPI_WAIT_ALL_LANES, what
   shmpi_core_wait_until passes: any of them).  Under
   MPI_THREAD_MULTIPLE a sleeping thread is woken by the bells of these
   lanes, and by those of the others only while nobody waits for them
   (wait.c). */
#define SHMPI_WAIT_ALL_LANES UINT32_MAX
void shmpi_core_wait_until_in(int (*done)(void *arg), void *arg,
                              uint32_t lanes);
/* The same, for a wait that can say what it waits for (above). */
void shmpi_core_wait_for(const struct shmpi_core_waitfor *w, void *arg,
                         uint32_t lanes);

/* A poll that found nothing (MPI_Test, MPI_Iprobe, MPI_Win_test saying
   no) or a call a program polls memory with (MPI_Win_flush, MPI_Win_sync
   in a spin loop): when ranks outnumber CPUs, the rank waited for may
   need this CPU, so it is handed over (sched_yield); else nothing.
   Without it a polling rank keeps its CPU for a whole time slice,
   milliseconds, while the rank it polls for cannot run.  Under
   MPI_THREAD_MULTIPLE it also yields while another thread of the rank
   waits (it may be the one that progresses). */
void shmpi_core_poll_idle(void);

/* Wake rank `rank` of MPI_COMM_WORLD if it sleeps in shmpi_core_wait_until:
   every thread of it that sleeps. */
void shmpi_core_doorbell_ring(int rank);

/* The count of rank `rank`'s sleepers on its doorbell, for a look
   without the fence of a ring (relaxed load): a count above 0 is sure,
   0 may miss a sleeper counting itself this moment, which only
   shmpi_core_doorbell_ring's fence rules out - so a caller that skips
   the ring on 0 rings later all the same (coll/pallreduce.c) - or, with
   the job registered for the global fence, shmpi_core_ring_fence. */
_Atomic uint32_t *shmpi_core_doorbell_sleepers(int rank);

/* A ring cut in two, for a caller that rings the same ranks often and
   keeps their sleeper counts (shmpi_core_doorbell_sleepers): one
   shmpi_core_ring_fence after the stores the ring announces, then
   shmpi_core_ring_look for each rank.  The pair is the ringer's half of
   wait.c's Dekker handshake, store-fence-load.
   Where this process registered for the global fence
   (shmpi_proc.fence_registered, core/fence.h), the fence is only the
   compiler's: a sleeper, after it counted itself, makes every CPU that
   runs a rank pass a full fence (shmpi_core_fence_all_ranks, in wait.c's
   sleep_once) before it reads what it waits for.  If the ringer's store
   came before that fence in its program, the sleeper's read sees it; if
   not, the ringer's look comes after that fence and sees the count,
   which the sleeper made visible before it fenced (its locked add).  A
   ringer switched out at that moment passed a fence at the switch.  So
   one of the two sees the other: the frequent side (a collective's
   word, every call) pays no fence, the rare one (a rank going to sleep,
   with a futex call anyway) pays an interrupt per CPU.  Registration is
   one flag of the process's mm in the kernel and cannot fail where the
   command exists; the ranks share one kernel, so either every rank
   leaves the fence out and fences when it sleeps, or none.  Without it,
   a seq_cst fence, as shmpi_core_doorbell_ring. */
static inline void shmpi_core_ring_fence(int registered)
{
    if (__builtin_expect(registered, 1))
        atomic_signal_fence(memory_order_seq_cst);
    else
        atomic_thread_fence(memory_order_seq_cst);
}

void shmpi_core_doorbell_wake(int rank);
static inline void shmpi_core_ring_look(_Atomic uint32_t *sleepers, int rank)
{
    if (__builtin_expect(
            atomic_load_explicit(sleepers, memory_order_relaxed) != 0, 0))
        shmpi_core_doorbell_wake(rank);
}

/* Wake the threads of rank `rank` that sleep waiting for its lane
   `lane`, b its bell (shmpi_arena_lane_bell: pt2pt keeps it per peer and
   lane): what a sender rings after it published a record in that lane,
   and a lane's holder after a request completed under it.  If nobody
   waits for the lane, every sleeper of the rank; nobody if a ring since
   the sleepers last changed woke them (wait.c, "Woken once").  Inline: one
   load unless somebody sleeps, on every message.  registered:
   shmpi_proc.fence_registered.  The fence before the load is
   shmpi_core_ring_fence's: in a registered job only the compiler's, the
   sleeper's global fence (wait.c, sleep_once) pairing with the caller's
   store before the ring and this load, as above; without it a seq_cst
   fence, as ever.  That fence, rung on every send, drained the sender's
   store buffer: each MPI_Isend waited for its record's line to be owned
   while the receiver polled it (perf/README.md, "pt2pt - the lane bell
   without the sender's fence"). */
void shmpi_core_lane_wake(struct shmpi_lane_bell *b, int rank,
                          uint32_t lane);
static inline void shmpi_core_lane_ring(struct shmpi_lane_bell *b, int rank,
                                        uint32_t lane, int registered)
{
    shmpi_core_ring_fence(registered);
    uint32_t s = atomic_load_explicit(&b->sleepers, memory_order_relaxed);
    if (__builtin_expect(s != 0, 0))
        shmpi_core_lane_wake(b, rank, lane);
}

#endif
