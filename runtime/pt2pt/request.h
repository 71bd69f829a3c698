/*
 * request.h - the request object behind MPI_Request, for every kind of
 * nonblocking operation, and how a request completes.
 */
#ifndef SHMPI_REQUEST_H
#define SHMPI_REQUEST_H

#include <stdint.h>

#include "core/objects.h"

#define SHMPI_MAGIC_REQUEST 0x52455155u /* "REQU" */

enum shmpi_req_kind {
    SHMPI_REQ_SEND,
    SHMPI_REQ_RECV,
    SHMPI_REQ_GREQ,
    SHMPI_REQ_COLL,            /* a nonblocking collective (coll/sched.h) */
    SHMPI_REQ_SYNC,            /* a sync counter's persistent request
                                  (rma/sync_counter.h); owner is its part */
};

enum shmpi_send_mode {
    SHMPI_MODE_STANDARD,
    SHMPI_MODE_SYNC,
    SHMPI_MODE_READY,
    SHMPI_MODE_BUFFERED,
};

/* MPI_Grequest_start's callbacks (12.2). */
struct shmpi_greq {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free;
    MPI_Grequest_cancel_function *cancel;
    void *extra_state;
};

struct shmpi_request {
    uint32_t magic;
    uint8_t kind;              /* enum shmpi_req_kind */
    volatile uint8_t complete; /* set once: status is final (volatile: a
                                  generalized request is completed by
                                  another thread) */
    uint8_t user_freed;        /* MPI_Request_free while active */
    uint8_t on_stack;          /* blocking call's own request: never freed */
    uint8_t persistent;        /* from a *_init call; MPI_Start restarts it */
    uint8_t active;            /* started and not yet completed+waited */
    MPI_Comm comm;
    uint32_t context;
    void *buf;                 /* (buf, count, datatype) as the user gave */
    MPI_Count count;
    MPI_Datatype datatype;
    uint64_t nbytes;           /* packed size of the buffer */
    int peer;                  /* send: dest, recv: source; world ranks;
                                  recv from MPI_ANY_SOURCE: -1 */
    int tag;                   /* recv: may be MPI_ANY_TAG */
    int mode;                  /* send: enum shmpi_send_mode */
    uint32_t claim;            /* send: its claim word (claim.h), or 0 */
    uint64_t granted;          /* rendezvous: bytes the receiver wants */
    uint64_t moved;            /* rendezvous: bytes streamed / arrived */
    uint64_t rcookie;          /* send: the receiver's request */
    uint64_t msg_bytes;        /* recv: size of the matched message */
    MPI_Status status;
    int error;                 /* MPI_SUCCESS or the completion's error */
    struct shmpi_request *next; /* in at most one queue at a time */
    /* called when the library completes the request (buffered sends
       give their buffer space back) */
    void (*on_complete)(struct shmpi_request *r);
    void *owner;               /* what on_complete works on: a buffered
                                  send's block, a pulled message */
    struct shmpi_greq greq;
    int fint;                  /* its Fortran integer, or 0 (fint.h) */
};

struct shmpi_request *shmpi_request_new(enum shmpi_req_kind kind);
void shmpi_request_release(struct shmpi_request *r);
void shmpi_request_complete(struct shmpi_request *r);

/* Valid handle of an active or inactive request? */
static inline int shmpi_request_ok(MPI_Request r)
{
    return r && r->magic == SHMPI_MAGIC_REQUEST;
}

/* Null, or persistent and not started: Wait/Test treat both alike. */
static inline int shmpi_request_inactive(MPI_Request r)
{
    return r == MPI_REQUEST_NULL || !r->active;
}

/* rma/sync_req.c: a sync request has no message to wait for; its
   completion is tested by looking at its counter. */
int shmpi_sync_poll(struct shmpi_request *r);

/* Has an active request completed? */
static inline int shmpi_request_done(struct shmpi_request *r)
{
    return r->complete || (r->kind == SHMPI_REQ_SYNC && shmpi_sync_poll(r));
}

/* Set a status as MPI_Wait on a null request does (3.7.3). */
void shmpi_status_empty(MPI_Status *s);

/* Wait for one request and release it; the common tail of MPI_Wait and
   the blocking calls.  Returns the request's error. */
int shmpi_request_wait(struct shmpi_request *r, MPI_Status *status);

#endif
