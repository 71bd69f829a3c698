/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * send.c - the sending side: putting a message's envelope (and, when it is
 * small, its data) into the channel to its destination (its hot ring, or
 * our outbox and its mailbox: conn.c), and streaming a large message once
 * the receiver asked for it (proto.h).
 *
 * A send that finds no space, or other sends to the same peer still
 * waiting, joins that peer's backlog (progress.c retries it), so messages
 * enter a channel in the order they were sent.  Before giving up the
 * sender asks the receiver(s) to ring its doorbell when they free space
 * (ring.c, outbox.c), so a blocked sender can sleep.
 *
 * A message up to the eager limit goes as EAGER unless its receiver has
 * published that it holds more than its bound of unexpected messages
 * (flow.c): then as an RTS, and the data waits here for the receive.
 */
#include <stdlib.h>
#include <string.h>

#include "core/copy.h"
#include "core/error.h"
#include "core/proc.h"
#include "core/wait.h"
#include "datatypes/datatype.h"
#include "pt2pt/claim.h"
#include "pt2pt/flow.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/sigcheck.h"

/* Space for a record of len bytes, asking to be woken if there is none. */
static void *reserve(struct shmpi_peer *peer, size_t len)
{
    return shmpi_p2p_chan_reserve(peer, len);
}

/* EAGER (the data with the envelope) or RTS (the envelope only)?
   Decided when the envelope enters the ring, so that a send queued in
   the backlog follows the receiver's latest word. */
static int send_eager(struct shmpi_peer *peer, const struct shmpi_request *r)
{
    if (r->nbytes > peer->eager_limit) {
        /* over the job's limit, or the pair's ring is too small for it */
        if (r->nbytes > shmpi_proc.pt2pt->eager_limit)
            return 0;
        shmpi_p2p_ring_fit(peer, r->nbytes);
        if (r->nbytes > peer->eager_limit)
            return 0;
    }
    return !shmpi_p2p_receiver_over(r->peer);
}

/* An eager message's data after its envelope.  Contiguous data takes
   no call (2026-11-29: shmpi_dt_pack's and memcpy's calls were 23 of
   the 424 instructions of an 8-byte MPI_Isend, callgrind of osu_bw's
   window). */
static void pack_eager(const struct shmpi_request *r, void *out)
{
    if (shmpi_datatype_contiguous(r->datatype))
        shmpi_copy_short(out, r->buf, r->nbytes);
    else if (r->nbytes)
        shmpi_dt_pack(r->buf, r->datatype, 0, out, r->nbytes);
}

/* The envelope of r, with its check-mode signature sig after the data
   (sigcheck.h) or, sig NULL, without: one body for both, specialised by
   the compiler, so that the way without a signature is as it was. */
static inline __attribute__((always_inline)) int
post(struct shmpi_peer *peer, struct shmpi_request *r,
     const struct shmpi_p2p_sig *sig)
{
    size_t tail = sig ? sizeof *sig : 0;
    int eager = send_eager(peer, r) &&
                (!sig || r->nbytes + tail <= peer->eager_limit);
    int sync = r->mode == SHMPI_MODE_SYNC;
    int compact = !sig && eager && shmpi_p2p_msg_is_short(sync, r->claim);
    size_t head = compact ? sizeof(struct shmpi_msg_short)
                          : sizeof(struct shmpi_msg);
    size_t len = head + (eager ? r->nbytes : 0) + tail;
    void *rec = reserve(peer, len);
    if (!rec)
        return 0;
    if (!peer->tx.ring && len > peer->max_record)
        peer->max_record = len; /* sizes the ring it may get (conn.c) */
    /* a small message held back by flow control waits at its receiver
       as a large one does: cancellable there (a large one took its word
       when it started, shmpi_p2p_send_post_or_queue) */
    if (!eager && !r->claim)
        r->claim = shmpi_p2p_claim_take(peer->lane);
    void *data = rec;
    if (compact) {
        data = shmpi_p2p_msg_put_short(rec, r->tag, r->context, r->nbytes);
    } else {
        struct shmpi_msg *m = rec;
        *m = (struct shmpi_msg){
            .type = eager ? SHMPI_MSG_EAGER : SHMPI_MSG_RTS,
            .flags = (sync ? SHMPI_MSG_SYNC : 0) |
                     (sig ? SHMPI_MSG_SIGNED : 0),
            .tag = r->tag,
            .context = r->context, .claim = r->claim, .nbytes = r->nbytes,
            .cookie = (uintptr_t)r};
        data = m + 1;
    }
    if (eager)
        pack_eager(r, data);
    if (sig) { /* r may go once complete: let its record go first */
        memcpy((unsigned char *)data + (eager ? r->nbytes : 0), sig, tail);
        shmpi_p2p_sig_drop(r);
    }
    shmpi_p2p_chan_commit(peer, rec);
    shmpi_p2p_ring(peer);
    /* an eager standard send is done once its data is in the ring;
       synchronous ones wait for the ACK, large ones for the CTS */
    if (eager && !sync)
        shmpi_p2p_request_complete(r);
    return 1;
}

