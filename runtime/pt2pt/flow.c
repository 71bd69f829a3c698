/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * flow.c - a bound on the memory a rank holds for messages that arrived
 * before their receive, and how senders learn that they must wait.
 *
 * Why: an eager message that finds no posted receive is copied into the
 * receiver's private memory (progress.c, unexpected.c).  Without a bound
 * a receiver flooded by senders it has not posted receives for grows
 * without limit.  2026-11-29, rank 0 doing 1,400,000 MPI_Send of 8 bytes
 * to rank 1, which slept 1 s and then received them all with
 * MPI_ANY_SOURCE (each such receive first drains the rings), mpirun -np 2,
 * peak RSS of rank 1 (getrusage), 3 runs: 25, 88 and 85 MB without this,
 * 21 MB with it (the 16 MiB default); Open MPI 4.1 11 MB, MPICH 17 MB.
 *
 * What is counted (`held`, struct shmpi_pt2pt): every entry of the
 * unexpected queues with the payload room it was allocated with
 * (unexpected.c), and the data of large messages pulled in before their
 * receive (pull.c).  SHMPI_UNEXPECTED_MB is the bound (default 16 MiB,
 * about what Open MPI held in the same flood; an 8-byte message costs an
 * entry of ~160 bytes, so that is ~100,000 small messages held, or ~1,000
 * of the largest eager ones).
 *
 * Past the bound senders wait.  The receiver publishes one word,
 * `unexpected_over` in its rank slot (shm_arena/arena.h): set when
 * `held` goes over the bound, cleared when it falls back to three
 * quarters of it (a low-water mark, so that a receiver hovering at the
 * bound does not flip the word, and bounce its line, on every message).
 * The word has a cache line of its own: the line is read-shared on the
 * senders' normal path, and written only on those crossings.  A sender that reads 1
 * sends its message as an RTS whatever its size (send.c, fastpath.c):
 * the envelope only, the data stays with the sender until the receive
 * is posted, and the receiver's cost per message falls to one entry.  So
 * a blocking send then blocks until its receive is posted, as 3.4 allows
 * ("the send may block until a matching receive is posted"), and a
 * nonblocking one completes only then; a buffered send (bsend.c) is
 * still complete at once, for its data already sits in the attached
 * buffer, which the RTS's data is then read from.  Entries of RTS
 * messages count too, but cannot be refused: there is one per send
 * started and not yet matched, which a blocking sender limits to one.
 *
 * What a receiver may still hold beyond the bound, and why:
 *   - what was already in the rings and the mailbox when the word was
 *     set.  The receiver drains every record (a DATA record for a posted
 *     receive may sit behind an unwanted EAGER one), so records already
 *     written are taken.  Memory ordering: the receiver stores the word
 *     (relaxed) before, in program order, it hands the space of the
 *     record that crossed the bound back: with the ring's release store
 *     of its tail (queues/ring.c), or the release store of the record's
 *     `done` in the sender's outbox (queues/outbox.c).  A sender that
 *     writes into space handed back after that has loaded that tail, or
 *     that `done`, with acquire, so the word's store happens before its
 *     next load of the word, which then reads 1 (write-read coherence).
 *     A stale 0 can therefore only let through messages written into
 *     space the sender already knew was free: at most one ring's worth,
 *     or one outbox's, per sender, each costing its entry and payload
 *     (with 8-byte messages ~160 bytes per 64-byte record: under 2.5 x
 *     SHMPI_RING_KB, or SHMPI_OUTBOX_KB, per sender).  On x86 the store is seen within the
 *     time the sender spends on one message, so in practice the overshoot
 *     is what was already written, plus at most one message per sender.
 *   - one pulled message.  A stalled wait (pull.c) pulls a large message
 *     in only while it fits under the bound, except that when nothing is
 *     pulled at all it takes one message of up to SHMPI_PULL_LIMIT_MB
 *     whatever the bound: that keeps the classic exchange of one large
 *     message each way (both MPI_Send before MPI_Recv) completing as it
 *     did (test/p2p_bigexchange_ext.c), and the bound covers the rest.
 *   - the size-class cache of freed entries (unexpected.c), at most 64
 *     per class.
 *
 * Lanes.  `held` and `pulled_bytes` are per rank, while the lanes that
 * add to them run at once under MPI_THREAD_MULTIPLE: atomic adds, never
 * lost.  The bound is a bound, not an ordering: a crossing seen late by
 * the thread of another lane lets one more message in, no more.  What
 * must not happen is the word left wrong for good - set while the rank
 * holds little (every small message an RTS, until another entry is
 * freed, which may never come), or clear while it holds much.  Two
 * threads crossing at once, one up, one down, could store their
 * decisions in either order.  So a crossing does not store what it saw:
 * shmpi_p2p_flow_publish, under flow_lock (one publisher at a time),
 * reads `held` afresh (an RMW reads the latest value), stores its
 * decision in held_over and the word, and reads `held` again until the
 * two agree.  Against a thread whose add or sub does not publish
 * because it read held_over before that store, seq_cst: in the single
 * order S, its RMW on `held` and its load of held_over both come before
 * the publisher's store of held_over, hence before the publisher's next
 * RMW read of `held`, which therefore sees its change and decides
 * again.  Below MULTIPLE there is one thread and these are the plain
 * adds they were, with a lock prefix.
 */
#include "core/lock.h"
#include "pt2pt/flow.h"

void shmpi_p2p_flow_publish(struct shmpi_pt2pt *pt)
{
    uint64_t low = pt->held_limit - pt->held_limit / 4;
    shmpi_core_lock(&pt->flow_lock);
    for (;;) {
        uint64_t held = atomic_fetch_add(&pt->held, 0);
        int was = atomic_load(&pt->held_over);
        int over = held > pt->held_limit || (was && held > low);
        if (over == was)
            break;
        atomic_store(&pt->held_over, over);
        /* relaxed: ordered for senders by the release (ring tail, outbox
           `done`) of the space this rank consumes next (see above) */
        atomic_store_explicit(&shmpi_proc.slot->unexpected_over,
                              (uint32_t)over, memory_order_relaxed);
    }
    shmpi_core_unlock(&pt->flow_lock);
}

/* relaxed: a bound (see above) */
int shmpi_p2p_pull_fits(struct shmpi_pt2pt *pt, uint64_t bytes)
{
    if (atomic_load_explicit(&pt->pulled_bytes, memory_order_relaxed) == 0)
        return bytes <= pt->pull_limit;
    return atomic_load_explicit(&pt->held, memory_order_relaxed) + bytes <=
           pt->held_limit;
}
