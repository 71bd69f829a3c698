/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * blocking.c - MPI_Send, MPI_Ssend, MPI_Rsend, MPI_Recv, MPI_Sendrecv,
 * MPI_Sendrecv_replace (MPI-3.1 3.2, 3.4, 3.10).
 *
 * A blocking call uses a request on its own stack: no allocation, and an
 * eager send whose record fits in the ring returns without ever waiting.
 * Ready mode is sent as standard mode: the standard lets it, and a
 * receive posted in time (the program's promise) matches either way.
 */
#include <stdlib.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/datatype.h"
#include "pt2pt/check.h"
#include "pt2pt/fastpath.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/start.h"

SHMPI_WEAK_ALIAS(Send)
SHMPI_WEAK_ALIAS(Send_c)
SHMPI_WEAK_ALIAS(Ssend)
SHMPI_WEAK_ALIAS(Ssend_c)
SHMPI_WEAK_ALIAS(Rsend)
SHMPI_WEAK_ALIAS(Rsend_c)
SHMPI_WEAK_ALIAS(Recv)
SHMPI_WEAK_ALIAS(Recv_c)
SHMPI_WEAK_ALIAS(Sendrecv)
SHMPI_WEAK_ALIAS(Sendrecv_c)
SHMPI_WEAK_ALIAS(Sendrecv_replace)
SHMPI_WEAK_ALIAS(Sendrecv_replace_c)

static int send_blocking(const char *fn, const void *buf, MPI_Count count,
                         MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                         int mode)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_check_send(fn, buf, count, dt, dest, tag, comm);
    if (rc != MPI_SUCCESS || dest == MPI_PROC_NULL)
        return rc;
    if (mode != SHMPI_MODE_SYNC &&
        shmpi_p2p_fast_send(buf, count, dt, dest, tag, comm))
        return MPI_SUCCESS;
    struct shmpi_request r = SHMPI_STACK_REQUEST(SHMPI_REQ_SEND);
    shmpi_p2p_request_fill(&r, buf, count, dt, dest, tag, comm);
    rc = shmpi_p2p_start_send(fn, &r, mode);
    if (rc != MPI_SUCCESS)
        return rc;
    int err = shmpi_p2p_request_wait(&r, MPI_STATUS_IGNORE);
    return err ? shmpi_raise(comm, err, fn, "send failed") : MPI_SUCCESS;
}

int PMPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
              MPI_Comm comm)
{
    return send_blocking("MPI_Send", buf, count, dt, dest, tag, comm,
                         SHMPI_MODE_STANDARD);
}

int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm)
{
    return send_blocking("MPI_Send_c", buf, count, dt, dest, tag, comm,
                         SHMPI_MODE_STANDARD);
}

int PMPI_Ssend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
               MPI_Comm comm)
{
    return send_blocking("MPI_Ssend", buf, count, dt, dest, tag, comm,
                         SHMPI_MODE_SYNC);
}

int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm)
{
    return send_blocking("MPI_Ssend_c", buf, count, dt, dest, tag, comm,
                         SHMPI_MODE_SYNC);
}

int PMPI_Rsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
               MPI_Comm comm)
{
    return send_blocking("MPI_Rsend", buf, count, dt, dest, tag, comm,
                         SHMPI_MODE_READY);
}

int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm)
{
    return send_blocking("MPI_Rsend_c", buf, count, dt, dest, tag, comm,
                         SHMPI_MODE_READY);
}

/* r (on our stack) still holds the status after the wait. */
static int truncated(const char *fn, MPI_Comm comm,
                     const struct shmpi_request *r)
{
    const MPI_Status *st = &r->status;
    return shmpi_raise(comm, MPI_ERR_TRUNCATE, fn,
                       "message of %llu bytes from rank %d (tag %d) is longer "
                       "than the receive buffer (%llu bytes)",
                       (unsigned long long)r->msg_bytes, st->MPI_SOURCE,
                       st->MPI_TAG, (unsigned long long)r->nbytes);
}

/* A blocking receive of checked arguments. */
static int recv_blocking(const char *fn, void *buf, MPI_Count count,
                         MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                         MPI_Status *status)
{
    if (shmpi_p2p_fast_recv(buf, count, dt, source, tag, comm, status))
        return MPI_SUCCESS;
    struct shmpi_request r = SHMPI_STACK_REQUEST(SHMPI_REQ_RECV);
    shmpi_p2p_request_fill(&r, buf, count, dt, source, tag, comm);
    shmpi_p2p_start_recv(&r);
    int err = shmpi_p2p_request_wait(&r, status);
    if (err == MPI_ERR_TRUNCATE)
        return truncated(fn, comm, &r);
    return err ? shmpi_raise(comm, err, fn, "receive failed") : MPI_SUCCESS;
}

/* Inline in both entry points: called, it cost MPI_Recv 10 instructions a
   message (2026-11-29, perf/run-perf pt2pt-count, 1 B and 8 B). */
