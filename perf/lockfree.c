/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lockfree.c - what one operation of each lock-free structure of the
 * runtime costs (perf/lockfree.sh): the ring, the mailbox and outbox, the
 * claim words, the RMA
 * lock words, the accumulate lock and its leases, the doorbell, the sync
 * counters.  Built like the unit tests (test/unit.h: a job of forked
 * processes over a real arena, no MPI_Init), with -O2.
 *
 * Each row is timed in BATCHES batches of ITERS operations and prints the
 * median batch, in ns per operation, as a Markdown table row.  Rows of one
 * process measure the uncontended cost (every line in this CPU's cache);
 * rows of two processes measure a line crossing between CPUs each time.
 * No peers: these are shmpi's internals.
 */
#include "unit.h"

#include <time.h>

#include "pt2pt/claim.h"
#include "queues/outbox.h"
#include "queues/ring.h"
#include "rma/acclock.h"
#include "rma/sync.h"
#include "rma/sync_counter.h"

#define BATCHES 7
#define ITERS 200000
#define PINGS 20000
#define RING_BYTES (SHMPI_RING_HEADER + 64 * 1024)

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static double median(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return v[n / 2];
}

static void row(const char *what, const char *procs, double ns)
{
    printf("| %-46s | %5s | %9.1f |\n", what, procs, ns);
    fflush(stdout);
}

/* Times op(arg) ITERS times per batch; the median in ns per call. */
static double timed(void (*op)(void *), void *arg)
{
    double b[BATCHES];
    for (int k = 0; k < BATCHES; k++) {
        double t0 = now_ns();
        for (int i = 0; i < ITERS; i++)
            op(arg);
        b[k] = (now_ns() - t0) / ITERS;
    }
    return median(b, BATCHES);
}

#define OUTBOX_BYTES (64 * 1024)

struct shared {
    _Alignas(SHMPI_CACHELINE) unsigned char ring[RING_BYTES];
    struct shmpi_mpsc mailbox;
    struct shmpi_outbox_flag flag;
    _Alignas(SHMPI_CACHELINE) unsigned char outbox[OUTBOX_BYTES];
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t ping;
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t pong;
    _Alignas(SHMPI_CACHELINE) _Atomic int32_t sync_handle;
    struct unit_barrier bar;
    unsigned char *ctl;
};

static struct shmpi_win win;

/* ------------------------------------------------------- one process */

struct ring_pair {
    struct shmpi_ring_tx tx;
    struct shmpi_ring_rx rx;
};

static void ring_self(void *arg)
{
    struct ring_pair *p = arg;
    uint64_t *b = shmpi_ring_reserve(&p->tx, 8);
    *b = 1;
    shmpi_ring_commit(&p->tx, b);
    shmpi_ring_peek(&p->rx);
    shmpi_ring_consume(&p->rx);
    shmpi_ring_publish(&p->rx);
}

static void claim_cycle(void *arg)
{
    (void)arg;
    shmpi_p2p_claim_free(shmpi_p2p_claim_take());
}

static void claim_match_cycle(void *arg)
{
    (void)arg;
    uint32_t c = shmpi_p2p_claim_take();
    shmpi_p2p_claim_match(0, c);
    shmpi_p2p_claim_free(c);
}

static void lock_excl(void *arg)
{
    (void)arg;
    shmpi_rma_word_lock(&win, 0, 0, 1);
    shmpi_rma_word_unlock(&win, 0, 0, 1);
}

static void lock_shared(void *arg)
{
    (void)arg;
    shmpi_rma_word_lock(&win, 0, 0, 0);
    shmpi_rma_word_unlock(&win, 0, 0, 0);
}

static void atomic_cycle(void *arg)
{
    _Atomic uint64_t *x = arg;
    uint32_t token = shmpi_rma_atomic_enter(&win, 0);
    atomic_fetch_add_explicit(x, 1, memory_order_relaxed);
    shmpi_rma_atomic_leave(&win, 0, token);
}

static void acc_lock_cycle(void *arg)
{
    (void)arg;
    shmpi_rma_acc_lock(&win, 0, "lockfree");
    shmpi_rma_acc_unlock(&win, 0);
}

static void ring_nobody(void *arg)
{
    (void)arg;
    shmpi_core_doorbell_ring(1);
}

static void sync_signal_self(void *arg)
{
    int owner;
    struct shmpi_sync_slot *s = shmpi_rma_sync_find(*(MPI_Sync *)arg, &owner);
    shmpi_rma_sync_signal(s, owner);
}

struct mail {
    struct shmpi_outbox_tx tx;
    struct shmpi_mpsc_rx rx;
    struct shared *sh;
};

/* An 8-byte record through the outbox and the mailbox, and back. */
static void mail_self(void *arg)
{
    struct mail *m = arg;
    int err;
    uint64_t *b = shmpi_outbox_reserve(&m->tx, 8, &err);
    *b = 1;
    shmpi_outbox_post(&m->tx, b, &m->sh->mailbox);
    uint64_t off = shmpi_mpsc_pop(&m->rx);
    shmpi_outbox_done(shmpi_outbox_rec_at(m->rx.base, off), &m->sh->flag);
}

static void mail_init(struct mail *m, struct shared *sh)
{
    unsigned char *base = (unsigned char *)sh;
    m->sh = sh;
    shmpi_outbox_tx_init(&m->tx, base, (uint64_t)(sh->outbox - base),
                         OUTBOX_BYTES, &sh->flag, 0, -1);
    shmpi_mpsc_rx_init(&m->rx, base, &sh->mailbox);
}

static void one_process(struct shared *sh)
{
    struct ring_pair p;
    shmpi_ring_tx_init(&p.tx, (struct shmpi_ring *)sh->ring, RING_BYTES);
    shmpi_ring_rx_init(&p.rx, (struct shmpi_ring *)sh->ring, RING_BYTES);
    row("ring: 8 B record reserve..publish", "1", timed(ring_self, &p));
    struct mail m;
    mail_init(&m, sh);
    row("outbox+mailbox: 8 B record reserve..done", "1",
        timed(mail_self, &m));
    row("claim: take + free", "1", timed(claim_cycle, NULL));
    row("claim: take + match + free", "1", timed(claim_match_cycle, NULL));
    row("lock word: exclusive lock + unlock", "1", timed(lock_excl, NULL));
    row("lock word: shared lock + unlock", "1", timed(lock_shared, NULL));
    static _Atomic uint64_t x;
    struct shmpi_win_ctl *c = shmpi_win_ctl_of(&win, 0);
    row(shmpi_proc.fence_registered ? "acc lock: leased atomic enter + leave"
                               : "acc lock: atomic (no membarrier: no lease)",
        "1", timed(atomic_cycle, (void *)&x));
    atomic_store(&c->acc_no_leases, 1);
    row("acc lock: announced atomic enter + leave", "1",
        timed(atomic_cycle, (void *)&x));
    row("acc lock: exclusive lock + unlock", "1",
        timed(acc_lock_cycle, NULL));
    row("doorbell: ring, nobody asleep", "1", timed(ring_nobody, NULL));
    MPI_Sync h;
    char err[192];
    win.id = 1;
    UCHECK(shmpi_rma_sync_alloc(&win, 1, &h, err, sizeof err) == MPI_SUCCESS,
           "sync alloc: %s", err);
    row("sync counter: find + signal (own)", "1",
        timed(sync_signal_self, &h));
    shmpi_rma_sync_release(h);
}

/* ------------------------------------------------------ two processes */

/* Rank 0 streams records of len bytes to rank 1: ns per record.  A
   record of 24 bytes is an 8 B message with its short header (pt2pt/
   proto.h), 32 bytes with the prefix: two per cache line; one of 56 is
   the same message with the full header, a line of its own. */
static void ring_stream(struct shared *sh, int rank, size_t len,
                        const char *name)
{
    if (rank == 0)
        memset(sh->ring, 0, sizeof sh->ring);
    unit_barrier(&sh->bar, 2);
    double b[BATCHES];
    if (rank == 0) {
        struct shmpi_ring_tx tx;
        shmpi_ring_tx_init(&tx, (struct shmpi_ring *)sh->ring, RING_BYTES);
        for (int k = 0; k < BATCHES; k++) {
            unit_barrier(&sh->bar, 2);
            double t0 = now_ns();
            for (int i = 0; i < ITERS; i++) {
                uint64_t *r;
                while (!(r = shmpi_ring_reserve(&tx, len)))
                    shmpi_cpu_relax();
                memset(r, 0, len);
                *r = (uint64_t)i;
                shmpi_ring_commit(&tx, r);
            }
            unit_barrier(&sh->bar, 2); /* all consumed */
            b[k] = (now_ns() - t0) / ITERS;
        }
        row(name, "2", median(b, BATCHES));
        return;
    }
    struct shmpi_ring_rx rx;
    shmpi_ring_rx_init(&rx, (struct shmpi_ring *)sh->ring, RING_BYTES);
    for (int k = 0; k < BATCHES; k++) {
        unit_barrier(&sh->bar, 2);
        for (int i = 0; i < ITERS; i++) {
            const uint64_t *r;
            while (!(r = shmpi_ring_peek(&rx)))
                shmpi_cpu_relax();
            UCHECK(*r == (uint64_t)i, "record %d read as %lu", i,
                   (unsigned long)*r);
            shmpi_ring_consume(&rx);
            shmpi_ring_publish(&rx);
        }
        unit_barrier(&sh->bar, 2);
    }
}

struct wait_for {
    _Atomic uint64_t *word;
    uint64_t at_least;
};

static int reached(void *arg)
{
    struct wait_for *w = arg;
    return atomic_load_explicit(w->word, memory_order_acquire) >=
           w->at_least;
}

/* Ping-pong through the doorbell, both sides asleep between: a round
   trip is two wake-ups.  ns per round trip. */
static void doorbell_pingpong(struct shared *sh, int rank)
{
    _Atomic uint64_t *mine = rank ? &sh->ping : &sh->pong;
    _Atomic uint64_t *theirs = rank ? &sh->pong : &sh->ping;
    unit_barrier(&sh->bar, 2);
    double b[BATCHES];
    uint64_t n = 0;
    for (int k = 0; k < BATCHES; k++) {
        unit_barrier(&sh->bar, 2);
        double t0 = now_ns();
        for (int i = 0; i < PINGS; i++) {
            n++;
            if (rank == 0) {
                atomic_store_explicit(theirs, n, memory_order_release);
                shmpi_core_doorbell_ring(1);
            }
            struct wait_for w = {mine, n};
            shmpi_core_wait_until(reached, &w);
            if (rank == 1) {
                atomic_store_explicit(theirs, n, memory_order_release);
                shmpi_core_doorbell_ring(0);
            }
        }
        b[k] = (now_ns() - t0) / PINGS;
    }
    if (rank == 0)
        row("doorbell: ping-pong, both asleep (round trip)", "2",
            median(b, BATCHES));
}

/* Rank 0 streams 8-byte records to rank 1 through its outbox and rank
   1's mailbox: ns per record. */
static void mail_stream(struct shared *sh, int rank)
{
    struct mail m;
    mail_init(&m, sh);
    unit_barrier(&sh->bar, 2);
    double b[BATCHES];
    for (int k = 0; k < BATCHES; k++) {
        unit_barrier(&sh->bar, 2);
        double t0 = now_ns();
        for (int i = 0; i < ITERS; i++) {
            if (rank == 0) {
                uint64_t *r;
                int err;
                while (!(r = shmpi_outbox_reserve(&m.tx, 8, &err)))
                    shmpi_cpu_relax();
                *r = (uint64_t)i;
                shmpi_outbox_post(&m.tx, r, &sh->mailbox);
            } else {
                uint64_t off;
                while (!(off = shmpi_mpsc_pop(&m.rx)))
                    shmpi_cpu_relax();
                shmpi_outbox_done(shmpi_outbox_rec_at(m.rx.base, off),
                                  &sh->flag);
            }
        }
        unit_barrier(&sh->bar, 2); /* all consumed */
        b[k] = (now_ns() - t0) / ITERS;
    }
    if (rank == 0)
        row("outbox+mailbox: 8 B records streamed", "2", median(b, BATCHES));
}

static void two_processes(int rank, void *arg)
{
    struct shared *sh = arg;
    win.magic = SHMPI_MAGIC_WIN;
    win.comm = MPI_COMM_WORLD;
    win.ctl = (struct shmpi_win_ctl *)sh->ctl;
    win.ctl_bytes = shmpi_win_ctl_bytes(2);
    if (rank == 0)
        one_process(sh);
    unit_barrier(&sh->bar, 2);
    ring_stream(sh, rank, 24, "ring: 24 B records streamed (8 B msg)");
    ring_stream(sh, rank, 56, "ring: 56 B records streamed (full header)");
    mail_stream(sh, rank);
    doorbell_pingpong(sh, rank);
}

int main(void)
{
    unit_name_ = "lockfree";
    /* waits sleep at once: the ping-pong measures the doorbell */
    setenv("SHMPI_SPIN_US", "0", 1);
    setenv("SHMPI_YIELDS", "0", 1);
    struct shared *sh = unit_shared(sizeof *sh);
    sh->ctl = unit_shared(shmpi_win_ctl_bytes(2) * 2);
    printf("| %-46s | %5s | %9s |\n", "operation", "procs", "ns");
    printf("|%s|%s|%s|\n", "------------------------------------------------",
           "-------", "-----------");
    fflush(stdout);
    return unit_job(2, two_processes, sh);
}
