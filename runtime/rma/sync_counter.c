/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_counter.c - the table of sync counters in the arena
 * (sync_counter.h): allocating and freeing this process's counters,
 * finding the counter a handle names, and the signal - the one atomic
 * add (to the signals word: the counter goes one down) that is the point
 * of the feature.
 *
 * State: the owner's parts are shmpi_proc.rma->sync_own (state.h).
 *
 * Several threads (MPI_THREAD_MULTIPLE).  Signalling is one atomic add
 * on the arena and a doorbell ring: any number of threads, of any
 * processes, may signal one counter at once.  The owner's table changes
 * (allocation, freeing, a window's counters moved) under the rma lock;
 * arming and waiting on one counter are its one request's, which the
 * standard keeps to one thread at a time (a request is not waited for
 * by two threads, 12.4.2).
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/check.h"
#include "core/error.h"
#include "core/proc.h"
#include "core/wait.h"
#include "rma/state.h"
#include "rma/sync_counter.h"

/* The owner's parts of this process's slots, [sync_per_rank]:
   shmpi_proc.rma->sync_own (state.h). */

static uint32_t per_rank(void) { return shmpi_proc.arena->sync_per_rank; }

/* B of sync_counter.h: the bits of the largest index + 1. */
static unsigned index_bits(void)
{
    uint32_t top = shmpi_proc.arena->nranks * per_rank();
    return 32 - (unsigned)__builtin_clz(top);
}

static struct shmpi_sync_slot *slot_at(uint32_t index)
{
    return (struct shmpi_sync_slot *)((char *)shmpi_proc.arena +
                                      shmpi_proc.arena->sync_offset) +
           index;
}

static uint32_t first_own(void)
{
    return (uint32_t)shmpi_proc.rank * per_rank();
}

/* Has rank's table its pages?  A handle names any rank's counter, and a
   wrong one may name a table that was never reserved, whose pages must
   not be touched (shm_arena/arena.h).  acquire: pairs with the owner's
   release in reserve_own, after its fallocate. */
static int has_table(uint32_t rank)
{
    return atomic_load_explicit(
               &shmpi_arena_slot(shmpi_proc.arena, (int)rank)->reserved,
               memory_order_acquire) &
           SHMPI_ARENA_HAS_SYNC;
}

/* This process's counters get their pages at its first counter, not at
   launch: MPI_ERR_NO_MEM, with the message in err, if /dev/shm has no
   room for them. */
static int reserve_own(char *err, size_t errlen)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    if (has_table((uint32_t)shmpi_proc.rank))
        return MPI_SUCCESS;
    if (shmpi_arena_reserve(shmpi_proc.arena_fd,
                            a->sync_offset + (uint64_t)first_own() *
                                                 SHMPI_CACHELINE,
                            shmpi_arena_sync_bytes(a),
                            "this rank's sync counters", err, errlen) != 0)
        return MPI_ERR_NO_MEM;
    atomic_fetch_or_explicit(&shmpi_proc.slot->reserved, SHMPI_ARENA_HAS_SYNC,
                             memory_order_release);
    return MPI_SUCCESS;
}

struct shmpi_sync_slot *shmpi_rma_sync_find(MPI_Sync h, int *owner)
{
    uint32_t index = ((uint32_t)h & ((1u << index_bits()) - 1)) - 1;
    if (h <= 0 || index >= shmpi_proc.arena->nranks * per_rank() ||
        !has_table(index / per_rank()))
        return NULL;
    struct shmpi_sync_slot *s = slot_at(index);
    /* acquire: pairs with the owner's release in shmpi_rma_sync_alloc, so
       win_id is the one this handle was made for */
    if (atomic_load_explicit(&s->handle, memory_order_acquire) !=
        (uint32_t)h)
        return NULL;
    *owner = (int)(index / per_rank());
    return s;
}

