/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * completion.c - MPI_Wait, MPI_Test and their any/all/some forms,
 * MPI_Request_free, MPI_Request_get_status (MPI-3.1 3.7.3 - 3.7.5),
 * and MPI-4.1's MPI_Request_get_status_any, _all, _some (3.7.3): the
 * test forms that look at completed requests without handing them out.
 *
 * Waiting turns the progress engine (pt2pt/progress.c) until the requests
 * complete, spinning, yielding and then sleeping on the rank's doorbell
 * (core/wait.c).  A completed request hands its status out once and is
 * released; the handle becomes MPI_REQUEST_NULL.
 *
 * Threads (MPI_THREAD_MULTIPLE): no lane is held while waiting; the
 * polls take the progress engine's lanes only if free (progress.c).  A
 * request's `complete` is read with acquire before its status (request.h).
 * Handing a completion out is claimed through r->handed (claim below:
 * under the request's lane for sends and receives, by an exchange for
 * the other kinds): a thread that loses it - another thread is
 * finishing the same request, which 3.7.4 makes erroneous - returns as
 * for a null request instead of releasing it twice.
 */
#include <stdio.h>

#include "core/check.h"
#include "core/error.h"
#include "core/live.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/wait.h"
#include "pt2pt/bufcheck.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"

SHMPI_WEAK_ALIAS(Wait)
SHMPI_WEAK_ALIAS(Test)
SHMPI_WEAK_ALIAS(Waitany)
SHMPI_WEAK_ALIAS(Testany)
SHMPI_WEAK_ALIAS(Waitall)
SHMPI_WEAK_ALIAS(Testall)
SHMPI_WEAK_ALIAS(Waitsome)
SHMPI_WEAK_ALIAS(Testsome)
SHMPI_WEAK_ALIAS(Request_free)
SHMPI_WEAK_ALIAS(Request_get_status)
SHMPI_WEAK_ALIAS(Request_get_status_any)
SHMPI_WEAK_ALIAS(Request_get_status_all)
SHMPI_WEAK_ALIAS(Request_get_status_some)

static int one_done(void *arg)
{
    struct shmpi_request *r = arg;
    if (shmpi_request_done(r))
        return 1;
    shmpi_p2p_progress();
    return shmpi_request_done(r);
}

static int describe_one(void *arg, char *buf, size_t len)
{
    return shmpi_p2p_request_describe(arg, "MPI_Wait", buf, len);
}

static const struct shmpi_core_waitfor one_waitfor = {one_done, describe_one};

/* The lanes a wait for r is for (core/wait.h): a send or a receive
   completes under its lane, whose holder then rings that lane's bell;
   the other kinds may complete elsewhere (an RMA request's remote
   counters, a generalized request), so their waits are for every
   lane. */
static uint32_t lanes_of(const struct shmpi_request *r)
{
    return shmpi_request_ops(r) ? SHMPI_WAIT_ALL_LANES : 1u << r->lane->index;
}

/* The same for a wait on several requests (any/all/some): the lanes of
   those not complete yet, so that a thread waiting for a window of
   sends on its own communicator sleeps through the other lanes'
   messages.  Only under MULTIPLE (below it the lanes are not looked
   at: one pass over the array saved), and only once a first poll found
   the wait not over (the waits below poll once before they compute it:
   the poll the wait would make first anyway; a pass over 64 requests
   cost the receiver's MPI_Waitall 20 instructions per message at
   MULTIPLE, 2026-11-29, COUNT_LEVEL=multiple perf/run-perf
   pt2pt-count); 0 (all complete or null meanwhile) is "every lane" to
   the wait, which then ends at its first poll. */
static uint32_t lanes_of_all(int count, const MPI_Request reqs[])
{
    if (!__builtin_expect(shmpi_proc.mt, 0))
        return SHMPI_WAIT_ALL_LANES;
    uint32_t lanes = 0;
    for (int i = 0; i < count; i++)
        if (!shmpi_request_inactive(reqs[i]) &&
            !shmpi_request_is_complete(reqs[i]))
            lanes |= lanes_of(reqs[i]);
    return lanes;
}

static void copy_status(const struct shmpi_request *r, MPI_Status *status)
{
    if (status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;
        *status = r->status;
        status->MPI_ERROR = keep; /* set only by the multiple-completion
                                     calls (3.2.5) */
    }
}

static int first_error(int err, int more)
{
    return err != MPI_SUCCESS ? err : more;
}

