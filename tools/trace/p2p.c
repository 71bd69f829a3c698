/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * p2p.c - the wrappers that see which message a receive got: the
 * blocking receives, MPI_Irecv, and the calls that complete requests.
 *
 * Each completed receive adds a MATCH record: its source (a world rank),
 * tag, communicator and bytes from the status, and when it was posted.
 * mpirun pairs it with a send (trace.c): messages of one sender, one
 * communicator and one tag are received in the order they were sent
 * (MPI-3.1 3.5, non-overtaking), and receives of one envelope match in
 * the order they were posted.  An MPI_Irecv's request is kept (the
 * request handle, when and on which communicator it was posted: posted.c)
 * until the Wait or Test that completes it; the wrappers give PMPI a
 * status array of their own when the program ignores statuses.
 * Not seen: persistent receives (MPI_Recv_init + MPI_Start), MPI_Mrecv
 * and MPI_Imrecv, receives of the nonblocking collectives' schedules.
 */
#include <stdlib.h>

#include "pt2pt/request.h"
#include "wrap.h"

void shmpi_trace_match(MPI_Comm comm, const MPI_Status *st, int fn,
                       uint64_t posted, uint64_t t0, uint64_t t1)
{
    struct shmpi_trace_thread *t = shmpi_trace_me;
    if (st->MPI_SOURCE < 0 || st->shmpi_cancelled || !t)
        return;   /* MPI_PROC_NULL, or cancelled: no message; or no
                     records */
    struct shmpi_trace_rec *r = shmpi_trace_new(t, fn, posted,
                                                t0 + (t1 - t0) / 2);
    if (!r)
        return;
    struct shmpi_trace_args a = {
        .count = -1, .bytes = st->shmpi_nbytes, .tag = st->MPI_TAG,
        .comm = shmpi_trace_context(comm), .kind = SHMPI_TRACE_MATCH};
    shmpi_trace_peer(&a, comm, st->MPI_SOURCE);
    shmpi_trace_fill(r, &a);
}

/* The arguments of a point-to-point call: communicator, peer, tag, count
   and bytes. */
SHMPI_TRACE_INLINE struct shmpi_trace_args
p2p_args(MPI_Comm comm, int peer, int tag, int count, MPI_Datatype type)
{
    struct shmpi_trace_args a = {.tag = tag,
                                 .comm = shmpi_trace_context(comm),
                                 .kind = SHMPI_TRACE_CALL};
    shmpi_trace_peer(&a, comm, peer);
    shmpi_trace_count(&a, count, type);
    return a;
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source,
             int tag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Status own, *st = status ? status : &own;
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Recv(buf, count, datatype, source, tag, comm, st);
    uint64_t t1 = shmpi_trace_now();
    struct shmpi_trace_rec *r =
        shmpi_trace_end(SHMPI_TRACE_FN_Recv, t0, t1, rc);
    if (!r)
        return rc;
    struct shmpi_trace_args a = p2p_args(comm, source, tag, count, datatype);
    shmpi_trace_fill(r, &a);
    shmpi_trace_match(comm, st, SHMPI_TRACE_FN_Recv, t0, t0, t1);
    return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source,
              int tag, MPI_Comm comm, MPI_Request *request)
{
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
    uint64_t t1 = shmpi_trace_now();
    struct shmpi_trace_rec *r =
        shmpi_trace_end(SHMPI_TRACE_FN_Irecv, t0, t1, rc);
    if (!r)
        return rc;
    struct shmpi_trace_args a = p2p_args(comm, source, tag, count, datatype);
    shmpi_trace_fill(r, &a);
    shmpi_trace_remember(*request, comm, t0);
    return rc;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 int dest, int sendtag, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status)
{
    MPI_Status own, *st = status ? status : &own;
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag,
                           recvbuf, recvcount, recvtype, source, recvtag,
                           comm, st);
    uint64_t t1 = shmpi_trace_now();
    struct shmpi_trace_rec *r =
        shmpi_trace_end(SHMPI_TRACE_FN_Sendrecv, t0, t1, rc);
    if (!r)
        return rc;
    struct shmpi_trace_args a =
        p2p_args(comm, dest, sendtag, sendcount, sendtype);
    shmpi_trace_fill(r, &a);
    shmpi_trace_match(comm, st, SHMPI_TRACE_FN_Sendrecv, t0, t0, t1);
    return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype,
                         int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status *status)
{
    MPI_Status own, *st = status ? status : &own;
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag,
                                   source, recvtag, comm, st);
    uint64_t t1 = shmpi_trace_now();
    struct shmpi_trace_rec *r =
        shmpi_trace_end(SHMPI_TRACE_FN_Sendrecv_replace, t0, t1, rc);
    if (!r)
        return rc;
    struct shmpi_trace_args a = p2p_args(comm, dest, sendtag, count, datatype);
    shmpi_trace_fill(r, &a);
    shmpi_trace_match(comm, st, SHMPI_TRACE_FN_Sendrecv_replace, t0, t0, t1);
    return rc;
}

