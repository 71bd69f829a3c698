/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * flush.c - MPI_Win_flush, MPI_Win_flush_all, MPI_Win_flush_local,
 * MPI_Win_flush_local_all and MPI_Win_sync (MPI-3.1 11.5.4).
 *
 * "All flush and sync functions can be called only within passive target
 * epochs": each checks that this process is in a MPI_Win_lock epoch (for
 * flush and flush_local: one that locked the rank given) or in the epoch
 * of MPI_Win_lock_all, else MPI_ERR_RMA_SYNC.  MPI_PROC_NULL is accepted
 * by flush and flush_local and does nothing, as by lock and unlock.
 *
 * What is left to do once the check passed is little, because RMA calls
 * complete at the origin and at the target before they return (win.h):
 *
 *   flush, flush_all     a full memory fence (seq_cst).  The stores of
 *                        the puts are already made; the fence orders them
 *                        before every later load and store of this process
 *                        - store-to-load included, which is what the
 *                        RMA forms of Dekker-style algorithms (put my
 *                        flag, flush, get the other's flag) rely on.
 *                        Always: it also completes the program's own
 *                        stores into shared window memory (11.2.3: "by
 *                        calling MPI_WIN_FLUSH"), which nothing tracks.
 *   flush_local,         nothing: completion at the origin (buffers
 *   flush_local_all      reusable) happened inside the RMA call.
 *   MPI_Win_sync         the same full fence: in the unified model the
 *                        public and private copies are one memory, and a
 *                        fence is what orders this process's loads and
 *                        stores of it against the others'.  It is also a
 *                        compiler barrier, so a polling loop around it
 *                        reloads the window each time.
 *
 * flush and sync are also what a program calls in a loop that polls
 * window memory: when ranks outnumber CPUs each one hands the CPU over
 * (shmpi_core_poll_idle), or the rank polled for would wait a time slice.
 */
#include "rma/sync.h"

#include "core/check.h"
#include "core/pmpi.h"
#include "core/wait.h"

SHMPI_WEAK_ALIAS(Win_flush)
SHMPI_WEAK_ALIAS(Win_flush_all)
SHMPI_WEAK_ALIAS(Win_flush_local)
SHMPI_WEAK_ALIAS(Win_flush_local_all)
SHMPI_WEAK_ALIAS(Win_sync)

static int passive(MPI_Win win)
{
    return win->access == SHMPI_EPOCH_LOCK ||
           win->access == SHMPI_EPOCH_LOCK_ALL;
}

/* Any passive-target epoch (flush_all, flush_local_all, sync). */
static int check_passive(MPI_Win win, const char *fn)
{
    int rc = shmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS || passive(win))
        return rc;
    return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                           "called outside a passive-target epoch (this "
                           "process is in %s): flush and sync belong "
                           "between MPI_Win_lock/lock_all and "
                           "MPI_Win_unlock/unlock_all (11.5.4)",
                           shmpi_rma_epoch_name(win));
}

/* A passive-target epoch that covers rank (flush, flush_local);
   *skip is set for MPI_PROC_NULL, which has nothing to flush. */
static int check_target_fully(MPI_Win win, int rank, const char *fn,
                              int *skip)
{
    int rc = shmpi_rma_check_win(win, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_rma_check_rank(win, rank, fn);
    *skip = rank == MPI_PROC_NULL;
    if (rc != MPI_SUCCESS || *skip)
        return rc;
    if (passive(win) && win->epoch_part[rank])
        return MPI_SUCCESS;
    return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                           "target %d is not locked by this process (which "
                           "is in %s): flush belongs between "
                           "MPI_Win_lock(..., %d, ...) or MPI_Win_lock_all "
                           "and the matching unlock (11.5.4)",
                           rank, shmpi_rma_epoch_name(win), rank);
}

/* The good path in one branch - the epoch check's own (win.h; lock_all
   records every target in epoch_part[], so it covers the same epochs); the
   rest is check_target_fully's. */
static inline int check_target(MPI_Win win, int rank, const char *fn,
                               int *skip)
{
    *skip = 0;
    if (__builtin_expect(shmpi_win_ok(win) &&
                             shmpi_rma_epoch_covers(win, rank),
                         1))
        return MPI_SUCCESS;
    return check_target_fully(win, rank, fn, skip);
}

static const char flush_fn[] = "MPI_Win_flush";

static inline int flush(int rank, MPI_Win win)
{
    int skip, rc = check_target(win, rank, flush_fn, &skip);
    if (rc == MPI_SUCCESS && !skip)
        atomic_thread_fence(memory_order_seq_cst);
    shmpi_core_poll_idle();
    return rc;
}

/* Check mode: the flush, then the origin buffers it completed.  Apart,
   and reached by a tail call, so that MPI_Win_flush keeps no register
   for it: 45 instructions a flush with the mode off, 41 without the
   check (2026-11-30, callgrind, 10000 rounds of a one-MPI_LONG MPI_Put
   and MPI_Win_flush to itself in a singleton under MPI_Win_lock_all;
   49 with the check's call after the fence in the body). */
static __attribute__((cold, noinline)) int flush_checked(int rank,
                                                          MPI_Win win)
{
    int rc = flush(rank, win);
    if (rc == MPI_SUCCESS && rank != MPI_PROC_NULL) {
        shmpi_rma_origin_complete(win, rank, flush_fn);
        shmpi_rma_conflict_end(win, rank);
    }
    return rc;
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
    SHMPI_REQUIRE_INIT(flush_fn);
    if (shmpi_core_checking())
        return flush_checked(rank, win);
    return flush(rank, win);
}

/* flush_all and sync: in a passive-target epoch, the full fence. */
static int fence_passive(MPI_Win win, const char *fn)
{
    int rc = check_passive(win, fn);
    if (rc == MPI_SUCCESS)
        atomic_thread_fence(memory_order_seq_cst);
    shmpi_core_poll_idle();
    return rc;
}

int PMPI_Win_flush_all(MPI_Win win)
{
    static const char fn[] = "MPI_Win_flush_all";
    SHMPI_REQUIRE_INIT(fn);
    int rc = fence_passive(win, fn);
    if (rc == MPI_SUCCESS && shmpi_core_checking()) {
        shmpi_rma_origin_complete(win, -1, fn);
        shmpi_rma_conflict_end(win, -1);
    }
    return rc;
}

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    static const char fn[] = "MPI_Win_flush_local";
    SHMPI_REQUIRE_INIT(fn);
    int skip, rc = check_target(win, rank, fn, &skip);
    if (rc == MPI_SUCCESS && !skip && shmpi_core_checking())
        shmpi_rma_origin_complete(win, rank, fn);
    return rc;
}

int PMPI_Win_flush_local_all(MPI_Win win)
{
    static const char fn[] = "MPI_Win_flush_local_all";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_passive(win, fn);
    if (rc == MPI_SUCCESS && shmpi_core_checking())
        shmpi_rma_origin_complete(win, -1, fn);
    return rc;
}

int PMPI_Win_sync(MPI_Win win)
{
    static const char fn[] = "MPI_Win_sync";
    SHMPI_REQUIRE_INIT(fn);
    return fence_passive(win, fn);
}