/* finish() of a kind with operations (request.h): its status made
   final, then the kind's end of the completion.  Kept out of finish():
   inlined there, its calls make every send and receive save and
   restore more registers. */
static __attribute__((noinline)) int
finish_kind(struct shmpi_request *r, const struct shmpi_req_ops *o,
            MPI_Status *status)
{
    int err = r->error;
    if (o->query)
        err = first_error(err, o->query(r));
    copy_status(r, status);
    if (o->finish)
        err = first_error(err, o->finish(r));
    return err;
}

/* Under MULTIPLE: 1 if this thread hands r's completion out.  A send
   or a receive (no ops) is claimed under its lane, which every claim of
   one holds (finish_held_mt, finish_all_mt): the lane's mutex orders
   them, and a persistent request's release of the claim (its store of
   0, under the lane too) comes before the next claim, so a relaxed load
   and store suffice - the acq_rel exchange they were cost a locked
   instruction per request (2026-11-29, perf/run-perf pt2pt-count
   COUNT_LEVEL=multiple).  Other kinds are finished with no lane held
   (their finish and query run the program's callbacks, which may call
   MPI): an exchange, whose acquire reads finish's release store of 0
   that ended r's previous hand-out.  The shared complete send
   (pt2pt->sent, on_stack) is handed out by every thread that holds it:
   never claimed. */
static int claim(struct shmpi_request *r)
{
    return r->on_stack ||
           !atomic_exchange_explicit(&r->handed, 1, memory_order_acq_rel);
}

static int claim_held(struct shmpi_request *r)
{
    if (r->on_stack)
        return 1;
    if (atomic_load_explicit(&r->handed, memory_order_relaxed))
        return 0;
    atomic_store_explicit(&r->handed, 1, memory_order_relaxed);
    return 1;
}

/* finish() of a send or a receive under MULTIPLE: claimed, handed out
   and released holding its lane once. */
static __attribute__((noinline)) int finish_held_mt(MPI_Request *req,
                                                    MPI_Status *status)
{
    struct shmpi_request *r = *req;
    struct shmpi_lane *l = r->lane;
    int err = MPI_SUCCESS;
    shmpi_p2p_lane_enter_mt(&l->lock);
    if (!claim_held(r)) {
        shmpi_p2p_status_empty(status);
    } else {
        copy_status(r, status);
        err = r->error;
        if (r->persistent) {
            if (shmpi_request_is_complete(r))
                r->active = 0;
            atomic_store_explicit(&r->handed, 0, memory_order_relaxed);
            shmpi_p2p_lane_leave_mt(&l->lock);
            return err;
        }
        shmpi_p2p_request_release_held(r);
    }
    shmpi_p2p_lane_leave_mt(&l->lock);
    *req = MPI_REQUEST_NULL;
    return err;
}

/* Hand out a completed request's status; a persistent request becomes
   inactive (unless its kind's finish re-armed it), any other is
   released and its handle nulled.  Sends and receives in one branch. */
static int finish(MPI_Request *req, MPI_Status *status)
{
    struct shmpi_request *r = *req;
    const struct shmpi_req_ops *o = shmpi_request_ops(r);
    int err;
    if (__builtin_expect(shmpi_proc.mt, 0) && !r->on_stack) {
        if (!o)
            return finish_held_mt(req, status);
        if (!claim(r)) {
            shmpi_p2p_status_empty(status);
            *req = MPI_REQUEST_NULL;
            return MPI_SUCCESS;
        }
    }
    if (__builtin_expect(!o, 1)) {
        copy_status(r, status);
        err = r->error;
    } else {
        err = finish_kind(r, o, status);
    }
    if (r->persistent) {
        if (shmpi_request_is_complete(r))
            r->active = 0;
        /* the next completion, of a restart or of a re-armed kind, is
           handed out again */
        atomic_store_explicit(&r->handed, 0, memory_order_release);
        return err;
    }
    shmpi_p2p_request_release(r);
    *req = MPI_REQUEST_NULL;
    return err;
}

/* The other way to end a look at a completed request: MPI_Request_get_status
   and its MPI-4.1 forms fill the status, the kind's query first, and
   leave the request as it is (neither released nor made inactive, its
   completion not claimed: it is still the program's to hand out).  The
   query runs only for a status that is wanted (12.2: query_fn each time
   a status is asked for). */
