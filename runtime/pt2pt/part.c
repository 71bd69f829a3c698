/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * part.c - partitioned communication (MPI-4.0 4): MPI_Psend_init,
 * MPI_Precv_init, MPI_Pready, MPI_Pready_range, MPI_Pready_list,
 * MPI_Parrived, and the operations of their requests (kind
 * SHMPI_REQ_PART) that MPI_Start, the Wait/Test family,
 * MPI_Request_get_status, MPI_Cancel and MPI_Request_free call.
 *
 * THE DESIGN.  Both ranks are processes of one machine, but a program's
 * buffers are private memory, so the sender cannot write into the
 * receiver's buffer with a store.  The two ways into it are a system
 * call (process_vm_writev, which the kernel refuses under some ptrace
 * policies, and which costs a call per partition) or memory both map.
 * This file takes the second: each partitioned send owns a memfd
 * segment, made at MPI_Psend_init and mapped by its receiver when they
 * match:
 *
 *   struct seg: matched, consumed, flag[2][sender's partitions],
 *               staging area 0, staging area 1
 *
 * MPI_Pready(i) packs partition i straight into its place in the staging
 * area and stores the round number in flag[i] with release (then rings
 * the receiver's doorbell); the receiver - MPI_Parrived, Test, Wait -
 * reads the flags of the sender's partitions that its partition j
 * covers with acquire, and once they all hold the current round, unpacks
 * j from the staging area into its buffer.  So a partition moves the
 * moment it is readied, with no message and no other partition waited
 * for, and the receiver sees it as soon as it landed: two copies (pack,
 * unpack), the same as an eager message, none of them through a ring,
 * and derived datatypes at either end cost nothing more (the staging
 * area holds the packed form).  A message would cost a record per
 * partition through the pair's ring and an extra match; a
 * process_vm_writev single copy is the next step where the kernel
 * allows it (the receiver would publish its buffer's address instead).
 *
 * Different partitionings (4.2.3: only the type signatures must match)
 * fall out of the packed form: sender partition i is packed bytes
 * [i*sb, (i+1)*sb), receiver partition j is [j*rb, (j+1)*rb), and j has
 * arrived when every sender partition that overlaps it has.
 *
 * Rounds.  Both requests count their MPI_Starts (`round`, from 1); a
 * flag holding the current round says "this round's data is there".
 * There are two staging areas (and two sets of flags), used by odd and
 * even rounds, so that the sender may pack round r + 1 while the
 * receiver still unpacks round r.  It may pack round r only once the
 * receiver has unpacked round r - 2 from the same area, which the
 * receiver says by storing r - 2 into `consumed` (release, after its
 * last unpack of that round); the sender loads it with acquire before
 * it overwrites a partition.  A send's round r completes only once
 * the receiver has completed round r - 1, so when the program readies
 * a partition of round r + 1 the area is always free: MPI_Pready packs
 * at once, never leaving a partition for a later call to move (a
 * sender blocked elsewhere - waiting for a message from the receiver
 * that waits for the partition - would never move it).  Waiting for the
 * receiver's previous round cannot deadlock a correct program: the
 * receiver has to complete round r - 1 before it can start round r,
 * with or without the sender.
 *
 * Matching (4.2.1/4.2.2): the init calls are local and match by
 * (communicator, source, tag) in the order of the init calls, and only
 * partitioned inits match each other.  MPI_Psend_init sends an
 * announcement (the segment: pid, fd, partitioning) as a library
 * message on the communicator's internal context, tag SHMPI_TAG_PART,
 * so that no program receive can take it and pairs keep their order.
 * The receiving rank posts receives of announcements (`pipes`) from a
 * source, as many as partitioned receives from it wait; an announcement
 * that arrives goes to the earliest waiting receive of its tag, or is
 * parked until one is initialised (struct shmpi_p2p_part_match, in
 * shmpi_proc.pt2pt, under its lock).  Arrival runs in the progress
 * engine (the pipe's on_complete); the matching itself and the posting
 * of pipes run in the receive's own calls (init, Start, Parrived,
 * Test/Wait), never inside progress.  The receiver maps the segment
 * through /proc/<pid>/fd/<fd> (as windows over MPI_Alloc_mem memory are
 * mapped, rma/map.c) and sets `matched`; the sender closes its
 * descriptor when it sees that.  A send completes once all its
 * partitions are packed and its receiver matched: the segment then
 * lives on in the receiver's mapping whatever the sender frees.
 *
 * Refusal.  Opening another process's descriptor is an access of the
 * ptrace kind: the kernel refuses it where the sender is not dumpable,
 * under Yama's ptrace_scope, or between users.  A receiver that cannot
 * map has no segment to say so in, so the announcement names a reply
 * tag (SHMPI_TAG_PART_REFUSED + the send's number), on which the sender
 * posted a receive before announcing; the receiver sends the error and
 * errno back there, and both requests complete with the error, now and
 * in every later round.  The sender withdraws that receive once it sees
 * `matched`, or when the request is freed.
 *
 * Threads (MPI_THREAD_MULTIPLE, the hybrid case: threads of one rank
 * ready partitions of one request at once).  Nothing here takes a lane.
 * Each partition of each side has a state word that says, per round,
 * where it is: sender 3r-2 readied, 3r-1 being packed, 3r packed;
 * receiver 2r-1 being unpacked, 2r unpacked; anything less: not yet this
 * round (so a start resets nothing).  A partition moves by a CAS of its
 * word, so two threads never copy one partition; `done` counts the
 * partitions moved in the round (acq_rel fetch_add: the thread whose add
 * makes it whole has seen every other mover's copy, through the release
 * sequence of `done`), and `finished` (an exchange) lets one thread
 * complete the request.  A request completed by a thread other than the
 * waiting one rings the rank's own doorbell: the waiter may sleep.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/check.h"
#include "core/error.h"
#include "core/live.h"
#include "core/lock.h"
#include "core/memseg.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/wait.h"
#include "datatypes/check.h"
#include "datatypes/datatype.h"
#include "pt2pt/internal.h"
#include "pt2pt/part.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/start.h"

SHMPI_WEAK_ALIAS(Psend_init)
SHMPI_WEAK_ALIAS(Precv_init)
SHMPI_WEAK_ALIAS(Pready)
SHMPI_WEAK_ALIAS(Pready_range)
SHMPI_WEAK_ALIAS(Pready_list)
SHMPI_WEAK_ALIAS(Parrived)

/* The segment's head, shared by the pair; the staging areas follow the
   flags, each on a cache line of its own (stage_of). */
struct seg {
    _Atomic uint32_t matched;  /* SEG_MATCHED / SEG_REFUSED, by the
                                  receiver (release) */
    uint32_t unused;
    _Atomic uint64_t consumed; /* rounds the receiver has unpacked */
    _Atomic uint64_t flag[];   /* per staging area (2) and sender
                                  partition: the last round packed into
                                  it (release) */
};
#define SEG_MATCHED 1u
#define SEG_REFUSED 2u         /* the sizes differ: both sides fail */

/* The announcement of a partitioned send. */
struct hello {
    int32_t tag;
    int32_t pid;
    int32_t fd;
    int32_t reply;             /* the tag of a refusal (top comment) */
    uint64_t parts;
    uint64_t part_bytes;
    uint64_t seg_bytes;
};

/* What a receiver that cannot map a segment sends back. */
struct refusal {
    int32_t err;               /* the error class */
    int32_t errnum;            /* errno of the open or the mmap */
};

/* A receive of announcements from (context, source), posted by the
   receiving rank; parked once arrived until a receive takes it. */
struct shmpi_p2p_part_pipe {
    struct shmpi_request rq;   /* first: on_complete gets &rq */
    struct hello msg;
    struct shmpi_p2p_part_key *key;
    struct shmpi_p2p_part_pipe *next;
};

/* Per (context, source) a rank has received partitioned messages from:
   the pipes posted (kept equal to the receives waiting,
   sync_matches). */
struct shmpi_p2p_part_key {
    uint32_t context;
    int source;
    int posted;
    struct shmpi_p2p_part_pipe *pipes;
    struct shmpi_p2p_part_key *next;
};

enum { MS_NONE, MS_BUSY, MS_DONE, MS_FAILED };

struct shmpi_p2p_part {
    struct shmpi_request *req;
    int send;                  /* 1: MPI_Psend_init's */
    int parts;                 /* this side's partitions */
    uint64_t part_bytes;       /* packed bytes of one of them */
    uint64_t total;
    uint64_t round;            /* MPI_Starts so far */
    struct seg *seg;
    size_t seg_bytes;
    unsigned char *stage;      /* the first staging area */
    uint64_t stride;           /* from one staging area to the other */
    uint64_t sparts;           /* the sender's partitions */
    _Atomic uint64_t *state;   /* per partition (top comment) */
    _Atomic uint64_t done;     /* partitions moved this round */
    _Atomic uint8_t finished;  /* this round's completion is claimed */
    /* sender */
    int fd;                    /* the memfd, until the receiver mapped */
    struct shmpi_request ann;  /* the announcement's send */
    struct hello msg;
    _Atomic int nack_posted;   /* nack is a posted receive of a refusal */
    _Atomic int refused;       /* it arrived (release, by nack's
                                  on_complete) */
    /* both: the refusal's receive (sender) or send (receiver) */
    struct shmpi_request nack;
    struct refusal why;
    /* receiver */
    uint64_t spart_bytes;      /* packed bytes of a sender partition */
    int err;                   /* a failed match */
    int nack_sent;             /* nack is the refusal's send */
    _Atomic int mapstate;
    _Atomic(struct shmpi_p2p_part_pipe *) hello; /* matched (release) */
    uint32_t context;
    int source, tag;           /* ranks of the communicator */
    MPI_Comm comm;
    struct shmpi_p2p_part *next; /* in the waiting list */
};

static uint64_t line_up(uint64_t n)
{
    return (n + 63) & ~(uint64_t)63;
}

static size_t stage_offset(uint64_t sparts)
{
    return line_up(sizeof(struct seg) + 2 * sparts * sizeof(uint64_t));
}

/* Round r's staging area and sender partition i's flag in it. */
static unsigned char *stage_of(struct shmpi_p2p_part *P, uint64_t r)
{
    return P->stage + (r & 1) * P->stride;
}

static _Atomic uint64_t *flag_of(struct shmpi_p2p_part *P, uint64_t r,
                                 uint64_t i)
{
    return &P->seg->flag[(r & 1) * P->sparts + i];
}

static struct shmpi_p2p_part_match *matcher(void)
{
    return &shmpi_proc.pt2pt->part;
}

/* ---- matching (receiving rank) ---- */

static struct shmpi_p2p_part_key *key_of(struct shmpi_p2p_part_match *m,
                                         uint32_t context, int source)
{
    for (struct shmpi_p2p_part_key *k = m->keys; k; k = k->next)
        if (k->context == context && k->source == source)
            return k;
    struct shmpi_p2p_part_key *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->context = context;
    k->source = source;
    k->next = m->keys;
    m->keys = k;
    return k;
}

/* The progress engine completed a pipe (under its lane): park it.  Lock
   order: lane, then the matcher's lock; nothing here takes a lane while
   holding it. */
static void pipe_arrived(struct shmpi_request *rq)
{
    struct shmpi_p2p_part_pipe *p = (struct shmpi_p2p_part_pipe *)rq;
    struct shmpi_p2p_part_match *m = matcher();
    shmpi_core_lock(&m->lock);
    struct shmpi_p2p_part_pipe **pp = &p->key->pipes;
    while (*pp != p)
        pp = &(*pp)->next;
    *pp = p->next;
    p->key->posted--;
    p->next = NULL;
    for (pp = &m->parked; *pp; pp = &(*pp)->next)
        ;
    *pp = p;
    shmpi_core_unlock(&m->lock);
}

/* Under the lock: each parked announcement, in arrival order, to the
   earliest waiting receive of its communicator, source and tag. */
static void match_all(struct shmpi_p2p_part_match *m)
{
    struct shmpi_p2p_part_pipe **pp = &m->parked;
    while (*pp) {
        struct shmpi_p2p_part_pipe *p = *pp;
        struct shmpi_p2p_part **wp = &m->waiting;
        while (*wp && !((*wp)->context == p->key->context &&
                        (*wp)->source == p->key->source &&
                        (*wp)->tag == p->msg.tag))
            wp = &(*wp)->next;
        if (!*wp) {
            pp = &p->next;
            continue;
        }
        struct shmpi_p2p_part *w = *wp;
        *wp = w->next;
        *pp = p->next;
        /* release: the receive's threads read the pipe after acquiring
           it (try_map) */
        atomic_store_explicit(&w->hello, p, memory_order_release);
    }
}

static int waiting_from(struct shmpi_p2p_part_match *m,
                        struct shmpi_p2p_part_key *k, MPI_Comm *comm)
{
    int n = 0;
    for (struct shmpi_p2p_part *w = m->waiting; w; w = w->next)
        if (w->context == k->context && w->source == k->source) {
            n++;
            *comm = w->comm;
        }
    return n;
}

/* Under the lock: a key with fewer pipes posted than receives waiting,
   and one more pipe counted for it (the caller posts it unlocked). */
static struct shmpi_p2p_part_pipe *pipe_owed(struct shmpi_p2p_part_match *m,
                                             MPI_Comm *comm)
{
    for (struct shmpi_p2p_part_key *k = m->keys; k; k = k->next) {
        if (waiting_from(m, k, comm) <= k->posted)
            continue;
        struct shmpi_p2p_part_pipe *p = calloc(1, sizeof *p);
        if (!p)
            return NULL; /* tried again at the next call */
        p->key = k;
        p->next = k->pipes;
        k->pipes = p;
        k->posted++;
        return p;
    }
    return NULL;
}

/* Match what arrived, then post the pipes owed: as many receives of
   announcements from (context, source) as partitioned receives from it
   wait, so that the one each waits for is taken in however the sender
   ordered its tags, and none is left posted once all have matched.
   Runs in the program's calls, never in progress: a pipe may complete
   as it is posted (its announcement was there), which takes the lock. */
static void sync_matches(void)
{
    struct shmpi_p2p_part_match *m = matcher();
    for (;;) {
        MPI_Comm comm = MPI_COMM_NULL;
        shmpi_core_lock(&m->lock);
        match_all(m);
        struct shmpi_p2p_part_pipe *p = pipe_owed(m, &comm);
        shmpi_core_unlock(&m->lock);
        if (!p)
            return;
        shmpi_p2p_internal_request(&p->rq, SHMPI_REQ_RECV, comm, &p->msg,
                                   (int)sizeof p->msg, MPI_BYTE,
                                   p->key->source, SHMPI_TAG_PART);
        p->rq.on_complete = pipe_arrived;
        shmpi_p2p_start_recv(&p->rq);
    }
}

/* A waiting receive is freed: out of the list, and a pipe it no longer
   needs withdrawn (r's lane, which is its pipes', is held). */
static void unwait(struct shmpi_p2p_part *P)
{
    struct shmpi_p2p_part_match *m = matcher();
    shmpi_core_lock(&m->lock);
    struct shmpi_p2p_part **wp = &m->waiting;
    while (*wp && *wp != P)
        wp = &(*wp)->next;
    if (*wp)
        *wp = P->next;
    struct shmpi_p2p_part_key *k = key_of(m, P->context, P->source);
    MPI_Comm comm;
    struct shmpi_p2p_part_pipe *spare = NULL;
    if (k && k->pipes && waiting_from(m, k, &comm) < k->posted &&
        shmpi_p2p_recv_withdraw(&k->pipes->rq)) {
        spare = k->pipes;
        k->pipes = spare->next;
        k->posted--;
    }
    shmpi_core_unlock(&m->lock);
    free(spare);
}

/* ---- the receiver's side ---- */

static int map_segment(struct shmpi_p2p_part *P,
                       const struct shmpi_p2p_part_pipe *p)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)p->msg.pid,
             (int)p->msg.fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        P->why = (struct refusal){MPI_ERR_OTHER, errno};
        return MPI_ERR_OTHER;
    }
    void *a = mmap(NULL, p->msg.seg_bytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED, fd, 0);
    int errnum = errno;
    close(fd);
    if (a == MAP_FAILED) {
        P->why = (struct refusal){MPI_ERR_NO_MEM, errnum};
        return MPI_ERR_NO_MEM;
    }
    P->seg = a;
    P->seg_bytes = p->msg.seg_bytes;
    P->sparts = p->msg.parts;
    P->spart_bytes = p->msg.part_bytes;
    P->stage = (unsigned char *)a + stage_offset(p->msg.parts);
    P->stride = line_up(P->total);
    return MPI_SUCCESS;
}

/* The segment could not be mapped: tell the sender, on the tag its
   announcement named (top comment).  Not raised if the send cannot be
   queued (no memory): the receive fails either way, and its sender then
   waits as for a receiver that never came. */
static void refuse(struct shmpi_p2p_part *P,
                   const struct shmpi_p2p_part_pipe *p)
{
    P->msg = p->msg; /* for the error's words */
    shmpi_p2p_internal_request(&P->nack, SHMPI_REQ_SEND, P->comm, &P->why,
                               (int)sizeof P->why, MPI_BYTE, P->source,
                               p->msg.reply);
    struct shmpi_lane_lock *k = &P->nack.lane->lock;
    shmpi_p2p_lane_lock(k);
    P->nack_sent = shmpi_p2p_send_post_or_queue(&P->nack) == 0;
    shmpi_p2p_lane_unlock(k);
}

/* 1 once the receive is matched and the segment mapped (or the match
   failed: P->err); 0 while its announcement has not arrived, or another
   thread maps it. */
static int try_map(struct shmpi_p2p_part *P)
{
    int s = atomic_load_explicit(&P->mapstate, memory_order_acquire);
    if (s == MS_DONE || s == MS_FAILED)
        return 1;
    if (!atomic_load_explicit(&P->hello, memory_order_acquire)) {
        shmpi_p2p_progress(); /* its announcement may wait in a ring */
        sync_matches();
    }
    struct shmpi_p2p_part_pipe *p =
        atomic_load_explicit(&P->hello, memory_order_acquire);
    int none = MS_NONE;
    if (!p || !atomic_compare_exchange_strong_explicit(
                  &P->mapstate, &none, MS_BUSY, memory_order_acquire,
                  memory_order_relaxed))
        return 0;
    P->err = map_segment(P, p);
    if (P->err == MPI_SUCCESS) {
        uint32_t how = p->msg.parts * p->msg.part_bytes == P->total
                           ? SEG_MATCHED : SEG_REFUSED;
        if (how == SEG_REFUSED)
            P->err = MPI_ERR_TRUNCATE;
        /* release: the sender acquires it before closing its fd */
        atomic_store_explicit(&P->seg->matched, how, memory_order_release);
        shmpi_core_doorbell_ring(P->req->peer);
    } else {
        refuse(P, p);
    }
    free(p);
    atomic_store_explicit(&P->mapstate,
                          P->err == MPI_SUCCESS ? MS_DONE : MS_FAILED,
                          memory_order_release);
    return 1;
}

/* Have all sender partitions overlapping receiver partition j landed in
   this round?  Acquire: pairs with the sender's release store of the
   flag after its pack, so the unpack reads the packed bytes. */
static int landed(struct shmpi_p2p_part *P, int j)
{
    if (P->part_bytes == 0)
        return 1;
    uint64_t a = (uint64_t)j * P->part_bytes, b = a + P->part_bytes;
    for (uint64_t i = a / P->spart_bytes; i <= (b - 1) / P->spart_bytes; i++)
        if (atomic_load_explicit(flag_of(P, P->round, i),
                                 memory_order_acquire) !=
            P->round)
            return 0;
    return 1;
}

/* Thread that made the round whole: status, then complete (release
   store of complete, request.h). */
static void complete_round(struct shmpi_p2p_part *P, int err)
{
    struct shmpi_request *r = P->req;
    if (atomic_exchange_explicit(&P->finished, 1, memory_order_acq_rel))
        return;
    r->error = err;
    if (P->send && P->fd >= 0) { /* the receiver has opened it, or
                                    refused */
        close(P->fd);
        P->fd = -1;
    }
    if (!P->send) {
        r->status.MPI_SOURCE = P->source;
        r->status.MPI_TAG = P->tag;
        r->status.shmpi_nbytes = err == MPI_SUCCESS ? P->total : 0;
    }
    shmpi_request_set_complete(r);
    if (shmpi_proc.mt) /* a waiting thread may sleep: wake the rank */
        shmpi_core_doorbell_ring(shmpi_proc.rank);
}

/* All of this round unpacked: tell the sender the staging area is free
   (release: after every unpack of the round, which the acq_rel adds of
   `done` ordered before this thread), then complete. */
static void recv_round_done(struct shmpi_p2p_part *P)
{
    atomic_store_explicit(&P->seg->consumed, P->round, memory_order_release);
    shmpi_core_doorbell_ring(P->req->peer);
    complete_round(P, MPI_SUCCESS);
}

/* Unpack receiver partition j if it landed; 1 if it is in the buffer. */
static int try_unpack(struct shmpi_p2p_part *P, int j)
{
    uint64_t mine = 2 * P->round;
    uint64_t s = atomic_load_explicit(&P->state[j], memory_order_acquire);
    if (s == mine)
        return 1;
    if (s == mine - 1 || !landed(P, j))
        return 0;
    if (!atomic_compare_exchange_strong_explicit(&P->state[j], &s, mine - 1,
                                                 memory_order_relaxed,
                                                 memory_order_relaxed))
        return 0;
    uint64_t off = (uint64_t)j * P->part_bytes;
    shmpi_dt_unpack(P->req->buf, P->req->datatype, off,
                    stage_of(P, P->round) + off, P->part_bytes);
    /* release: a thread whose MPI_Parrived reads 2r (acquire) may read
       the partition */
    atomic_store_explicit(&P->state[j], mine, memory_order_release);
    if (atomic_fetch_add_explicit(&P->done, 1, memory_order_acq_rel) + 1 ==
        (uint64_t)P->parts)
        recv_round_done(P);
    return 1;
}

static int recv_poll(struct shmpi_p2p_part *P)
{
    if (!try_map(P))
        return 0;
    if (P->err != MPI_SUCCESS) {
        complete_round(P, P->err);
        return 1;
    }
    for (int j = 0; j < P->parts; j++)
        try_unpack(P, j);
    return shmpi_request_is_complete(P->req);
}

/* ---- the sender's side ---- */

/* The refusal's receive is no longer needed (the receiver mapped, or
   the request is freed): off the posted queue, once, whichever thread
   gets here first.  If a refusal had matched it meanwhile, its
   on_complete has run: both happen under the lane withdraw takes. */
static void drop_nack(struct shmpi_p2p_part *P)
{
    if (atomic_load_explicit(&P->nack_posted, memory_order_relaxed) &&
        atomic_exchange_explicit(&P->nack_posted, 0, memory_order_relaxed))
        shmpi_p2p_recv_withdraw(&P->nack);
}

/* nack's on_complete (progress, under its lane): the receiver could not
   map.  Release: the sender's threads read P->why after acquiring
   `refused` (send_maybe_done). */
static void refused_arrived(struct shmpi_request *rq)
{
    struct shmpi_p2p_part *P =
        (struct shmpi_p2p_part *)((char *)rq -
                                  offsetof(struct shmpi_p2p_part, nack));
    atomic_store_explicit(&P->nack_posted, 0, memory_order_relaxed);
    atomic_store_explicit(&P->refused, 1, memory_order_release);
    if (shmpi_proc.mt) /* a waiting thread may sleep: wake the rank */
        shmpi_core_doorbell_ring(shmpi_proc.rank);
}

static void send_maybe_done(struct shmpi_p2p_part *P)
{
    if (atomic_load_explicit(&P->done, memory_order_acquire) !=
        (uint64_t)P->parts)
        return;
    uint32_t how = atomic_load_explicit(&P->seg->matched,
                                        memory_order_acquire);
    if (!how) {
        if (atomic_load_explicit(&P->refused, memory_order_acquire))
            complete_round(P, P->why.err);
        return;
    }
    drop_nack(P);
    if (how == SEG_MATCHED &&
        atomic_load_explicit(&P->seg->consumed, memory_order_acquire) + 1 <
            P->round)
        return;
    complete_round(P, how == SEG_MATCHED ? MPI_SUCCESS : MPI_ERR_TRUNCATE);
}

/* Pack partition i if it is readied and the staging area is free. */
static void push(struct shmpi_p2p_part *P, int i)
{
    uint64_t ready = 3 * P->round - 2;
    /* acquire: the receiver's last unpack of round - 2, from the same
       staging area, came before its release store of consumed;
       overwriting its bytes must follow.  Never false after the first
       two rounds: round - 1 completed only once consumed >= round - 2
       (send_maybe_done), or the receiver refused and never reads. */
    if (atomic_load_explicit(&P->seg->consumed, memory_order_acquire) + 2 <
            P->round &&
        !atomic_load_explicit(&P->refused, memory_order_relaxed))
        return;
    if (!atomic_compare_exchange_strong_explicit(&P->state[i], &ready,
                                                 ready + 1,
                                                 memory_order_relaxed,
                                                 memory_order_relaxed))
        return;
    uint64_t off = (uint64_t)i * P->part_bytes;
    shmpi_dt_pack(P->req->buf, P->req->datatype, off,
                  stage_of(P, P->round) + off, P->part_bytes);
    /* release: the receiver acquires the flag before it unpacks */
    atomic_store_explicit(flag_of(P, P->round, (uint64_t)i), P->round,
                          memory_order_release);
    shmpi_core_doorbell_ring(P->req->peer);
    atomic_store_explicit(&P->state[i], ready + 2, memory_order_relaxed);
    if (atomic_fetch_add_explicit(&P->done, 1, memory_order_acq_rel) + 1 ==
        (uint64_t)P->parts)
        send_maybe_done(P);
}

static int send_poll(struct shmpi_p2p_part *P)
{
    if (atomic_load_explicit(&P->done, memory_order_relaxed) <
        (uint64_t)P->parts)
        for (int i = 0; i < P->parts; i++)
            push(P, i);
    send_maybe_done(P);
    return shmpi_request_is_complete(P->req);
}

/* ---- the kind's operations ---- */

static struct shmpi_p2p_part *part_of(struct shmpi_request *r)
{
    return r->owner;
}

static int part_poll(struct shmpi_request *r)
{
    struct shmpi_p2p_part *P = part_of(r);
    return P->send ? send_poll(P) : recv_poll(P);
}

static int part_start(struct shmpi_request *r, const char *fn)
{
    struct shmpi_p2p_part *P = part_of(r);
    if (r->active)
        return shmpi_raise(r->comm, MPI_ERR_REQUEST, fn,
                           "the partitioned request is already active "
                           "(complete it before starting it again)");
    P->round++;
    atomic_store_explicit(&P->done, 0, memory_order_relaxed);
    atomic_store_explicit(&P->finished, 0, memory_order_relaxed);
    atomic_store_explicit(&r->complete, 0, memory_order_relaxed);
    atomic_store_explicit(&r->handed, 0, memory_order_relaxed);
    r->error = MPI_SUCCESS;
    shmpi_p2p_status_empty(&r->status);
    r->active = 1;
    if (r->peer == MPI_PROC_NULL) {
        r->status.MPI_SOURCE = MPI_PROC_NULL;
        shmpi_request_set_complete(r);
        return MPI_SUCCESS;
    }
    part_poll(r); /* a receive matches as early as it can */
    return MPI_SUCCESS;
}

static int part_cancel(struct shmpi_request *r, const char *fn)
{
    if (shmpi_request_is_complete(r))
        return MPI_SUCCESS; /* completed: nothing to cancel */
    return shmpi_raise(r->comm, MPI_ERR_REQUEST, fn,
                       "cancelling an active partitioned request that has "
                       "not completed is erroneous (MPI-4.0 4.2)");
}

static void part_release(struct shmpi_p2p_part *P)
{
    if (P->fd >= 0)
        close(P->fd);
    if (P->seg)
        munmap(P->seg, P->seg_bytes);
    free(P->state);
    free(P);
}

/* A message of the request's still in flight when it was freed (the
   announcement its receiver has not taken yet, or a refusal): it frees
   the rest when it completes. */
static void sent_done(struct shmpi_request *out)
{
    part_release(out->owner);
}

int shmpi_p2p_part_free_check(struct shmpi_request *r, const char *fn)
{
    if (r->active && !shmpi_request_is_complete(r))
        return shmpi_raise(r->comm, MPI_ERR_REQUEST, fn,
                           "freeing an active partitioned request that has "
                           "not completed is erroneous (MPI-4.0 4.2)");
    return MPI_SUCCESS;
}

/* Under r's lane (MPI_Request_free): the announcement's send, the
   refusal's send or receive and the pipes are in it, so none completes
   meanwhile. */
static void part_free(struct shmpi_request *r)
{
    struct shmpi_p2p_part *P = part_of(r);
    int linked = r->peer != MPI_PROC_NULL;
    struct shmpi_request *out = P->send && linked ? &P->ann
                                : P->nack_sent    ? &P->nack
                                                  : NULL;
    shmpi_p2p_request_release(r);
    if (P->send)
        drop_nack(P);
    if (!P->send && linked) {
        if (!atomic_load_explicit(&P->hello, memory_order_acquire))
            unwait(P);
        else if (atomic_load_explicit(&P->mapstate, memory_order_acquire) ==
                 MS_NONE)
            free(atomic_load_explicit(&P->hello, memory_order_relaxed));
    }
    if (out && !shmpi_request_is_complete(out)) {
        out->owner = P;
        out->on_complete = sent_done;
        return;
    }
    part_release(P);
}

/* A failed round's error, with what failed where that is known. */
static int part_raise(struct shmpi_request *r, int err, const char *fn)
{
    struct shmpi_p2p_part *P = part_of(r);
    if (err == MPI_ERR_IN_STATUS)
        return shmpi_raise(r->comm, err, fn, "a completed request failed; "
                           "see the MPI_ERROR field of its status");
    if (err == MPI_ERR_TRUNCATE)
        return shmpi_raise(r->comm, err, fn, "the partitioned send and "
                           "receive differ in size (MPI-4.0 4.2.3)");
    if (err != P->why.err || !P->why.errnum)
        return shmpi_raise(r->comm, err, fn, "the completed request failed");
    if (P->send)
        return shmpi_raise(r->comm, err, fn, "the receiver (rank %d) could "
                           "not map this partitioned send's staging area: "
                           "%s", r->peer, strerror(P->why.errnum));
    return shmpi_raise(r->comm, err, fn, "cannot map the staging area of "
                       "rank %d's partitioned send (/proc/%d/fd/%d): %s; "
                       "the kernel allows it only where the receiver may "
                       "ptrace the sender (Yama ptrace_scope, a non-dumpable "
                       "sender, another user)", r->peer, (int)P->msg.pid,
                       (int)P->msg.fd, strerror(P->why.errnum));
}

const struct shmpi_req_ops shmpi_p2p_part_ops = {
    .poll = part_poll,
    .start = part_start,
    .cancel = part_cancel,
    .free = part_free,
    .raise = part_raise,
};

/* ---- the init calls ---- */

static int check_init(const char *fn, const void *buf, int partitions,
                      MPI_Count count, MPI_Datatype dt, int peer, int tag,
                      MPI_Comm comm, MPI_Info info, MPI_Request *req,
                      int send, uint64_t *total)
{
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_COMM, fn,
                           "not a valid communicator");
    if (partitions <= 0) /* erroneous (MPI-4.0 4.2.2) */
        return shmpi_raise(comm, MPI_ERR_ARG, fn,
                           "partitions %d is not positive", partitions);
    if (count < 0)
        return shmpi_raise(comm, MPI_ERR_COUNT, fn,
                           "count %lld is negative", (long long)count);
    int rc = shmpi_dt_check_count_type(fn, comm, 0, dt);
    if (rc != MPI_SUCCESS)
        return rc;
    uint64_t elems;
    if (__builtin_mul_overflow((uint64_t)partitions, (uint64_t)count,
                               &elems) ||
        __builtin_mul_overflow(elems, dt->size, total) ||
        *total > (uint64_t)INT64_MAX)
        return shmpi_raise(comm, MPI_ERR_COUNT, fn,
                           "%d partitions of %lld elements are too many "
                           "bytes", partitions, (long long)count);
    rc = shmpi_dt_check_buffer(fn, comm, buf, elems ? 1 : 0, dt);
    if (rc != MPI_SUCCESS)
        return rc;
    if (buf == MPI_BOTTOM && elems) /* 4.2.3: not supported */
        return shmpi_raise(comm, MPI_ERR_BUFFER, fn,
                           "buf is MPI_BOTTOM (partitioned communication "
                           "takes no absolute addresses)");
    if (peer != MPI_PROC_NULL &&
        (peer < 0 || peer >= shmpi_comm_peer_count(comm)))
        return shmpi_raise(comm, MPI_ERR_RANK, fn,
                           "%s %d is not a rank of the communicator (size "
                           "%d; a partitioned receive names its source: "
                           "no MPI_ANY_SOURCE)",
                           send ? "destination" : "source", peer,
                           shmpi_comm_peer_count(comm));
    if (tag < 0)
        return shmpi_raise(comm, MPI_ERR_TAG, fn,
                           "tag %d is negative (tags are 0..MPI_TAG_UB; a "
                           "partitioned receive names its tag: no "
                           "MPI_ANY_TAG)", tag);
    if (info != MPI_INFO_NULL && !shmpi_info_ok(info))
        return shmpi_raise(comm, MPI_ERR_INFO, fn, "info is not valid");
    if (!req)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
    return MPI_SUCCESS;
}

