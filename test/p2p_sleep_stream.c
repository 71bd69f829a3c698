/* p2p_sleep_stream: ranks 1 and 2 take turns sending rank 0 a burst of 1 to 3 small messages, 20000 bursts in all, while rank 0 waits asleep on its doorbell (SHMPI_SPIN_US=0, SHMPI_YIELDS=0) for every one of them; a token from rank 0 lets the next burst go, so one burst is in flight at a time, every other rank and thread sleeps, and a lost wake-up hangs the job (the launcher's deadlock report) instead of being rescued by later traffic.  The contents, order and sources are checked. */
/* shmpi-test: np=3 timeout=180 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdlib.h>
#include <time.h>

/* thread_sleep_stream.c includes this file with THREADS 2: each rank
   then runs THREADS threads, thread x on its own communicator (its own
   lane in shmpi), and the bursts go round the (sender rank, thread)
   pairs, so rank 0's thread of one communicator sleeps while the other
   one's messages arrive. */
#ifndef THREADS
#define THREADS 1
#endif
#define BURSTS 20000
#define SENDERS (2 * THREADS) /* (rank 1 or 2, thread) pairs */

static MPI_Comm comm[THREADS];

/* Burst b: sent by rank sender_rank(b)'s thread (and over the
   communicator of) sender_thread(b).  Rounds go 1.0, 2.1, 1.1, 2.0, ...
   with 2 threads, 1, 2, 1, 2 with one: each thread of rank 0 receives
   from both ranks. */
static int sender_rank(int b)
{
    return 1 + b % 2;
}

static int sender_thread(int b)
{
    return (b / 2 + b % 2) % THREADS;
}

static int burst_len(int b)
{
    return 1 + b * 7 % 3;
}

/* A few microseconds of work on some bursts before the send: the
   receiver then is asleep already, or is counting itself as a sleeper
   while the message comes. */
static void dawdle(int b)
{
    long ns = b % 5 == 0 ? b * 7919L % 20000 : 0;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) <
           ns);
}

/* Rank 0's thread x: every burst sent over comm[x], then the token to
   the next burst's sender, over that one's communicator. */
static void receive(int x)
{
    for (int b = 0; b < BURSTS; b++) {
        if (sender_thread(b) != x)
            continue;
        int from = sender_rank(b);
        for (int k = 0; k < burst_len(b); k++) {
            int got[2] = {-1, -1};
            MPI_Status st;
            CHECK_MPI(MPI_Recv(got, 2, MPI_INT, MPI_ANY_SOURCE, 0, comm[x],
                               &st));
            CHECK(st.MPI_SOURCE == from && got[0] == b && got[1] == k,
                  "thread %d, burst %d message %d: (%d, %d) from rank %d, "
                  "expected rank %d", x, b, k, got[0], got[1], st.MPI_SOURCE,
                  from);
        }
        if (b + 1 < BURSTS)
            CHECK_MPI(MPI_Send(&b, 1, MPI_INT, sender_rank(b + 1), 1,
                               comm[sender_thread(b + 1)]));
    }
}

/* Rank r's thread x: its bursts, each after the token of the one
   before. */
static void send_bursts(int r, int x)
{
    for (int b = 0; b < BURSTS; b++) {
        if (sender_rank(b) != r || sender_thread(b) != x)
            continue;
        if (b > 0) {
            int token = -1;
            CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 1, comm[x],
                               MPI_STATUS_IGNORE));
            CHECK(token == b - 1, "rank %d thread %d: token %d, expected %d",
                  r, x, token, b - 1);
        }
        dawdle(b);
        for (int k = 0; k < burst_len(b); k++) {
            int m[2] = {b, k};
            CHECK_MPI(MPI_Send(m, 2, MPI_INT, 0, 0, comm[x]));
        }
    }
}

static int rank;

static void *run(void *arg)
{
    int x = *(int *)arg;
    if (rank == 0)
        receive(x);
    else
        send_bursts(rank, x);
    return NULL;
}

#if THREADS > 1
#include "thread_multiple.h"
#endif

int main(int argc, char **argv)
{
    /* waits go to sleep at once (shmpi's tunables; other MPIs ignore
       them) */
    setenv("SHMPI_SPIN_US", "0", 1);
    setenv("SHMPI_YIELDS", "0", 1);
    int size;
#if THREADS > 1
    mt_init(&argc, &argv);
#else
    CHECK_MPI(MPI_Init(&argc, &argv));
#endif
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size == 3, "needs 3 ranks, has %d", size);
    int ids[THREADS];
    for (int x = 0; x < THREADS; x++) {
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm[x]));
        ids[x] = x;
    }
#if THREADS > 1
    mt_run(THREADS, run, ids, sizeof ids[0]);
#else
    run(&ids[0]);
#endif
    for (int x = 0; x < THREADS; x++)
        CHECK_MPI(MPI_Comm_free(&comm[x]));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
