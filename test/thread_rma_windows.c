/* thread_rma_windows: under MPI_THREAD_MULTIPLE four threads per rank each lock, put into, get back from and unlock every rank's memory of their own window (made by the main thread on a dup of MPI_COMM_WORLD), exclusively and shared; then threads of a rank lock different targets of one shared window at once; every value read back and left behind is checked. */
/* shmpi-test: np=2,4 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <pthread.h>

/* A window has SLOT ints per rank of the job at each member: origin o
   writes only its own slot, so exclusive and shared locks both make the
   put and the get that follows it agree, and what is left at the end
   is each origin's last round. */
#define THREADS 4
#define ROUNDS 300
#define SLOT 8

static int rank, size;
static MPI_Win own[THREADS], shared;
static int *own_mem[THREADS], *shared_mem;

static int value(int origin, int id, int round, int k)
{
    return ((origin * THREADS + id) * ROUNDS + round) * SLOT + k;
}

/* One lock epoch on target t of w: put this rank's slot, get it back. */
static void put_get(MPI_Win w, int t, int type, int id, int round)
{
    int out[SLOT], in[SLOT];
    for (int k = 0; k < SLOT; k++)
        out[k] = value(rank, id, round, k), in[k] = -1;
    CHECK_MPI(MPI_Win_lock(type, t, 0, w));
    CHECK_MPI(MPI_Put(out, SLOT, MPI_INT, t, (MPI_Aint)rank * SLOT, SLOT,
                      MPI_INT, w));
    CHECK_MPI(MPI_Win_flush(t, w));
    CHECK_MPI(MPI_Get(in, SLOT, MPI_INT, t, (MPI_Aint)rank * SLOT, SLOT,
                      MPI_INT, w));
    CHECK_MPI(MPI_Win_unlock(t, w));
    for (int k = 0; k < SLOT; k++)
        CHECK(in[k] == out[k], "thread %d round %d: read back %d from %d, "
              "put %d", id, round, in[k], t, out[k]);
}

/* Each thread on its own window, every target in turn; every third
   round holds two lock epochs at once (two targets, 11.5.3), taken in
   descending order of target as at every rank, so that no two ranks
   wait for each other's locks. */
static void *own_window(void *arg)
{
    int id = (int)(long)arg;
    MPI_Win w = own[id];
    for (int r = 0; r < ROUNDS; r++) {
        int t = (rank + r) % size, u = (t + 1) % size;
        int type = r % 2 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;
        if (r % 3 == 2 && u > t) {
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, u, 0, w));
            put_get(w, t, type, id, r);
            CHECK_MPI(MPI_Win_unlock(u, w));
        } else {
            put_get(w, t, type, id, r);
        }
    }
    return NULL;
}

/* Threads 0 .. size-1 of a rank on the one shared window, each on its
   own target (a process locks a target once at a time, 11.5.3). */
static void *shared_window(void *arg)
{
    int id = (int)(long)arg;
    for (int r = 0; r < ROUNDS; r++)
        put_get(shared, (rank + id) % size,
                r % 2 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, id, r);
    return NULL;
}

static void run(void *(*fn)(void *), int nthreads)
{
    pthread_t th[THREADS];
    for (long i = 0; i < nthreads; i++)
        CHECK(pthread_create(&th[i], NULL, fn, (void *)i) == 0,
              "pthread_create");
    for (int i = 0; i < nthreads; i++)
        CHECK(pthread_join(th[i], NULL) == 0, "pthread_join");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* What each origin's last round left in this rank's memory of w: on
   its own window (id >= 0) thread id of origin o wrote here last in the
   last round r with (o + r) % size == rank; on the shared window
   (id < 0), the thread (rank - o) mod size of o, if any, every round. */
static void check_left(int *mem, MPI_Win w, int id, const char *what)
{
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w));
    for (int o = 0; o < size; o++) {
        int by = id, last = ROUNDS - 1;
        if (id >= 0)
            while ((o + last) % size != rank)
                last--;
        else if ((by = (rank - o + size) % size) >= THREADS)
            continue;
        for (int k = 0; k < SLOT; k++) {
            int want = value(o, by, last, k);
            CHECK(mem[o * SLOT + k] == want, "%s: slot of %d holds %d, "
                  "expected %d", what, o, mem[o * SLOT + k], want);
        }
    }
    CHECK_MPI(MPI_Win_unlock(rank, w));
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Aint bytes = (MPI_Aint)size * SLOT * sizeof(int);
    MPI_Comm dup[THREADS];
    for (int i = 0; i < THREADS; i++) {
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup[i]));
        CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, dup[i],
                                   &own_mem[i], &own[i]));
    }
    CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &shared_mem, &shared));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    run(own_window, THREADS);
    for (int i = 0; i < THREADS; i++)
        check_left(own_mem[i], own[i], i, "own window");
    run(shared_window, size < THREADS ? size : THREADS);
    check_left(shared_mem, shared, -1, "shared window");

    CHECK_MPI(MPI_Win_free(&shared));
    for (int i = 0; i < THREADS; i++) {
        CHECK_MPI(MPI_Win_free(&own[i]));
        CHECK_MPI(MPI_Comm_free(&dup[i]));
    }
    CHECK_MPI(MPI_Finalize());
    return 0;
}
