/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_rma_origin - RMA origin buffers written before their operations
 * completed (MPI-3.1 11.3, 11.5), or, with "ok", the same program
 * corrected: a mistake for mpirun --check to report (test/check-rma.sh),
 * np = 2.
 *
 *   check_rma_origin     rank 0 writes the origin buffer of an MPI_Put
 *                        before the MPI_Win_fence that completes it, of
 *                        an MPI_Accumulate before MPI_Win_unlock, of an
 *                        MPI_Get_accumulate before MPI_Win_flush, and of
 *                        an MPI_Put before MPI_Win_complete: 4 problems
 *   check_rma_origin ok  the writes come after the completions; and an
 *                        MPI_Put whose buffer is written after an
 *                        MPI_Win_flush_local, which completed it
 */
#include <string.h>

#include "mpi.h"

static int src[4], res[4];

static void fence_put(MPI_Win win, int rank, int ok)
{
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Put(src, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
        if (!ok)
            src[0] = 99;
    }
    MPI_Win_fence(0, win);
    src[0] = 98;
}

static void lock_acc(MPI_Win win, int ok)
{
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    MPI_Accumulate(src, 4, MPI_INT, 1, 0, 4, MPI_INT, MPI_SUM, win);
    if (!ok)
        src[1] = 99;
    MPI_Win_unlock(1, win);
    src[1] = 98;
}

static void flush_get_acc(MPI_Win win, int ok)
{
    MPI_Win_lock_all(0, win);
    MPI_Get_accumulate(src, 4, MPI_INT, res, 4, MPI_INT, 1, 0, 4, MPI_INT,
                       MPI_SUM, win);
    if (!ok)
        src[2] = 99;
    MPI_Win_flush(1, win);
    src[2] = 98;
    MPI_Put(src, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
    MPI_Win_flush_local(1, win);
    src[3] = 98; /* completed at the origin: allowed */
    MPI_Win_unlock_all(win);
}

static void pscw_put(MPI_Win win, int rank, int ok)
{
    MPI_Group world, peer;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int other = 1 - rank;
    MPI_Group_incl(world, 1, &other, &peer);
    if (rank == 0) {
        MPI_Win_start(peer, 0, win);
        MPI_Put(src, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
        if (!ok)
            src[3] = 99;
        MPI_Win_complete(win);
    } else {
        MPI_Win_post(peer, 0, win);
        MPI_Win_wait(win);
    }
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
}

int main(int argc, char **argv)
{
    int ok = argc > 1 && strcmp(argv[1], "ok") == 0, rank;
    int *mem;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &mem, &win);
    fence_put(win, rank, ok);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        lock_acc(win, ok);
        flush_get_acc(win, ok);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    pscw_put(win, rank, ok);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
