/* thread_p2p_tags: under MPI_THREAD_MULTIPLE four threads per rank each exchange 100 000 messages with every other rank on MPI_COMM_WORLD at once, a tag per thread, in nonblocking windows, blocking Send/Recv pairs and Sendrecv shifts; every payload (sender, thread, sequence number) arrives, and in order. */
/* shmpi-test: np=2,4 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "thread_multiple.h"

/* Thread t of every rank talks only to thread t of the others (tag t),
   so each (sender, tag) stream is one thread's, and the standard's
   non-overtaking rule (MPI-3.1 3.5) orders it: receives of one thread
   posted in order from one source with one tag match that source's
   thread's messages in the order they were sent.  Four threads share
   MPI_COMM_WORLD, so a library that matched or queued without regard to
   threads would mix the streams up, lose or duplicate a message, or
   reorder one. */
#define THREADS 4
#define MSGS 25000  /* sent by each thread: 100 000 per rank */
#define WINDOW 64   /* nonblocking units per Waitall */
#define MAXP 8      /* ranks */
/* A cycle: WINDOWS nonblocking windows, then BLOCKING units of blocking
   pairs and as many of Sendrecv shifts.  Blocking units are few: with
   more threads than cores each one waits for a peer thread's time slice
   (Open MPI 4.1, 2026-11-29: ~10 ms per unit at np=2), while a window's
   64 messages cost one such wait. */
#define WINDOWS 8
#define BLOCKING 2

static int rank, size;

struct worker {
    int id;
    long sent, received;
    long next_out[MAXP], next_in[MAXP]; /* per peer rank */
};

static void fill(struct worker *w, int peer, int msg[3])
{
    msg[0] = rank;
    msg[1] = w->id;
    msg[2] = (int)w->next_out[peer]++;
    w->sent++;
}

static void got(struct worker *w, int peer, const int msg[3],
                const MPI_Status *st)
{
    int count = -1;
    CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
    CHECK(count == 3 && st->MPI_SOURCE == peer && st->MPI_TAG == w->id,
          "thread %d: status says source %d tag %d count %d, expected %d, "
          "%d, 3", w->id, st->MPI_SOURCE, st->MPI_TAG, count, peer, w->id);
    long want = w->next_in[peer]++;
    CHECK(msg[0] == peer && msg[1] == w->id && msg[2] == want,
          "thread %d: from rank %d got (sender %d, thread %d, seq %d), "
          "expected (%d, %d, %ld)", w->id, peer, msg[0], msg[1], msg[2],
          peer, w->id, want);
    w->received++;
}

/* WINDOW units at once: Irecv and Isend with every peer, one Waitall. */
static void nonblocking(struct worker *w)
{
    int out[WINDOW][MAXP][3], in[WINDOW][MAXP][3];
    MPI_Request req[2 * WINDOW * MAXP];
    MPI_Status st[2 * WINDOW * MAXP];
    int n = 0;
    for (int k = 0; k < WINDOW; k++)
        for (int q = 0; q < size; q++) {
            if (q == rank)
                continue;
            CHECK_MPI(MPI_Irecv(in[k][q], 3, MPI_INT, q, w->id,
                                MPI_COMM_WORLD, &req[n++]));
            fill(w, q, out[k][q]);
            CHECK_MPI(MPI_Isend(out[k][q], 3, MPI_INT, q, w->id,
                                MPI_COMM_WORLD, &req[n++]));
        }
    CHECK_MPI(MPI_Waitall(n, req, st));
    n = 0;
    for (int k = 0; k < WINDOW; k++)
        for (int q = 0; q < size; q++) {
            if (q == rank)
                continue;
            got(w, q, in[k][q], &st[n]);
            n += 2;
        }
}

/* One unit of blocking pairs: partner rank ^ k, the lower one sends
   first (deadlock-free whatever the library buffers). */
static void blocking(struct worker *w)
{
    for (int k = 1; k < size; k++) {
        int q = rank ^ k, out[3], in[3];
        MPI_Status st;
        fill(w, q, out);
        if (rank < q) {
            CHECK_MPI(MPI_Send(out, 3, MPI_INT, q, w->id, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(in, 3, MPI_INT, q, w->id, MPI_COMM_WORLD, &st));
        } else {
            CHECK_MPI(MPI_Recv(in, 3, MPI_INT, q, w->id, MPI_COMM_WORLD, &st));
            CHECK_MPI(MPI_Send(out, 3, MPI_INT, q, w->id, MPI_COMM_WORLD));
        }
        got(w, q, in, &st);
    }
}

/* One unit of shifts: send k to the right, receive k from the left. */
static void shifts(struct worker *w)
{
    for (int k = 1; k < size; k++) {
        int right = (rank + k) % size, left = (rank + size - k) % size;
        int out[3], in[3];
        MPI_Status st;
        fill(w, right, out);
        CHECK_MPI(MPI_Sendrecv(out, 3, MPI_INT, right, w->id, in, 3, MPI_INT,
                               left, w->id, MPI_COMM_WORLD, &st));
        got(w, left, in, &st);
    }
}

static void *work(void *arg)
{
    struct worker *w = arg;
    long units = MSGS / (size - 1);
    for (long u = 0; u < units;) {
        for (int k = 0; k < WINDOWS && units - u >= WINDOW; k++, u += WINDOW)
            nonblocking(w);
        for (int k = 0; k < BLOCKING && u < units; k++, u++)
            blocking(w);
        for (int k = 0; k < BLOCKING && u < units; k++, u++)
            shifts(w);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2 && size <= MAXP && (size & (size - 1)) == 0,
          "needs 2, 4 or 8 ranks (pairs rank ^ k), not %d", size);
    struct worker w[THREADS];
    for (int i = 0; i < THREADS; i++)
        w[i] = (struct worker){.id = i};
    mt_run(THREADS, work, w, sizeof w[0]);
    long units = MSGS / (size - 1);
    for (int i = 0; i < THREADS; i++)
        CHECK(w[i].sent == units * (size - 1) && w[i].received == w[i].sent,
              "thread %d sent %ld and received %ld messages, expected %ld",
              i, w[i].sent, w[i].received, units * (size - 1));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
