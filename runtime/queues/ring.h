/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ring.h - a single-producer, single-consumer ring of variable-length
 * records in shared memory: the queue that carries every message from one
 * rank to another.
 *
 * Why per-pair SPSC rings: with one producer and one consumer, publishing
 * a record is one release store and receiving it one acquire load - no
 * atomic read-modify-write, no lock - and records are packed 16 bytes
 * apart, so two 8-byte messages with their short envelopes (32 bytes
 * each, pt2pt/proto.h) share the cache line that crosses between the
 * cores: a receiver behind its sender pulls one line per two messages.  A
 * receiver polls only the rings that are connected to it (pt2pt/conn.c),
 * so an idle pair costs nothing.  Turning this into a multi-producer ring
 * for MPI_THREAD_MULTIPLE means serializing the sending threads of one
 * rank per ring, not changing the consumer.
 *
 * In shared memory: `tail` (bytes the consumer has finished with) on its
 * own cache line, written only by the consumer; `sender_waiting` on
 * another, set by a producer that found the ring full; then the data.
 * Each record starts on a 16-byte boundary (SHMPI_REC_ALIGN) with an
 * 8-byte prefix {seq, bytes}.  The data is written by the producer only
 * (the consumer writes `tail`, on its own line), so packing records into
 * a line shares it between records, never between writers.  Producer and
 * consumer keep their positions in private memory.
 *
 * Why 16 and not 64 (records on cache lines) or 32: a record's length is
 * what the consumer pulls across per message.  2026-11-29, perf/pt2pt -t
 * bw, far state: one line crossing took ~214 ns (perf/limits -t
 * cacheline) and a 64-byte record per 1-byte message capped the rate at
 * one message per crossing, where Open MPI, packing several messages
 * per line, streamed one per 167 ns.  16 is the smallest step that keeps
 * the prefix on one line and the body 8-aligned; 32 would round the 33-48 byte
 * record of a 9-24 B message to 64 (a 64 B one's 88 goes to 96 either
 * way), and 16 costs nothing more: the offsets are kept by addition.
 */
#ifndef SHMPI_RING_H
#define SHMPI_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "shm_arena/arena.h"

#define SHMPI_RING_HEADER 128  /* two cache lines before the data */
#define SHMPI_REC_PREFIX 8     /* {seq, bytes} before each record body */
#define SHMPI_REC_ALIGN 16     /* where records start, what lengths round to */

struct shmpi_ring {
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t tail;
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t sender_waiting;
    _Alignas(SHMPI_CACHELINE) unsigned char data[];
};

struct shmpi_rec_prefix {
    _Atomic uint32_t seq;      /* stored last, with release: record valid */
    uint32_t bytes;            /* whole record, prefix included, a
                                  multiple of SHMPI_REC_ALIGN */
};
_Static_assert(offsetof(struct shmpi_ring, sender_waiting) == SHMPI_CACHELINE &&
                   offsetof(struct shmpi_ring, data) == SHMPI_RING_HEADER,
               "tail, sender_waiting: a cache line each, then the data");
_Static_assert(sizeof(struct shmpi_rec_prefix) == SHMPI_REC_PREFIX,
               "the prefix of a record is {seq, bytes}, 8 bytes");
_Static_assert(SHMPI_REC_ALIGN >= SHMPI_REC_PREFIX &&
                   SHMPI_CACHELINE % SHMPI_REC_ALIGN == 0,
               "a prefix never straddles a cache line, and a wrap record "
               "(the rest of the data, a multiple of the alignment) holds "
               "one");

/* Producer side, private to the sending rank. */
struct shmpi_ring_tx {
    struct shmpi_ring *ring;
    uint64_t size;             /* bytes of data, a multiple of 64 */
    uint64_t head;             /* bytes produced so far */
    uint64_t head_at;          /* head % size, kept by addition: a
                                  division costs more than a message's
                                  whole bookkeeping */
    uint64_t tail_seen;        /* last value of ring->tail we read */
    uint32_t seq;              /* of the last record produced */
};

/* Consumer side, private to the receiving rank. */
struct shmpi_ring_rx {
    struct shmpi_ring *ring;
    uint64_t size;
    uint64_t pos;              /* bytes consumed so far */
    uint64_t pos_at;           /* pos % size, kept by addition */
    uint64_t published;        /* last value stored into ring->tail */
    uint32_t seq;              /* of the last record consumed */
};

void shmpi_ring_tx_init(struct shmpi_ring_tx *tx, struct shmpi_ring *ring,
                        uint64_t ring_bytes);
void shmpi_ring_rx_init(struct shmpi_ring_rx *rx, struct shmpi_ring *ring,
                        uint64_t ring_bytes);

/* Largest record body a ring of ring_bytes accepts: its whole record
   (prefix included) takes at most a quarter of the data, which is what
   lets the consumer hand space back a quarter at a time (ring.c). */
uint64_t shmpi_ring_max_body(uint64_t ring_bytes);

/* The same, but only if a record of spare more bytes (and the wrap it
   may need) would still fit after it: for a sender
   that must be able to write one more, last record into a ring it may
   leave (pt2pt/conn.c). */
void *shmpi_ring_reserve_leaving(struct shmpi_ring_tx *tx, size_t len,
                                 size_t spare);
/* The ring was full: ask the consumer to ring our doorbell when it frees
   space (it sets sender_waiting; it does not wait: the caller sleeps);
   returns 1 if space appeared meanwhile (then do not sleep). */
int shmpi_ring_ask_for_space(struct shmpi_ring_tx *tx, size_t len);

/* set in prefix.bytes of a wrap record */
#define SHMPI_REC_WRAP 0x80000000u