/* A new inactive request of kind SHMPI_REQ_PART and its part. */
static int make_part(const char *fn, const void *buf, int partitions,
                     MPI_Count count, MPI_Datatype dt, int peer, int tag,
                     MPI_Comm comm, uint64_t total, int send,
                     struct shmpi_p2p_part **out)
{
    struct shmpi_request *r = shmpi_p2p_request_new(SHMPI_REQ_PART);
    struct shmpi_p2p_part *P = calloc(1, sizeof *P);
    _Atomic uint64_t *state = calloc((size_t)partitions, sizeof *state);
    if (!r || !P || !state) {
        if (r)
            shmpi_p2p_request_release(r);
        free(P);
        free(state);
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn, "no memory");
    }
    shmpi_p2p_request_fill(r, buf, 0, dt, peer, tag, comm);
    r->count = (MPI_Count)partitions * count;
    r->nbytes = total;
    r->persistent = 1;
    r->active = 0;
    r->owner = P;
    P->req = r;
    P->send = send;
    P->parts = partitions;
    P->part_bytes = total / (uint64_t)partitions;
    P->total = total;
    P->state = state;
    P->fd = -1;
    P->comm = comm;
    P->context = comm->context + 1;
    P->source = peer;
    P->tag = tag;
    *out = P;
    return MPI_SUCCESS;
}

