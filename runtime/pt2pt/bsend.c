/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bsend.c - buffered mode: MPI_Buffer_attach, MPI_Buffer_detach,
 * MPI_Bsend, MPI_Ibsend (MPI-3.1 3.6); MPI-4.1's buffer of a
 * communicator (MPI_Comm_attach_buffer, _detach_buffer, _flush_buffer,
 * _iflush_buffer), MPI_Buffer_flush, MPI_Buffer_iflush and
 * MPI_BUFFER_AUTOMATIC (MPI-4.1 3.6); the buffer of a session
 * (MPI_Session_attach_buffer, _detach_buffer, _flush_buffer,
 * _iflush_buffer, MPI-4.1 3.6).
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
 * Which buffer (MPI-4.1 3.6.1): the communicator's if one is attached
 * to it, else its session's if it derives from a session (comm->session:
 * made from a group of MPI_Group_from_session_pset, or from such a
 * communicator) and one is attached to that, else the process's.  Attached as MPI_BUFFER_AUTOMATIC, a
 * buffer has no memory of its own: each message's copy is malloc'd,
 * and freed when delivered.  A flush waits until a buffer's messages
 * are delivered, as a detach does, but leaves it attached; the
 * nonblocking flush is a request (kind SHMPI_REQ_FLUSH) whose poll
 * asks the same.
 *
 * State: the process's buffer is shmpi_proc.pt2pt->bsend (pt2pt.h), a
 * communicator's is its bsend (core/objects.h), allocated when first
 * attached and freed with the communicator (shmpi_p2p_comm_buffer_free),
 * a session's the same, freed by MPI_Session_finalize;
 * a message's block knows its buffer.
 *
 * Threads: the buffers are the rank's, the copies are sent in the lanes
 * of their communicators, and the progress engine gives a block back
 * under the lane of its copy.  So one lock of the rank (the process
 * buffer's, `lock` below) guards every buffer and block and the
 * communicators' bsend pointers; it is taken inside lanes (give_back)
 * and never held while a lane is taken or progress runs: a full buffer
 * is progressed with it left, a copy's send starts with it left.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/error.h"
#include "core/lock.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/wait.h"
#include "datatypes/datatype.h"
#include "pt2pt/bufcheck.h"
#include "pt2pt/check.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/sigcheck.h"
#include "pt2pt/start.h"

SHMPI_WEAK_ALIAS(Buffer_attach)
SHMPI_WEAK_ALIAS(Buffer_attach_c)
SHMPI_WEAK_ALIAS(Buffer_detach)
SHMPI_WEAK_ALIAS(Buffer_detach_c)
SHMPI_WEAK_ALIAS(Bsend)
SHMPI_WEAK_ALIAS(Bsend_c)
SHMPI_WEAK_ALIAS(Ibsend)
SHMPI_WEAK_ALIAS(Ibsend_c)

SHMPI_WEAK_ALIAS(Buffer_flush)
SHMPI_WEAK_ALIAS(Buffer_iflush)
SHMPI_WEAK_ALIAS(Comm_attach_buffer)
SHMPI_WEAK_ALIAS(Comm_attach_buffer_c)
SHMPI_WEAK_ALIAS(Comm_detach_buffer)
SHMPI_WEAK_ALIAS(Comm_detach_buffer_c)
SHMPI_WEAK_ALIAS(Comm_flush_buffer)
SHMPI_WEAK_ALIAS(Comm_iflush_buffer)
SHMPI_WEAK_ALIAS(Session_attach_buffer)
SHMPI_WEAK_ALIAS(Session_attach_buffer_c)
SHMPI_WEAK_ALIAS(Session_detach_buffer)
SHMPI_WEAK_ALIAS(Session_detach_buffer_c)
SHMPI_WEAK_ALIAS(Session_flush_buffer)
SHMPI_WEAK_ALIAS(Session_iflush_buffer)

struct shmpi_bsend_block {
    size_t offset, bytes;
    unsigned char *data;            /* in the buffer, or malloc'd
                                       (MPI_BUFFER_AUTOMATIC) */
    struct shmpi_bsend_buffer *buffer;
    struct shmpi_bsend_block *next; /* sorted by offset */
};

static struct shmpi_bsend_buffer *process_buffer(void)
{
    return &shmpi_proc.pt2pt->bsend;
}

static int automatic(const struct shmpi_bsend_buffer *bb)
{
    return bb->base == (unsigned char *)MPI_BUFFER_AUTOMATIC;
}

/* The buffer a buffered send on comm uses (MPI-4.1 3.6.1), under the
   lock below. */
static struct shmpi_bsend_buffer *buffer_of(MPI_Comm comm)
{
    struct shmpi_bsend_buffer *bb = comm->bsend;
    if (bb && bb->is_attached)
        return bb;
    bb = comm->session ? comm->session->bsend : NULL;
    return bb && bb->is_attached ? bb : process_buffer();
}

static void lock(void)
{
    shmpi_core_lock(&process_buffer()->lock);
}

static void unlock(void)
{
    shmpi_core_unlock(&process_buffer()->lock);
}

/* First fit: the offset of a free run of `bytes`, or (size_t)-1.  An
   automatic buffer's blocks all have offset 0 and bytes 0: the new one
   goes first. */
static size_t find_space(struct shmpi_bsend_buffer *bb, size_t bytes,
                         struct shmpi_bsend_block ***link)
{
    size_t at = 0;
    struct shmpi_bsend_block **pp = &bb->used;
    if (automatic(bb)) {
        *link = pp;
        return 0;
    }
    for (; *pp; pp = &(*pp)->next) {
        if ((*pp)->offset - at >= bytes)
            break;
        at = (*pp)->offset + (*pp)->bytes;
    }
    *link = pp;
    return bb->size - at >= bytes && (*pp == NULL ||
                                      (*pp)->offset - at >= bytes)
               ? at : (size_t)-1;
}

/* The buffer as a failed send reports it, seen under the lock. */
struct space_seen {
    int is_attached, automatic;
    size_t size;
};

/* A block of `bytes` in comm's buffer, or NULL (no room, no buffer, no
   memory); takes the lock. */
static struct shmpi_bsend_block *try_space(MPI_Comm comm, size_t bytes,
                                           struct space_seen *seen)
{
    struct shmpi_bsend_block **link;
    struct shmpi_bsend_block *b = NULL;
    lock();
    struct shmpi_bsend_buffer *bb = buffer_of(comm);
    *seen = (struct space_seen){bb->is_attached, automatic(bb), bb->size};
    size_t at = bb->is_attached ? find_space(bb, bytes, &link) : (size_t)-1;
    if (at != (size_t)-1 && (b = malloc(sizeof *b))) {
        *b = (struct shmpi_bsend_block){at, bytes, bb->base + at, bb, *link};
        if (automatic(bb)) {
            b->offset = b->bytes = 0;
            if (!(b->data = malloc(bytes))) {
                free(b);
                b = NULL;
            }
        }
        if (b)
            *link = b;
    }
    unlock();
    return b;
}

static struct shmpi_bsend_block *take_space(MPI_Comm comm, size_t bytes,
                                            struct space_seen *seen)
{
    struct shmpi_bsend_block *b = try_space(comm, bytes, seen);
    if (!b && seen->is_attached && !seen->automatic) {
        shmpi_p2p_progress(); /* delivered copies give space back */
        b = try_space(comm, bytes, seen);
    }
    return b;
}

static void give_back(struct shmpi_bsend_block *b)
{
    lock();
    for (struct shmpi_bsend_block **pp = &b->buffer->used; *pp;
         pp = &(*pp)->next)
        if (*pp == b) {
            *pp = b->next;
            if (automatic(b->buffer))
                free(b->data);
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
    struct shmpi_bsend_block *b = take_space(r->comm, need, &seen);
    if (!b && seen.is_attached && seen.automatic)
        return shmpi_raise(r->comm, MPI_ERR_NO_MEM, fn,
                           "no memory for a %zu-byte buffered copy", need);
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
    unsigned char *data = b->data;
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
    /* signed from the program's arguments: the copy's are bytes */
    if (shmpi_core_checking())
        shmpi_p2p_sig_sign(copy, r, fn);
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

static int bsend_common(const char *fn, const void *buf, MPI_Count count,
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

static int bsend_call(const char *fn, const void *buf, MPI_Count count,
                      MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_request r = SHMPI_STACK_REQUEST(SHMPI_REQ_SEND);
    return bsend_common(fn, buf, count, dt, dest, tag, comm, &r);
}

int PMPI_Bsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
               MPI_Comm comm)
{
    return bsend_call("MPI_Bsend", buf, count, dt, dest, tag, comm);
}

int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm)
{
    return bsend_call("MPI_Bsend_c", buf, count, dt, dest, tag, comm);
}

static int ibsend_call(const char *fn, const void *buf, MPI_Count count,
                       MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                       MPI_Request *req)
{
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
    /* after the copy was made of r (bsend_start): the copy is the
       library's and carries no check */
    if (shmpi_core_checking())
        shmpi_p2p_bufcheck_started(r, r, fn);
    *req = r;
    return MPI_SUCCESS;
}

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
                MPI_Comm comm, MPI_Request *req)
{
    return ibsend_call("MPI_Ibsend", buf, count, dt, dest, tag, comm, req);
}

int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                  int tag, MPI_Comm comm, MPI_Request *req)
{
    return ibsend_call("MPI_Ibsend_c", buf, count, dt, dest, tag, comm, req);
}

