/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpsc.h - a multi-producer, single-consumer queue of records in shared
 * memory: every rank's mailbox, through which any rank that has no hot
 * ring to it (pt2pt/conn.c) sends it records.
 *
 * Why one queue per receiver: per-pair rings cost np^2 memory and make a
 * receiver poll every peer that ever wrote to it; one mailbox per rank
 * costs a few cache lines, and the receiver's "anything for me?" is one
 * load however many ranks there are.  The price is an atomic exchange
 * per record on the producers' side and a line that several producers
 * write; pairs that talk a lot move to a ring (pt2pt/conn.c).
 *
 * The queue is intrusive: a record (queues/outbox.h) starts with a
 * struct shmpi_mpsc_node, and a queue links records by their *offsets*
 * (the same in every process: offsets in the arena's file), which each
 * process resolves from its own `base` (where offset 0 would be mapped:
 * the queue's records all lie in one range that the process maps in
 * one piece, pt2pt/conn.c; 0 is "none", which no node has: the arena's
 * header lies there).  The stub lives with the queue, not in that range
 * (it is in the arena's fixed part, which may be mapped apart from the
 * records), so it is named by SHMPI_MPSC_STUB, not by an offset: every
 * process agrees on the name wherever it maps either.  The algorithm is Vyukov's
 * intrusive MPSC queue with a stub node; mpsc.c argues its memory
 * ordering.  Several threads of one rank may push at once: a push is
 * already safe against any other push.
 *
 * In shared memory (struct shmpi_mpsc, SHMPI_MPSC_BYTES):
 *   line 0  `last`: the node pushed last (0: the stub, as zeroed memory
 *           has it); every producer exchanges it
 *   line 1  the stub node: its `next` is what an idle consumer polls,
 *           written by a producer only when it pushes onto an empty queue
 * The consumer's position (`first`) is private (struct shmpi_mpsc_rx).
 */
#ifndef SHMPI_MPSC_H
#define SHMPI_MPSC_H

#include <stdatomic.h>
#include <stdint.h>

#include "shm_arena/arena.h"

/* The stub's name where an offset would stand (a `next`, `last`, the
   consumer's `first`): odd, and no node lies at an odd offset (records
   are on cache lines).  `last` 0 also means the stub: zeroed memory. */
#define SHMPI_MPSC_STUB 1u

struct shmpi_mpsc_node {
    _Atomic uint64_t next;     /* offset of the node pushed after this one,
                                  0 until its producer links it */
};

struct shmpi_mpsc {
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t last;
    _Alignas(SHMPI_CACHELINE) struct shmpi_mpsc_node stub;
};
_Static_assert(sizeof(struct shmpi_mpsc) == 2 * SHMPI_CACHELINE,
               "last, stub: a cache line each");

/* The consumer's side, private to the queue's owner. */
struct shmpi_mpsc_rx {
    unsigned char *base;       /* what offsets count from */
    struct shmpi_mpsc *q;
    uint64_t first;            /* offset of the oldest node still queued
                                  (SHMPI_MPSC_STUB when all were taken) */
};

/* The node named off: the queue's stub, or the one at base + off. */
static inline struct shmpi_mpsc_node *
shmpi_mpsc_node_at(unsigned char *base, struct shmpi_mpsc *q, uint64_t off)
{
    return off == SHMPI_MPSC_STUB ? &q->stub
                                  : (struct shmpi_mpsc_node *)(base + off);
}

/* Zeroed shared memory is an empty queue (`last` 0 stands for the stub),
   so a producer may push before the owner ran MPI_Init: nobody
   initializes the shared part.  The owner sets up its side once; base
   may be NULL then and set later (rx->base), as long as nothing is
   popped before (the stub alone needs no base). */
void shmpi_mpsc_rx_init(struct shmpi_mpsc_rx *rx, unsigned char *base,
                        struct shmpi_mpsc *q);

/* Producer: push the node at offset node (its record written).  In two
   steps, which push does one after the other: the exchange makes the
   node the last one, the link makes it reachable from the one before.
   Between them the consumer sees the queue end before this node (and
   before everything pushed after it): pop says "nothing now". */
void shmpi_mpsc_push(unsigned char *base, struct shmpi_mpsc *q, uint64_t node);
uint64_t shmpi_mpsc_exchange(unsigned char *base, struct shmpi_mpsc *q,
                             uint64_t node);
void shmpi_mpsc_link(unsigned char *base, struct shmpi_mpsc *q,
                     uint64_t prev, uint64_t node);

/* Consumer: the offset of the oldest node, taken off the queue, or 0 when
   there is none now (empty, or its producer is between exchange and
   link: never waits for it). */
uint64_t shmpi_mpsc_pop(struct shmpi_mpsc_rx *rx);

/* Consumer: whether pop may find something: one load of the line a
   producer writes when it pushes onto the empty queue (flat in the
   number of producers).  0 is certain only for this instant. */
static inline int shmpi_mpsc_maybe_nonempty(const struct shmpi_mpsc_rx *rx)
{
    return rx->first != SHMPI_MPSC_STUB ||
           atomic_load_explicit(&rx->q->stub.next, memory_order_relaxed) != 0;
}

#endif
