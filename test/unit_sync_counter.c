/* unit_sync_counter: the sync counter table (rma/sync_counter.c), counters allocated, signalled by every other process and freed, round after round: every signal counted once, data signalled is visible, stale handles find nothing. */
/* shmpi-test: unit timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NPROCS processes, ROUNDS rounds.  In each, every process allocates
 * COUNTERS counters in its part of the arena's table
 * (shmpi_rma_sync_alloc) and shows their handles to the others; each other
 * process then signals each of them SIGNALS times (shmpi_rma_sync_find, then
 * shmpi_rma_sync_signal), writing before each signal a word the owner will
 * read; the owner waits for its counters with shmpi_core_wait_until (asleep
 * on its doorbell at once: SHMPI_SPIN_US=0 SHMPI_YIELDS=0), then finds
 * every word the signallers wrote before their last signal.  After a
 * barrier the owner checks each count is exact and frees its counters
 * (shmpi_rma_sync_release); the next round allocates the same slots again.
 *
 * Checked: a handle finds its slot and its owner; every signal counts
 * once (no lost and no doubled add); a word written before a signal is
 * visible to the owner that saw the signal; the handles of the last
 * round - freed, then their slots reused - find nothing.  A signal whose
 * ring went missing leaves the owner asleep: the watchdog.
 */
#include "unit.h"

#include "rma/sync_counter.h"

#define NPROCS 3
#define ROUNDS 400
#define COUNTERS 8
#define SIGNALS 8

struct shared {
    _Atomic int32_t handle[NPROCS][COUNTERS];      /* this round's */
    /* [owner][counter][signaller]: written before each signal */
    _Atomic uint64_t word[NPROCS][COUNTERS][NPROCS];
    struct unit_barrier bar;
};

static struct shmpi_win win;

struct counted {
    struct shmpi_sync_slot *slot;
    int64_t want;
};

static int counted(void *arg)
{
    struct counted *c = arg;
    return atomic_load_explicit(&c->slot->signals, memory_order_acquire) >=
           c->want;
}

static void signal_others(struct shared *sh, int rank, int round,
                          const MPI_Sync *stale)
{
    for (int q = 0; q < NPROCS; q++) {
        if (q == rank)
            continue;
        for (int j = 0; j < COUNTERS; j++) {
            MPI_Sync h = atomic_load_explicit(&sh->handle[q][j],
                                              memory_order_relaxed);
            int owner = -1;
            struct shmpi_sync_slot *s = shmpi_rma_sync_find(h, &owner);
            UCHECK(s && owner == q, "round %d: handle %#x of rank %d's "
                   "counter %d finds %p, owner %d", round, (unsigned)h, q,
                   j, (void *)s, owner);
            if (stale[q * COUNTERS + j])
                UCHECK(!shmpi_rma_sync_find(stale[q * COUNTERS + j], &owner),
                       "round %d: handle %#x, freed in the last round and "
                       "its slot reused, still finds a counter", round,
                       (unsigned)stale[q * COUNTERS + j]);
            for (int k = 1; k <= SIGNALS; k++) {
                atomic_store_explicit(&sh->word[q][j][rank],
                                      (uint64_t)round * SIGNALS + k,
                                      memory_order_relaxed);
                shmpi_rma_sync_signal(s, q);
            }
        }
    }
}

static void wait_mine(struct shared *sh, int rank, int round,
                      const MPI_Sync *mine)
{
    for (int j = 0; j < COUNTERS; j++) {
        int owner;
        struct counted c = {shmpi_rma_sync_find(mine[j], &owner),
                            (int64_t)SIGNALS * (NPROCS - 1)};
        UCHECK(c.slot && owner == rank, "my own handle %#x finds nothing",
               (unsigned)mine[j]);
        shmpi_core_wait_until(counted, &c);
        for (int p = 0; p < NPROCS; p++)
            if (p != rank)
                UCHECK(atomic_load_explicit(&sh->word[rank][j][p],
                                            memory_order_relaxed) ==
                           (uint64_t)round * SIGNALS + SIGNALS,
                       "round %d, counter %d: all signals seen, but rank "
                       "%d's last word is not", round, j, p);
    }
}

static void body(int rank, void *arg)
{
    struct shared *sh = arg;
    win.magic = SHMPI_MAGIC_WIN;
    win.id = 1;
    win.comm = MPI_COMM_WORLD;
    MPI_Sync mine[COUNTERS];
    static MPI_Sync stale[NPROCS * COUNTERS];
    char err[192];
    for (int round = 0; round < ROUNDS; round++) {
        UCHECK(shmpi_rma_sync_alloc(&win, COUNTERS, mine, err, sizeof err) ==
                   MPI_SUCCESS,
               "shmpi_rma_sync_alloc of %d counters: %s", COUNTERS, err);
        for (int j = 0; j < COUNTERS; j++)
            atomic_store_explicit(&sh->handle[rank][j], mine[j],
                                  memory_order_relaxed);
        unit_barrier(&sh->bar, NPROCS);
        signal_others(sh, rank, round, stale);
        wait_mine(sh, rank, round, mine);
        unit_barrier(&sh->bar, NPROCS); /* every signal is in */
        for (int j = 0; j < COUNTERS; j++) {
            int owner;
            struct shmpi_sync_slot *s = shmpi_rma_sync_find(mine[j], &owner);
            int64_t n = atomic_load(&s->signals);
            UCHECK(n == (int64_t)SIGNALS * (NPROCS - 1),
                   "round %d, counter %d: %ld signals, %d sent", round, j,
                   (long)n, SIGNALS * (NPROCS - 1));
            UCHECK(shmpi_rma_sync_mine(&win, mine[j]), "counter %d not mine",
                   j);
            shmpi_rma_sync_release(mine[j], "MPI_Win_free_sync_objects");
            UCHECK(!shmpi_rma_sync_find(mine[j], &owner),
                   "a freed counter's handle still finds it");
        }
        for (int q = 0; q < NPROCS; q++)
            for (int j = 0; j < COUNTERS; j++)
                stale[q * COUNTERS + j] = atomic_load(&sh->handle[q][j]);
        unit_barrier(&sh->bar, NPROCS); /* freed before reallocated */
    }
}

int main(void)
{
    unit_name_ = "unit_sync_counter";
    setenv("SHMPI_SPIN_US", "0", 1);
    setenv("SHMPI_YIELDS", "0", 1);
    struct shared *sh = unit_shared(sizeof *sh);
    int failed = unit_job(NPROCS, body, sh);
    printf("unit_sync_counter: %d processes, %d rounds of %d counters "
           "signalled %d times by each other process: %s\n",
           NPROCS, ROUNDS, COUNTERS, SIGNALS, failed ? "FAILED" : "ok");
    return failed;
}
