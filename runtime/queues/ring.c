/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ring.c - the SPSC record ring (see ring.h).
 *
 * Memory ordering, the whole protocol:
 *   1. The producer writes a record body with plain stores, then stores
 *      prefix.seq with RELEASE.  The consumer loads prefix.seq with
 *      ACQUIRE; when it equals the sequence number it expects, the body is
 *      visible.  Where the next record will start, an earlier lap may have
 *      left body bytes - user data, any number at all - so before
 *      publishing a record the producer stamps the next record's seq with
 *      one the consumer cannot be waiting for (shmpi_ring_seal_next,
 *      ring.h).
 *   2. The consumer reads the body, then stores `tail` with RELEASE.  The
 *      producer loads `tail` with ACQUIRE before reusing that space, so
 *      the consumer's reads happen before the producer's overwrites.
 *   3. The consumer hands space back a quarter of the ring at a time (one
 *      store and one fence per quarter, not per record).
 *   4. A producer that finds the ring full sets `sender_waiting`, issues a
 *      seq_cst fence and re-reads `tail`; the consumer stores `tail`,
 *      issues a seq_cst fence and reads `sender_waiting`.  One of the two
 *      sees the other (store-buffer litmus with fences), so the producer
 *      either finds the space or is woken through its doorbell.
 * A record that would run past the end of the data is preceded by a
 * WRAP record (prefix only, bytes = rest of the data) and starts at 0.
 *
 * Records are SHMPI_REC_ALIGN (16) bytes apart, not a cache line, and
 * nothing above depends on it: a prefix is 8 bytes at a 16-aligned
 * offset, so it lies in one line and its seq is one naturally aligned
 * 4-byte atomic (point 1 holds as for line-aligned records); the rest of
 * the data after any record start is a multiple of 16, so a wrap record
 * always has room for its prefix, and the seal of point 1 - stamped at
 * the next record's start, inside the space room_for checked free - may
 * fall in the line of the record being published, or in the next, to
 * the same effect.  Several records in one line are all the producer's
 * writes: the consumer writes only `tail` (its own line), so no line is
 * written by both sides.  A consumer that keeps up with its producer
 * pulls the line once per record anyway (each commit writes the line
 * the consumer last read); one that falls behind - the far state, a
 * burst of sends - finds up to four records per line pulled.
 */
#include "queues/ring.h"

void shmpi_ring_tx_init(struct shmpi_ring_tx *tx, struct shmpi_ring *ring,
                        uint64_t ring_bytes)
{
    *tx = (struct shmpi_ring_tx){.ring = ring,
                                 .size = ring_bytes - SHMPI_RING_HEADER};
}

void shmpi_ring_rx_init(struct shmpi_ring_rx *rx, struct shmpi_ring *ring,
                        uint64_t ring_bytes)
{
    *rx = (struct shmpi_ring_rx){.ring = ring,
                                 .size = ring_bytes - SHMPI_RING_HEADER};
}

uint64_t shmpi_ring_max_body(uint64_t ring_bytes)
{
    uint64_t quarter = (ring_bytes - SHMPI_RING_HEADER) / 4;
    return (quarter & ~(uint64_t)(SHMPI_REC_ALIGN - 1)) - SHMPI_REC_PREFIX;
}

/* Bytes needed to place a record of `need` bytes at head: a wrap
   record fills the rest of the data when the record would not fit. */
static uint64_t bytes_with_wrap(const struct shmpi_ring_tx *tx, uint64_t need)
{
    uint64_t off = tx->head_at;
    return off + need > tx->size ? tx->size - off + need : need;
}

/* Bytes that must be free for a body of len bytes: its record, a wrap
   record before it if needed, and the next record's seq (the seal). */
static uint64_t room_for(const struct shmpi_ring_tx *tx, size_t len)
{
    return bytes_with_wrap(tx, shmpi_ring_rec_bytes(len)) + SHMPI_REC_PREFIX;
}

/* Whether total bytes are free; when the cached tail says no, the
   consumer's tail is read again into tx->tail_seen (so not a pure
   question: it refreshes the cache). */
static int has_room_rereading_tail(struct shmpi_ring_tx *tx, uint64_t total)
{
    if (tx->head + total - tx->tail_seen <= tx->size)
        return 1;
    tx->tail_seen = atomic_load_explicit(&tx->ring->tail,
                                         memory_order_acquire);
    return tx->head + total - tx->tail_seen <= tx->size;
}

static void put_wrap(struct shmpi_ring_tx *tx)
{
    struct shmpi_rec_prefix *p = shmpi_ring_prefix_at(tx->ring, tx->head_at);
    uint64_t rest = tx->size - tx->head_at;
    p->bytes = (uint32_t)rest | SHMPI_REC_WRAP;
    shmpi_ring_seal_next(tx, 0);
    atomic_store_explicit(&p->seq, ++tx->seq, memory_order_release);
    tx->head += rest;
    tx->head_at = 0;
}

/* shmpi_ring_reserve's whole case (ring.h has the common one inline):
   the tail read again when the cached one says no room, a wrap record
   first when the record would run past the end of the data. */
void *shmpi_ring_reserve_slow(struct shmpi_ring_tx *tx, size_t len)
{
    uint64_t need = shmpi_ring_rec_bytes(len);
    if (!has_room_rereading_tail(tx, room_for(tx, len)))
        return NULL;
    if (tx->head_at + need > tx->size)
        put_wrap(tx);
    struct shmpi_rec_prefix *p = shmpi_ring_prefix_at(tx->ring, tx->head_at);
    p->bytes = (uint32_t)need;
    shmpi_ring_seal_next(tx, shmpi_ring_advance(tx->head_at, need, tx->size));
    return (unsigned char *)p + SHMPI_REC_PREFIX;
}

/* The record after this one needs shmpi_ring_rec_bytes(spare) where it
   would start, with a wrap record before it if it would not fit there
   (records start 16 bytes apart, so any of them may need one); the seal
   of this record falls inside it, and room_for(len)'s seal serves the
   spare one. */
void *shmpi_ring_reserve_leaving(struct shmpi_ring_tx *tx, size_t len,
                                 size_t spare)
{
    uint64_t need = shmpi_ring_rec_bytes(len);
    uint64_t start = tx->head_at + need > tx->size ? 0 : tx->head_at;
    uint64_t next = shmpi_ring_advance(start, need, tx->size);
    uint64_t after = shmpi_ring_rec_bytes(spare);
    if (next + after > tx->size)
        after += tx->size - next;
    if (!has_room_rereading_tail(tx, room_for(tx, len) + after))
        return NULL;
    return shmpi_ring_reserve(tx, len);
}

int shmpi_ring_ask_for_space(struct shmpi_ring_tx *tx, size_t len)
{
    atomic_store_explicit(&tx->ring->sender_waiting, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    return has_room_rereading_tail(tx, room_for(tx, len));
}

/* The store of point 2 and the consumer's half of point 4 (the
   quarter-at-a-time test of point 3 is shmpi_ring_publish, ring.h). */
int shmpi_ring_publish_now(struct shmpi_ring_rx *rx)
{
    rx->published = rx->pos;
    atomic_store_explicit(&rx->ring->tail, rx->pos, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    if (!atomic_load_explicit(&rx->ring->sender_waiting, memory_order_relaxed))
        return 0;
    /* exchange, not store: a flag we clear is always followed by a ring */
    return atomic_exchange_explicit(&rx->ring->sender_waiting, 0,
                                    memory_order_relaxed);
}
