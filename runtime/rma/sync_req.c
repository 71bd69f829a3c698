/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_req.c - the persistent requests of sync counters (shmpi_sync(7)):
 * MPI_Win_sync_object_init (wait for a local counter to reach 0) and
 * MPI_Win_sync_ops_init (signal a remote counter once this process's RMA
 * calls to its owner are complete), and what MPI_Start, Test/Wait and
 * MPI_Request_free do with them: the operations of SHMPI_REQ_SYNC, which
 * pt2pt calls through the table of pt2pt/request.h (registered at the
 * end, from MPI_Init).
 *
 * Arming adds.  MPI_Start of a sync_object request adds count to the
 * counter instead of storing it, so a signal that came early (a
 * neighbour already one iteration ahead, which may signal again before
 * this process has even seen the end of the round) is kept: the counter
 * goes below 0, and the next round then needs one signal less.  The
 * request completes when Test/Wait finds the counter at 0 or below.  A
 * counter still below 0 once armed got more than a whole round of
 * signals early: an error of the program (MPI_ERR_WIN_COUNTER).  The
 * counter is (counts added - signals received): the signallers count up
 * a word in the arena, the owner adds in its own memory, so the line the
 * signallers write is never written by the owner (one cache-line
 * crossing each way per round, not two).
 *
 * Signalling is completion.  Every RMA call of shmpi has completed at
 * origin and target when it returns (rma/win.h), so a started sync_ops
 * request is complete at once: the first Test or Wait that sees it
 * signals (sync_counter.c), and the call that hands the completion out
 * ends the request's part of the sync_ops epoch (or, "restart", keeps
 * it open for the next round).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/blocked.h"
#include "core/check.h"
#include "core/error.h"
#include "core/info.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/sync.h"
#include "rma/sync_counter.h"

SHMPI_WEAK_ALIAS(Win_sync_ops_init)
SHMPI_WEAK_ALIAS(Win_sync_object_init)

#define ALL_MODES \
    (MPI_MODE_WIN_PUT | MPI_MODE_WIN_GET | MPI_MODE_WIN_ACCUMULATE)

static struct shmpi_sync_req *part(struct shmpi_request *r)
{
    return r->owner;
}

/* ------------------------------------------------------------ init */

/* info "restart": 1 for "true", 0 for "false" or unset; -1 otherwise. */
static int restart_of(MPI_Info info)
{
    const char *v = shmpi_info_get(info, "restart");
    if (!v || !strcmp(v, "false"))
        return 0;
    return strcmp(v, "true") ? -1 : 1;
}

static int check_common(MPI_Win win, MPI_Info info, MPI_Request *req,
                        const char *fn)
{
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (info != MPI_INFO_NULL && !shmpi_info_ok(info))
        return shmpi_win_raise(win, MPI_ERR_INFO, fn,
                               "info is not a valid info object");
    if (restart_of(info) < 0)
        return shmpi_win_raise(win, MPI_ERR_INFO_VALUE, fn,
                               "info key \"restart\" is \"%s\": it takes "
                               "\"true\" or \"false\"",
                               shmpi_info_get(info, "restart"));
    if (!req)
        return shmpi_win_raise(win, MPI_ERR_ARG, fn, "req is NULL");
    return MPI_SUCCESS;
}

/* An inactive persistent request of kind SHMPI_REQ_SYNC around s. */
static int make_request(MPI_Win win, struct shmpi_sync_req *s,
                        MPI_Request *req, const char *fn)
{
    struct shmpi_request *r = shmpi_p2p_request_new(SHMPI_REQ_SYNC);
    struct shmpi_sync_req *own = r ? malloc(sizeof *own) : NULL;
    if (own)
        *own = *s;
    if (!own || shmpi_rma_sync_link(win, own) != MPI_SUCCESS) {
        free(own);
        if (r)
            shmpi_p2p_request_release(r);
        return shmpi_win_raise(win, MPI_ERR_NO_MEM, fn,
                               "no memory for a request");
    }
    own->req = r;
    r->owner = own;
    r->persistent = 1;
    r->active = 0;
    shmpi_p2p_status_empty(&r->status);
    *req = r;
    return MPI_SUCCESS;
}