/* The sender's segment and its announcement. */
static int announce(const char *fn, struct shmpi_p2p_part *P, int dest,
                    int tag, MPI_Comm comm)
{
    size_t bytes = stage_offset((uint64_t)P->parts) + 2 * line_up(P->total);
    void *base;
    int fd;
    if (shmpi_core_memfd_map(bytes, "shmpi-part", &base, &fd) != 0)
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for a staging area of %zu bytes",
                           bytes);
    P->seg = base;
    P->seg_bytes = bytes;
    P->stage = (unsigned char *)base + stage_offset((uint64_t)P->parts);
    P->stride = line_up(P->total);
    P->sparts = (uint64_t)P->parts;
    P->fd = fd;
    /* The reply tag is unique among this process's last 2^26 sends,
       far more than can wait for their receivers at once. */
    static _Atomic uint32_t sends;
    int reply = SHMPI_TAG_PART_REFUSED +
                (int)(atomic_fetch_add_explicit(&sends, 1,
                                                memory_order_relaxed) &
                      (SHMPI_TAG_PART_REFUSED - 1));
    shmpi_p2p_internal_request(&P->nack, SHMPI_REQ_RECV, comm, &P->why,
                               (int)sizeof P->why, MPI_BYTE, dest, reply);
    P->nack.on_complete = refused_arrived;
    atomic_store_explicit(&P->nack_posted, 1, memory_order_relaxed);
    shmpi_p2p_start_recv(&P->nack);
    P->msg = (struct hello){.tag = tag, .pid = (int32_t)getpid(), .fd = fd,
                            .reply = reply, .parts = (uint64_t)P->parts,
                            .part_bytes = P->part_bytes,
                            .seg_bytes = bytes};
    shmpi_p2p_internal_request(&P->ann, SHMPI_REQ_SEND, comm, &P->msg,
                               (int)sizeof P->msg, MPI_BYTE, dest,
                               SHMPI_TAG_PART);
    int rc = shmpi_p2p_start_send(fn, &P->ann, SHMPI_MODE_STANDARD);
    if (rc != MPI_SUCCESS)
        drop_nack(P); /* the caller frees P */
    return rc;
}

