/* thread_finalize: under MPI_THREAD_MULTIPLE four threads per rank communicate on MPI_COMM_WORLD and on communicators of their own, free them and are joined; then the main thread calls MPI_Finalize while one more thread, outside MPI, is still alive, and that thread then finds MPI_Finalized true; the job ends cleanly. */
/* shmpi-test: np=2,4 timeout=60 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "thread_multiple.h"

/* MPI-3.1 12.4.3: MPI_Finalize is called by the thread that initialized
   MPI, once every thread's MPI calls have completed (here: joined); other
   threads may go on living, and MPI_Finalized may be called by any
   thread at any time.  What the harness adds: no process and no
   /dev/shm entry of the job may be left behind. */
#define THREADS 4
#define ITERS 100

static int rank, size;
static MPI_Comm comm[THREADS];

struct worker {
    int id, main_flag, level;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    CHECK_MPI(MPI_Is_thread_main(&w->main_flag));
    CHECK_MPI(MPI_Query_thread(&w->level));
    for (int it = 0; it < ITERS; it++) {
        int out[2] = {w->id, it}, in[2] = {-1, -1}, win[2] = {-1, -1};
        MPI_Request r[2];
        MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: gcc 12 warns on MPICH's prototype */
        CHECK_MPI(MPI_Sendrecv(out, 2, MPI_INT, right, 0, in, 2, MPI_INT, left,
                               0, comm[w->id], MPI_STATUS_IGNORE));
        CHECK(in[0] == w->id && in[1] == it, "thread %d iteration %d: got "
              "(%d, %d) on its communicator", w->id, it, in[0], in[1]);
        CHECK_MPI(MPI_Irecv(win, 2, MPI_INT, left, w->id, MPI_COMM_WORLD, &r[0]));
        CHECK_MPI(MPI_Isend(out, 2, MPI_INT, right, w->id, MPI_COMM_WORLD, &r[1]));
        CHECK_MPI(MPI_Waitall(2, r, st));
        CHECK(win[0] == w->id && win[1] == it, "thread %d iteration %d: got "
              "(%d, %d) on MPI_COMM_WORLD", w->id, it, win[0], win[1]);
    }
    CHECK_MPI(MPI_Comm_free(&comm[w->id]));
    return NULL;
}

/* The thread that outlives MPI: it asks MPI_Finalized before and after;
   `stage` (under `lock`) hands the turn over: 1 once it asked before, 2
   once the main thread's MPI_Finalize returned. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int stage, before = -1, after = -1, initialized_after = -1;

static void wait_stage(int want)
{
    pthread_mutex_lock(&lock);
    while (stage < want)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
}

static void set_stage(int to)
{
    pthread_mutex_lock(&lock);
    stage = to;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

static void *survivor(void *arg)
{
    (void)arg;
    CHECK_MPI(MPI_Finalized(&before));
    set_stage(1);
    wait_stage(2);
    MPI_Finalized(&after);
    MPI_Initialized(&initialized_after);
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    for (int i = 0; i < THREADS; i++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm[i]));
    struct worker w[THREADS];
    for (int i = 0; i < THREADS; i++)
        w[i] = (struct worker){.id = i, .main_flag = -1, .level = -1};
    mt_run(THREADS, work, w, sizeof w[0]);
    for (int i = 0; i < THREADS; i++) {
        CHECK(w[i].main_flag == 0, "MPI_Is_thread_main said %d in thread %d",
              w[i].main_flag, i);
        CHECK(w[i].level == MPI_THREAD_MULTIPLE,
              "MPI_Query_thread said %d in thread %d", w[i].level, i);
        CHECK(comm[i] == MPI_COMM_NULL, "thread %d's communicator not freed", i);
    }
    int flag = -1;
    CHECK_MPI(MPI_Is_thread_main(&flag));
    CHECK(flag == 1, "MPI_Is_thread_main said %d in the main thread", flag);

    pthread_t s;
    CHECK(pthread_create(&s, NULL, survivor, NULL) == 0, "pthread_create");
    wait_stage(1);
    CHECK(before == 0, "MPI_Finalized said %d before MPI_Finalize", before);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());

    set_stage(2);
    CHECK(pthread_join(s, NULL) == 0, "pthread_join");
    CHECK(after == 1 && initialized_after == 1,
          "after MPI_Finalize, another thread got MPI_Finalized %d and "
          "MPI_Initialized %d, expected 1 and 1", after, initialized_after);
    return 0;
}
