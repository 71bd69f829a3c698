/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * persistent.c - persistent requests: MPI_Send_init, MPI_Bsend_init,
 * MPI_Ssend_init, MPI_Rsend_init, MPI_Recv_init, MPI_Start, MPI_Startall
 * (MPI-3.1 3.9).
 *
 * An *_init call checks its arguments once and builds an inactive
 * request; MPI_Start makes it active exactly as the nonblocking call
 * would; a completing Wait/Test makes it inactive again instead of
 * freeing it, so a loop reuses one request and allocates nothing.
 * Persistent requests of other rooms (a sync counter's) are started by
 * their kind's start (request.h).
 */
#include <stdio.h>

#include "core/check.h"
#include "core/error.h"
#include "core/live.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "pt2pt/bufcheck.h"
#include "pt2pt/check.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/start.h"

SHMPI_WEAK_ALIAS(Send_init)
SHMPI_WEAK_ALIAS(Send_init_c)
SHMPI_WEAK_ALIAS(Bsend_init)
SHMPI_WEAK_ALIAS(Bsend_init_c)
SHMPI_WEAK_ALIAS(Ssend_init)
SHMPI_WEAK_ALIAS(Ssend_init_c)
SHMPI_WEAK_ALIAS(Rsend_init)
SHMPI_WEAK_ALIAS(Rsend_init_c)
SHMPI_WEAK_ALIAS(Recv_init)
SHMPI_WEAK_ALIAS(Recv_init_c)
SHMPI_WEAK_ALIAS(Start)
SHMPI_WEAK_ALIAS(Startall)

static int make_inactive(const char *fn, MPI_Comm comm, MPI_Request *req,
                         enum shmpi_req_kind kind, struct shmpi_request **out)
{
    if (!req)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
    struct shmpi_request *r = shmpi_p2p_request_new(kind);
    if (!r)
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn, "no memory");
    r->persistent = 1;
    r->active = 0;
    if (shmpi_core_checking())
        shmpi_core_live_made(SHMPI_LIVE_PREQ, r, fn, NULL);
    *req = *out = r;
    return MPI_SUCCESS;
}

static int send_init(const char *fn, const void *buf, MPI_Count count,
                     MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                     MPI_Request *req, int mode)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_check_send(fn, buf, count, dt, dest, tag, comm);
    struct shmpi_request *r;
    if (rc == MPI_SUCCESS &&
        (rc = make_inactive(fn, comm, req, SHMPI_REQ_SEND, &r)) ==
            MPI_SUCCESS) {
        shmpi_p2p_request_fill(r, buf, count, dt, dest, tag, comm);
        r->mode = mode;
    }
    return rc;
}

int PMPI_Send_init(const void *buf, int count, MPI_Datatype dt, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_init("MPI_Send_init", buf, count, dt, dest, tag, comm, req,
                     SHMPI_MODE_STANDARD);
}

int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype dt,
                     int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_init("MPI_Send_init_c", buf, count, dt, dest, tag, comm, req,
                     SHMPI_MODE_STANDARD);
}

int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                    int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_init("MPI_Bsend_init", buf, count, dt, dest, tag, comm, req,
                     SHMPI_MODE_BUFFERED);
}

int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype dt,
                      int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_init("MPI_Bsend_init_c", buf, count, dt, dest, tag, comm, req,
                     SHMPI_MODE_BUFFERED);
}

int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                    int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_init("MPI_Ssend_init", buf, count, dt, dest, tag, comm, req,
                     SHMPI_MODE_SYNC);
}

int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype dt,
                      int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_init("MPI_Ssend_init_c", buf, count, dt, dest, tag, comm, req,
                     SHMPI_MODE_SYNC);
}

int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                    int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_init("MPI_Rsend_init", buf, count, dt, dest, tag, comm, req,
                     SHMPI_MODE_READY);
}

int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype dt,
                      int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_init("MPI_Rsend_init_c", buf, count, dt, dest, tag, comm, req,
                     SHMPI_MODE_READY);
}

static int recv_init_call(const char *fn, void *buf, MPI_Count count,
                          MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                          MPI_Request *req)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_check_recv(fn, buf, count, dt, source, tag, comm);
    struct shmpi_request *r;
    if (rc == MPI_SUCCESS &&
        (rc = make_inactive(fn, comm, req, SHMPI_REQ_RECV, &r)) ==
            MPI_SUCCESS)
        shmpi_p2p_request_fill(r, buf, count, dt, source, tag, comm);
    return rc;
}

