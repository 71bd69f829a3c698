/* unit_mpsc: the MPSC mailbox (queues/mpsc.c), several producer processes into one consumer: per-producer FIFO, nothing lost or duplicated, and pop never waits for a producer caught between its exchange and its link. */
/* shmpi-test: unit timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * PRODUCERS processes push RECORDS records each into one queue that a
 * consumer process pops.  Every producer owns a pool of NODES nodes in
 * the shared mapping and reuses a node once the consumer has marked it
 * done, as an outbox does: a node taken twice, or linked while still
 * queued, shows up as a duplicate or a lost record.  Each record says
 * its producer and its number: the consumer checks that each producer's
 * numbers come one after the other (FIFO per producer, none lost or
 * duplicated) and that it got PRODUCERS * RECORDS in all.
 *
 * The cut list: every WINDOW_EVERY-th push a producer stops between its
 * exchange and its link, publishes the number of the record it holds
 * back, and links only after the consumer has answered that pop returned
 * 0 while that record was held back.  A pop that waited for the link
 * would deadlock (the watchdog fails the job); a pop that stepped past
 * the cut would deliver later records first (an order failure).  Other
 * pushes yield between the two steps now and then, so that the
 * producers' exchanges and links interleave every way.
 */
#include "unit.h"

#include "queues/mpsc.h"

#define PRODUCERS 4
#define RECORDS 200000
#define NODES 64
#define WINDOW_EVERY 997

struct rec {
    struct shmpi_mpsc_node link;
    uint32_t producer;
    uint32_t number;
    _Atomic uint32_t done;     /* set by the consumer: reusable */
    uint32_t pad[11];
};

struct shared {
    struct shmpi_mpsc q;
    /* per producer: number + 1 of a record held between exchange and
       link (0: none), and the consumer's answer: that number + 1 once
       pop returned 0 while it was held */
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t held[PRODUCERS];
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t seen_cut[PRODUCERS];
    _Atomic uint64_t cuts;
    _Alignas(SHMPI_CACHELINE) struct rec recs[PRODUCERS][NODES];
};

static uint64_t off(struct shared *sh, void *p)
{
    return (uint64_t)((unsigned char *)p - (unsigned char *)sh);
}

static void produce(struct shared *sh, int p)
{
    unsigned char *base = (unsigned char *)sh;
    uint64_t rnd = 0x9e3779b97f4a7c15ull * (uint64_t)(p + 1);
    for (uint32_t i = 0; i < RECORDS; i++) {
        struct rec *r = &sh->recs[p][i % NODES];
        unsigned polls = 0;
        /* acquire: the consumer's reads of the record happened before */
        while (i >= NODES &&
               !atomic_load_explicit(&r->done, memory_order_acquire))
            unit_pause(&polls);
        atomic_store_explicit(&r->done, 0, memory_order_relaxed);
        r->producer = (uint32_t)p;
        r->number = i;
        uint64_t prev = shmpi_mpsc_exchange(base, &sh->q, off(sh, r));
        if (i % WINDOW_EVERY == WINDOW_EVERY - 1) {
            atomic_store_explicit(&sh->held[p], i + 1, memory_order_release);
            polls = 0;
            while (atomic_load_explicit(&sh->seen_cut[p],
                                        memory_order_acquire) != i + 1)
                unit_pause(&polls);
            atomic_store_explicit(&sh->held[p], 0, memory_order_relaxed);
        } else if ((unit_rand(&rnd) & 63) == 0) {
            sched_yield();
        }
        shmpi_mpsc_link(base, &sh->q, prev, off(sh, r));
    }
}

/* pop said "nothing now": answer the producers holding a record back */
static void answer_cuts(struct shared *sh)
{
    for (int p = 0; p < PRODUCERS; p++) {
        uint32_t h = atomic_load_explicit(&sh->held[p], memory_order_acquire);
        if (h && atomic_load_explicit(&sh->seen_cut[p],
                                      memory_order_relaxed) != h) {
            atomic_store_explicit(&sh->seen_cut[p], h, memory_order_release);
            atomic_fetch_add_explicit(&sh->cuts, 1, memory_order_relaxed);
        }
    }
}

static void consume(struct shared *sh)
{
    struct shmpi_mpsc_rx rx;
    uint32_t expect[PRODUCERS] = {0};
    shmpi_mpsc_rx_init(&rx, (unsigned char *)sh, &sh->q);
    unsigned polls = 0;
    for (uint64_t got = 0; got < (uint64_t)PRODUCERS * RECORDS;) {
        uint64_t o = shmpi_mpsc_maybe_nonempty(&rx) ? shmpi_mpsc_pop(&rx) : 0;
        if (!o) {
            answer_cuts(sh);
            unit_pause(&polls);
            continue;
        }
        polls = 0;
        UCHECK(o % sizeof(struct rec) == off(sh, sh->recs) % sizeof(struct rec)
                   && o >= off(sh, sh->recs),
               "pop returned offset %lu, not a record's", (unsigned long)o);
        struct rec *r = (struct rec *)((unsigned char *)sh + o);
        uint32_t p = r->producer;
        UCHECK(p < PRODUCERS, "record from producer %u", p);
        UCHECK(r->number == expect[p],
               "producer %u: record %u, expected %u (lost, duplicated or "
               "reordered)", p, r->number, expect[p]);
        expect[p]++;
        got++;
        atomic_store_explicit(&r->done, 1, memory_order_release);
    }
    UCHECK(!shmpi_mpsc_maybe_nonempty(&rx) && shmpi_mpsc_pop(&rx) == 0,
           "a record after the last one");
}

static void body(int rank, void *arg)
{
    if (rank == PRODUCERS)
        consume(arg);
    else
        produce(arg, rank);
}

int main(int argc, char **argv)
{
    unit_name_ = "unit_mpsc";
    struct shared *sh = unit_shared(sizeof *sh);
    int failed = unit_run(argc, argv, PRODUCERS + 1, body, sh);
    printf("unit_mpsc: %d producers x %d records, %lu cut lists answered: "
           "%s\n", PRODUCERS, RECORDS, (unsigned long)atomic_load(&sh->cuts),
           failed ? "FAILED" : "ok");
    return failed;
}
