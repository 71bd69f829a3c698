/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sched.c - building schedules and running them from the progress
 * engine (sched.h says what a schedule is).
 *
 * A schedule is a flat array of operations and the index where each
 * round ends.  Running a round takes one internal request per message of
 * the round (they live in the schedule, so nothing is allocated while it
 * runs; a persistent one keeps a request per message of every round);
 * the progress engine polls the round's requests and, when all have
 * completed, runs the round's local operations and begins the next.
 * A round with no messages ends as it begins, so a schedule runs as far
 * as it can every time it is polled.
 *
 * The progress engine polls the active schedules through a progress
 * hook (core/hooks.h), added by shmpi_nbc_init at MPI_Init and armed in
 * a pt2pt lane exactly while that lane's list of active schedules is
 * not empty: with no schedule, progress calls nothing of coll.
 *
 * PERSISTENT SCHEDULES (MPI-4.0 6.13, the *_init collectives).  What is
 * planned once, at init: the whole schedule - the algorithm, every
 * operation with its peer, buffer, count and retained type and op, the
 * rounds, the scratch buffers, a request for each of its messages - and
 * its tag.  The first MPI_Start makes each message's request as it
 * begins its round; each later one only rearms it (its completion's
 * state cleared, pt2pt/start.h).  What each MPI_Start does
 * (start_persistent): reset the running state (round 0, no error, the
 * request active and not complete) and run it from its first round,
 * allocating nothing.  The
 * schedule lives as long as its request (the request's owner) and is
 * discarded by MPI_Request_free.  The tag is taken at init, the one
 * collective, ordered call: successive starts of one request reuse it,
 * which is safe because a start's messages between two processes are
 * sent and received in schedule order, and messages on one context and
 * tag never overtake each other - the messages of start k+1 match only
 * after those of start k, as the rounds of one schedule already do.  A
 * request that outlives 2^24 more collectives on its communicator shares
 * its tag with a later schedule (NBC_TAGS below); the two must not run
 * at once (shmpi_coll(7), LIMITS).
 *
 * Everything here is this rank's private memory: the messages carry the
 * cross-process ordering (the pt2pt engine's rings), so no atomics are
 * needed.  Under MPI_THREAD_MULTIPLE a lane's list of active schedules,
 * the hook's arming there and every schedule of the list are under that
 * pt2pt lane (pt2pt/lane.h): the progress engine runs the hooks with it
 * held, and shmpi_nbc_start takes it (lane_for says which).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/blocked.h"
#include "core/error.h"
#include "core/hooks.h"
#include "core/proc.h"
#include "datatypes/datatype.h"
#include "datatypes/ops.h"
#include "coll/sched.h"
#include "pt2pt/internal.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/start.h"

enum nbc_kind { NBC_SEND, NBC_RECV, NBC_COPY, NBC_REDUCE, NBC_CALL };

struct nbc_op {
    enum nbc_kind kind;
    MPI_Comm comm;             /* SEND/RECV: talked on (retained) */
    int peer;                  /* SEND/RECV */
    const void *src;           /* SEND, COPY, REDUCE's in */
    void *dst;                 /* RECV, COPY, REDUCE's inout */
    MPI_Count count;           /* elements of type */
    MPI_Datatype type;         /* retained */
    MPI_Count rcount;          /* COPY: room at dst, elements of rtype */
    MPI_Datatype rtype;        /* COPY (retained) */
    MPI_Op op;                 /* REDUCE (retained) */
    shmpi_nbc_fn *fn;          /* CALL */
};

struct shmpi_nbc {
    MPI_Comm comm;             /* the request's communicator (retained) */
    MPI_Comm talk;             /* where the next messages go */
    int tag;
    struct nbc_op *ops;
    int nops, ops_cap;
    int *round_end;            /* round r is ops [round_end[r-1], round_end[r]) */
    int nrounds, rounds_cap;
    int round;                 /* running */
    struct shmpi_request *msgs; /* room for the widest round's messages;
                                  a persistent schedule's: for every
                                  message, made at its first start */
    int msgs_cap;
    struct shmpi_request *cur; /* the running round's messages */
    int nmsgs;
    void **scratch;
    int nscratch, scratch_cap;
    int error;                 /* first failure */
    int persistent;            /* kept and rerun by MPI_Start (above) */
    struct shmpi_request *req; /* what the program waits on */
    const char *fn;            /* the MPI call that made it, and whether
                                  it blocks in it (the deadlock report) */
    int blocking;
    struct shmpi_nbc *next;    /* in the active list */
};

/* Tags SHMPI_TAG_NBC .. + NBC_TAGS - 1 are the schedules'; a number comes
   back after 2^24 collectives on one communicator, long after its first
   user completed. */
#define NBC_TAGS (1 << 24)

/* Grow array *p of *cap elements of size sz to hold n; 0 on failure. */
static int reserve(void *p, int *cap, int n, size_t sz)
{
    if (n <= *cap)
        return 1;
    int want = *cap ? *cap * 2 : 8;
    while (want < n)
        want *= 2;
    void *grown = realloc(*(void **)p, (size_t)want * sz);
    if (!grown)
        return 0;
    *(void **)p = grown;
    *cap = want;
    return 1;
}

struct shmpi_nbc *shmpi_nbc_new(MPI_Comm comm)
{
    struct shmpi_nbc *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->comm = s->talk = comm;
    s->tag = SHMPI_TAG_NBC + (int)(comm->nbc_seq++ % NBC_TAGS);
    shmpi_core_comm_retain(comm);
    return s;
}

static struct nbc_op *add(struct shmpi_nbc *s, enum nbc_kind kind)
{
    if (!reserve(&s->ops, &s->ops_cap, s->nops + 1, sizeof *s->ops))
        return NULL;
    struct nbc_op *o = &s->ops[s->nops++];
    *o = (struct nbc_op){.kind = kind};
    return o;
}

/* The handles an operation holds until the schedule ends. */
static void hold(struct nbc_op *o)
{
    if (o->comm)
        shmpi_core_comm_retain(o->comm);
    if (o->type)
        shmpi_dt_retain(o->type);
    if (o->rtype)
        shmpi_dt_retain(o->rtype);
    if (o->op)
        shmpi_op_retain(o->op);
}

static void let_go(struct nbc_op *o)
{
    if (o->comm)
        shmpi_core_comm_release(o->comm);
    if (o->type)
        shmpi_dt_release(o->type);
    if (o->rtype)
        shmpi_dt_release(o->rtype);
    if (o->op)
        shmpi_op_release(o->op);
}

/* A message of the schedule (counts of the large-count forms included:
   a request counts in MPI_Count). */
static int message(struct shmpi_nbc *s, enum nbc_kind kind, const void *buf,
                   MPI_Count count, MPI_Datatype type, int peer)
{
    if (peer == MPI_PROC_NULL)
        return MPI_SUCCESS;
    struct nbc_op *o = add(s, kind);
    if (!o)
        return MPI_ERR_NO_MEM;
    o->comm = s->talk;
    o->peer = peer;
    o->src = o->dst = (unsigned char *)buf;
    o->count = count;
    o->type = type;
    hold(o);
    return MPI_SUCCESS;
}

int shmpi_nbc_send(struct shmpi_nbc *s, const void *buf, MPI_Count count,
                   MPI_Datatype type, int peer)
{
    return message(s, NBC_SEND, buf, count, type, peer);
}

int shmpi_nbc_recv(struct shmpi_nbc *s, void *buf, MPI_Count count,
                   MPI_Datatype type, int peer)
{
    return message(s, NBC_RECV, buf, count, type, peer);
}

int shmpi_nbc_copy(struct shmpi_nbc *s, const void *src, MPI_Count scount,
                   MPI_Datatype stype, void *dst, MPI_Count rcount,
                   MPI_Datatype rtype)
{
    struct nbc_op *o = add(s, NBC_COPY);
    if (!o)
        return MPI_ERR_NO_MEM;
    o->src = src;
    o->count = scount;
    o->type = stype;
    o->dst = dst;
    o->rcount = rcount;
    o->rtype = rtype;
    hold(o);
    return MPI_SUCCESS;
}

int shmpi_nbc_reduce(struct shmpi_nbc *s, const void *in, void *inout,
                     MPI_Count count, MPI_Datatype type, MPI_Op op)
{
    struct nbc_op *o = add(s, NBC_REDUCE);
    if (!o)
        return MPI_ERR_NO_MEM;
    o->src = in;
    o->dst = inout;
    o->count = count;
    o->type = type;
    o->op = op;
    hold(o);
    return MPI_SUCCESS;
}

int shmpi_nbc_call(struct shmpi_nbc *s, shmpi_nbc_fn *fn, void *arg)
{
    struct nbc_op *o = add(s, NBC_CALL);
    if (!o)
        return MPI_ERR_NO_MEM;
    o->fn = fn;
    o->dst = arg;
    return MPI_SUCCESS;
}

int shmpi_nbc_round(struct shmpi_nbc *s)
{
    int first = s->nrounds ? s->round_end[s->nrounds - 1] : 0;
    if (s->nops == first)
        return MPI_SUCCESS; /* an empty round would only cost a poll */
    if (!reserve(&s->round_end, &s->rounds_cap, s->nrounds + 1,
                 sizeof *s->round_end))
        return MPI_ERR_NO_MEM;
    s->round_end[s->nrounds++] = s->nops;
    return MPI_SUCCESS;
}

int shmpi_nbc_on(struct shmpi_nbc *s, MPI_Comm comm)
{
    s->talk = comm; /* each message retains the comm it goes on */
    return MPI_SUCCESS;
}

void *shmpi_nbc_scratch(struct shmpi_nbc *s, MPI_Datatype type,
                        MPI_Count count)
{
    if (!reserve(&s->scratch, &s->scratch_cap, s->nscratch + 1,
                 sizeof *s->scratch))
        return NULL;
    void *block, *p;
    if (type)
        p = shmpi_coll_typed_alloc(type, count, &block);
    else
        p = block = malloc(count > 0 ? (size_t)count : 1);
    if (p)
        s->scratch[s->nscratch++] = block;
    return p;
}

void shmpi_nbc_discard(struct shmpi_nbc *s)
{
    for (int i = 0; i < s->nops; i++)
        let_go(&s->ops[i]);
    for (int i = 0; i < s->nscratch; i++)
        free(s->scratch[i]);
    shmpi_core_comm_release(s->comm);
    free(s->ops);
    free(s->round_end);
    free(s->msgs);
    free(s->scratch);
    free(s);
}

/* ------------------------------------------------------------------ */
/* Running                                                             */
/* ------------------------------------------------------------------ */

static int round_first(const struct shmpi_nbc *s, int r)
{
    return r ? s->round_end[r - 1] : 0;
}

static void fail(struct shmpi_nbc *s, int err)
{
    if (s->error == MPI_SUCCESS && err != MPI_SUCCESS)
        s->error = err;
}

/* Start the messages of round s->round: receives first, so that a peer's
   message finds its receive posted.  A persistent schedule's rounds
   follow each other in s->msgs, each message in a request of its own
   that the first start makes and the later ones rearm: making one
   (zeroing ~250 bytes and filling it) was 115 instructions, 460 a round
   of a persistent MPI_Neighbor_alltoall on a ring of 2 (callgrind,
   2026-12-01, perf/pcoll.c -o neighbor_init -s 8). */
static void begin_round(struct shmpi_nbc *s)
{
    int first = round_first(s, s->round), end = s->round_end[s->round];
    if (s->persistent)
        s->cur += s->nmsgs;   /* past the round before, if any */
    s->nmsgs = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = first; i < end; i++) {
            struct nbc_op *o = &s->ops[i];
            enum nbc_kind want = pass ? NBC_SEND : NBC_RECV;
            if (o->kind != want)
                continue;
            struct shmpi_request *r = &s->cur[s->nmsgs++];
            if (s->persistent && r->magic == SHMPI_MAGIC_REQUEST)
                shmpi_p2p_request_rearm(r);
            else
                shmpi_p2p_internal_request(
                    r, want == NBC_SEND ? SHMPI_REQ_SEND : SHMPI_REQ_RECV,
                    o->comm, o->dst, o->count, o->type, o->peer, s->tag);
            if (want == NBC_RECV)
                shmpi_p2p_start_recv(r);
            else if (shmpi_p2p_start_send("MPI nonblocking collective", r,
                                          SHMPI_MODE_STANDARD) != MPI_SUCCESS) {
                fail(s, MPI_ERR_NO_MEM);
                /* never started: nothing to wait for */
                shmpi_request_set_complete(r);
            }
        }
}

static int messages_done(const struct shmpi_nbc *s)
{
    for (int i = 0; i < s->nmsgs; i++)
        if (!shmpi_request_is_complete(&s->cur[i]))
            return 0;
    return 1;
}

/* The round's messages are done: the schedule keeps their first error. */
static void keep_message_errors(struct shmpi_nbc *s)
{
    for (int i = 0; i < s->nmsgs; i++)
        fail(s, s->cur[i].error);
}

static void run_local(struct shmpi_nbc *s, struct nbc_op *o)
{
    switch (o->kind) {
    case NBC_COPY: {
        uint64_t sent = (uint64_t)o->count * o->type->size;
        uint64_t room = (uint64_t)o->rcount * o->rtype->size;
        if (o->dst != o->src || o->type != o->rtype)
            shmpi_dt_copy_typed(o->dst, o->rtype, o->src, o->type,
                                sent < room ? sent : room);
        if (sent > room)
            fail(s, MPI_ERR_TRUNCATE);
        break;
    }
    case NBC_REDUCE:
        fail(s, shmpi_op_reduce(o->op, o->src, o->dst, o->count, o->type));
        break;
    case NBC_CALL:
        fail(s, o->fn(s, o->dst));
        break;
    default:
        break;
    }
}

/* Run the schedule as far as its messages allow; 1 when it ended. */
static int advance(struct shmpi_nbc *s, int *rounds)
{
    while (s->round < s->nrounds && messages_done(s)) {
        keep_message_errors(s);
        int first = round_first(s, s->round), end = s->round_end[s->round];
        for (int i = first; i < end; i++)
            run_local(s, &s->ops[i]);
        ++*rounds;
        if (++s->round < s->nrounds)
            begin_round(s);
        else
            s->nmsgs = 0;
    }
    return s->round == s->nrounds;
}

/* The size of s->msgs: the most messages any round has, or, persistent,
   the messages of every round. */
static int msgs_needed(const struct shmpi_nbc *s, int persistent)
{
    int widest = 0, all = 0;
    for (int r = 0; r < s->nrounds; r++) {
        int n = 0;
        for (int i = round_first(s, r); i < s->round_end[r]; i++)
            n += s->ops[i].kind == NBC_SEND || s->ops[i].kind == NBC_RECV;
        if (n > widest)
            widest = n;
        all += n;
    }
    return persistent ? all : widest;
}

/* A persistent schedule stays with its request, unless the program
   freed the request while it ran (coll_free): then both go. */
static void finish(struct shmpi_nbc *s)
{
    struct shmpi_request *r = s->req;
    r->error = s->error;
    r->status.MPI_ERROR = s->error;
    if (!s->persistent || r->user_freed)
        shmpi_nbc_discard(s);
    shmpi_p2p_request_complete(r);
}

/* Planned once: the last round closed, room for the messages (a
   persistent schedule's none made yet: magic 0).  0 when out of
   memory. */
static int prepare(struct shmpi_nbc *s, int persistent)
{
    if (shmpi_nbc_round(s) != MPI_SUCCESS)
        return 0;
    int n = msgs_needed(s, persistent);
    if (!reserve(&s->msgs, &s->msgs_cap, n, sizeof *s->msgs))
        return 0;
    if (persistent && n > 0)   /* none: s->msgs may be NULL */
        memset(s->msgs, 0, (size_t)n * sizeof *s->msgs);
    return 1;
}

/* The lane a schedule lives in: its messages' lane, when they all talk
   in one (every schedule on an intracommunicator: its internal
   context), so that two threads' schedules on communicators of two
   lanes never meet.  A schedule that talks in several (an
   intercommunicator's, which talks on its local communicator too)
   lives in lane 0, and starts messages of another lane with lane 0
   held: lane 0 comes before any other in the lock order, and nothing
   waits for lane 0 holding another (pt2pt/lane.h). */
static struct shmpi_lane *lane_for(const struct shmpi_nbc *s)
{
    struct shmpi_lane *l = shmpi_p2p_lane_of(s->comm->context);
    for (int i = 0; i < s->nops; i++)
        if (s->ops[i].comm && shmpi_p2p_lane_of(s->ops[i].comm->context) != l)
            return shmpi_p2p_lane_of(0);
    return l;
}

/* The schedule's request, in the schedule's lane l: its lane is then
   the lane every start, completion and free of it takes. */
static struct shmpi_request *new_request(struct shmpi_nbc *s,
                                         struct shmpi_lane *l)
{
    struct shmpi_request *r = shmpi_p2p_request_new_in(l, SHMPI_REQ_COLL);
    if (!r)
        return NULL;
    r->comm = s->comm;
    shmpi_core_comm_retain(s->comm);
    shmpi_p2p_status_empty(&r->status);
    s->req = r;
    return r;
}

/* Run s from its first round (under its lane, its request's): to its end
   if no message has to wait, else onto the lane's active list. */
static void run(struct shmpi_nbc *s)
{
    int rounds = 0;
    unsigned k = s->req->lane->index;
    s->round = 0;
    s->error = MPI_SUCCESS;
    s->cur = s->msgs;
    s->nmsgs = 0;
    if (s->nrounds)
        begin_round(s);
    if (advance(s, &rounds)) {
        finish(s);
        return;
    }
    s->next = shmpi_proc.nbc_active[k];
    shmpi_proc.nbc_active[k] = s;
    shmpi_progress_hook_arm(shmpi_proc.nbc_hook, k, 1);
}

static int nbc_start(struct shmpi_nbc *s, struct shmpi_lane *l,
                     MPI_Request *req)
{
    struct shmpi_request *r = NULL;
    if (!prepare(s, 0) || !(r = new_request(s, l))) {
        shmpi_nbc_discard(s);
        return MPI_ERR_NO_MEM;
    }
    *req = r;
    run(s);
    return MPI_SUCCESS;
}

int shmpi_nbc_start(struct shmpi_nbc *s, MPI_Request *req)
{
    struct shmpi_lane *l = lane_for(s);
    shmpi_p2p_lane_enter(l);
    int rc = nbc_start(s, l, req);
    shmpi_p2p_lane_leave(l);
    return rc;
}

int shmpi_nbc_persist(struct shmpi_nbc *s, MPI_Request *req)
{
    struct shmpi_request *r = NULL;
    if (!prepare(s, 1) || !(r = new_request(s, lane_for(s)))) {
        shmpi_nbc_discard(s);
        return MPI_ERR_NO_MEM;
    }
    s->persistent = 1;
    r->owner = s;
    r->persistent = 1;
    r->active = 0;
    *req = r;
    return MPI_SUCCESS;
}

/* MPI_Start of a persistent collective request: per start, only the
   request's and the schedule's running state are reset (run). */
static int start_persistent(struct shmpi_request *r, const char *fn)
{
    struct shmpi_lane *l = r->lane; /* the schedule's (new_request) */
    shmpi_p2p_lane_enter(l);
    int was_active = r->active;
    if (!was_active) {
        r->active = 1;
        r->error = MPI_SUCCESS;
        shmpi_p2p_status_empty(&r->status);
        atomic_store_explicit(&r->complete, 0, memory_order_relaxed);
        atomic_store_explicit(&r->handed, 0, memory_order_relaxed);
        run(r->owner);
    }
    shmpi_p2p_lane_leave(l);
    if (was_active)
        return shmpi_raise(r->comm, MPI_ERR_REQUEST, fn,
                           "the persistent collective request is already "
                           "active (wait for it before starting it again)");
    return MPI_SUCCESS;
}

/* 5.12: cancelling a nonblocking collective is erroneous; so is a
   persistent one (MPI-4.0 6.13).  The request completes by progress
   (progress_schedules, our progress hook) and is then handed out as a
   send is: freed, or made inactive if persistent. */
static int coll_cancel(struct shmpi_request *r, const char *fn)
{
    return shmpi_raise(r->comm, MPI_ERR_REQUEST, fn,
                       "a nonblocking or persistent collective cannot be "
                       "cancelled");
}

/* MPI_Request_free (under the request's lane, the schedule's, which
   the running schedule is under too): a request that is done or inactive goes at
   once, with its persistent schedule; a running one when its schedule
   ends (finish). */
static void coll_free(struct shmpi_request *r)
{
    if (r->active && !shmpi_request_is_complete(r)) {
        r->user_freed = 1;
        return;
    }
    if (r->owner)
        shmpi_nbc_discard(r->owner);
    r->owner = NULL;
    shmpi_p2p_request_release(r);
}

static const struct shmpi_req_ops coll_ops = {
    .start = start_persistent,
    .cancel = coll_cancel,
    .free = coll_free,
};

/* r's schedule: a persistent request owns it, a started one is on its
   lane's active list (the describer below runs on a thread asleep in
   MPI_Wait & co. on r, whose progress holds no lane then). */
static const struct shmpi_nbc *schedule_of(const struct shmpi_request *r)
{
    if (r->owner)
        return r->owner;
    for (unsigned k = 0; k < SHMPI_ARENA_LANES_MAX; k++)
        for (struct shmpi_nbc *s = shmpi_proc.nbc_active[k]; s; s = s->next)
            if (s->req == r)
                return s;
    return NULL;
}

/* For the launcher's wait-for graph (core/blocked.h): the call that made
   the schedule, its round, and the first message of the round still
   going (a receive: from whom it waits; a send: to whom). */
static int describe_coll(const void *req, const char *wait, char *buf,
                         size_t len)
{
    const struct shmpi_nbc *s = schedule_of(req);
    char comm[MPI_MAX_OBJECT_NAME + 16], peer[160] = "", head[96];
    if (!s) {
        snprintf(buf, len, "%s: a nonblocking collective", wait);
        return -1;
    }
    shmpi_core_blocked_comm(comm, sizeof comm, s->comm);
    if (s->blocking)
        snprintf(head, sizeof head, "%s", s->fn);
    else
        snprintf(head, sizeof head, "%s: %s", wait, s->fn);
    int world = -1;
    for (int i = 0; i < s->nmsgs && world < 0; i++) {
        const struct shmpi_request *m = &s->cur[i];
        if (shmpi_request_is_complete((struct shmpi_request *)m))
            continue;
        char who[128];
        world = m->peer;
        shmpi_core_blocked_peer(who, sizeof who, m->comm, world);
        snprintf(peer, sizeof peer, ", %s %s",
                 m->kind == SHMPI_REQ_RECV ? "waiting for" : "sending to",
                 who);
    }
    snprintf(buf, len, "%s on %s (round %d of %d)%s", head, comm,
             s->round + 1, s->nrounds, peer);
    return world;
}

void shmpi_nbc_register_kind(void)
{
    shmpi_p2p_request_register(SHMPI_REQ_COLL, &coll_ops);
    shmpi_core_blocked_kind(SHMPI_REQ_COLL, describe_coll);
}

int shmpi_nbc_run(struct shmpi_nbc *s)
{
    MPI_Request r;
    int err = shmpi_nbc_start(s, &r);
    return err != MPI_SUCCESS ? err
                              : shmpi_p2p_request_wait(r, MPI_STATUS_IGNORE);
}

/* What went wrong in a schedule, for the error line. */
static const char *failure(int rc)
{
    switch (rc) {
    case MPI_ERR_NO_MEM:
        return "no memory for the collective's schedule";
    case MPI_ERR_TRUNCATE:
        return "a process sent more data than the receive buffer holds";
    default:
        return "a message of the collective failed";
    }
}

int shmpi_nbc_refuse_call(MPI_Comm comm, int rc)
{
    if (shmpi_comm_ok(comm))
        comm->nbc_seq++;
    return rc;
}

/* A schedule on comm built by build(s, comm, args) into *out;
   MPI_SUCCESS, or an error (not raised) with nothing left. */
static int build_on(MPI_Comm comm, shmpi_nbc_build_fn *build,
                    const void *args, struct shmpi_nbc **out)
{
    struct shmpi_nbc *s = *out = shmpi_nbc_new(comm);
    int rc = s ? build(s, comm, args) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS && s)
        shmpi_nbc_discard(s);
    return rc;
}