int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count,
                    MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                    MPI_Info info, MPI_Request *req)
{
    static const char *fn = "MPI_Psend_init";
    SHMPI_REQUIRE_INIT(fn);
    uint64_t total;
    struct shmpi_p2p_part *P;
    int rc = check_init(fn, buf, partitions, count, dt, dest, tag, comm,
                        info, req, 1, &total);
    if (rc == MPI_SUCCESS)
        rc = make_part(fn, buf, partitions, count, dt, dest, tag, comm,
                       total, 1, &P);
    if (rc != MPI_SUCCESS)
        return rc;
    if (dest != MPI_PROC_NULL &&
        (rc = announce(fn, P, dest, tag, comm)) != MPI_SUCCESS) {
        shmpi_p2p_request_release(P->req);
        part_release(P);
        return rc;
    }
    if (shmpi_core_checking())
        shmpi_core_live_made(SHMPI_LIVE_PREQ, P->req, fn, NULL);
    *req = P->req;
    return MPI_SUCCESS;
}

int PMPI_Precv_init(void *buf, int partitions, MPI_Count count,
                    MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                    MPI_Info info, MPI_Request *req)
{
    static const char *fn = "MPI_Precv_init";
    SHMPI_REQUIRE_INIT(fn);
    uint64_t total;
    struct shmpi_p2p_part *P;
    int rc = check_init(fn, buf, partitions, count, dt, source, tag, comm,
                        info, req, 0, &total);
    if (rc == MPI_SUCCESS)
        rc = make_part(fn, buf, partitions, count, dt, source, tag, comm,
                       total, 0, &P);
    if (rc != MPI_SUCCESS)
        return rc;
    if (shmpi_core_checking())
        shmpi_core_live_made(SHMPI_LIVE_PREQ, P->req, fn, NULL);
    *req = P->req;
    if (source == MPI_PROC_NULL)
        return MPI_SUCCESS;
    struct shmpi_p2p_part_match *m = matcher();
    shmpi_core_lock(&m->lock);
    struct shmpi_p2p_part **wp = &m->waiting;
    while (*wp)
        wp = &(*wp)->next;
    *wp = P;
    int nokey = !key_of(m, P->context, source);
    shmpi_core_unlock(&m->lock);
    if (nokey) /* cannot post for it: the request would never match */
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn, "no memory");
    sync_matches();
    return MPI_SUCCESS;
}

