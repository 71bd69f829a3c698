/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_epoch.c - the window's side of sync requests: the sync_ops
 * access epoch, and the list of a window's sync requests that
 * MPI_Win_free and MPI_Win_change_comm look at.
 *
 * The sync_ops epoch (shmpi_sync(7)).  A started sync_ops request whose
 * sync_mode is not 0 is an access epoch to its target for the kinds of
 * call it names: MPI_Put (MPI_MODE_WIN_PUT), MPI_Get (GET), the
 * accumulate family (ACCUMULATE), their request forms included.  The
 * window is then in win->access == SHMPI_EPOCH_SYNC_OPS and
 * win->epoch_part[t] holds the MPI_MODE_WIN_* bits covered for target t
 * (epoch.c checks them); the counts in sync->cover say how many started
 * requests cover each (target, kind), so that the epoch ends with the
 * last of them.  Like the other kinds of access epoch it excludes them:
 * it starts only where MPI_Win_lock could (epoch.c's
 * shmpi_rma_check_no_access), and fence, start, lock and lock_all refuse
 * to start inside it.
 */
#include <stdlib.h>

#include "core/error.h"
#include "rma/sync.h"
#include "rma/sync_counter.h"

static const int kind_bits[3] = {MPI_MODE_WIN_PUT, MPI_MODE_WIN_GET,
                                 MPI_MODE_WIN_ACCUMULATE};

int shmpi_rma_sync_link(MPI_Win win, struct shmpi_sync_req *s)
{
    int rc = MPI_SUCCESS;
    shmpi_core_lock(&win->lock);
    if (!win->sync && !(win->sync = calloc(1, sizeof *win->sync))) {
        rc = MPI_ERR_NO_MEM;
    } else {
        s->next = win->sync->reqs;
        win->sync->reqs = s;
    }
    shmpi_core_unlock(&win->lock);
    return rc;
}

void shmpi_rma_sync_unlink(MPI_Win win, struct shmpi_sync_req *s)
{
    shmpi_core_lock(&win->lock);
    struct shmpi_sync_req **p = &win->sync->reqs;
    while (*p != s)
        p = &(*p)->next;
    *p = s->next;
    shmpi_core_unlock(&win->lock);
}

void shmpi_rma_sync_count_active(MPI_Win win, int by)
{
    shmpi_core_lock(&win->lock);
    win->sync->active += by;
    shmpi_core_unlock(&win->lock);
}

int shmpi_rma_sync_cover(MPI_Win win, int target, int mode, const char *fn)
{
    if (!mode || target == MPI_PROC_NULL)
        return MPI_SUCCESS;
    struct shmpi_win_sync *ws = win->sync;
    int rc;
    /* checked before win->lock, as MPI_Win_lock does (lock.c): errors
       are raised without it */
    if ((rc = shmpi_rma_check_no_access(win, SHMPI_EPOCH_SYNC_OPS, fn)))
        return rc;
    shmpi_core_lock(&win->lock);
    if (!ws->cover &&
        !(ws->cover = calloc((size_t)win->comm->size, sizeof *ws->cover))) {
        shmpi_core_unlock(&win->lock);
        return shmpi_win_raise(win, MPI_ERR_NO_MEM, fn,
                               "no memory for the sync_ops epoch");
    }
    if (win->access != SHMPI_EPOCH_SYNC_OPS) {
        shmpi_rma_set_access(win, SHMPI_EPOCH_SYNC_OPS);
        atomic_store_explicit(&win->fence_open, 0, memory_order_relaxed);
    }
    for (int k = 0; k < 3; k++)
        ws->cover[target][k] += (mode & kind_bits[k]) != 0;
    shmpi_rma_part_set(win, target, (uint8_t)(win->epoch_part[target] | mode));
    ws->covering++;
    shmpi_core_unlock(&win->lock);
    return MPI_SUCCESS;
}

void shmpi_rma_sync_uncover(MPI_Win win, int target, int mode)
{
    if (!mode || target == MPI_PROC_NULL)
        return;
    struct shmpi_win_sync *ws = win->sync;
    shmpi_core_lock(&win->lock);
    for (int k = 0; k < 3; k++)
        if ((mode & kind_bits[k]) && !--ws->cover[target][k])
            shmpi_rma_part_set(win, target, (uint8_t)(win->epoch_part[target] &
                                                      ~kind_bits[k]));
    if (!--ws->covering)
        shmpi_rma_set_access(win, SHMPI_EPOCH_NONE);
    shmpi_core_unlock(&win->lock);
}

int shmpi_rma_sync_check_change(MPI_Win win, const char *fn)
{
    if (!win->sync || !win->sync->active)
        return MPI_SUCCESS;
    return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                           "%d sync request%s made on this window %s still "
                           "active: complete %s (MPI_Wait) or free %s first",
                           win->sync->active,
                           win->sync->active > 1 ? "s" : "",
                           win->sync->active > 1 ? "are" : "is",
                           win->sync->active > 1 ? "them" : "it",
                           win->sync->active > 1 ? "them" : "it");
}

void shmpi_rma_sync_window_gone(MPI_Win win)
{
    shmpi_rma_sync_release_window(win);
    if (!win->sync)
        return;
    for (struct shmpi_sync_req *s = win->sync->reqs; s; s = s->next)
        s->win = NULL; /* MPI_Start says the window was freed */
    free(win->sync->cover);
    free(win->sync);
    win->sync = NULL;
}

void shmpi_rma_sync_retarget(MPI_Win win, const int *new_rank_of_old)
{
    if (!win->sync)
        return;
    for (struct shmpi_sync_req *s = win->sync->reqs; s; s = s->next)
        if (s->is_ops && s->target != MPI_PROC_NULL)
            s->target = new_rank_of_old[s->target];
    /* no request is active (shmpi_rma_sync_check_change): nothing covered */
    free(win->sync->cover);
    win->sync->cover = NULL;
}
