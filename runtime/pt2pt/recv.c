/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * recv.c - the receiving side: a receive meets its message (match.c
 * decides which), the data lands in the user's buffer, the status is
 * filled in, and the sender hears back when it needs to (proto.h).
 *
 * Only the receive buffer is ever written: a message longer than the
 * buffer delivers what fits and completes with MPI_ERR_TRUNCATE (3.2.4);
 * for a large message the receiver asks the sender for just that much.
 */
#include <stdlib.h>

#include "core/copy.h"
#include "core/error.h"
#include "core/proc.h"
#include "core/wait.h"
#include "datatypes/datatype.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/sigcheck.h"

/* Receive r met a message of nbytes from world rank source with tag.
   Inline, with the counts' hook taking the three as they are: a call,
   and an envelope built to pass them, were 20 of a 1-byte message's
   instructions (2026-11-29, perf/run-perf pt2pt-count). */
static inline void set_envelope_status(struct shmpi_request *r, int source,
                                       int tag, uint64_t nbytes)
{
    r->status.MPI_SOURCE = shmpi_comm_peer_from_world(r->comm, source);
    r->status.MPI_TAG = tag;
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->status.shmpi_cancelled = 0;
    r->status.shmpi_wsource = source;
    r->msg_bytes = nbytes;
    shmpi_p2p_count_recv(r, source, nbytes);
}

/* Receive r got `delivered` bytes of its message: its count, and the
   truncation if the message was longer (3.2.4). */
static inline void set_delivered(struct shmpi_request *r, uint64_t delivered)
{
    r->status.shmpi_nbytes = (MPI_Count)delivered;
    if (r->msg_bytes > delivered)
        r->error = MPI_ERR_TRUNCATE;
}

static void finish_recv(struct shmpi_request *r, uint64_t delivered)
{
    set_delivered(r, delivered);
    shmpi_p2p_request_complete(r);
}

static void tell_sender_matched(struct shmpi_lane *l,
                                const struct shmpi_envelope *env)
{
    if (env->local_send) {
        shmpi_p2p_request_complete(env->local_send);
        return;
    }
    struct shmpi_msg ack = {.type = SHMPI_MSG_ACK, .cookie = env->cookie};
    shmpi_p2p_send_control(l, env->source, &ack);
}

/* The data of an eager message (source, tag, nbytes) into receive r:
   its status set, what fits copied; returns the bytes copied. */
static inline __attribute__((always_inline)) uint64_t
put_eager(struct shmpi_request *r, int source, int tag, uint64_t nbytes,
          const void *data)
{
    set_envelope_status(r, source, tag, nbytes);
    uint64_t n = nbytes < r->nbytes ? nbytes : r->nbytes;
    /* a contiguous buffer takes the bytes without a call (2026-11-29:
       an 8-byte message's unpack and memcpy calls were 23 instructions,
       callgrind of osu_bw's window) */
    if (shmpi_datatype_contiguous(r->datatype))
        shmpi_copy_short(r->buf, data, n);
    else if (n)
        shmpi_dt_unpack(r->buf, r->datatype, 0, data, n);
    return n;
}

void shmpi_p2p_deliver_eager(struct shmpi_request *r,
                             const struct shmpi_envelope *env, const void *data)
{
    uint64_t n = put_eager(r, env->source, env->tag, env->nbytes, data);
    /* the sender hears of the match before r completes: a waiter may
       hand r out (and its memory go) as soon as it has */
    if (env->sync)
        tell_sender_matched(r->lane, env);
    finish_recv(r, n);
}

void shmpi_p2p_deliver_short(struct shmpi_request *r, int source,
                             const struct shmpi_msg_short *s)
{
    finish_recv(r, put_eager(r, source, s->tag, s->nbytes, s + 1));
}

void shmpi_p2p_deliver_rts(struct shmpi_request *r,
                           const struct shmpi_envelope *env)
{
    set_envelope_status(r, env->source, env->tag, env->nbytes);
    r->granted = env->nbytes < r->nbytes ? env->nbytes : r->nbytes;
    r->moved = 0;
    struct shmpi_msg cts = {.type = SHMPI_MSG_CTS, .nbytes = r->granted,
                            .cookie = env->cookie, .rcookie = (uintptr_t)r};
    shmpi_p2p_send_control(r->lane, env->source, &cts);
    if (r->granted == 0)
        finish_recv(r, 0);
}

void shmpi_p2p_recv_data(const struct shmpi_msg *m, const void *data)
{
    struct shmpi_request *r = (struct shmpi_request *)(uintptr_t)m->rcookie;
    shmpi_dt_unpack(r->buf, r->datatype, m->offset, data, m->nbytes);
    r->moved += m->nbytes;
    if (r->moved == r->granted)
        finish_recv(r, r->granted);
}

/* Check mode: the kept message's signature against r's (sigcheck.h),
   then let go. */
static __attribute__((noinline, cold)) void
check_kept(const struct shmpi_request *r, struct shmpi_unexpected *u)
{
    shmpi_p2p_sig_check(r, u->source, u->tag, u->nbytes, u->sig);
    free(u->sig);
    u->sig = NULL;
}

/* Receive a message already taken off the unexpected queue. */
void shmpi_p2p_recv_unexpected(struct shmpi_request *r,
                               struct shmpi_unexpected *u)
{
    if (__builtin_expect(u->sig != NULL, 0))
        check_kept(r, u);
    if (u->pull) {
        shmpi_p2p_recv_pulled(r, u);
        return;
    }
    struct shmpi_envelope env = {u->source, u->tag, u->nbytes, u->cookie,
                                 u->sync, u->local_send};
    if (u->type == SHMPI_MSG_EAGER)
        shmpi_p2p_deliver_eager(r, &env, u->data);
    else
        shmpi_p2p_deliver_rts(r, &env);
    shmpi_p2p_unexpected_free(u);
}