/* ---- readying and arrival ---- */

static int check_part_req(const char *fn, MPI_Request r, int send)
{
    if (!shmpi_request_ok(r) || r->kind != SHMPI_REQ_PART ||
        part_of(r)->send != send)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                           "not a partitioned %s request",
                           send ? "send" : "receive");
    return MPI_SUCCESS;
}

static int check_ready(const char *fn, MPI_Request r)
{
    int rc = check_part_req(fn, r, 1);
    if (rc == MPI_SUCCESS && !r->active)
        rc = shmpi_raise(r->comm, MPI_ERR_REQUEST, fn,
                         "the partitioned request is not active (MPI_Start "
                         "it first)");
    return rc;
}

static int ready_one(const char *fn, struct shmpi_p2p_part *P, int i)
{
    struct shmpi_request *r = P->req;
    if (i < 0 || i >= P->parts)
        return shmpi_raise(r->comm, MPI_ERR_ARG, fn,
                           "partition %d is not one of the request's "
                           "(0..%d)", i, P->parts - 1);
    uint64_t ready = 3 * P->round - 2;
    uint64_t s = atomic_load_explicit(&P->state[i], memory_order_relaxed);
    if (s >= ready ||
        !atomic_compare_exchange_strong_explicit(
            &P->state[i], &s, ready, memory_order_relaxed,
            memory_order_relaxed))
        return shmpi_raise(r->comm, MPI_ERR_ARG, fn,
                           "partition %d is already ready in this round", i);
    if (r->peer != MPI_PROC_NULL)
        push(P, i);
    return MPI_SUCCESS;
}

