/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nonblocking.c - MPI_Isend, MPI_Issend, MPI_Irsend, MPI_Irecv
 * (MPI-3.1 3.7.2).  Each starts a request that the progress engine moves
 * on whenever this rank is inside an MPI call.
 */
#include "core/check.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "pt2pt/bufcheck.h"
#include "pt2pt/check.h"
#include "pt2pt/fastpath.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/start.h"

SHMPI_WEAK_ALIAS(Isend)
SHMPI_WEAK_ALIAS(Isend_c)
SHMPI_WEAK_ALIAS(Issend)
SHMPI_WEAK_ALIAS(Issend_c)
SHMPI_WEAK_ALIAS(Irsend)
SHMPI_WEAK_ALIAS(Irsend_c)
SHMPI_WEAK_ALIAS(Irecv)
SHMPI_WEAK_ALIAS(Irecv_c)

/* A started request's handle goes to *req: it must be there. */
static struct shmpi_request *new_request(const char *fn, MPI_Request *req,
                                         enum shmpi_req_kind kind,
                                         const void *buf, MPI_Count count,
                                         MPI_Datatype dt, int peer, int tag,
                                         MPI_Comm comm, int *rc)
{
    struct shmpi_request *r = NULL;
    if (!req)
        *rc = shmpi_raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
    else if (!(r = shmpi_p2p_request_make(kind, buf, count, dt, peer, tag,
                                          comm)))
        *rc = shmpi_raise(comm, MPI_ERR_NO_MEM, fn, "no memory for a request");
    return r;
}

/* A standard or ready send that the fast path finished at once (its
   data is in the ring, nothing about it is left to do or to cancel)
   needs no request of its own: the handle is pt2pt->sent, complete,
   which MPI_Wait and the others finish as any completed send (its status
   is an empty one, as an eager send's) and never release.  2026-11-29,
   perf/run-perf pt2pt-count, 1 B: MPI_Isend 509 -> 273 instructions,
   the sender's MPI_Waitall 129 -> 104 per message.  MPICH hands out
   one prebuilt complete request the same way. */
static int send_at_once(const void *buf, MPI_Count count, MPI_Datatype dt,
                        int dest, int tag, MPI_Comm comm, MPI_Request *req,
                        int mode)
{
    if (mode == SHMPI_MODE_SYNC || dest == MPI_PROC_NULL || !req ||
        !shmpi_p2p_fast_send(buf, count, dt, dest, tag, comm))
        return 0;
    *req = &shmpi_proc.pt2pt->sent;
    return 1;
}

/* A send's own request, started; NULL and *rc the raised error if it
   could not be. */
static inline __attribute__((always_inline)) struct shmpi_request *
send_request(const char *fn, const void *buf, MPI_Count count,
             MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
             MPI_Request *req, int mode, int *rc)
{
    struct shmpi_request *r = new_request(fn, req, SHMPI_REQ_SEND, buf, count,
                                          dt, dest, tag, comm, rc);
    if (!r)
        return NULL;
    if (dest == MPI_PROC_NULL)
        shmpi_p2p_complete_proc_null(r);
    else if ((*rc = shmpi_p2p_start_send(fn, r, mode)) != MPI_SUCCESS) {
        shmpi_p2p_request_release(r);
        return NULL;
    }
    return r;
}

/* Inline in the entry points, as irecv_call below: called, with its
   nine arguments, it cost MPI_Isend of 1 B 20 instructions a message
   (2026-11-29, perf/run-perf pt2pt-count). */
static inline __attribute__((always_inline)) int
send_nonblocking(const char *fn, const void *buf, MPI_Count count,
                 MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                 MPI_Request *req, int mode)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_check_send(fn, buf, count, dt, dest, tag, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (send_at_once(buf, count, dt, dest, tag, comm, req, mode))
        return MPI_SUCCESS;
    struct shmpi_request *r =
        send_request(fn, buf, count, dt, dest, tag, comm, req, mode, &rc);
    if (!r)
        return rc;
    /* The check mode keeps the buffer's hash in the request
       (pt2pt/bufcheck.h): every send has one of its own there, since
       no pair turns hot (conn.c) and send_at_once never succeeds - so
       the test is here, off the way of a send sent at once. */
    if (shmpi_core_checking())
        shmpi_p2p_bufcheck_started(r, r, fn);
    *req = r;
    return MPI_SUCCESS;
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
               MPI_Comm comm, MPI_Request *req)
{
    return send_nonblocking("MPI_Isend", buf, count, dt, dest, tag, comm, req,
                            SHMPI_MODE_STANDARD);
}

int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_nonblocking("MPI_Isend_c", buf, count, dt, dest, tag, comm,
                            req, SHMPI_MODE_STANDARD);
}

int PMPI_Issend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
                MPI_Comm comm, MPI_Request *req)
{
    return send_nonblocking("MPI_Issend", buf, count, dt, dest, tag, comm, req,
                            SHMPI_MODE_SYNC);
}

int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                  int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_nonblocking("MPI_Issend_c", buf, count, dt, dest, tag, comm,
                            req, SHMPI_MODE_SYNC);
}

int PMPI_Irsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
                MPI_Comm comm, MPI_Request *req)
{
    return send_nonblocking("MPI_Irsend", buf, count, dt, dest, tag, comm, req,
                            SHMPI_MODE_READY);
}

int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                  int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_nonblocking("MPI_Irsend_c", buf, count, dt, dest, tag, comm,
                            req, SHMPI_MODE_READY);
}

/* Inline in both entry points: called, it cost MPI_Irecv 10 instructions a
   message (2026-11-29, perf/run-perf pt2pt-count, 1 B and 8 B). */
static inline __attribute__((always_inline)) int
irecv_call(const char *fn, void *buf, MPI_Count count, MPI_Datatype dt,
           int source, int tag, MPI_Comm comm, MPI_Request *req)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_check_recv(fn, buf, count, dt, source, tag, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!req)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
    /* the error raised with no lane held: the program's handler may
       call MPI */
    struct shmpi_request *r =
        shmpi_p2p_recv_make_started(buf, count, dt, source, tag, comm);
    if (!r)
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn, "no memory for a request");
    *req = r;
    return MPI_SUCCESS;
}

int PMPI_Irecv(void *buf, int count, MPI_Datatype dt, int source, int tag,
               MPI_Comm comm, MPI_Request *req)
{
    return irecv_call("MPI_Irecv", buf, count, dt, source, tag, comm, req);
}

int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype dt, int source,
                 int tag, MPI_Comm comm, MPI_Request *req)
{
    return irecv_call("MPI_Irecv_c", buf, count, dt, source, tag, comm, req);
}
