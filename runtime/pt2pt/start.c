/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * start.c - from call arguments to a started request.
 */
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/error.h"
#include "core/proc.h"
#include "datatypes/datatype.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/sigcheck.h"
#include "pt2pt/start.h"

/* The call's arguments into r (its comm and datatype retained by the
   caller). */
static inline __attribute__((always_inline)) void
set_args(struct shmpi_request *r, const void *buf, MPI_Count count,
                     MPI_Datatype datatype, int peer, int tag, MPI_Comm comm)
{
    r->comm = comm;
    r->context = comm->context;
    r->buf = (void *)buf;
    r->count = count;
    r->datatype = datatype;
    r->nbytes = (uint64_t)count * (uint64_t)datatype->size;
    r->peer = peer == MPI_ANY_SOURCE || peer == MPI_PROC_NULL
                  ? peer : shmpi_comm_peer_to_world(comm, peer);
    r->tag = tag;
    atomic_store_explicit(&r->complete, 0, memory_order_relaxed);
    r->error = MPI_SUCCESS;
    shmpi_p2p_status_empty(&r->status);
}

void shmpi_p2p_request_fill(struct shmpi_request *r, const void *buf, MPI_Count count,
                            MPI_Datatype datatype, int peer, int tag,
                            MPI_Comm comm)
{
    /* a request may outlive the program's handle of comm (6.4.3) */
    if (!r->on_stack && r->comm != comm) {
        if (r->comm)
            shmpi_core_comm_release(r->comm);
        shmpi_core_comm_retain(comm);
    }
    /* and of the datatype: MPI_Type_free may come before the wait */
    if (!r->on_stack && r->datatype != datatype) {
        shmpi_dt_retain(datatype);
        if (r->datatype)
            shmpi_dt_release(r->datatype);
    }
    r->lane = shmpi_p2p_comm_lane(comm);
    set_args(r, buf, count, datatype, peer, tag, comm);
}

/* Not shmpi_p2p_request_new + fill: zeroing the whole request (~250
   bytes) and then comparing the old comm and datatype with the new ones
   was 131 of the 476 instructions of an MPI_Isend of 8 bytes; this
   takes 52 off MPI_Isend and 49 off MPI_Irecv (2026-11-29, callgrind of
   osu_bw's window of 64 8-byte messages, both ranks).  A send's or receive's
   path writes granted, moved, rcookie and msg_bytes before it reads them
   (CTS, RTS, the match), and next when it queues the request; greq is
   a generalized request's only: those are left as they were. */
/* What shmpi_p2p_request_make sets in the memory it got. */
static inline __attribute__((always_inline)) struct shmpi_request *
made(struct shmpi_request *r, enum shmpi_req_kind kind, const void *buf,
     MPI_Count count, MPI_Datatype datatype, int peer, int tag, MPI_Comm comm)
{
    if (!r)
        return NULL;
    r->magic = SHMPI_MAGIC_REQUEST;
    r->kind = (uint8_t)kind;
    r->user_freed = r->on_stack = r->persistent = 0;
    atomic_store_explicit(&r->handed, 0, memory_order_relaxed);
    r->active = 1;
    r->mode = SHMPI_MODE_STANDARD;
    r->claim = 0;
    r->on_complete = NULL;
    r->owner = NULL;
    r->fint = 0;
    r->tool = 0;
    r->ops = NULL;
    shmpi_core_comm_retain(comm);
    shmpi_dt_retain(datatype);
    set_args(r, buf, count, datatype, peer, tag, comm);
    return r;
}

struct shmpi_request *shmpi_p2p_request_make(enum shmpi_req_kind kind,
                                             const void *buf, MPI_Count count,
                                             MPI_Datatype datatype, int peer,
                                             int tag, MPI_Comm comm)
{
    return made(shmpi_p2p_request_alloc(shmpi_p2p_comm_lane(comm)), kind, buf,
                count, datatype, peer, tag, comm);
}

static __attribute__((noinline)) int post_or_queue_mt(struct shmpi_request *r)
{
    struct shmpi_lane_lock *k = &r->lane->lock;
    shmpi_p2p_lane_enter_mt(k);
    int rc = shmpi_p2p_send_post_or_queue(r);
    shmpi_p2p_lane_leave_mt(k);
    return rc;
}

/* The check mode signs the send here, where every send of the program
   passes with its call's name (sigcheck.h); the fast way of MPI_Send
   (fastpath.c) does not come here. */
