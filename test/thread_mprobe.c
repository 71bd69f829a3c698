/* thread_mprobe: under MPI_THREAD_MULTIPLE two threads per rank send messages of varied lengths to every other rank while two others take them off one communicator with MPI_Mprobe or MPI_Improbe on MPI_ANY_SOURCE and MPI_ANY_TAG, size the buffer from the probe's status and MPI_Mrecv them; every message is received exactly once and whole. */
/* shmpi-test: np=2,4 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "thread_multiple.h"

#include <stdatomic.h>

/* Why matched probes (MPI-3.1 3.8.2): with MPI_Probe and then MPI_Recv,
   another thread may receive the probed message in between; MPI_Mprobe
   takes the message out of matching at once and hands it to this thread
   alone.  Each message's length depends on its sequence number, so a
   probe whose status described one message while MPI_Mrecv delivered
   another would show as a wrong count or payload. */
#define SENDERS 2
#define RECEIVERS 2
#define MSGS 3000 /* per sending thread and destination */
#define MAXLEN 40 /* ints */
#define MAXP 8

static int rank, size;
static MPI_Comm comm;
static atomic_long claimed;
static long expected;
static atomic_uchar *seen; /* [source][sender][seq] */

static int length_of(int seq) { return 3 + seq % (MAXLEN - 3); }

static void *sender(int t)
{
    int msg[MAXLEN];
    for (int i = 0; i < MSGS; i++)
        for (int k = 1; k < size; k++) {
            int to = (rank + k) % size, n = length_of(i);
            msg[0] = rank;
            msg[1] = t;
            msg[2] = i;
            for (int j = 3; j < n; j++)
                msg[j] = i * 7 + j;
            CHECK_MPI(MPI_Send(msg, n, MPI_INT, to, t, comm));
        }
    return NULL;
}

static void check_message(const int *msg, int count, const MPI_Status *st)
{
    CHECK(count >= 3 && msg[0] == st->MPI_SOURCE && msg[1] == st->MPI_TAG &&
              msg[0] >= 0 && msg[0] < size && msg[0] != rank && msg[1] >= 0 &&
              msg[1] < SENDERS && msg[2] >= 0 && msg[2] < MSGS &&
              count == length_of(msg[2]),
          "got %d ints (%d, %d, %d) with status source %d tag %d", count,
          count > 0 ? msg[0] : -1, count > 1 ? msg[1] : -1,
          count > 2 ? msg[2] : -1, st->MPI_SOURCE, st->MPI_TAG);
    for (int j = 3; j < count; j++)
        CHECK(msg[j] == msg[2] * 7 + j, "message %d of rank %d thread %d: "
              "word %d is %d", msg[2], msg[0], msg[1], j, msg[j]);
    unsigned char times = atomic_fetch_add_explicit(
        &seen[((long)msg[0] * SENDERS + msg[1]) * MSGS + msg[2]], 1,
        memory_order_relaxed);
    CHECK(times == 0, "message %d of rank %d thread %d received twice",
          msg[2], msg[0], msg[1]);
}

/* Receiver 0 blocks in MPI_Mprobe, receiver 1 polls MPI_Improbe. */
static void *receiver(int r, long *done)
{
    while (atomic_fetch_add_explicit(&claimed, 1, memory_order_relaxed) < expected) {
        MPI_Message m = MPI_MESSAGE_NULL;
        MPI_Status st, st2;
        int flag = 0, count = -1, count2 = -1;
        if (r == 0) {
            CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &m, &st));
        } else {
            while (!flag)
                CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag,
                                      &m, &st));
        }
        CHECK(m != MPI_MESSAGE_NULL, "the matched probe gave MPI_MESSAGE_NULL");
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
        CHECK(count >= 3 && count <= MAXLEN, "probed count %d", count);
        int *buf = malloc(sizeof *buf * (size_t)count);
        CHECK(buf != NULL, "out of memory");
        CHECK_MPI(MPI_Mrecv(buf, count, MPI_INT, &m, &st2));
        CHECK(m == MPI_MESSAGE_NULL, "MPI_Mrecv left the message handle set");
        CHECK_MPI(MPI_Get_count(&st2, MPI_INT, &count2));
        CHECK(count2 == count && st2.MPI_SOURCE == st.MPI_SOURCE &&
                  st2.MPI_TAG == st.MPI_TAG,
              "MPI_Mrecv's status (source %d tag %d count %d) is not the "
              "probe's (%d, %d, %d)", st2.MPI_SOURCE, st2.MPI_TAG, count2,
              st.MPI_SOURCE, st.MPI_TAG, count);
        check_message(buf, count, &st2);
        free(buf);
        (*done)++;
    }
    return NULL;
}

struct worker {
    int id;
    long done;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    return w->id < SENDERS ? sender(w->id) : receiver(w->id - SENDERS, &w->done);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2 && size <= MAXP, "needs 2 to %d ranks, not %d", MAXP, size);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    expected = (long)(size - 1) * SENDERS * MSGS;
    seen = calloc((size_t)size * SENDERS * MSGS, sizeof *seen);
    CHECK(seen != NULL, "out of memory");
    struct worker w[SENDERS + RECEIVERS];
    for (int i = 0; i < SENDERS + RECEIVERS; i++)
        w[i] = (struct worker){.id = i};
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
    free(seen);
    CHECK_MPI(MPI_Comm_free(&comm));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
