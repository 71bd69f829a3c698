/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_sync_counter - a sync counter (shmpi_sync(7)) freed with
 * signals no round consumed, or, with "ok", the same program corrected:
 * a mistake for mpirun --check to report (test/check-rma.sh), np = 2.
 *
 *   check_sync_counter     rank 1 signals rank 0's first counter twice
 *                          in a round armed with count 1 (the second
 *                          signal for a round never started) and its
 *                          second counter twice in a round armed with 2;
 *                          rank 0 frees both counters: 1 problem
 *   check_sync_counter ok  one signal for the first
 */
#include <string.h>

#include "mpi.h"

/* rank 1: n bare signals (sync_mode 0) to rank 0's counter c */
static void signal_n(MPI_Sync c, int n, MPI_Win win)
{
    MPI_Request r;
    MPI_Win_sync_ops_init(0, 0, c, win, MPI_INFO_NULL, &r);
    for (int i = 0; i < n; i++) {
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&r);
}

int main(int argc, char **argv)
{
    int ok = argc > 1 && strcmp(argv[1], "ok") == 0, rank;
    int *mem;
    MPI_Sync c[2];
    MPI_Request r[2];
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &mem, &win);
    if (rank == 0)
        MPI_Win_alloc_sync_objects(2, c, win, MPI_INFO_NULL);
    MPI_Bcast(c, 2, MPI_HANDLE_SYNC, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_sync_object_init(c[0], 1, win, MPI_INFO_NULL, &r[0]);
        MPI_Win_sync_object_init(c[1], 2, win, MPI_INFO_NULL, &r[1]);
        MPI_Startall(2, r);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* both rounds armed */
    if (rank == 1) {
        signal_n(c[0], ok ? 1 : 2, win);
        signal_n(c[1], 2, win);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* every signal sent */
    if (rank == 0) {
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        MPI_Request_free(&r[0]);
        MPI_Request_free(&r[1]);
        MPI_Win_free_sync_objects(2, c, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
