/* unit_lockword: the RMA lock words (rma/lockword.c), four processes on two CPUs taking shared, exclusive and lock_all locks of every member: mutual exclusion, no lost update, no lost wake-up. */
/* shmpi-test: unit timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NPROCS processes share one window's control segment (struct
 * shmpi_win_ctl per member, as MPI_Win_create lays it out) and take its
 * lock words with shmpi_rma_word_lock / unlock: the passive-target lock
 * (acc 0) and the accumulate lock (acc 1), of a pseudo-random member,
 * shared or exclusive, and now and then the lock_all of lock.c (the
 * passive-target lock of every member, shared, in rank order).  With
 * more processes than CPUs and SHMPI_SPIN_US=0 SHMPI_YIELDS=0, a waiter
 * sleeps on its doorbell at once: every contended take goes the slow
 * way of lockword.c (lock_waiting, sleepers, the unlocker's ring).
 *
 * Each lock word guards a record in shared memory.  An exclusive holder
 * checks that nobody else holds the word (a count of exclusive and one
 * of shared holders, kept with atomics beside the record), then adds 1 to
 * two plain counters of the record, one after the other, with a pause in
 * between; a shared holder checks that no exclusive holder is in and that
 * the two counters are equal.  At the end each record's counters must
 * equal the number of exclusive sections all processes made on it: a
 * section that overlapped another would have lost an update.  A lost
 * wake-up leaves a waiter asleep for ever: the watchdog of unit.h.
 */
#include "unit.h"

#include "rma/sync.h"

#define NPROCS 4
#define OPS 200000              /* lock/unlock pairs per process */

struct guarded {
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t excl, shared;
    _Atomic uint64_t a, b;      /* relaxed: updated under the lock only */
};

struct shared {
    struct guarded rec[NPROCS][2];    /* [member][acc] */
    _Atomic uint64_t excl_done[NPROCS][NPROCS][2]; /* [proc][member][acc] */
    _Atomic uint64_t lock_alls[NPROCS];
    unsigned char *ctl;               /* the window's control segment */
};

static struct shmpi_win win;

static void make_window(struct shared *sh)
{
    win.magic = SHMPI_MAGIC_WIN;
    win.comm = MPI_COMM_WORLD;
    win.ctl = (struct shmpi_win_ctl *)sh->ctl;
    win.ctl_bytes = shmpi_win_ctl_bytes(NPROCS);
}

static void exclusive_section(struct guarded *g)
{
    UCHECK(atomic_fetch_add(&g->excl, 1) == 0,
           "two exclusive holders of one lock word");
    UCHECK(atomic_load(&g->shared) == 0,
           "an exclusive holder with %u shared ones", atomic_load(&g->shared));
    uint64_t a = atomic_load_explicit(&g->a, memory_order_relaxed);
    atomic_store_explicit(&g->a, a + 1, memory_order_relaxed);
    for (int i = 0; i < 32; i++)
        shmpi_cpu_relax();
    uint64_t b = atomic_load_explicit(&g->b, memory_order_relaxed);
    UCHECK(a == b, "an exclusive holder found the record torn (%lu, %lu)",
           (unsigned long)a, (unsigned long)b);
    atomic_store_explicit(&g->b, b + 1, memory_order_relaxed);
    atomic_fetch_sub(&g->excl, 1);
}

static void shared_enter(struct guarded *g)
{
    atomic_fetch_add(&g->shared, 1);
    UCHECK(atomic_load(&g->excl) == 0,
           "a shared holder while an exclusive one is in");
    uint64_t a = atomic_load_explicit(&g->a, memory_order_relaxed);
    uint64_t b = atomic_load_explicit(&g->b, memory_order_relaxed);
    UCHECK(a == b, "a shared holder found the record torn (%lu, %lu)",
           (unsigned long)a, (unsigned long)b);
}

static void shared_leave(struct guarded *g)
{
    atomic_fetch_sub(&g->shared, 1);
}

static void lock_all(struct shared *sh)
{
    for (int t = 0; t < NPROCS; t++) {
        shmpi_rma_word_lock(&win, t, 0, 0);
        shared_enter(&sh->rec[t][0]);
    }
    for (int t = 0; t < NPROCS; t++)
        shmpi_cpu_relax();
    for (int t = NPROCS - 1; t >= 0; t--) {
        shared_leave(&sh->rec[t][0]);
        shmpi_rma_word_unlock(&win, t, 0, 0);
    }
}

static void body(int rank, void *arg)
{
    struct shared *sh = arg;
    make_window(sh);
    uint64_t rnd = 0x9e3779b97f4a7c15ull * (uint64_t)(rank + 1);
    for (int i = 0; i < OPS; i++) {
        uint64_t r = unit_rand(&rnd);
        if (r % 32 == 0) {
            lock_all(sh);
            sh->lock_alls[rank]++;
            continue;
        }
        int t = (int)((r >> 8) % NPROCS), acc = (int)((r >> 16) & 1);
        int excl = (r >> 17) % 3 != 0;
        struct guarded *g = &sh->rec[t][acc];
        shmpi_rma_word_lock(&win, t, acc, excl);
        if (excl) {
            exclusive_section(g);
            sh->excl_done[rank][t][acc]++;
        } else {
            shared_enter(g);
            shmpi_cpu_relax();
            shared_leave(g);
        }
        shmpi_rma_word_unlock(&win, t, acc, excl);
    }
}

int main(void)
{
    unit_name_ = "unit_lockword";
    /* waiters sleep at once: the doorbell path on every contended take */
    setenv("SHMPI_SPIN_US", "0", 1);
    setenv("SHMPI_YIELDS", "0", 1);
    struct shared *sh = unit_shared(sizeof *sh);
    sh->ctl = unit_shared(shmpi_win_ctl_bytes(NPROCS) * NPROCS);
    int failed = unit_job(NPROCS, body, sh);
    uint64_t sections = 0, alls = 0;
    for (int t = 0; t < NPROCS && !failed; t++)
        for (int acc = 0; acc < 2; acc++) {
            uint64_t want = 0;
            for (int p = 0; p < NPROCS; p++)
                want += sh->excl_done[p][t][acc];
            struct guarded *g = &sh->rec[t][acc];
            UCHECK(g->a == want && g->b == want,
                   "member %d, %s: %lu and %lu updates of %lu exclusive "
                   "sections", t, acc ? "acc_lock" : "lock",
                   (unsigned long)g->a, (unsigned long)g->b,
                   (unsigned long)want);
            struct shmpi_win_ctl *c =
                (struct shmpi_win_ctl *)(sh->ctl +
                                         (size_t)t *
                                             shmpi_win_ctl_bytes(NPROCS));
            UCHECK(c->lock == 0 && c->acc_lock == 0 && c->lock_sleepers == 0 &&
                       c->acc_sleepers == 0 && c->lock_waiting == 0,
                   "member %d: lock words not back to 0", t);
            sections += want;
        }
    for (int p = 0; p < NPROCS; p++)
        alls += sh->lock_alls[p];
    printf("unit_lockword: %d processes, %lu exclusive sections, %lu "
           "lock_all: %s\n", NPROCS, (unsigned long)sections,
           (unsigned long)alls, failed ? "FAILED" : "ok");
    return failed;
}