/* req if it is a receive, else MPI_REQUEST_NULL: only MPI_Irecv's
   requests are in the posted tables, and a send's handle looked up
   there, not found in this thread's table nor in the others', cost ~45
   instructions (callgrind, halo isend, 2026-11-30).  The request's kind
   (pt2pt/request.h) is read before the call that may free it, as the
   communicator's context is (wrap.h), and only in a handle the library
   would take: an invalid one is the call's to report. */
static MPI_Request receive(MPI_Request req)
{
    return shmpi_request_ok(req) && req->kind == SHMPI_REQ_RECV
               ? req
               : MPI_REQUEST_NULL;
}

/* A freed receive still matches, but its status is never seen: its
   entry goes, taken before the call - once the request is freed,
   another thread's MPI_Irecv may get its handle and post it - and put
   back if the call fails. */
int MPI_Request_free(MPI_Request *request)
{
    struct shmpi_trace_posted p;
    int had = request && shmpi_trace_events &&
              shmpi_trace_forget(receive(*request), &p);
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Request_free(request);
    shmpi_trace_call(SHMPI_TRACE_FN_Request_free, t0, rc);
    if (had && rc != MPI_SUCCESS)
        shmpi_trace_remember(p.req, p.comm, p.t);
    return rc;
}

/* The handles of a Wait/Test call's requests before it runs (it sets
   the completed ones to MPI_REQUEST_NULL), and a status array when the
   program passed MPI_STATUSES_IGNORE. */
struct completion {
    MPI_Request copy[16];
    MPI_Status own[16];
    MPI_Request *reqs;
    MPI_Status *st;
    int n;
};

/* Returns the status array to give PMPI, NULL if out of memory or no
   trace is kept (the call is then made as the program made it, without
   arrows). */
static MPI_Status *completion_start(struct completion *c, int n,
                                    const MPI_Request *reqs,
                                    MPI_Status *statuses)
{
    c->n = n > 0 && reqs && shmpi_trace_events ? n : 0;
    c->reqs = c->n > 16 ? malloc((size_t)c->n * sizeof *c->reqs) : c->copy;
    if (!shmpi_trace_events) {   /* --profile alone: no arrows */
        c->st = NULL;
        return NULL;
    }
    c->st = statuses ? statuses
            : c->n > 16 ? malloc((size_t)c->n * sizeof *c->st) : c->own;
    if (!c->reqs || !c->st) {
        c->n = 0;
        return NULL;
    }
    for (int i = 0; i < c->n; i++)
        c->reqs[i] = receive(reqs[i]);
    return c->st;
}

/* Request i of the call (fn, t0..t1) completed. */
static void completed(struct completion *c, int i, int st_i, int fn,
                      uint64_t t0, uint64_t t1)
{
    struct shmpi_trace_posted p;
    if (i >= 0 && i < c->n && shmpi_trace_forget(c->reqs[i], &p))
        shmpi_trace_match(p.comm, &c->st[st_i], fn, p.t, t0, t1);
}

static void completion_end(struct completion *c, MPI_Status *statuses)
{
    if (c->reqs && c->reqs != c->copy)
        free(c->reqs);
    if (c->st && c->st != statuses && c->st != c->own)
        free(c->st);
}

