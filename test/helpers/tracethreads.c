/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tracethreads.c - the threads case of test/trace.sh: on each of 2
 * ranks, two threads (MPI_THREAD_MULTIPLE) each exchange N messages with
 * the other rank (MPI_Irecv, MPI_Isend, MPI_Waitall: 4N records a
 * thread, more than one chunk of tools/trace/record.c's), then thread 0
 * posts a receive that thread 1 completes.  Exit status 0, or 4 if a
 * value arrived wrong.
 */
#include <mpi.h>
#include <pthread.h>

#define N 20000

static int peer, bad;
static MPI_Request shared;
static pthread_barrier_t posted;

static void *run(void *arg)
{
    int t = (int)(long)arg, in = -1, out;
    for (int i = 0; i < N; i++) {
        MPI_Request r[2];
        out = i;
        MPI_Irecv(&in, 1, MPI_INT, peer, t, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(&out, 1, MPI_INT, peer, t, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        if (in != i)
            bad = 1;
    }
    static int last = -1;
    if (t == 0)
        MPI_Irecv(&last, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, &shared);
    pthread_barrier_wait(&posted);
    if (t == 1) {
        out = N;
        MPI_Send(&out, 1, MPI_INT, peer, 99, MPI_COMM_WORLD);
        MPI_Wait(&shared, MPI_STATUS_IGNORE);
        if (last != N)
            bad = 1;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    pthread_barrier_init(&posted, NULL, 2);
    pthread_t th[2];
    for (long t = 0; t < 2; t++)
        pthread_create(&th[t], NULL, run, (void *)t);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    MPI_Finalize();
    return provided == MPI_THREAD_MULTIPLE && !bad ? 0 : 4;
}
