/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * isendrecv.c - MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0 3.10):
 * one request (kind SHMPI_REQ_SENDRECV) for a send and a receive.
 *
 * The request the program holds carries no message of its own.  Behind
 * it are two library-owned parts, a send and a receive made and started
 * as MPI_Isend and MPI_Irecv make and start theirs, tied to it by a
 * struct sendrecv.  Each part's on_complete (request.h) counts it done,
 * releases it and, for the receive, copies its status to the whole (the
 * status of MPI_Isendrecv is the receive's); the second one frees the
 * tie and completes the whole.  So the whole completes as any request
 * does, from progress, and every wait, test and MPI_Request_get_status
 * form - and MPI_Request_free before it completes - works on it as on
 * a receive: completion.c needs nothing of this kind but its flag.
 *
 * MPI_PROC_NULL on either side: that part is made and completes at once
 * (3.11), its status the receive's of MPI_PROC_NULL.
 *
 * _replace sends from a packed copy (start.h, shared with
 * MPI_Sendrecv_replace), so the receive may overwrite the buffer at
 * once; the copy is freed when the send part completes.
 *
 * MPI_Cancel cancels each part that can still be (cancel.c's rules);
 * MPI_Test_cancelled is true of the status only if neither message
 * moved (each part cancelled or to MPI_PROC_NULL), as 3.8.4 asks of a
 * cancelled operation.  If only one could be, the other completes normally and
 * the status is not marked cancelled (the man page says so).
 *
 * Threads (MPI_THREAD_MULTIPLE): the tie is touched only under the
 * lane of the communicator (pt2pt.h): the parts are started with it
 * held, they complete under it (progress, a start, a cancel), and the
 * cancel below takes it; the whole's completion is published by
 * shmpi_p2p_request_complete's release store, as every request's.
 */
#include <stdlib.h>

#include "core/check.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/datatype.h"
#include "pt2pt/bufcheck.h"
#include "pt2pt/check.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/start.h"

SHMPI_WEAK_ALIAS(Isendrecv)
SHMPI_WEAK_ALIAS(Isendrecv_c)
SHMPI_WEAK_ALIAS(Isendrecv_replace)
SHMPI_WEAK_ALIAS(Isendrecv_replace_c)

struct sendrecv {
    struct shmpi_request *whole;
    struct shmpi_request *send, *recv; /* NULL once that part completed */
    void *copy;                        /* _replace: the packed data */
    int pending;                       /* parts not yet completed */
    int cancelled;                     /* parts completed cancelled */
    int null;                          /* parts to MPI_PROC_NULL */
};

/* on_complete of a part, under the lane. */
static void part_done(struct shmpi_request *part)
{
    struct sendrecv *sr = part->owner;
    struct shmpi_request *whole = sr->whole;
    sr->cancelled += part->status.shmpi_cancelled != 0;
    sr->null += part->peer == MPI_PROC_NULL;
    if (part == sr->recv) {
        whole->status = part->status;
        sr->recv = NULL;
    } else {
        free(sr->copy); /* the send has taken its data */
        sr->copy = NULL;
        sr->send = NULL;
    }
    /* the receive's error first: it is what the status tells of */
    if (part->error != MPI_SUCCESS &&
        (whole->error == MPI_SUCCESS || part->kind == SHMPI_REQ_RECV))
        whole->error = part->error;
    shmpi_p2p_request_release(part);
    if (--sr->pending)
        return;
    /* nothing moved: a part cancelled, the other too or to nobody */
    whole->status.shmpi_cancelled =
        sr->cancelled && sr->cancelled + sr->null == 2;
    free(sr);
    whole->owner = NULL;
    shmpi_p2p_request_complete(whole);
}

/* MPI_Cancel of the whole: its parts, at once, under the lane. */
static int cancel(struct shmpi_request *whole, const char *fn)
{
    (void)fn;
    struct shmpi_lane *l = whole->lane;
    shmpi_p2p_lane_enter(l);
    struct sendrecv *sr = whole->owner;
    if (!shmpi_request_is_complete(whole)) {
        /* a part that completes here (part_done) may free the tie */
        struct shmpi_request *send = sr->send, *recv = sr->recv;
        if (recv)
            shmpi_p2p_cancel_locked(l, recv);
        if (send && !shmpi_request_is_complete(whole))
            shmpi_p2p_cancel_locked(l, send);
    }
    shmpi_p2p_lane_leave(l);
    return MPI_SUCCESS;
}

const struct shmpi_req_ops shmpi_p2p_sendrecv_ops = {
    .cancel = cancel,
};

/* A part: made as MPI_Isend/MPI_Irecv make theirs, owned by sr. */
static struct shmpi_request *part(struct sendrecv *sr,
                                  enum shmpi_req_kind kind, const void *buf,
                                  MPI_Count count, MPI_Datatype dt, int peer,
                                  int tag, MPI_Comm comm)
{
    struct shmpi_request *r =
        shmpi_p2p_request_make(kind, buf, count, dt, peer, tag, comm);
    if (r) {
        r->owner = sr;
        r->on_complete = part_done;
    }
    return r;
}

static void release_all(struct sendrecv *sr)
{
    if (sr->send)
        shmpi_p2p_request_release(sr->send);
    if (sr->recv)
        shmpi_p2p_request_release(sr->recv);
    if (sr->whole)
        shmpi_p2p_request_release(sr->whole);
    free(sr->copy);
    free(sr);
}

/* The send's arguments; copy: _replace's packed data, sent as bytes. */
struct send_args {
    const void *buf;
    MPI_Count count;
    MPI_Datatype dt;
    int dest, tag;
    void *copy;
};

static int make_parts(const char *fn, struct sendrecv *sr,
                      const struct send_args *s, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, int source,
                      int recvtag, MPI_Comm comm)
{
    sr->whole = shmpi_p2p_request_new(SHMPI_REQ_SENDRECV);
    if (sr->whole)
        shmpi_p2p_request_fill(sr->whole, NULL, 0, MPI_BYTE, MPI_PROC_NULL,
                               0, comm);
    sr->send = part(sr, SHMPI_REQ_SEND, s->copy ? s->copy : s->buf, s->count,
                    s->dt, s->dest, s->tag, comm);
    sr->recv = part(sr, SHMPI_REQ_RECV, recvbuf, recvcount, recvtype, source,
                    recvtag, comm);
    if (!sr->whole || !sr->send || !sr->recv)
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for a request");
    if (s->copy) { /* the copy is packed: plain bytes */
        shmpi_dt_release(sr->send->datatype);
        shmpi_dt_retain(MPI_BYTE);
        sr->send->datatype = MPI_BYTE;
    }
    sr->whole->owner = sr;
    sr->pending = 2;
    return MPI_SUCCESS;
}

/* Start both parts under the lane: their completions (part_done) meet
   there.  The send first: if it cannot start, nothing has. */
static int start_parts(const char *fn, struct sendrecv *sr)
{
    struct shmpi_request *whole = sr->whole, *send = sr->send,
                         *recv = sr->recv;
    struct shmpi_lane *l = whole->lane;
    int rc = MPI_SUCCESS;
    shmpi_p2p_lane_enter(l);
    if (send->peer == MPI_PROC_NULL)
        shmpi_p2p_complete_proc_null(send);
    else
        rc = shmpi_p2p_start_send(fn, send, SHMPI_MODE_STANDARD);
    if (rc == MPI_SUCCESS)
        shmpi_p2p_start_recv(recv);
    shmpi_p2p_lane_leave(l);
    return rc;
}

static int isendrecv(const char *fn, const struct send_args *s,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm,
                     MPI_Request *req)
{
    struct sendrecv *sr = calloc(1, sizeof *sr);
    if (!sr) {
        free(s->copy);
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn, "no memory for a request");
    }
    sr->copy = s->copy;
    int rc = make_parts(fn, sr, s, recvbuf, recvcount, recvtype, source,
                        recvtag, comm);
    struct shmpi_request *whole = sr->whole; /* sr goes once both parts
                                                completed, maybe at once */
    /* the send part is the library's, and may be gone once started: the
       check is the whole's, taken before.  Not of _replace, whose send
       is from a copy (s->copy) */
    if (rc == MPI_SUCCESS && shmpi_core_checking() && !s->copy)
        shmpi_p2p_bufcheck_started(whole, sr->send, fn);
    if (rc == MPI_SUCCESS && (rc = start_parts(fn, sr)) == MPI_SUCCESS) {
        *req = whole;
        return MPI_SUCCESS;
    }
    if (whole && whole->bufcheck)
        shmpi_p2p_bufcheck_freed(whole);
    release_all(sr); /* only the send can have failed: nothing started */
    return rc;
}

static int isendrecv_call(const char *fn, const void *sendbuf,
                          MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                          int sendtag, void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, int source, int recvtag,
                          MPI_Comm comm, MPI_Request *req)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_check_send(fn, sendbuf, sendcount, sendtype, dest,
                              sendtag, comm);
    if (rc == MPI_SUCCESS)
        rc = shmpi_check_recv(fn, recvbuf, recvcount, recvtype, source,
                              recvtag, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!req)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
    struct send_args s = {sendbuf, sendcount, sendtype, dest, sendtag, NULL};
    return isendrecv(fn, &s, recvbuf, recvcount, recvtype, source, recvtag,
                     comm, req);
}

