/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * match.c - where a message meets its receive.
 *
 * Receives posted before their message wait in one FIFO (`posted`);
 * messages that arrived before their receive wait in one FIFO per source
 * (`unexpected`).  An arriving message takes the first posted receive it
 * matches; a new receive takes the first message it matches from its
 * source - or, for MPI_ANY_SOURCE, from the sources in turn, so that no
 * sender is starved.  Scans go in order, which with the rings' FIFO order
 * gives MPI's non-overtaking rule (3.5).  A receive claims a cancellable
 * message (claim.h) as it takes it.  Sources are world ranks; -1 stands
 * for MPI_ANY_SOURCE.
 */
#include <stdlib.h>

#include "core/proc.h"
#include "pt2pt/claim.h"
#include "pt2pt/pt2pt.h"

int shmpi_p2p_queue_remove(struct shmpi_req_queue *q, struct shmpi_request *r)
{
    struct shmpi_request *prev = NULL;
    for (struct shmpi_request *x = q->head; x; prev = x, x = x->next)
        if (x == r) {
            shmpi_p2p_queue_unlink(q, prev, r);
            return 1;
        }
    return 0;
}

struct shmpi_request *shmpi_p2p_find_posted_after(struct shmpi_request *after,
                                                  uint32_t context, int source,
                                                  int tag,
                                                  struct shmpi_request **prev)
{
    *prev = after;
    for (struct shmpi_request *r = after->next; r; *prev = r, r = r->next)
        if (shmpi_envelope_matches(context, source, tag, r->context,
                                   r->peer, r->tag))
            return r;
    return NULL;
}

/* The unexpected queues' length and peak (count.h): a read-modify-
   write under MULTIPLE, where lanes push in parallel; a load and a
   store below it, where one thread at a time pushes (relaxed: MPI_T
   reads the numbers, nothing through them). */
static inline __attribute__((always_inline)) uint64_t
unexpected_add(_Atomic uint64_t *len, uint64_t d)
{
    if (__builtin_expect(shmpi_proc.mt, 0))
        return atomic_fetch_add_explicit(len, d, memory_order_relaxed) + d;
    uint64_t n = atomic_load_explicit(len, memory_order_relaxed) + d;
    atomic_store_explicit(len, n, memory_order_relaxed);
    return n;
}

static __attribute__((noinline, cold)) void
unexpected_peak(_Atomic uint64_t *peak, uint64_t n)
{
    uint64_t old = atomic_load_explicit(peak, memory_order_relaxed);
    while (n > old && !atomic_compare_exchange_weak_explicit(
                          peak, &old, n, memory_order_relaxed,
                          memory_order_relaxed))
        ;
}

static inline __attribute__((always_inline)) void
unlink_unexpected(struct shmpi_unexp_queue *q, struct shmpi_unexpected *prev,
                  struct shmpi_unexpected *u)
{
    unexpected_add(&shmpi_proc.pt2pt->unexp_len, (uint64_t)-1);
    if (prev)
        prev->next = u->next;
    else
        q->head = u->next;
    if (q->tail == u)
        q->tail = prev;
}

/* The first match in one source's FIFO, dropping cancelled messages. */
static struct shmpi_unexpected *scan(struct shmpi_unexp_queue *q,
                                     uint32_t context, int tag, int take)
{
    struct shmpi_unexpected *prev = NULL, *u = q->head;
    while (u) {
        /* q holds one source's messages only: no source to compare */
        if (!shmpi_envelope_matches(u->context, u->source, u->tag, context,
                                    MPI_ANY_SOURCE, tag)) {
            prev = u;
            u = u->next;
            continue;
        }
        int ours = take ? shmpi_p2p_claim_match(u->source, u->claim)
                        : !shmpi_p2p_claim_free_if_cancelled(u->source,
                                                             u->claim);
        if (ours) {
            if (take)
                unlink_unexpected(q, prev, u);
            return u;
        }
        struct shmpi_unexpected *next = u->next; /* cancelled: drop it */
        unlink_unexpected(q, prev, u);
        free(u->sig); /* NULL outside check mode */
        shmpi_p2p_unexpected_free(u);
        u = next;
    }
    return NULL;
}

struct shmpi_unexpected *shmpi_p2p_find_unexpected(struct shmpi_lane *l,
                                                   uint32_t context, int source,
                                                   int tag, int take)
{
    if (source >= 0)
        return scan(&l->unexpected[source], context, tag, take);
    int n = shmpi_proc.size;
    for (int i = 0; i < n; i++) {
        int s = (l->next_unexpected + i) % n;
        struct shmpi_unexpected *u = scan(&l->unexpected[s], context, tag,
                                          take);
        if (u) {
            if (take)
                l->next_unexpected = (s + 1) % n;
            return u;
        }
    }
    return NULL;
}

/* Take u off its queue; 0 if it was not there. */
int shmpi_p2p_unexpected_remove(struct shmpi_lane *l,
                                struct shmpi_unexpected *u)
{
    struct shmpi_unexp_queue *q = &l->unexpected[u->source];
    struct shmpi_unexpected *prev = NULL;
    for (struct shmpi_unexpected *v = q->head; v; prev = v, v = v->next)
        if (v == u) {
            unlink_unexpected(q, prev, u);
            return 1;
        }
    return 0;
}

/* MPI_T's event of u's arrival (tool/event.c calls its callbacks now). */
static __attribute__((noinline, cold)) void
raise_unexpected(const struct shmpi_unexpected *u)
{
    struct shmpi_core_event_msg e = {.bytes = u->nbytes, .source = u->source,
                                     .tag = u->tag, .context = u->context};
    shmpi_core_event(SHMPI_EVENT_UNEXPECTED, &e);
}

void shmpi_p2p_unexpected_push(struct shmpi_lane *l,
                               struct shmpi_unexpected *u)
{
    struct shmpi_unexp_queue *q = &l->unexpected[u->source];
    struct shmpi_pt2pt *pt = shmpi_proc.pt2pt;
    if (shmpi_core_watching(SHMPI_WATCH_EVENT(SHMPI_EVENT_UNEXPECTED)))
        raise_unexpected(u);
    uint64_t n = unexpected_add(&pt->unexp_len, 1);
    if (__builtin_expect(n > atomic_load_explicit(&pt->unexp_peak,
                                                  memory_order_relaxed), 0))
        unexpected_peak(&pt->unexp_peak, n);
    u->next = NULL;
    if (q->tail)
        q->tail->next = u;
    else
        q->head = u;
    q->tail = u;
}
