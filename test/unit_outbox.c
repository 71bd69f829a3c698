/* unit_outbox: a rank's outbox (queues/outbox.c) sending to two receivers that finish records out of order: none lost, reordered or torn, the area wraps, and the full-area handshake never loses a wake-up. */
/* shmpi-test: unit timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An owner process takes RECORDS records of pseudo-random lengths (8
 * bytes up to the largest body) from an outbox of 16 KiB and posts each
 * to the mailbox (queues/mpsc.c) of one of two receiver processes, chosen
 * at random.  A receiver checks each record (its number, length, sender
 * and a pattern it recomputes), holds up to HOLD of them and finishes
 * them in a random order - so that the owner's oldest record is often
 * still in use while later ones are done, and the area wraps every few
 * records and fills up all the time.  Each receiver checks that the
 * records sent to it come in the order they were sent.
 *
 * The doorbell is the test's own, as in unit_ring: a receiver whose
 * shmpi_outbox_done says the owner waits bumps `bell`.  An owner that
 * found no space after asking sleeps with the bell it saw and the number
 * of records it had posted; a receiver that sees it asleep, the bell
 * unchanged and every one of those records finished (`finished` counts
 * them after their done call returned, so after any ring it did) has met
 * a lost wake-up: deterministic, no clock.
 */
#include "unit.h"

#include "queues/outbox.h"

#define AREA 16384
#define RECORDS 300000
#define HOLD 8
#define RECEIVERS 2

struct shared {
    struct shmpi_mpsc mailbox[RECEIVERS];
    struct shmpi_outbox_flag flag;
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t bell;
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t asleep; /* bell << 1 | 1 */
    _Atomic uint64_t asleep_posted; /* records posted when it slept */
    _Atomic uint64_t sleeps;
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t finished;
    _Atomic uint64_t rings;
    _Alignas(SHMPI_CACHELINE) unsigned char area[AREA];
};

/* Record i: its receiver and its length. */
static int dest_of(uint64_t i)
{
    uint64_t s = i * 0x9e3779b97f4a7c15ull + 7;
    return (int)((unit_rand(&s) >> 17) % RECEIVERS);
}

static uint64_t len_of(uint64_t i, uint64_t max)
{
    uint64_t s = i * 0xbf58476d1ce4e5b9ull + 3;
    unit_rand(&s);
    uint64_t r = unit_rand(&s);
    return (r & 7) == 0 ? max : 8 + ((r >> 3) % (max - 7) & ~(uint64_t)3);
}

static uint32_t word(uint64_t i, uint64_t k)
{
    return (uint32_t)(i * 2654435761u + k * 40503u);
}

static void sleep_for_space(struct shared *sh, struct shmpi_outbox_tx *tx,
                            size_t len, uint64_t posted)
{
    uint64_t bell = atomic_load_explicit(&sh->bell, memory_order_acquire);
    if (shmpi_outbox_ask_for_space(tx, len))
        return;
    atomic_store_explicit(&sh->asleep_posted, posted, memory_order_relaxed);
    atomic_store_explicit(&sh->asleep, bell << 1 | 1, memory_order_release);
    atomic_fetch_add_explicit(&sh->sleeps, 1, memory_order_relaxed);
    unsigned polls = 0;
    while (atomic_load_explicit(&sh->bell, memory_order_acquire) == bell)
        unit_pause(&polls);
    atomic_store_explicit(&sh->asleep, 0, memory_order_relaxed);
}

static void own(struct shared *sh)
{
    struct shmpi_outbox_tx tx;
    unsigned char *base = (unsigned char *)sh;
    uint64_t max = shmpi_outbox_max_body(AREA);
    shmpi_outbox_tx_init(&tx, base, (uint64_t)(sh->area - base), AREA,
                         &sh->flag, 0, -1);
    for (uint64_t i = 0; i < RECORDS; i++) {
        uint64_t len = len_of(i, max);
        uint32_t *b;
        int err;
        while (!(b = shmpi_outbox_reserve(&tx, len, &err))) {
            UCHECK(err == 0, "reserve: error %d with every page there", err);
            sleep_for_space(sh, &tx, len, i);
        }
        b[0] = (uint32_t)i;
        b[1] = (uint32_t)len;
        for (uint64_t k = 2; k < len / 4; k++)
            b[k] = word(i, k);
        shmpi_outbox_post(&tx, b, &sh->mailbox[dest_of(i)]);
    }
}