static inline __attribute__((always_inline)) int
recv_call(const char *fn, void *buf, MPI_Count count, MPI_Datatype dt,
          int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_check_recv(fn, buf, count, dt, source, tag, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    return recv_blocking(fn, buf, count, dt, source, tag, comm, status);
}

int PMPI_Recv(void *buf, int count, MPI_Datatype dt, int source, int tag,
              MPI_Comm comm, MPI_Status *status)
{
    return recv_call("MPI_Recv", buf, count, dt, source, tag, comm, status);
}

int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype dt, int source,
                int tag, MPI_Comm comm, MPI_Status *status)
{
    return recv_call("MPI_Recv_c", buf, count, dt, source, tag, comm, status);
}

/* Post the receive, start the send, wait for both. */
static int sendrecv(const char *fn, struct shmpi_request *s,
                    struct shmpi_request *r, MPI_Comm comm,
                    MPI_Status *status)
{
    shmpi_p2p_start_recv(r);
    int rc = MPI_SUCCESS;
    if (s->peer == MPI_PROC_NULL)
        shmpi_p2p_complete_proc_null(s);
    else if ((rc = shmpi_p2p_start_send(fn, s, SHMPI_MODE_STANDARD))) {
        /* only under MPI_ERRORS_RETURN: r lives on our caller's stack */
        if (!shmpi_p2p_recv_withdraw(r))
            shmpi_p2p_request_wait(r, MPI_STATUS_IGNORE); /* already matched */
        return rc;
    }
    shmpi_p2p_request_wait(s, MPI_STATUS_IGNORE);
    int err = shmpi_p2p_request_wait(r, status);
    if (err == MPI_ERR_TRUNCATE)
        return truncated(fn, comm, r);
    return err ? shmpi_raise(comm, err, fn, "receive failed") : MPI_SUCCESS;
}

static int sendrecv_call(const char *fn, const void *sendbuf,
                         MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                         int sendtag, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int source, int recvtag,
                         MPI_Comm comm, MPI_Status *status)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_check_send(fn, sendbuf, sendcount, sendtype, dest,
                              sendtag, comm);
    if (rc == MPI_SUCCESS)
        rc = shmpi_check_recv(fn, recvbuf, recvcount, recvtype, source,
                              recvtag, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    /* a send that is over at once (eager, into the ring) leaves a plain
       receive: the common exchange of small halos, at the fast paths'
       cost; anything else posts the receive before it starts the send,
       so that crossed large sends cannot wait for each other */
    if (dest != MPI_PROC_NULL &&
        shmpi_p2p_fast_send(sendbuf, sendcount, sendtype, dest, sendtag, comm))
        return recv_blocking(fn, recvbuf, recvcount, recvtype, source,
                             recvtag, comm, status);
    struct shmpi_request s = SHMPI_STACK_REQUEST(SHMPI_REQ_SEND);
    struct shmpi_request r = SHMPI_STACK_REQUEST(SHMPI_REQ_RECV);
    shmpi_p2p_request_fill(&s, sendbuf, sendcount, sendtype, dest, sendtag,
                           comm);
    shmpi_p2p_request_fill(&r, recvbuf, recvcount, recvtype, source, recvtag,
                           comm);
    return sendrecv(fn, &s, &r, comm, status);
}

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  int dest, int sendtag, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_call("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest,
                         sendtag, recvbuf, recvcount, recvtype, source,
                         recvtag, comm, status);
}

int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, int dest, int sendtag,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_call("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest,
                         sendtag, recvbuf, recvcount, recvtype, source,
                         recvtag, comm, status);
}

static int sendrecv_replace_call(const char *fn, void *buf, MPI_Count count,
                                 MPI_Datatype dt, int dest, int sendtag,
                                 int source, int recvtag, MPI_Comm comm,
                                 MPI_Status *status)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_check_send(fn, buf, count, dt, dest, sendtag, comm);
    if (rc == MPI_SUCCESS)
        rc = shmpi_check_recv(fn, buf, count, dt, source, recvtag, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    void *copy = shmpi_p2p_packed_copy(fn, comm, buf, count, dt, &rc);
    if (!copy)
        return rc;
    struct shmpi_request s = SHMPI_STACK_REQUEST(SHMPI_REQ_SEND);
    struct shmpi_request r = SHMPI_STACK_REQUEST(SHMPI_REQ_RECV);
    shmpi_p2p_request_fill(&s, copy, count, dt, dest, sendtag, comm);
    s.datatype = MPI_BYTE; /* the copy is packed: plain bytes */
    shmpi_p2p_request_fill(&r, buf, count, dt, source, recvtag, comm);
    rc = sendrecv(fn, &s, &r, comm, status);
    free(copy);
    return rc;
}

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest,
                          int sendtag, int source, int recvtag, MPI_Comm comm,
                          MPI_Status *status)
{
    return sendrecv_replace_call("MPI_Sendrecv_replace", buf, count, dt, dest,
                                 sendtag, source, recvtag, comm, status);
}

int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype dt,
                            int dest, int sendtag, int source, int recvtag,
                            MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_replace_call("MPI_Sendrecv_replace_c", buf, count, dt,
                                 dest, sendtag, source, recvtag, comm, status);
}
