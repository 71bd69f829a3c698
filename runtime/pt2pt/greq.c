/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * greq.c - generalized requests and the status setters they use:
 * MPI_Grequest_start, MPI_Grequest_complete, MPI_Status_set_elements(_x, _c),
 * MPI_Status_set_cancelled (MPI-3.1 12.2, 12.3).
 *
 * The program does the work; the request only waits for
 * MPI_Grequest_complete.  Wait/Test then ask the query callback for the
 * status and call the free callback, MPI_Cancel calls the cancel
 * callback: the operations of SHMPI_REQ_GREQ (request.h) at the end.
 */
#include "core/check.h"
#include "core/error.h"
#include "core/live.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/wait.h"
#include "datatypes/datatype.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"

SHMPI_WEAK_ALIAS(Grequest_start)
SHMPI_WEAK_ALIAS(Grequest_complete)
SHMPI_WEAK_ALIAS(Status_set_elements)
SHMPI_WEAK_ALIAS(Status_set_elements_x)
SHMPI_WEAK_ALIAS(Status_set_elements_c)
SHMPI_WEAK_ALIAS(Status_set_cancelled)

/* Freed by the program before it completed: clean up now (12.2). */
static void complete_freed(struct shmpi_request *r)
{
    if (!r->user_freed)
        return;
    r->greq.free(r->greq.extra_state);
    shmpi_p2p_request_release(r);
}

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                        MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn,
                        void *extra_state, MPI_Request *request)
{
    static const char *fn = "MPI_Grequest_start";
    SHMPI_REQUIRE_INIT(fn);
    if (!query_fn || !free_fn || !cancel_fn || !request)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "a callback or the request pointer is NULL");
    struct shmpi_request *r = shmpi_p2p_request_new(SHMPI_REQ_GREQ);
    if (!r)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn, "no memory");
    /* errors of the request go to MPI_COMM_WORLD's handler; released
       with the request, like the communicator of any other request */
    shmpi_core_comm_retain(MPI_COMM_WORLD);
    r->comm = MPI_COMM_WORLD;
    r->greq = (struct shmpi_greq){query_fn, free_fn, cancel_fn, extra_state};
    r->on_complete = complete_freed;
    shmpi_p2p_status_empty(&r->status);
    *request = r;
    if (__builtin_expect(shmpi_core_checking(), 0))
        shmpi_core_live_made(SHMPI_LIVE_GREQ, r, fn, NULL);
    return MPI_SUCCESS;
}

int PMPI_Grequest_complete(MPI_Request request)
{
    static const char *fn = "MPI_Grequest_complete";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_request_ok(request) || request->kind != SHMPI_REQ_GREQ ||
        shmpi_request_is_complete(request))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                           "not an incomplete generalized request");
    /* under the lane: MPI_Request_free of it (greq_free) reads
       `complete` and sets user_freed under it, and exactly one of the two
       runs complete_freed */
    shmpi_p2p_lane_enter(request->lane);
    shmpi_p2p_request_complete(request);
    shmpi_p2p_lane_leave(request->lane);
    /* another thread may be asleep in MPI_Wait on it */
    shmpi_core_doorbell_ring(shmpi_proc.rank);
    return MPI_SUCCESS;
}

static int set_elements(const char *fn, MPI_Status *status, MPI_Datatype dt,
                        MPI_Count count)
{
    SHMPI_REQUIRE_INIT(fn);
    if (!status || count < 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "status is NULL or count is negative");
    if (!shmpi_datatype_ok(dt))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, fn,
                           "invalid datatype");
    MPI_Count nbytes = shmpi_dt_elements_bytes(dt, count);
    if (nbytes < 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, fn,
                           "%lld basic elements are more bytes than an "
                           "MPI_Count holds", (long long)count);
    status->shmpi_nbytes = nbytes;
    return MPI_SUCCESS;
}

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype dt,
                               MPI_Count count)
{
    return set_elements("MPI_Status_set_elements_x", status, dt, count);
}

int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype dt,
                               MPI_Count count)
{
    return set_elements("MPI_Status_set_elements_c", status, dt, count);
}

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype dt, int count)
{
    return set_elements("MPI_Status_set_elements", status, dt, count);
}

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    SHMPI_REQUIRE_INIT("MPI_Status_set_cancelled");
    if (!status)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG,
                           "MPI_Status_set_cancelled", "status is NULL");
    status->shmpi_cancelled = flag != 0;
    return MPI_SUCCESS;
}

/* ------------------------------------------- the kind's operations */

static int greq_query(struct shmpi_request *r)
{
    return r->greq.query(r->greq.extra_state, &r->status);
}

/* Wait or Test completed it: the program's handle is gone. */
static int greq_finish(struct shmpi_request *r)
{
    if (__builtin_expect(shmpi_core_checking(), 0))
        shmpi_core_live_freed(SHMPI_LIVE_GREQ, r);
    return r->greq.free(r->greq.extra_state);
}

/* 12.2: the callback is told whether MPI_Grequest_complete came yet. */
static int greq_cancel(struct shmpi_request *r, const char *fn)
{
    r->greq.cancel(r->greq.extra_state, shmpi_request_is_complete(r));
    return MPI_SUCCESS;
}

/* The free callback runs now if the request completed, else at
   MPI_Grequest_complete (complete_freed). */
static void greq_free(struct shmpi_request *r)
{
    if (__builtin_expect(shmpi_core_checking(), 0))
        shmpi_core_live_freed(SHMPI_LIVE_GREQ, r);
    r->user_freed = 1;
    if (shmpi_request_is_complete(r))
        complete_freed(r);
}

const struct shmpi_req_ops shmpi_p2p_greq_ops = {
    .query = greq_query,
    .finish = greq_finish,
    .cancel = greq_cancel,
    .free = greq_free,
};