int PMPI_Win_sync_object_init(MPI_Sync sync_counter, int count, MPI_Win win,
                              MPI_Info info, MPI_Request *req)
{
    static const char *fn = "MPI_Win_sync_object_init";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_common(win, info, req, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return shmpi_win_raise(win, MPI_ERR_COUNT, fn,
                               "count %d is negative", count);
    struct shmpi_sync_req s = {.counter = sync_counter, .count = count,
                               .win = win, .restart = restart_of(info)};
    if (!shmpi_rma_sync_mine(win, sync_counter) ||
        !(s.slot = shmpi_rma_sync_find(sync_counter, &s.owner)) ||
        !(s.own = shmpi_rma_sync_own_of(sync_counter)))
        return shmpi_win_raise(win, MPI_ERR_ARG, fn,
                               "sync_counter %d is not a counter this "
                               "process allocated on this window "
                               "(MPI_Win_alloc_sync_objects)", sync_counter);
    return make_request(win, &s, req, fn);
}

/* Who owns a counter that is not target's, for the message. */
static const char *whose(MPI_Sync h, char *buf, size_t len)
{
    int owner;
    if (!shmpi_rma_sync_find(h, &owner))
        return "no live counter";
    snprintf(buf, len, "a counter of MPI_COMM_WORLD rank %d", owner);
    return buf;
}

int PMPI_Win_sync_ops_init(int target_rank, int sync_mode,
                           MPI_Sync sync_counter, MPI_Win win, MPI_Info info,
                           MPI_Request *req)
{
    static const char *fn = "MPI_Win_sync_ops_init";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_common(win, info, req, fn);
    if (rc != MPI_SUCCESS ||
        (rc = shmpi_rma_check_rank(win, target_rank, fn)) != MPI_SUCCESS)
        return rc;
    if (sync_mode & ~ALL_MODES)
        return shmpi_win_raise(win, MPI_ERR_ARG, fn,
                               "sync_mode %#x has bits that are none of "
                               "MPI_MODE_WIN_PUT, MPI_MODE_WIN_GET, "
                               "MPI_MODE_WIN_ACCUMULATE", sync_mode);
    struct shmpi_sync_req s = {.counter = sync_counter, .is_ops = 1,
                               .target = target_rank, .mode = sync_mode,
                               .win = win, .restart = restart_of(info)};
    if (target_rank == MPI_PROC_NULL)
        return make_request(win, &s, req, fn);
    int world = shmpi_comm_peer_to_world(win->comm, target_rank);
    s.slot = shmpi_rma_sync_find(sync_counter, &s.owner);
    if (!s.slot || s.owner != world || s.slot->win_id != win->id) {
        char buf[64];
        return shmpi_win_raise(win, MPI_ERR_ARG, fn,
                               "sync_counter %d is %s, not a counter that "
                               "target %d allocated on this window (it "
                               "comes from its MPI_Win_alloc_sync_objects, "
                               "sent as MPI_HANDLE_SYNC)", sync_counter,
                               s.slot && s.owner != world
                                   ? whose(sync_counter, buf, sizeof buf)
                               : s.slot ? "a counter of another window"
                                        : "no live counter",
                               target_rank);
    }
    return make_request(win, &s, req, fn);
}

/* ----------------------------------------------------------- start */

/* Is s's counter still the one its handle named at init? */
static int counter_lives(const struct shmpi_sync_req *s)
{
    return atomic_load_explicit(&s->slot->handle, memory_order_relaxed) ==
           (uint32_t)s->counter;
}

/* What is left of the round: counts armed less signals received.
   acquire: pairs with the signallers' release (sync_counter.c), so what
   they put here is visible once their signals are seen. */
static int64_t remaining(const struct shmpi_sync_req *s)
{
    return s->own->armed -
           atomic_load_explicit(&s->slot->signals, memory_order_acquire);
}

/* A new round of count signals; MPI_ERR_WIN_COUNTER (s->why says it)
   if more than that came early.  The owner never writes the shared
   counter: the round is in its own memory. */
static int arm(struct shmpi_sync_req *s)
{
    s->own->armed += s->count;
    int64_t left = remaining(s);
    if (left >= 0)
        return MPI_SUCCESS;
    s->own->armed -= s->count; /* a failed start leaves it as it was */
    snprintf(s->why, sizeof s->why, "counter %d got %lld signals before it "
             "was armed with count %d: more than one round of signals "
             "came early", s->counter, (long long)(s->count - left),
             s->count);
    return MPI_ERR_WIN_COUNTER;
}

static int start_object(struct shmpi_sync_req *s, const char *fn)
{
    if (!counter_lives(s))
        return shmpi_win_raise(s->win, MPI_ERR_ARG, fn,
                               "counter %d was freed "
                               "(MPI_Win_free_sync_objects)", s->counter);
    if (s->own->armer)
        return shmpi_win_raise(s->win, MPI_ERR_REQUEST, fn,
                               "counter %d is already armed by another "
                               "active request", s->counter);
    int rc = arm(s);
    if (rc != MPI_SUCCESS)
        return shmpi_win_raise(s->win, rc, fn, "%s", s->why);
    s->own->armer = s->req;
    return MPI_SUCCESS;
}

static void activate(struct shmpi_sync_req *s)
{
    struct shmpi_request *r = s->req;
    r->active = 1;
    r->complete = 0;
    r->error = MPI_SUCCESS;
    shmpi_rma_sync_count_active(s->win, 1);
}

/* MPI_Start. */
static int sync_start(struct shmpi_request *r, const char *fn)
{
    struct shmpi_sync_req *s = part(r);
    if (!s->win)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                           "the window of this sync request was freed");
    if (r->active)
        return shmpi_win_raise(s->win, MPI_ERR_REQUEST, fn,
                               "the sync request is already active (wait "
                               "for it before starting it again)");
    int rc = s->is_ops ? shmpi_rma_sync_cover(s->win, s->target, s->mode, fn)
                       : start_object(s, fn);
    if (rc == MPI_SUCCESS)
        activate(s);
    return rc;
}

