/* thread_p2p_any: under MPI_THREAD_MULTIPLE two threads per rank send to every other rank while two others receive with MPI_ANY_SOURCE and MPI_ANY_TAG at once; every message is received exactly once, its status agrees with its payload, and each receiving thread sees each sending thread's messages in the order they were sent. */
/* shmpi-test: np=2,4 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "thread_multiple.h"

#include <stdatomic.h>

/* The order that can be checked (MPI-3.1 3.5 and 12.4): receives posted by
   two threads are not ordered with each other, so which receiving thread
   gets which message is free; but a receive never takes a message while
   an earlier message of the same sending thread (same source, same
   communicator; ANY_SOURCE/ANY_TAG match both) is still pending.  So what
   one receiving thread gets from one sending thread has increasing
   sequence numbers: if it got n+k and later n, message n was pending
   when n+k was matched. */
#define SENDERS 2
#define RECEIVERS 2
#define MSGS 4000 /* per sending thread and destination */
#define MAXP 8

static int rank, size;
static atomic_long claimed;   /* receives posted so far, over all receivers */
static long expected;         /* messages this rank will get */
static atomic_uchar *seen;    /* [source][sender][seq]: times received */

struct worker {
    int id;
    long done;
};

static int payload_ok(const int msg[4], const MPI_Status *st)
{
    return msg[0] == st->MPI_SOURCE && msg[0] >= 0 && msg[0] < size &&
           msg[0] != rank && msg[1] == st->MPI_TAG && msg[1] >= 0 &&
           msg[1] < SENDERS && msg[2] >= 0 && msg[2] < MSGS &&
           msg[3] == (msg[2] ^ 0x5a5a) + msg[0];
}

static void *sender(struct worker *w)
{
    /* Blocking and nonblocking sends, to every other rank in turn. */
    for (int i = 0; i < MSGS; i++)
        for (int k = 1; k < size; k++) {
            int to = (rank + k) % size;
            int msg[4] = {rank, w->id, i, (i ^ 0x5a5a) + rank};
            if (i % 2) {
                CHECK_MPI(MPI_Send(msg, 4, MPI_INT, to, w->id, MPI_COMM_WORLD));
            } else {
                MPI_Request r;
                CHECK_MPI(MPI_Isend(msg, 4, MPI_INT, to, w->id, MPI_COMM_WORLD, &r));
                CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            }
            w->done++;
        }
    return NULL;
}

static void *receiver(struct worker *w)
{
    int last[MAXP][SENDERS];
    for (int p = 0; p < MAXP; p++)
        for (int s = 0; s < SENDERS; s++)
            last[p][s] = -1;
    /* exactly `expected` receives over both receivers: each claims one
       before posting it (relaxed: the count orders nothing else) */
    while (atomic_fetch_add_explicit(&claimed, 1, memory_order_relaxed) < expected) {
        int msg[4] = {-1, -1, -1, -1}, count = -1;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(msg, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                           MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
        CHECK(count == 4 && payload_ok(msg, &st),
              "receiver %d: got (%d, %d, %d, %d) count %d with status source "
              "%d tag %d", w->id, msg[0], msg[1], msg[2], msg[3], count,
              st.MPI_SOURCE, st.MPI_TAG);
        CHECK(msg[2] > last[msg[0]][msg[1]],
              "receiver %d: message %d of rank %d thread %d after its "
              "message %d: overtaken", w->id, msg[2], msg[0], msg[1],
              last[msg[0]][msg[1]]);
        last[msg[0]][msg[1]] = msg[2];
        unsigned char times = atomic_fetch_add_explicit(
            &seen[((long)msg[0] * SENDERS + msg[1]) * MSGS + msg[2]], 1,
            memory_order_relaxed);
        CHECK(times == 0, "message %d of rank %d thread %d received twice",
              msg[2], msg[0], msg[1]);
        w->done++;
    }
    return NULL;
}

static void *work(void *arg)
{
    struct worker *w = arg;
    return w->id < SENDERS ? sender(w) : receiver(w);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2 && size <= MAXP, "needs 2 to %d ranks, not %d", MAXP, size);
    expected = (long)(size - 1) * SENDERS * MSGS;
    seen = calloc((size_t)size * SENDERS * MSGS, sizeof *seen);
    CHECK(seen != NULL, "out of memory");
    struct worker w[SENDERS + RECEIVERS];
    for (int i = 0; i < SENDERS + RECEIVERS; i++)
        w[i] = (struct worker){.id = i}; /* 0..SENDERS-1 send (id = tag) */
    mt_run(SENDERS + RECEIVERS, work, w, sizeof w[0]);
    long got = 0;
    for (int i = SENDERS; i < SENDERS + RECEIVERS; i++)
        got += w[i].done;
    CHECK(got == expected, "received %ld messages, expected %ld", got, expected);
    for (int p = 0; p < size; p++)
        for (int s = 0; p != rank && s < SENDERS; s++)
            for (int i = 0; i < MSGS; i++)
                CHECK(seen[((long)p * SENDERS + s) * MSGS + i] == 1,
                      "message %d of rank %d thread %d received %d times", i,
                      p, s, seen[((long)p * SENDERS + s) * MSGS + i]);
    for (int i = 0; i < SENDERS; i++)
        CHECK(w[i].done == (long)MSGS * (size - 1), "sender %d sent %ld", i,
              w[i].done);
    free(seen);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
