/* thread_serialized: under MPI_THREAD_SERIALIZED four threads per rank take turns (a mutex) posting, testing and completing their own sends and receives around a ring; every payload is checked, and MPI_Is_thread_main/MPI_Query_thread answer right in each thread. */
/* shmpi-test: np=2,4 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <pthread.h>

/* Under SERIALIZED the program guarantees that no two threads are in MPI
   at once: every MPI call below is made holding `turn`.  Built with
   ThreadSanitizer (make check-tsan) this is also the check that the
   library keeps no per-thread assumption and hands its state from thread
   to thread only through the program's own synchronization. */
#define THREADS 4
#define ROUNDS 2000
#define WINDOW 8

static pthread_mutex_t turn = PTHREAD_MUTEX_INITIALIZER;
static int rank, size, provided;

struct worker {
    int id;
    long checked;              /* payloads verified */
    int main_flag, level;      /* what MPI said in this thread */
};

static int payload(int from, int thread, int round, int k)
{
    return ((from * THREADS + thread) * ROUNDS + round) * 4 + k;
}

static void *work(void *arg)
{
    struct worker *w = arg;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    pthread_mutex_lock(&turn);
    CHECK_MPI(MPI_Is_thread_main(&w->main_flag));
    CHECK_MPI(MPI_Query_thread(&w->level));
    pthread_mutex_unlock(&turn);
    for (int round = 0; round < ROUNDS; round += WINDOW) {
        int out[WINDOW][4], in[WINDOW][4];
        MPI_Request req[2 * WINDOW];
        pthread_mutex_lock(&turn);
        for (int i = 0; i < WINDOW; i++) {
            for (int k = 0; k < 4; k++) {
                out[i][k] = payload(rank, w->id, round + i, k);
                in[i][k] = -1;
            }
            CHECK_MPI(MPI_Irecv(in[i], 4, MPI_INT, left, w->id,
                                MPI_COMM_WORLD, &req[2 * i]));
            CHECK_MPI(MPI_Isend(out[i], 4, MPI_INT, right, w->id,
                                MPI_COMM_WORLD, &req[2 * i + 1]));
        }
        pthread_mutex_unlock(&turn);
        /* never block holding the turn: the matching sends of the left
           neighbour's thread may wait behind another of its threads */
        for (int done = 0; !done;) {
            pthread_mutex_lock(&turn);
            CHECK_MPI(MPI_Testall(2 * WINDOW, req, &done,
                                  MPI_STATUSES_IGNORE));
            pthread_mutex_unlock(&turn);
        }
        /* same tag, same source: non-overtaking puts them in order */
        for (int i = 0; i < WINDOW; i++)
            for (int k = 0; k < 4; k++) {
                int want = payload(left, w->id, round + i, k);
                CHECK(in[i][k] == want,
                      "thread %d round %d word %d: got %d, expected %d",
                      w->id, round + i, k, in[i][k], want);
                w->checked++;
            }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED,
                              &provided));
    CHECK(provided >= MPI_THREAD_SERIALIZED,
          "MPI_Init_thread(MPI_THREAD_SERIALIZED) provided only %d", provided);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    pthread_t t[THREADS];
    struct worker w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (struct worker){.id = i, .main_flag = -1, .level = -1};
        CHECK(pthread_create(&t[i], NULL, work, &w[i]) == 0,
              "pthread_create");
    }
    for (int i = 0; i < THREADS; i++) {
        CHECK(pthread_join(t[i], NULL) == 0, "pthread_join");
        CHECK(w[i].checked == (long)ROUNDS * 4,
              "thread %d checked %ld words, expected %d", i, w[i].checked,
              ROUNDS * 4);
        CHECK(w[i].main_flag == 0,
              "MPI_Is_thread_main said %d in thread %d", w[i].main_flag, i);
        CHECK(w[i].level == provided,
              "MPI_Query_thread said %d in thread %d, MPI_Init_thread %d",
              w[i].level, i, provided);
    }
    int flag = -1;
    CHECK_MPI(MPI_Is_thread_main(&flag));
    CHECK(flag == 1, "MPI_Is_thread_main said %d in the main thread", flag);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
