/* p2p_probe: MPI_Probe/MPI_Iprobe of unexpected messages (size via Get_count before the receive), specific and wildcard source/tag, probes do not consume, order kept, Iprobe false when nothing matches, MPI_PROC_NULL. */
/* shmpi-test: np=2,3,4 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rank 0 is the receiver; every other rank sends it messages of sizes on
 * both sides of the eager limit.  All checks are on rank 0 except the
 * blocking Probe that has to wait for a message sent later, which every
 * pair (0, s) does.
 */
#include "check.h"

#include <stdint.h>

static const int sizes[] = {0, 1, 1000, 16384, 16385, 100000, 1 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static void fill(unsigned char *b, int n, int src, int k)
{
    for (int i = 0; i < n; i++)
        b[i] = (unsigned char)(src * 40 + k * 3 + i);
}

static void check_data(const unsigned char *b, int n, int src, int k)
{
    for (int i = 0; i < n; i++)
        CHECK(b[i] == (unsigned char)(src * 40 + k * 3 + i),
              "message %d from %d: byte %d wrong", k, src, i);
}

/* Iprobe until it says yes; MPI guarantees it eventually does for a
   message that was sent (3.8.1). */
static void iprobe_until(int src, int tag, MPI_Status *st)
{
    int flag = 0;
    for (long i = 0; !flag; i++) {
        CHECK_MPI(MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, st));
        CHECK(i < 100000000L, "Iprobe(%d, %d) never saw the message", src,
              tag);
    }
}