static int peek(struct shmpi_request *r, MPI_Status *status)
{
    const struct shmpi_req_ops *o = shmpi_request_ops(r);
    int err = MPI_SUCCESS;
    if (o && o->query && status != MPI_STATUS_IGNORE)
        err = o->query(r);
    copy_status(r, status);
    return err;
}

/* peek as the calls on arrays report it: the operation's own error
   first (3.7.5's MPI_ERROR of each status). */
static int peek_one(MPI_Request *req, MPI_Status *status)
{
    return first_error((*req)->error, peek(*req, status));
}

/* An active r of a kind that completes itself (complete_fast,
   request.h): done and handed out in one call, status copied.  A send
   or a receive pays one test (no ops).  MPI_Wait lets the kind look
   FAST_WAIT_POLLS times more before the generic wait, as the collectives'
   waits poll their words first (coll/sync.c: the word usually arrives
   within a cache-line transfer or two). */
enum { FAST_WAIT_POLLS = 32 };

static int fast_completed(struct shmpi_request *r, int polls,
                          MPI_Status *status)
{
    const struct shmpi_req_ops *o = shmpi_request_ops(r);
    if (__builtin_expect(!o || !o->complete_fast, 1) ||
        !o->complete_fast(r, polls))
        return 0;
    copy_status(r, status);
    return 1;
}

int shmpi_p2p_request_wait(struct shmpi_request *r, MPI_Status *status)
{
    if (!shmpi_request_is_complete(r))
        shmpi_core_wait_for(&one_waitfor, r, lanes_of(r));
    copy_status(r, status);
    int err = r->error;
    shmpi_p2p_request_release(r);
    return err;
}

static int check_requests(const char *fn, int count, MPI_Request reqs[])
{
    if (count < 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, fn,
                           "count %d is negative", count);
    if (count > 0 && !reqs)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                           "array_of_requests is NULL");
    for (int i = 0; i < count; i++)
        if (reqs[i] != MPI_REQUEST_NULL && !shmpi_request_ok(reqs[i]))
            return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                               "request %d is not a valid request", i);
    return MPI_SUCCESS;
}

/* Who reports a request's failure: its communicator, or the request
   itself if its kind raises elsewhere (a sync request: its window).
   Taken before finish(), which may free r. */
struct reporter {
    MPI_Comm comm;
    struct shmpi_request *raiser; /* persistent: outlives finish() */
};

static struct reporter reporter_of(struct shmpi_request *r)
{
    const struct shmpi_req_ops *o = shmpi_request_ops(r);
    return (struct reporter){r->comm, o && o->raise ? r : NULL};
}

static int raise_completion(struct reporter who, int err, const char *fn)
{
    if (who.raiser)
        return shmpi_request_ops(who.raiser)->raise(who.raiser, err, fn);
    return shmpi_raise(who.comm, err, fn, "the completed request failed");
}

int PMPI_Wait(MPI_Request *req, MPI_Status *status)
{
    static const char *fn = "MPI_Wait";
    SHMPI_REQUIRE_INIT(fn);
    if (!req)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                           "request pointer is NULL");
    int rc = check_requests(fn, 1, req);
    if (rc != MPI_SUCCESS)
        return rc;
    if (shmpi_request_inactive(*req)) {
        shmpi_p2p_status_empty(status);
        return MPI_SUCCESS;
    }
    if (fast_completed(*req, FAST_WAIT_POLLS, status))
        return MPI_SUCCESS;
    struct shmpi_request *r = *req;
    struct reporter who = reporter_of(r);
    if (!shmpi_request_done(r))
        shmpi_core_wait_for(&one_waitfor, r, lanes_of(r));
    /* the check mode's (pt2pt/bufcheck.h), tested in the request held
       in a register: MPI_Wait 38 instructions, 40 with the mode's bit,
       which kept shmpi_proc's address in a register across the calls
       (2026-11-30, callgrind, core/check.h) */
    if (r->bufcheck)
        shmpi_p2p_bufcheck_ended(fn, 1, req);
    int err = finish(req, status);
    return err ? raise_completion(who, err, fn) : MPI_SUCCESS;
}

int PMPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    static const char *fn = "MPI_Test";
    SHMPI_REQUIRE_INIT(fn);
    if (!req)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                           "request pointer is NULL");
    if (!flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "flag is NULL");
    int rc = check_requests(fn, 1, req);
    if (rc != MPI_SUCCESS)
        return rc;
    if (shmpi_request_inactive(*req)) {
        *flag = 1;
        shmpi_p2p_status_empty(status);
        return MPI_SUCCESS;
    }
    if (fast_completed(*req, 0, status)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    *flag = one_done(*req);
    if (!*flag) {
        shmpi_core_poll_idle();
        return MPI_SUCCESS;
    }
    if ((*req)->bufcheck) /* as in MPI_Wait */
        shmpi_p2p_bufcheck_ended(fn, 1, req);
    struct reporter who = reporter_of(*req);
    int err = finish(req, status);
    return err ? raise_completion(who, err, fn) : MPI_SUCCESS;
}

/* Index of a completed request, -1 if none, MPI_UNDEFINED if all null. */
struct any_wait {
    int count;
    MPI_Request *reqs;
    int index;
};

static int find_completed(struct any_wait *w)
{
    int active = 0;
    for (int i = 0; i < w->count; i++) {
        if (shmpi_request_inactive(w->reqs[i]))
            continue;
        active = 1;
        if (shmpi_request_done(w->reqs[i])) {
            w->index = i;
            return 1;
        }
    }
    w->index = active ? -1 : MPI_UNDEFINED;
    return !active;
}

static int any_done(void *arg)
{
    if (find_completed(arg))
        return 1;
    shmpi_p2p_progress();
    return find_completed(arg);
}

/* Waitany and Waitsome: the first request not complete speaks for all. */
static int describe_any(void *arg, char *buf, size_t len)
{
    const struct any_wait *w = arg;
    for (int i = 0; i < w->count; i++)
        if (!shmpi_request_inactive(w->reqs[i]) &&
            !shmpi_request_is_complete(w->reqs[i])) {
            return shmpi_p2p_request_describe(
                w->reqs[i], "MPI_Waitany/Waitsome", buf, len);
        }
    snprintf(buf, len, "MPI_Waitany/Waitsome");
    return -1;
}

static const struct shmpi_core_waitfor any_waitfor = {any_done, describe_any};

static int finish_any(struct any_wait *w, int *index, MPI_Status *status,
                      const char *fn)
{
    *index = w->index;
    if (w->index == MPI_UNDEFINED) {
        shmpi_p2p_status_empty(status);
        return MPI_SUCCESS;
    }
    if (w->reqs[w->index]->bufcheck) /* as in MPI_Wait */
        shmpi_p2p_bufcheck_ended(fn, 1, &w->reqs[w->index]);
    struct reporter who = reporter_of(w->reqs[w->index]);
    int err = finish(&w->reqs[w->index], status);
    return err ? raise_completion(who, err, fn) : MPI_SUCCESS;
}

int PMPI_Waitany(int count, MPI_Request reqs[], int *index,
                 MPI_Status *status)
{
    static const char *fn = "MPI_Waitany";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_requests(fn, count, reqs);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!index)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "index is NULL");
    struct any_wait w = {count, reqs, -1};
    if (!any_done(&w))
        shmpi_core_wait_for(&any_waitfor, &w, lanes_of_all(count, reqs));
    return finish_any(&w, index, status, fn);
}

int PMPI_Testany(int count, MPI_Request reqs[], int *index, int *flag,
                 MPI_Status *status)
{
    static const char *fn = "MPI_Testany";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_requests(fn, count, reqs);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!index || !flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "index or flag is NULL");
    struct any_wait w = {count, reqs, -1};
    *flag = any_done(&w);
    if (!*flag) {
        *index = MPI_UNDEFINED;
        shmpi_core_poll_idle();
        return MPI_SUCCESS;
    }
    return finish_any(&w, index, status, fn);
}

/* first: every request before it is done or inactive.  A request
   stays done until the call finishes it, so each poll starts where the
   last one stopped: a window whose messages arrive one poll at a time
   costs each request one test, not one per poll before it completes
   (2026-11-29, callgrind of osu_bw's receiver, window of 64 x 8 B
   waited for while the messages arrive: 121 instructions per poll
   before, 9 now; 186 a message before, 18 now). */
struct all_wait {
    int count;
    MPI_Request *reqs;
    int first;
};

static int all_complete(struct all_wait *w)
{
    int i = w->first;
    while (i < w->count && (shmpi_request_inactive(w->reqs[i]) ||
                            shmpi_request_done(w->reqs[i])))
        i++;
    w->first = i;
    return i == w->count;
}

