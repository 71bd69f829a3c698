/* thread_sync_signal: under MPI_THREAD_MULTIPLE four threads per rank put into every rank's window and signal its sync counter (MPI_Start and MPI_Wait of their own MPI_Win_sync_ops_init requests, MPI_MODE_WIN_PUT) all at once, while each rank's main thread waits on its counter for exactly every signal; every put is seen when the counter says so, and no signal is lost or counted twice. */
/* shmpi-test: np=2,4 timeout=120 threads ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "sync_test.h"

#include <pthread.h>

/* Rank r's window holds, for every (origin, thread), ROUNDS ints: round
   k's put writes the k-th.  Each put's request signals r's counter; r's
   main thread armed it with every signal of the run, so when its wait
   returns all puts are done and visible.  The requests are made by the
   main thread before the threads start (they are requests, made and
   freed through point-to-point's request table); a thread only starts
   and waits for its own. */
#define THREADS 4
#define ROUNDS 200

static int rank, size;
static MPI_Win win;
static int *mem;
static MPI_Request ops[THREADS][64]; /* [thread][target] */

static int value(int origin, int id, int round)
{
    return (origin * THREADS + id) * ROUNDS + round + 1;
}

static MPI_Aint slot(int origin, int id, int round)
{
    return ((MPI_Aint)origin * THREADS + id) * ROUNDS + round;
}

static void *signal_all(void *arg)
{
    int id = (int)(long)arg;
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < size; i++) {
            int t = (rank + id + i) % size, v = value(rank, id, r);
            CHECK_MPI(MPI_Start(&ops[id][t]));
            CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, slot(rank, id, r), 1,
                              MPI_INT, win));
            CHECK_MPI(MPI_Wait(&ops[id][t], MPI_STATUS_IGNORE));
        }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size <= 64, "at most 64 ranks");
    MPI_Aint n = (MPI_Aint)size * THREADS * ROUNDS;
    CHECK_MPI(MPI_Win_allocate(n * (MPI_Aint)sizeof(int), sizeof(int),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    for (MPI_Aint i = 0; i < n; i++)
        mem[i] = 0;
    MPI_Sync mine, all[64];
    CHECK_MPI(MPI_Win_alloc_sync_objects(1, &mine, win, MPI_INFO_NULL));
    CHECK_MPI(MPI_Allgather(&mine, 1, MPI_HANDLE_SYNC, all, 1,
                            MPI_HANDLE_SYNC, MPI_COMM_WORLD));
    for (int id = 0; id < THREADS; id++)
        for (int t = 0; t < size; t++)
            CHECK_MPI(MPI_Win_sync_ops_init(t, MPI_MODE_WIN_PUT, all[t], win,
                                            MPI_INFO_NULL, &ops[id][t]));
    MPI_Request everything;
    CHECK_MPI(MPI_Win_sync_object_init(mine, (int)n, win, MPI_INFO_NULL,
                                       &everything));
    CHECK_MPI(MPI_Start(&everything));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* armed everywhere */

    pthread_t th[THREADS];
    for (long i = 0; i < THREADS; i++)
        CHECK(pthread_create(&th[i], NULL, signal_all, (void *)i) == 0,
              "pthread_create");
    /* while the threads signal: the counter reaches 0 with the last */
    CHECK_MPI(MPI_Wait(&everything, MPI_STATUS_IGNORE));
    for (int o = 0; o < size; o++)
        for (int id = 0; id < THREADS; id++)
            for (int r = 0; r < ROUNDS; r++)
                CHECK(mem[slot(o, id, r)] == value(o, id, r),
                      "put %d of thread %d of rank %d: %d, expected %d", r,
                      id, o, mem[slot(o, id, r)], value(o, id, r));
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_join(th[i], NULL) == 0, "pthread_join");

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* nobody signals any more */
    sync_expect_balanced(win, mine, "after the run");
    CHECK_MPI(MPI_Request_free(&everything));
    for (int id = 0; id < THREADS; id++)
        for (int t = 0; t < size; t++)
            CHECK_MPI(MPI_Request_free(&ops[id][t]));
    CHECK_MPI(MPI_Win_free_sync_objects(1, &mine, win));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