/* The prefix at offset off of the data. */
static inline struct shmpi_rec_prefix *
shmpi_ring_prefix_at(struct shmpi_ring *ring, uint64_t off)
{
    return (struct shmpi_rec_prefix *)(ring->data + off);
}

/* off + n, n <= size, back into [0, size): the offsets of the data are
   kept by addition, with no division */
static inline uint64_t shmpi_ring_advance(uint64_t off, uint64_t n,
                                          uint64_t size)
{
    off += n;
    return off >= size ? off - size : off;
}

/* The bytes a record of a body of len bytes takes: the prefix and the
   body, rounded up to SHMPI_REC_ALIGN. */
static inline uint64_t shmpi_ring_rec_bytes(size_t body)
{
    return (SHMPI_REC_PREFIX + body + SHMPI_REC_ALIGN - 1) &
           ~(uint64_t)(SHMPI_REC_ALIGN - 1);
}

/* The producer's stamp of point 1 (ring.c): the seq of the record after
   the one at head, which ends at offset next, gets the number of the
   record before it, which the consumer - expecting the one after it -
   cannot take for a record (the space is free: the reserve checked). */
static inline void shmpi_ring_seal_next(struct shmpi_ring_tx *tx,
                                        uint64_t next)
{
    atomic_store_explicit(&shmpi_ring_prefix_at(tx->ring, next)->seq,
                          tx->seq, memory_order_relaxed);
}

/* Space for a body of len bytes, or NULL if the ring is full now.
   Inline when the record fits before the end of the data and the tail
   last read says there is room for it and the seal - a stream of small
   messages, nearly every time; the rest (a wrap, a fresh look at the
   consumer's tail) is shmpi_ring_reserve_slow.  2026-11-29,
   perf/run-perf pt2pt-count, 1 B: with commit inline too, MPI_Isend
   257 -> 238 instructions per message. */
void *shmpi_ring_reserve_slow(struct shmpi_ring_tx *tx, size_t len);
static inline void *shmpi_ring_reserve(struct shmpi_ring_tx *tx, size_t len)
{
    uint64_t need = shmpi_ring_rec_bytes(len);
    if (tx->head_at + need > tx->size ||
        tx->head + need + SHMPI_REC_PREFIX - tx->tail_seen > tx->size)
        return shmpi_ring_reserve_slow(tx, len);
    struct shmpi_rec_prefix *p = shmpi_ring_prefix_at(tx->ring, tx->head_at);
    p->bytes = (uint32_t)need;
    shmpi_ring_seal_next(tx, shmpi_ring_advance(tx->head_at, need, tx->size));
    return (unsigned char *)p + SHMPI_REC_PREFIX;
}

/* Publish the body returned by the last reserve: point 1 of ring.c, the
   RELEASE store of its seq after the body's plain stores. */
static inline void shmpi_ring_commit(struct shmpi_ring_tx *tx, void *body)
{
    struct shmpi_rec_prefix *p =
        (struct shmpi_rec_prefix *)((unsigned char *)body - SHMPI_REC_PREFIX);
    tx->head += p->bytes;
    tx->head_at = shmpi_ring_advance(tx->head_at, p->bytes, tx->size);
    atomic_store_explicit(&p->seq, ++tx->seq, memory_order_release);
}

/* The next record body, or NULL if none has been published.  Not a
   pure look: wrap records on the way are consumed (they carry no body,
   so peeking again still returns the same record).  Inline, with
   consume: they are the receiver's work per record, 8 instructions of
   each message more as calls (2026-11-29, perf/run-perf pt2pt-count,
   1 B, the receiver's MPI_Waitall).  Ordering (ring.c, point 1): the
   ACQUIRE load of seq, equal to the one expected, makes the body the
   producer wrote before its RELEASE store of it visible; the seal
   stamped there before makes anything else - an older lap's bytes -
   read as "not yet". */
static inline void *shmpi_ring_peek(struct shmpi_ring_rx *rx)
{
    for (;;) {
        struct shmpi_rec_prefix *p =
            shmpi_ring_prefix_at(rx->ring, rx->pos_at);
        if (atomic_load_explicit(&p->seq, memory_order_acquire) !=
            rx->seq + 1)
            return NULL;
        if (!(p->bytes & SHMPI_REC_WRAP))
            return (unsigned char *)p + SHMPI_REC_PREFIX;
        rx->pos += p->bytes & ~SHMPI_REC_WRAP; /* to the start of the data */
        rx->pos_at = 0;
        rx->seq++;
    }
}

/* Done with the body returned by peek: only our private position moves
   (the space goes back with shmpi_ring_publish). */
static inline void shmpi_ring_consume(struct shmpi_ring_rx *rx)
{
    uint32_t bytes = shmpi_ring_prefix_at(rx->ring, rx->pos_at)->bytes;
    rx->pos += bytes;
    rx->pos_at = shmpi_ring_advance(rx->pos_at, bytes, rx->size);
    rx->seq++;
}

/* Hand consumed space back, a quarter of the ring at a time; returns 1
   if the producer waits for it (the caller then rings the producer's
   doorbell).  Lazily: only once a quarter of the ring was consumed
   since the last store.  A producer waits only when it lacks room for
   a record plus a possible wrap plus a prefix, at most half the ring
   and a prefix (shmpi_ring_max_body), so nearly half the ring lies
   between the published tail and its head: consuming that moves us
   past a quarter, and we publish.  The test is inline: it is all a
   receiver does per record most of the time. */
int shmpi_ring_publish_now(struct shmpi_ring_rx *rx);
static inline int shmpi_ring_publish(struct shmpi_ring_rx *rx)
{
    if (rx->pos - rx->published < rx->size / 4)
        return 0;
    return shmpi_ring_publish_now(rx);
}

#endif
