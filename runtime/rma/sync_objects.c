/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_objects.c - MPI_Win_alloc_sync_objects, MPI_Win_free_sync_objects
 * and the handle conversions of sync counters (shmpi_sync(7)).
 *
 * Both calls are local: a counter belongs to the process that allocated
 * it and to one window; other processes learn its handle by message
 * (MPI_HANDLE_SYNC).
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/sync_counter.h"

SHMPI_WEAK_ALIAS(Win_alloc_sync_objects)
SHMPI_WEAK_ALIAS(Win_free_sync_objects)
SHMPI_WEAK_ALIAS(Sync_counter_f2c)
SHMPI_WEAK_ALIAS(Sync_counter_c2f)

static int check_array(MPI_Win win, int n, const MPI_Sync *counters,
                       const char *fn)
{
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (n < 0)
        return shmpi_win_raise(win, MPI_ERR_COUNT, fn,
                               "n_sync %d is negative", n);
    if (n > 0 && !counters)
        return shmpi_win_raise(win, MPI_ERR_ARG, fn, "sync_counters is NULL");
    return MPI_SUCCESS;
}

int PMPI_Win_alloc_sync_objects(int n_sync, MPI_Sync *sync_counters,
                                MPI_Win win, MPI_Info info)
{
    static const char *fn = "MPI_Win_alloc_sync_objects";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_array(win, n_sync, sync_counters, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (info != MPI_INFO_NULL && !shmpi_info_ok(info))
        return shmpi_win_raise(win, MPI_ERR_INFO, fn,
                               "info is not a valid info object");
    char err[192];
    if (shmpi_rma_sync_alloc(win, n_sync, sync_counters, err, sizeof err) !=
        MPI_SUCCESS)
        return shmpi_win_raise(win, MPI_ERR_NO_MEM, fn, "%s", err);
    return MPI_SUCCESS;
}

/* Every entry a counter this process may free now, or the error. */
static int check_freeable(MPI_Win win, int n, const MPI_Sync *counters,
                          const char *fn)
{
    for (int i = 0; i < n; i++) {
        if (!shmpi_rma_sync_mine(win, counters[i]))
            return shmpi_win_raise(win, MPI_ERR_ARG, fn,
                                   "sync_counters[%d] (%d) is not a live "
                                   "counter this process allocated on this "
                                   "window", i, counters[i]);
        if (shmpi_rma_sync_own_of(counters[i])->armer)
            return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                                   "sync_counters[%d] is armed by an active "
                                   "MPI_Win_sync_object_init request: wait "
                                   "for it (or free it) first", i);
    }
    return MPI_SUCCESS;
}

int PMPI_Win_free_sync_objects(int n_sync, MPI_Sync *sync_counters,
                               MPI_Win win)
{
    static const char *fn = "MPI_Win_free_sync_objects";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_array(win, n_sync, sync_counters, fn);
    if (rc != MPI_SUCCESS ||
        (rc = check_freeable(win, n_sync, sync_counters, fn)) != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < n_sync; i++) {
        shmpi_rma_sync_release(sync_counters[i], fn);
        sync_counters[i] = MPI_SYNC_NULL;
    }
    return MPI_SUCCESS;
}

/* A handle is already an integer that means the same everywhere. */
MPI_Sync PMPI_Sync_counter_f2c(MPI_Fint sync_counter)
{
    return (MPI_Sync)sync_counter;
}

MPI_Fint PMPI_Sync_counter_c2f(MPI_Sync sync_counter)
{
    return (MPI_Fint)sync_counter;
}
