/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rreq.c - the request-based RMA calls, MPI_Rput, MPI_Rget,
 * MPI_Raccumulate and MPI_Rget_accumulate (MPI-3.1 11.3.5).
 *
 * shmpi moves RMA data at the call (win.h, THE DATA PATH), so the
 * request these return is already complete: MPI_Wait or MPI_Test on it
 * returns at once, and the origin buffer may be reused - or the fetched
 * data read - right after the call; completion at the target needs no
 * more than it does for MPI_Put.  To a rank they are valid only in
 * passive-target epochs (MPI_Win_lock, MPI_Win_lock_all; 11.3.5), and in
 * the sync_ops epochs of sync counters: MPI_ERR_RMA_SYNC otherwise.
 *
 * The standard restricts them to passive-target epochs whatever the
 * target, MPI_PROC_NULL included.  But a call to MPI_PROC_NULL is a
 * no-op, and shmpi, like Open MPI 4.1 and MPICH 4.0, lets it through
 * wherever MPI_Put to MPI_PROC_NULL goes: in any access epoch - fence
 * and PSCW too - with a request that is complete at once and an empty
 * status; outside every epoch it is MPI_ERR_RMA_SYNC, as for MPI_Put
 * (11.3 keeps a call to MPI_PROC_NULL inside an epoch).  A program that
 * relies on this is not portable under the letter of 11.3.5.  The check
 * is xfer.h's shmpi_rma_admit_call.
 *
 * The request is made before the operation runs, so that a failed
 * allocation leaves nothing half done.  It is a send-kind request
 * (pt2pt/request.h) born complete with an empty status: what Wait, Test,
 * Request_free and Cancel do with such a request is exactly what an RMA
 * request needs.
 *
 * In check mode (core/check.h) the result of MPI_Rget and
 * MPI_Rget_accumulate is watched until its request or its epoch
 * completes it (result_check.c): the request's handing out is the
 * completion a program must wait for.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count), on the same checks and path.
 */
#include "core/check.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"
#include "rma/xfer.h"

SHMPI_WEAK_ALIAS(Rput)
SHMPI_WEAK_ALIAS(Rput_c)
SHMPI_WEAK_ALIAS(Rget)
SHMPI_WEAK_ALIAS(Rget_c)
SHMPI_WEAK_ALIAS(Raccumulate)
SHMPI_WEAK_ALIAS(Raccumulate_c)
SHMPI_WEAK_ALIAS(Rget_accumulate)
SHMPI_WEAK_ALIAS(Rget_accumulate_c)

static struct shmpi_request *new_request(MPI_Win win, MPI_Request *request,
                                         const char *fn, int *rc)
{
    MPI_Win raise_on = shmpi_win_ok(win) ? win : MPI_WIN_NULL;
    struct shmpi_request *r = NULL;
    if (!request)
        *rc = shmpi_win_raise(raise_on, MPI_ERR_ARG, fn,
                              "request pointer is NULL");
    else if (!(r = shmpi_p2p_request_new(SHMPI_REQ_SEND)))
        *rc = shmpi_win_raise(raise_on, MPI_ERR_NO_MEM, fn,
                              "no memory for a request");
    return r;
}

/* The operation ran with result rc: hand out its request, complete. */
static int finish(struct shmpi_request *r, int rc, MPI_Request *request)
{
    if (rc != MPI_SUCCESS) {
        shmpi_p2p_request_release(r);
        return rc;
    }
    shmpi_p2p_status_empty(&r->status);
    /* under its lane: a completion writes the lane's `completed`
       (pt2pt/lane.h), which another thread may be reading */
    shmpi_p2p_lane_enter(r->lane);
    shmpi_p2p_request_complete(r);
    shmpi_p2p_lane_leave(r->lane);
    *request = r;
    return MPI_SUCCESS;
}

/* The request forms run the operation at once (a put or get is a copy
   through the mapped window), then hand out a completed request; the
   int and large-count forms share each body, `wide` telling the _c
   form (xfer.h). */
static int rput(const char *fn, const void *origin_addr,
                MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request, int wide)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_request *r = new_request(win, request, fn, &rc);
    if (!r)
        return rc;
    rc = shmpi_rma_put(origin_addr, origin_count, origin_datatype, target_rank,
                       target_disp, target_count, target_datatype, win, 1,
                       wide, fn);
    return finish(r, rc, request);
}