/* ------------------------------------------------------- complete */

static void fail(struct shmpi_request *r, int err, const char *what)
{
    snprintf(part(r)->why, sizeof part(r)->why, "%s", what);
    r->error = err;
}

static void complete_ops(struct shmpi_request *r)
{
    struct shmpi_sync_req *s = part(r);
    /* Checked before the signal, never after: an owner may free its
       counter as soon as it has seen the signal, and that is no error.
       A free that races with the signal (an erroneous program) can go
       unseen. */
    if (s->target != MPI_PROC_NULL) {
        /* check mode: the completion of the RMA calls it covered */
        if (shmpi_core_checking() && s->mode && s->win) {
            shmpi_rma_origin_complete(s->win, s->target,
                                      "the completion of a sync_ops request");
            shmpi_rma_conflict_end(s->win, s->target);
        }
        if (counter_lives(s))
            shmpi_rma_sync_signal(s->slot, s->owner);
        else
            fail(r, MPI_ERR_ARG, "the counter it signals was freed by its "
                                 "owner");
    }
    r->complete = 1;
}

/* Test/Wait: has r completed?  Does the completion's work once
   (a sync_ops request signals its counter). */
static int sync_poll(struct shmpi_request *r)
{
    if (r->complete)
        return 1;
    struct shmpi_sync_req *s = part(r);
    if (s->is_ops) {
        complete_ops(r);
        return 1;
    }
    if (remaining(s) > 0)
        return 0;
    r->complete = 1;
    return 1;
}

