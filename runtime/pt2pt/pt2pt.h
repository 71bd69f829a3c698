/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pt2pt.h - this rank's point-to-point state: one entry per peer (the
 * channel to it and the ring from it, sends waiting for space), this
 * rank's outbox and mailbox, the queue of posted receives and the queue
 * of messages that arrived before their receive.
 */
#ifndef SHMPI_PT2PT_H
#define SHMPI_PT2PT_H

#include "core/lock_type.h"
#include "core/proc.h"
#include "core/fint.h"
#include "core/wait.h"
#include "datatypes/datatype.h"
#include "pt2pt/count.h"
#include "pt2pt/lane.h"
#include "pt2pt/part.h"
#include "pt2pt/proto.h"
#include "pt2pt/request.h"
#include "queues/mpsc.h"
#include "queues/outbox.h"
#include "queues/ring.h"

/* A FIFO of requests linked through request->next. */
struct shmpi_req_queue {
    struct shmpi_request *head, *tail;
};

/* A control record (CTS, ACK) that found the ring full. */
struct shmpi_ctl {
    struct shmpi_msg msg;
    struct shmpi_ctl *next;
};

struct shmpi_lane;
struct shmpi_peer {
    struct shmpi_lane *lane;   /* the lane this end belongs to */
    int rank;                  /* the peer's world rank */
    struct shmpi_lane_bell *bell; /* the peer's bell of this lane, rung
                                  after a record for it (core/wait.h) */
    struct shmpi_ring_tx tx;   /* the hot ring to the peer; tx.ring NULL:
                                  cold, through our outbox and its mailbox */
    struct shmpi_ring_rx rx;   /* the hot ring from the peer; rx.ring NULL:
                                  its records come through our mailbox */
    uint32_t cold_records;     /* records exchanged with it through the
                                  mailboxes, sent and received */
    int stays_cold;            /* its ring slots were all taken */
    /* what the channel takes (conn.c): the largest message sent eagerly
       and the largest DATA chunk - the job's SHMPI_EAGER_LIMIT and
       SHMPI_CHUNK, less on a hot ring too small for them */
    uint64_t eager_limit;
    uint64_t chunk;
    uint64_t max_record;       /* largest record body sent while cold */
    uint64_t full_head;        /* tx.head when the ring was last full */
    uint64_t retry_head;       /* a move for `waiting` waits for tx.head
                                  to pass this */
    uint64_t waiting;          /* ring bytes the sends in `envelopes` will
                                  take (shmpi_p2p_envelope_bytes) */
    uint32_t fulls;            /* times found full since its last size */
    uint32_t tx_slot, tx_half; /* where tx's ring is in the peer's slots */
    struct shmpi_req_queue envelopes; /* sends waiting to post EAGER/RTS */
    struct shmpi_req_queue streams;   /* sends streaming DATA after CTS */
    struct shmpi_ctl *ctl_head, *ctl_tail;
    int has_backlog;           /* in pt2pt.backlog: something above waits */
    struct shmpi_p2p_counts counts; /* for MPI_T (count.h) */
};

/* A message that arrived before its receive was posted. */
struct shmpi_unexpected;
struct shmpi_unexp_queue {
    struct shmpi_unexpected *head, *tail;
};

struct shmpi_unexpected {
    struct shmpi_unexpected *next;
    uint32_t context;
    int source;                /* world rank */
    int tag;
    int type;                  /* SHMPI_MSG_EAGER or SHMPI_MSG_RTS */
    int sync;                  /* the sender waits to hear of the match */
    uint32_t claim;            /* the sender's claim word, or 0 */
    uint64_t nbytes;
    uint64_t cookie;
    struct shmpi_request *local_send; /* a synchronous send to oneself */
    /* a large message pulled in before its receive (pull.c) */
    struct shmpi_request *pull;       /* moving it into `pulled` */
    unsigned char *pulled;
    struct shmpi_request *waiter;     /* a receive that matched meanwhile */
    struct shmpi_p2p_sig *sig; /* check mode: its send's signature, or
                                  NULL (sigcheck.h) */
    unsigned char data[];      /* EAGER payload */
};

/* MPI_Message: a message taken off the unexpected queue by MPI_Mprobe. */
struct shmpi_message {
    uint32_t magic;
    MPI_Comm comm;
    struct shmpi_unexpected *unexpected; /* NULL for MPI_MESSAGE_NO_PROC */
    int fint;                  /* its Fortran integer, or 0 (fint.h) */
};

