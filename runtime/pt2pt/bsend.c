/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bsend.c - buffered mode: MPI_Buffer_attach, MPI_Buffer_detach,
 * MPI_Bsend, MPI_Ibsend (MPI-3.1 3.6).
 *
 * A buffered send packs its message into the attached buffer and sends
 * from that copy with a request of its own, so the call returns at once
 * whatever the receiver does.  Space is handed out first-fit; each message
 * takes its packed size plus MPI_BSEND_OVERHEAD bytes (the bookkeeping
 * itself lives outside the user's buffer, the overhead is charged so that
 * a buffer sized by the standard's rule always suffices).  Space comes
 * back when the copy has been delivered; MPI_Buffer_detach (and
 * MPI_Finalize) waits for that.
 *
 * State: the buffer and its blocks are shmpi_proc.pt2pt->bsend (pt2pt.h).
 *
 * Threads: the buffer is the rank's, the copies are sent in the lanes
 * of their communicators, and the progress engine gives a block back
 * under the lane of its copy.  So the buffer has a lock of its own,
 * taken inside a lane (give_back) and never held while one is taken:
 * the copy's send starts with it left, and a full buffer is progressed
 * with it left.
 */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/lock.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/wait.h"
#include "datatypes/datatype.h"
#include "pt2pt/check.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/start.h"

SHMPI_WEAK_ALIAS(Buffer_attach)
SHMPI_WEAK_ALIAS(Buffer_detach)
SHMPI_WEAK_ALIAS(Bsend)
SHMPI_WEAK_ALIAS(Ibsend)

struct shmpi_bsend_block {
    size_t offset, bytes;
    struct shmpi_bsend_block *next; /* sorted by offset */
};

static struct shmpi_bsend_buffer *attached(void)
{
    return &shmpi_proc.pt2pt->bsend;
}

static void lock(void)
{
    shmpi_core_lock(&attached()->lock);
}

static void unlock(void)
{
    shmpi_core_unlock(&attached()->lock);
}

/* First fit: the offset of a free run of `bytes`, or (size_t)-1. */
static size_t find_space(size_t bytes, struct shmpi_bsend_block ***link)
{
    size_t at = 0;
    struct shmpi_bsend_block **pp = &attached()->used;
    for (; *pp; pp = &(*pp)->next) {
        if ((*pp)->offset - at >= bytes)
            break;
        at = (*pp)->offset + (*pp)->bytes;
    }
    *link = pp;
    return attached()->size - at >= bytes && (*pp == NULL ||
                                             (*pp)->offset - at >= bytes)
               ? at : (size_t)-1;
}

/* The buffer as a failed send reports it. */
struct space_seen {
    int is_attached;
    size_t size;
    unsigned char *base;
};

/* The block of `bytes`, or NULL (no room, no buffer, no memory); takes
   the lock. */
static struct shmpi_bsend_block *try_space(size_t bytes,
                                           struct space_seen *seen)
{
    struct shmpi_bsend_block **link;
    lock();
    *seen = (struct space_seen){attached()->is_attached, attached()->size,
                                attached()->base};
    if (!seen->is_attached) {
        unlock();
        return NULL;
    }
    size_t at = find_space(bytes, &link);
    struct shmpi_bsend_block *b = at == (size_t)-1 ? NULL : malloc(sizeof *b);
    if (b) {
        *b = (struct shmpi_bsend_block){at, bytes, *link};
        *link = b;
    }
    unlock();
    return b;
}

static struct shmpi_bsend_block *take_space(size_t bytes,
                                            struct space_seen *seen)
{
    struct shmpi_bsend_block *b = try_space(bytes, seen);
    if (!b && seen->is_attached) {
        shmpi_p2p_progress(); /* delivered copies give space back */
        b = try_space(bytes, seen);
    }
    return b;
}

static void give_back(struct shmpi_bsend_block *b)
{
    lock();
    for (struct shmpi_bsend_block **pp = &attached()->used; *pp;
         pp = &(*pp)->next)
        if (*pp == b) {
            *pp = b->next;
            free(b);
            break;
        }
    unlock();
}

static void copy_delivered(struct shmpi_request *r)
{
    give_back(r->owner);
    shmpi_p2p_request_release(r);
}

/* Start the buffered send described by r; r itself completes at once. */
static int bsend_start(const char *fn, struct shmpi_request *r)
{
    size_t need = (size_t)r->nbytes + MPI_BSEND_OVERHEAD;
    struct space_seen seen;
    struct shmpi_bsend_block *b = take_space(need, &seen);
    if (!b)
        return shmpi_raise(r->comm, MPI_ERR_BUFFER, fn,
                           "%s: a %llu-byte message needs %zu bytes of "
                           "attached buffer (%zu attached)",
                           seen.is_attached ? "buffer full"
                                            : "no buffer attached",
                           (unsigned long long)r->nbytes, need, seen.size);
    struct shmpi_request *copy = shmpi_p2p_request_new(SHMPI_REQ_SEND);
    if (!copy) {
        give_back(b);
        return shmpi_raise(r->comm, MPI_ERR_NO_MEM, fn, "no memory");
    }
    unsigned char *data = seen.base + b->offset;
    if (r->nbytes)
        shmpi_dt_pack(r->buf, r->datatype, 0, data, r->nbytes);
    *copy = *r;
    shmpi_core_comm_retain(copy->comm); /* released with the copy */
    copy->magic = SHMPI_MAGIC_REQUEST;
    copy->fint = 0;            /* r's number stays r's (core/fint.h) */
    copy->persistent = copy->on_stack = copy->user_freed = 0;
    copy->active = 1;
    copy->buf = data;
    copy->datatype = MPI_BYTE;
    copy->owner = b;
    copy->on_complete = copy_delivered;
    int rc = shmpi_p2p_start_send(fn, copy, SHMPI_MODE_STANDARD);
    if (rc == MPI_SUCCESS) { /* under its lane: lane.h, `completed` */
        shmpi_p2p_lane_enter(r->lane);
        shmpi_p2p_request_complete(r);
        shmpi_p2p_lane_leave(r->lane);
    }
    return rc;
}

int shmpi_p2p_bsend_start(const char *fn, struct shmpi_request *r)
{
    return bsend_start(fn, r);
}

static int bsend_common(const char *fn, const void *buf, int count,
                        MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                        struct shmpi_request *r)
{
    int rc = shmpi_check_send(fn, buf, count, dt, dest, tag, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_p2p_request_fill(r, buf, count, dt, dest, tag, comm);
    r->mode = SHMPI_MODE_BUFFERED;
    if (dest == MPI_PROC_NULL) {
        shmpi_p2p_complete_proc_null(r);
        return MPI_SUCCESS;
    }
    return shmpi_p2p_bsend_start(fn, r);
}

int PMPI_Bsend(const void *buf, int count, MPI_Datatype dt, int dest,
               int tag, MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT("MPI_Bsend");
    struct shmpi_request r = SHMPI_STACK_REQUEST(SHMPI_REQ_SEND);
    return bsend_common("MPI_Bsend", buf, count, dt, dest, tag, comm, &r);
}

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *req)
{
    static const char *fn = "MPI_Ibsend";
    SHMPI_REQUIRE_INIT(fn);
    if (!req)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
    struct shmpi_request *r = shmpi_p2p_request_new(SHMPI_REQ_SEND);
    if (!r)
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn, "no memory");
    int rc = bsend_common(fn, buf, count, dt, dest, tag, comm, r);
    if (rc != MPI_SUCCESS) {
        shmpi_p2p_request_release(r);
        return rc;
    }
    *req = r;
    return MPI_SUCCESS;
}