static void check(const struct shmpi_outbox_rec *r, uint64_t i, uint64_t max)
{
    const uint32_t *b =
        (const uint32_t *)((const unsigned char *)r + SHMPI_OUTBOX_HEADER);
    uint64_t len = len_of(i, max);
    UCHECK(b[0] == (uint32_t)i, "record %lu expected, got one saying %u "
           "(lost, duplicated or reordered)", (unsigned long)i, b[0]);
    UCHECK(b[1] == len && r->src == 0 &&
               r->bytes >= SHMPI_OUTBOX_HEADER + len &&
               r->bytes % SHMPI_CACHELINE == 0,
           "record %lu: length %u, src %d, bytes %u", (unsigned long)i, b[1],
           r->src, r->bytes);
    for (uint64_t k = 2; k < len / 4; k++)
        UCHECK(b[k] == word(i, k), "record %lu, word %lu: %u, expected %u "
               "(torn, or overwritten while held)", (unsigned long)i,
               (unsigned long)k, b[k], word(i, k));
}

/* Nothing to pop and nothing held: the owner must not sleep unrung. */
static void check_no_lost_wakeup(struct shared *sh)
{
    uint64_t a = atomic_load_explicit(&sh->asleep, memory_order_acquire);
    if (!(a & 1))
        return;
    uint64_t posted = atomic_load_explicit(&sh->asleep_posted,
                                           memory_order_relaxed);
    if (atomic_load_explicit(&sh->finished, memory_order_acquire) < posted)
        return;
    UCHECK(atomic_load_explicit(&sh->bell, memory_order_acquire) != a >> 1,
           "the owner sleeps waiting for space although its %lu records "
           "are all done, and nobody rang (lost wake-up)",
           (unsigned long)posted);
}

static void finish(struct shared *sh, struct shmpi_outbox_rec *r)
{
    if (shmpi_outbox_done(r, &sh->flag)) {
        atomic_fetch_add_explicit(&sh->bell, 1, memory_order_release);
        atomic_fetch_add_explicit(&sh->rings, 1, memory_order_relaxed);
    }
    atomic_fetch_add_explicit(&sh->finished, 1, memory_order_release);
}

static void receive(struct shared *sh, int me)
{
    unsigned char *base = (unsigned char *)sh;
    uint64_t max = shmpi_outbox_max_body(AREA), rnd = 12345 + (uint64_t)me;
    struct shmpi_mpsc_rx rx;
    struct shmpi_outbox_rec *held[HOLD];
    int nheld = 0;
    uint64_t mine = 0, next = 0; /* records for me: counted, next index */
    for (uint64_t i = 0; i < RECORDS; i++)
        mine += dest_of(i) == me;
    shmpi_mpsc_rx_init(&rx, base, &sh->mailbox[me]);
    unsigned polls = 0;
    for (uint64_t got = 0; got < mine || nheld;) {
        uint64_t off = got < mine ? shmpi_mpsc_pop(&rx) : 0;
        if (off) {
            while (dest_of(next) != me)
                next++;
            check(shmpi_outbox_rec_at(base, off), next++, max);
            held[nheld++] = shmpi_outbox_rec_at(base, off);
            got++;
            polls = 0;
        }
        /* finish one at random when full or idle, sometimes anyway */
        if (nheld && (nheld == HOLD || !off || (unit_rand(&rnd) & 3) == 0)) {
            int k = (int)(unit_rand(&rnd) % (uint64_t)nheld);
            finish(sh, held[k]);
            held[k] = held[--nheld];
        } else if (!off) {
            check_no_lost_wakeup(sh);
            unit_pause(&polls);
        }
    }
}

static void body(int rank, void *arg)
{
    if (rank == 0)
        own(arg);
    else
        receive(arg, rank - 1);
}

int main(int argc, char **argv)
{
    unit_name_ = "unit_outbox";
    struct shared *sh = unit_shared(sizeof *sh);
    int failed = unit_run(argc, argv, 1 + RECEIVERS, body, sh);
    printf("unit_outbox: %d records, owner slept %lu times, woken %lu "
           "times: %s\n", RECORDS, (unsigned long)atomic_load(&sh->sleeps),
           (unsigned long)atomic_load(&sh->rings), failed ? "FAILED" : "ok");
    return failed;
}
