/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * count.h - what pt2pt counts for MPI_T's performance variables
 * (tool/pvar.c): messages and bytes sent to and received from each
 * peer, and the length of the unexpected queues.
 *
 * Per peer: counted only while MPI_T has a started handle on one of the
 * per-peer variables (SHMPI_WATCH_P2P, core/proc.h), so that the
 * message path pays one predicted branch on a relaxed load and nothing
 * else while no tool looks (2026-11-29, perf/run-perf pt2pt-count: the
 * figures are in the commit that added this file).  A send is counted
 * as it starts (shmpi_p2p_send_post_or_queue, the fast send), a receive
 * as it meets its message (recv.c's set_envelope_status, the fast
 * receive), both with the message's length; the library's own messages
 * (a communicator's odd context, internal.h) are not counted.  The
 * counts are the lane's: each lane's end of a peer is written only by
 * the holder of the lane (lane.h; every send and delivery holds it under
 * MULTIPLE), so a relaxed load and store suffice, and MPI_T sums the
 * lanes with relaxed loads from any thread.
 *
 * Unexpected queue: its length, summed over the lanes, and the highest
 * it reached since MPI_Init, always kept (a tool reads them at any
 * time): pushing a message on an unexpected queue and taking one off
 * (match.c) is the slow side of matching already.
 */
#ifndef SHMPI_P2P_COUNT_H
#define SHMPI_P2P_COUNT_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/proc.h"

/* One lane's counts of one peer. */
struct shmpi_p2p_counts {
    _Atomic uint64_t sent, sent_bytes, recvd, recvd_bytes;
};

/* The counting itself (count.c), out of line and cold; the hooks below
   pass what their callers hold in registers already, so that nothing
   is loaded before the branch. */
struct shmpi_request;
struct shmpi_peer;
__attribute__((cold)) void shmpi_p2p_counted_send(const struct shmpi_request *r);
__attribute__((cold)) void
shmpi_p2p_counted_recv(const struct shmpi_request *r, int source,
                       uint64_t nbytes);
struct shmpi_ring_tx;
__attribute__((cold)) void shmpi_p2p_counted_fast(struct shmpi_peer *peer,
                                                  MPI_Comm comm,
                                                  uint64_t nbytes);
__attribute__((cold)) void
shmpi_p2p_counted_fast_send(struct shmpi_ring_tx *tx, const void *rec);

/* A send starts (send.c). */
static inline void shmpi_p2p_count_send(const struct shmpi_request *r)
{
    if (shmpi_core_watching(SHMPI_WATCH_P2P))
        shmpi_p2p_counted_send(r);
}

/* A receive meets its message of nbytes from world rank source
   (recv.c). */
static inline void shmpi_p2p_count_recv(const struct shmpi_request *r,
                                        int source, uint64_t nbytes)
{
    if (shmpi_core_watching(SHMPI_WATCH_P2P))
        shmpi_p2p_counted_recv(r, source, nbytes);
}

/* The fast receive of nbytes on comm from peer (fastpath.c). */
static inline void shmpi_p2p_count_fast_recv(struct shmpi_peer *peer,
                                             MPI_Comm comm, uint64_t nbytes)
{
    if (shmpi_core_watching(SHMPI_WATCH_P2P))
        shmpi_p2p_counted_fast(peer, comm, nbytes);
}

/* The fast send of record rec, written and not yet committed, into the
   ring tx of a peer (fastpath.c): the two pointers the commit needs,
   nothing else kept alive across the ring's calls for the count (with
   the peer, the communicator and the length: 6 more instructions per
   MPI_Isend, 2026-11-29, perf/run-perf pt2pt-count). */
static inline void shmpi_p2p_count_fast_send(struct shmpi_ring_tx *tx,
                                             const void *rec)
{
    if (shmpi_core_watching(SHMPI_WATCH_P2P))
        shmpi_p2p_counted_fast_send(tx, rec);
}

/* For MPI_T, from any thread: world rank w's counts summed over the
   lanes, in the order of struct shmpi_p2p_counts; the unexpected
   queues' length now and highest.  All 0 before MPI_Init. */
void shmpi_p2p_counts_read(int w, uint64_t out[4]);
uint64_t shmpi_p2p_unexpected_length(void);
uint64_t shmpi_p2p_unexpected_peak(void);
/* The memory held for them (flow.h's `held`), in bytes. */
uint64_t shmpi_p2p_unexpected_bytes(void);

#endif
