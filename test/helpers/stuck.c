/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stuck - rank programs that deadlock, or only look like they might
 * (test/deadlock*.sh, test/hang-report.sh).
 *
 *   stuck headon     both ranks MPI_Recv from each other (np = 2)
 *   stuck ring       rank r MPI_Ssend to r + 1, then receives from r - 1
 *   stuck finalized  rank 1 finalizes; rank 0 receives from rank 1
 *   stuck mismatch   rank 0 in MPI_Barrier, rank 1 in MPI_Recv from 0
 *   stuck compute S  rank 0 sleeps S s then sends to every rank, which
 *                    wait for it in MPI_Recv; then MPI_Finalize
 *   stuck large MB   rank 0 MPI_Send's MB MiB to rank 1, which sleeps
 *                    1.5 s first; then rank 1 sends it back
 *   stuck slow S     rank 1 sleeps S s, then every rank MPI_Barrier
 *   stuck threads    MPI_THREAD_MULTIPLE, two threads a rank, each in
 *                    MPI_Recv from the other rank (np = 2)
 *   stuck threads-compute S  two threads a rank: one in MPI_Recv from
 *                    the other rank, one sleeping S s outside MPI, then
 *                    sending what the other rank's first thread waits for
 *
 * The deadlocking ones never return: the launcher must end them.  The
 * others exit 0 after checking what they received.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

static void nap(double s)
{
    usleep((useconds_t)(s * 1e6));
}

static void headon(void)
{
    int x;
    MPI_Recv(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void ring(void)
{
    int x = rank;
    MPI_Ssend(&x, 1, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD);
    MPI_Recv(&x, 1, MPI_INT, (rank + size - 1) % size, 5, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
}

static void finalized(void)
{
    if (rank == 0) {
        int x;
        MPI_Recv(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static void mismatch(void)
{
    int x;
    if (rank == 0)
        MPI_Barrier(MPI_COMM_WORLD);
    else
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static int compute(double s)
{
    int x = 42;
    if (rank == 0) {
        nap(s);
        for (int r = 1; r < size; r++)
            MPI_Send(&x, 1, MPI_INT, r, 0, MPI_COMM_WORLD);
        return 0;
    }
    x = 0;
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return x != 42;
}

static int large(size_t mb)
{
    size_t n = mb << 20;
    unsigned char *buf = malloc(n);
    if (!buf)
        return 1;
    for (size_t i = 0; i < n; i++)
        buf[i] = rank == 0 ? (unsigned char)(i * 7) : 0;
    if (rank == 0) {
        MPI_Send(buf, (int)n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, (int)n, MPI_BYTE, 1, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        nap(1.5);
        MPI_Recv(buf, (int)n, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Send(buf, (int)n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
    int bad = 0;
    for (size_t i = 0; rank < 2 && i < n; i++)
        bad |= buf[i] != (unsigned char)(i * 7);
    free(buf);
    return bad;
}

static void slow(double s)
{
    if (rank == 1)
        nap(s);
    MPI_Barrier(MPI_COMM_WORLD);
}

static double thread_nap;

static void *thread_main(void *arg)
{
    int id = (int)(long)arg, x = 7;
    if (id == 1 && thread_nap > 0) {
        nap(thread_nap); /* outside MPI: the rank computes */
        MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
        return NULL;
    }
    MPI_Recv(&x, 1, MPI_INT, 1 - rank, id, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return (void *)(long)(x != 7);
}

/* The main thread is thread 0: a thread waiting in pthread_join would
   be a thread outside MPI, and such a rank is never reported. */
static int threads(double s)
{
    pthread_t t;
    void *bad1;
    thread_nap = s;
    pthread_create(&t, NULL, thread_main, (void *)1L);
    void *bad0 = thread_main((void *)0L);
    pthread_join(t, &bad1);
    return bad0 || bad1;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE &&
        (argc > 1 && !strncmp(argv[1], "threads", 7))) {
        fprintf(stderr, "stuck: MPI_THREAD_MULTIPLE not provided\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "";
    double arg = argc > 2 ? atof(argv[2]) : 0;
    int bad = 0;
    if (!strcmp(mode, "headon"))
        headon();
    else if (!strcmp(mode, "ring"))
        ring();
    else if (!strcmp(mode, "finalized"))
        finalized();
    else if (!strcmp(mode, "mismatch"))
        mismatch();
    else if (!strcmp(mode, "compute"))
        bad = compute(arg);
    else if (!strcmp(mode, "large"))
        bad = large((size_t)arg);
    else if (!strcmp(mode, "slow"))
        slow(arg);
    else if (!strcmp(mode, "threads"))
        bad = threads(0);
    else if (!strcmp(mode, "threads-compute"))
        bad = threads(arg);
    else {
        fprintf(stderr, "stuck: unknown mode '%s'\n", mode);
        bad = 1;
    }
    MPI_Finalize();
    return bad;
}
