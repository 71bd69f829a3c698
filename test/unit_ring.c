/* unit_ring: the SPSC record ring (queues/ring.c) between two processes, small ring, every record length, several records per cache line, wraps at every record alignment: none lost, duplicated, reordered or torn; the full-ring handshake never loses a wake-up. */
/* shmpi-test: unit timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A producer process and a consumer process over one ring of 4 KiB of
 * data in shared memory: RECORDS records of pseudo-random lengths from 8
 * bytes to the largest body - half of them short (8 to 72 bytes: one to
 * four records per cache line, as small messages pack, ring.h), one in
 * eight as long as can be - so that the ring wraps every few records and
 * fills up all the time.  Each body says its index and length and holds a
 * pattern the consumer recomputes, so a record lost, duplicated, out of
 * order or read before it was whole fails the check.  The consumer notes
 * where in a cache line each wrap record lay, and the test fails unless
 * wraps came at every record alignment of a line (SHMPI_REC_ALIGN steps).
 *
 * The words of a body that fall on a record boundary - where a later lap
 * may expect a record's seq - hold sequence numbers a little ahead of
 * the record's own: were the ring not to seal the next record's seq
 * (ring.c, seal_next), the consumer would one day take such stale body
 * bytes for a record.
 *
 * The doorbell is the test's own: a counter `bell` the consumer bumps
 * when shmpi_ring_publish says the producer waits.  A producer whose
 * shmpi_ring_ask_for_space said "no space" says it sleeps, with the
 * bell it saw before asking; a consumer that then finds the ring empty
 * and has not rung since has met a lost wake-up (in shmpi the producer
 * would sleep on its futex for ever): a deterministic failure, no clock.
 */
#include "unit.h"

#include "queues/ring.h"

#define RING_BYTES (SHMPI_RING_HEADER + 4096)
#define RECORDS 500000

struct shared {
    _Alignas(SHMPI_CACHELINE) unsigned char ring[RING_BYTES];
    /* the consumer's doorbell count: written by the consumer only */
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t bell;
    /* the producer: (bell it saw << 1 | 1) while it sleeps, else 0 */
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t asleep;
    _Atomic uint64_t sleeps;
    _Atomic uint64_t rings;
};

static uint64_t body_len(uint64_t i, uint64_t max)
{
    uint64_t s = i * 0x9e3779b97f4a7c15ull + 1;
    unit_rand(&s);
    uint64_t r = unit_rand(&s);
    /* one record in eight is as long as can be: those fill the ring;
       half are short, several to a cache line */
    if ((r & 7) == 0)
        return max;
    if (r & 8)
        return 8 + (r >> 4) % 65;
    return 8 + (r >> 4) % (max - 7);
}

/* Word k of record i's body, whose seq is seq.  Records start
   SHMPI_REC_ALIGN-aligned, so word k lies where a record may start when
   (8 + 4k) % SHMPI_REC_ALIGN == 0: there it holds a seq that a later
   record at that place may carry. */
static uint32_t body_word(uint64_t i, uint32_t seq, uint64_t k)
{
    if ((SHMPI_REC_PREFIX + 4 * k) % SHMPI_REC_ALIGN == 0)
        return seq + 1 + (uint32_t)((i + k) % 16);
    return (uint32_t)(i * 2654435761u + k);
}

static void produce(struct shared *sh)
{
    struct shmpi_ring_tx tx;
    uint64_t max = shmpi_ring_max_body(RING_BYTES);
    shmpi_ring_tx_init(&tx, (struct shmpi_ring *)sh->ring, RING_BYTES);
    for (uint64_t i = 0; i < RECORDS; i++) {
        uint64_t len = body_len(i, max);
        uint32_t *b;
        while (!(b = shmpi_ring_reserve(&tx, len))) {
            uint64_t bell = atomic_load_explicit(&sh->bell,
                                                 memory_order_acquire);
            if (shmpi_ring_ask_for_space(&tx, len))
                continue;
            /* release: what we committed is visible to a consumer that
               reads this */
            atomic_store_explicit(&sh->asleep, bell << 1 | 1,
                                  memory_order_release);
            atomic_fetch_add_explicit(&sh->sleeps, 1, memory_order_relaxed);
            unsigned polls = 0;
            while (atomic_load_explicit(&sh->bell, memory_order_acquire) ==
                   bell)
                unit_pause(&polls);
            atomic_store_explicit(&sh->asleep, 0, memory_order_relaxed);
        }
        /* the seq commit will give: tx.seq already counts a wrap record
           that reserve put before this one */
        uint32_t seq = tx.seq + 1;
        b[0] = (uint32_t)i;
        b[1] = (uint32_t)len;
        for (uint64_t k = 2; k < len / 4; k++)
            b[k] = body_word(i, seq, k);
        shmpi_ring_commit(&tx, b);
    }
}

