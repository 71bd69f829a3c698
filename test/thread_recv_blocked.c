/* thread_recv_blocked: under MPI_THREAD_MULTIPLE one thread per rank sits in a wildcard MPI_Recv on its own communicator from start to end while three other threads exchange 100 000 messages per rank around a ring on communicators of their own; the blocked receive neither stops their progress nor matches any of their messages, and completes with the one message meant for it. */
/* shmpi-test: np=2,4 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "thread_multiple.h"

/* The blocked thread's message is sent by the left neighbour's main
   thread only after that rank's workers have finished, and a worker
   finishes only when its neighbours' workers have exchanged everything
   with it: the receive cannot be satisfied early, and if it kept the
   other threads from progressing (a lock held across the wait, progress
   reserved to the waiting thread) the job would hang. */
#define WORKERS 3
#define MSGS 33333 /* sent by each worker: 100 000 per rank */
#define WINDOW 128

static int rank, size, left, right;
static MPI_Comm blocked_comm, worker_comm[WORKERS];

struct worker {
    int id;
    long sent, received;
};

static void *blocked(void)
{
    int got[2] = {-1, -1};
    MPI_Status st;
    CHECK_MPI(MPI_Recv(got, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                       blocked_comm, &st));
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 99 && got[0] == left &&
              got[1] == -7,
          "the blocked receive got (%d, %d) from %d with tag %d, expected "
          "(%d, -7) from %d with tag 99", got[0], got[1], st.MPI_SOURCE,
          st.MPI_TAG, left, left);
    return NULL;
}

static void *exchange(struct worker *w)
{
    MPI_Comm comm = worker_comm[w->id];
    long next_in = 0, next_out = 0;
    while (next_out < MSGS) {
        int out[WINDOW][2], in[WINDOW][2], n = 0;
        MPI_Request req[2 * WINDOW];
        MPI_Status st[2 * WINDOW];
        int k = MSGS - next_out < WINDOW ? (int)(MSGS - next_out) : WINDOW;
        for (int i = 0; i < k; i++) {
            out[i][0] = rank;
            out[i][1] = (int)next_out++;
            CHECK_MPI(MPI_Irecv(in[i], 2, MPI_INT, left, 0, comm, &req[n++]));
            CHECK_MPI(MPI_Isend(out[i], 2, MPI_INT, right, 0, comm, &req[n++]));
        }
        CHECK_MPI(MPI_Waitall(n, req, st));
        for (int i = 0; i < k; i++) {
            CHECK(in[i][0] == left && in[i][1] == next_in,
                  "worker %d: got (%d, %d), expected (%d, %ld)", w->id,
                  in[i][0], in[i][1], left, next_in);
            next_in++;
        }
    }
    w->sent = next_out;
    w->received = next_in;
    return NULL;
}

static void *work(void *arg)
{
    struct worker *w = arg;
    return w->id < 0 ? blocked() : exchange(w);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &blocked_comm));
    for (int i = 0; i < WORKERS; i++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &worker_comm[i]));

    /* the blocked thread runs beside mt_run's workers, from before they
       start until after they are joined */
    struct worker b = {.id = -1};
    pthread_t bt;
    CHECK(pthread_create(&bt, NULL, work, &b) == 0, "pthread_create");
    struct worker w[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        w[i] = (struct worker){.id = i};
    mt_run(WORKERS, work, w, sizeof w[0]);
    for (int i = 0; i < WORKERS; i++)
        CHECK(w[i].sent == MSGS && w[i].received == MSGS,
              "worker %d sent %ld and received %ld, expected %d", i,
              w[i].sent, w[i].received, MSGS);
    int end[2] = {rank, -7};
    CHECK_MPI(MPI_Send(end, 2, MPI_INT, right, 99, blocked_comm));
    CHECK(pthread_join(bt, NULL) == 0, "pthread_join");

    for (int i = 0; i < WORKERS; i++)
        CHECK_MPI(MPI_Comm_free(&worker_comm[i]));
    CHECK_MPI(MPI_Comm_free(&blocked_comm));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