int shmpi_p2p_start_send(const char *fn, struct shmpi_request *r, int mode)
{
    r->mode = mode;
    if (shmpi_core_checking())
        shmpi_p2p_sig_sign(r, r, fn);
    int rc = __builtin_expect(shmpi_proc.mt, 0)
                 ? post_or_queue_mt(r)
                 : shmpi_p2p_send_post_or_queue(r);
    if (rc == 0)
        return MPI_SUCCESS;
    if (r->sig)
        shmpi_p2p_sig_drop(r);
    return shmpi_raise(r->comm, MPI_ERR_NO_MEM, fn, "%s",
                       r->lane->outbox.why);
}

static void start_recv(struct shmpi_request *r)
{
    if (r->peer == MPI_PROC_NULL)
        shmpi_p2p_complete_proc_null(r);
    else
        shmpi_p2p_recv_match_or_post(r);
}

static __attribute__((noinline)) void start_recv_mt(struct shmpi_request *r)
{
    struct shmpi_lane_lock *k = &r->lane->lock;
    shmpi_p2p_lane_enter_mt(k);
    start_recv(r);
    shmpi_p2p_lane_leave_mt(k);
}

/* A receive made and started in lane l, which the caller holds (or
   needs not: below MULTIPLE). */
static inline __attribute__((always_inline)) struct shmpi_request *
make_started(struct shmpi_lane *l, void *buf, MPI_Count count,
             MPI_Datatype datatype, int peer, int tag, MPI_Comm comm)
{
    struct shmpi_request *r = made(shmpi_p2p_request_alloc_held(l),
                                   SHMPI_REQ_RECV, buf, count, datatype, peer,
                                   tag, comm);
    if (r)
        start_recv(r);
    return r;
}

/* Under MULTIPLE the receive's lane is taken once for the request's
   allocation and its start, which take it again otherwise (2026-11-29,
   perf/run-perf pt2pt-count COUNT_LEVEL=multiple, 1 B: MPI_Irecv 320
   -> 274 instructions, two locked instructions less; with the two
   entries made recursive instead, a depth count each: 343). */
struct shmpi_request *shmpi_p2p_recv_make_started_mt(void *buf,
                                                     MPI_Count count,
                                                     MPI_Datatype datatype,
                                                     int peer, int tag,
                                                     MPI_Comm comm)
{
    struct shmpi_lane *l = shmpi_p2p_comm_lane(comm);
    shmpi_p2p_lane_enter_mt(&l->lock);
    struct shmpi_request *r =
        make_started(l, buf, count, datatype, peer, tag, comm);
    shmpi_p2p_lane_leave_mt(&l->lock);
    return r;
}

/* Below MULTIPLE the lane is never taken (lane.h), so the allocation
   and the start need not look again. */
struct shmpi_request *shmpi_p2p_recv_make_started_st(void *buf,
                                                     MPI_Count count,
                                                     MPI_Datatype datatype,
                                                     int peer, int tag,
                                                     MPI_Comm comm)
{
    return make_started(shmpi_p2p_comm_lane(comm), buf, count, datatype, peer,
                        tag, comm);
}

/* One branch for the lock (an enter and a leave cost MPI_Irecv 16
   instructions, 2026-11-29, perf/run-perf pt2pt-count). */
void shmpi_p2p_start_recv(struct shmpi_request *r)
{
    if (__builtin_expect(shmpi_proc.mt, 0))
        start_recv_mt(r);
    else
        start_recv(r);
}

int shmpi_p2p_recv_withdraw(struct shmpi_request *r)
{
    shmpi_p2p_lane_enter(r->lane);
    int posted = shmpi_p2p_queue_remove(&r->lane->posted, r);
    shmpi_p2p_lane_leave(r->lane);
    return posted;
}

/* The outgoing data of MPI_Sendrecv_replace and MPI_Isendrecv_replace
   travels from a packed copy, so the receive may overwrite buf at once. */
void *shmpi_p2p_packed_copy(const char *fn, MPI_Comm comm, const void *buf,
                            MPI_Count count, MPI_Datatype dt, int *rc)
{
    uint64_t bytes = (uint64_t)count * (uint64_t)dt->size;
    void *copy = malloc(bytes ? bytes : 1);
    if (!copy) {
        *rc = shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                          "no memory for a %llu-byte copy",
                          (unsigned long long)bytes);
        return NULL;
    }
    if (bytes)
        shmpi_dt_pack(buf, dt, 0, copy, bytes);
    return copy;
}

void shmpi_p2p_complete_proc_null(struct shmpi_request *r)
{
    r->status.MPI_SOURCE = MPI_PROC_NULL;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->status.shmpi_nbytes = 0;
    shmpi_p2p_lane_enter(r->lane);
    shmpi_p2p_request_complete(r);
    shmpi_p2p_lane_leave(r->lane);
}
