/* rma_win_shared: MPI_Win_allocate_shared - contiguous by default and with alloc_shared_noncontig, MPI_Win_shared_query (MPI_PROC_NULL included), load/store to the neighbours' memory ordered by MPI_Win_sync and MPI_Barrier (the argument errors: rma_win_errors_ext). */
/* shmpi-test: np=1,2,3,4,8 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

static int rank, size;

/* ints of rank r's part: some ranks have none */
static int count_of(int r) { return r % 3 == 1 ? 0 : 100 + 37 * r; }

struct part {
    int *base;
    MPI_Aint bytes;
    int unit;
};

static struct part query(MPI_Win win, int r)
{
    struct part p;
    CHECK_MPI(MPI_Win_shared_query(win, r, &p.bytes, &p.unit, &p.base));
    return p;
}

/* Every rank's part as the queries give it: sizes, units, layout. */
static void check_layout(MPI_Win win, int contiguous, int *mine)
{
    struct part prev = {0};
    for (int r = 0; r < size; r++) {
        struct part p = query(win, r);
        MPI_Aint asked = (MPI_Aint)count_of(r) * (MPI_Aint)sizeof(int);
        /* Open MPI reports noncontiguous parts rounded up to pages */
        CHECK(p.bytes == asked || (!contiguous && p.bytes > asked),
              "rank %d's part is %ld bytes, not %ld", r, (long)p.bytes,
              (long)asked);
        CHECK(p.unit == (int)sizeof(int), "disp_unit %d", p.unit);
        if (r == rank && p.bytes > 0)
            CHECK(p.base == mine, "the query of myself: %p, not %p",
                  (void *)p.base, (void *)mine);
        if (r > 0 && prev.bytes > 0 && p.bytes > 0) {
            char *end = (char *)prev.base + prev.bytes;
            if (contiguous)
                CHECK((char *)p.base == end,
                      "not contiguous: rank %d's part at %p, rank %d's "
                      "ended at %p", r, (void *)p.base, r - 1, (void *)end);
            else
                CHECK((char *)p.base >= end, "parts overlap");
        }
        if (p.bytes > 0)
            prev = p;
    }
    int lowest = 0;
    while (lowest < size && count_of(lowest) == 0)
        lowest++;
    struct part any = query(win, MPI_PROC_NULL);
    struct part low = query(win, lowest);
    CHECK(any.base == low.base && any.bytes == low.bytes,
          "MPI_PROC_NULL must give the lowest rank with memory (%d)",
          lowest);
}

/* Stores to its own part, then loads from every other part: the
   separate-model pattern of 11.7 (sync, barrier, sync). */
static void load_store(MPI_Win win, int *mine, int round)
{
    CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    for (int i = 0; i < count_of(rank); i++)
        mine[i] = rank * 100000 + i + round;
    CHECK_MPI(MPI_Win_sync(win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_sync(win));
    for (int r = 0; r < size; r++) {
        struct part p = query(win, r);
        for (int i = 0; i < count_of(r); i++)
            CHECK(p.base[i] == r * 100000 + i + round,
                  "rank %d's part [%d] = %d", r, i, p.base[i]);
    }
    /* each rank stores into its right neighbour's first element */
    int right = (rank + 1) % size;
    struct part p = query(win, right);
    CHECK_MPI(MPI_Win_sync(win));
    MPI_Barrier(MPI_COMM_WORLD); /* everybody has read */
    if (p.bytes > 0)
        p.base[0] = -1 - rank;
    CHECK_MPI(MPI_Win_sync(win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_sync(win));
    int left = (rank + size - 1) % size;
    if (count_of(rank) > 0)
        CHECK(mine[0] == -1 - left, "the neighbour's store: %d", mine[0]);
    CHECK_MPI(MPI_Win_unlock_all(win));
}

static void one(int noncontig)
{
    MPI_Info info = MPI_INFO_NULL;
    if (noncontig) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
    }
    int *mine = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared(
        (MPI_Aint)count_of(rank) * sizeof(int), sizeof(int), info,
        MPI_COMM_WORLD, &mine, &win));
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    int *flavor, flag;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_SHARED, "flavor %d", *flavor);
    check_layout(win, !noncontig, mine);
    for (int round = 0; round < 3; round++)
        load_store(win, mine, round);
    CHECK_MPI(MPI_Win_free(&win));
}

/* All parts empty, on a split. */
static void empty(void)
{
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, 0, &half);
    void *base;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared(0, 1, MPI_INFO_NULL, half, &base,
                                      &win));
    MPI_Aint bytes = -1;
    int unit;
    CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &bytes, &unit,
                                   &base));
    CHECK(bytes == 0, "no memory anywhere, yet %ld bytes", (long)bytes);

    CHECK_MPI(MPI_Win_free(&win));
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    one(0);
    one(1);
    empty();
    MPI_Finalize();
    if (rank == 0)
        printf("rma_win_shared: ok\n");
    return 0;
}
