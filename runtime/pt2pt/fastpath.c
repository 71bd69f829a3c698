/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastpath.c - the short way for the most common calls: a blocking
 * MPI_Send of a small contiguous message, and a blocking MPI_Recv from a
 * named source whose message comes straight off that source's ring.
 *
 * Latency is decided here: after the record's cache line crosses between
 * the cores, every instruction before the reply is written counts.  The
 * general path builds a request, queues it, runs the whole progress
 * engine and matches through the queues; this path does none of it and
 * falls back to the general path whenever anything is unusual, so the
 * two always agree:
 *   send: the pair is hot (conn.c), nothing waits before us for that peer
 *         (order), the message is eager and contiguous, the receiver is
 *         not over its bound for unexpected messages (flow.c: one word of
 *         a line that is only read), and there is room;
 *   recv: the pair is hot, no posted receive could take the message
 *         first and nothing from that source is unexpected (order), and
 *         the very next record of its ring is an eager, non-synchronous, uncancellable message that
 *         matches and fits.
 * The receive spins on the one ring only for a short while (SPIN_POLLS),
 * then goes the general way, which also serves everyone else.
 */
#include <string.h>

#include "core/copy.h"
#include "core/proc.h"
#include "core/wait.h"
#include "datatypes/datatype.h"
#include "pt2pt/fastpath.h"
#include "pt2pt/flow.h"
#include "pt2pt/pt2pt.h"

/* polls of the one ring, a pause apart (shmpi_cpu_relax), before the
   general way takes over: how long that is depends on the CPU's pause */
#define SPIN_POLLS 512

/* always_inline: out of line it cost MPI_Isend 7 instructions a message
   (2026-11-29, perf/run-perf pt2pt-count) */
static inline __attribute__((always_inline)) int
fast_send(struct shmpi_lane *l, const void *buf, MPI_Count count,
                     MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    int world = shmpi_comm_peer_to_world(comm, dest);
    uint64_t nbytes = (uint64_t)count * (uint64_t)dt->size;
    struct shmpi_peer *peer = &l->peers[world];
    if (!peer->tx.ring || peer->envelopes.head || nbytes > peer->eager_limit ||
        !shmpi_datatype_contiguous(dt) || shmpi_p2p_receiver_over(world))
        return 0;
    /* a standard send, never cancellable: SHORT (proto.h) */
    void *rec = shmpi_ring_reserve(&peer->tx,
                                   sizeof(struct shmpi_msg_short) + nbytes);
    if (!rec)
        return 0;
    void *data = shmpi_p2p_msg_put_short(rec, tag, comm->context, nbytes);
    shmpi_copy_short(data, buf, nbytes); /* 0 bytes: buf may be NULL */
    shmpi_p2p_count_fast_send(&peer->tx, rec);
    shmpi_ring_commit(&peer->tx, rec);
    shmpi_p2p_ring(peer);
    return 1;
}

/* Under MULTIPLE the lane is held for the whole of it: the ring's tx
   end is shared by the threads that send to that peer in that lane.
   The lock inline, around the inline body (a wrapper of its own, out of
   line, cost MPI_Isend of 1 B 31 more instructions at MULTIPLE, the
   calls and the registers saved twice: 2026-11-29, perf/run-perf
   pt2pt-count COUNT_LEVEL=multiple). */
int shmpi_p2p_fast_send(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                        int tag, MPI_Comm comm)
{
    struct shmpi_lane *l = shmpi_p2p_comm_lane(comm);
    if (!__builtin_expect(shmpi_proc.mt, 0))
        return fast_send(l, buf, count, dt, dest, tag, comm);
    shmpi_p2p_lane_enter_mt(&l->lock);
    int sent = fast_send(l, buf, count, dt, dest, tag, comm);
    shmpi_p2p_lane_leave_mt(&l->lock);
    return sent;
}

/* Take record rec, the next of world rank src's ring, if it is our
   message: the receive is from src, so the envelope's source is src. */