int shmpi_nbc_launch(MPI_Comm comm, shmpi_nbc_build_fn *build,
                     const void *args, MPI_Request *req, const char *fn)
{
    struct shmpi_nbc *s;
    int rc = build_on(comm, build, args, &s);
    if (rc == MPI_SUCCESS) {
        s->fn = fn;
        s->blocking = !req;
        rc = req ? shmpi_nbc_start(s, req) : shmpi_nbc_run(s);
    }
    if (rc != MPI_SUCCESS)
        return shmpi_raise(comm, rc, fn, "%s", failure(rc));
    return MPI_SUCCESS;
}

int shmpi_nbc_plan(MPI_Comm comm, shmpi_nbc_build_fn *build,
                   const void *args, MPI_Request *req, const char *fn)
{
    struct shmpi_nbc *s;
    int rc = build_on(comm, build, args, &s);
    if (rc == MPI_SUCCESS) {
        s->fn = fn;
        rc = shmpi_nbc_persist(s, req);
    }
    if (rc != MPI_SUCCESS)
        return shmpi_raise(comm, rc, fn, "%s", failure(rc));
    return MPI_SUCCESS;
}

/* Lane k's schedules, with k held.  The list is taken off shmpi_proc
   while it is walked: a CALL step (the attribute copy callbacks of
   MPI_Comm_idup) may re-enter MPI and start or run schedules of its
   own, which then go on a list of their own. */
static int progress_schedules(unsigned k)
{
    struct shmpi_nbc *s, *list = shmpi_proc.nbc_active[k], *keep = NULL;
    struct shmpi_nbc **tail = &keep;
    int rounds = 0;
    shmpi_proc.nbc_active[k] = NULL;
    while ((s = list)) {
        list = s->next;
        if (advance(s, &rounds)) {
            finish(s);
        } else {
            *tail = s;
            tail = &s->next;
        }
    }
    *tail = shmpi_proc.nbc_active[k];
    shmpi_proc.nbc_active[k] = keep;
    shmpi_progress_hook_arm(shmpi_proc.nbc_hook, k,
                            shmpi_proc.nbc_active[k] != NULL);
    return rounds;
}

void shmpi_nbc_init(void)
{
    shmpi_proc.nbc_hook = shmpi_core_progress_hook_add(progress_schedules);
}
