/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * progress.c - where incoming records are read and dispatched, and where
 * sends that found no space are retried.
 *
 * One turn: a batch off this rank's mailbox (the cold pairs, conn.c),
 * then the hot rings round robin, starting one source further on each
 * call, so a busy sender cannot starve the others of MPI_ANY_SOURCE
 * receives; then the backlog, then the hooks.  The cost of a turn with
 * nothing to do is one load for the mailbox and one per hot ring (at
 * most SHMPI_FAST_RINGS), whatever the number of ranks.  A batch of ring
 * records is consumed before `tail` is handed back (one store for many
 * records); if the sender waits for that space, its doorbell is rung.
 *
 * Then the progress hooks that rooms above registered and armed
 * (core/hooks.h): the schedules of the nonblocking collectives (coll).
 * pt2pt names nothing above itself; a hook is called only while armed,
 * so an idle one costs the test of one word.
 */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/hooks.h"
#include "core/proc.h"
#include "core/wait.h"
#include "pt2pt/claim.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/sigcheck.h"

#define BATCH 64               /* records per ring per call */

/* Keep a message no receive wanted yet (a large one may be pulled in
   later, pull.c), with its send's signature sig (check mode: a copy of
   its own, sigcheck.h) or none. */
static inline void stash_unexpected(struct shmpi_lane *l, int src,
                                    const struct shmpi_msg *m,
                                    const void *payload, const void *sig)
{
    uint64_t data = m->type == SHMPI_MSG_EAGER ? m->nbytes : 0;
    struct shmpi_unexpected *u = shmpi_p2p_unexpected_alloc(l, data);
    if (!u)
        shmpi_core_fatal(MPI_ERR_NO_MEM, "MPI progress",
                         "no memory to hold a message that arrived before its "
                         "receive");
    *u = (struct shmpi_unexpected){
        .context = m->context, .source = src, .tag = m->tag,
        .type = m->type, .sync = (m->flags & SHMPI_MSG_SYNC) != 0,
        .claim = m->claim, .nbytes = m->nbytes, .cookie = m->cookie};
    memcpy(u->data, payload, data);
    if (sig)
        u->sig = shmpi_p2p_sig_keep(sig);
    shmpi_p2p_unexpected_push(l, u);
}

/* An EAGER or RTS record, signed (sig: its send's signature, check
   mode) or not: one body, specialised for each (send.c's post). */
static inline __attribute__((always_inline)) void
envelope_in(struct shmpi_lane *l, int src, const struct shmpi_msg *m,
            const void *data, const struct shmpi_p2p_sig *sig)
{
    struct shmpi_request *prev;
    struct shmpi_request *r =
        shmpi_p2p_find_posted(l, m->context, src, m->tag, &prev);
    struct shmpi_envelope env = {src, m->tag, m->nbytes, m->cookie,
                                 (m->flags & SHMPI_MSG_SYNC) != 0, NULL};
    if (!r) {
        stash_unexpected(l, src, m, data, sig);
        return;
    }
    if (!shmpi_p2p_claim_match(src, m->claim))
        return; /* cancelled by its sender: the receive stays posted */
    shmpi_p2p_unlink_posted(l, prev, r);
    if (sig)
        shmpi_p2p_sig_check(r, src, m->tag, m->nbytes, sig);
    if (m->type == SHMPI_MSG_EAGER)
        shmpi_p2p_deliver_eager(r, &env, data);
    else
        shmpi_p2p_deliver_rts(r, &env);
}

/* The signature follows the data, unaligned: copied out first. */
static __attribute__((noinline, cold)) void
handle_signed(struct shmpi_lane *l, int src, const struct shmpi_msg *m,
              const void *data)
{
    struct shmpi_p2p_sig sig;
    memcpy(&sig, (const unsigned char *)data +
                     (m->type == SHMPI_MSG_EAGER ? m->nbytes : 0),
           sizeof sig);
    envelope_in(l, src, m, data, &sig);
}

static void handle_envelope(struct shmpi_lane *l, int src,
                            const struct shmpi_msg *m, const void *data)
{
    if (__builtin_expect(m->flags & SHMPI_MSG_SIGNED, 0))
        handle_signed(l, src, m, data);
    else
        envelope_in(l, src, m, data, NULL);
}

static void handle_cts(struct shmpi_lane *l, int src,
                       const struct shmpi_msg *m)
{
    struct shmpi_request *s = (struct shmpi_request *)(uintptr_t)m->cookie;
    s->granted = m->nbytes;
    s->rcookie = m->rcookie;
    s->moved = 0;
    shmpi_p2p_queue_push(&l->peers[src].streams, s);
    shmpi_p2p_backlog_add(l, src);
}