static int all_done(void *arg)
{
    if (all_complete(arg))
        return 1;
    shmpi_p2p_progress();
    return all_complete(arg);
}

static int describe_all(void *arg, char *buf, size_t len)
{
    const struct all_wait *w = arg;
    if (w->first < w->count)
        return shmpi_p2p_request_describe(w->reqs[w->first], "MPI_Waitall",
                                          buf, len);
    snprintf(buf, len, "MPI_Waitall");
    return -1;
}

static const struct shmpi_core_waitfor all_waitfor = {all_done, describe_all};

static int raise_in_status(struct reporter who, const char *fn)
{
    if (who.raiser)
        return raise_completion(who, MPI_ERR_IN_STATUS, fn);
    return shmpi_raise(who.comm, MPI_ERR_IN_STATUS, fn,
                       "a completed request failed; see the MPI_ERROR "
                       "field of its status");
}

/* What is done with each completed request: finish (hand it out) or
   peek_one (look at it). */
typedef int hand_fn(MPI_Request *req, MPI_Status *status);

/* Hand every completed, non-null request to hand; errors go into
   statuses and make the call return MPI_ERR_IN_STATUS (3.7.5). */
static int hand_completed(int count, MPI_Request reqs[], MPI_Status st[],
                          int *indices, int *outcount, const char *fn,
                          hand_fn *hand)
{
    int failed = 0, n = 0;
    /* of the first request that failed */
    struct reporter who = {MPI_COMM_WORLD, NULL};
    for (int i = 0; i < count; i++) {
        MPI_Status *s = st == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE
                        : &st[indices ? n : i];
        if (shmpi_request_inactive(reqs[i])) {
            if (!indices)
                shmpi_p2p_status_empty(s);
            continue;
        }
        if (!shmpi_request_done(reqs[i]))
            continue;
        struct reporter r_who = reporter_of(reqs[i]);
        int err = hand(&reqs[i], s);
        if (s != MPI_STATUS_IGNORE)
            s->MPI_ERROR = err;
        if (err != MPI_SUCCESS && !failed)
            who = r_who;
        failed |= err != MPI_SUCCESS;
        if (indices)
            indices[n] = i;
        n++;
    }
    if (outcount)
        *outcount = n;
    return failed ? raise_in_status(who, fn) : MPI_SUCCESS;
}

static int finish_completed(int count, MPI_Request reqs[], MPI_Status st[],
                            int *indices, int *outcount, const char *fn)
{
    return hand_completed(count, reqs, st, indices, outcount, fn, finish);
}

/* finish_all under MULTIPLE: its lane held across the requests of that
   lane (one at a time), each claimed and released under it (2026-11-29,
   perf/run-perf pt2pt-count COUNT_LEVEL=multiple, 8 B: the receiver's
   MPI_Waitall 393 -> 315 instructions per message against
   finish_completed, the sender's 115 -> 65; 1 B, with the release
   taking the lane again for a depth count and an exchange per claim:
   320, with neither: 299). */
static __attribute__((noinline)) int
finish_all_mt(int count, MPI_Request reqs[], MPI_Status st[], const char *fn)
{
    struct shmpi_lane *l = NULL;
    int i = 0;
    for (; i < count; i++) {
        struct shmpi_request *r = reqs[i];
        MPI_Status *s = st == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &st[i];
        if (r == MPI_REQUEST_NULL || r->ops || r->persistent || r->error)
            break;
        if (r->lane != l) {
            if (l)
                shmpi_p2p_lane_leave(l);
            l = r->lane;
            shmpi_p2p_lane_enter(l);
        }
        if (claim_held(r)) {
            if (s != MPI_STATUS_IGNORE)
                *s = r->status;
            shmpi_p2p_request_release_held(r);
        } else {
            shmpi_p2p_status_empty(s);
        }
        if (s != MPI_STATUS_IGNORE)
            s->MPI_ERROR = MPI_SUCCESS;
        reqs[i] = MPI_REQUEST_NULL;
    }
    if (l)
        shmpi_p2p_lane_leave(l);
    if (i == count)
        return MPI_SUCCESS;
    return finish_completed(count - i, reqs + i,
                            st == MPI_STATUSES_IGNORE ? st : st + i, NULL,
                            NULL, fn);
}

