/* p2p_part_threads_ext: the hybrid case of partitioned communication under MPI_THREAD_MULTIPLE: four threads of the sending rank each fill and MPI_Pready their own partitions of one request at once, while four threads of the receiving rank poll MPI_Parrived for theirs and check the data; 200 rounds, the main threads starting and waiting (the sender's, every other round, while its threads ready). */
/* shmpi-test: np=2 timeout=120 ext threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include <pthread.h>

#include "check.h"

#define THREADS 4
#define PER 8                  /* partitions per thread */
#define PARTS (THREADS * PER)
#define COUNT 64
#define ROUNDS 200

static int rank;
static long buf[PARTS * COUNT];
static MPI_Request req;
static pthread_barrier_t started, finished;

static long value(int round, int i)
{
    return (long)round * 100000 + i;
}

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    for (int round = 0; round < ROUNDS; round++) {
        pthread_barrier_wait(&started); /* the main thread started req */
        for (int k = 0; k < PER; k++) {
            int p = k * THREADS + t; /* interleaved with the others' */
            if (rank == 0) {
                for (int i = p * COUNT; i < (p + 1) * COUNT; i++)
                    buf[i] = value(round, i);
                CHECK_MPI(MPI_Pready(p, req));
            } else {
                int flag = 0;
                while (!flag)
                    CHECK_MPI(MPI_Parrived(req, p, &flag));
                for (int i = p * COUNT; i < (p + 1) * COUNT; i++)
                    CHECK(buf[i] == value(round, i),
                          "round %d partition %d: buf[%d] = %ld", round, p,
                          i, buf[i]);
            }
        }
        pthread_barrier_wait(&finished);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    if (rank == 0)
        CHECK_MPI(MPI_Psend_init(buf, PARTS, COUNT, MPI_LONG, 1, 0,
                                 MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    else
        CHECK_MPI(MPI_Precv_init(buf, PARTS, COUNT, MPI_LONG, 0, 0,
                                 MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    pthread_barrier_init(&started, NULL, THREADS + 1);
    pthread_barrier_init(&finished, NULL, THREADS + 1);
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, worker, (void *)t) == 0,
              "pthread_create");
    for (int round = 0; round < ROUNDS; round++) {
        CHECK_MPI(MPI_Start(&req));
        pthread_barrier_wait(&started);
        MPI_Status st;
        /* every other round the sender waits while its threads ready
           the partitions, its wait packing what they readied too */
        int early = rank == 0 && round % 2;
        if (early)
            CHECK_MPI(MPI_Wait(&req, &st));
        pthread_barrier_wait(&finished);
        if (!early)
            CHECK_MPI(MPI_Wait(&req, &st));
        if (rank == 1) {
            int count;
            CHECK_MPI(MPI_Get_count(&st, MPI_LONG, &count));
            CHECK(count == PARTS * COUNT && st.MPI_SOURCE == 0,
                  "round %d: count %d source %d", round, count,
                  st.MPI_SOURCE);
        }
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    CHECK_MPI(MPI_Request_free(&req));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