/* A SHORT record (proto.h): an eager standard send's, with no claim,
   no cookie and nobody to tell - every message of a stream of small
   ones.  Met with its posted receive from the short header itself:
   widening it into the full one (shmpi_p2p_msg_read) and building the
   envelope were 30 of the receiver's instructions per 1-byte message
   (2026-11-29, perf/run-perf pt2pt-count, mode p).  With no receive
   posted for it, it is kept as any other. */
static void handle_short(struct shmpi_lane *l, int src,
                         const struct shmpi_msg_short *s)
{
    struct shmpi_request *prev;
    struct shmpi_request *r =
        shmpi_p2p_find_posted(l, s->context, src, s->tag, &prev);
    if (!r) {
        struct shmpi_msg m;
        const void *data = shmpi_p2p_msg_read(s, &m);
        stash_unexpected(l, src, &m, data, NULL);
        return;
    }
    shmpi_p2p_unlink_posted(l, prev, r);
    shmpi_p2p_deliver_short(r, src, s);
}

/* A record's body, from a ring or the mailbox (proto.h's reader: SHORT
   comes out as EAGER). */
static void handle(struct shmpi_lane *l, int src, const void *rec)
{
    if (((const struct shmpi_msg_short *)rec)->type == SHMPI_MSG_SHORT) {
        handle_short(l, src, rec);
        return;
    }
    struct shmpi_msg m;
    const void *data = shmpi_p2p_msg_read(rec, &m);
    switch (m.type) {
    case SHMPI_MSG_EAGER:
    case SHMPI_MSG_RTS:
        handle_envelope(l, src, &m, data);
        break;
    case SHMPI_MSG_CTS:
        handle_cts(l, src, &m);
        break;
    case SHMPI_MSG_DATA:
        shmpi_p2p_recv_data(&m, data);
        break;
    case SHMPI_MSG_ACK:
        shmpi_p2p_request_complete(
            (struct shmpi_request *)(uintptr_t)m.cookie);
        break;
    case SHMPI_MSG_CONNECT:
        shmpi_p2p_hot_accept(l, src, (uint32_t)m.offset,
                             (uint32_t)m.cookie, m.nbytes);
        break;
    }
}

/* A batch off the mailbox: records of cold pairs, from any rank, in the
   order each sender pushed them; each is finished (done) at once - its
   data was copied or matched - and its owner woken if it waits for
   outbox space. */
static int drain_mailbox(struct shmpi_lane *l)
{
    int n = 0;
    uint64_t off;
    if (!shmpi_mpsc_maybe_nonempty(&l->mailbox))
        return 0;
    while (n < BATCH && (off = shmpi_mpsc_pop(&l->mailbox))) {
        struct shmpi_outbox_rec *rec =
            shmpi_outbox_rec_at(l->mailbox.base, off);
        int src = rec->src;
        handle(l, src, shmpi_outbox_body(rec));
        l->peers[src].cold_records++; /* toward a ring to src (conn.c) */
        if (shmpi_outbox_done(rec, shmpi_p2p_outbox_flag(src, l->index)))
            shmpi_p2p_ring(&l->peers[src]);
        n++;
    }
    return n;
}

static int drain(struct shmpi_lane *l, int src)
{
    struct shmpi_ring_rx *rx = &l->peers[src].rx;
    int n = 0;
    const void *rec;
    while (n < BATCH && (rec = shmpi_ring_peek(rx))) {
        /* consume only moves our private position: the record stays ours
           to read until publish hands its space back, after handle */
        shmpi_ring_consume(rx);
        handle(l, src, rec); /* CONNECT moves rx to the pair's new ring */
        n++;
    }
    /* space goes back once per batch: handing each quarter back as soon
       as it is read, so that a sender that filled the ring refills it
       while we copy the rest, streamed 4 KiB at 7.2-7.7 GB/s near
       against 11.9-17.4 for this (2026-11-29, quiet machine, osu_bw
       pattern, ./mpirun -np 2 --bind-to core pt2pt -t bw -s 4K, 3 runs
       each, alternated; far: the same), most likely because the two
       cores then write and read neighbouring lines of the ring at once */
    if (n && shmpi_ring_publish(rx))
        shmpi_p2p_ring(&l->peers[src]);
    return n;
}