static __attribute__((noinline, cold)) int
post_signed(struct shmpi_peer *peer, struct shmpi_request *r)
{
    return post(peer, r, r->sig);
}

int shmpi_p2p_post_envelope(struct shmpi_peer *peer, struct shmpi_request *r)
{
    if (__builtin_expect(r->sig != NULL, 0))
        return post_signed(peer, r);
    return post(peer, r, NULL);
}

int shmpi_p2p_stream_some(struct shmpi_peer *peer, struct shmpi_request *r)
{
    uint64_t chunk = peer->chunk;
    int sent = 0;
    while (r->moved < r->granted) {
        uint64_t n = r->granted - r->moved < chunk ? r->granted - r->moved
                                                   : chunk;
        struct shmpi_msg *m = reserve(peer, sizeof *m + n);
        if (!m)
            break;
        *m = (struct shmpi_msg){.type = SHMPI_MSG_DATA, .nbytes = n,
                                .rcookie = r->rcookie, .offset = r->moved};
        shmpi_dt_pack(r->buf, r->datatype, r->moved, m + 1, n);
        shmpi_p2p_chan_commit(peer, m);
        r->moved += n;
        sent = 1;
    }
    if (sent)
        shmpi_p2p_ring(peer);
    return r->moved == r->granted;
}

int shmpi_p2p_send_post_or_queue(struct shmpi_request *r)
{
    struct shmpi_peer *peer;
    shmpi_p2p_count_send(r);
    if (r->peer == shmpi_proc.rank) {
        shmpi_p2p_local_send(r);
        return 0;
    }
    int rc = shmpi_p2p_peer_connect(r->lane, r->peer, &peer);
    if (rc != 0)
        return rc;
    /* a send that can wait at its receiver can be cancelled there */
    if (r->mode == SHMPI_MODE_SYNC ||
        r->nbytes > shmpi_proc.pt2pt->eager_limit)
        r->claim = shmpi_p2p_claim_take(r->lane);
    if (!peer->envelopes.head && shmpi_p2p_post_envelope(peer, r))
        return 0;
    shmpi_p2p_queue_push(&peer->envelopes, r);
    peer->waiting += shmpi_p2p_envelope_bytes(r);
    shmpi_p2p_backlog_add(r->lane, r->peer);
    return 0;
}

static int put_control(struct shmpi_peer *peer, const struct shmpi_msg *msg)
{
    struct shmpi_msg *m = reserve(peer, sizeof *m);
    if (!m)
        return 0;
    *m = *msg;
    shmpi_p2p_chan_commit(peer, m);
    return 1;
}

int shmpi_p2p_flush_controls(struct shmpi_peer *peer)
{
    struct shmpi_ctl *c;
    int sent = 0;
    while ((c = peer->ctl_head) && put_control(peer, &c->msg)) {
        peer->ctl_head = c->next;
        free(c);
        sent = 1;
    }
    if (sent)
        shmpi_p2p_ring(peer);
    if (!peer->ctl_head)
        peer->ctl_tail = NULL;
    return peer->ctl_head == NULL;
}

/* CTS and ACK: never block (we may be inside progress); queue instead. */
void shmpi_p2p_send_control(struct shmpi_lane *l, int rank,
                            const struct shmpi_msg *msg)
{
    struct shmpi_peer *peer;
    if (shmpi_p2p_peer_connect(l, rank, &peer) != 0)
        shmpi_core_fatal(MPI_ERR_NO_MEM, "MPI progress", l->outbox.why);
    if (!peer->ctl_head && put_control(peer, msg)) {
        shmpi_p2p_ring(peer);
        return;
    }
    struct shmpi_ctl *c = malloc(sizeof *c);
    if (!c)
        shmpi_core_fatal(MPI_ERR_NO_MEM, "MPI progress", "out of memory");
    c->msg = *msg;
    c->next = NULL;
    if (peer->ctl_tail)
        peer->ctl_tail->next = c;
    else
        peer->ctl_head = c;
    peer->ctl_tail = c;
    shmpi_p2p_backlog_add(l, rank);
}