/* Errors of a call on a session go to its handler, the others to
   who's. */
#define RAISE_ON(who, session, code, fn, ...)                             \
    ((session) ? shmpi_raise_session((session), (code), (fn), __VA_ARGS__) \
               : shmpi_raise((who), (code), (fn), __VA_ARGS__))

/* Attach (buffer, size) as bb; errors on who, or on session if it is
   not NULL.  Taken and set under the lock, raised with it left (an
   error handler may call MPI). */
static int attach(const char *fn, MPI_Comm who, MPI_Session session,
                  struct shmpi_bsend_buffer *bb, void *buffer,
                  MPI_Count size)
{
    if (buffer == MPI_BUFFER_AUTOMATIC) /* its size is not used (3.6) */
        size = 0;
    lock();
    int was = bb->is_attached;
    int ok = !was && size >= 0 && (buffer || size == 0);
    if (ok) {
        bb->is_attached = 1;
        bb->base = buffer;
        bb->size = (size_t)size;
    }
    unlock();
    if (was)
        return RAISE_ON(who, session, MPI_ERR_BUFFER, fn,
                        "a buffer is already attached (detach it first)");
    if (size < 0)
        return RAISE_ON(who, session, MPI_ERR_ARG, fn,
                        "size %lld is negative", (long long)size);
    if (!ok)
        return RAISE_ON(who, session, MPI_ERR_BUFFER, fn, "buffer is NULL");
    return MPI_SUCCESS;
}

