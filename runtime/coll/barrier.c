/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * barrier.c - MPI_Barrier.
 *
 * Two algorithms on the communicator's area, one chosen for the whole
 * job (SHMPI_COLL_BARRIER; area.c):
 *
 * Dissemination (the default while every rank has a CPU): in round k =
 * 0 .. ceil(log2 n) - 1 each member stores its own word (seq, k + 1) and
 * waits for the word of member rank - 2^k to reach it.  After round k a
 * member has heard, directly or through others, from the 2^(k+1) - 1
 * members below it, so after the last round from everyone.  At n = 2 this
 * is one store to a line of one's own and one poll of the other's: one
 * cache-line crossing, no atomic read-modify-write, nothing shared
 * written by two cores.  Words only grow, so a member already in the next
 * barrier (or the next collective) never hides a signal.
 *
 * Counter (the default when ranks outnumber CPUs): each member adds
 * itself to the head's `arrived`; the last resets it and advances
 * `generation`, which the others wait for.  Every member has to run only
 * once to arrive and once to leave, where dissemination needs each to run
 * in each of its rounds: with 8 ranks on 2 cores that is what counts
 * (context switches, not cache lines).  Memory ordering as in any counter
 * barrier: fetch_add(arrived) is acq_rel (the fetch_adds form one release
 * sequence, so the last arriver acquires every member's earlier stores),
 * the reset of `arrived` precedes the release store of the new
 * generation, and a member can arrive at the next barrier only after
 * acquiring that generation, so it never adds to an unreset counter.
 * The member still stores its word first: a writer claiming a half later
 * may be waiting for it (the reuse rule, coll.h).
 *
 * Doorbells: in dissemination round k the member rings rank + 2^k after
 * its own wait of that round, not before: the store it rings for was made
 * before the wait, and the wait depends only on stores of rounds <= k,
 * which every member makes before it waits in that round - so nobody
 * sleeping on this member can be what this wait needs, and the fence of
 * the ring overlaps the cache-line transfer instead of preceding it.
 * The last arriver of the counter barrier rings everyone.  A barrier also
 * settles what a member owed (coll.h): whoever claims a half after the
 * barrier has, through the barrier, already seen this member's word.
 *
 * A barrier needs no data slot, so it does not touch the halves; after it
 * every member knows that all finished the previous collective.
 * Communicators without an area use messages (fallback.c);
 * intercommunicators, the schedule of coll/ibarrier.c.
 */
#include <stdio.h>

#include "coll/check.h"
#include "coll/coll.h"
#include "coll/fallback.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "core/wait.h"
#include "coll/data.h"
#include "pt2pt/progress.h"

SHMPI_WEAK_ALIAS(Barrier)

static void dissemination(struct shmpi_coll *c)
{
    int n = c->size, r = c->rank;
    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        shmpi_coll_publish(c, (uint32_t)k + 1);
        shmpi_coll_wait(c, (r - d + n) % n, (uint32_t)k + 1);
        shmpi_coll_ring(c, (r + d) % n);
    }
}

struct generation_wait {
    struct shmpi_coll_head *head;
    uint32_t gen;
    struct shmpi_coll *c;
};

static int generation_moved(void *arg)
{
    struct generation_wait *w = arg;
    if (atomic_load_explicit(&w->head->generation, memory_order_acquire) !=
        w->gen)
        return 1;
    shmpi_p2p_progress();
    return 0;
}

/* For the launcher's wait-for graph (core/wait.h): how many arrived,
   and the first member whose word says it has not (every arriver
   stores (seq, 1) before it counts itself). */
static int describe_generation(void *arg, char *buf, size_t len)
{
    const struct generation_wait *w = arg;
    struct shmpi_coll *c = w->c;
    int missing = shmpi_coll_missing(c, c->seq, 1);
    char state[64];
    snprintf(state, sizeof state, ": %u of its %d ranks arrived",
             atomic_load_explicit(&w->head->arrived, memory_order_relaxed),
             c->size);
    return shmpi_coll_describe(c, missing, state, buf, len);
}

