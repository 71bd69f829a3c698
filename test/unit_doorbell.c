/* unit_doorbell: the doorbell that wakes sleeping ranks (core/wait.c), a token passed round three processes that sleep for it every time, many ringers for one sleeper, and rings timed to land while the sleeper falls asleep: no lost wake-up, no token lost or doubled. */
/* shmpi-test: unit timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * With SHMPI_SPIN_US=0 and SHMPI_YIELDS=0, shmpi_core_wait_until goes to sleep
 * on the rank's futex as soon as its condition is false, so each wait
 * below races the sleep against the ring that ends it - the Dekker pair
 * of wait.c (sleepers + fence + seq read, against publish + fence +
 * sleepers read).
 *
 * Part 1: a token goes round NPROCS processes PASSES times; a process
 * waits until its mailbox says the token is its own, writes the next
 * process's mailbox (release) and rings it.  Part 2: every process but 0
 * adds 1 to a counter of rank 0's HITS times, ringing rank 0 each time,
 * while rank 0 waits for the counter to reach each next value in turn.
 * Part 3: rank 1 rings rank 0 RACES times, each ring a random number of
 * pauses after rank 0 first looked whether the ring came, and waits (polling,
 * not asleep) until rank 0 says it woke: the rings land all over rank
 * 0's way into sleep_once, with 128 lines of payload stored before
 * each publish, so that the publish waits in the store buffer while the
 * ring's load of sleepers (kept in cache by reading it meanwhile) does
 * not: a ringer without its fence then reads sleepers = 0 before its
 * publish is visible.  With the ringer's fence left out (and the
 * sleeper's kept) the test failed (a lost wake-up: the watchdog) in 9
 * runs of 10; with both fences it passed 6 of 6 (2026-11-29).
 * A lost wake-up leaves a process asleep for ever (the watchdog of
 * unit.h); a token that arrives twice or out of turn fails the check.
 * The doorbells' seq counts the rings that found a sleeper, printed to
 * show the sleeps happened.
 */
#include "unit.h"

#define NPROCS 3
#define PASSES 30000
#define HITS 20000
#define RACES 50000
#define MAX_DELAY 96 /* pauses: 1.5 times reached_telling's after it looked */
#define PAYLOAD_LINES 128

struct shared {
    struct {
        _Alignas(SHMPI_CACHELINE) _Atomic uint64_t token;
    } mailbox[NPROCS];
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t hits;
    _Atomic uint64_t woken;
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t looked; /* part 3 */
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t value;
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t got;
    struct {
        _Alignas(SHMPI_CACHELINE) _Atomic uint64_t word;
    } payload[PAYLOAD_LINES];
};

struct wait_for {
    _Atomic uint64_t *word;
    uint64_t at_least;
};

/* The condition of a wait.  In shmpi it runs the progress engine, which
   takes a while after it looked at memory: so does this one, so that a
   ring arriving just after the look falls inside the sleep's race. */
static int reached(void *arg)
{
    struct wait_for *w = arg;
    int yes = atomic_load_explicit(w->word, memory_order_acquire) >=
              w->at_least;
    for (int i = 0; i < 64; i++)
        shmpi_cpu_relax();
    return yes;
}

static void pass_token(struct shared *sh, int rank)
{
    int next = (rank + 1) % NPROCS;
    /* pass k (from 1) is held by process k % NPROCS */
    for (uint64_t k = (uint64_t)rank; k <= PASSES; k += NPROCS) {
        if (k > 0) {
            struct wait_for w = {&sh->mailbox[rank].token, k};
            shmpi_core_wait_until(reached, &w);
            uint64_t t = atomic_load_explicit(&sh->mailbox[rank].token,
                                              memory_order_acquire);
            UCHECK(t == k, "token %lu arrived while waiting for %lu",
                   (unsigned long)t, (unsigned long)k);
        }
        if (k < PASSES) {
            atomic_store_explicit(&sh->mailbox[next].token, k + 1,
                                  memory_order_release);
            shmpi_core_doorbell_ring(next);
        }
    }
}

