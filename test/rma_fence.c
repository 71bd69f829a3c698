/* rma_fence: MPI_Win_fence epochs - put/get rings, load/store on a shared window, every assert, a target that arrives late, and the legal way from a fence epoch to a lock epoch. */
/* shmpi-test: np=1,2,3,4,8 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define ROUNDS 20

static int rank, size;

static void nap_ms(long ms)
{
    nanosleep(&(struct timespec){.tv_sec = ms / 1000,
                                 .tv_nsec = ms % 1000 * 1000000L},
              NULL);
}

/* Each round every rank puts into its right neighbour's slot 0 and gets
   its left neighbour's slot 1; the fences around a round must complete
   both, and keep the next round's puts out until everyone fenced. */
static void put_get_ring(void)
{
    int *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    mem[0] = mem[1] = -1;
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (int r = 0; r < ROUNDS; r++) {
        int out = rank * 1000 + r, got = -1;
        CHECK_MPI(MPI_Put(&out, 1, MPI_INT, right, 0, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_fence(0, win));
        CHECK(mem[0] == left * 1000 + r, "round %d: slot 0 holds %d, "
              "expected %d", r, mem[0], left * 1000 + r);
        /* the owner stores, the fence publishes, the neighbour gets;
           NOPUT: no put lands here in the next epoch */
        mem[1] = rank * 1000 + r;
        CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPUT, win));
        CHECK_MPI(MPI_Get(&got, 1, MPI_INT, left, 1, 1, MPI_INT, win));
        /* NOSTORE: no local store to the window since the last fence */
        CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSTORE, win));
        CHECK(got == left * 1000 + r, "round %d: got %d from %d, "
              "expected %d", r, got, left, left * 1000 + r);
    }
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_MPI(MPI_Win_free(&win));
}

/* Load/store on MPI_Win_allocate_shared memory, ordered by fences only. */
static void shared_load_store(void)
{
    int *mine;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int),
                                      MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                                      &win));
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *theirs, du;
    MPI_Aint sz;
    CHECK_MPI(MPI_Win_shared_query(win, right, &sz, &du, &theirs));
    CHECK(sz == (MPI_Aint)sizeof(int), "shared_query size %ld", (long)sz);
    *mine = -1;
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (int r = 0; r < ROUNDS; r++) {
        *theirs = rank * 1000 + r;
        CHECK_MPI(MPI_Win_fence(0, win));
        CHECK(*mine == left * 1000 + r, "round %d: my int holds %d, "
              "expected %d", r, *mine, left * 1000 + r);
        CHECK_MPI(MPI_Win_fence(0, win));
    }
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_MPI(MPI_Win_free(&win));
}

/* Rank 0 is slow to reach its fences.  Its store before the fence must
   be what the others get after it, and their puts after the next fence
   must not land before rank 0 entered it (its own store of a sentinel
   just before would overwrite them). */
static void late_target(void)
{
    int *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate((MPI_Aint)(size + 1) * sizeof(int),
                               sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &mem, &win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    if (rank == 0) {
        nap_ms(30);
        mem[size] = 4242;
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    int got = -1;
    CHECK_MPI(MPI_Get(&got, 1, MPI_INT, 0, size, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(got == 4242, "got %d from the late rank 0, expected 4242", got);
    if (rank == 0) {
        nap_ms(30);
        for (int i = 0; i < size; i++)
            mem[i] = -5; /* sentinel, stored before entering the fence */
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    int v = 7000 + rank;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, rank, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    if (rank == 0)
        for (int i = 0; i < size; i++)
            CHECK(mem[i] == 7000 + i, "slot %d holds %d, expected %d: a "
                  "put landed before its target entered the fence", i,
                  mem[i], 7000 + i);
    CHECK_MPI(MPI_Win_free(&win));
}

/* NOPRECEDE | NOSUCCEED: a fence that neither ends nor starts an epoch;
   after NOSUCCEED a lock epoch may follow, and a fence after that. */
static void assert_combinations(void)
{
    int *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    *mem = 0;
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOSTORE |
                                MPI_MODE_NOPUT, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED | MPI_MODE_NOSTORE |
                                MPI_MODE_NOPUT, win));
    int one = 1, right = (rank + 1) % size;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, right, 0, 1, MPI_INT,
                             MPI_SUM, win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    CHECK(*mem == 1, "after the lock epoch my int is %d, expected 1", *mem);
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    put_get_ring();
    shared_load_store();
    late_target();
    assert_combinations();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