static const struct shmpi_core_waitfor generation_waitfor = {
    generation_moved, describe_generation};

/*
 * Only the last arriver rings, except for one waiter: a member refusing an
 * Allreduce (sync.c, shmpi_coll_refuse) waits for the others' (seq, 1)
 * words, which they store here, and may sleep on its doorbell doing so.
 * It increments `failures` before it looks at the words; we store our word
 * before we look at `failures`.  The seq_cst fences on both sides (there
 * and here) forbid both loads missing the other side's store: either it
 * sees our word, or we see its count - now, or in a scan earlier in this
 * collective, which left it in failed_max - and ring.  Measured at one
 * missed wake-up in about 15 runs of coll_error_sync_ext at np = 4 on 2
 * busy CPUs before this (2026-11-28, a loop of ./mpirun -np 4 on that
 * test); looking only for an unscanned count still missed one in about 7
 * (a scan in the collective's begin had already taken it in).
 */
static void ring_refusers(struct shmpi_coll *c, struct shmpi_coll_head *head)
{
    atomic_thread_fence(memory_order_seq_cst);
    /* a refusal we have not scanned, or one of this collective (or later)
       that an earlier scan - in this collective's begin, say - saw */
    if (atomic_load_explicit(&head->failures, memory_order_relaxed) !=
            c->failures_seen ||
        c->failed_max >= c->seq)
        shmpi_coll_ring(c, SHMPI_COLL_ALL);
}

void shmpi_coll_counter(struct shmpi_coll *c)
{
    struct shmpi_coll_head *head = (struct shmpi_coll_head *)c->area;
    struct generation_wait w = {
        head, atomic_load_explicit(&head->generation, memory_order_acquire),
        c};
    shmpi_coll_publish(c, 1);
    uint32_t n = atomic_fetch_add_explicit(&head->arrived, 1,
                                           memory_order_acq_rel) + 1;
    if (n != (uint32_t)c->size) {
        ring_refusers(c, head);
        shmpi_core_wait_for(&generation_waitfor, &w, SHMPI_WAIT_ALL_LANES);
        return;
    }
    atomic_store_explicit(&head->arrived, 0, memory_order_relaxed);
    atomic_store_explicit(&head->generation, w.gen + 1, memory_order_release);
    shmpi_coll_ring(c, SHMPI_COLL_ALL);
}

void shmpi_coll_barrier(struct shmpi_coll *c)
{
    shmpi_coll_begin(c);
    c->owe_all = 0; /* settled by the barrier itself: see above */
    if (shmpi_proc.coll_tune.counter_barrier)
        shmpi_coll_counter(c);
    else
        dissemination(c);
    c->known_done = c->seq - 1;
}

/* Inlined into MPI_Barrier: a call less on its path (callgrind, 2026-11-30:
   4 instructions a barrier at np = 2 as a call of its own, 2 inlined -
   the stores of shmpi_coll_calling). */
static inline __attribute__((always_inline)) int
barrier_as(MPI_Comm comm, const char *fn)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, MPI_OP_NULL, 0, NULL);
    if (comm->is_inter)
        return shmpi_nbc_blocking(comm, shmpi_nbc_data_barrier, NULL, fn);
    if (comm->size == 1)
        return MPI_SUCCESS;
    if (!comm->coll)
        return shmpi_coll_fb_barrier(comm, fn);
    shmpi_coll_calling(comm->coll, fn, -1);
    shmpi_coll_barrier(comm->coll);
    return MPI_SUCCESS;
}

int shmpi_coll_barrier_as(MPI_Comm comm, const char *fn)
{
    return barrier_as(comm, fn);
}

int PMPI_Barrier(MPI_Comm comm)
{
    static const char fn[] = "MPI_Barrier";
    SHMPI_REQUIRE_INIT(fn);
    return barrier_as(comm, fn);
}
