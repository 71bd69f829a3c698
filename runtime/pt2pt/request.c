/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * request.c - allocating, completing and releasing requests.
 *
 * Requests come from a free list: a nonblocking call in a loop should
 * not cost a malloc.  A request is released when the program is done
 * with it (a completing Wait/Test, or MPI_Request_free) and the library
 * is done with it (it completed); whichever comes last releases it.
 * The table of the kinds' operations is here too (request.h).
 *
 * State: the free lists are the lanes' free_requests (pt2pt.h); the
 * kinds' table is written only while MPI_Init registers the kinds, then
 * only read, so it stays here beside the code that fills it.
 */
#include <stdlib.h>
#include <string.h>

#include "core/proc.h"
#include "pt2pt/claim.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"

static const struct shmpi_req_ops *kind_ops[SHMPI_REQ_KINDS] = {
    [SHMPI_REQ_GREQ] = &shmpi_p2p_greq_ops,
    [SHMPI_REQ_SENDRECV] = &shmpi_p2p_sendrecv_ops,
    [SHMPI_REQ_FLUSH] = &shmpi_p2p_flush_ops,
    [SHMPI_REQ_PART] = &shmpi_p2p_part_ops,
};

void shmpi_p2p_request_register(enum shmpi_req_kind kind,
                                const struct shmpi_req_ops *ops)
{
    kind_ops[kind] = ops;
}

struct shmpi_request *shmpi_p2p_request_malloc(struct shmpi_lane *l)
{
    struct shmpi_request *r = malloc(sizeof *r);
    if (r) {
        r->lane = l;
        r->bufcheck = NULL; /* and so for ever, outside check mode */
        r->sig = NULL;
    }
    return r;
}

static __attribute__((noinline)) struct shmpi_request *
alloc_mt(struct shmpi_lane *l)
{
    shmpi_p2p_lane_enter(l);
    struct shmpi_request *r = shmpi_p2p_request_alloc_held(l);
    shmpi_p2p_lane_leave(l);
    return r;
}

/* The lock is one branch for both ends here and in release (2026-11-29,
   perf/run-perf pt2pt-count, 1 B: a branch at each end cost the
   receiver 4 more instructions per message in each). */
struct shmpi_request *shmpi_p2p_request_alloc(struct shmpi_lane *l)
{
    return __builtin_expect(shmpi_proc.mt, 0)
               ? alloc_mt(l)
               : shmpi_p2p_request_alloc_held(l);
}

struct shmpi_request *shmpi_p2p_request_new(enum shmpi_req_kind kind)
{
    return shmpi_p2p_request_new_in(shmpi_p2p_lane_of(0), kind);
}

struct shmpi_request *shmpi_p2p_request_new_in(struct shmpi_lane *l,
                                               enum shmpi_req_kind kind)
{
    struct shmpi_request *r = shmpi_p2p_request_alloc(l);
    if (!r)
        return NULL;
    memset(r, 0, sizeof *r);
    r->lane = l;
    r->magic = SHMPI_MAGIC_REQUEST;
    r->kind = (uint8_t)kind;
    if (kind > SHMPI_REQ_RECV) /* sends and receives have none */
        r->ops = kind_ops[kind];
    r->active = 1;
    return r;
}

void shmpi_p2p_request_release(struct shmpi_request *r)
{
    if (r->on_stack)
        return;
    shmpi_p2p_request_drop_refs(r);
    struct shmpi_lane *l = r->lane;
    if (__builtin_expect(shmpi_proc.mt, 0)) {
        shmpi_p2p_lane_enter_mt(&l->lock);
        shmpi_p2p_request_push_free(r);
        shmpi_p2p_lane_leave_mt(&l->lock);
    } else {
        shmpi_p2p_request_push_free(r);
    }
}

void shmpi_p2p_request_complete_more(struct shmpi_request *r)
{
    if (r->claim) { /* matched, or never published: the word is ours */
        shmpi_p2p_claim_free(r->claim);
        r->claim = 0;
    }
    if (shmpi_proc.mt)
        r->lane->lock.completed = 1; /* under the lane: lane.h */
    /* read before the release store: from then on a waiter may hand r
       out and its memory go (a blocking call's request is on its
       stack); only a request nobody waits for (the program freed it,
       or the library owns it: on_complete) is touched after */
    void (*on_complete)(struct shmpi_request *) = r->on_complete;
    int freed = r->user_freed;
    shmpi_request_set_complete(r);
    if (on_complete)
        on_complete(r);
    else if (freed)
        shmpi_p2p_request_release(r);
}

void shmpi_p2p_status_empty(MPI_Status *s)
{
    if (s == MPI_STATUS_IGNORE)
        return;
    s->MPI_SOURCE = MPI_ANY_SOURCE;
    s->MPI_TAG = MPI_ANY_TAG;
    s->MPI_ERROR = MPI_SUCCESS;
    s->shmpi_cancelled = 0;
    s->shmpi_nbytes = 0;
}
