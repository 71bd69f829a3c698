/* sync_handles: counters allocated by every rank, their handles spread as MPI_HANDLE_SYNC by MPI_Bcast, MPI_Allgather and MPI_Alltoall (the same int value everywhere), every rank signalling every rank's counters (sync_mode 0, PUT with data, ACCUMULATE) round after round, MPI_Sync_counter_c2f/f2c, and MPI_Win_free_sync_objects setting entries to MPI_SYNC_NULL. */
/* shmpi-test: np=1,2,3,5 timeout=60 ext psync */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "sync_test.h"

#define ROUNDS 40

enum { NOTE, PUT, ACC, K };    /* my counters */

static int rank, size;
static MPI_Win win;
static int *mem;              /* [size] put slots, then the sum cell */

#if MPI_SYNC_NULL != 0
#error "MPI_SYNC_NULL is 0"
#endif

static int slot_value(int from, int round)
{
    return (from + 1) * 10007 + round;
}

/* every handle of the job: nonzero, all distinct, the same int value at
   every rank (rank 0's view broadcast as MPI_INT) */
static void check_table(const MPI_Sync *table)
{
    int *at0 = malloc((size_t)size * K * sizeof *at0);
    CHECK(at0, "malloc");
    for (int i = 0; i < size * K; i++) {
        CHECK(table[i] != MPI_SYNC_NULL, "handle %d is MPI_SYNC_NULL", i);
        for (int j = 0; j < i; j++)
            CHECK(table[i] != table[j], "handles %d and %d are equal", i, j);
        at0[i] = table[i];
    }
    CHECK_MPI(MPI_Bcast(at0, size * K, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; i < size * K; i++)
        CHECK(at0[i] == table[i], "handle %d is %d here, %d at rank 0", i,
              table[i], at0[i]);
    free(at0);
}

/* table[r * K + NOTE] by MPI_Bcast from each root, table[.. + PUT] by
   MPI_Allgather, table[.. + ACC] by MPI_Alltoall; each way must agree
   with what the owner has. */
static void spread(const MPI_Sync *mine, MPI_Sync *table)
{
    MPI_Sync *gathered = malloc((size_t)size * K * sizeof *gathered);
    MPI_Sync *to_all = malloc((size_t)size * sizeof *to_all);
    MPI_Sync *from_all = malloc((size_t)size * sizeof *from_all);
    CHECK(gathered && to_all && from_all, "malloc");
    for (int root = 0; root < size; root++) {
        MPI_Sync buf[K] = {0};
        if (rank == root)
            memcpy(buf, mine, sizeof buf);
        CHECK_MPI(MPI_Bcast(buf, K, MPI_HANDLE_SYNC, root, MPI_COMM_WORLD));
        for (int k = 0; k < K; k++)
            table[root * K + k] = buf[k];
    }
    CHECK_MPI(MPI_Allgather(mine, K, MPI_HANDLE_SYNC, gathered, K,
                            MPI_HANDLE_SYNC, MPI_COMM_WORLD));
    for (int t = 0; t < size; t++)
        to_all[t] = mine[ACC];
    CHECK_MPI(MPI_Alltoall(to_all, 1, MPI_HANDLE_SYNC, from_all, 1,
                           MPI_HANDLE_SYNC, MPI_COMM_WORLD));
    for (int r = 0; r < size; r++) {
        for (int k = 0; k < K; k++)
            CHECK(gathered[r * K + k] == table[r * K + k], "rank %d counter "
                  "%d: Allgather gave %d, Bcast %d", r, k,
                  gathered[r * K + k], table[r * K + k]);
        CHECK(from_all[r] == table[r * K + ACC], "rank %d: Alltoall gave "
              "%d, Bcast %d", r, from_all[r], table[r * K + ACC]);
    }
    for (int k = 0; k < K; k++)
        CHECK(table[rank * K + k] == mine[k], "my own handle came back "
              "changed");
    free(gathered);
    free(to_all);
    free(from_all);
}

static void check_conversions(const MPI_Sync *table)
{
    for (int i = 0; i < size * K; i++) {
        MPI_Fint f = MPI_Sync_counter_c2f(table[i]);
        CHECK(MPI_Sync_counter_f2c(f) == table[i], "c2f/f2c of %d gave %d",
              table[i], MPI_Sync_counter_f2c(f));
    }
    CHECK(MPI_Sync_counter_f2c(MPI_Sync_counter_c2f(MPI_SYNC_NULL)) ==
          MPI_SYNC_NULL, "MPI_SYNC_NULL does not round-trip");
}

/*
 * Each round every rank notifies every rank's NOTE counter (itself
 * included: count size), puts slot_value(me, round) into every other
 * rank's slot [me] under PUT requests on their PUT counters (count
 * size - 1), and adds me + 1 into every rank's sum cell under
 * ACCUMULATE requests on their ACC counters (count size).  The owner
 * then checks the slots and the running sum.
 */
static void signal_everyone(const MPI_Sync *mine, const MPI_Sync *table)
{
    MPI_Request obj[K], *ops = malloc((size_t)K * size * sizeof *ops);
    MPI_Request *puts = ops + size, *accs = ops + 2 * size;
    int nput = 0;
    CHECK(ops, "malloc");
    const int counts[K] = {size, size - 1, size};
    for (int k = 0; k < K; k++)
        CHECK_MPI(MPI_Win_sync_object_init(mine[k], counts[k], win,
                                           MPI_INFO_NULL, &obj[k]));
    for (int t = 0; t < size; t++) {
        CHECK_MPI(MPI_Win_sync_ops_init(t, 0, table[t * K + NOTE], win,
                                        MPI_INFO_NULL, &ops[t]));
        if (t != rank)
            CHECK_MPI(MPI_Win_sync_ops_init(t, MPI_MODE_WIN_PUT,
                                            table[t * K + PUT], win,
                                            MPI_INFO_NULL, &puts[nput++]));
        CHECK_MPI(MPI_Win_sync_ops_init(t, MPI_MODE_WIN_ACCUMULATE,
                                        table[t * K + ACC], win,
                                        MPI_INFO_NULL, &accs[t]));
    }
    long sum = 0;
    for (int round = 0; round < ROUNDS; round++) {
        CHECK_MPI(MPI_Startall(K, obj));
        CHECK_MPI(MPI_Startall(size, ops));
        CHECK_MPI(MPI_Waitall(size, ops, MPI_STATUSES_IGNORE));

        int v = slot_value(rank, round), one_more = rank + 1;
        CHECK_MPI(MPI_Startall(nput, puts));
        for (int t = 0; t < size; t++)
            if (t != rank)
                CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, rank, 1, MPI_INT, win));
        CHECK_MPI(MPI_Waitall(nput, puts, MPI_STATUSES_IGNORE));

        CHECK_MPI(MPI_Startall(size, accs));
        for (int t = 0; t < size; t++)
            CHECK_MPI(MPI_Accumulate(&one_more, 1, MPI_INT, t, size, 1,
                                     MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Waitall(size, accs, MPI_STATUSES_IGNORE));

        CHECK_MPI(MPI_Waitall(K, obj, MPI_STATUSES_IGNORE));
        for (int s = 0; s < size; s++)
            CHECK(s == rank || mem[s] == slot_value(s, round),
                  "round %d: slot of rank %d is %d, expected %d", round, s,
                  mem[s], slot_value(s, round));
        sum += (long)size * (size + 1) / 2;
        CHECK(mem[size] == sum, "round %d: sum %d, expected %ld", round,
              mem[size], sum);
        /* nobody overwrites a slot or signals again before its owner
           has checked this round */
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    for (int k = 0; k < K; k++) {
        CHECK_MPI(MPI_Request_free(&obj[k]));
        sync_expect_balanced(win, mine[k], "after the rounds");
    }
    for (int i = 0; i < size; i++)
        CHECK_MPI(MPI_Request_free(&ops[i]));
    for (int i = 0; i < nput; i++)
        CHECK_MPI(MPI_Request_free(&puts[i]));
    for (int i = 0; i < size; i++)
        CHECK_MPI(MPI_Request_free(&accs[i]));
    free(ops);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Win_allocate((size + 1) * (MPI_Aint)sizeof(int),
                               sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &mem, &win));
    memset(mem, 0, (size_t)(size + 1) * sizeof *mem);

    MPI_Sync mine[K], old[K];
    MPI_Sync *table = malloc((size_t)size * K * sizeof *table);
    CHECK(table, "malloc");
    CHECK_MPI(MPI_Win_alloc_sync_objects(0, NULL, win, MPI_INFO_NULL));
    CHECK_MPI(MPI_Win_alloc_sync_objects(K, mine, win, MPI_INFO_NULL));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    spread(mine, table);
    check_table(table);
    check_conversions(table);
    signal_everyone(mine, table);

    /* free sets every entry to MPI_SYNC_NULL; counters made again get
       handles that are not the old ones (those name dead counters) */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    memcpy(old, mine, sizeof old);
    CHECK_MPI(MPI_Win_free_sync_objects(K, mine, win));
    for (int k = 0; k < K; k++)
        CHECK(mine[k] == MPI_SYNC_NULL, "entry %d is %d after the free, not "
              "MPI_SYNC_NULL", k, mine[k]);
    CHECK_MPI(MPI_Win_free_sync_objects(0, mine, win));
    CHECK_MPI(MPI_Win_alloc_sync_objects(K, mine, win, MPI_INFO_NULL));
    for (int k = 0; k < K; k++)
        for (int j = 0; j < K; j++)
            CHECK(mine[k] != old[j], "new counter %d reuses the handle %d of "
                  "a freed one", k, old[j]);
    spread(mine, table);
    check_table(table);
    memset(mem, 0, (size_t)(size + 1) * sizeof *mem);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    signal_everyone(mine, table);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    /* MPI_Win_free frees the ones still allocated */
    free(table);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