/* unexpected.c: freed entries kept for reuse, by size class of payload. */
#define SHMPI_UNEXP_CLASSES 12 /* 64 B up to 64 << 11 = 128 KiB */
struct shmpi_unexp_cache {
    struct shmpi_unexpected *free[SHMPI_UNEXP_CLASSES];
    int count[SHMPI_UNEXP_CLASSES];
};

/* bsend.c: the buffer of MPI_Buffer_attach and the messages in it. */
struct shmpi_bsend_block;
struct shmpi_bsend_buffer {
    struct shmpi_core_lock lock; /* the process buffer's guards every
                                    buffer under mt; taken after a lane,
                                    never before one (bsend.c) */
    int is_attached;
    unsigned char *base;
    size_t size;
    struct shmpi_bsend_block *used; /* sorted by offset */
};

/* A lane: everything the progress engine and matching touch for the
   messages of the communicators that map to it - this rank's ends of
   the channels to its peers and what waits for them, its outbox and
   mailbox, the rings it polls, the posted and unexpected queues, the
   requests and unexpected entries kept for reuse, the claim cursor.
   A message travels in the lane of its context (shmpi_p2p_lane_of),
   at both ends, and is matched there only: MPI_ANY_SOURCE never
   crosses communicators, so it never crosses lanes either.  A request
   remembers its lane (shmpi_request.lane).  Each lane is a whole
   endpoint of the transport (conn.c): a mailbox, a bell and an outbox
   per (rank, lane), ring slots per (receiver, lane), so two threads on
   two communicators of different lanes share no word of it.  Every
   member is its lane's (lane.h says who may touch
   it).  A lane has cache lines of its own: its lock is written by
   every entry. */
struct shmpi_lane {
    _Alignas(SHMPI_CACHELINE)
    struct shmpi_lane_lock lock; /* lane.h: who may touch the rest */
    uint32_t index;            /* which lane: its post block, outbox and
                                  ring slots in the arena (conn.c) */
    unsigned char *base;       /* where offset 0 of the arena's file would
                                  be for this lane's region (its outboxes
                                  and rings, mapped on its own: conn.c);
                                  NULL until the lane is mapped, then
                                  fixed */
    struct shmpi_peer *peers;  /* indexed by world rank */
    struct shmpi_outbox_tx outbox; /* records to cold peers (conn.c) */
    struct shmpi_mpsc_rx mailbox;  /* records from cold peers */
    int *hot;                  /* world ranks whose rings we poll, at most
                                  SHMPI_FAST_RINGS */
    int nhot;
    int next_hot;              /* round-robin start: no sender starves */
    int *backlog;              /* peers with has_backlog set */
    int nbacklog;
    struct shmpi_req_queue posted;
    struct shmpi_unexp_queue *unexpected; /* one FIFO per source */
    int next_unexpected;       /* MPI_ANY_SOURCE takes sources in turn */
    /* request.c: released requests, linked through next */
    struct shmpi_request *free_requests;
    /* claim.c: where shmpi_p2p_claim_take looks first in the rank's
       claim table.  The claim words themselves are in the arena
       (atomics). */
    uint32_t claim_cursor;
    /* unexpected.c: entries kept for reuse */
    struct shmpi_unexp_cache unexp_cache;
};

/* This rank's point-to-point state: shmpi_proc.pt2pt, allocated by
   shmpi_p2p_init and kept until the process exits.  Nothing in it is
   shared with other processes (the rings are in the arena; these are
   this rank's ends of them).  What the lanes hold is theirs; the rest
   is per rank: limits set once at init, the flow counters (atomics,
   flow.h), the attached buffer (its own lock, bsend.c) and the shared
   complete request `sent` (immutable). */