static int buffer_attach(const char *fn, void *buffer, MPI_Count size)
{
    SHMPI_REQUIRE_INIT(fn);
    return attach(fn, MPI_COMM_WORLD, NULL, process_buffer(), buffer, size);
}

int PMPI_Buffer_attach(void *buffer, int size)
{
    return buffer_attach("MPI_Buffer_attach", buffer, size);
}

int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    return buffer_attach("MPI_Buffer_attach_c", buffer, size);
}

static int none_used(struct shmpi_bsend_buffer *bb)
{
    lock();
    int none = bb->used == NULL;
    unlock();
    return none;
}

static int all_delivered(void *arg)
{
    if (none_used(arg))
        return 1;
    shmpi_p2p_progress();
    return none_used(arg);
}

/* Wait until every message buffered in bb has been delivered. */
static void drain(struct shmpi_bsend_buffer *bb)
{
    shmpi_core_wait_until(all_delivered, bb);
}

/* MPI_Finalize: the process's buffer, and those of the communicators
   the program cannot free (a buffered copy holds its communicator, so
   any other one lives until its copies are delivered). */
void shmpi_p2p_bsend_drain(void)
{
    drain(process_buffer());
    MPI_Comm keep[] = {MPI_COMM_WORLD, MPI_COMM_SELF};
    for (int i = 0; i < 2; i++)
        if (keep[i]->bsend)
            drain(keep[i]->bsend);
}

/* Detach bb once its messages are delivered (3.6: the detach blocks). */
static void detach(struct shmpi_bsend_buffer *bb, void *buffer_addr,
                   MPI_Count *size)
{
    drain(bb);
    lock();
    /* NULL if none was attached; MPI_BUFFER_AUTOMATIC, size 0, if so */
    *(void **)buffer_addr = bb->base;
    *size = (MPI_Count)bb->size;
    bb->is_attached = 0;
    bb->base = NULL;
    bb->size = 0;
    unlock();
}

/* The size an int form of a detach returns: MPI_UNDEFINED for a buffer
   attached by a large-count form that an int cannot hold (MPI-4.0 3.6). */
static int int_size(MPI_Count size)
{
    return size > INT_MAX ? MPI_UNDEFINED : (int)size;
}

