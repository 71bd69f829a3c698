/* rma_lock: passive target - a counter behind an exclusive lock (get/put and load/store), shared locks held together, exclusive excluding shared, lock_all with flushes, several lock epochs at once, MPI_MODE_NOCHECK, MPI_Win_sync. */
/* shmpi-test: np=1,2,3,4,8 timeout=90 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <sched.h>

#define INCREMENTS 150

static int rank, size;

static void nap_ms(long ms)
{
    nanosleep(&(struct timespec){.tv_sec = ms / 1000,
                                 .tv_nsec = ms % 1000 * 1000000L},
              NULL);
}

/* Read-modify-write with get and put: only the lock makes it atomic. */
static void counter_get_put(void)
{
    long *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(rank == 0 ? sizeof(long) : 0, sizeof(long),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    if (rank == 0)
        *mem = 0;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < INCREMENTS; i++) {
        long v = -1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_MPI(MPI_Get(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        v++;
        CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK(*mem == (long)size * INCREMENTS, "counter %ld, expected %ld",
              *mem, (long)size * INCREMENTS);
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    CHECK_MPI(MPI_Win_free(&win));
}

/* The same with plain loads and stores on a shared window. */
static void counter_load_store(void)
{
    long *mine, *counter;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared(rank == 0 ? sizeof(long) : 0,
                                      sizeof(long), MPI_INFO_NULL,
                                      MPI_COMM_WORLD, &mine, &win));
    MPI_Aint sz;
    int du;
    CHECK_MPI(MPI_Win_shared_query(win, 0, &sz, &du, &counter));
    if (rank == 0)
        *counter = 0;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < INCREMENTS; i++) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        long v = *counter;
        if (i % 16 == rank % 16)
            sched_yield(); /* hand the CPU over while holding the lock */
        *counter = v + 1;
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK(*counter == (long)size * INCREMENTS, "counter %ld, expected %ld",
          *counter, (long)size * INCREMENTS);
    CHECK_MPI(MPI_Win_unlock(0, win));
    CHECK_MPI(MPI_Win_free(&win));
}

/* Shared locks are held together (a barrier inside them would never end
   otherwise), and an exclusive lock keeps shared lockers out: rank 0's
   flag is 1 only while the last rank holds it exclusively. */
static void shared_and_exclusive(void)
{
    int *mine, *flag;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared(rank == 0 ? sizeof(int) : 0,
                                      sizeof(int), MPI_INFO_NULL,
                                      MPI_COMM_WORLD, &mine, &win));
    MPI_Aint sz;
    int du;
    CHECK_MPI(MPI_Win_shared_query(win, 0, &sz, &du, &flag));
    if (rank == 0)
        *flag = 0;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_unlock(0, win));
    if (size < 2) {
        CHECK_MPI(MPI_Win_free(&win));
        return;
    }
    int holder = size - 1;
    if (rank == holder) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        *flag = 1;
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        nap_ms(30);
        *flag = 0;
        CHECK_MPI(MPI_Win_unlock(0, win));
    } else {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK(*flag == 0, "a shared lock was granted while rank %d held "
              "the exclusive one", holder);
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    CHECK_MPI(MPI_Win_free(&win));
}

/* lock_all, puts to everyone, flush_all / flush / flush_local; then
   several lock epochs at once, one per target; then NOCHECK. */
static void lock_all_and_many(void)
{
    int *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate((MPI_Aint)size * sizeof(int), sizeof(int),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    for (int i = 0; i < size; i++)
        mem[i] = -1;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int t = 0; t < size; t++) {
        CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, t, rank, 1, MPI_INT, win));
        if (t % 2)
            CHECK_MPI(MPI_Win_flush(t, win));
        else
            CHECK_MPI(MPI_Win_flush_local(t, win));
    }
    CHECK_MPI(MPI_Win_flush_all(win));
    CHECK_MPI(MPI_Win_flush_local_all(win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    for (int i = 0; i < size; i++)
        CHECK(mem[i] == i, "after lock_all: slot %d holds %d", i, mem[i]);
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* one lock epoch per target, all open at once */
    int one = 1;
    for (int t = 0; t < size; t++)
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, (rank + t) % size, 0, win));
    for (int t = 0; t < size; t++)
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, t, rank, 1, MPI_INT,
                                 MPI_SUM, win));
    for (int t = size - 1; t >= 0; t--)
        CHECK_MPI(MPI_Win_unlock((rank + t) % size, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* NOCHECK: after the barrier nobody locks the right neighbour but me */
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int v = 1000 + rank;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, MPI_MODE_NOCHECK, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, rank, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    for (int i = 0; i < size; i++) {
        int want = i == left ? 1000 + i : i + 1;
        CHECK(mem[i] == want, "slot %d holds %d, expected %d", i, mem[i],
              want);
    }
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Win_free(&win));
}

/* The shared-memory idiom of MPI-3.1 11.7: lock_all for the whole
   phase, stores, MPI_Win_sync, a barrier, MPI_Win_sync, loads. */
static void win_sync_idiom(void)
{
    int *mine, *left_mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int),
                                      MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                                      &win));
    int left = (rank + size - 1) % size, du;
    MPI_Aint sz;
    CHECK_MPI(MPI_Win_shared_query(win, left, &sz, &du, &left_mem));
    CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    for (int r = 0; r < 20; r++) {
        *mine = rank * 100 + r;
        CHECK_MPI(MPI_Win_sync(win));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Win_sync(win));
        CHECK(*left_mem == left * 100 + r, "round %d: left holds %d", r,
              *left_mem);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    counter_get_put();
    counter_load_store();
    shared_and_exclusive();
    lock_all_and_many();
    win_sync_idiom();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
