/*
 * completion.c - MPI_Wait, MPI_Test and their any/all/some forms,
 * MPI_Request_free, MPI_Request_get_status (MPI-3.1 3.7.3 - 3.7.5).
 *
 * Waiting turns the progress engine (pt2pt/progress.c) until the requests
 * complete, spinning, yielding and then sleeping on the rank's doorbell
 * (core/wait.c).  A completed request hands its status out once and is
 * released; the handle becomes MPI_REQUEST_NULL.
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/wait.h"
#include "pt2pt/progress.h"
#include "pt2pt/request.h"
#include "rma/sync_counter.h"

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

static int one_done(void *arg)
{
    struct shmpi_request *r = arg;
    if (shmpi_request_done(r))
        return 1;
    shmpi_progress();
    return shmpi_request_done(r);
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

/* A generalized request's status comes from its query callback, then
   its free callback runs (12.2). */
static void greq_finish(struct shmpi_request *r)
{
    int err = r->greq.query(r->greq.extra_state, &r->status);
    int ferr = r->greq.free(r->greq.extra_state);
    r->error = err != MPI_SUCCESS ? err : ferr;
}

/* Hand out a completed request's status; a persistent request becomes
   inactive, any other is released and its handle nulled. */
static int finish(MPI_Request *req, MPI_Status *status)
{
    struct shmpi_request *r = *req;
    if (r->kind == SHMPI_REQ_GREQ)
        greq_finish(r);
    copy_status(r, status);
    int err = r->error;
    if (r->kind == SHMPI_REQ_SYNC) { /* inactive, or re-armed */
        int rearm = shmpi_sync_finish(r);
        return err != MPI_SUCCESS ? err : rearm;
    }
    if (r->persistent) {
        r->active = 0;
        return err;
    }
    shmpi_request_release(r);
    *req = MPI_REQUEST_NULL;
    return err;
}

int shmpi_request_wait(struct shmpi_request *r, MPI_Status *status)
{
    if (!r->complete)
        shmpi_wait_until(one_done, r);
    copy_status(r, status);
    int err = r->error;
    shmpi_request_release(r);
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

/* Who reports a request's failure: its communicator, or for a sync
   request its window.  Taken before finish(), which may free r. */
struct reporter {
    MPI_Comm comm;
    struct shmpi_request *sync; /* persistent: outlives finish() */
};

static struct reporter reporter_of(struct shmpi_request *r)
{
    return (struct reporter){r->comm,
                             r->kind == SHMPI_REQ_SYNC ? r : NULL};
}

static int raise_completion(struct reporter who, int err, const char *fn)
{
    if (who.sync)
        return shmpi_sync_raise(who.sync, err, fn);
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
        shmpi_status_empty(status);
        return MPI_SUCCESS;
    }
    struct reporter who = reporter_of(*req);
    if (!shmpi_request_done(*req))
        shmpi_wait_until(one_done, *req);
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
        shmpi_status_empty(status);
        return MPI_SUCCESS;
    }
    *flag = one_done(*req);
    if (!*flag) {
        shmpi_poll_idle();
        return MPI_SUCCESS;
    }
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
    shmpi_progress();
    return find_completed(arg);
}

static int finish_any(struct any_wait *w, int *index, MPI_Status *status,
                      const char *fn)
{
    *index = w->index;
    if (w->index == MPI_UNDEFINED) {
        shmpi_status_empty(status);
        return MPI_SUCCESS;
    }
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
    shmpi_wait_until(any_done, &w);
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
        shmpi_poll_idle();
        return MPI_SUCCESS;
    }
    return finish_any(&w, index, status, fn);
}

struct all_wait {
    int count;
    MPI_Request *reqs;
};

static int all_complete(const struct all_wait *w)
{
    for (int i = 0; i < w->count; i++)
        if (!shmpi_request_inactive(w->reqs[i]) &&
            !shmpi_request_done(w->reqs[i]))
            return 0;
    return 1;
}

static int all_done(void *arg)
{
    if (all_complete(arg))
        return 1;
    shmpi_progress();
    return all_complete(arg);
}

