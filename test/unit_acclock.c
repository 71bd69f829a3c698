/* unit_acclock: the accumulate lock and its leases (rma/acclock.c), one-instruction atomics racing element-wise accumulates: no atomic lands inside an exclusive section, no update is lost. */
/* shmpi-test: unit timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NPROCS processes share one window's control segment and its memory,
 * ELEMS counters per member.  Most operations are what atomic.c does for
 * a one-instruction accumulate: shmpi_rma_atomic_enter, an atomic add of
 * 1 to one counter, shmpi_rma_atomic_leave - in long runs on one target,
 * so that leases are taken and used (the fast path of acclock.h, no
 * fence); one in sixteen pauses before its instruction, which the
 * protocol must allow.  One process a round also does what acc.c does
 * for an element-wise accumulate: shmpi_rma_acc_lock, a load of every
 * counter of the target, a pause, loads that must find the same values
 * (no atomic may land meanwhile), stores of the values + 1,
 * shmpi_rma_acc_unlock.
 *
 * Leases end for good at a target's first exclusive holder, so the job
 * runs in ROUNDS rounds, and between two rounds (all processes at a
 * barrier) the lease words are reset as for a new window: each round
 * starts leased, and its first element-wise accumulate on each target,
 * made a while after the start, ends the leases with a fence of every
 * CPU (membarrier; the test says whether the kernel has it - without it
 * no lease is ever granted).  At the end each counter must equal the
 * adds made to it, atomic and element-wise.
 */
#include "unit.h"

#include "rma/acclock.h"
#include "rma/sync.h"

#define NPROCS 3
#define ELEMS 4
#define ROUNDS 60
#define OPS 30000              /* per process and round */

struct shared {
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t mem[NPROCS][ELEMS];
    _Atomic uint64_t adds[NPROCS][NPROCS][ELEMS]; /* [proc][target][e] */
    _Atomic uint64_t sections[NPROCS];
    _Atomic uint64_t atomics[NPROCS];
    _Atomic uint64_t locked[NPROCS];  /* atomics that backed off */
    _Atomic int fence;                /* shmpi_proc.fence_registered */
    struct unit_barrier bar;
    unsigned char *ctl;
};

static struct shmpi_win win;

/* The protocol must hold however long the instruction takes: one in
   sixteen is slow here (a pause before it), so that an exclusive holder
   that did not wait for it would see it land. */
static void one_atomic(struct shared *sh, int rank, int t, int e, int slow)
{
    uint32_t token = shmpi_rma_atomic_enter(&win, t);
    for (int i = 0; i < slow; i++)
        shmpi_cpu_relax();
    atomic_fetch_add_explicit(&sh->mem[t][e], 1, memory_order_relaxed);
    shmpi_rma_atomic_leave(&win, t, token);
    sh->adds[rank][t][e]++;
    sh->atomics[rank]++;
    if (token == SHMPI_ATOMIC_LOCKED)
        sh->locked[rank]++;
}

static void element_wise(struct shared *sh, int rank, int t)
{
    uint64_t v[ELEMS];
    shmpi_rma_acc_lock(&win, t, "unit_acclock");
    for (int e = 0; e < ELEMS; e++)
        v[e] = atomic_load_explicit(&sh->mem[t][e], memory_order_relaxed);
    for (int i = 0; i < 1024; i++)
        shmpi_cpu_relax();
    for (int e = 0; e < ELEMS; e++) {
        uint64_t w = atomic_load_explicit(&sh->mem[t][e],
                                          memory_order_relaxed);
        UCHECK(v[e] == w, "target %d element %d changed from %lu to %lu "
               "inside an exclusive accumulate", t, e, (unsigned long)v[e],
               (unsigned long)w);
        atomic_store_explicit(&sh->mem[t][e], v[e] + 1,
                              memory_order_relaxed);
        sh->adds[rank][t][e]++;
    }
    shmpi_rma_acc_unlock(&win, t);
    sh->sections[rank]++;
}

/* Every member's lease words as a new window has them. */
static void new_round(struct shared *sh, int rank)
{
    unit_barrier(&sh->bar, NPROCS);
    atomic_store(shmpi_rma_my_atomic_on(&win), 0);
    if (rank == 0)
        for (int t = 0; t < NPROCS; t++) {
            struct shmpi_win_ctl *c = shmpi_win_ctl_of(&win, t);
            atomic_store(&c->acc_leased, 0);
            atomic_store(&c->acc_no_leases, 0);
        }
    unit_barrier(&sh->bar, NPROCS);
}

static void body(int rank, void *arg)
{
    struct shared *sh = arg;
    win.magic = SHMPI_MAGIC_WIN;
    win.comm = MPI_COMM_WORLD;
    win.ctl = (struct shmpi_win_ctl *)sh->ctl;
    win.ctl_bytes = shmpi_win_ctl_bytes(NPROCS);
    sh->fence = shmpi_proc.fence_registered;
    uint64_t rnd = 0x452821e638d01377ull * (uint64_t)(rank + 1);
    for (int round = 0; round < ROUNDS; round++) {
        new_round(sh, rank);
        /* one process makes the element-wise accumulates of the round,
           the first one a while after the start, when leases are held */
        int sections = round % NPROCS == rank;
        int first = OPS / 4 + (int)(unit_rand(&rnd) % (OPS / 4));
        int t = 0, run = 0;
        for (int i = 0; i < OPS; i++) {
            uint64_t r = unit_rand(&rnd);
            if (run-- <= 0) { /* a run of atomics on one target */
                t = (int)((r >> 8) % NPROCS);
                run = 1024 + (int)((r >> 16) % 4096);
            }
            if (sections && (i == first || (i > first && r % 128 == 0)))
                element_wise(sh, rank, (int)((r >> 24) % NPROCS));
            else
                one_atomic(sh, rank, t, (int)((r >> 32) % ELEMS),
                           (r >> 40) % 16 == 0 ? 64 : 0);
        }
    }
}

int main(void)
{
    unit_name_ = "unit_acclock";
    struct shared *sh = unit_shared(sizeof *sh);
    sh->ctl = unit_shared(shmpi_win_ctl_bytes(NPROCS) * NPROCS);
    int failed = unit_job(NPROCS, body, sh);
    uint64_t sections = 0, atomics = 0, locked = 0;
    for (int t = 0; t < NPROCS && !failed; t++)
        for (int e = 0; e < ELEMS; e++) {
            uint64_t want = 0;
            for (int p = 0; p < NPROCS; p++)
                want += sh->adds[p][t][e];
            UCHECK(sh->mem[t][e] == want, "target %d element %d: %lu, "
                   "expected %lu (an update was lost)", t, e,
                   (unsigned long)sh->mem[t][e], (unsigned long)want);
        }
    for (int p = 0; p < NPROCS; p++) {
        sections += sh->sections[p];
        atomics += sh->atomics[p];
        locked += sh->locked[p];
    }
    printf("unit_acclock: %d processes, %d rounds, %lu atomics (%lu backed "
           "off to the shared lock), %lu element-wise; leases %s: %s\n",
           NPROCS, ROUNDS, (unsigned long)atomics, (unsigned long)locked,
           (unsigned long)sections,
           sh->fence ? "on (membarrier)" : "never granted (no membarrier)",
           failed ? "FAILED" : "ok");
    return failed;
}
