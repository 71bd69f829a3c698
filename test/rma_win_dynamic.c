/* rma_win_dynamic: MPI_Win_create_dynamic with MPI_Win_attach/MPI_Win_detach - its attributes, regions of heap, stack, static and MPI_Alloc_mem memory reached by peers at their MPI_Get_address, attach/detach cycles (a new buffer, the same one again), in lock_all epochs and per-target MPI_Win_lock epochs (shared and exclusive); an exclusive lock makes get+put increments of an attached counter atomic. Overlapping attach and the other errors: rma_win_errors_ext. */
/* shmpi-test: np=1,2,3,4,8 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

#define LOCK_ALL (-1) /* an epoch kind besides the two lock types */
#define INCREMENTS 40

static int rank, size;
static long statics[256];
static const int epochs[3] = {LOCK_ALL, MPI_LOCK_SHARED, MPI_LOCK_EXCLUSIVE};

/* Every rank's address of its buffer, known to all. */
static MPI_Aint *addresses(void *buf)
{
    MPI_Aint mine, *all = malloc(sizeof *all * (size_t)size);
    CHECK(all != NULL, "malloc");
    CHECK_MPI(MPI_Get_address(buf, &mine));
    MPI_Allgather(&mine, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
    return all;
}

/* buf (n longs) is attached on every rank: each reads its right
   neighbour's, then writes a mark into its left neighbour's, in one
   lock_all epoch or (lock: a lock type) in a lock epoch per target. */
static void exchange(MPI_Win win, long *buf, int n, long tag, int lock)
{
    for (int i = 0; i < n; i++)
        buf[i] = tag + rank * 1000 + i;
    MPI_Aint *at = addresses(buf);
    MPI_Barrier(MPI_COMM_WORLD); /* every attach has returned */
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    long *got = malloc(sizeof(long) * (size_t)n), mark = -tag - rank;
    CHECK(got != NULL, "malloc");
    if (lock == LOCK_ALL)
        CHECK_MPI(MPI_Win_lock_all(0, win));
    else
        CHECK_MPI(MPI_Win_lock(lock, right, 0, win));
    CHECK_MPI(MPI_Get(got, n, MPI_LONG, right, at[right], n, MPI_LONG, win));
    if (lock == LOCK_ALL)
        CHECK_MPI(MPI_Win_flush(right, win));
    else
        CHECK_MPI(MPI_Win_unlock(right, win));
    for (int i = 0; i < n; i++)
        CHECK(got[i] == tag + right * 1000 + i,
              "tag %ld: the right neighbour's [%d] = %ld", tag, i, got[i]);
    MPI_Barrier(MPI_COMM_WORLD); /* every get is done */
    if (lock != LOCK_ALL)
        CHECK_MPI(MPI_Win_lock(lock, left, 0, win));
    CHECK_MPI(MPI_Put(&mark, 1, MPI_LONG, left,
                      MPI_Aint_add(at[left], (n - 1) * sizeof(long)), 1,
                      MPI_LONG, win));
    if (lock == LOCK_ALL)
        CHECK_MPI(MPI_Win_unlock_all(win));
    else
        CHECK_MPI(MPI_Win_unlock(left, win));
    MPI_Barrier(MPI_COMM_WORLD); /* every put is done */
    CHECK(buf[n - 1] == -tag - right, "tag %ld: the put gave %ld", tag,
          buf[n - 1]);
    free(got);
    free(at);
}

static void attrs(MPI_Win win)
{
    void *base;
    MPI_Aint *sz;
    int *du, *flavor, flag;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag));
    CHECK(flag && base == MPI_BOTTOM, "MPI_WIN_BASE %p", base);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
    CHECK(flag && *sz == 0, "MPI_WIN_SIZE %ld", (long)*sz);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag));
    CHECK(flag && *du == 1, "MPI_WIN_DISP_UNIT %d", *du);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_DYNAMIC, "flavor %d", *flavor);
}

/* One region at a time, attached and detached again and again, each
   kind of epoch on new buffers and on the same one again. */
static void cycles(MPI_Win win)
{
    long *same = malloc(sizeof(long) * 512);
    CHECK(same != NULL, "malloc");
    for (int c = 0; c < 12; c++) {
        int n = 1 + (c * 97) % 512;
        long *buf = c % 3 == 2 ? same : malloc(sizeof(long) * (size_t)n);
        CHECK(buf != NULL, "malloc");
        CHECK_MPI(MPI_Win_attach(win, buf, (MPI_Aint)n * sizeof(long)));
        exchange(win, buf, n, (c + 1) * 100000000L, epochs[c / 3 % 3]);
        MPI_Barrier(MPI_COMM_WORLD); /* nobody targets it any more */
        CHECK_MPI(MPI_Win_detach(win, buf));
        if (buf != same)
            free(buf);
    }
    free(same);
}

/* Several regions of every kind attached at once. */
static void kinds(MPI_Win win)
{
    long stack[300], *heap = malloc(sizeof(long) * 40000), *mem;
    CHECK(heap != NULL, "malloc");
    CHECK_MPI(MPI_Alloc_mem(sizeof(long) * 100, MPI_INFO_NULL, &mem));
    struct { long *buf; int n; } r[] = {
        {stack, 300}, {heap, 40000}, {statics, 256}, {mem, 100}};
    int nr = sizeof r / sizeof *r;
    for (int i = 0; i < nr; i++)
        CHECK_MPI(MPI_Win_attach(win, r[i].buf,
                                 (MPI_Aint)r[i].n * sizeof(long)));
    for (int i = 0; i < nr; i++)
        exchange(win, r[i].buf, r[i].n, (i + 20) * 100000000L,
                 epochs[i % 3]);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = nr - 1; i >= 0; i--)
        CHECK_MPI(MPI_Win_detach(win, r[i].buf));
    heap[39999] = 1; /* still the program's memory */
    free(heap);
    CHECK_MPI(MPI_Free_mem(mem));
}

/* Every rank increments rank 0's attached counter with a get and a put:
   only MPI_LOCK_EXCLUSIVE makes that atomic.  Then all read it under
   MPI_LOCK_SHARED, held together. */
static void locked_counter(MPI_Win win)
{
    long counter = 0;
    CHECK_MPI(MPI_Win_attach(win, &counter, sizeof counter));
    MPI_Aint *at = addresses(&counter);
    MPI_Barrier(MPI_COMM_WORLD); /* every attach has returned */
    for (int i = 0; i < INCREMENTS; i++) {
        long v = -1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_MPI(MPI_Get(&v, 1, MPI_LONG, 0, at[0], 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        v++;
        CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, 0, at[0], 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD); /* every increment is done */
    long got = -1;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Get(&got, 1, MPI_LONG, 0, at[0], 1, MPI_LONG, win));
    MPI_Barrier(MPI_COMM_WORLD); /* shared locks are held together */
    CHECK_MPI(MPI_Win_unlock(0, win));
    CHECK(got == (long)size * INCREMENTS, "counter %ld, expected %ld", got,
          (long)size * INCREMENTS);
    MPI_Barrier(MPI_COMM_WORLD); /* nobody targets it any more */
    CHECK_MPI(MPI_Win_detach(win, &counter));
    free(at);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    attrs(win);
    cycles(win);
    kinds(win);
    locked_counter(win);
    long last[8];
    CHECK_MPI(MPI_Win_attach(win, last, sizeof last)); /* freed attached */
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    if (rank == 0)
        printf("rma_win_dynamic: ok\n");
    return 0;
}