static void many_ringers(struct shared *sh, int rank)
{
    uint64_t all = (uint64_t)HITS * (NPROCS - 1);
    if (rank == 0) {
        /* one sleep per value: any ringer's ring must wake it */
        for (uint64_t v = 1; v <= all; v++) {
            struct wait_for w = {&sh->hits, v};
            shmpi_core_wait_until(reached, &w);
        }
        UCHECK(atomic_load(&sh->hits) == all, "%lu hits, expected %lu",
               (unsigned long)atomic_load(&sh->hits), (unsigned long)all);
        return;
    }
    for (int i = 0; i < HITS; i++) {
        atomic_fetch_add_explicit(&sh->hits, 1, memory_order_release);
        shmpi_core_doorbell_ring(0);
    }
}

/* reached, telling rank 1 when it looked: the sleep follows 64 pauses
   later */
static int reached_telling(void *arg)
{
    struct shared *sh = arg;
    uint64_t v = atomic_load_explicit(&sh->got, memory_order_relaxed) + 1;
    int yes = atomic_load_explicit(&sh->value, memory_order_acquire) >= v;
    for (int i = 0; i < PAYLOAD_LINES && yes; i++)
        UCHECK(atomic_load_explicit(&sh->payload[i].word,
                                    memory_order_relaxed) >= v,
               "payload line %d is older than the ring", i);
    atomic_store_explicit(&sh->looked, v, memory_order_release);
    for (int i = 0; i < 64; i++)
        shmpi_cpu_relax();
    return yes;
}

static void await(_Atomic uint64_t *word, uint64_t v)
{
    unsigned polls = 0;
    while (atomic_load_explicit(word, memory_order_acquire) != v)
        unit_pause(&polls);
}

static void ring_while_falling_asleep(struct shared *sh, int rank)
{
    if (rank == 0) {
        for (uint64_t v = 1; v <= RACES; v++) {
            shmpi_core_wait_until(reached_telling, sh);
            atomic_store_explicit(&sh->got, v, memory_order_release);
        }
        return;
    }
    if (rank != 1)
        return;
    _Atomic uint32_t *sleepers =
        &shmpi_arena_slot(shmpi_proc.arena, 0)->doorbell.sleepers;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (uint64_t v = 1; v <= RACES; v++) {
        await(&sh->looked, v);
        /* reading sleepers meanwhile, as a sender streaming messages
           does: the ring's load of it then hits in the cache at once,
           while the publish still waits for its line */
        for (uint64_t d = unit_rand(&seed) % MAX_DELAY; d > 0; d--) {
            (void)atomic_load_explicit(sleepers, memory_order_relaxed);
            shmpi_cpu_relax();
        }
        /* stores into lines rank 0 read: the publish waits behind them
           in the store buffer, while the ring's load of sleepers
           need not (as a message's payload, then its header) */
        for (int i = 0; i < PAYLOAD_LINES; i++)
            atomic_store_explicit(&sh->payload[i].word, v,
                                  memory_order_relaxed);
        atomic_store_explicit(&sh->value, v, memory_order_release);
        shmpi_core_doorbell_ring(0);
        await(&sh->got, v);
    }
}

static void body(int rank, void *arg)
{
    struct shared *sh = arg;
    pass_token(sh, rank);
    many_ringers(sh, rank);
    ring_while_falling_asleep(sh, rank);
    atomic_fetch_add(&sh->woken,
                     atomic_load(&shmpi_proc.slot->doorbell.seq));
}

int main(void)
{
    unit_name_ = "unit_doorbell";
    setenv("SHMPI_SPIN_US", "0", 1);
    setenv("SHMPI_YIELDS", "0", 1);
    struct shared *sh = unit_shared(sizeof *sh);
    int failed = unit_job(NPROCS, body, sh);
    printf("unit_doorbell: %d token passes, %d hits from each of %d "
           "ringers, %d timed rings, %lu rings found a sleeper: %s\n",
           PASSES, HITS, NPROCS - 1, RACES,
           (unsigned long)atomic_load(&sh->woken),
           failed ? "FAILED" : "ok");
    return failed;
}
