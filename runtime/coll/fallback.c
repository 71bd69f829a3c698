/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fallback.c - the collectives over point-to-point messages, for a
 * communicator that got no collective area (all SHMPI_COLL_AREAS taken,
 * or no room in /dev/shm) or a reduction whose elements do not fit in a
 * half of a slot.  Correct and simple rather than fast: they exist so
 * that a collective never fails for want of an area.
 *
 * Messages travel on the communicator's internal context
 * (pt2pt/internal.h) with the tag SHMPI_TAG_COLL, typed (the pt2pt engine
 * packs and unpacks), so derived types need nothing here.  Messages between two processes on one
 * context never overtake each other, so consecutive collectives cannot
 * mix theirs up.
 *
 *   barrier     dissemination: round k sends a zero-byte message to rank
 *               + 2^k and receives one from rank - 2^k (tag per round)
 *   data        pairwise: in step k = 1 .. n-1 each process posts the
 *               receive from rank - k, sends to rank + k if it has a block
 *               for it, and waits for both (bcast, gather, scatter,
 *               allgather, alltoall and their v/w forms)
 *   reductions  the root receives every contribution and folds them in
 *               rank order, highest first (Allreduce: then a bcast;
 *               Reduce_scatter: then a scatter); Scan and Exscan pass a
 *               running prefix along the ranks.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/fallback.h"
#include "core/error.h"
#include "datatypes/datatype.h"
#include "pt2pt/internal.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/start.h"