/* The request's epoch part ends when Test/Wait hands its completion
   out, or when it is freed. */
static void deactivate(struct shmpi_sync_req *s)
{
    s->req->active = 0;
    shmpi_rma_sync_count_active(s->win, -1);
    if (s->is_ops)
        shmpi_rma_sync_uncover(s->win, s->target, s->mode);
    else
        s->own->armer = NULL; /* a round it armed and did not see end
                                 stays armed */
}

/* After Test/Wait handed out the completion: inactive, or re-armed
   (info "restart").  Returns an error of the re-arming. */
static int sync_finish(struct shmpi_request *r)
{
    struct shmpi_sync_req *s = part(r);
    if (!s->restart || r->error != MPI_SUCCESS) {
        deactivate(s);
        return MPI_SUCCESS;
    }
    /* re-armed at once; a sync_ops request keeps its epoch open */
    r->complete = 0;
    if (s->is_ops)
        return MPI_SUCCESS;
    int rc = arm(s);
    if (rc != MPI_SUCCESS)
        deactivate(s);
    return rc;
}

/* A failed completion's error goes through the window's handler. */
static int sync_raise(struct shmpi_request *r, int err, const char *fn)
{
    struct shmpi_sync_req *s = part(r);
    if (err == MPI_ERR_IN_STATUS)
        return shmpi_win_raise(s->win, err, fn, "a completed request failed;"
                               " see the MPI_ERROR field of its status");
    return shmpi_win_raise(s->win, err, fn, "the sync request failed: %s",
                           s->why);
}

static int sync_cancel(struct shmpi_request *r, const char *fn)
{
    return shmpi_win_raise(part(r)->win, MPI_ERR_REQUEST, fn,
                           "a sync request cannot be cancelled (complete "
                           "it, or free it with MPI_Request_free)");
}

/* ------------------------------------------------------------ free */

static void sync_free(struct shmpi_request *r)
{
    struct shmpi_sync_req *s = part(r);
    if (r->active && s->win) {
        /* its RMA calls are done: signal them - unless it is a restart
           request, whose freeing ends the rounds instead */
        if (s->is_ops && !r->complete && !s->restart)
            complete_ops(r);
        deactivate(s);
    }
    if (s->win)
        shmpi_rma_sync_unlink(s->win, s);
    free(s);
    r->owner = NULL;
    shmpi_p2p_request_release(r);
}

static const struct shmpi_req_ops sync_ops = {
    .poll = sync_poll,
    .start = sync_start,
    .finish = sync_finish,
    .cancel = sync_cancel,
    .free = sync_free,
    .raise = sync_raise,
};

/* For the launcher's wait-for graph (core/blocked.h): the counter, its
   window and what the round still misses.  Who signals a counter is
   the program's business (any member may), so no rank is named. */
static int describe_sync(const void *req, const char *wait, char *buf,
                         size_t len)
{
    const struct shmpi_sync_req *s = part((struct shmpi_request *)req);
    char label[MPI_MAX_OBJECT_NAME + 48] = "a freed window";
    if (s->win)
        shmpi_win_label_short(s->win, label, sizeof label);
    if (s->is_ops || !counter_lives(s))
        snprintf(buf, len, "%s: a sync request on %s", wait, label);
    else
        snprintf(buf, len, "%s: sync counter %#x of world rank %d on %s "
                 "(MPI_Win_sync_object_init, count %d): %lld signal(s) "
                 "missing", wait, (unsigned)s->counter, s->owner, label,
                 s->count, (long long)remaining(s));
    return -1;
}

void shmpi_rma_sync_register_kind(void)
{
    shmpi_p2p_request_register(SHMPI_REQ_SYNC, &sync_ops);
    shmpi_core_blocked_kind(SHMPI_REQ_SYNC, describe_sync);
}
