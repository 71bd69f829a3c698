/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pallreduce.c - a persistent MPI_Allreduce of a few bytes (MPI-4.0
 * 6.13) run on the communicator's collective area instead of a schedule
 * of messages: MPI_Start publishes this member's contribution in its
 * control line, as the blocking shmpi_coll_allreduce_small does, and the
 * request completes once every member's word says it published, folding
 * the lines in rank order into the receive buffer.  No message, no
 * progress hook.
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
 * Memory ordering: the contribution and its length are written before
 * shmpi_coll_publish's release store of the word; the poll reads each
 * word with acquire (shmpi_coll_test_range) before it reads that
 * member's line, so it sees the data of that collective.  The data is
 * not overwritten while it is read: its writer writes that parity again
 * only at collective s + 2, after its claim saw every member's word of
 * s + 1 or later, stored (the rule) after that member folded s.  The
 * start rings every doorbell after its publish, since a member waiting
 * in MPI_Wait may sleep on it (core/wait.c).
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
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/pallreduce.h"
#include "core/copy.h"
#include "core/error.h"
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
    struct shmpi_coll_pend *next; /* c->pend: started, not complete */
};

/* Contribution in the line and the word stored: the first store of
   collective a->seq (claim: coll.h's reuse rule).  The caller rings
   after it. */
static void publish(struct shmpi_coll *c, struct shmpi_coll_pend *a)
{
    int p = (int)(a->seq & 1);
    struct shmpi_coll_ctl *mine = shmpi_coll_ctl(c, c->rank);
    shmpi_coll_claim(c, p);
    shmpi_copy_short(mine->data[p], a->sbuf, a->len);
    mine->len[p] = a->len;
    c->last[p].seq = a->seq; /* shmpi_coll_wrote, for a->seq */
    c->last[p].readers = SHMPI_COLL_ALL;
    atomic_store_explicit(&mine->word, shmpi_coll_word(a->seq, 1),
                          memory_order_release);
    a->published = 1;
}

/* The oldest started requests of c completed, as far as the others'
   words allow; the next one published when the one before completes.
   A publish is followed by a ring of every member (which pays owe_all
   too): a member waiting for the word in its MPI_Wait may sleep, while
   this one may return to the program.  The ring comes after the test of
   the others' words, as the blocking path rings after its wait, so that
   its fence does not stall those loads behind the store of the word;
   and after the fold, so that the lines are read before a woken member
   can write its next collective into them (reduce.c, fold_whole).
   Under the lane. */
static void advance(struct shmpi_coll *c)
{
    struct shmpi_coll_pend *a;
    while ((a = atomic_load_explicit(&c->pend, memory_order_relaxed))) {
        int ring = !a->published;
        if (ring)
            publish(c, a);
        if (!shmpi_coll_test_range(c, a->seq, 1)) {
            if (ring)
                shmpi_coll_ring(c, SHMPI_COLL_ALL);
            return;
        }
        int p = (int)(a->seq & 1);
        shmpi_copy_short(a->rbuf, shmpi_coll_ctl(c, c->size - 1)->data[p],
                         a->len);
        for (int j = c->size - 2; j >= 0; j--)
            a->fn(shmpi_coll_ctl(c, j)->data[p], a->rbuf, a->count);
        if (ring)
            shmpi_coll_ring(c, SHMPI_COLL_ALL);
        c->owe_all = 1; /* shmpi_coll_finish(c, 1, ...): no STEP_DONE */
        /* release: a blocking collective that acquires the empty queue
           (shmpi_coll_begin) sees what the fold wrote in c */
        atomic_store_explicit(&c->pend, a->next, memory_order_release);
        a->next = NULL;
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

void shmpi_coll_drain(struct shmpi_coll *c)
{
    shmpi_core_wait_until(pend_done, c);
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

static int pall_start(struct shmpi_request *r, const char *fn)
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
    .cancel = pall_cancel,
    .free = pall_free,
};

void shmpi_coll_pallreduce_register(void)
{
    shmpi_p2p_request_register(SHMPI_REQ_PCOLL, &pall_ops);
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
    struct shmpi_coll_pend *a = calloc(1, sizeof *a);
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
        .count = (size_t)count, .len = (size_t)count * t->size, .fn = fn};
    r->comm = comm;
    shmpi_core_comm_retain(comm);
    shmpi_p2p_status_empty(&r->status);
    r->owner = a;
    r->persistent = 1;
    r->active = 0;
    *req = r;
    return 1;
}
