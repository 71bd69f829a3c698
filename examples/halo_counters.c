/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * halo_counters.c - a halo exchange with MPI_Put, signalled by shmpi's
 * RMA synchronization counters instead of a fence, PSCW or a lock.
 *
 * The ranks form a ring.  Each owns N cells and keeps, on each side, a
 * halo of H cells: copies of its neighbour's boundary cells.  Every step
 * a rank computes its cells, then puts its first H cells into its left
 * neighbour's right halo and its last H into its right neighbour's left
 * halo.  Two counters per rank, each signalled once by both neighbours
 * every step, say when it may go on:
 *
 *   FREE  "I am done reading my halo: you may write it"
 *   FULL  "I have put your halo"
 *
 * A signal is one atomic decrement in shared memory: no message, no
 * barrier.  Every rank checks every halo cell of every step and prints
 * a checksum of what it received.  Build and run, from the top of the
 * source tree:
 *
 *     make
 *     ./mpicc -o halo_counters examples/halo_counters.c
 *     ./mpirun -np 4 ./halo_counters
 *
 * The counters are a shmpi extension (man -l man/man7/shmpi_sync.7 tells
 * the rules, and how to write the same exchange with PSCW elsewhere).
 */
#include <mpi.h>
#include <stdio.h>

#ifndef SHMPI_SYNC_COUNTERS
#error "this example needs shmpi's RMA synchronization counters"
#endif

enum { N = 64, H = 4, STEPS = 1000 };
enum { FREE, FULL };                    /* my two counters */
enum { LEFT, RIGHT };                   /* my two neighbours */

/* What rank r's cell i holds after step s: a formula, so that the
   receiver can check every halo cell. */
static long value(int r, int s, int i) { return r * 1000000L + s * 100L + i; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int nb[2] = {(rank + size - 1) % size, (rank + 1) % size};

    /* cells[0, H): left halo; [H, H + N): mine; [H + N, 2H + N): right halo */
    long *cells;
    MPI_Win win;
    MPI_Win_allocate((2 * H + N) * sizeof(long), sizeof(long), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &cells, &win);

    /* My counters (local, not collective), and my neighbours': handles
       travel as MPI_HANDLE_SYNC.  Tags keep the two apart when both
       neighbours are one process (np = 2). */
    MPI_Sync mine[2], theirs[2][2];     /* theirs[LEFT or RIGHT][FREE or FULL] */
    MPI_Win_alloc_sync_objects(2, mine, win, MPI_INFO_NULL);
    MPI_Sendrecv(mine, 2, MPI_HANDLE_SYNC, nb[RIGHT], 0, theirs[LEFT], 2,
                 MPI_HANDLE_SYNC, nb[LEFT], 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(mine, 2, MPI_HANDLE_SYNC, nb[LEFT], 1, theirs[RIGHT], 2,
                 MPI_HANDLE_SYNC, nb[RIGHT], 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    /* Persistent requests, built once:
       wait_for[c]  completes when my counter c has had its 2 signals;
       say_free[n]  signals neighbour n's FREE (sync_mode 0: no RMA);
       put_done[n]  covers my puts to n, then signals n's FULL. */
    MPI_Request wait_for[2], say_free[2], put_done[2];
    for (int c = FREE; c <= FULL; c++)
        MPI_Win_sync_object_init(mine[c], 2, win, MPI_INFO_NULL, &wait_for[c]);
    for (int n = LEFT; n <= RIGHT; n++) {
        MPI_Win_sync_ops_init(nb[n], 0, theirs[n][FREE], win, MPI_INFO_NULL,
                              &say_free[n]);
        MPI_Win_sync_ops_init(nb[n], MPI_MODE_WIN_PUT, theirs[n][FULL], win,
                              MPI_INFO_NULL, &put_done[n]);
    }

    unsigned long checksum = 0;
    for (int s = 0; s < STEPS; s++) {
        /* Arm both counters: each start ADDS 2, so a signal that a
           neighbour already one step ahead sent early is kept. */
        MPI_Startall(2, wait_for);

        /* Compute.  A real stencil reads the halo here: the last read. */
        for (int i = 0; i < N; i++)
            cells[H + i] = value(rank, s, i);

        /* Tell both neighbours my halo is free.  The signal is sent when
           the request completes, so complete it. */
        MPI_Startall(2, say_free);
        MPI_Waitall(2, say_free, MPI_STATUSES_IGNORE);

        /* Wait until both neighbours' halos are free, then fill them.
           Started put_done requests open the access epoch the puts need. */
        MPI_Wait(&wait_for[FREE], MPI_STATUS_IGNORE);
        MPI_Startall(2, put_done);
        MPI_Put(&cells[H], H, MPI_LONG, nb[LEFT], H + N, H, MPI_LONG, win);
        MPI_Put(&cells[N], H, MPI_LONG, nb[RIGHT], 0, H, MPI_LONG, win);
        MPI_Waitall(2, put_done, MPI_STATUSES_IGNORE);  /* signals FULL */

        /* Both neighbours have put into my halo: check it. */
        MPI_Wait(&wait_for[FULL], MPI_STATUS_IGNORE);
        for (int j = 0; j < H; j++) {
            long l = value(nb[LEFT], s, N - H + j), r = value(nb[RIGHT], s, j);
            if (cells[j] != l || cells[H + N + j] != r) {
                fprintf(stderr, "rank %d, step %d, halo cell %d: got %ld %ld, "
                        "expected %ld %ld\n", rank, s, j, cells[j],
                        cells[H + N + j], l, r);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            checksum += (unsigned long)(cells[j] + cells[H + N + j]);
        }
    }
    printf("rank %d: %d steps, %d halo cells checked, checksum %lu: ok\n",
           rank, STEPS, STEPS * 2 * H, checksum);

    /* Every signal sent has been waited for: free in reverse order. */
    for (int k = 0; k < 2; k++) {
        MPI_Request_free(&wait_for[k]);
        MPI_Request_free(&say_free[k]);
        MPI_Request_free(&put_done[k]);
    }
    MPI_Win_free_sync_objects(2, mine, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
