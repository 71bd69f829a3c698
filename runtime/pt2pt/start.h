/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * start.h - turning the arguments of a send or receive call into a
 * started request; shared by the blocking and nonblocking calls.
 */
#ifndef SHMPI_START_H
#define SHMPI_START_H

#include "core/proc.h"
#include "pt2pt/request.h"

/* The request a blocking call keeps on its own stack. */
#define SHMPI_STACK_REQUEST(k) \
    {.magic = SHMPI_MAGIC_REQUEST, .kind = (k), .on_stack = 1, .active = 1}

void shmpi_p2p_request_fill(struct shmpi_request *r, const void *buf, MPI_Count count,
                            MPI_Datatype datatype, int peer, int tag,
                            MPI_Comm comm);
/* A new send or receive (kind SHMPI_REQ_SEND or SHMPI_REQ_RECV) of these
   arguments, active, not started: what shmpi_p2p_request_new and
   shmpi_p2p_request_fill make, for less.  NULL when out of memory. */
struct shmpi_request *shmpi_p2p_request_make(enum shmpi_req_kind kind,
                                             const void *buf, MPI_Count count,
                                             MPI_Datatype datatype, int peer,
                                             int tag, MPI_Comm comm);
/* shmpi_p2p_request_make of a receive and shmpi_p2p_start_recv, under
   one hold of its lane under MULTIPLE; NULL when out of memory.  The
   level's branch inline, in the caller: taken inside one function,
   whose SINGLE side (the inlined allocation and start) needs six saved
   registers, it cost MPI_Irecv at MULTIPLE the saves and restores, 21
   instructions a message for nothing (2026-11-30, callgrind,
   COUNT_LEVEL=multiple perf/run-perf pt2pt-count). */
struct shmpi_request *shmpi_p2p_recv_make_started_st(void *buf,
                                                     MPI_Count count,
                                                     MPI_Datatype datatype,
                                                     int peer, int tag,
                                                     MPI_Comm comm);
struct shmpi_request *shmpi_p2p_recv_make_started_mt(void *buf,
                                                     MPI_Count count,
                                                     MPI_Datatype datatype,
                                                     int peer, int tag,
                                                     MPI_Comm comm);
static inline struct shmpi_request *
shmpi_p2p_recv_make_started(void *buf, MPI_Count count, MPI_Datatype datatype,
                            int peer, int tag, MPI_Comm comm)
{
    if (__builtin_expect(shmpi_proc.mt, 0))
        return shmpi_p2p_recv_make_started_mt(buf, count, datatype, peer, tag,
                                              comm);
    return shmpi_p2p_recv_make_started_st(buf, count, datatype, peer, tag,
                                          comm);
}
/* r, a send or receive that completed, ready to start again with the
   arguments it has: its completion's state cleared (a start's path
   writes the rest before reading it, start.c, made).  MPI_Start of a
   persistent request, and a persistent collective's messages after its
   first start (coll/sched.c). */
static inline void shmpi_p2p_request_rearm(struct shmpi_request *r)
{
    atomic_store_explicit(&r->complete, 0, memory_order_relaxed);
    atomic_store_explicit(&r->handed, 0, memory_order_relaxed);
    r->error = MPI_SUCCESS;
    r->granted = r->moved = r->rcookie = r->msg_bytes = 0;
    shmpi_p2p_status_empty(&r->status);
}
/* Start a send (peer != MPI_PROC_NULL); returns MPI_SUCCESS or a raised
   error code. */
int shmpi_p2p_start_send(const char *fn, struct shmpi_request *r, int mode);
/* Start a receive: MPI_PROC_NULL completes at once, any other is
   matched or posted (recv.c). */
void shmpi_p2p_start_recv(struct shmpi_request *r);
/* Take a started receive back off its lane's posted queue (under the
   lane): 1 if it was still posted, 0 if a message matched it. */
int shmpi_p2p_recv_withdraw(struct shmpi_request *r);
/* A request that completes at once: MPI_PROC_NULL peer (3.11). */
void shmpi_p2p_complete_proc_null(struct shmpi_request *r);
/* MPI_Cancel of an active send or receive r, under its lane l
   (cancel.c): cancelled if it still can be, else left to complete. */
void shmpi_p2p_cancel_locked(struct shmpi_lane *l, struct shmpi_request *r);
/* The packed copy of (buf, count, dt) that a send-receive in place sends
   from, so that the receive may overwrite buf at once (malloc'd; freed
   by the caller).  NULL and *rc the raised MPI_ERR_NO_MEM when out of
   memory. */
void *shmpi_p2p_packed_copy(const char *fn, MPI_Comm comm, const void *buf,
                            MPI_Count count, MPI_Datatype dt, int *rc);

#endif