struct shmpi_pt2pt {
    uint32_t lane_mask;        /* SHMPI_LANES - 1 (a power of two); set
                                  once at init */
    /* the lanes a communicator of this rank uses (bit i: lane i): their
       regions are mapped, and progress turns them (progress.c); set by
       shmpi_p2p_lane_map under map_lock with release after the lane's
       mapping and bases are written, loaded with acquire by whoever
       then reads them (progress.c, and the check of lane_map: a thread
       that uses a communicator made it or learnt of it through a
       synchronisation that orders the set as well) */
    _Atomic uint32_t lanes_used;
    struct shmpi_core_lock map_lock; /* maps a lane once (conn.c) */
    uint64_t eager_limit;      /* SHMPI_EAGER_LIMIT; set once at init */
    uint64_t pull_limit;       /* SHMPI_PULL_LIMIT_MB, in bytes; ditto */
    _Atomic uint64_t pulled_bytes; /* held for receives not yet posted */
    /* flow.c: memory held for messages before their receive (unexpected
       entries with their payload room, pulled data), its bound
       (SHMPI_UNEXPECTED_MB, in bytes; set once at init) and whether this
       rank last published itself over it (changed under flow_lock) */
    _Atomic uint64_t held;
    uint64_t held_limit;
    _Atomic int held_over;
    struct shmpi_core_lock flow_lock;
    /* match.c: messages on the unexpected queues of every lane, and the
       most there were since MPI_Init, for MPI_T (count.h) */
    _Atomic uint64_t unexp_len, unexp_peak;
    uint64_t chunk;            /* SHMPI_CHUNK; set once at init */
    uint64_t fast_after;       /* SHMPI_FAST_AFTER; ditto */
    uint64_t ring_min;         /* SHMPI_RING_MIN_KB, in bytes; ditto */
    uint32_t grow_after;       /* SHMPI_RING_GROW_AFTER; ditto */
    /* nonblocking.c: the request an MPI_Isend or MPI_Irsend hands out
       when the fast path (fastpath.c) already put its message in the
       ring: complete, never released (on_stack), never written after
       MPI_Init but for its Fortran number, shared by every such
       handle. */
    struct shmpi_request sent;
    /* bsend.c: MPI_Buffer_attach/detach and buffered sends; the progress
       engine frees blocks as their copies are delivered */
    struct shmpi_bsend_buffer bsend;
    /* part.c: partitioned receives and the sends announced to them */
    struct shmpi_p2p_part_match part;
    struct shmpi_lane lanes[]; /* lane_mask + 1 of them */
};

/* shmpi_p2p_request_alloc by a caller that holds lane l, or below
   MULTIPLE: the first of l's free list (whose requests are l's: a
   request goes back to the list of its lane), else a new one.  Inline:
   every MPI_Irecv takes one (2026-11-29, perf/run-perf pt2pt-count, 1
   B: MPI_Irecv 217 -> 209 instructions per message, 274 -> 264 under
   MULTIPLE). */
static inline struct shmpi_request *
shmpi_p2p_request_alloc_held(struct shmpi_lane *l)
{
    struct shmpi_request *r = l->free_requests;
    if (__builtin_expect(!r, 0))
        return shmpi_p2p_request_malloc(l);
    l->free_requests = r->next;
    return r;
}

/* Complete r, with its lane held under MULTIPLE.  Inline when it has no
   claim word, no on_complete and the program did not free it - a plain
   receive or send (2026-11-29, perf/run-perf pt2pt-count, 1 B: 6 to 7
   instructions less per message on the receiver than a call); under
   MULTIPLE too, where the lane is told that a request completed, so
   that it rings the doorbell when it is left (lane.h) - the waiter may
   be another thread, asleep (2026-11-29, COUNT_LEVEL=multiple: the
   receiver's MPI_Waitall 266 -> 249 instructions per message). */
static inline void shmpi_p2p_request_complete(struct shmpi_request *r)
{
    if (__builtin_expect(r->claim || r->on_complete || r->user_freed, 0)) {
        shmpi_p2p_request_complete_more(r);
        return;
    }
    if (__builtin_expect(shmpi_proc.mt, 0))
        r->lane->lock.completed = 1; /* under the lane: lane.h */
    shmpi_request_set_complete(r);
}

/* What r holds, let go before r goes back to its lane's free list: its
   communicator, its datatype, its Fortran number. */
static inline void shmpi_p2p_request_drop_refs(struct shmpi_request *r)
{
    if (r->comm)
        shmpi_core_comm_release(r->comm);
    if (r->datatype)
        shmpi_dt_release(r->datatype);
    shmpi_fint_drop(SHMPI_FINT_REQUEST, &r->fint);
    r->magic = 0;
}

/* r onto its lane's free list (the lane held, or below MULTIPLE). */
static inline void shmpi_p2p_request_push_free(struct shmpi_request *r)
{
    struct shmpi_lane *l = r->lane;
    r->next = l->free_requests;
    l->free_requests = r;
}