static void check_record(const uint32_t *b, uint64_t i, uint32_t seq,
                         uint64_t max)
{
    uint64_t len = body_len(i, max);
    UCHECK(b[0] == (uint32_t)i, "record %lu expected, got a body saying %u "
           "(lost, duplicated or reordered record, or stale bytes taken for "
           "one)", (unsigned long)i, b[0]);
    UCHECK(b[1] == len, "record %lu: length %u, expected %lu",
           (unsigned long)i, b[1], (unsigned long)len);
    for (uint64_t k = 2; k < len / 4; k++)
        UCHECK(b[k] == body_word(i, seq, k),
               "record %lu, word %lu: %u, expected %u (a torn record)",
               (unsigned long)i, (unsigned long)k, b[k],
               body_word(i, seq, k));
}

/* The ring is empty: the producer must not be asleep without a ring. */
static void check_no_lost_wakeup(struct shared *sh, struct shmpi_ring_rx *rx)
{
    uint64_t a = atomic_load_explicit(&sh->asleep, memory_order_acquire);
    if (!(a & 1) ||
        a >> 1 != atomic_load_explicit(&sh->bell, memory_order_relaxed))
        return;
    /* it sleeps, and everything it committed before is visible now */
    UCHECK(shmpi_ring_peek(rx) != NULL,
           "the producer sleeps waiting for space, the ring is empty and "
           "the consumer was never told to ring (lost wake-up; consumed %lu "
           "bytes, published %lu)",
           (unsigned long)rx->pos, (unsigned long)rx->published);
}

static void consume(struct shared *sh)
{
    struct shmpi_ring_rx rx;
    uint64_t max = shmpi_ring_max_body(RING_BYTES);
    shmpi_ring_rx_init(&rx, (struct shmpi_ring *)sh->ring, RING_BYTES);
    unsigned polls = 0;
    unsigned wrapped_at = 0; /* bit j: a wrap record at line offset 16j */
    for (uint64_t i = 0; i < RECORDS;) {
        uint64_t pos = rx.pos, pos_at = rx.pos_at;
        const uint32_t *b = shmpi_ring_peek(&rx);
        /* peek moves only past a wrap record, which ends the data */
        UCHECK(rx.pos == pos || pos_at + (rx.pos - pos) == rx.size,
               "record %lu: peek skipped %lu bytes from offset %lu of %lu "
               "(stale bytes taken for a wrap record)", (unsigned long)i,
               (unsigned long)(rx.pos - pos), (unsigned long)pos_at,
               (unsigned long)rx.size);
        if (rx.pos != pos)
            wrapped_at |= 1u << (pos_at % SHMPI_CACHELINE / SHMPI_REC_ALIGN);
        if (!b) {
            check_no_lost_wakeup(sh, &rx);
            unit_pause(&polls);
            continue;
        }
        polls = 0;
        check_record(b, i, rx.seq + 1, max);
        shmpi_ring_consume(&rx);
        i++;
        if (shmpi_ring_publish(&rx)) {
            atomic_fetch_add_explicit(&sh->bell, 1, memory_order_release);
            atomic_fetch_add_explicit(&sh->rings, 1, memory_order_relaxed);
        }
    }
    UCHECK(shmpi_ring_peek(&rx) == NULL, "a record after the last one");
    UCHECK(wrapped_at == (1u << SHMPI_CACHELINE / SHMPI_REC_ALIGN) - 1,
           "wrap records came at some offsets in a cache line only (mask "
           "%#x): the lengths do not cover every record alignment",
           wrapped_at);
}

static void body(int rank, void *arg)
{
    if (rank == 0)
        produce(arg);
    else
        consume(arg);
}

int main(int argc, char **argv)
{
    unit_name_ = "unit_ring";
    struct shared *sh = unit_shared(sizeof *sh);
    int failed = unit_run(argc, argv, 2, body, sh);
    printf("unit_ring: %d records, producer slept %lu times, woken %lu "
           "times: %s\n",
           RECORDS, (unsigned long)atomic_load(&sh->sleeps),
           (unsigned long)atomic_load(&sh->rings), failed ? "FAILED" : "ok");
    return failed;
}