/* Flush what waits for peer `rank`; 1 when nothing is left. */
static int serve_peer(struct shmpi_lane *l, int rank, int *events)
{
    struct shmpi_peer *peer = &l->peers[rank];
    if (!shmpi_p2p_flush_controls(peer))
        return 0;
    struct shmpi_request *r;
    while ((r = peer->envelopes.head)) {
        /* what the pop and the count read of r is read before the post:
           a send the post completes may be released at once by its
           on_complete (a buffered send's copy, a part of MPI_Isendrecv),
           and its next then links the free list */
        uint64_t bytes = shmpi_p2p_envelope_bytes(r);
        struct shmpi_request *next = r->next;
        if (!shmpi_p2p_post_envelope(peer, r))
            break;
        if (!(peer->envelopes.head = next))
            peer->envelopes.tail = NULL;
        peer->waiting -= bytes;
        ++*events;
    }
    while ((r = peer->streams.head) && shmpi_p2p_stream_some(peer, r)) {
        shmpi_p2p_queue_pop(&peer->streams);
        shmpi_p2p_request_complete(r);
        ++*events;
    }
    return !peer->envelopes.head && !peer->streams.head;
}

static int serve_backlog(struct shmpi_lane *l)
{
    int events = 0, kept = 0;
    for (int i = 0; i < l->nbacklog; i++) {
        int rank = l->backlog[i];
        if (serve_peer(l, rank, &events))
            l->peers[rank].has_backlog = 0;
        else
            l->backlog[kept++] = rank;
    }
    l->nbacklog = kept;
    return events;
}

/* One turn over lane l's channels and backlog. */
static int progress_lane(struct shmpi_lane *l)
{
    int events = 0;
    if (l->mailbox.q) /* a job of one has none */
        events += drain_mailbox(l);
    int n = l->nhot;
    for (int i = 0; i < n; i++)
        events += drain(l, l->hot[(l->next_hot + i) % n]);
    if (n)
        l->next_hot = (l->next_hot + 1) % n;
    if (l->nbacklog)
        events += serve_backlog(l);
    return events;
}

/* Every lane a communicator of this rank uses, not only the caller's
   (MPI-3.1 3.7.4 and 3.8: a wait must let every pending operation
   progress): rank 0 Isend(large, comm B) then Recv(comm A) while rank 1
   Recv(B) then Send(A) - rank 0 must stream B's data while it waits on
   A, or both wait forever (test/p2p_lanes_progress.c).  A turn of an
   idle lane is one load of its mailbox's line; lanes no communicator of
   this rank maps to are not looked at (lanes_used: a message can only
   come in a lane of a communicator this rank belongs to, made before
   any of its messages could be sent here), so a program of one
   communicator turns one lane, as before lanes.  Under MULTIPLE a lane
   whose watch says it is quiet is not even tried (lane.c: a look that
   writes nothing, so waiters of other lanes leave its lines alone), and
   a lane another thread holds is skipped: that thread is progressing it
   (lane.h: it rings the doorbell when it leaves, if this try made a
   waiter give up); one lane at a time, never two held at once.  The
   hooks armed in a lane run with it held: coll's schedules of that lane
   (coll/sched.c). */
int shmpi_p2p_progress(void)
{
    struct shmpi_pt2pt *pt = shmpi_proc.pt2pt;
    int events = 0;
    /* acquire: a lane's bit is set after its mapping (conn.c) */
    uint32_t used =
        atomic_load_explicit(&pt->lanes_used, memory_order_acquire);
    for (; used; used &= used - 1) {
        struct shmpi_lane *l = &pt->lanes[__builtin_ctz(used)];
        if (__builtin_expect(shmpi_proc.mt, 0) &&
            (shmpi_p2p_lane_quiet_mt(&l->lock) ||
             !shmpi_p2p_lane_try_mt(&l->lock)))
            continue;
        events += progress_lane(l);
        events += shmpi_progress_hooks(l->index);
        shmpi_p2p_lane_leave(l);
    }
    /* relaxed: a count of "something moved" that waiters compare
       (wait.c); under MULTIPLE threads progressing two lanes both add
       (an add, lost by neither); below it one thread, a plain add */
    if (__builtin_expect(shmpi_proc.mt, 0))
        atomic_fetch_add_explicit(&shmpi_proc.progress_events,
                                  (uint64_t)events, memory_order_relaxed);
    else
        atomic_store_explicit(
            &shmpi_proc.progress_events,
            atomic_load_explicit(&shmpi_proc.progress_events,
                                 memory_order_relaxed) + (uint64_t)events,
            memory_order_relaxed);
    return events;
}

static int backlog_empty(void *arg)
{
    (void)arg;
    shmpi_p2p_progress();
    int left = 0;
    for (uint32_t i = 0; i < shmpi_p2p_nlanes(); i++) {
        struct shmpi_lane *l = &shmpi_proc.pt2pt->lanes[i];
        shmpi_p2p_lane_enter(l);
        left |= l->nbacklog;
        shmpi_p2p_lane_leave(l);
    }
    return !left;
}

void shmpi_p2p_progress_flush_backlog(void)
{
    shmpi_core_wait_until(backlog_empty, NULL);
}