/* shmpi_p2p_request_release by a caller that holds r's lane, or below
   MULTIPLE.  Inline: it is the last step of every send and receive that
   MPI_Waitall hands out (2026-11-29, perf/run-perf pt2pt-count, 1 B:
   the receiver's MPI_Waitall 248 -> 231 instructions per message). */
static inline void shmpi_p2p_request_release_held(struct shmpi_request *r)
{
    if (r->on_stack)
        return;
    shmpi_p2p_request_drop_refs(r);
    shmpi_p2p_request_push_free(r);
}

/* Wake the threads of `rank` that wait for this lane of it (a record
   published for it, space freed that it waits for): core/wait.h.  The
   pair: the caller's release store that publishes (a record's seq, a
   mailbox link, the tail that frees space, a request's `complete`),
   then this load of the lane bell's count, in program order - kept by
   a seq_cst fence, or where the job has the global fence by the
   compiler alone; a sleeper's count on every lane's bell, then its
   fence (global where registered), then its last done() (core/wait.c,
   sleep_once).  The global fence runs a full fence on this CPU at some
   point of its program: after the store - done() sees the record - or
   before it, so before the load too - the load sees the count. */
static inline void shmpi_p2p_ring(struct shmpi_peer *peer)
{
    shmpi_core_lane_ring(peer->bell, peer->rank, peer->lane->index,
                         shmpi_proc.fence_registered);
}

/* lane.h's lock of a lane. */
static inline void shmpi_p2p_lane_enter(struct shmpi_lane *l)
{
    shmpi_p2p_lane_lock(&l->lock);
}

static inline int shmpi_p2p_lane_try(struct shmpi_lane *l)
{
    return shmpi_p2p_lane_trylock(&l->lock);
}

static inline void shmpi_p2p_lane_leave(struct shmpi_lane *l)
{
    shmpi_p2p_lane_unlock(&l->lock);
}

/* The lane of a context: a communicator's two contexts (point-to-point
   and the library's own, context + 1) share one, and every rank
   computes the same for a message (SHMPI_LANES is the job's).  Contexts
   come from a job-wide counter, two at a time (comm/), so successive
   communicators land on successive lanes: the threads of a program
   that dups a communicator per thread get distinct lanes, up to
   SHMPI_LANES of them.  A mask, not a division (tunables.c keeps the
   count a power of two): two instructions on every send and receive. */
static inline struct shmpi_lane *shmpi_p2p_lane_of(uint32_t context)
{
    struct shmpi_pt2pt *pt = shmpi_proc.pt2pt;
    return &pt->lanes[(context >> 1) & pt->lane_mask];
}

static inline uint32_t shmpi_p2p_nlanes(void)
{
    return shmpi_proc.pt2pt->lane_mask + 1;
}

/* A communicator of `context` is being made in this process: its lane
   is mapped, if it was not yet, and progress turns it from now on
   (conn.c).  MPI_SUCCESS, or MPI_ERR_NO_MEM with the reason (the bytes
   it needed) in shmpi_proc.open_why.  comm/ calls it before it
   gives a communicator a context. */
int shmpi_p2p_lane_map(uint32_t context);
/* Communicator c has its context, whose lane shmpi_p2p_lane_map mapped:
   c->lane is set.  comm/ calls it where it sets a context; MPI_Init for
   MPI_COMM_WORLD. */
void shmpi_p2p_comm_lane_set(MPI_Comm c);

/* The lane of a communicator's messages: c->lane, one load where
   shmpi_p2p_lane_of costs six instructions (2026-11-29, perf/run-perf
   pt2pt-count: MPI_Isend and MPI_Irecv of 1 B, 282 -> 288 and 234 ->
   240 instructions with the mask, against the one-lane tree). */
static inline struct shmpi_lane *shmpi_p2p_comm_lane(MPI_Comm c)
{
    return c->lane;
}

/* conn.c: MPI_Init; sets the stall hook (core/hooks.h).  0, or -1 when
   out of memory. */
int shmpi_p2p_init(void);
/* Before a send to world_rank: nothing for a hot pair; for a cold one
   (conn.c) moves the pair to a hot ring when its time has come, else
   reserves the outbox's pages for its next record.  0, or the errno of
   that reservation.  Inline: a hot pair's send pays no call. */