/* The SHORT record s from world rank source into receive r, which its
   own start meets with it (take_from_ring).  Nobody waits for r yet:
   its handle reaches the program only when its start returns (a
   blocking receive's never does), so no thread can hold it.  So the
   lane is not told of this completion
   (lane.h's `completed`, whose leave rings the lane's bell: a fence on
   every MPI_Irecv of a receiver behind its sender under MULTIPLE,
   2026-11-29, perf/run-perf pt2pt-count COUNT_LEVEL=multiple, 1 B,
   mode r: MPI_Irecv 408 -> 356 instructions per message), unless r
   has more to do as it completes (a part of MPI_Isendrecv:
   on_complete).  A receive has no claim word. */
static void take_short(struct shmpi_request *r, int source,
                       const struct shmpi_msg_short *s)
{
    set_delivered(r, put_eager(r, source, s->tag, s->nbytes, s + 1));
    if (__builtin_expect(r->on_complete || r->user_freed, 0))
        shmpi_p2p_request_complete_more(r);
    else
        shmpi_request_set_complete(r);
}

/* A receive with nothing posted before it, from a hot source with
   nothing unexpected, whose message is already the next record of that
   source's ring: delivered from there at once, as the progress engine
   would deliver it (progress.c, handle), instead of being posted for
   the engine to meet.  That is a receiver behind its sender, the slower
   side of a stream: 2026-11-29, perf/run-perf pt2pt-count, 1 B, mode r
   (messages in the ring before their MPI_Irecv): MPI_Irecv and
   MPI_Waitall 472 -> 439 instructions per message (receives posted
   before their messages arrive, mode p, pay 7 more for the look).  Only
   a SHORT record (proto.h: an eager message nobody waits to hear of,
   not cancellable) is taken; anything else - a synchronous or
   cancellable send's, a control record - and a message for another
   receive leave r to be posted as before; the record is consumed only
   once delivered. */
static int take_from_ring(struct shmpi_lane *l, struct shmpi_request *r)
{
    struct shmpi_ring_rx *rx = &l->peers[r->peer].rx;
    if (l->posted.head || !rx->ring)
        return 0;
    const struct shmpi_msg_short *s = shmpi_ring_peek(rx);
    if (!s || s->type != SHMPI_MSG_SHORT ||
        !shmpi_envelope_matches(s->context, r->peer, s->tag, r->context,
                                r->peer, r->tag))
        return 0;
    int src = r->peer; /* r may go once delivered */
    take_short(r, src, s);
    shmpi_ring_consume(rx);
    if (shmpi_ring_publish(rx))
        shmpi_p2p_ring(&l->peers[src]);
    return 1;
}

void shmpi_p2p_recv_match_or_post(struct shmpi_request *r)
{
    struct shmpi_lane *l = r->lane;
    /* a wildcard receive takes in what the rings hold first, so that it
       chooses among all senders, not just those already drained (a
       receive from one source gains nothing by it: its messages would
       only be copied aside) */
    if (r->peer < 0)
        shmpi_p2p_progress();
    else if (!l->unexpected[r->peer].head) {
        /* nothing from that source waits: post it without a search (a
           window of receives posted ahead of their messages, osu_bw's:
           2026-11-29, 47 instructions of each MPI_Irecv's 262 were
           the search of an empty queue), unless its message is there */
        if (!take_from_ring(l, r))
            shmpi_p2p_queue_push(&l->posted, r);
        return;
    }
    struct shmpi_unexpected *u =
        shmpi_p2p_find_unexpected(l, r->context, r->peer, r->tag, 1);
    if (u)
        shmpi_p2p_recv_unexpected(r, u);
    else
        shmpi_p2p_queue_push(&l->posted, r);
}

/* A send to oneself: straight into the matching receive, or held as an
   unexpected message (a synchronous one completes when matched). */
void shmpi_p2p_local_send(struct shmpi_request *s)
{
    struct shmpi_lane *l = s->lane;
    int sync = s->mode == SHMPI_MODE_SYNC;
    struct shmpi_unexpected *u = shmpi_p2p_unexpected_alloc(l, s->nbytes);
    if (!u)
        shmpi_core_fatal(MPI_ERR_NO_MEM, "MPI send to self",
                         "no memory to hold the message");
    *u = (struct shmpi_unexpected){
        .context = s->context, .source = shmpi_proc.rank, .tag = s->tag,
        .type = SHMPI_MSG_EAGER, .sync = sync, .nbytes = s->nbytes,
        .local_send = sync ? s : NULL};
    if (s->nbytes)
        shmpi_dt_pack(s->buf, s->datatype, 0, u->data, s->nbytes);
    u->sig = s->sig; /* the message's now (check mode; else NULL) */
    s->sig = NULL;
    struct shmpi_request *prev;
    struct shmpi_request *r =
        shmpi_p2p_find_posted(l, s->context, shmpi_proc.rank, s->tag, &prev);
    if (r) {
        shmpi_p2p_unlink_posted(l, prev, r);
        if (u->sig)
            check_kept(r, u);
        struct shmpi_envelope env = {shmpi_proc.rank, s->tag, s->nbytes, 0,
                                     sync, u->local_send};
        shmpi_p2p_deliver_eager(r, &env, u->data);
        shmpi_p2p_unexpected_free(u);
    } else {
        shmpi_p2p_unexpected_push(l, u);
    }
    if (!sync)
        shmpi_p2p_request_complete(s);
}
