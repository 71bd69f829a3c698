/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_rma_local - a target's own loads and stores of window bytes that
 * a remote access of the same epoch touches (MPI-3.1 11.7), or, with
 * "ok", the same program corrected: a mistake for mpirun --check to
 * report (test/check-rma-local.sh), np = 2.
 *
 *   check_rma_local     in a fence epoch of an MPI_Win_allocate window
 *                       rank 1 puts ints 0-3 of rank 0, which then
 *                       stores int 1; under MPI_Win_lock_all on an
 *                       MPI_Win_allocate_shared window rank 1 puts ints
 *                       8-11 and tells rank 0, which loads int 9; rank 1
 *                       gets ints 16-19 and tells rank 0, which stores
 *                       int 18: 3 problems
 *   check_rma_local ok  the store comes after the next fence, the load
 *                       after rank 1's MPI_Win_flush and rank 0's
 *                       MPI_Win_sync; rank 0 loads (does not store) int
 *                       18 while the get is pending, which is allowed
 *
 * Both make rank 0 touch, inside each epoch, other ints of the pages
 * the remote accesses touch, which is allowed and must not be reported;
 * every value a correct access sees is checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

static volatile int sink;

static void expect(int got, int want, const char *what)
{
    if (got != want) {
        fprintf(stderr, "check_rma_local: %s: %d, expected %d\n", what, got,
                want);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* Rank 1 puts ints 0-3 of rank 0 in a fence epoch; rank 0 stores int 1
   in the same epoch (wrong) or after the next fence (right). */
static void fence_store(int rank, int ok)
{
    int *mem, src[4] = {1, 2, 3, 4};
    MPI_Win win;
    MPI_Win_allocate(1024 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &mem, &win);
    memset(mem, 0, 1024 * sizeof(int));
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(src, 4, MPI_INT, 0, 0, 4, MPI_INT, win);
    MPI_Barrier(MPI_COMM_WORLD); /* the put made, the epoch open */
    if (rank == 0) {
        mem[100] = 7; /* the same page, other bytes: allowed */
        if (!ok)
            mem[1] = 5;
    }
    MPI_Win_fence(0, win);
    if (rank == 0) {
        if (ok) {
            expect(mem[1], 2, "the put's int 1");
            mem[1] = 5;
        }
        expect(mem[100], 7, "int 100");
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
}

/* Under MPI_Win_lock_all of a shared window: rank 1 puts ints 8-11 and
   gets ints 16-19 of rank 0, telling it after each. */
static void passive(int rank, int ok)
{
    int *mem, src[4] = {10, 11, 12, 13}, dst[4], token = 0;
    MPI_Win win;
    MPI_Win_allocate_shared(1024 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                            MPI_COMM_WORLD, &mem, &win);
    for (int i = 0; i < 1024; i++)
        mem[i] = i;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    if (rank == 1) {
        MPI_Put(src, 4, MPI_INT, 0, 8, 4, MPI_INT, win);
        if (ok)
            MPI_Win_flush(0, win);
        MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Get(dst, 4, MPI_INT, 0, 16, 4, MPI_INT, win);
        MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Win_flush(0, win);
        expect(dst[2], 18, "the get's int 18");
    } else {
        MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sink = mem[200]; /* the same page, other bytes: allowed */
        if (ok) {
            MPI_Win_sync(win);
            expect(mem[9], 11, "the put's int 9");
        } else {
            sink = mem[9];
        }
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (ok)
            expect(mem[18], 18, "int 18 while a get reads it");
        else
            mem[18] = 18;
        mem[300] = 300;
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    int ok = argc > 1 && strcmp(argv[1], "ok") == 0, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fence_store(rank, ok);
    passive(rank, ok);
    MPI_Finalize();
    return 0;
}