int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   int dest, int sendtag, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, int source, int recvtag,
                   MPI_Comm comm, MPI_Request *req)
{
    return isendrecv_call("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest,
                          sendtag, recvbuf, recvcount, recvtype, source,
                          recvtag, comm, req);
}

int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, int dest, int sendtag,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *req)
{
    return isendrecv_call("MPI_Isendrecv_c", sendbuf, sendcount, sendtype,
                          dest, sendtag, recvbuf, recvcount, recvtype, source,
                          recvtag, comm, req);
}

static int isendrecv_replace_call(const char *fn, void *buf, MPI_Count count,
                                  MPI_Datatype dt, int dest, int sendtag,
                                  int source, int recvtag, MPI_Comm comm,
                                  MPI_Request *req)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_check_send(fn, buf, count, dt, dest, sendtag, comm);
    if (rc == MPI_SUCCESS)
        rc = shmpi_check_recv(fn, buf, count, dt, source, recvtag, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!req)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
    struct send_args s = {buf, count, dt, dest, sendtag, NULL};
    if (dest != MPI_PROC_NULL &&
        !(s.copy = shmpi_p2p_packed_copy(fn, comm, buf, count, dt, &rc)))
        return rc;
    return isendrecv(fn, &s, buf, count, dt, source, recvtag, comm, req);
}

int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest,
                           int sendtag, int source, int recvtag, MPI_Comm comm,
                           MPI_Request *req)
{
    return isendrecv_replace_call("MPI_Isendrecv_replace", buf, count, dt,
                                  dest, sendtag, source, recvtag, comm, req);
}

int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype dt,
                             int dest, int sendtag, int source, int recvtag,
                             MPI_Comm comm, MPI_Request *req)
{
    return isendrecv_replace_call("MPI_Isendrecv_replace_c", buf, count, dt,
                                  dest, sendtag, source, recvtag, comm, req);
}