int shmpi_coll_fb_barrier(MPI_Comm comm, const char *fn)
{
    int size = comm->size, rank = comm->rank;
    for (int k = 1, round = 0; k < size; k <<= 1, round++) {
        int rc = shmpi_p2p_internal_sendrecv(
            comm, NULL, 0, (rank + k) % size, SHMPI_TAG_BARRIER + round,
            NULL, 0, (rank - k + size) % size, SHMPI_TAG_BARRIER + round, fn);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

/* Receive from src (unless rb is NULL) and send to dst (unless sb is
   NULL) at once.  Returns MPI_SUCCESS or an error class, not raised. */
static int exchange(MPI_Comm comm, const struct shmpi_coll_block *sb,
                          int dst, const struct shmpi_coll_block *rb, int src,
                          const char *fn)
{
    struct shmpi_request s, r;
    int err = MPI_SUCCESS;
    if (rb) {
        shmpi_p2p_internal_request(&r, SHMPI_REQ_RECV, comm, rb->buf,
                                   rb->count, rb->type, src,
                                   SHMPI_TAG_COLL);
        shmpi_p2p_start_recv(&r);
    }
    if (sb) {
        shmpi_p2p_internal_request(&s, SHMPI_REQ_SEND, comm, sb->buf,
                                   sb->count, sb->type, dst,
                                   SHMPI_TAG_COLL);
        err = shmpi_p2p_start_send(fn, &s, SHMPI_MODE_STANDARD);
        if (err == MPI_SUCCESS)
            err = shmpi_p2p_request_wait(&s, MPI_STATUS_IGNORE);
        else if (rb) /* the request on this stack goes */
            shmpi_p2p_recv_withdraw(&r);
        if (err != MPI_SUCCESS)
            return err;
    }
    return rb ? shmpi_p2p_request_wait(&r, MPI_STATUS_IGNORE) : MPI_SUCCESS;
}

static int failed(MPI_Comm comm, int err, const char *fn)
{
    if (err == MPI_SUCCESS)
        return MPI_SUCCESS;
    return shmpi_raise(comm, err, fn, "%s",
                       err == MPI_ERR_TRUNCATE
                           ? "a process sent more data than the receive "
                             "buffer holds"
                           : "a message of the collective failed");
}

static int send_to(MPI_Comm comm, const void *buf, MPI_Count count,
                   MPI_Datatype t, int dst, const char *fn)
{
    struct shmpi_coll_block b = {(void *)buf, count, t, 0};
    return exchange(comm, &b, dst, NULL, -1, fn);
}

static int recv_from(MPI_Comm comm, void *buf, MPI_Count count,
                     MPI_Datatype t, int src, const char *fn)
{
    struct shmpi_coll_block b = {buf, count, t, 0};
    return exchange(comm, NULL, -1, &b, src, fn);
}

/* ------------------------------------------------------------------ */
/* Data collectives                                                    */
/* ------------------------------------------------------------------ */

int shmpi_coll_fb_xchg(MPI_Comm comm, struct shmpi_coll_xchg *x,
                       const char *fn)
{
    int n = comm->size, me = comm->rank, err = MPI_SUCCESS;
    for (int k = 1; k < n; k++) {
        int dst = (me + k) % n, src = (me - k + n) % n;
        struct shmpi_coll_block sb, rb;
        int sends = x->writes &&
                    (x->readers == SHMPI_COLL_ALL || x->readers == dst);
        int recvs = x->sources == SHMPI_COLL_ALL || x->sources == src;
        if (sends && x->shape == SHMPI_XCHG_ONE)
            sb = x->mine;
        else if (sends)
            shmpi_coll_block_at(&x->out, dst, &sb);
        if (recvs)
            shmpi_coll_block_at(&x->in, src, &rb);
        int e = exchange(comm, sends ? &sb : NULL, dst, recvs ? &rb : NULL,
                         src, fn);
        if (err == MPI_SUCCESS)
            err = e; /* the first error, after every step was taken */
    }
    return failed(comm, err, fn);
}

/* ------------------------------------------------------------------ */
/* Reductions                                                          */
/* ------------------------------------------------------------------ */

static void copy_typed(void *dst, const void *src, MPI_Count count,
                       MPI_Datatype t)
{
    if (dst != src)
        shmpi_dt_copy_typed(dst, t, src, t, (uint64_t)(count * t->size));
}

/* A copy of the contribution when the result overwrites it. */
static const void *own_data(const struct shmpi_coll_red *x, void *dst,
                            void **block)
{
    *block = NULL;
    if (x->sbuf != dst)
        return x->sbuf;
    void *copy = shmpi_coll_typed_alloc(x->type, x->count, block);
    if (copy)
        copy_typed(copy, x->sbuf, x->count, x->type);
    return copy;
}

/* The whole result at root, in dst: fold in rank order, highest first. */
static int reduce_to(MPI_Comm comm, const struct shmpi_coll_red *x, int root,
                     void *dst, const char *fn)
{
    int n = comm->size, err;
    MPI_Datatype t = x->type;
    if (comm->rank != root)
        return send_to(comm, x->sbuf, x->count, t, root, fn);
    void *own_block, *tmp_block;
    const void *own = own_data(x, dst, &own_block);
    void *tmp = shmpi_coll_typed_alloc(t, x->count, &tmp_block);
    if (!own || !tmp) {
        free(own_block);
        free(tmp_block);
        return MPI_ERR_NO_MEM;
    }
    if (n - 1 == root)
        copy_typed(dst, own, x->count, t);
    err = n - 1 == root ? MPI_SUCCESS
                        : recv_from(comm, dst, x->count, t, n - 1, fn);
    for (int j = n - 2; j >= 0 && err == MPI_SUCCESS; j--) {
        const void *xj = own;
        if (j != root) {
            err = recv_from(comm, tmp, x->count, t, j, fn);
            xj = tmp;
        }
        shmpi_op_reduce(x->op, xj, dst, x->count, t);
    }
    free(own_block);
    free(tmp_block);
    return err;
}

/* Rank 0's buf to every rank, or segment i of it to rank i. */
static int from_rank0(MPI_Comm comm, const struct shmpi_coll_red *x,
                      const void *full, const char *fn)
{
    MPI_Datatype t = x->type;
    int err = MPI_SUCCESS, segments = x->kind == SHMPI_RED_SCATTER;
    MPI_Count first = 0, count = x->count;
    if (comm->rank != 0) {
        if (segments)
            shmpi_coll_segment(x, comm->size, comm->rank, &first, &count);
        return recv_from(comm, x->rbuf, count, t, 0, fn);
    }
    for (int i = 1; i < comm->size; i++) {
        if (segments)
            shmpi_coll_segment(x, comm->size, i, &first, &count);
        int e = send_to(comm, (const unsigned char *)full + first * t->extent,
                        count, t, i, fn);
        if (err == MPI_SUCCESS)
            err = e;
    }
    if (segments) {
        shmpi_coll_segment(x, comm->size, 0, &first, &count);
        copy_typed(x->rbuf, (const unsigned char *)full + first * t->extent,
                   count, t);
    }
    return err;
}

/* x0 op ... op x(me) in rbuf, passed on to the next rank. */
static int scan_chain(MPI_Comm comm, const struct shmpi_coll_red *x,
                      const char *fn)
{
    int me = comm->rank, err = MPI_SUCCESS;
    MPI_Datatype t = x->type;
    void *block = NULL;
    void *prefix = me > 0 ? shmpi_coll_typed_alloc(t, x->count, &block)
                          : NULL;
    if (me > 0 && !prefix)
        return MPI_ERR_NO_MEM;
    if (me > 0)
        err = recv_from(comm, prefix, x->count, t, me - 1, fn);
    copy_typed(x->rbuf, x->sbuf, x->count, t);
    if (me > 0)
        shmpi_op_reduce(x->op, prefix, x->rbuf, x->count, t);
    if (me < comm->size - 1 && err == MPI_SUCCESS)
        err = send_to(comm, x->rbuf, x->count, t, me + 1, fn);
    free(block);
    return err;
}

/* x0 op ... op x(me-1) in rbuf; the next rank gets that op x(me). */
static int exscan_chain(MPI_Comm comm, const struct shmpi_coll_red *x,
                        const char *fn)
{
    int me = comm->rank, last = comm->size - 1, err = MPI_SUCCESS;
    MPI_Datatype t = x->type;
    void *own_block, *next_block = NULL;
    const void *own = own_data(x, x->rbuf, &own_block);
    void *next = me > 0 && me < last
                     ? shmpi_coll_typed_alloc(t, x->count, &next_block)
                     : NULL;
    if (!own || (me > 0 && me < last && !next)) {
        free(own_block);
        free(next_block);
        return MPI_ERR_NO_MEM;
    }
    if (me > 0)
        err = recv_from(comm, x->rbuf, x->count, t, me - 1, fn);
    if (me < last && err == MPI_SUCCESS) {
        if (next) {
            copy_typed(next, own, x->count, t);
            shmpi_op_reduce(x->op, x->rbuf, next, x->count, t);
        }
        err = send_to(comm, next ? next : own, x->count, t, me + 1, fn);
    }
    free(own_block);
    free(next_block);
    return err;
}

int shmpi_coll_fb_reduction(MPI_Comm comm, const struct shmpi_coll_red *x,
                            const char *fn)
{
    int err;
    void *block = NULL, *full = x->rbuf;
    switch (x->kind) {
    case SHMPI_RED_REDUCE:
        err = reduce_to(comm, x, x->root, x->rbuf, fn);
        break;
    case SHMPI_RED_ALLREDUCE:
    case SHMPI_RED_SCATTER:
        if (x->kind == SHMPI_RED_SCATTER && comm->rank == 0 &&
            !(full = shmpi_coll_typed_alloc(x->type, x->count, &block))) {
            err = MPI_ERR_NO_MEM;
            break;
        }
        err = reduce_to(comm, x, 0, full, fn);
        if (err == MPI_SUCCESS)
            err = from_rank0(comm, x, full, fn);
        free(block);
        break;
    case SHMPI_RED_SCAN:
        err = scan_chain(comm, x, fn);
        break;
    default:
        err = exscan_chain(comm, x, fn);
        break;
    }
    return failed(comm, err, fn);
}
