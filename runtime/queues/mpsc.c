/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpsc.c - the multi-producer, single-consumer mailbox (see mpsc.h):
 * Vyukov's intrusive MPSC queue with a stub node, by offsets.
 *
 * The queue is a singly linked list from the consumer's `first` to the
 * shared `last`.  Push: the producer sets its node's next to 0, exchanges
 * `last` with its node (so the producers are ordered by that exchange:
 * this is the one atomic read-modify-write of a push), then stores its
 * node's offset into the next of the node it got back (the link).  Pop:
 * the consumer takes `first` when `first`'s next is set, and moves on to
 * it; the last node of the list can be taken only once another follows
 * it, so the consumer pushes the stub behind it, which makes the queue
 * never empty of nodes and a node, once taken, referenced by nobody
 * (its owner may reuse its memory: queues/outbox.c).
 *
 * Memory ordering:
 *   1. A producer writes its record with plain stores, then the link with
 *      RELEASE.  The consumer loads next with ACQUIRE before it reads the
 *      node it names: the record is visible.
 *   2. The exchange on `last` is ACQ_REL: a producer that gets node N
 *      back stores into N's next after N's producer stored 0 there
 *      (that producer's release, this one's acquire), so the 0 cannot
 *      land after the link and erase it.  The consumer pushing the stub
 *      is a producer like the others.
 *   3. Between a producer's exchange and its link the list is cut: the
 *      consumer finds `first`'s next still 0 while `last` is no longer
 *      `first`.  Pop then returns 0 ("nothing now") and progress moves on;
 *      it never waits for the link (the producer may be descheduled for
 *      a whole time slice, or be one of several ranks per CPU).
 *   4. A taken node is not written again by the queue: pop returns a node
 *      only once its next is set, so no producer has it as `last` any
 *      more (it was replaced by the exchange of the one that linked it).
 * Cache lines: `last` has its own, written by every push; the stub has
 * its own, written only by a push onto an empty queue, so an idle
 * consumer polls a line nobody writes until there is something for it.
 */
#include "queues/mpsc.h"

#include <stddef.h>

void shmpi_mpsc_rx_init(struct shmpi_mpsc_rx *rx, unsigned char *base,
                        struct shmpi_mpsc *q)
{
    *rx = (struct shmpi_mpsc_rx){.base = base, .q = q,
                                 .first = SHMPI_MPSC_STUB};
}

/* The stub goes by its name, SHMPI_MPSC_STUB, in `last` and in every
   next (mpsc.h): what a producer stores and what the consumer loads are
   the same values as with offsets, so the ordering below is unchanged;
   only the resolution of a name to a node (shmpi_mpsc_node_at) looks at
   which it is, a test of a value already loaded. */
uint64_t shmpi_mpsc_exchange(unsigned char *base, struct shmpi_mpsc *q,
                             uint64_t node)
{
    atomic_store_explicit(&shmpi_mpsc_node_at(base, q, node)->next, 0,
                          memory_order_relaxed);
    uint64_t prev = atomic_exchange_explicit(&q->last, node,
                                             memory_order_acq_rel);
    return prev ? prev : SHMPI_MPSC_STUB; /* 0: zeroed memory's stub */
}

void shmpi_mpsc_link(unsigned char *base, struct shmpi_mpsc *q,
                     uint64_t prev, uint64_t node)
{
    atomic_store_explicit(&shmpi_mpsc_node_at(base, q, prev)->next, node,
                          memory_order_release);
}

void shmpi_mpsc_push(unsigned char *base, struct shmpi_mpsc *q, uint64_t node)
{
    shmpi_mpsc_link(base, q, shmpi_mpsc_exchange(base, q, node), node);
}

static uint64_t next_of(const struct shmpi_mpsc_rx *rx, uint64_t off)
{
    return atomic_load_explicit(
        &shmpi_mpsc_node_at(rx->base, rx->q, off)->next,
        memory_order_acquire);
}

uint64_t shmpi_mpsc_pop(struct shmpi_mpsc_rx *rx)
{
    uint64_t first = rx->first, next = next_of(rx, first);
    if (first == SHMPI_MPSC_STUB) { /* step over the stub */
        if (!next)
            return 0;
        rx->first = first = next;
        next = next_of(rx, first);
    }
    if (next) {
        rx->first = next;
        return first;
    }
    /* first has no next: the last node, or a producer is between its
       exchange and its link (point 3) */
    uint64_t last = atomic_load_explicit(&rx->q->last, memory_order_acquire);
    if ((last ? last : SHMPI_MPSC_STUB) != first)
        return 0;
    shmpi_mpsc_push(rx->base, rx->q, SHMPI_MPSC_STUB);
    next = next_of(rx, first); /* the stub, or a node pushed meanwhile */
    if (!next)
        return 0;
    rx->first = next;
    return first;
}