static int alloc_locked(MPI_Win win, int n, MPI_Sync *out, char *err,
                        size_t errlen)
{
    struct shmpi_rma_state *rma = shmpi_proc.rma;
    if (!rma->sync_own &&
        !(rma->sync_own = calloc(per_rank(), sizeof *rma->sync_own))) {
        snprintf(err, errlen, "no memory for this process's counters");
        return MPI_ERR_NO_MEM;
    }
    struct shmpi_sync_own *own = rma->sync_own;
    int found = 0;
    for (uint32_t i = 0; i < per_rank() && found < n; i++)
        found += !own[i].used;
    if (found < n) {
        snprintf(err, errlen, "%d more counters do not fit: a process has "
                 "%u (set SHMPI_SYNC_COUNTERS for more)", n, per_rank());
        return MPI_ERR_NO_MEM;
    }
    if (reserve_own(err, errlen) != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
    for (uint32_t i = 0, k = 0; k < (uint32_t)n; i++) {
        if (own[i].used)
            continue;
        struct shmpi_sync_slot *s = slot_at(first_own() + i);
        own[i] = (struct shmpi_sync_own){
            .gen = (own[i].gen + 1) & ((1u << (31 - index_bits())) - 1),
            .used = 1};
        if (!own[i].gen)
            own[i].gen = 1; /* a handle is never 0 (MPI_SYNC_NULL) */
        uint32_t h = own[i].gen << index_bits() |
                     (first_own() + i + 1);
        s->win_id = win->id;
        atomic_store_explicit(&s->signals, 0, memory_order_relaxed);
        /* release: win_id and signals are set before anyone can match h */
        atomic_store_explicit(&s->handle, h, memory_order_release);
        out[k++] = (MPI_Sync)h;
    }
    return MPI_SUCCESS;
}

int shmpi_rma_sync_alloc(MPI_Win win, int n, MPI_Sync *out, char *err,
                         size_t errlen)
{
    shmpi_core_lock(&shmpi_proc.rma->lock);
    int rc = alloc_locked(win, n, out, err, errlen);
    shmpi_core_unlock(&shmpi_proc.rma->lock);
    return rc;
}

struct shmpi_sync_own *shmpi_rma_sync_own_of(MPI_Sync h)
{
    struct shmpi_sync_own *own = shmpi_proc.rma->sync_own;
    int owner;
    struct shmpi_sync_slot *s = shmpi_rma_sync_find(h, &owner);
    if (!s || owner != shmpi_proc.rank)
        return NULL;
    return &own[(uint32_t)(s - slot_at(first_own()))];
}

int shmpi_rma_sync_mine(MPI_Win win, MPI_Sync h)
{
    int owner;
    struct shmpi_sync_slot *s = shmpi_rma_sync_find(h, &owner);
    return s && owner == shmpi_proc.rank && s->win_id == win->id;
}

/* Check mode: a counter freed with signals that no round consumed -
   sent for a round its owner never started (one more than a round
   ahead, MPI_Start already refuses, MPI_ERR_WIN_COUNTER).  Fewer
   signals than armed is no mistake: a restarting request arms the next
   round as it completes one.  acquire: pairs with the signallers'
   release adds, as the owner's polls do. */
static __attribute__((cold)) void check_balance(MPI_Sync h,
                                                const struct shmpi_sync_own *o,
                                                struct shmpi_sync_slot *s,
                                                const char *fn)
{
    int64_t got = atomic_load_explicit(&s->signals, memory_order_acquire);
    if (got > o->armed)
        shmpi_core_check_report(
            "sync counter freed with signals pending",
            "11.5 and shmpi_sync(7)",
            "send each round the count of signals its start arms, or start "
            "the round the signals are for before freeing the counter",
            "counter %d: %lld signals for %lld counts armed by MPI_Start "
            "of its MPI_Win_sync_object_init requests, at %s", (int)h,
            (long long)got, (long long)o->armed, fn);
}

static void release_locked(MPI_Sync h, const char *fn)
{
    struct shmpi_sync_own *own = shmpi_proc.rma->sync_own;
    struct shmpi_sync_own *o = shmpi_rma_sync_own_of(h);
    if (!o)
        return;
    struct shmpi_sync_slot *s = slot_at(first_own() + (uint32_t)(o - own));
    if (shmpi_core_checking())
        check_balance(h, o, s, fn);
    /* relaxed: a signal racing with the free is erroneous (the owner
       frees only counters nobody may still signal); the handle no longer
       matches afterwards, which is what catches it */
    atomic_store_explicit(&s->handle, 0, memory_order_relaxed);
    o->used = 0;
}

void shmpi_rma_sync_release(MPI_Sync h, const char *fn)
{
    shmpi_core_lock(&shmpi_proc.rma->lock);
    release_locked(h, fn);
    shmpi_core_unlock(&shmpi_proc.rma->lock);
}

void shmpi_rma_sync_release_window(MPI_Win win)
{
    shmpi_core_lock(&shmpi_proc.rma->lock);
    struct shmpi_sync_own *own = shmpi_proc.rma->sync_own;
    for (uint32_t i = 0; own && i < per_rank(); i++) {
        struct shmpi_sync_slot *s = slot_at(first_own() + i);
        if (own[i].used && s->win_id == win->id)
            release_locked((MPI_Sync)atomic_load_explicit(
                               &s->handle, memory_order_relaxed),
                           "MPI_Win_free");
    }
    shmpi_core_unlock(&shmpi_proc.rma->lock);
}

void shmpi_rma_sync_move_window(uint64_t old_id, uint64_t new_id)
{
    shmpi_core_lock(&shmpi_proc.rma->lock);
    struct shmpi_sync_own *own = shmpi_proc.rma->sync_own;
    for (uint32_t i = 0; own && i < per_rank(); i++) {
        struct shmpi_sync_slot *s = slot_at(first_own() + i);
        if (own[i].used && s->win_id == old_id)
            s->win_id = new_id; /* nobody else has this window's id yet */
    }
    shmpi_core_unlock(&shmpi_proc.rma->lock);
}

void shmpi_rma_sync_signal(struct shmpi_sync_slot *slot, int owner)
{
    /* release: this process's RMA calls covered by the signal (puts into
       the owner's memory, gets from it) happen before the owner's
       acquire load sees the new count.  seq_cst: this RMW and the
       doorbell's sleepers load make a Dekker pair with the owner's
       sleepers store and re-poll (core/wait.c), so a sleeping owner is
       always woken; while it spins the ring costs one load of a line
       nobody writes. */
    atomic_fetch_add_explicit(&slot->signals, 1, memory_order_seq_cst);
    shmpi_core_doorbell_ring(owner);
}