static int take(struct shmpi_peer *peer, int src, const void *rec,
                void *buf, uint64_t capacity, int tag, MPI_Comm comm,
                MPI_Status *status, int source)
{
    struct shmpi_msg m;
    const void *data = shmpi_p2p_msg_read(rec, &m);
    if (m.type != SHMPI_MSG_EAGER || m.flags || m.claim ||
        !shmpi_envelope_matches(m.context, src, m.tag, comm->context, src,
                                tag) ||
        m.nbytes > capacity)
        return 0;
    shmpi_copy_short(buf, data, m.nbytes);
    if (status != MPI_STATUS_IGNORE) {
        status->MPI_SOURCE = source;
        status->MPI_TAG = m.tag;
        status->shmpi_cancelled = 0;
        status->shmpi_nbytes = (MPI_Count)m.nbytes;
    }
    shmpi_p2p_count_fast_recv(peer, comm, m.nbytes);
    shmpi_ring_consume(&peer->rx);
    if (shmpi_ring_publish(&peer->rx))
        shmpi_p2p_ring(peer);
    return 1;
}

/* Another thread wants the lane we hold: it marked the mutex
   contended (core/lock.h's 2), or took it to revoke our bias while we
   hold the lane solo (pt2pt/lane.c), and waits for us to leave. */
static inline int wanted(struct shmpi_lane_lock *k)
{
    uint32_t w = atomic_load_explicit(&k->mutex.word, memory_order_relaxed);
    return w == 2 ||
           (w && k->held);
}

/* mt: a constant, shmpi_proc.mt as the caller tested it. */
static inline __attribute__((always_inline)) int
fast_recv(struct shmpi_lane *l, void *buf, MPI_Count count,
                     MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                     MPI_Status *status, int mt)
{
    if (source < 0 || !shmpi_datatype_contiguous(dt) || l->posted.head)
        return 0;
    int world = shmpi_comm_peer_to_world(comm, source);
    struct shmpi_peer *peer = &l->peers[world];
    if (world == shmpi_proc.rank || l->unexpected[world].head)
        return 0;
    if (!peer->rx.ring) /* a cold pair: the general way */
        return 0;
    uint64_t capacity = (uint64_t)count * (uint64_t)dt->size;
    /* under MULTIPLE the lane is held: one look while another thread
       waits for this lane (it may need the lane to progress); a thread
       alone in its lane spins as below MULTIPLE (8 B latency with one
       thread, MULTIPLE: 0.17-0.39 us with one look against 0.10-0.14 at
       SINGLE, 2026-11-29, perf/threads -t lat).  Waiters of other lanes
       do not count (core/wait.c's lane_waiting): they need this lane
       only for what its watch shows (lane.c), and while it is held they
       mark `missed` and are rung when the spin ends, at most SPIN_POLLS
       pauses later.  Nor do threads that want to enter the lane
       (an MPI_Isend of another thread on this communicator): the spin
       ends when one marks the mutex contended (core/lock.h's 2, after
       its own short spin) or takes it to revoke our bias (wanted), as
       a thread of the rank that shares this core would otherwise wait
       the whole spin */
    int polls = shmpi_proc.oversubscribed ||
                        (mt &&
                         atomic_load_explicit(
                             &shmpi_proc.wait.lane_waiting[l->index].n,
                             memory_order_relaxed) > 0)
                    ? 1
                    : SPIN_POLLS;
    for (int i = 0; i < polls; i++) {
        const void *rec = shmpi_ring_peek(&peer->rx);
        if (rec) /* ours, or something else first: the general way */
            return take(peer, world, rec, buf, capacity, tag, comm, status,
                        source);
        if (mt && wanted(&l->lock))
            break;
        shmpi_cpu_relax();
    }
    return 0;
}

int shmpi_p2p_fast_recv(void *buf, MPI_Count count, MPI_Datatype dt, int source,
                        int tag, MPI_Comm comm, MPI_Status *status)
{
    struct shmpi_lane *l = shmpi_p2p_comm_lane(comm);
    if (!__builtin_expect(shmpi_proc.mt, 0))
        return fast_recv(l, buf, count, dt, source, tag, comm, status, 0);
    shmpi_p2p_lane_enter_mt(&l->lock);
    int got = fast_recv(l, buf, count, dt, source, tag, comm, status, 1);
    shmpi_p2p_lane_leave_mt(&l->lock);
    return got;
}
