/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_rma_conflict - one origin's RMA accesses to the same target
 * bytes in one epoch that MPI-3.1 11.7.1 makes erroneous, or, with "ok",
 * the same program corrected: a mistake for mpirun --check to report
 * (test/check-rma.sh), np = 2.
 *
 *   check_rma_conflict     rank 0, in an MPI_Win_lock_all epoch, gets
 *                          bytes it put before without a flush between,
 *                          and accumulates into them with MPI_SUM and
 *                          then MPI_MAX; in a fence epoch it puts twice
 *                          to overlapping bytes: 3 problems
 *   check_rma_conflict ok  an MPI_Win_flush between the put and the get;
 *                          both accumulates MPI_SUM; two gets of the same
 *                          bytes; the two puts to disjoint bytes
 */
#include <string.h>

#include "mpi.h"

static int src[4], dst[4];

static void passive(MPI_Win win, int ok)
{
    MPI_Win_lock_all(0, win);
    MPI_Put(src, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
    if (ok)
        MPI_Win_flush(1, win);
    MPI_Get(dst, 4, MPI_INT, 1, 2, 4, MPI_INT, win);
    MPI_Win_flush(1, win);
    MPI_Get(dst, 4, MPI_INT, 1, 2, 4, MPI_INT, win);
    MPI_Get(dst, 4, MPI_INT, 1, 2, 4, MPI_INT, win);
    MPI_Win_flush(1, win);
    MPI_Accumulate(src, 4, MPI_INT, 1, 4, 4, MPI_INT, MPI_SUM, win);
    MPI_Accumulate(src, 4, MPI_INT, 1, 4, 4, MPI_INT, ok ? MPI_SUM : MPI_MAX,
                   win);
    MPI_Win_unlock_all(win);
}

static void fence(MPI_Win win, int rank, int ok)
{
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Put(src, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
        MPI_Put(src, 2, MPI_INT, 1, ok ? 4 : 3, 2, MPI_INT, win);
    }
    MPI_Win_fence(0, win);
}

/* the target memory: a window over static memory (MPI_Win_create) */
static int mem[8];

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, ok = argc > 1 && strcmp(argv[1], "ok") == 0;
    MPI_Win win;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(mem, sizeof mem, sizeof mem[0], MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    if (rank == 0)
        passive(win, ok);
    MPI_Barrier(MPI_COMM_WORLD);
    fence(win, rank, ok);
    MPI_Win_free(&win);
    return MPI_Finalize();
}