/* rc of a call that completes requests: are the statuses set? */
static int statuses_set(int rc)
{
    return rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    struct completion c;
    MPI_Status *st = completion_start(&c, 1, request, status);
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Wait(request, st ? st : status);
    uint64_t t1 = shmpi_trace_now();
    shmpi_trace_bare(SHMPI_TRACE_FN_Wait, t0, t1, rc);
    if (st && rc == MPI_SUCCESS)
        completed(&c, 0, 0, SHMPI_TRACE_FN_Wait, t0, t1);
    completion_end(&c, status);
    return rc;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    struct completion c;
    MPI_Status *st = completion_start(&c, 1, request, status);
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Test(request, flag, st ? st : status);
    uint64_t t1 = shmpi_trace_now();
    shmpi_trace_poll_bare(SHMPI_TRACE_FN_Test, t0, t1, rc,
                         rc == MPI_SUCCESS && *flag);
    if (st && rc == MPI_SUCCESS && *flag)
        completed(&c, 0, 0, SHMPI_TRACE_FN_Test, t0, t1);
    completion_end(&c, status);
    return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    struct completion c;
    MPI_Status *st = completion_start(&c, count, requests, statuses);
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Waitall(count, requests, st ? st : statuses);
    uint64_t t1 = shmpi_trace_now();
    shmpi_trace_bare(SHMPI_TRACE_FN_Waitall, t0, t1, rc);
    for (int i = 0; st && statuses_set(rc) && i < c.n; i++)
        completed(&c, i, i, SHMPI_TRACE_FN_Waitall, t0, t1);
    completion_end(&c, statuses);
    return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int *flag,
                MPI_Status statuses[])
{
    struct completion c;
    MPI_Status *st = completion_start(&c, count, requests, statuses);
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Testall(count, requests, flag, st ? st : statuses);
    uint64_t t1 = shmpi_trace_now();
    shmpi_trace_poll_bare(SHMPI_TRACE_FN_Testall, t0, t1, rc,
                         rc == MPI_SUCCESS && *flag);
    for (int i = 0; st && statuses_set(rc) && *flag && i < c.n; i++)
        completed(&c, i, i, SHMPI_TRACE_FN_Testall, t0, t1);
    completion_end(&c, statuses);
    return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int *index,
                MPI_Status *status)
{
    struct completion c;
    MPI_Status *st = completion_start(&c, count, requests, NULL);
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Waitany(count, requests, index, st ? st : status);
    uint64_t t1 = shmpi_trace_now();
    shmpi_trace_bare(SHMPI_TRACE_FN_Waitany, t0, t1, rc);
    if (st && rc == MPI_SUCCESS && *index != MPI_UNDEFINED) {
        if (status)
            *status = st[0];
        completed(&c, *index, 0, SHMPI_TRACE_FN_Waitany, t0, t1);
    }
    completion_end(&c, NULL);
    return rc;
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag,
                MPI_Status *status)
{
    struct completion c;
    MPI_Status *st = completion_start(&c, count, requests, NULL);
    uint64_t t0 = shmpi_trace_now();
    int rc = PMPI_Testany(count, requests, index, flag, st ? st : status);
    uint64_t t1 = shmpi_trace_now();
    shmpi_trace_poll_bare(SHMPI_TRACE_FN_Testany, t0, t1, rc,
                         rc == MPI_SUCCESS && *flag);
    if (st && rc == MPI_SUCCESS && *flag) {
        if (status)
            *status = st[0];
        if (*index != MPI_UNDEFINED)
            completed(&c, *index, 0, SHMPI_TRACE_FN_Testany, t0, t1);
    }
    completion_end(&c, NULL);
    return rc;
}

/* MPI_Waitsome (fn SHMPI_TRACE_FN_Waitsome) and MPI_Testsome: one
   signature, one body.  The PMPI function is called by name, not through
   a pointer: taking its address would bind it when the library is loaded
   (a GLOB_DAT relocation, not a lazy PLT slot), which fails in a process
   of the rank's tree without libmpi.so (wrap.h). */
static int some(int fn, int incount, MPI_Request requests[], int *outcount,
                int indices[], MPI_Status statuses[])
{
    struct completion c;
    MPI_Status *st = completion_start(&c, incount, requests, statuses);
    MPI_Status *give = st ? st : statuses;
    uint64_t t0 = shmpi_trace_now();
    int rc = fn == SHMPI_TRACE_FN_Waitsome
                 ? PMPI_Waitsome(incount, requests, outcount, indices, give)
                 : PMPI_Testsome(incount, requests, outcount, indices, give);
    uint64_t t1 = shmpi_trace_now();
    if (fn == SHMPI_TRACE_FN_Waitsome)
        shmpi_trace_bare(fn, t0, t1, rc);
    else
        shmpi_trace_poll_bare(fn, t0, t1, rc,
                             rc == MPI_SUCCESS && *outcount != 0);
    for (int j = 0; st && statuses_set(rc) && *outcount != MPI_UNDEFINED &&
                    j < *outcount; j++)
        completed(&c, indices[j], j, fn, t0, t1);
    completion_end(&c, statuses);
    return rc;
}

int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount,
                 int indices[], MPI_Status statuses[])
{
    return some(SHMPI_TRACE_FN_Waitsome, incount, requests, outcount,
                indices, statuses);
}

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount,
                 int indices[], MPI_Status statuses[])
{
    return some(SHMPI_TRACE_FN_Testsome, incount, requests, outcount,
                indices, statuses);
}
