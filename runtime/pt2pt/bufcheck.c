/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bufcheck.c - a nonblocking send's buffer, unchanged from its start to
 * its completion (bufcheck.h); check mode only.
 *
 * What a request keeps: the hash (datatypes/hash.c) and the start call
 * in words, formatted at the start, when its arguments are at hand (a
 * send-receive's send part may be gone by its completion); the buffer,
 * count and datatype to hash again, the datatype retained, as a request
 * retains its own (MPI_Type_free may come before the wait).  The record
 * is the request's from the start until the call that ends it, which
 * frees it and sets the pointer NULL again before the request can be
 * released, so that a request is never reused with one.
 */
#include "pt2pt/bufcheck.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/blocked.h"
#include "core/check.h"
#include "core/lock.h"
#include "core/objects.h"
#include "datatypes/datatype.h"
#include "pt2pt/request.h"

struct shmpi_p2p_bufcheck {
    struct shmpi_p2p_bufcheck *prev, *next; /* in `live` */
    const void *buf;
    MPI_Count count;
    MPI_Datatype dt;
    uint64_t hash;
    char call[256];            /* "MPI_Isend(buf=0x..., count=4, ...)" */
    void (*done)(uint64_t, const char *); /* another room's record, in
                                  place of the above (on_end) */
    uint64_t ticket;
};

/* Every record, oldest first, for MPI_Finalize's count of the sends
   never completed or freed (leftovers.c); under `live_lock`, which
   every thread takes (the threads' requests share the list). */
static struct {
    struct shmpi_core_lock lock;
    struct shmpi_p2p_bufcheck *head, *tail;
    long n;
} live;

static void link_live(struct shmpi_p2p_bufcheck *c)
{
    shmpi_core_mutex_lock(&live.lock);
    c->next = NULL;
    c->prev = live.tail;
    *(live.tail ? &live.tail->next : &live.head) = c;
    live.tail = c;
    live.n++;
    shmpi_core_mutex_unlock(&live.lock);
}

static void unlink_live(struct shmpi_p2p_bufcheck *c)
{
    shmpi_core_mutex_lock(&live.lock);
    *(c->prev ? &c->prev->next : &live.head) = c->next;
    *(c->next ? &c->next->prev : &live.tail) = c->prev;
    live.n--;
    shmpi_core_mutex_unlock(&live.lock);
}

long shmpi_p2p_bufcheck_pending(char *first, size_t len)
{
    shmpi_core_mutex_lock(&live.lock);
    long n = live.n;
    if (live.head)
        snprintf(first, len, "%s", live.head->call);
    shmpi_core_mutex_unlock(&live.lock);
    return n;
}

static void describe(char *out, size_t len, const struct shmpi_request *s,
                     const char *fn)
{
    char type[MPI_MAX_OBJECT_NAME + 48], comm[MPI_MAX_OBJECT_NAME + 16];
    shmpi_dt_describe(s->datatype, type, sizeof type);
    shmpi_core_blocked_comm(comm, sizeof comm, s->comm);
    int dest = s->peer < 0 ? s->peer
                           : shmpi_comm_peer_from_world(s->comm, s->peer);
    snprintf(out, len, "%s(buf=%p, count=%lld, %s, dest=%d, tag=%d, %s)", fn,
             s->buf, (long long)s->count, type, dest, s->tag, comm);
}

void shmpi_p2p_bufcheck_started(struct shmpi_request *r,
                                const struct shmpi_request *send,
                                const char *fn)
{
    struct shmpi_p2p_bufcheck *c = malloc(sizeof *c);
    if (!c)
        return; /* unchecked: the check must not fail the program */
    c->done = NULL;
    c->buf = send->buf;
    c->count = send->count;
    c->dt = send->datatype;
    shmpi_dt_retain(c->dt);
    c->hash = shmpi_dt_hash(c->buf, c->count, c->dt);
    describe(c->call, sizeof c->call, send, fn);
    link_live(c);
    r->bufcheck = c;
}

void shmpi_p2p_bufcheck_on_end(struct shmpi_request *r,
                               void (*done)(uint64_t ticket, const char *fn),
                               uint64_t ticket)
{
    struct shmpi_p2p_bufcheck *c = calloc(1, sizeof *c);
    if (!c)
        return; /* unchecked: the check must not fail the program */
    c->done = done;
    c->ticket = ticket;
    r->bufcheck = c;
}

/* The record's end: compared, reported, let go. */
static void verify(struct shmpi_request *r, const char *fn)
{
    struct shmpi_p2p_bufcheck *c = r->bufcheck;
    r->bufcheck = NULL;
    if (c->done) {
        c->done(c->ticket, fn);
        free(c);
        return;
    }
    if (shmpi_dt_hash(c->buf, c->count, c->dt) != c->hash)
        shmpi_core_check_report(
            "send buffer modified before the send completed", "3.7.2",
            "do not write the buffer until MPI_Wait/MPI_Test says the "
            "request is complete",
            "%s and its completion in %s", c->call, fn);
    shmpi_dt_release(c->dt);
    unlink_live(c);
    free(c);
}

void shmpi_p2p_bufcheck_ended(const char *fn, int count,
                              const MPI_Request reqs[])
{
    for (int i = 0; i < count; i++)
        if (reqs[i] != MPI_REQUEST_NULL && reqs[i]->bufcheck &&
            shmpi_request_is_complete(reqs[i]))
            verify(reqs[i], fn);
}

void shmpi_p2p_bufcheck_freed(struct shmpi_request *r)
{
    if (r->bufcheck)
        verify(r, "MPI_Request_free");
}
