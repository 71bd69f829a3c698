/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win_free.c - MPI_Win_free (MPI-3.1 11.2.5).
 *
 * Collective, and a synchronization: once it returns anywhere, no member
 * touches this process's window memory any more, so that the program may
 * free it.  Hence the barrier before anything is unmapped: every member
 * has finished its epochs (checked first, epoch.c) and every RMA call of
 * shmpi completes when it returns, so after the barrier nothing is in
 * flight.  Then the attributes go through their delete callbacks, the
 * window's sync counters of this process are freed (its sync requests
 * live on as handles that can only be freed), peers' memory is unmapped,
 * and this process's memory goes back to what it was (allocated memory
 * unmapped; pages moved for MPI_Win_create or
 * MPI_Win_attach made private again, contents kept).
 */
#include "coll/coll.h"
#include "core/attr.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/sync_counter.h"
#include "rma/win_impl.h"

SHMPI_WEAK_ALIAS(Win_free)

int PMPI_Win_free(MPI_Win *win)
{
    static const char *fn = "MPI_Win_free";
    SHMPI_REQUIRE_INIT(fn);
    if (!win)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "win is NULL");
    MPI_Win w = *win;
    if (!shmpi_win_ok(w))
        return shmpi_win_raise_bad(w, fn);
    int rc = shmpi_rma_epoch_check_closed(w, "freeing the window (11.2.5)",
                                          fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = shmpi_coll_barrier_as(w->comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int cb = shmpi_attr_delete_all(&w->attrs, w);
    if (cb != MPI_SUCCESS)
        rc = shmpi_win_raise(w, cb, fn,
                             "an attribute delete callback returned %d "
                             "(the window is freed all the same)", cb);
    shmpi_rma_sync_window_gone(w);
    /* MPI_T handles bound to it keep their last counts (tool/pvar.c) */
    void (*forget)(const void *) =
        atomic_load_explicit(&shmpi_proc.watch.forget, memory_order_acquire);
    if (forget)
        forget(w);
    shmpi_win_destroy(w);
    *win = MPI_WIN_NULL;
    return rc;
}