int PMPI_Recv_init(void *buf, int count, MPI_Datatype dt, int source, int tag,
                   MPI_Comm comm, MPI_Request *req)
{
    return recv_init_call("MPI_Recv_init", buf, count, dt, source, tag, comm,
                          req);
}

int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype dt, int source,
                     int tag, MPI_Comm comm, MPI_Request *req)
{
    return recv_init_call("MPI_Recv_init_c", buf, count, dt, source, tag, comm,
                          req);
}

/* Check mode: the send r just started by fn (MPI_Start, MPI_Startall)
   is checked as a nonblocking send, named after the call that made it. */
static __attribute__((noinline, cold)) void
check_started(const char *fn, struct shmpi_request *r)
{
    static const char *const init[] = {
        [SHMPI_MODE_STANDARD] = "MPI_Send_init",
        [SHMPI_MODE_SYNC] = "MPI_Ssend_init",
        [SHMPI_MODE_READY] = "MPI_Rsend_init",
        [SHMPI_MODE_BUFFERED] = "MPI_Bsend_init"};
    char what[64];
    snprintf(what, sizeof what, "%s of %s", fn, init[r->mode]);
    shmpi_p2p_bufcheck_started(r, r, what);
}

static int start_one(const char *fn, struct shmpi_request *r)
{
    if (!shmpi_request_ok(r) || !r->persistent)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                           "not a persistent request");
    const struct shmpi_req_ops *o = shmpi_request_ops(r);
    if (o && o->start)
        return o->start(r, fn);
    if (r->active)
        return shmpi_raise(r->comm, MPI_ERR_REQUEST, fn,
                           "the request is already active (wait for it "
                           "before starting it again)");
    r->active = 1;
    shmpi_p2p_request_rearm(r);
    if (r->kind == SHMPI_REQ_RECV) {
        shmpi_p2p_start_recv(r);
        return MPI_SUCCESS;
    }
    if (r->peer == MPI_PROC_NULL) {
        shmpi_p2p_complete_proc_null(r);
        return MPI_SUCCESS;
    }
    int rc = r->mode == SHMPI_MODE_BUFFERED
                 ? shmpi_p2p_bsend_start(fn, r)
                 : shmpi_p2p_start_send(fn, r, r->mode);
    if (rc == MPI_SUCCESS && shmpi_core_checking())
        check_started(fn, r);
    return rc;
}

/* A start that failed (under a handler that returns) leaves the request
   inactive, as it was. */
static int start_checked(const char *fn, struct shmpi_request *r)
{
    int was_active = shmpi_request_ok(r) && r->active;
    int rc = start_one(fn, r);
    if (rc != MPI_SUCCESS && !was_active && shmpi_request_ok(r) &&
        r->persistent && !shmpi_request_is_complete(r))
        r->active = 0;
    return rc;
}

/* A persistent collective on the collective area (coll/pallreduce.c)
   goes straight to its kind's start, which checks what is left to check
   (r active) and leaves r as it was when it raises.  MPI_Start's
   instructions around the kind's start: 41 through start_checked and
   start_one, 20 this way (2026-11-29, callgrind of 100 rounds of 8 B
   MPI_Start + MPI_Wait at np = 2). */
static inline int start_any(const char *fn, struct shmpi_request *r)
{
    if (shmpi_request_ok(r) && r->kind == SHMPI_REQ_PCOLL)
        return r->ops->start(r, fn);
    return start_checked(fn, r);
}

int PMPI_Start(MPI_Request *req)
{
    SHMPI_REQUIRE_INIT("MPI_Start");
    if (!req)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Start",
                           "request pointer is NULL");
    return start_any("MPI_Start", *req);
}

int PMPI_Startall(int count, MPI_Request reqs[])
{
    static const char *fn = "MPI_Startall";
    SHMPI_REQUIRE_INIT(fn);
    if (count < 0 || (count > 0 && !reqs))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "count is negative or the array is NULL");
    for (int i = 0; i < count; i++) {
        int rc = start_any(fn, reqs[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
