/* pcoll_mixed_threads_ext: under MPI_THREAD_MULTIPLE three threads per process each run pcoll_mixed_ext's rounds (persistent MPI_Allreduce_init of a few bytes started with blocking, nonblocking and other persistent collectives between start and wait, every result checked) at once, each on its own duplicate of MPI_COMM_WORLD.  ext: Open MPI 4.1 has only the MPIX_ names. */
/* shmpi-test: np=1,2,3,4 timeout=180 ext threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "pcoll_mixed.h"
#include "thread_multiple.h"

#define THREADS 3

struct thread {
    int id;
    MPI_Comm comm;
};

static void *work(void *p)
{
    struct thread *t = p;
    mixed(t->comm, t->id, 1000);
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    struct thread t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        t[i].id = i;
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &t[i].comm));
    }
    mt_run(THREADS, work, t, sizeof t[0]);
    for (int i = 0; i < THREADS; i++)
        CHECK_MPI(MPI_Comm_free(&t[i].comm));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