/* Waitall and Testall once every request is done: finish_completed
   without the bookkeeping of indices and of who failed first, as long
   as the requests are sends and receives that succeeded; from the first
   other one on, finish_completed does the rest (the ones before it did
   not fail, so the first failure it finds is the first of all).
   2026-11-29, perf/run-perf pt2pt-count, 1 B: the receiver's MPI_Waitall
   320 -> 271 instructions per message, the sender's 104 -> 55. */
static int finish_all(int count, MPI_Request reqs[], MPI_Status st[],
                      const char *fn)
{
    if (shmpi_core_checking())
        shmpi_p2p_bufcheck_ended(fn, count, reqs);
    if (__builtin_expect(shmpi_proc.mt, 0))
        return finish_all_mt(count, reqs, st, fn);
    for (int i = 0; i < count; i++) {
        struct shmpi_request *r = reqs[i];
        MPI_Status *s = st == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &st[i];
        if (r == MPI_REQUEST_NULL || r->ops || r->persistent || r->error)
            return finish_completed(count - i, reqs + i,
                                    st == MPI_STATUSES_IGNORE ? st : s, NULL,
                                    NULL, fn);
        if (s != MPI_STATUS_IGNORE) {
            *s = r->status;
            s->MPI_ERROR = MPI_SUCCESS;
        }
        shmpi_p2p_request_release_held(r); /* no lane below MULTIPLE */
        reqs[i] = MPI_REQUEST_NULL;
    }
    return MPI_SUCCESS;
}

int PMPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    static const char *fn = "MPI_Waitall";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_requests(fn, count, reqs);
    if (rc != MPI_SUCCESS)
        return rc;
    struct all_wait w = {count, reqs, 0};
    if (!all_done(&w))
        shmpi_core_wait_for(&all_waitfor, &w,
                            lanes_of_all(count - w.first, reqs + w.first));
    return finish_all(count, reqs, statuses, fn);
}

/* Testall, and MPI_Request_get_status_all (peek: the requests left as
   they are). */
static int test_all(const char *fn, int count, MPI_Request reqs[], int *flag,
                    MPI_Status statuses[], int peek)
{
    int rc = check_requests(fn, count, reqs);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "flag is NULL");
    struct all_wait w = {count, reqs, 0};
    *flag = all_done(&w);
    if (!*flag) {
        shmpi_core_poll_idle();
        return MPI_SUCCESS;
    }
    return peek ? hand_completed(count, reqs, statuses, NULL, NULL, fn,
                                 peek_one)
                : finish_all(count, reqs, statuses, fn);
}

int PMPI_Testall(int count, MPI_Request reqs[], int *flag,
                 MPI_Status statuses[])
{
    SHMPI_REQUIRE_INIT("MPI_Testall");
    return test_all("MPI_Testall", count, reqs, flag, statuses, 0);
}

static int hand_some(int incount, MPI_Request reqs[], int *outcount,
                     int indices[], MPI_Status statuses[], const char *fn,
                     hand_fn *hand)
{
    struct any_wait w = {incount, reqs, -1};
    find_completed(&w);
    if (w.index == MPI_UNDEFINED) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    if (hand == finish && shmpi_core_checking())
        shmpi_p2p_bufcheck_ended(fn, incount, reqs);
    return hand_completed(incount, reqs, statuses, indices, outcount, fn,
                          hand);
}

static int check_some(const char *fn, int incount, MPI_Request reqs[],
                      int *outcount, int indices[])
{
    int rc = check_requests(fn, incount, reqs);
    if (rc == MPI_SUCCESS && (!outcount || (incount > 0 && !indices)))
        rc = shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                         "outcount or array_of_indices is NULL");
    return rc;
}

int PMPI_Waitsome(int incount, MPI_Request reqs[], int *outcount,
                  int indices[], MPI_Status statuses[])
{
    static const char *fn = "MPI_Waitsome";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_some(fn, incount, reqs, outcount, indices);
    if (rc != MPI_SUCCESS)
        return rc;
    struct any_wait w = {incount, reqs, -1};
    if (!any_done(&w))
        shmpi_core_wait_for(&any_waitfor, &w, lanes_of_all(incount, reqs));
    return hand_some(incount, reqs, outcount, indices, statuses, fn, finish);
}

/* Testsome and MPI_Request_get_status_some: hand (finish or peek_one)
   what has completed. */
