/* thread_rma_acc: under MPI_THREAD_MULTIPLE four threads per rank, in one MPI_Win_lock_all epoch of the main thread, hit every rank's counters at once with MPI_Accumulate (one element and whole arrays), MPI_Fetch_and_op, MPI_Compare_and_swap increments, MPI_Get_accumulate and MPI_Win_flush/flush_all/flush_local; every final value is checked exactly. */
/* shmpi-test: np=2,4 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <pthread.h>

/* Each rank's window holds longs: [ONE] one-element MPI_Accumulate,
   [FOP] MPI_Fetch_and_op, [CAS] compare-and-swap increments, then ARR
   elements that whole-array MPI_Accumulates (element by element, under
   the target's accumulate lock held exclusively) and one-element
   MPI_Fetch_and_ops (one hardware atomic each) hit at the same time -
   so an atomic that ran while an element-wise accumulate held the lock
   would lose updates.  Every thread of every rank goes round all
   targets. */
#define THREADS 4
#define ROUNDS 600
#define ARR 16
enum { ONE, FOP, CAS, ARR0, SLOTS = ARR0 + ARR };

static int rank, size;
static MPI_Win win;

/* One more on target's long at disp, by compare-and-swap. */
static void cas_increment(int target, MPI_Aint disp)
{
    long seen, want, found, dummy = 0;
    CHECK_MPI(MPI_Fetch_and_op(&dummy, &seen, MPI_LONG, target, disp,
                               MPI_NO_OP, win));
    for (;;) {
        want = seen + 1;
        CHECK_MPI(MPI_Compare_and_swap(&want, &seen, &found, MPI_LONG,
                                       target, disp, win));
        if (found == seen)
            return;
        seen = found;
    }
}

static void *work(void *arg)
{
    int id = (int)(long)arg;
    long one = 1, old, ones[ARR], before[ARR];
    for (int i = 0; i < ARR; i++)
        ones[i] = 1;
    for (int r = 0; r < ROUNDS; r++) {
        int t = (rank + id + r) % size;
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, t, ONE, 1, MPI_LONG,
                                 MPI_SUM, win));
        CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, t, FOP, MPI_SUM,
                                   win));
        CHECK(old >= 0, "fetch_and_op fetched %ld", old);
        cas_increment(t, CAS);
        if (r % 2 == 0)
            CHECK_MPI(MPI_Accumulate(ones, ARR, MPI_LONG, t, ARR0, ARR,
                                     MPI_LONG, MPI_SUM, win));
        else
            CHECK_MPI(MPI_Get_accumulate(ones, ARR, MPI_LONG, before, ARR,
                                         MPI_LONG, t, ARR0, ARR, MPI_LONG,
                                         MPI_SUM, win));
        for (int k = 0; k < ARR; k += 3)
            CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, t,
                                       ARR0 + (r + k) % ARR, MPI_SUM, win));
        if (r % 8 == 0)
            CHECK_MPI(MPI_Win_flush(t, win));
        else if (r % 8 == 3)
            CHECK_MPI(MPI_Win_flush_local(t, win));
        else if (r % 8 == 5)
            CHECK_MPI(MPI_Win_flush_all(win));
    }
    /* one and ones are this thread's stack: complete what used them
       before they are gone (MPI-3.1 11.3) */
    CHECK_MPI(MPI_Win_flush_local_all(win));
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    long *mem;
    CHECK_MPI(MPI_Win_allocate(SLOTS * sizeof(long), sizeof(long),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    for (int i = 0; i < SLOTS; i++)
        mem[i] = 0;
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    CHECK_MPI(MPI_Win_lock_all(0, win));
    pthread_t th[THREADS];
    for (long i = 0; i < THREADS; i++)
        CHECK(pthread_create(&th[i], NULL, work, (void *)i) == 0,
              "pthread_create");
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_join(th[i], NULL) == 0, "pthread_join");
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* Every (rank, thread) visits each target ROUNDS / size times (the
       target cycles through all ranks), so each target gets
       THREADS * ROUNDS hits per counter in all. */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    long hits = (long)THREADS * ROUNDS;
    CHECK(mem[ONE] == hits, "one-element accumulates: %ld, expected %ld",
          mem[ONE], hits);
    CHECK(mem[FOP] == hits, "fetch_and_ops: %ld, expected %ld", mem[FOP],
          hits);
    CHECK(mem[CAS] == hits, "compare-and-swap increments: %ld, expected %ld",
          mem[CAS], hits);
    /* Element e gets one from every whole-array accumulate, and one from
       each fetch_and_op of a round r with (r + k) % ARR == e for some k
       in 0, 3, ..., 15; a target's rounds are spread over all r. */
    long expect[ARR] = {0};
    for (int t = 0; t < size; t++)
        for (int id = 0; id < THREADS; id++)
            for (int r = 0; r < ROUNDS; r++) {
                if ((t + id + r) % size != rank)
                    continue;
                for (int e = 0; e < ARR; e++)
                    expect[e]++;
                for (int k = 0; k < ARR; k += 3)
                    expect[(r + k) % ARR]++;
            }
    for (int e = 0; e < ARR; e++)
        CHECK(mem[ARR0 + e] == expect[e],
              "element %d: %ld, expected %ld (updates lost)", e,
              mem[ARR0 + e], expect[e]);
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