static int rget(const char *fn, void *origin_addr, MPI_Count origin_count,
                MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request, int wide)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_request *r = new_request(win, request, fn, &rc);
    if (!r)
        return rc;
    rc = shmpi_rma_get(origin_addr, origin_count, origin_datatype, target_rank,
                       target_disp, target_count, target_datatype, win, 1,
                       wide, fn);
    if (shmpi_core_checking() && rc == MPI_SUCCESS &&
        target_rank != MPI_PROC_NULL)
        shmpi_rma_result_watch_request(r, win, target_rank, target_disp,
                                       origin_addr, origin_count,
                                       origin_datatype, fn);
    return finish(r, rc, request);
}

/* Raccumulate is Rget_accumulate without a result (fetching 0). */
static int rget_accumulate(const char *fn, const void *origin_addr,
                           MPI_Count origin_count,
                           MPI_Datatype origin_datatype, void *result_addr,
                           MPI_Count result_count,
                           MPI_Datatype result_datatype, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count,
                           MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request *request, int fetching)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_request *r = new_request(win, request, fn, &rc);
    if (!r)
        return rc;
    rc = shmpi_rma_get_accumulate(origin_addr, origin_count, origin_datatype,
                                  result_addr, result_count, result_datatype,
                                  target_rank, target_disp, target_count,
                                  target_datatype, op, win, fetching, 1, fn);
    if (shmpi_core_checking() && fetching &&
        rc == MPI_SUCCESS && target_rank != MPI_PROC_NULL)
        shmpi_rma_result_watch_request(r, win, target_rank, target_disp,
                                       result_addr, result_count,
                                       result_datatype, fn);
    return finish(r, rc, request);
}

int PMPI_Rput(const void *origin_addr, int origin_count,
              MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return rput("MPI_Rput", origin_addr, origin_count, origin_datatype,
                target_rank, target_disp, target_count, target_datatype, win,
                request, 0);
}

int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count,
                MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request)
{
    return rput("MPI_Rput_c", origin_addr, origin_count, origin_datatype,
                target_rank, target_disp, target_count, target_datatype, win,
                request, 1);
}

int PMPI_Rget(void *origin_addr, int origin_count,
              MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return rget("MPI_Rget", origin_addr, origin_count, origin_datatype,
                target_rank, target_disp, target_count, target_datatype, win,
                request, 0);
}

int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count,
                MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request)
{
    return rget("MPI_Rget_c", origin_addr, origin_count, origin_datatype,
                target_rank, target_disp, target_count, target_datatype, win,
                request, 1);
}

int PMPI_Raccumulate(const void *origin_addr, int origin_count,
                     MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                     MPI_Request *request)
{
    return rget_accumulate("MPI_Raccumulate", origin_addr, origin_count,
                           origin_datatype, NULL, 0, NULL, target_rank,
                           target_disp, target_count, target_datatype, op,
                           win, request, 0);
}

int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count,
                       MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, MPI_Count target_count,
                       MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                       MPI_Request *request)
{
    return rget_accumulate("MPI_Raccumulate_c", origin_addr, origin_count,
                           origin_datatype, NULL, 0, NULL, target_rank,
                           target_disp, target_count, target_datatype, op,
                           win, request, 0);
}

int PMPI_Rget_accumulate(const void *origin_addr, int origin_count,
                         MPI_Datatype origin_datatype, void *result_addr,
                         int result_count, MPI_Datatype result_datatype,
                         int target_rank, MPI_Aint target_disp,
                         int target_count, MPI_Datatype target_datatype,
                         MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return rget_accumulate("MPI_Rget_accumulate", origin_addr, origin_count,
                           origin_datatype, result_addr, result_count,
                           result_datatype, target_rank, target_disp,
                           target_count, target_datatype, op, win, request, 1);
}

int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, void *result_addr,
                           MPI_Count result_count,
                           MPI_Datatype result_datatype, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count,
                           MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request *request)
{
    return rget_accumulate("MPI_Rget_accumulate_c", origin_addr, origin_count,
                           origin_datatype, result_addr, result_count,
                           result_datatype, target_rank, target_disp,
                           target_count, target_datatype, op, win, request, 1);
}