int PMPI_Pready(int partition, MPI_Request request)
{
    static const char *fn = "MPI_Pready";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_ready(fn, request);
    return rc == MPI_SUCCESS ? ready_one(fn, part_of(request), partition)
                             : rc;
}

int PMPI_Pready_range(int partition_low, int partition_high,
                      MPI_Request request)
{
    static const char *fn = "MPI_Pready_range";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_ready(fn, request);
    if (rc == MPI_SUCCESS && partition_low > partition_high)
        rc = shmpi_raise(request->comm, MPI_ERR_ARG, fn,
                         "partition_low %d is above partition_high %d",
                         partition_low, partition_high);
    for (int i = partition_low; rc == MPI_SUCCESS && i <= partition_high;
         i++)
        rc = ready_one(fn, part_of(request), i);
    return rc;
}

int PMPI_Pready_list(int length, const int array_of_partitions[],
                     MPI_Request request)
{
    static const char *fn = "MPI_Pready_list";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_ready(fn, request);
    if (rc == MPI_SUCCESS && (length < 0 || (length && !array_of_partitions)))
        rc = shmpi_raise(request->comm, MPI_ERR_ARG, fn,
                         "length %d is negative or the array is NULL",
                         length);
    for (int k = 0; rc == MPI_SUCCESS && k < length; k++)
        rc = ready_one(fn, part_of(request), array_of_partitions[k]);
    return rc;
}

int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    static const char *fn = "MPI_Parrived";
    SHMPI_REQUIRE_INIT(fn);
    if (!flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "flag is NULL");
    /* 4.2.2: a null or inactive request has arrived */
    if (request == MPI_REQUEST_NULL ||
        (shmpi_request_ok(request) && !request->active)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    int rc = check_part_req(fn, request, 0);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_p2p_part *P = part_of(request);
    if (partition < 0 || partition >= P->parts)
        return shmpi_raise(request->comm, MPI_ERR_ARG, fn,
                           "partition %d is not one of the request's "
                           "(0..%d)", partition, P->parts - 1);
    if (shmpi_request_is_complete(request)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    *flag = request->peer == MPI_PROC_NULL ||
            (try_map(P) && P->err == MPI_SUCCESS && try_unpack(P, partition));
    if (!*flag)
        shmpi_core_poll_idle();
    return MPI_SUCCESS;
}