int shmpi_p2p_peer_connect_cold(struct shmpi_peer *peer);
static inline int shmpi_p2p_peer_connect(struct shmpi_lane *l, int world_rank,
                                         struct shmpi_peer **out)
{
    struct shmpi_peer *peer = &l->peers[world_rank];
    *out = peer;
    return peer->tx.ring ? 0 : shmpi_p2p_peer_connect_cold(peer);
}
/* About the ring bytes a send's envelope record takes: its header, and
   its data if eager-sized.  peer->waiting adds them up for the sends
   queued in peer->envelopes, so that conn.c can size a ring to them. */
static inline uint64_t shmpi_p2p_envelope_bytes(const struct shmpi_request *r)
{
    return SHMPI_CACHELINE +
           (r->nbytes <= shmpi_proc.pt2pt->eager_limit ? r->nbytes : 0);
}
/* The channel to a peer (its hot ring, or our outbox and its mailbox):
   space for a record body of len bytes, or NULL when there is none now
   (the receiver will ring our doorbell when it frees some); then
   publish it.  A record is at most the eager limit plus a header. */
void *shmpi_p2p_chan_reserve(struct shmpi_peer *peer, size_t len);
void shmpi_p2p_chan_commit(struct shmpi_peer *peer, void *body);
/* A CONNECT from world rank src: poll the ring of `bytes` in `half` of
   ring slot `slot` from now on (and give back the other half's pages,
   if src moved from there). */
void shmpi_p2p_hot_accept(struct shmpi_lane *l, int src, uint32_t slot,
                          uint32_t half, uint64_t bytes);
/* A message of nbytes is over the peer's eager limit but not the job's:
   move the pair to a ring that takes it if one can be had. */
void shmpi_p2p_ring_fit(struct shmpi_peer *peer, uint64_t nbytes);
/* The outbox flag (queues/outbox.h) of world rank's lane, in its post
   block. */
struct shmpi_outbox_flag *shmpi_p2p_outbox_flag(int world_rank,
                                                uint32_t lane);
void shmpi_p2p_backlog_add(struct shmpi_lane *l, int world_rank);

/* Does a message (context, source, tag) match a receive that wants
   (want_context, want_source, want_tag)?  Sources are world ranks, a
   negative want_source is MPI_ANY_SOURCE; want_tag may be MPI_ANY_TAG.
   The one test of 3.5's matching rule: match.c's queues and the fast
   receive (fastpath.c) both use it. */
static inline int shmpi_envelope_matches(uint32_t context, int source,
                                         int tag, uint32_t want_context,
                                         int want_source, int want_tag)
{
    return context == want_context &&
           (want_source < 0 || want_source == source) &&
           (want_tag == MPI_ANY_TAG || want_tag == tag);
}

/* queue helpers: inline, as every message is pushed and popped once
   (2026-11-29: 7 instructions of each push were the call's) */
static inline void shmpi_p2p_queue_push(struct shmpi_req_queue *q,
                                        struct shmpi_request *r)
{
    r->next = NULL;
    if (q->tail)
        q->tail->next = r;
    else
        q->head = r;
    q->tail = r;
}

static inline struct shmpi_request *
shmpi_p2p_queue_pop(struct shmpi_req_queue *q)
{
    struct shmpi_request *r = q->head;
    if (r && !(q->head = r->next))
        q->tail = NULL;
    return r;
}

/* Take r out of q; 0 if it was not there. */
int shmpi_p2p_queue_remove(struct shmpi_req_queue *q, struct shmpi_request *r);
/* The first posted receive matching a message after `after` (a posted
   receive that does not match it); *prev for unlinking. */
struct shmpi_request *shmpi_p2p_find_posted_after(struct shmpi_request *after,
                                                  uint32_t context, int source,
                                                  int tag,
                                                  struct shmpi_request **prev);

/* The first posted receive matching a message; *prev for unlinking.
   In order - a stream of messages each taking the oldest of a window of
   posted receives, osu_bw's case - it is the head: that case is tested
   here, inline, and costs the same however many receives wait behind
   it; the walk past the head is match.c's. */
static inline struct shmpi_request *
shmpi_p2p_find_posted(struct shmpi_lane *l, uint32_t context, int source,
                      int tag, struct shmpi_request **prev)
{
    struct shmpi_request *r = l->posted.head;
    *prev = NULL;
    if (!r || shmpi_envelope_matches(context, source, tag, r->context, r->peer,
                                     r->tag))
        return r;
    return shmpi_p2p_find_posted_after(r, context, source, tag, prev);
}

