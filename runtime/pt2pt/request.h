/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * request.h - the request object behind MPI_Request, for every kind of
 * nonblocking operation, and how a request completes.
 */
#ifndef SHMPI_REQUEST_H
#define SHMPI_REQUEST_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/objects.h"
#include "core/proc.h"

#define SHMPI_MAGIC_REQUEST 0x52455155u /* "REQU" */

/* What a request is for; the kinds after RECV have operations of their
   own (struct shmpi_req_ops below). */
enum shmpi_req_kind {
    SHMPI_REQ_SEND,            /* also the RMA request forms (rma/rreq.c) */
    SHMPI_REQ_RECV,
    SHMPI_REQ_GREQ,            /* generalized (greq.c) */
    SHMPI_REQ_COLL,            /* a nonblocking collective (coll/sched.h) */
    SHMPI_REQ_PCOLL,           /* a persistent collective on the
                                  collective area (coll/pallreduce.c) */
    SHMPI_REQ_SYNC,            /* a sync counter's persistent request
                                  (rma/sync_counter.h); owner is its part */
    SHMPI_REQ_SENDRECV,        /* MPI_Isendrecv(_replace): a send and a
                                  receive of its own (isendrecv.c) */
    SHMPI_REQ_FLUSH,           /* MPI_Buffer_iflush and the like: owner
                                  is the buffer (bsend.c) */
    SHMPI_REQ_PART,            /* MPI_Psend_init, MPI_Precv_init: owner
                                  is its struct shmpi_p2p_part (part.c) */
    SHMPI_REQ_KINDS
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

struct shmpi_req_ops;
struct shmpi_lane;
struct shmpi_p2p_bufcheck;
struct shmpi_p2p_sig;

struct shmpi_request {
    uint32_t magic;
    uint8_t kind;              /* enum shmpi_req_kind */
    /* set once: status and data are final.  The completer writes them,
       then stores 1 with release (shmpi_request_set_complete); a tester
       loads it with acquire (shmpi_request_is_complete) before it reads
       them: under MULTIPLE they are different threads, and a
       generalized request is completed by whoever calls
       MPI_Grequest_complete */
    _Atomic uint8_t complete;
    /* under MULTIPLE: the completion was handed out (status copied,
       request released or made inactive) - claimed once (completion.c:
       under the request's lane for a send or a receive, by an atomic
       exchange for the other kinds), so that two threads completing one
       request (a Wait and a Test: erroneous, 3.7.4, but harmless here)
       never both release it */
    _Atomic uint8_t handed;
    uint8_t user_freed;        /* MPI_Request_free while active */
    uint8_t on_stack;          /* never freed: a blocking call's own
                                  request, or pt2pt->sent */
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
    /* check mode only (bufcheck.h): a nonblocking send's hash of its
       buffer and the call that started it, from its start to the call
       that completes or frees it; NULL otherwise, always outside check
       mode (set NULL where the memory of a request is made) */
    struct shmpi_p2p_bufcheck *bufcheck;
    /* check mode only (sigcheck.h): a send's type signature, from its
       start until its envelope is written; NULL otherwise, and always
       outside check mode (set NULL where the memory is made) */
    struct shmpi_p2p_sig *sig;
    /* a PMPI tool's word, which the library only zeroes where it makes
       a request: lib/libshmpi_trace.so's MPI_Irecv keeps the time it
       posted the receive here, read by the call that completes it
       before the request may go (tools/trace/p2p.c) */
    uint64_t tool;
    int fint;                  /* its Fortran integer, or 0 (fint.h) */
    /* its kind's operations (below), NULL for a send or a receive: set
       once by shmpi_p2p_request_new, so that finding them is one load from
       the request itself */
    const struct shmpi_req_ops *ops;
    /* the lane (pt2pt.h) of its context, whose free list it goes back
       to; lane 0 for the kinds with no communicator of their own until
       shmpi_p2p_request_fill gives them one */
    struct shmpi_lane *lane;
};

/* A request of kind, active, every field zero but its kind's: what
   every maker of a request starts from.  Its lane is lane 0 (its call
   sets another when it has a communicator, start.c) or, _in, l: a
   caller that holds lane l asks for l, never two lanes at once
   (lane.h). */
struct shmpi_request *shmpi_p2p_request_new(enum shmpi_req_kind kind);
struct shmpi_request *shmpi_p2p_request_new_in(struct shmpi_lane *l,
                                               enum shmpi_req_kind kind);
/* Memory for a request, from the free list, nothing in it set: for
   shmpi_p2p_request_make (start.h), which writes what its path reads. */
struct shmpi_request *shmpi_p2p_request_alloc(struct shmpi_lane *l);
/* The same for a caller that holds lane l, or below MULTIPLE: inline in
   pt2pt.h; shmpi_p2p_request_malloc is its way when l's free list is
   empty. */
struct shmpi_request *shmpi_p2p_request_malloc(struct shmpi_lane *l);
void shmpi_p2p_request_release(struct shmpi_request *r);
/* The same by a caller that holds r's lane, or below MULTIPLE: inline
   in pt2pt.h. */
/* Complete r (shmpi_p2p_request_complete, pt2pt.h, is the inline
   entry): its claim word freed, its on_complete called, released if
   the program freed it. */
void shmpi_p2p_request_complete_more(struct shmpi_request *r);
static inline void shmpi_request_set_complete(struct shmpi_request *r)
{
    atomic_store_explicit(&r->complete, 1, memory_order_release);
}

static inline int shmpi_request_is_complete(struct shmpi_request *r)
{
    return atomic_load_explicit(&r->complete, memory_order_acquire);
}

/* Valid handle of an active or inactive request?  No object lives in
   the first page, where MPI_REQUEST_NULL (0x180) and the standard ABI's
   other predefined handles are: those are rejected without a load. */
static inline int shmpi_request_ok(MPI_Request r)
{
    return (uintptr_t)r >= 4096 && r->magic == SHMPI_MAGIC_REQUEST;
}

/* Null, or persistent and not started: Wait/Test treat both alike. */
static inline int shmpi_request_inactive(MPI_Request r)
{
    return r == MPI_REQUEST_NULL || !r->active;
}

/*
 * THE OPERATIONS OF A KIND.  Sends and receives - what MPI_Wait and
 * MPI_Test complete on the fast path - are pt2pt's own and handled
 * inline where they are used (completion.c, cancel.c, persistent.c).
 * Every other kind differs from them in a few operations, and the room
 * that makes requests of that kind lends pt2pt a table of just those, so
 * that pt2pt never calls up into coll/ or rma/:
 *
 *   SHMPI_REQ_SENDRECV pt2pt/isendrecv.c; pt2pt's own, in the table from
 *                    the start
 *   SHMPI_REQ_FLUSH  pt2pt/bsend.c; the same
 *   SHMPI_REQ_PART   pt2pt/part.c; the same
 *   SHMPI_REQ_GREQ   pt2pt/greq.c; pt2pt's own, in the table from the
 *                    start (request.c)
 *   SHMPI_REQ_COLL   coll/sched.c, from shmpi_coll_init (comm's part of
 *                    MPI_Init)
 *   SHMPI_REQ_PCOLL  coll/pallreduce.c, from shmpi_coll_init too
 *   SHMPI_REQ_SYNC   rma/sync_req.c, from MPI_Init (init/init.c)
 *
 * Registered in MPI_Init, by the thread that calls it, before any
 * request of the kind can exist (every call that makes one requires
 * MPI_Init), and never changed after.  The operations run in the process
 * that owns the request (requests live in its private memory), in the
 * thread making the MPI call.  Under MPI_THREAD_MULTIPLE they run
 * without the request's lane held (pt2pt/lane.h), in several threads at
 * once on different requests: what a kind shares between its requests
 * is the kind's to lock.  A NULL operation: the kind does what a
 * send does there.
 */
struct shmpi_req_ops {
    /* Test/Wait of an active r not yet complete: has it completed now?
       May do the completion's work and set r->complete; never blocks.
       NULL: only r->complete tells (set by progress, or by another
       call, as MPI_Grequest_complete). */
    int (*poll)(struct shmpi_request *r);
    /* MPI_Start of r (r->persistent; required of a persistent kind):
       raise if r cannot start (already active, say), else activate it.
       Returns MPI_SUCCESS or the raised error. */
    int (*start)(struct shmpi_request *r, const char *fn);
    /* MPI_Wait and MPI_Test of an active r, before anything else they
       would do: if r completes within `polls` looks at what it waits
       for, make it inactive (a persistent kind) with r->status final and
       r->error MPI_SUCCESS, and return 1 - the call copies the status
       out and returns; else 0, changing nothing the generic path reads,
       which then runs.  Never blocks.  For a kind whose whole completion
       costs less than the generic path's poll, query and finish
       (coll/pallreduce.c).  NULL: always the generic path. */
    int (*complete_fast)(struct shmpi_request *r, int polls);
    /* Test/Wait hands out r's completion, or MPI_Request_get_status
       looks at it: make r->status final.  Returns MPI_SUCCESS or an
       error for the call; may run several times. */
    int (*query)(struct shmpi_request *r);
    /* After a completing Test/Wait copied r's status out: what the kind
       does as the completion ends (a callback, closing an epoch).  A
       persistent r becomes inactive unless this re-armed it (cleared
       r->complete); any other is then released.  Returns MPI_SUCCESS or
       an error of its own, the call's error if r->error is
       MPI_SUCCESS. */
    int (*finish)(struct shmpi_request *r);
    /* MPI_Cancel of an active r: cancel it, or raise that it cannot be.
       Returns MPI_SUCCESS or the raised error. */
    int (*cancel)(struct shmpi_request *r, const char *fn);
    /* MPI_Request_free: the program's handle is gone.  Releases r
       (shmpi_p2p_request_release), at once or once it completes. */
    void (*free)(struct shmpi_request *r);
    /* Report err (MPI_ERR_IN_STATUS from the calls that complete many)
       of r's completion through the handler r's errors go to, where
       that is not r->comm's.  Only a persistent kind has it: r must
       outlive finish.  Returns err as the handler left it. */
    int (*raise)(struct shmpi_request *r, int err, const char *fn);
};

/* MPI_Init: kind's operations are ops (static storage); requests made
   from then on carry them (shmpi_request.ops). */
void shmpi_p2p_request_register(enum shmpi_req_kind kind,
                                const struct shmpi_req_ops *ops);

/* The operations of r's kind, NULL for a send or a receive. */
static inline const struct shmpi_req_ops *
shmpi_request_ops(const struct shmpi_request *r)
{
    return r->ops;
}

/* Has an active request completed?  Sends and receives: the flag. */
static inline int shmpi_request_done(struct shmpi_request *r)
{
    if (shmpi_request_is_complete(r))
        return 1;
    const struct shmpi_req_ops *o = shmpi_request_ops(r);
    return o && o->poll && o->poll(r);
}

/* greq.c: the operations of SHMPI_REQ_GREQ. */
extern const struct shmpi_req_ops shmpi_p2p_greq_ops;
/* isendrecv.c: the operations of SHMPI_REQ_SENDRECV. */
extern const struct shmpi_req_ops shmpi_p2p_sendrecv_ops;
/* bsend.c: the operations of SHMPI_REQ_FLUSH. */
extern const struct shmpi_req_ops shmpi_p2p_flush_ops;

/* Set a status as MPI_Wait on a null request does (3.7.3). */
void shmpi_p2p_status_empty(MPI_Status *s);

/* Wait for one request and release it; the common tail of MPI_Wait and
   the blocking calls.  Returns the request's error. */
int shmpi_p2p_request_wait(struct shmpi_request *r, MPI_Status *status);
/* describe.c: one line of what a sleeping wait for r waits for (core/
   wait.h's describe): the blocking call r is on the stack of, else
   `wait` (the call that waits for it), the peer, tag and communicator;
   returns the peer's rank in MPI_COMM_WORLD, -1 for any. */
int shmpi_p2p_request_describe(const struct shmpi_request *r,
                               const char *wait, char *buf, size_t len);
/* The same for a probe: its call, the context it probes, the source
   (world rank, -1: any) and tag; returns source. */
int shmpi_p2p_envelope_describe(const char *call, uint32_t context,
                                int source, int tag, char *buf, size_t len);

#endif
