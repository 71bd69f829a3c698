/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fence.c - MPI_Win_fence (MPI-3.1 11.5.1).
 *
 * A fence must (a) complete at their targets the RMA calls of the epoch
 * it ends before a target leaves its fence, and (b) keep the RMA calls of
 * the epoch it starts away from a target window until its owner has
 * entered the fence.  RMA calls complete when they return (win.h), so
 * (a) needs no waiting for operations, only that every origin has
 * arrived; and (b) that every target has.  Both are one barrier over the
 * window's communicator (the shared-memory MPI_Barrier of coll/): its
 * release/acquire pairs also publish each process's stores - puts into
 * others' windows and local stores into its own - to every process that
 * leaves it, so no separate memory fence is needed around it.
 *
 * What the asserts (11.5.5) let this implementation skip:
 *   MPI_MODE_NOPRECEDE and MPI_MODE_NOSUCCEED together: the fence ends
 *     no epoch and starts none - there is nothing to order, and both
 *     asserts must be given by every process, so all skip the barrier
 *     together; a memory fence is kept for load/store users of shared
 *     windows.
 *   MPI_MODE_NOPRECEDE alone: still the barrier.  It removes (a), but
 *     (b) remains: an origin may put only after the target entered the
 *     fence, which the origin can learn only by waiting for it.
 *   MPI_MODE_NOSUCCEED alone: still the barrier, for (a); it closes the
 *     access epoch, so RMA calls until the next synchronization are
 *     MPI_ERR_RMA_SYNC.
 *   MPI_MODE_NOSTORE, MPI_MODE_NOPUT: nothing to skip.  They matter where
 *     caches must be written back or invalidated around a fence; here the
 *     window is coherent memory (MPI_WIN_UNIFIED) and the barrier's own
 *     ordering is all there is.  Accepted and checked, not used.
 * Any other bit is MPI_ERR_ASSERT.  NOPRECEDE after RMA calls of this
 * process since the last fence is an assertion this process knows to be
 * false: MPI_ERR_RMA_SYNC.
 *
 * The epoch rules (epoch.c): a fence may not come inside a PSCW, lock or
 * lock_all access epoch, nor inside an exposure epoch of MPI_Win_post.
 */
#include "coll/coll.h"
#include "rma/sync.h"

#include "core/check.h"
#include "core/pmpi.h"

SHMPI_WEAK_ALIAS(Win_fence)

#define FENCE_ASSERTS                                                     \
    (MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE |             \
     MPI_MODE_NOSUCCEED)

static int check_fence_allowed(MPI_Win win, int assert, const char *fn)
{
    if (win->access != SHMPI_EPOCH_NONE && win->access != SHMPI_EPOCH_FENCE)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "called inside %s: fence epochs may not "
                               "overlap other access epochs (11.5); end "
                               "it first", shmpi_rma_epoch_name(win));
    if (win->post_group != MPI_GROUP_NULL)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "called inside the exposure epoch of "
                               "MPI_Win_post: exposure epochs may not "
                               "overlap (11.5); call MPI_Win_wait first");
    if ((assert & MPI_MODE_NOPRECEDE) && win->fence_open)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "MPI_MODE_NOPRECEDE asserts that this fence "
                               "completes no RMA calls, but this process "
                               "made some since the last MPI_Win_fence");
    return MPI_SUCCESS;
}

int PMPI_Win_fence(int assert, MPI_Win win)
{
    static const char fn[] = "MPI_Win_fence";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_rma_check_win(win, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_rma_check_assert(win, assert, FENCE_ASSERTS, fn);
    if (rc == MPI_SUCCESS)
        rc = check_fence_allowed(win, assert, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (shmpi_core_checking()) {
        shmpi_rma_origin_complete(win, -1, fn);
        shmpi_rma_conflict_fence(win);
        shmpi_rma_local_enter(win);
    }
    int nothing_to_order = (assert & (MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED))
                           == (MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED);
    if (nothing_to_order)
        atomic_thread_fence(memory_order_seq_cst);
    else
        rc = shmpi_coll_barrier_as(win->comm, fn);
    if (shmpi_core_checking())
        shmpi_rma_local_fence(win); /* the ended epoch's pages back, the
                                       next one's accesses armed */
    if (rc != MPI_SUCCESS)
        return rc;
    /* no other thread of this process calls fence on win now (a
       collective, 11.5.1), but another may open a passive-target epoch
       on win after this fence's barrier: win->lock orders the two */
    shmpi_core_lock(&win->lock);
    shmpi_rma_set_access(win, assert & MPI_MODE_NOSUCCEED ? SHMPI_EPOCH_NONE
                                                          : SHMPI_EPOCH_FENCE);
    atomic_store_explicit(&win->fence_open, 0, memory_order_relaxed);
    shmpi_core_unlock(&win->lock);
    return MPI_SUCCESS;
}