static int test_some(const char *fn, int incount, MPI_Request reqs[],
                     int *outcount, int indices[], MPI_Status statuses[],
                     hand_fn *hand)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_some(fn, incount, reqs, outcount, indices);
    if (rc != MPI_SUCCESS)
        return rc;
    /* Testsome progresses only when nothing is complete: what it finds
       complete it hands out, so the next call progresses.  A look hands
       nothing out, and a program that calls it until more requests
       complete would wait for ever: it progresses each time. */
    if (hand == peek_one)
        shmpi_p2p_progress();
    struct any_wait w = {incount, reqs, -1};
    if (!any_done(&w) && w.index == -1) {
        *outcount = 0;
        shmpi_core_poll_idle();
        return MPI_SUCCESS;
    }
    return hand_some(incount, reqs, outcount, indices, statuses, fn, hand);
}

int PMPI_Testsome(int incount, MPI_Request reqs[], int *outcount,
                  int indices[], MPI_Status statuses[])
{
    return test_some("MPI_Testsome", incount, reqs, outcount, indices,
                     statuses, finish);
}

int PMPI_Request_free(MPI_Request *req)
{
    static const char *fn = "MPI_Request_free";
    SHMPI_REQUIRE_INIT(fn);
    if (!req || !shmpi_request_ok(*req))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                           "not a valid request");
    struct shmpi_request *r = *req;
    const struct shmpi_req_ops *o = shmpi_request_ops(r);
    if (r->kind == SHMPI_REQ_PART) {
        int rc = shmpi_p2p_part_free_check(r, fn);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    /* the program's last chance to be told of its send buffer */
    if (shmpi_core_checking()) {
        shmpi_p2p_bufcheck_freed(r);
        if (r->persistent)
            shmpi_core_live_freed(SHMPI_LIVE_PREQ, r);
    }
    /* under the lane: progress reads user_freed when it completes r */
    struct shmpi_lane *l = r->lane;
    shmpi_p2p_lane_enter(l);
    if (o && o->free) {
        o->free(r);
    } else if (shmpi_request_is_complete(r) || !r->active) {
        shmpi_p2p_request_release(r);
    } else {
        r->user_freed = 1; /* released when it completes */
    }
    shmpi_p2p_lane_leave(l);
    *req = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

int PMPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status)
{
    static const char *fn = "MPI_Request_get_status";
    SHMPI_REQUIRE_INIT(fn);
    if (!flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "flag is NULL");
    if (req != MPI_REQUEST_NULL && !shmpi_request_ok(req))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                           "not a valid request");
    if (shmpi_request_inactive(req)) {
        *flag = 1;
        shmpi_p2p_status_empty(status);
        return MPI_SUCCESS;
    }
    *flag = one_done(req);
    if (!*flag)
        return MPI_SUCCESS;
    int err = peek(req, status);
    return err ? raise_completion(reporter_of(req), err, fn) : MPI_SUCCESS;
}

/* MPI-4.1 3.7.3: Testany's answer, the request left as it is. */
int PMPI_Request_get_status_any(int count, MPI_Request reqs[], int *index,
                                int *flag, MPI_Status *status)
{
    static const char *fn = "MPI_Request_get_status_any";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_requests(fn, count, reqs);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!index || !flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "index or flag is NULL");
    struct any_wait w = {count, reqs, -1};
    *flag = any_done(&w);
    *index = w.index == -1 ? MPI_UNDEFINED : w.index;
    if (!*flag) {
        shmpi_core_poll_idle();
        return MPI_SUCCESS;
    }
    if (w.index == MPI_UNDEFINED) {
        shmpi_p2p_status_empty(status);
        return MPI_SUCCESS;
    }
    struct reporter who = reporter_of(reqs[w.index]);
    int err = peek_one(&reqs[w.index], status);
    return err ? raise_completion(who, err, fn) : MPI_SUCCESS;
}

/* MPI-4.1 3.7.3: Testall's answer, the requests left as they are. */
int PMPI_Request_get_status_all(int count, MPI_Request reqs[], int *flag,
                                MPI_Status statuses[])
{
    SHMPI_REQUIRE_INIT("MPI_Request_get_status_all");
    return test_all("MPI_Request_get_status_all", count, reqs, flag, statuses,
                    1);
}

/* MPI-4.1 3.7.3: Testsome's answer, the requests left as they are. */
int PMPI_Request_get_status_some(int incount, MPI_Request reqs[],
                                 int *outcount, int indices[],
                                 MPI_Status statuses[])
{
    return test_some("MPI_Request_get_status_some", incount, reqs, outcount,
                     indices, statuses, peek_one);
}
