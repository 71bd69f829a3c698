/* init_thread: MPI_Init_thread returns a valid level that MPI_Query_thread repeats; MPI_Is_thread_main knows the main thread. */
/* shmpi-test: np=1,2 timeout=30 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <pthread.h>

static int other_flag = -1, other_level = -1;

static void *other(void *arg)
{
    (void)arg;
    MPI_Is_thread_main(&other_flag);
    MPI_Query_thread(&other_level);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1, flag = -1;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE,
          "MPI_Init_thread: provided = %d is not a thread level", provided);
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(flag == 1, "MPI_Initialized says %d after MPI_Init_thread", flag);
    int level = -1;
    CHECK_MPI(MPI_Query_thread(&level));
    CHECK(level == provided, "MPI_Query_thread says %d, MPI_Init_thread said %d",
          level, provided);
    flag = -1;
    CHECK_MPI(MPI_Is_thread_main(&flag));
    CHECK(flag == 1, "MPI_Is_thread_main: %d in the main thread", flag);

    /* Only at MPI_THREAD_MULTIPLE may another thread call MPI at all. */
    if (provided == MPI_THREAD_MULTIPLE) {
        pthread_t t;
        CHECK(pthread_create(&t, NULL, other, NULL) == 0, "pthread_create");
        pthread_join(t, NULL);
        CHECK(other_flag == 0, "MPI_Is_thread_main: %d in another thread",
              other_flag);
        CHECK(other_level == provided,
              "MPI_Query_thread in another thread: %d", other_level);
    }
    int rank;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    if (rank == 0)
        printf("MPI_Init_thread(MPI_THREAD_MULTIPLE) provided %d\n", provided);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
