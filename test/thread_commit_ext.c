/* thread_commit_ext: with MPI_THREAD_MULTIPLE asked for, four threads commit the same new datatype at the same moment, round after round, while building types on it; each returns with the type committed and packing right (shmpi's guarantee: the standard does not say whether one type may be committed by two threads at once). */
/* shmpi-test: np=1 timeout=240 threads ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <pthread.h>

/* Under MPI_THREAD_MULTIPLE, which shmpi provides (see thread_objects). */
#define THREADS 4
#define ROUNDS 400

static pthread_barrier_t meet;
static MPI_Datatype shared; /* made by thread 0 each round */

static void check_pack(MPI_Datatype t, int round, int id)
{
    int src[12], packed[6], pos = 0;
    for (int i = 0; i < 12; i++)
        src[i] = i * 100 + round;
    CHECK_MPI(MPI_Pack(src, 1, t, packed, sizeof packed, &pos,
                       MPI_COMM_SELF));
    CHECK(pos == (int)sizeof packed, "thread %d: packed %d bytes", id, pos);
    static const int at[6] = {0, 1, 4, 5, 8, 9};
    for (int i = 0; i < 6; i++)
        CHECK(packed[i] == at[i] * 100 + round,
              "thread %d round %d: packed[%d] = %d", id, round, i,
              packed[i]);
}

static void *work(void *arg)
{
    int id = *(int *)arg;
    for (int round = 0; round < ROUNDS; round++) {
        if (id == 0)
            CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &shared));
        pthread_barrier_wait(&meet);
        MPI_Datatype t = shared, on;
        /* the odd threads also build on it while it is being committed */
        if (id & 1)
            CHECK_MPI(MPI_Type_contiguous(2, t, &on));
        CHECK_MPI(MPI_Type_commit(&t));
        check_pack(t, round, id);
        if (id & 1) {
            CHECK_MPI(MPI_Type_commit(&on));
            int size;
            CHECK_MPI(MPI_Type_size(on, &size));
            CHECK(size == 48, "contiguous of the shared type: size %d",
                  size);
            CHECK_MPI(MPI_Type_free(&on));
        }
        pthread_barrier_wait(&meet);
        if (id == 0)
            CHECK_MPI(MPI_Type_free(&shared));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE,
          "MPI_Init_thread(MPI_THREAD_MULTIPLE) provided only %d", provided);
    CHECK(pthread_barrier_init(&meet, NULL, THREADS) == 0, "barrier");
    pthread_t t[THREADS];
    int ids[THREADS];
    for (int i = 0; i < THREADS; i++) {
        ids[i] = i;
        CHECK(pthread_create(&t[i], NULL, work, &ids[i]) == 0,
              "pthread_create");
    }
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_join(t[i], NULL) == 0, "pthread_join");
    CHECK_MPI(MPI_Finalize());
    printf("thread_commit_ext: %d threads x %d rounds ok\n", THREADS, ROUNDS);
    return 0;
}
