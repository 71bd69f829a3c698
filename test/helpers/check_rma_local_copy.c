/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_rma_local_copy - the library's own copies from and into a
 * target's window memory (MPI-3.1 11.7): an MPI_Put whose origin, or an
 * MPI_Get whose result buffer, lies in the window bytes a remote put of
 * the same epoch writes is a local access of those bytes; or, with
 * "ok", the same copies from and into other bytes of those pages, which
 * are allowed: a mistake for mpirun --check to report
 * (test/check-rma-local-copy.sh), np = 2.
 *
 *   check_rma_local_copy     in a fence epoch of an MPI_Win_allocate
 *                            window rank 1 puts ints 0-3 and 8-11 of
 *                            rank 0, which then puts its ints 2-3 to
 *                            rank 1 and gets rank 1's int 600 into its
 *                            int 9: 2 problems (one per remote put)
 *   check_rma_local_copy ok  rank 0 puts its ints 100-101 and gets into
 *                            its int 200, on the same page
 *
 * Every value a correct access moves is checked after the epoch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

static void expect(int got, int want, const char *what)
{
    if (got != want) {
        fprintf(stderr, "check_rma_local_copy: %s: %d, expected %d\n", what,
                got, want);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    int ok = argc > 1 && strcmp(argv[1], "ok") == 0, rank, *mem;
    int src[4] = {1, 2, 3, 4};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(1024 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &mem, &win);
    for (int i = 0; i < 1024; i++)
        mem[i] = 1000 * rank + i;
    MPI_Win_fence(0, win);
    if (rank == 1) {
        MPI_Put(src, 4, MPI_INT, 0, 0, 4, MPI_INT, win);
        MPI_Put(src, 4, MPI_INT, 0, 8, 4, MPI_INT, win);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the put made, the epoch open */
    if (rank == 0) {
        /* the origin and the result in window memory: the library's
           copies, on the page the put protects */
        MPI_Put(&mem[ok ? 100 : 2], 2, MPI_INT, 1, 500, 2, MPI_INT, win);
        MPI_Get(&mem[ok ? 200 : 9], 1, MPI_INT, 1, 600, 1, MPI_INT, win);
    }
    MPI_Win_fence(0, win);
    if (rank == 0) {
        expect(mem[0], 1, "the put's int 0");
        expect(mem[3], 4, "the put's int 3");
        if (ok)
            expect(mem[200], 1600, "the get's result");
    } else if (ok) {
        expect(mem[500], 100, "int 500, put from rank 0's int 100");
        expect(mem[501], 101, "int 501, put from rank 0's int 101");
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