static int check_detach(const char *fn, MPI_Comm comm,
                        const void *buffer_addr, const void *size)
{
    if (!buffer_addr || !size)
        return shmpi_raise(comm, MPI_ERR_ARG, fn,
                           "buffer_addr or size is NULL");
    return MPI_SUCCESS;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    static const char *fn = "MPI_Buffer_detach";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_detach(fn, MPI_COMM_WORLD, buffer_addr, size);
    if (rc == MPI_SUCCESS) {
        MPI_Count n;
        detach(process_buffer(), buffer_addr, &n);
        *size = int_size(n);
    }
    return rc;
}

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    static const char *fn = "MPI_Buffer_detach_c";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_detach(fn, MPI_COMM_WORLD, buffer_addr, size);
    if (rc == MPI_SUCCESS)
        detach(process_buffer(), buffer_addr, size);
    return rc;
}

/* The buffer of a communicator or session (*slot), made when first
   attached; NULL when out of memory. */
static struct shmpi_bsend_buffer *
own_buffer(struct shmpi_bsend_buffer **slot)
{
    lock();
    if (!*slot)
        *slot = calloc(1, sizeof **slot);
    struct shmpi_bsend_buffer *bb = *slot;
    unlock();
    return bb;
}

/* The buffer of a communicator or session, or NULL if none was ever
   attached: read under the lock, which own_buffer holds while it makes
   one. */
static struct shmpi_bsend_buffer *
attached_in(struct shmpi_bsend_buffer **slot)
{
    lock();
    struct shmpi_bsend_buffer *bb = *slot;
    unlock();
    return bb;
}

static struct shmpi_bsend_buffer *attached_buffer(MPI_Comm comm)
{
    return attached_in(&comm->bsend);
}

static int comm_attach_buffer(const char *fn, MPI_Comm comm, void *buffer,
                              MPI_Count size)
{
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_COMM, fn,
                           "not a valid communicator");
    struct shmpi_bsend_buffer *bb = own_buffer(&comm->bsend);
    int rc = bb ? attach(fn, comm, NULL, bb, buffer, size)
                : shmpi_raise(comm, MPI_ERR_NO_MEM, fn, "no memory");
    return rc;
}

int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    return comm_attach_buffer("MPI_Comm_attach_buffer", comm, buffer, size);
}

int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    return comm_attach_buffer("MPI_Comm_attach_buffer_c", comm, buffer, size);
}

/* The checks of a communicator's detach. */
static int check_comm_detach(const char *fn, MPI_Comm comm,
                             const void *buffer_addr, const void *size)
{
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_COMM, fn,
                           "not a valid communicator");
    return check_detach(fn, comm, buffer_addr, size);
}

static void comm_detach(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    struct shmpi_bsend_buffer *bb = attached_buffer(comm);
    if (!bb) { /* never attached: as MPI_Buffer_detach without one */
        *(void **)buffer_addr = NULL;
        *size = 0;
        return;
    }
    detach(bb, buffer_addr, size);
}

int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    static const char *fn = "MPI_Comm_detach_buffer";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_comm_detach(fn, comm, buffer_addr, size);
    if (rc == MPI_SUCCESS) {
        MPI_Count n;
        comm_detach(comm, buffer_addr, &n);
        *size = int_size(n);
    }
    return rc;
}

int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr,
                              MPI_Count *size)
{
    static const char *fn = "MPI_Comm_detach_buffer_c";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_comm_detach(fn, comm, buffer_addr, size);
    if (rc == MPI_SUCCESS)
        comm_detach(comm, buffer_addr, size);
    return rc;
}

/* comm's last release (comm/comm_create.c): its copies, which held it,
   are delivered. */
void shmpi_p2p_comm_buffer_free(MPI_Comm comm)
{
    free(comm->bsend);
    comm->bsend = NULL;
}

int PMPI_Buffer_flush(void)
{
    SHMPI_REQUIRE_INIT("MPI_Buffer_flush");
    drain(process_buffer());
    return MPI_SUCCESS;
}

int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    static const char *fn = "MPI_Comm_flush_buffer";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_COMM, fn,
                           "not a valid communicator");
    struct shmpi_bsend_buffer *bb = attached_buffer(comm);
    if (bb)
        drain(bb);
    return MPI_SUCCESS;
}

/* The nonblocking flush: complete once its buffer holds no message. */
static int flush_poll(struct shmpi_request *r)
{
    struct shmpi_bsend_buffer *bb = r->owner;
    if (bb && !none_used(bb))
        return 0;
    shmpi_request_set_complete(r);
    return 1;
}

/* freed before it completed: nothing else refers to it */
const struct shmpi_req_ops shmpi_p2p_flush_ops = {
    .poll = flush_poll,
    .free = shmpi_p2p_request_release,
};

