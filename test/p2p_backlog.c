/* p2p_backlog: a receive whose message is queued behind thousands of others from the same sender (and behind a full ring) completes while the sender itself waits. */
/* shmpi-test: np=2,3,5 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Regression test for a lost wake-up: a receiver that handled only part
 * of what was waiting for it went to sleep with records still unread,
 * and the sender, already waiting for the receiver, never rang again
 * (shmpi drains a bounded batch per progress call).  At np >= 3 the two
 * cores are oversubscribed, where shmpi does not spin before sleeping.
 *
 * Rank 0 starts N small Isends with tag 1 and then one with tag 2 to
 * rank 1, and waits for a reply with tag 3.  Rank 1 makes no MPI call
 * for a moment (so that all of it sits in its ring, unread), then
 * receives tag 2 first: the message behind all the others.  Then the
 * same with more messages than a ring holds (the sender's own backlog),
 * with large messages in between, and with every other rank sending at
 * once.  The pause only makes a broken library fail more reliably; a
 * correct one passes whatever the timing.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, also under -std=c11 */
#include "check.h"

#include <time.h>

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Tags differ per round: a sender may start the next round while the
   receiver still waits for another sender's last message of this one. */
static void one_round(int rank, int size, int round, int n, int bigevery)
{
    const int t1 = 10 * round + 1, t2 = t1 + 1, t3 = t1 + 2;
    const int big = 100000;
    int senders = size - 1;
    if (rank != 1) {
        int *v = malloc(sizeof *v * (size_t)n);
        unsigned char *b = malloc(big);
        MPI_Request *rq = malloc(sizeof *rq * (size_t)(n + 1));
        CHECK(v && b && rq, "malloc");
        memset(b, rank, big);
        for (int i = 0; i < n; i++) {
            v[i] = i;
            if (bigevery && i % bigevery == bigevery - 1)
                CHECK_MPI(MPI_Isend(b, big, MPI_BYTE, 1, t1, MPI_COMM_WORLD,
                                    &rq[i]));
            else
                CHECK_MPI(MPI_Isend(&v[i], (int)sizeof(int), MPI_BYTE, 1, t1,
                                    MPI_COMM_WORLD, &rq[i]));
        }
        CHECK_MPI(MPI_Isend(&rank, 1, MPI_INT, 1, t2, MPI_COMM_WORLD,
                            &rq[n]));
        int x = -1;
        CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, 1, t3, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        CHECK(x == rank, "reply %d", x);
        CHECK_MPI(MPI_Waitall(n + 1, rq, MPI_STATUSES_IGNORE));
        free(v);
        free(b);
        free(rq);
    } else {
        unsigned char *b = malloc(big);
        CHECK(b, "malloc");
        /* no MPI call until the senders are (most likely) done, so that
           everything waits in the rings, not in the unexpected queue */
        sleep_ms(100);
        /* the last message of every sender first */
        for (int k = 0; k < senders; k++) {
            int x = -1;
            MPI_Status st;
            CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, t2,
                               MPI_COMM_WORLD, &st));
            CHECK(x == st.MPI_SOURCE, "tag 2 from %d says %d",
                  st.MPI_SOURCE, x);
            CHECK_MPI(MPI_Send(&x, 1, MPI_INT, x, t3, MPI_COMM_WORLD));
        }
        for (int s = 0; s < size; s++) {
            if (s == 1)
                continue;
            for (int i = 0; i < n; i++) {
                MPI_Status st;
                int c = -1;
                CHECK_MPI(MPI_Recv(b, big, MPI_BYTE, s, t1, MPI_COMM_WORLD,
                                   &st));
                CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &c));
                if (bigevery && i % bigevery == bigevery - 1) {
                    CHECK(c == big && b[0] == s && b[big - 1] == s,
                          "big message %d from %d: %d bytes", i, s, c);
                } else {
                    int x;
                    memcpy(&x, b, sizeof x);
                    CHECK(c == (int)sizeof(int) && x == i,
                          "message %d from %d: %d bytes, value %d", i, s, c,
                          x);
                }
            }
        }
        free(b);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2, "needs 2 ranks");
    one_round(rank, size, 0, 200, 0);
    one_round(rank, size, 1, 2000, 0);
    one_round(rank, size, 2, 20000, 0); /* more than a ring holds */
    one_round(rank, size, 3, 3000, 100);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
