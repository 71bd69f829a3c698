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
 * the order they were posted.  MPI_Irecv keeps the time it posted the
 * receive in the request's tool word (pt2pt/request.h), which the
 * library zeroes in every request it makes.  A Wait or Test reads the
 * word and the request's context before PMPI, while the request is
 * still the program's (once completed it may be freed and made again),
 * and takes the rest from the status after, the sender's world rank
 * among it (mpi.h, shmpi_wsource): nothing is looked up, and no
 * communicator is touched after the call that may have freed it.  A
 * table of the posted receives per thread, looked up under a flag, did
 * this before: storing two receives, finding them and the four atomic
 * exchanges cost a traced halo isend iteration ~190 instructions
 * (callgrind, 2026-11-30).  The wrappers give PMPI a status array of
 * their own when the program ignores statuses.
 * Not seen: persistent receives (MPI_Recv_init + MPI_Start), MPI_Mrecv
 * and MPI_Imrecv, receives of the nonblocking collectives' schedules:
 * their requests' tool words stay 0.
 */
#include <stdlib.h>

#include "pt2pt/request.h"
#include "wrap.h"

/* The receive posted at `posted` on the communicator of context ctx
   got the message st tells of (wsource: its sender's world rank) in
   the call fn from t0 to t1: its MATCH record. */
SHMPI_TRACE_INLINE void match(uint32_t ctx, const MPI_Status *st, int wsource,
                              int fn, uint64_t posted, uint64_t t0,
                              uint64_t t1)
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
        .count = -1, .bytes = st->shmpi_nbytes, .peer = st->MPI_SOURCE,
        .wpeer = wsource, .tag = st->MPI_TAG, .comm = ctx,
        .kind = SHMPI_TRACE_MATCH};
    shmpi_trace_fill(r, &a);
}

/* A blocking receive's MATCH: comm is the call's own, valid until it
   returns, so the sender's world rank is looked up in it (the fast
   receive of pt2pt/fastpath.c writes no shmpi_wsource). */
static void match_blocking(MPI_Comm comm, const MPI_Status *st, int fn,
                           uint64_t t0, uint64_t t1)
{
    struct shmpi_trace_args a;
    shmpi_trace_peer(&a, comm, st->MPI_SOURCE);
    match(shmpi_trace_context(comm), st, a.wpeer, fn, t0, t0, t1);
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
    match_blocking(comm, st, SHMPI_TRACE_FN_Recv, t0, t1);
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
    (*request)->tool = t0;   /* the program has not seen the handle yet */
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
    match_blocking(comm, st, SHMPI_TRACE_FN_Sendrecv, t0, t1);
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
    match_blocking(comm, st, SHMPI_TRACE_FN_Sendrecv_replace, t0, t1);
    return rc;
}

/* What a Wait/Test call keeps of each request before it runs (it
   frees the completed ones and sets their handles to MPI_REQUEST_NULL):
   an MPI_Irecv's posting time (0: not followed) and context; and a
   status array when the program passed MPI_STATUSES_IGNORE. */
struct completion {
    struct posted {
        uint64_t t;
        uint32_t ctx;
    } copy[16], *p;
    MPI_Status own[16], *st;
    int n;
};

/* The tool word is read only in a handle the library would take, of a
   receive (its kind, pt2pt/request.h): an invalid handle is the call's
   to report. */
SHMPI_TRACE_INLINE struct posted posted_of(MPI_Request req)
{
    return shmpi_request_ok(req) && req->kind == SHMPI_REQ_RECV
               ? (struct posted){req->tool, req->context}
               : (struct posted){0, 0};
}

/* Returns the status array to give PMPI; NULL when none of the call's
   requests is a receive followed, or out of memory, or no trace is kept
   (the call is then made as the program made it, without arrows, and c
   holds nothing to end).  Inline, as completed: as calls, with their
   frames, they were 106 and 168 of a traced halo isend iteration's 2948
   instructions (callgrind, 2026-12-01). */
SHMPI_TRACE_INLINE MPI_Status *completion_start(struct completion *c, int n,
                                                const MPI_Request *reqs,
                                                MPI_Status *statuses)
{
    int followed = 0;
    if (n <= 0 || !reqs || !shmpi_trace_events ||
        !(c->p = n > 16 ? malloc((size_t)n * sizeof *c->p) : c->copy))
        return NULL;
    for (int i = 0; i < n; i++)
        followed |= (c->p[i] = posted_of(reqs[i])).t != 0;
    if (!followed ||
        !(c->st = statuses ? statuses
                  : n > 16 ? malloc((size_t)n * sizeof *c->st)
                           : c->own)) {
        if (c->p != c->copy)
            free(c->p);
        return NULL;
    }
    c->n = n;
    return c->st;
}

/* Request i of the call (fn, t0..t1) completed with status st_i. */
SHMPI_TRACE_INLINE void completed(struct completion *c, int i, int st_i,
                                  int fn, uint64_t t0, uint64_t t1)
{
    if (i >= 0 && i < c->n && c->p[i].t) {
        const MPI_Status *st = &c->st[st_i];
        match(c->p[i].ctx, st, st->shmpi_wsource, fn, c->p[i].t, t0, t1);
    }
}

/* The end of a call whose completion_start returned a status array.
   Only then: a call that follows no receive (a send's wait, a sync
   counter's) leaves its struct completion as it is, and spends nothing
   more on it (a traced MPI_Wait of a sync counter, 105 instructions with
   the checks of this end on every call, 88 without; callgrind,
   2026-12-02). */
static void completion_end(struct completion *c, MPI_Status *statuses)
{
    if (c->p != c->copy)
        free(c->p);
    if (c->st != statuses && c->st != c->own)
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
    if (st) {
        if (rc == MPI_SUCCESS)
            completed(&c, 0, 0, SHMPI_TRACE_FN_Wait, t0, t1);
        completion_end(&c, status);
    }
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
    if (st) {
        if (rc == MPI_SUCCESS && *flag)
            completed(&c, 0, 0, SHMPI_TRACE_FN_Test, t0, t1);
        completion_end(&c, status);
    }
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
    if (st) {
        for (int i = 0; statuses_set(rc) && i < c.n; i++)
            completed(&c, i, i, SHMPI_TRACE_FN_Waitall, t0, t1);
        completion_end(&c, statuses);
    }
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
    if (st) {
        for (int i = 0; statuses_set(rc) && *flag && i < c.n; i++)
            completed(&c, i, i, SHMPI_TRACE_FN_Testall, t0, t1);
        completion_end(&c, statuses);
    }
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
    if (st) {
        if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED) {
            if (status)
                *status = st[0];
            completed(&c, *index, 0, SHMPI_TRACE_FN_Waitany, t0, t1);
        }
        completion_end(&c, NULL);
    }
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
    if (st) {
        if (rc == MPI_SUCCESS && *flag) {
            if (status)
                *status = st[0];
            if (*index != MPI_UNDEFINED)
                completed(&c, *index, 0, SHMPI_TRACE_FN_Testany, t0, t1);
        }
        completion_end(&c, NULL);
    }
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
    if (st) {
        for (int j = 0; statuses_set(rc) && *outcount != MPI_UNDEFINED &&
                        j < *outcount; j++)
            completed(&c, indices[j], j, fn, t0, t1);
        completion_end(&c, statuses);
    }
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