static int iflush(const char *fn, MPI_Comm comm,
                  struct shmpi_bsend_buffer *bb, MPI_Request *req)
{
    if (!req)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
    struct shmpi_request *r = shmpi_p2p_request_new(SHMPI_REQ_FLUSH);
    if (!r)
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn, "no memory");
    /* its communicator, held: a communicator's buffer lives as long */
    shmpi_p2p_request_fill(r, NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, comm);
    r->owner = bb;
    *req = r;
    return MPI_SUCCESS;
}

int PMPI_Buffer_iflush(MPI_Request *req)
{
    static const char *fn = "MPI_Buffer_iflush";
    SHMPI_REQUIRE_INIT(fn);
    return iflush(fn, MPI_COMM_WORLD, process_buffer(), req);
}

int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *req)
{
    static const char *fn = "MPI_Comm_iflush_buffer";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_COMM, fn,
                           "not a valid communicator");
    struct shmpi_bsend_buffer *bb = attached_buffer(comm);
    return iflush(fn, comm, bb, req);
}

/* ------------------------------------------------------------------ */
/* A session's buffer (MPI-4.1 3.6)                                    */
/* ------------------------------------------------------------------ */

#define SESSION_ENTRY(s, fn)                                              \
    do {                                                                  \
        SHMPI_REQUIRE_INIT(fn);                                           \
        if (!shmpi_session_ok(s))                                         \
            return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_SESSION, fn,       \
                               "not a valid session");                    \
    } while (0)

static int session_attach_buffer(const char *fn, MPI_Session session,
                                 void *buffer, MPI_Count size)
{
    SESSION_ENTRY(session, fn);
    struct shmpi_bsend_buffer *bb = own_buffer(&session->bsend);
    return bb ? attach(fn, MPI_COMM_WORLD, session, bb, buffer, size)
              : shmpi_raise_session(session, MPI_ERR_NO_MEM, fn,
                                    "no memory");
}

int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    return session_attach_buffer("MPI_Session_attach_buffer", session,
                                 buffer, size);
}

int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer,
                                 MPI_Count size)
{
    return session_attach_buffer("MPI_Session_attach_buffer_c", session,
                                 buffer, size);
}

/* The detach of a session's buffer; *size as MPI_Count. */
static int session_detach(const char *fn, MPI_Session session,
                          void *buffer_addr, const void *size_addr,
                          MPI_Count *size)
{
    SESSION_ENTRY(session, fn);
    if (!buffer_addr || !size_addr)
        return shmpi_raise_session(session, MPI_ERR_ARG, fn,
                                   "buffer_addr or size is NULL");
    struct shmpi_bsend_buffer *bb = attached_in(&session->bsend);
    if (!bb) { /* never attached: as MPI_Buffer_detach without one */
        *(void **)buffer_addr = NULL;
        *size = 0;
        return MPI_SUCCESS;
    }
    detach(bb, buffer_addr, size);
    return MPI_SUCCESS;
}

int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr,
                               int *size)
{
    MPI_Count n;
    int rc = session_detach("MPI_Session_detach_buffer", session,
                            buffer_addr, size, &n);
    if (rc == MPI_SUCCESS)
        *size = int_size(n);
    return rc;
}

int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr,
                                 MPI_Count *size)
{
    MPI_Count n;
    int rc = session_detach("MPI_Session_detach_buffer_c", session,
                            buffer_addr, size, &n);
    if (rc == MPI_SUCCESS)
        *size = n;
    return rc;
}

int PMPI_Session_flush_buffer(MPI_Session session)
{
    static const char *fn = "MPI_Session_flush_buffer";
    SESSION_ENTRY(session, fn);
    struct shmpi_bsend_buffer *bb = attached_in(&session->bsend);
    if (bb)
        drain(bb);
    return MPI_SUCCESS;
}

int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *req)
{
    static const char *fn = "MPI_Session_iflush_buffer";
    SESSION_ENTRY(session, fn);
    if (!req)
        return shmpi_raise_session(session, MPI_ERR_ARG, fn,
                                   "request pointer is NULL");
    /* the request's communicator: self, which outlives the session */
    return iflush(fn, MPI_COMM_SELF, attached_in(&session->bsend), req);
}

/* MPI_Session_finalize: the program freed the session's communicators
   (11.3.1), so no new message comes into the buffer. */
void shmpi_p2p_session_buffer_free(MPI_Session session)
{
    if (!session->bsend)
        return;
    drain(session->bsend);
    free(session->bsend);
    session->bsend = NULL;
}