/* Take r (after prev, NULL at the head) off q. */
static inline void shmpi_p2p_queue_unlink(struct shmpi_req_queue *q,
                                          struct shmpi_request *prev,
                                          struct shmpi_request *r)
{
    if (prev)
        prev->next = r->next;
    else
        q->head = r->next;
    if (q->tail == r)
        q->tail = prev;
}

static inline void shmpi_p2p_unlink_posted(struct shmpi_lane *l,
                                           struct shmpi_request *prev,
                                           struct shmpi_request *r)
{
    shmpi_p2p_queue_unlink(&l->posted, prev, r);
}
/* The first message a receive (context, source, tag) matches; source -1
   takes the sources in turn.  Messages their senders cancelled are
   dropped on the way.  take: claim it and take it off the queue. */
struct shmpi_unexpected *shmpi_p2p_find_unexpected(struct shmpi_lane *l,
                                                   uint32_t context, int source,
                                                   int tag, int take);
int shmpi_p2p_unexpected_remove(struct shmpi_lane *l,
                                struct shmpi_unexpected *u);
void shmpi_p2p_unexpected_push(struct shmpi_lane *l,
                               struct shmpi_unexpected *u);

/* send.c */
/* A started send's first move (start.c's shmpi_p2p_start_send wraps it):
   to oneself, straight to the receive; else its envelope into the
   peer's channel, or queued behind what waits for it.  0, or the errno
   of reserving outbox pages (shmpi_p2p_peer_connect). */
int shmpi_p2p_send_post_or_queue(struct shmpi_request *r);
int shmpi_p2p_post_envelope(struct shmpi_peer *peer, struct shmpi_request *r);
int shmpi_p2p_stream_some(struct shmpi_peer *peer, struct shmpi_request *r);
void shmpi_p2p_send_control(struct shmpi_lane *l, int world_rank,
                            const struct shmpi_msg *m);
int shmpi_p2p_flush_controls(struct shmpi_peer *peer);

/* What a receive needs to know of the message it matched. */
struct shmpi_envelope {
    int source;                /* world rank */
    int tag;
    uint64_t nbytes;
    uint64_t cookie;           /* the sender's request */
    int sync;                  /* the sender waits to hear of the match */
    struct shmpi_request *local_send; /* a send to oneself, else NULL */
};

/* recv.c */
/* A started receive (start.c's shmpi_p2p_start_recv wraps it): takes the
   first unexpected message it matches, or goes on the posted queue. */
void shmpi_p2p_recv_match_or_post(struct shmpi_request *r);
void shmpi_p2p_deliver_eager(struct shmpi_request *r,
                             const struct shmpi_envelope *env,
                             const void *data);
/* The same for a SHORT record s (proto.h) from world rank source: no
   envelope to build, nobody to tell. */
void shmpi_p2p_deliver_short(struct shmpi_request *r, int source,
                             const struct shmpi_msg_short *s);
void shmpi_p2p_deliver_rts(struct shmpi_request *r,
                           const struct shmpi_envelope *env);
void shmpi_p2p_recv_data(const struct shmpi_msg *m, const void *data);
void shmpi_p2p_recv_unexpected(struct shmpi_request *r,
                               struct shmpi_unexpected *u);
void shmpi_p2p_local_send(struct shmpi_request *s);

/* unexpected.c: an entry with room for `payload` bytes of data (an
   EAGER message's nbytes, 0 otherwise), and giving it back (instead of
   malloc and free); the entry's type and nbytes must not change between */
struct shmpi_unexpected *shmpi_p2p_unexpected_alloc(struct shmpi_lane *l,
                                                    uint64_t payload);
void shmpi_p2p_unexpected_free(struct shmpi_unexpected *u);

/* pull.c */
void shmpi_p2p_recv_pulled(struct shmpi_request *r, struct shmpi_unexpected *u);


/* bsend.c */
int shmpi_p2p_bsend_start(const char *fn, struct shmpi_request *r);
void shmpi_p2p_bsend_drain(void);
/* A communicator's last release: the buffer it had attached goes. */
void shmpi_p2p_comm_buffer_free(MPI_Comm comm);
/* bsend.c: MPI_Session_finalize: the session's buffered messages
   delivered, its buffer freed. */
void shmpi_p2p_session_buffer_free(MPI_Session session);

#endif
