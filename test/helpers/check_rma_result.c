/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_rma_result - result buffers of gets read or written before the
 * calls that complete them (MPI-3.1 11.3), or, with "ok", the same
 * program corrected: a mistake for mpirun --check to report
 * (test/check-rma-result.sh), np = 2.
 *
 *   check_rma_result     rank 0 reads byte 8 of an MPI_Get's result
 *                        before the MPI_Win_fence that completes it,
 *                        writes an MPI_Get_accumulate's before
 *                        MPI_Win_unlock, reads an MPI_Fetch_and_op's
 *                        before MPI_Win_flush and an
 *                        MPI_Compare_and_swap's before
 *                        MPI_Win_flush_local, reads an MPI_Rget's
 *                        before the MPI_Wait on its request and writes
 *                        an MPI_Rget_accumulate's before MPI_Test
 *                        says its request is complete: 6 problems
 *   check_rma_result ok  the accesses come after the completions (the
 *                        request forms' after their MPI_Wait or
 *                        MPI_Test, inside the epoch)
 *   check_rma_result crash  rank 0 stores into a read-only page while
 *                        a get's result is watched: the rank dies of
 *                        SIGSEGV, as it would without the mode
 *
 * Both touch, inside each epoch, other bytes of the pages the results
 * lie in, which is allowed and must not be reported; each result sits
 * in a page of its own (its place in the page fixed, for the byte
 * numbers of the test's lines).  Every value is checked: the mode
 * changes nothing a program sees.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mpi.h"

static volatile int sink;

/* A page of its own: res at int 16, neighbours around it. */
static int *page(void)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, 4096) != 0)
        MPI_Abort(MPI_COMM_WORLD, 2);
    memset(p, 0, 4096);
    return p;
}

static void expect(int got, int want, const char *what)
{
    if (got != want) {
        fprintf(stderr, "check_rma_result: %s: %d, expected %d\n", what,
                got, want);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void fence_get(MPI_Win win, int rank, int ok)
{
    int *p = page(), *res = p + 16;
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Get(res, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
        p[0] = 5;            /* beside the result: allowed */
        p[20] = p[0] + 1;    /* just after it: allowed */
        if (!ok)
            sink = res[2];
    }
    MPI_Win_fence(0, win);
    if (rank == 0) {
        expect(res[2], 12, "MPI_Get's result");
        expect(p[20], 6, "the int after it");
    }
    free(p);
}

static void lock_get_acc(MPI_Win win, int ok)
{
    int *p = page(), *res = p + 16, one[4] = {1, 1, 1, 1};
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    MPI_Get_accumulate(one, 4, MPI_INT, res, 4, MPI_INT, 1, 0, 4, MPI_INT,
                       MPI_SUM, win);
    p[15] = 7;
    if (!ok)
        res[0] = 99;
    MPI_Win_unlock(1, win);
    if (ok)
        expect(res[0], 10, "MPI_Get_accumulate's result");
    expect(p[15], 7, "the int before it");
    free(p);
}

static void flush_atomics(MPI_Win win, int ok)
{
    int *p = page(), *res = p + 16, one = 1, cmp = 0, val = 5;
    MPI_Win_lock_all(0, win);
    MPI_Fetch_and_op(&one, res, MPI_INT, 1, 1, MPI_SUM, win);
    sink = p[17];
    if (!ok)
        sink = res[0];
    MPI_Win_flush(1, win);
    expect(res[0], 12, "MPI_Fetch_and_op's result");
    MPI_Compare_and_swap(&val, &cmp, res + 1, MPI_INT, 1, 3, win);
    p[0] = 1;
    if (!ok)
        sink = res[1];
    MPI_Win_flush_local(1, win);
    expect(res[1], 14, "MPI_Compare_and_swap's result");
    MPI_Win_unlock_all(win);
    free(p);
}

/* The request forms: their request's MPI_Wait or MPI_Test completes
   them, inside the epoch (11.3.5). */
static void requests(MPI_Win win, int ok)
{
    int *p = page(), *res = p + 16, one[4] = {1, 1, 1, 1}, flag = 0;
    MPI_Request req;
    MPI_Win_lock_all(0, win);
    MPI_Rget(res, 4, MPI_INT, 1, 0, 4, MPI_INT, win, &req);
    p[0] = 3;
    if (!ok)
        sink = res[1];
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    expect(res[1], 13, "MPI_Rget's result");
    MPI_Win_flush(1, win); /* the get complete at the target too */
    MPI_Rget_accumulate(one, 4, MPI_INT, res, 4, MPI_INT, 1, 0, 4, MPI_INT,
                        MPI_NO_OP, win, &req);
    if (!ok)
        res[3] = 5;
    while (!flag)
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    expect(res[2], 13, "MPI_Rget_accumulate's result");
    res[3] = 7; /* completed by MPI_Test: the program's again */
    MPI_Win_unlock_all(win);
    free(p);
}

/* A fault outside the watched pages goes to the default action. */
static void crash(MPI_Win win)
{
    int *p = page();
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    MPI_Get(p + 16, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
    int *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                   0);
    if (ro != MAP_FAILED)
        *(volatile int *)ro = 1;
    MPI_Win_unlock(1, win);
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
    for (int i = 0; i < 4; i++)
        mem[i] = 10 + i;
    if (argc > 1 && strcmp(argv[1], "crash") == 0 && rank == 0)
        crash(win);
    fence_get(win, rank, ok);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        lock_get_acc(win, ok);
        flush_atomics(win, ok);
        requests(win, ok);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
