/* rma_win_create: MPI_Win_create over heap (small and large), static (.data and .bss), stack and MPI_Alloc_mem memory: attributes, contents kept, the program's own loads and stores, peers' get and put, neighbouring memory untouched, memory usable after MPI_Win_free; two windows over one buffer (the argument errors: rma_win_errors_ext). */
/* shmpi-test: np=1,2,3,4,8 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

#define N 3000                  /* ints in most windows */

static int rank, size;
static int data_before[16] = {1, 2, 3};
static int data_win[N] = {7, 7, 7};
static int data_after[16] = {4, 5, 6};
static int bss_before[16], bss_win[N], bss_after[16];

static int value(int r, int i) { return r * 1000003 + i; }

static void fill(int *mem, int n, int r)
{
    for (int i = 0; i < n; i++)
        mem[i] = value(r, i);
}

static void expect(const int *mem, int n, int r, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK(mem[i] == value(r, i), "%s: [%d] = %d, expected %d", what, i,
              mem[i], value(r, i));
}

static void check_attrs(MPI_Win win, void *base, MPI_Aint bytes)
{
    void *b;
    MPI_Aint *sz;
    int *du, *flavor, *model, flag;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &flag));
    CHECK(flag && b == base, "MPI_WIN_BASE %p, expected %p", b, base);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
    CHECK(flag && *sz == bytes, "MPI_WIN_SIZE %ld", (long)*sz);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag));
    CHECK(flag && *du == (int)sizeof(int), "MPI_WIN_DISP_UNIT %d", *du);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_CREATE, "flavor %d", *flavor);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    CHECK(flag && *model == MPI_WIN_UNIFIED, "model %d", *model);
}

/* Each rank reads its right neighbour's window but for the last
   element, into which that neighbour's right neighbour puts its rank in
   the same epoch (a get of it would race the put: 11.7.1), and puts its
   rank into the last element of its left neighbour's. */
static void peers(MPI_Win win, int n)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *got = malloc(sizeof(int) * (size_t)n);
    CHECK(got != NULL, "malloc");
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Get(got, n - 1, MPI_INT, right, 0, n - 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(right, win));
    expect(got, n - 1, right, "the right neighbour's window");
    int mark = -1 - rank;
    CHECK_MPI(MPI_Put(&mark, 1, MPI_INT, left, n - 1, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    free(got);
}

/* A window over mem (n ints): contents, attributes, own access, peers,
   free; mem stays the program's memory with what was written last. */
static void over(int *mem, int n, const char *what)
{
    fill(mem, n, rank);
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)n * sizeof(int), sizeof(int),
                             MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    expect(mem, n, rank, what);
    check_attrs(win, mem, (MPI_Aint)n * sizeof(int));
    mem[n - 1] = 0; /* own stores work, and peers see them */
    mem[n - 1] = value(rank, n - 1);
    MPI_Barrier(MPI_COMM_WORLD);
    peers(win, n);
    int from = (rank + 1) % size;
    CHECK(mem[n - 1] == -1 - from, "%s: the put of rank %d gave %d", what,
          from, mem[n - 1]);
    CHECK_MPI(MPI_Win_free(&win));
    expect(mem, n - 1, rank, what);
    CHECK(mem[n - 1] == -1 - from, "%s: lost at MPI_Win_free", what);
    fill(mem, n, rank + 1); /* still ordinary memory */
    expect(mem, n, rank + 1, what);
}

static void heap(void)
{
    static const int counts[] = {1, 25, N, 200000};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
        int n = counts[k];
        int *before = malloc(64), *mem = malloc(sizeof(int) * (size_t)n);
        int *after = malloc(64);
        CHECK(before && mem && after, "malloc");
        fill(before, 16, 77);
        fill(after, 16, 78);
        over(mem, n, n > 100000 ? "heap (large)" : "heap");
        expect(before, 16, 77, "memory before a heap window");
        expect(after, 16, 78, "memory after a heap window");
        free(mem);
        fill(before, 16, 79);
        expect(before, 16, 79, "heap after the window");
        free(before);
        free(after);
    }
}

static void statics(void)
{
    fill(data_before, 16, 80);
    fill(data_after, 16, 81);
    fill(bss_before, 16, 82);
    fill(bss_after, 16, 83);
    over(data_win, N, "static .data");
    over(bss_win, N, ".bss");
    expect(data_before, 16, 80, ".data before the window");
    expect(data_after, 16, 81, ".data after the window");
    expect(bss_before, 16, 82, ".bss before the window");
    expect(bss_after, 16, 83, ".bss after the window");
    data_after[0] = 5; /* still writable */
    CHECK(data_after[0] == 5, ".data not writable");
}

static void stack(void)
{
    int guard_a[16], mem[500], guard_b[16];
    fill(guard_a, 16, 90);
    fill(guard_b, 16, 91);
    over(mem, 500, "stack");
    expect(guard_a, 16, 90, "stack next to the window");
    expect(guard_b, 16, 91, "stack next to the window");
}

static void alloc_mem(void)
{
    static const int counts[] = {10, 100000};
    for (size_t k = 0; k < 2; k++) {
        int *mem;
        CHECK_MPI(MPI_Alloc_mem((MPI_Aint)counts[k] * sizeof(int),
                                MPI_INFO_NULL, &mem));
        over(mem, counts[k], "MPI_Alloc_mem");
        CHECK_MPI(MPI_Free_mem(mem));
    }
}

/* Two windows over one buffer, freed one after the other; then a window
   of nothing. */
static void shared_buffer(void)
{
    int *mem = malloc(sizeof(int) * N);
    CHECK(mem != NULL, "malloc");
    fill(mem, N, rank);
    MPI_Win a, b;
    CHECK_MPI(MPI_Win_create(mem, N * sizeof(int), sizeof(int),
                             MPI_INFO_NULL, MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Win_create(mem + 10, 100 * sizeof(int), sizeof(int),
                             MPI_INFO_NULL, MPI_COMM_WORLD, &b));
    CHECK_MPI(MPI_Win_free(&a));
    int got = 0, right = (rank + 1) % size;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, b));
    CHECK_MPI(MPI_Get(&got, 1, MPI_INT, right, 5, 1, MPI_INT, b));
    CHECK_MPI(MPI_Win_unlock(right, b));
    CHECK(got == value(right, 15), "window b after a was freed: %d", got);
    CHECK_MPI(MPI_Win_free(&b));
    expect(mem, N, rank, "a buffer of two windows");
    free(mem);
    MPI_Win none;
    CHECK_MPI(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                             &none));
    CHECK_MPI(MPI_Win_free(&none));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    heap();
    statics();
    stack();
    alloc_mem();
    shared_buffer();
    MPI_Finalize();
    if (rank == 0)
        printf("rma_win_create: ok\n");
    return 0;
}
