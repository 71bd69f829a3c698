/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_rma_xorigin - RMA accesses of two origins to the same target
 * bytes in one epoch that MPI-3.1 11.7.1 makes erroneous, or, with "ok",
 * the same program corrected: a mistake for mpirun --check to report
 * (test/check-rma.sh), np = 3, rank 2 the target.
 *
 *   check_rma_xorigin     in a fence epoch ranks 0 and 1 put to the same
 *                         bytes of rank 2; in an MPI_Win_lock_all epoch
 *                         rank 0 puts, and rank 1 accumulates into the
 *                         same bytes before rank 0 flushed: 2 problems
 *   check_rma_xorigin ok  the fence epoch's puts go to disjoint bytes;
 *                         rank 0 flushes before rank 1 accumulates (a
 *                         barrier orders the two); both ranks accumulate
 *                         with MPI_SUM into the same bytes at once
 */
#include <string.h>

#include "mpi.h"

static int src[4] = {1, 2, 3, 4};
static int mem[16];

static void fence(MPI_Win win, int rank, int ok)
{
    MPI_Win_fence(0, win);
    if (rank < 2)
        MPI_Put(src, 4, MPI_INT, 2, ok ? 4 * rank : 2 * rank, 4, MPI_INT,
                win);
    MPI_Win_fence(0, win);
}

static void passive(MPI_Win win, int rank, int ok)
{
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(src, 4, MPI_INT, 2, 8, 4, MPI_INT, win);
        if (ok)
            MPI_Win_flush(2, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Accumulate(src, 4, MPI_INT, 2, 8, 4, MPI_INT, MPI_SUM, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    /* accumulates of one op and type may overlap, from any origins */
    MPI_Win_lock_all(0, win);
    if (rank < 2)
        MPI_Accumulate(src, 4, MPI_INT, 2, 0, 4, MPI_INT, MPI_SUM, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_unlock_all(win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, ok = argc > 1 && strcmp(argv[1], "ok") == 0;
    MPI_Win win;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(mem, rank == 2 ? sizeof mem : 0, sizeof mem[0],
                   MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    fence(win, rank, ok);
    passive(win, rank, ok);
    MPI_Win_free(&win);
    return MPI_Finalize();
}