static int raise_in_status(struct reporter who, const char *fn)
{
    if (who.sync)
        return shmpi_sync_raise(who.sync, MPI_ERR_IN_STATUS, fn);
    return shmpi_raise(who.comm, MPI_ERR_IN_STATUS, fn,
                       "a completed request failed; see the MPI_ERROR "
                       "field of its status");
}

/* Finish every completed, non-null request; errors go into statuses and
   make the call return MPI_ERR_IN_STATUS (3.7.5). */
static int finish_completed(int count, MPI_Request reqs[], MPI_Status st[],
                            int *indices, int *outcount, const char *fn)
{
    int failed = 0, n = 0;
    /* of the first request that failed */
    struct reporter who = {MPI_COMM_WORLD, NULL};
    for (int i = 0; i < count; i++) {
        MPI_Status *s = st == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE
                        : &st[indices ? n : i];
        if (shmpi_request_inactive(reqs[i])) {
            if (!indices)
                shmpi_status_empty(s);
            continue;
        }
        if (!shmpi_request_done(reqs[i]))
            continue;
        struct reporter r_who = reporter_of(reqs[i]);
        int err = finish(&reqs[i], s);
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

int PMPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    static const char *fn = "MPI_Waitall";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_requests(fn, count, reqs);
    if (rc != MPI_SUCCESS)
        return rc;
    struct all_wait w = {count, reqs};
    shmpi_wait_until(all_done, &w);
    return finish_completed(count, reqs, statuses, NULL, NULL, fn);
}

int PMPI_Testall(int count, MPI_Request reqs[], int *flag,
                 MPI_Status statuses[])
{
    static const char *fn = "MPI_Testall";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_requests(fn, count, reqs);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "flag is NULL");
    struct all_wait w = {count, reqs};
    *flag = all_done(&w);
    if (!*flag) {
        shmpi_poll_idle();
        return MPI_SUCCESS;
    }
    return finish_completed(count, reqs, statuses, NULL, NULL, fn);
}

static int finish_some(int incount, MPI_Request reqs[], int *outcount,
                       int indices[], MPI_Status statuses[], const char *fn)
{
    struct any_wait w = {incount, reqs, -1};
    find_completed(&w);
    if (w.index == MPI_UNDEFINED) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    return finish_completed(incount, reqs, statuses, indices, outcount, fn);
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
    shmpi_wait_until(any_done, &w);
    return finish_some(incount, reqs, outcount, indices, statuses, fn);
}

int PMPI_Testsome(int incount, MPI_Request reqs[], int *outcount,
                  int indices[], MPI_Status statuses[])
{
    static const char *fn = "MPI_Testsome";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_some(fn, incount, reqs, outcount, indices);
    if (rc != MPI_SUCCESS)
        return rc;
    struct any_wait w = {incount, reqs, -1};
    if (!any_done(&w) && w.index == -1) {
        *outcount = 0;
        shmpi_poll_idle();
        return MPI_SUCCESS;
    }
    return finish_some(incount, reqs, outcount, indices, statuses, fn);
}

int PMPI_Request_free(MPI_Request *req)
{
    static const char *fn = "MPI_Request_free";
    SHMPI_REQUIRE_INIT(fn);
    if (!req || !shmpi_request_ok(*req))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                           "not a valid request");
    struct shmpi_request *r = *req;
    if (r->kind == SHMPI_REQ_SYNC) {
        shmpi_sync_request_free(r);
    } else if (r->complete || !r->active) {
        if (r->kind == SHMPI_REQ_GREQ)
            r->greq.free(r->greq.extra_state);
        shmpi_request_release(r);
    } else {
        r->user_freed = 1; /* released when it completes */
    }
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
        shmpi_status_empty(status);
        return MPI_SUCCESS;
    }
    *flag = one_done(req);
    if (!*flag)
        return MPI_SUCCESS;
    int err = MPI_SUCCESS;
    if (req->kind == SHMPI_REQ_GREQ && status != MPI_STATUS_IGNORE)
        err = req->greq.query(req->greq.extra_state, status);
    else
        copy_status(req, status);
    return err ? raise_completion(reporter_of(req), err, fn) : MPI_SUCCESS;
}