static void no_message(int src, int tag, const char *why)
{
    int flag = 1;
    MPI_Status st;
    CHECK_MPI(MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, &st));
    CHECK(!flag, "Iprobe(%d, %d) found a message (from %d, tag %d): %s", src,
          tag, st.MPI_SOURCE, st.MPI_TAG, why);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2, "needs 2 ranks");
    unsigned char *buf = malloc(1 << 20);
    CHECK(buf, "malloc");
    MPI_Status st;
    int count = -1, flag = 0;

    /* nothing sent yet: every Iprobe says no */
    no_message(MPI_ANY_SOURCE, MPI_ANY_TAG, "nothing was sent");
    for (int s = 0; s < size; s++)
        no_message(s, 0, "nothing was sent");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* MPI_PROC_NULL: at once, source MPI_PROC_NULL, tag MPI_ANY_TAG,
       count 0 (3.11) */
    st.MPI_SOURCE = st.MPI_TAG = 1234;
    CHECK_MPI(MPI_Probe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
          "Probe(MPI_PROC_NULL): source %d tag %d", st.MPI_SOURCE,
          st.MPI_TAG);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 0, "Probe(MPI_PROC_NULL): count %d", count);
    st.MPI_SOURCE = st.MPI_TAG = 1234;
    CHECK_MPI(MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
                         &st));
    CHECK(flag && st.MPI_SOURCE == MPI_PROC_NULL &&
              st.MPI_TAG == MPI_ANY_TAG,
          "Iprobe(MPI_PROC_NULL): flag %d source %d tag %d", flag,
          st.MPI_SOURCE, st.MPI_TAG);

    /* Phase 1: every sender sends one message of each size, tag = 100 +
       index, then a last one with tag 999. */
    if (rank != 0) {
        MPI_Request rq[NSIZES + 1];
        unsigned char *b[NSIZES];
        for (int k = 0; k < NSIZES; k++) {
            b[k] = malloc((size_t)sizes[k] + 1);
            CHECK(b[k], "malloc");
            fill(b[k], sizes[k], rank, k);
            CHECK_MPI(MPI_Isend(b[k], sizes[k], MPI_BYTE, 0, 100 + k,
                                MPI_COMM_WORLD, &rq[k]));
        }
        CHECK_MPI(MPI_Isend(NULL, 0, MPI_BYTE, 0, 999, MPI_COMM_WORLD,
                            &rq[NSIZES]));
        CHECK_MPI(MPI_Waitall(NSIZES + 1, rq, MPI_STATUSES_IGNORE));
        for (int k = 0; k < NSIZES; k++)
            free(b[k]);
    } else {
        /* wait until every sender's last message is visible: all the
           others are there too (they were sent before it) */
        for (int s = 1; s < size; s++)
            iprobe_until(s, 999, &st);
        /* tags nobody used, and a source with nothing (ourselves) */
        no_message(MPI_ANY_SOURCE, 7, "no message has tag 7");
        no_message(0, MPI_ANY_TAG, "rank 0 sent itself nothing");
        for (int s = 1; s < size; s++) {
            /* probing twice sees the same message; nothing is consumed */
            for (int k = NSIZES - 1; k >= 0; k--) {
                for (int rep = 0; rep < 2; rep++) {
                    st.MPI_SOURCE = st.MPI_TAG = -7;
                    if (rep == 0)
                        CHECK_MPI(MPI_Probe(s, 100 + k, MPI_COMM_WORLD, &st));
                    else
                        iprobe_until(s, 100 + k, &st);
                    CHECK(st.MPI_SOURCE == s && st.MPI_TAG == 100 + k,
                          "probe(%d, %d): source %d tag %d", s, 100 + k,
                          st.MPI_SOURCE, st.MPI_TAG);
                    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
                    CHECK(count == sizes[k],
                          "probe(%d, %d): count %d, expected %d", s, 100 + k,
                          count, sizes[k]);
                    int el = -1;
                    CHECK_MPI(MPI_Get_elements(&st, MPI_BYTE, &el));
                    CHECK(el == sizes[k], "probe: elements %d", el);
                }
                /* the receive sized from the probe gets exactly it */
                memset(buf, 0, (size_t)count);
                CHECK_MPI(MPI_Recv(buf, count, MPI_BYTE, s, 100 + k,
                                   MPI_COMM_WORLD, &st));
                CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
                CHECK(count == sizes[k], "recv after probe: count %d",
                      count);
                check_data(buf, count, s, k);
                no_message(s, 100 + k, "the probed message was received");
            }
            /* the last one, through ANY_TAG from this source */
            CHECK_MPI(MPI_Probe(s, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            CHECK(st.MPI_SOURCE == s && st.MPI_TAG == 999,
                  "Probe(%d, ANY_TAG): tag %d", s, st.MPI_TAG);
            CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, s, 999, MPI_COMM_WORLD,
                               &st));
        }
        no_message(MPI_ANY_SOURCE, MPI_ANY_TAG, "everything was received");
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* Phase 2: wildcard probes, in order.  Each sender sends NSIZES
       messages with tags 200 + (k % 3); rank 0 probes with ANY_SOURCE /
       ANY_TAG and receives with the status' source and tag: per sender the
       messages come in send order, each with the size the probe said. */
    if (rank != 0) {
        for (int k = 0; k < NSIZES; k++) {
            fill(buf, sizes[k], rank, k);
            CHECK_MPI(MPI_Send(buf, sizes[k], MPI_BYTE, 0, 200 + k % 3,
                               MPI_COMM_WORLD));
        }
    } else {
        int *next = calloc((size_t)size, sizeof *next);
        CHECK(next, "malloc");
        for (int m = 0; m < (size - 1) * NSIZES; m++) {
            if (m % 2)
                CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG,
                                    MPI_COMM_WORLD, &st));
            else
                iprobe_until(MPI_ANY_SOURCE, MPI_ANY_TAG, &st);
            int s = st.MPI_SOURCE;
            CHECK(s > 0 && s < size, "wildcard probe: source %d", s);
            int k = next[s]++;
            CHECK(k < NSIZES, "too many messages from %d", s);
            CHECK(st.MPI_TAG == 200 + k % 3,
                  "wildcard probe: message %d from %d has tag %d, expected "
                  "%d (order broken?)", k, s, st.MPI_TAG, 200 + k % 3);
            CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
            CHECK(count == sizes[k],
                  "wildcard probe: message %d from %d has %d bytes, "
                  "expected %d", k, s, count, sizes[k]);
            MPI_Status st2;
            CHECK_MPI(MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE,
                               st.MPI_TAG, MPI_COMM_WORLD, &st2));
            check_data(buf, count, s, k);
        }
        free(next);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* Phase 3: a blocking Probe that has to wait.  Rank 0 tells s "go"
       before probing; s sends only when it has the go. */
    if (rank == 0) {
        for (int s = 1; s < size; s++) {
            MPI_Request rq;
            no_message(s, 301, "it is sent only after the go");
            CHECK_MPI(MPI_Isend(NULL, 0, MPI_BYTE, s, 300, MPI_COMM_WORLD,
                                &rq));
            CHECK_MPI(MPI_Probe(s, 301, MPI_COMM_WORLD, &st));
            CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
            CHECK(count == 100000 + s, "late message: count %d", count);
            int *v = malloc(sizeof(int) * (size_t)count);
            CHECK(v, "malloc");
            CHECK_MPI(MPI_Recv(v, count, MPI_INT, s, 301, MPI_COMM_WORLD,
                               &st));
            for (int i = 0; i < count; i++)
                CHECK(v[i] == i * s, "late message: int %d is %d", i, v[i]);
            free(v);
            CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        }
    } else {
        int n = 100000 + rank;
        int *v = malloc(sizeof(int) * (size_t)n);
        CHECK(v, "malloc");
        for (int i = 0; i < n; i++)
            v[i] = i * rank;
        CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, 0, 300, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Send(v, n, MPI_INT, 0, 301, MPI_COMM_WORLD));
        free(v);
    }

    /* a message to oneself, probed before it is received */
    {
        MPI_Request rq;
        int v = 42, w = 0;
        CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, rank, 400, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Probe(rank, 400, MPI_COMM_WORLD, &st));
        CHECK(st.MPI_SOURCE == rank && st.MPI_TAG == 400, "self probe");
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
        CHECK(count == 1, "self probe: count %d", count);
        CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, rank, 400, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        CHECK(w == 42, "self message: %d", w);
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    no_message(MPI_ANY_SOURCE, MPI_ANY_TAG, "at the end");
    free(buf);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
