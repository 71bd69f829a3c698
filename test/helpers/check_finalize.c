/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_finalize - point-to-point communication and objects left at
 * MPI_Finalize (MPI-3.1 8.7), or, with "ok", the same program corrected:
 * a mistake for mpirun --check to report (test/check.sh), np = 2.
 *
 *   check_finalize      rank 0 sends two messages of tag 5 and one MPI_Isend
 *                       of tag 7 it never waits for; rank 1 receives none
 *                       and posts an MPI_Irecv of tag 6 nobody sends:
 *                       3 problems (unreceived, unmatched, unfinished);
 *                       both allocate a window (rank 0 names it "halo")
 *                       and make a persistent request (rank 0 by
 *                       MPI_Send_init, rank 1 by MPI_Recv_init), and free
 *                       neither: 4 problems more
 *   check_finalize ok   rank 1 receives all three, rank 0 sends the
 *                       tag 6 message, every request is waited for, the
 *                       window and the persistent requests are freed
 */
#include <string.h>

#include "mpi.h"

/* a global: the request never waited for stays reachable, so that the
   sanitizer build's leak check does not end the program */
static MPI_Request r, p;
static MPI_Win w;
static int *base;

int main(int argc, char **argv)
{
    int rank, ok = argc > 1 && strcmp(argv[1], "ok") == 0;
    static int x[3] = {1, 2, 3}, y[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &base, &w);
    if (rank == 0) {
        MPI_Win_set_name(w, "halo");
        MPI_Send_init(&x[0], 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &p);
    } else {
        MPI_Recv_init(&y[0], 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &p);
    }
    if (ok) {
        MPI_Request_free(&p);
        MPI_Win_free(&w);
    }
    if (rank == 0) {
        MPI_Send(&x[0], 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Send(&x[1], 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Isend(&x[2], 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &r);
        if (ok) {
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            MPI_Send(&x[0], 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
        }
    } else if (rank == 1) {
        MPI_Irecv(&y[2], 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &r);
        if (ok) {
            MPI_Recv(&y[0], 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&y[1], 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&y[0], 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    }
    MPI_Finalize();
    return 0;
}