static int attach(const char *fn, void *buffer, int size);

int PMPI_Buffer_attach(void *buffer, int size)
{
    static const char *fn = "MPI_Buffer_attach";
    SHMPI_REQUIRE_INIT(fn);
    lock();
    int rc = attach(fn, buffer, size);
    unlock();
    return rc;
}

static int attach(const char *fn, void *buffer, int size)
{
    if (attached()->is_attached)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, fn,
                           "a buffer is already attached (detach it first)");
    if (size < 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "size %d is negative", size);
    if (!buffer && size > 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, fn,
                           "buffer is NULL");
    attached()->is_attached = 1;
    attached()->base = buffer;
    attached()->size = (size_t)size;
    return MPI_SUCCESS;
}

static int none_used(void)
{
    lock();
    int none = attached()->used == NULL;
    unlock();
    return none;
}

static int all_delivered(void *arg)
{
    (void)arg;
    if (none_used())
        return 1;
    shmpi_p2p_progress();
    return none_used();
}

/* Wait until every buffered message has left the buffer. */
void shmpi_p2p_bsend_drain(void)
{
    shmpi_core_wait_until(all_delivered, NULL);
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    static const char *fn = "MPI_Buffer_detach";
    SHMPI_REQUIRE_INIT(fn);
    if (!buffer_addr || !size)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "buffer_addr or size is NULL");
    shmpi_p2p_bsend_drain();
    lock();
    *(void **)buffer_addr = attached()->base; /* NULL if none was attached */
    *size = (int)attached()->size;
    attached()->is_attached = 0;
    attached()->base = NULL;
    attached()->size = 0;
    unlock();
    return MPI_SUCCESS;
}
