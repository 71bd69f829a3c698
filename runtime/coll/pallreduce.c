/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pallreduce.c - a persistent MPI_Allreduce of a few bytes (MPI-4.0
 * 6.13) run on the communicator's collective area instead of a schedule
 * of messages: MPI_Start publishes this member's contribution in its
 * control line, as the blocking shmpi_coll_allreduce_small does, and the
 * request completes once every member's word says it published, folding
 * the others' lines and its own copy of its contribution in rank order
 * into the receive buffer.  No message, no progress hook.
 *
 * Taken at init (shmpi_coll_pallreduce_plan) when the blocking fast path
 * would be: an intracommunicator with an area, not on the counter barrier,
 * a predefined op on a contiguous predefined type with a kernel, 1 to
 * SHMPI_COLL_INLINE bytes.  The arguments, hence the choice, are the same
 * on every member of a correct program, so all members run a start on the
 * area or all run it as a schedule.  Decided once, at init: the length,
 * the kernel, the buffers (MPI_IN_PLACE resolved).
 *
 * THE AREA SHARED WITH AN OUTSTANDING COLLECTIVE.  Each start takes the
 * communicator's next collective number (c->seq, coll.h) just as a
 * blocking collective does; starts and collectives are made in the same
 * order on every member (6.13), so members agree on it.  coll.h's reuse
 * rule rests on "a later word of a member implies it finished reading
 * everything earlier", which a started persistent Allreduce would break:
 * a member could store a word of collective s + 1 while still owing the
 * fold of s.  So the rule is kept true by this file:
 *
 *   a member stores its first word of collective s only after it has
 *   completed (folded) every area collective before s.
 *
 *   - a blocking collective begins (shmpi_coll_begin) by completing the
 *     member's started area requests of its communicator
 *     (shmpi_coll_drain), waiting for the others' contributions.  A
 *     blocking collective may synchronize: every member reaching it has
 *     made the earlier starts, so whatever it waits for is published by
 *     a member that is not waiting on this one;
 *   - a start whose member still has an earlier area request pending
 *     does not publish: it queues, and publishes when the one before it
 *     completes (advance), so MPI_Start never waits for another process.
 *
 * With it, a started Allreduce is like a blocking one cut at its wait:
 * it writes parity (seq & 1) of its control line after the usual claim
 * (whose readers, by the rule, are done once their words moved on), and
 * records that every member reads it.  Completing it stores nothing
 * (shmpi_coll_finish with stored_first: the next store rings
 * everyone).
 *
 * THE FAST PATH (below MPI_THREAD_MULTIPLE, the queue empty: every
 * start of a program that waits for each before the next).  MPI_Start
 * (pt2pt/persistent.c sends this kind straight to pall_start) publishes
 * and returns; MPI_Wait and MPI_Test (complete_fast, request.h) look at
 * the others' words, fold, ring and make the request inactive in one
 * call - no generic completion, no second pass of advance.  The ring
 * that goes with the publish is the one thing left for later: a ring
 * right after the store makes its fence wait for the store itself, whose
 * line the others are polling (one cache-line crossing, spent inside
 * MPI_Start), while after the wait saw the others' words the store has
 * long left and the fence costs only itself - the order the blocking
 * Allreduce has (reduce.c).  Who is owed that ring: a member that
 * counted itself asleep on its doorbell waiting for this word (or for
 * the STEP_DONE it stands for, coll.h's owe_all).  So:
 *   - the start looks at the others' sleeper counts without a fence
 *     (their addresses found at init): one that already sleeps - the
 *     usual case of a late start - is rung at once;
 *   - otherwise the ring is owed (the request on `owing`, the hook
 *     armed in lane 0, which every progress turn visits) and paid by
 *     whichever comes first: this request's completion (complete_fast,
 *     or advance from any other Test/Wait, a drain by a blocking
 *     collective) or any turn of the progress engine - every wait of
 *     this process for another process turns it before it may sleep
 *     (the done() of each caller of core/wait.c; the one that does not,
 *     rma/map_vm.c's, waits for a thread of this process), so two
 *     members never sleep on each other's unrung words.
 * Between the start and the next MPI call that completes it or waits, a
 * member that counted itself asleep in the instant of the publish (the
 * look cannot see it; the fence would) sleeps until then: later, never
 * lost.  Under MPI_THREAD_MULTIPLE the start rings at once, as advance
 * always does: a request may be waited by another thread, and `owing`
 * is this process's below it only.
 *
 * All of the above is for a job without the global fence.  With it
 * (shmpi_proc.fence_registered, core/fence.h) the ring needs no fence
 * of the ringer's (core/wait.h, shmpi_core_ring_fence): the start rings
 * at once, right after the store of its word - a compiler barrier and a
 * relaxed look at each other member's sleeper count, which stalls on
 * nothing - and nothing is ever owed: the wait only tests, folds and
 * hands out.  The pair: this member's release store of the word, then
 * its look (program order, kept by the compiler barrier); a sleeper's
 * count, then its global fence, then its done() reading the word.  The
 * global fence runs a full fence on this member's CPU somewhere in its
 * program: before it the store, so the sleeper sees the word; or after
 * it the look, so the look sees the count and wakes the sleeper.
 *
 * Memory ordering: the contribution and its length are written before
 * shmpi_coll_publish's release store of the word; the poll reads each
 * word with acquire (shmpi_coll_test_range) before it reads that
 * member's line, so it sees the data of that collective.  The data is
 * not overwritten while it is read: its writer writes that parity again
 * only at collective s + 2, after its claim saw every member's word of
 * s + 1 or later, stored (the rule) after that member folded s.  Every
 * publish is followed by a ring of every doorbell (pay), at once or
 * later as above, since a member waiting in MPI_Wait may sleep on it
 * (core/wait.c): the ring's seq_cst fence comes after the store of the
 * word, however much later, and the sleeper's after its count, so
 * either the ring sees the count or the sleeper's last look sees the
 * word.  The look of the start is relaxed and orders nothing: it only
 * rings sooner.  With the global fence, the pair of the paragraph above
 * instead: the start's look comes right after the store, and the
 * sleeper's global fence after its count.
 *
 * Threads: the queue of started requests (c->pend), and every use of the
 * area by a start, a poll or a drain, is under the communicator's pt2pt
 * lane (the request's lane; shmpi_p2p_lane_enter is a no-op below
 * MPI_THREAD_MULTIPLE), so a thread testing the request and another
 * starting the next collective on the communicator do not meet in it.
 * The blocking collectives themselves run outside the lane, as ever: a
 * program orders its collective calls on one communicator (MPI-4.0
 * 6.14), and a blocking one begins with the queue empty.
 */
#include <stdio.h>
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/pallreduce.h"
#include "core/blocked.h"
#include "core/copy.h"
#include "core/error.h"
#include "core/hooks.h"
#include "core/wait.h"
#include "datatypes/ops.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"

struct shmpi_coll_pend {
    struct shmpi_request *req;
    struct shmpi_coll *c;      /* its communicator's area state */
    const void *sbuf;          /* MPI_IN_PLACE resolved at init */
    void *rbuf;
    size_t count, len;
    shmpi_kernel *fn;
    uint64_t seq;              /* the collective of the current start */
    int published;             /* its contribution is in the line */
    /* the contribution of the current start, folded from here and not
       from this member's line (coll.h: not reading one's own line back;
       MPI_IN_PLACE: the receive buffer is overwritten by the fold);
       aligned for the kernels, which read it as the type */
    _Alignas(16) unsigned char mine[SHMPI_COLL_INLINE];
    int rung;                  /* the others rung since the publish */
    struct shmpi_coll_pend *next; /* c->pend: started, not complete */
    struct shmpi_coll_pend *owing_next; /* on `owing` */
    struct shmpi_coll_ctl *lines; /* the members' control lines */
    int size;                  /* members */
    int nbells;
    struct {                   /* the others' doorbells: */
        _Atomic uint32_t *sleepers; /* sleeper count */
        int rank;              /* of MPI_COMM_WORLD, to wake */
    } bell[];
};

/* Below MPI_THREAD_MULTIPLE: the published requests whose ring is
   owed (top comment), and the progress hook that pays them. */
static struct shmpi_coll_pend *owing;
static int owing_hook;

/* Contribution in the line and the word stored: the first store of
   collective a->seq (claim: coll.h's reuse rule).  The caller rings
   after it, at once or later (pay).  Inline: MPI_Start's one call. */
static inline __attribute__((always_inline)) void
publish(struct shmpi_coll *c, struct shmpi_coll_pend *a)
{
    int p = (int)(a->seq & 1);
    struct shmpi_coll_ctl *mine = a->lines + c->rank;
    shmpi_coll_claim(c, p);
    shmpi_copy_short(a->mine, a->sbuf, a->len);
    shmpi_copy_short(mine->data[p], a->mine, a->len);
    mine->len[p] = a->len;
    c->last[p].seq = a->seq; /* shmpi_coll_wrote, for a->seq */
    c->last[p].readers = SHMPI_COLL_ALL;
    atomic_store_explicit(&mine->word, shmpi_coll_word(a->seq, 1),
                          memory_order_release);
    a->published = 1;
    a->rung = 0;
}

/* Every other member's doorbell rung, which pays owe_all too: the
   fence (a compiler barrier only, in a job registered for the global
   fence: core/wait.h) orders the word's store before the look at each
   sleeper count. */
static inline __attribute__((always_inline)) void
ring_all(struct shmpi_coll *c, struct shmpi_coll_pend *a)
{
    shmpi_core_ring_fence(shmpi_proc.fence_registered);
    for (int i = 0; i < a->nbells; i++)
        shmpi_core_ring_look(a->bell[i].sleepers, a->bell[i].rank);
    c->owe_all = 0;
    a->rung = 1;
}

/* The ring of a's publish, if still owed. */
static void pay(struct shmpi_coll *c, struct shmpi_coll_pend *a)
{
    if (a->rung)
        return;
    ring_all(c, a);
    /* on `owing` if its start left the ring for later (not under
       MULTIPLE, nor when advance published it: it rings at once) */
    struct shmpi_coll_pend **p = &owing;
    while (*p && *p != a)
        p = &(*p)->owing_next;
    if (!*p)
        return;
    *p = a->owing_next;
    if (!owing)
        shmpi_progress_hook_arm(owing_hook, 0, 0);
}

/* The progress hook: every owed ring paid (lane 0, below MULTIPLE). */
static int pay_owed(unsigned lane)
{
    while (owing) {
        struct shmpi_coll_pend *a = owing;
        owing = a->owing_next;
        a->rung = 1;
        shmpi_coll_ring(a->c, SHMPI_COLL_ALL);
    }
    shmpi_progress_hook_arm(owing_hook, lane, 0);
    return 0; /* a ring moves nothing of this rank's */
}

/* Does a member count a sleeper?  Relaxed loads, no fence: sure when
   1, maybe late when 0 (top comment). */
static int sleeper_seen(const struct shmpi_coll_pend *a)
{
    for (int i = 0; i < a->nbells; i++)
        if (atomic_load_explicit(a->bell[i].sleepers, memory_order_relaxed))
            return 1;
    return 0;
}

/* After the publish of a start: ring now with the global fence (no
   fence of ours: it costs a look per member), under MULTIPLE or when a
   member is seen asleep, else leave it owed (top comment). */
static inline __attribute__((always_inline)) void
ring_or_owe(struct shmpi_coll *c, struct shmpi_coll_pend *a)
{
    if (__builtin_expect(shmpi_proc.fence_registered, 1)) {
        ring_all(c, a);
        return;
    }
    if (shmpi_proc.mt || sleeper_seen(a)) {
        pay(c, a);
        return;
    }
    a->owing_next = owing;
    owing = a;
    shmpi_progress_hook_arm(owing_hook, 0, 1);
}

/* Member j's contribution of this start, in parity p's data. */
static inline __attribute__((always_inline)) const unsigned char *
data_of(const struct shmpi_coll *c, const struct shmpi_coll_pend *a, int j,
        int p)
{
    return j == c->rank ? a->mine : a->lines[j].data[p];
}

/* The others' lines and this member's copy folded in rank order into
   the receive buffer, the ring, if still owed, paid after the fold (the
   lines are read before a woken member can write its next collective
   into them: reduce.c, fold_whole; with the global fence the start rang
   already, and only a member that slept - not the common case - is woken
   before the fold), a taken off the queue.  Every member's word of a->seq was seen.
   Inline: MPI_Wait's fast path calls nothing but the kernel (its
   instructions a round 170 -> 163 at np = 2: callgrind, 2026-11-30,
   perf/README.md's pcoll). */
static inline __attribute__((always_inline)) void
fold_and_pop(struct shmpi_coll *c, struct shmpi_coll_pend *a)
{
    int p = (int)(a->seq & 1);
    shmpi_copy_short(a->rbuf, data_of(c, a, a->size - 1, p), a->len);
    for (int j = a->size - 2; j >= 0; j--)
        a->fn(data_of(c, a, j, p), a->rbuf, a->count);
    pay(c, a);
    c->owe_all = 1; /* shmpi_coll_finish(c, 1, ...): no STEP_DONE */
    /* release: a blocking collective that acquires the empty queue
       (shmpi_coll_begin) sees what the fold wrote in c */
    atomic_store_explicit(&c->pend, a->next, memory_order_release);
    a->next = NULL;
}

/* The oldest started requests of c completed, as far as the others'
   words allow; the next one published when the one before completes.
   A publish is followed by a ring of every member (pay): a member
   waiting for the word in its MPI_Wait may sleep, while this one may
   return to the program.  The ring comes after the test of the others'
   words, as the blocking path rings after its wait, so that its fence
   does not stall those loads behind the store of the word.  Under the
   lane. */
static void advance(struct shmpi_coll *c)
{
    struct shmpi_coll_pend *a;
    while ((a = atomic_load_explicit(&c->pend, memory_order_relaxed))) {
        if (!a->published)
            publish(c, a);
        if (!shmpi_coll_test_range(c, a->seq, 1)) {
            pay(c, a);
            return;
        }
        fold_and_pop(c, a);
        struct shmpi_request *r = a->req;
        if (r->user_freed)
            free(a); /* the request goes with its completion */
        shmpi_p2p_request_complete(r);
    }
}

static int pend_done(void *arg)
{
    struct shmpi_coll *c = arg;
    struct shmpi_lane *l = shmpi_p2p_lane_of(c->context);
    shmpi_p2p_lane_enter(l);
    advance(c);
    int done = atomic_load_explicit(&c->pend, memory_order_relaxed) == NULL;
    shmpi_p2p_lane_leave(l);
    if (!done)
        shmpi_p2p_progress();
    return done;
}

/* For the launcher's wait-for graph (core/wait.h): a blocking
   collective (c->call) that first completes the started persistent
   Allreduces, and the member whose word the oldest one misses. */
static int describe_drain(void *arg, char *buf, size_t len)
{
    struct shmpi_coll *c = arg;
    struct shmpi_coll_pend *a =
        atomic_load_explicit(&c->pend, memory_order_relaxed);
    int m = a ? shmpi_coll_missing(c, a->seq, 1) : -1;
    return shmpi_coll_describe(c, m, " (completing a started persistent "
                               "MPI_Allreduce first)", buf, len);
}

static const struct shmpi_core_waitfor drain_waitfor = {pend_done,
                                                        describe_drain};

void shmpi_coll_drain(struct shmpi_coll *c)
{
    shmpi_core_wait_for(&drain_waitfor, c, SHMPI_WAIT_ALL_LANES);
}

/* For the launcher's wait-for graph (core/blocked.h): the persistent
   Allreduce r, and the member whose word its start misses. */
static int describe_pall(const void *req, const char *wait, char *buf,
                         size_t len)
{
    const struct shmpi_request *r = req;
    const struct shmpi_coll_pend *a = r->owner;
    char call[64];
    snprintf(call, sizeof call, "%s: MPI_Allreduce_init's request", wait);
    return shmpi_coll_describe_as(a->c, call, -1,
                                  shmpi_coll_missing(a->c, a->seq, 1), "",
                                  buf, len);
}

/* Test/Wait: has it completed now?  Never waits. */
static int pall_poll(struct shmpi_request *r)
{
    struct shmpi_coll_pend *a = r->owner;
    shmpi_p2p_lane_enter(r->lane);
    advance(a->c);
    shmpi_p2p_lane_leave(r->lane);
    return shmpi_request_is_complete(r);
}

/* MPI_Wait / MPI_Test's one call (request.h, complete_fast): below
   MULTIPLE, r the only started request of its communicator.  The others' words are looked at polls + 1 times; once
   all arrived, the fold, the ring and the hand-out.  r->status is the
   empty one of init, r->error MPI_SUCCESS (nothing sets another), and
   r->complete is left 0: an inactive request is never tested for it,
   and its next start would clear it.  Anything else (a queue, MULTIPLE,
   the words late) goes the generic way, which polls through advance. */
static int pall_complete_fast(struct shmpi_request *r, int polls)
{
    struct shmpi_coll_pend *a = r->owner;
    struct shmpi_coll *c = a->c;
    /* the head of the queue is published (advance publishes each as it
       becomes the head) */
    if (shmpi_proc.mt ||
        atomic_load_explicit(&c->pend, memory_order_relaxed) != a ||
        a->next)
        return 0;
    for (int i = 0; !shmpi_coll_test_range(c, a->seq, 1); i++) {
        if (i == polls)
            return 0;
        shmpi_cpu_relax();
    }
    fold_and_pop(c, a);
    r->active = 0;
    return 1;
}

/* MPI_Start below MULTIPLE with nothing queued: publish, and the ring
   now or owed (top comment).  r's handed needs no reset: only a claim
   under MULTIPLE sets it. */
static void start_alone(struct shmpi_request *r, struct shmpi_coll_pend *a)
{
    struct shmpi_coll *c = a->c;
    r->active = 1;
    atomic_store_explicit(&r->complete, 0, memory_order_relaxed);
    a->seq = shmpi_coll_begin_raw(c);
    atomic_store_explicit(&c->pend, a, memory_order_relaxed);
    publish(c, a);
    ring_or_owe(c, a);
}

static __attribute__((noinline)) int start_queued(struct shmpi_request *r,
                                                  const char *fn)
{
    struct shmpi_coll_pend *a = r->owner;
    struct shmpi_coll *c = a->c;
    shmpi_p2p_lane_enter(r->lane);
    int was_active = r->active;
    if (!was_active) {
        r->active = 1;
        r->error = MPI_SUCCESS;
        atomic_store_explicit(&r->complete, 0, memory_order_relaxed);
        atomic_store_explicit(&r->handed, 0, memory_order_relaxed);
        a->seq = shmpi_coll_begin_raw(c);
        a->published = 0;
        struct shmpi_coll_pend *q =
            atomic_load_explicit(&c->pend, memory_order_relaxed);
        if (!q) { /* nothing before it: publish now, maybe complete */
            atomic_store_explicit(&c->pend, a, memory_order_relaxed);
            advance(c);
        } else { /* published by advance, once q's queue before it is done */
            while (q->next)
                q = q->next;
            q->next = a;
        }
    }
    shmpi_p2p_lane_leave(r->lane);
    if (was_active)
        return shmpi_raise(r->comm, MPI_ERR_REQUEST, fn,
                           "the persistent collective request is already "
                           "active (wait for it before starting it again)");
    return MPI_SUCCESS;
}

/* One branch for the common start (start_alone); a queue, MULTIPLE and
   the error of an active request go the long way. */
static int pall_start(struct shmpi_request *r, const char *fn)
{
    struct shmpi_coll_pend *a = r->owner;
    if (__builtin_expect(
            !(shmpi_proc.mt | r->active) &&
                !atomic_load_explicit(&a->c->pend, memory_order_relaxed),
            1)) {
        start_alone(r, a);
        return MPI_SUCCESS;
    }
    return start_queued(r, fn);
}
static int pall_cancel(struct shmpi_request *r, const char *fn)
{
    return shmpi_raise(r->comm, MPI_ERR_REQUEST, fn,
                       "a nonblocking or persistent collective cannot be "
                       "cancelled");
}

/* MPI_Request_free: a started request still queued goes when it
   completes (advance), at the latest in the next collective on its
   communicator or its MPI_Comm_free's. */
static void pall_free(struct shmpi_request *r)
{
    shmpi_p2p_lane_enter(r->lane);
    int running = r->active && !shmpi_request_is_complete(r);
    if (running)
        r->user_freed = 1;
    shmpi_p2p_lane_leave(r->lane);
    if (running)
        return;
    free(r->owner);
    r->owner = NULL;
    shmpi_p2p_request_release(r);
}

static const struct shmpi_req_ops pall_ops = {
    .poll = pall_poll,
    .start = pall_start,
    .complete_fast = pall_complete_fast,
    .cancel = pall_cancel,
    .free = pall_free,
};

void shmpi_coll_pallreduce_register(void)
{
    shmpi_p2p_request_register(SHMPI_REQ_PCOLL, &pall_ops);
    shmpi_core_blocked_kind(SHMPI_REQ_PCOLL, describe_pall);
    owing_hook = shmpi_core_progress_hook_add(pay_owed);
}

int shmpi_coll_pallreduce_plan(const void *sendbuf, void *recvbuf,
                               MPI_Count count, MPI_Datatype t, MPI_Op op,
                               MPI_Comm comm, MPI_Request *req)
{
    struct shmpi_coll *c = comm->coll;
    shmpi_kernel *fn;
    if (comm->is_inter || !c || shmpi_proc.coll_tune.counter_barrier ||
        count <= 0 || (uint64_t)count * t->size > SHMPI_COLL_INLINE ||
        !t->predefined || !t->contig || op->code > SHMPI_OP_LAST_KERNEL ||
        !(fn = shmpi_op_kernel_find(op->code, t->basic,
                                    SHMPI_OP_FOR_REDUCTION)))
        return 0;
    struct shmpi_coll_pend *a =
        calloc(1, sizeof *a + (size_t)(c->size - 1) * sizeof a->bell[0]);
    struct shmpi_request *r =
        a ? shmpi_p2p_request_new_in(shmpi_p2p_lane_of(comm->context),
                                     SHMPI_REQ_PCOLL)
          : NULL;
    if (!r) {
        free(a);
        return -1;
    }
    *a = (struct shmpi_coll_pend){
        .req = r, .c = c,
        .sbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, .rbuf = recvbuf,
        .count = (size_t)count, .len = (size_t)count * t->size, .fn = fn,
        .rung = 1, .lines = shmpi_coll_ctl(c, 0), .size = c->size};
    for (int j = 0; j < c->size; j++)
        if (j != c->rank) {
            a->bell[a->nbells].sleepers = shmpi_coll_sleepers(c, j);
            a->bell[a->nbells++].rank = shmpi_coll_world_of(c, j);
        }
    r->comm = comm;
    shmpi_core_comm_retain(comm);
    shmpi_p2p_status_empty(&r->status);
    r->owner = a;
    r->persistent = 1;
    r->active = 0;
    *req = r;
    return 1;
}
