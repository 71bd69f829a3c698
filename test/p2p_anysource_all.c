/* p2p_anysource_all: MPI_ANY_SOURCE receives at one rank get every message of every other rank, each sender's in order, while senders outnumber what one receiver polls. */
/* shmpi-test: np=2,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every rank but 0 sends MSGS messages to rank 0 (blocking and
 * nonblocking, eager and large, some synchronous), and rank 0 takes them
 * all with MPI_ANY_SOURCE and MPI_ANY_TAG: each message says its sender
 * and number, the status must agree, each sender's numbers must come in
 * order (3.5) and all must come.  Rank 0 then answers each sender once.
 *
 * In shmpi, with 15 senders and 8 ring slots per receiver
 * (SHMPI_FAST_RINGS, pt2pt/conn.c), some senders move to rings mid-way
 * and the others stay on rank 0's mailbox: a wildcard receive must still
 * take from both.
 */
#include "check.h"

#define MSGS 400
#define BIG 20000

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int *buf = malloc(BIG);
    CHECK(buf, "malloc");
    if (rank != 0) {
        for (int i = 0; i < MSGS; i++) {
            int n = i % 10 == 9 ? BIG / (int)sizeof(int) : 2;
            buf[0] = rank;
            buf[1] = i;
            for (int k = 2; k < n; k++)
                buf[k] = rank * 1000003 + i + k;
            if (i % 13 == 5) {
                CHECK_MPI(MPI_Ssend(buf, n, MPI_INT, 0, i, MPI_COMM_WORLD));
            } else {
                MPI_Request r;
                CHECK_MPI(MPI_Isend(buf, n, MPI_INT, 0, i, MPI_COMM_WORLD,
                                    &r));
                CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            }
        }
        CHECK_MPI(MPI_Recv(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    } else {
        int *next = calloc((size_t)size, sizeof *next);
        CHECK(next, "malloc");
        for (long k = 0; k < (long)(size - 1) * MSGS; k++) {
            MPI_Status st;
            int count;
            CHECK_MPI(MPI_Recv(buf, BIG / (int)sizeof(int), MPI_INT,
                               MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                               &st));
            int s = st.MPI_SOURCE;
            CHECK(s > 0 && s < size, "source %d", s);
            CHECK(buf[0] == s && buf[1] == next[s] && st.MPI_TAG == next[s],
                  "from %d: message %d expected, got one saying %d/%d, "
                  "tag %d", s, next[s], buf[0], buf[1], st.MPI_TAG);
            CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
            int n = next[s] % 10 == 9 ? BIG / (int)sizeof(int) : 2;
            CHECK(count == n, "from %d, message %d: %d ints, expected %d",
                  s, next[s], count, n);
            for (int j = 2; j < n; j++)
                CHECK(buf[j] == s * 1000003 + next[s] + j,
                      "from %d, message %d, int %d wrong", s, next[s], j);
            next[s]++;
        }
        for (int s = 1; s < size; s++) {
            CHECK(next[s] == MSGS, "from %d: %d messages", s, next[s]);
            CHECK_MPI(MPI_Send(buf, 1, MPI_INT, s, 0, MPI_COMM_WORLD));
        }
        free(next);
    }
    free(buf);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
