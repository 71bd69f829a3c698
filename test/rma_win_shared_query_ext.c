/* rma_win_shared_query_ext: MPI_Win_shared_query on windows of MPI_Win_allocate and MPI_Win_create (heap, MPI_Alloc_mem and static memory; sizes and disp_units differing per rank, rank 0 giving none): every member's size, disp_unit and an address here through which loads see the owner's stores and stores reach the owner, ordered by MPI_Win_sync and MPI_Barrier in a lock_all epoch; MPI_PROC_NULL answers for the lowest rank with memory; a stack window's peers get size 0 and NULL (reached with process_vm), its owner its own memory. ext: MPI-4.1 allows the call on these flavors but promises no shared memory, and Open MPI 4.1 refuses it. */
/* shmpi-test: np=1,2,3,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

enum { HEAP, ALLOC_MEM, STATIC, ALLOCATE, KINDS };
static const char *const kinds[KINDS] = {
    "MPI_Win_create (malloc)", "MPI_Win_create (MPI_Alloc_mem)",
    "MPI_Win_create (static)", "MPI_Win_allocate"};

#define MAX_LONGS 64
static long statics[MAX_LONGS];
static int me, np;

/* Rank r's window: r * 8 longs (rank 0 none), disp_unit 8 or 4. */
static MPI_Aint bytes_of(int r) { return (MPI_Aint)r * 8 * sizeof(long); }
static int unit_of(int r) { return r % 2 ? 4 : 8; }
static long mark(int r, int i) { return 1000L * r + i; }

static MPI_Win open_window(int kind, long **mem)
{
    MPI_Aint bytes = bytes_of(me);
    MPI_Win win;
    *mem = NULL;
    switch (kind) {
    case HEAP:
        *mem = malloc((size_t)bytes + 1);
        CHECK(*mem, "malloc");
        break;
    case ALLOC_MEM:
        CHECK_MPI(MPI_Alloc_mem(bytes, MPI_INFO_NULL, mem));
        break;
    case STATIC:
        *mem = statics;
        break;
    }
    if (kind == ALLOCATE)
        CHECK_MPI(MPI_Win_allocate(bytes, unit_of(me), MPI_INFO_NULL,
                                   MPI_COMM_WORLD, mem, &win));
    else
        CHECK_MPI(MPI_Win_create(*mem, bytes, unit_of(me), MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &win));
    for (int i = 0; i < me * 8; i++)
        (*mem)[i] = mark(me, i);
    return win;
}

static void close_window(int kind, MPI_Win *win, long *mem)
{
    CHECK_MPI(MPI_Win_free(win));
    if (kind == HEAP)
        free(mem);
    if (kind == ALLOC_MEM)
        CHECK_MPI(MPI_Free_mem(mem));
}

/* Every member's memory through the query's answers: its marks read,
   then one long written into each (slot `me`), seen by the owner. */
static void through_pointers(int kind, MPI_Win win, long *mem)
{
    long **at = malloc((size_t)np * sizeof *at);
    CHECK(at, "malloc");
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every mark is stored */
    CHECK_MPI(MPI_Win_sync(win));
    for (int r = 0; r < np; r++) {
        MPI_Aint size = -1;
        int unit = -1;
        CHECK_MPI(MPI_Win_shared_query(win, r, &size, &unit, &at[r]));
        CHECK(size == bytes_of(r), "%s: rank %d's size is %ld, not %ld",
              kinds[kind], r, (long)size, (long)bytes_of(r));
        CHECK(unit == unit_of(r), "%s: rank %d's disp_unit is %d, not %d",
              kinds[kind], r, unit, unit_of(r));
        if (r == me && size > 0)
            CHECK(at[r] == mem, "%s: my own memory is at %p, not %p",
                  kinds[kind], (void *)at[r], (void *)mem);
        for (int i = 0; i < r * 8; i++)
            CHECK(at[r][i] == mark(r, i), "%s: rank %d's long %d reads "
                  "%ld", kinds[kind], r, i, at[r][i]);
    }
    MPI_Aint size;
    int unit;
    long *first;
    CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &size, &unit, &first));
    int lowest = np > 1 ? 1 : 0;
    CHECK(size == bytes_of(lowest) && unit == unit_of(lowest) &&
          first == at[lowest], "%s: MPI_PROC_NULL answered %ld bytes, "
          "unit %d, at %p, not rank %d's", kinds[kind], (long)size, unit,
          (void *)first, lowest);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every mark is read */
    for (int r = 1; r < np; r++)
        if (me < r * 8)
            at[r][me] = -1 - me * 100 - r;
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every store is done */
    CHECK_MPI(MPI_Win_sync(win));
    for (int i = 0; i < me * 8; i++) {
        long want = i < np ? -1 - i * 100 - me : mark(me, i);
        CHECK(mem[i] == want, "%s: my long %d is %ld, not %ld", kinds[kind],
              i, mem[i], want);
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    free(at);
}

/* Stack memory is reached with process_vm: no address for peers. */
static void stack_window(void)
{
    long stack[8];
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(stack, sizeof stack, sizeof(long),
                             MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (int r = 0; r < np; r++) {
        MPI_Aint size = -1;
        int unit = -1;
        void *at = &size;
        CHECK_MPI(MPI_Win_shared_query(win, r, &size, &unit, &at));
        CHECK(unit == (int)sizeof(long), "stack: rank %d's unit %d", r,
              unit);
        if (r == me)
            CHECK(size == sizeof stack && at == stack,
                  "stack: my own is %ld bytes at %p", (long)size, at);
        else
            CHECK(size == 0 && at == NULL, "stack: rank %d's is %ld bytes "
                  "at %p, not 0 and NULL", r, (long)size, at);
    }
    MPI_Aint size = -1;
    int unit;
    void *at;
    CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &size, &unit, &at));
    CHECK(me == 0 ? size == sizeof stack && at == stack
                  : size == 0 && at == NULL,
          "stack: MPI_PROC_NULL (rank 0) answered %ld bytes at %p",
          (long)size, at);
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
    CHECK(np * 8 <= MAX_LONGS, "at most %d ranks", MAX_LONGS / 8);
    for (int kind = 0; kind < KINDS; kind++) {
        long *mem;
        MPI_Win win = open_window(kind, &mem);
        through_pointers(kind, win, mem);
        close_window(kind, &win, mem);
    }
    stack_window();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
