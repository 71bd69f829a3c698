/* p2p_part_ext: MPI-4.0 partitioned communication between pairs of ranks, the two sides partitioned differently (8 x 5 ints sent, received as 4 x 10 and as 5 x 8, whose boundaries fall inside the sender's partitions), restarted 300 times with MPI_Start/MPI_Startall, partitions readied in a different order each round, completed by MPI_Wait, MPI_Test and MPI_Waitall (after MPI_Request_get_status saw the receive complete, every fourth round); every round's data and the receive's status are right. */
/* shmpi-test: np=2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define SPARTS 8
#define SCOUNT 5
#define N (SPARTS * SCOUNT)
#define ROUNDS 300

static int rank, size;

static int value(int from, int round, int i)
{
    return from * 1000000 + round * 1000 + i;
}

/* Even ranks send to the next rank, odd ones receive, two messages of
   one sender each round: tag 1 received in 4 partitions, tag 2 in 5. */
static void sender(int to)
{
    static int out1[N], out2[N];
    MPI_Request r[2];
    CHECK_MPI(MPI_Psend_init(out1, SPARTS, SCOUNT, MPI_INT, to, 1,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    CHECK_MPI(MPI_Psend_init(out2, SPARTS, SCOUNT, MPI_INT, to, 2,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    for (int round = 0; round < ROUNDS; round++) {
        CHECK_MPI(MPI_Startall(2, r));
        for (int k = 0; k < SPARTS; k++) {
            int p = (k * 3 + round) % SPARTS; /* 3 is prime to 8 */
            for (int i = p * SCOUNT; i < (p + 1) * SCOUNT; i++) {
                out1[i] = value(rank, round, i);
            }
            for (int i = (SPARTS - 1 - p) * SCOUNT;
                 i < (SPARTS - p) * SCOUNT; i++)
                out2[i] = -value(rank, round, i);
            CHECK_MPI(MPI_Pready(p, r[0]));
            CHECK_MPI(MPI_Pready(SPARTS - 1 - p, r[1]));
        }
        if (round % 2) {
            CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
        } else {
            int done = 0;
            while (!done)
                CHECK_MPI(MPI_Test(&r[0], &done, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
        }
    }
    CHECK_MPI(MPI_Request_free(&r[0]));
    CHECK_MPI(MPI_Request_free(&r[1]));
    CHECK(r[0] == MPI_REQUEST_NULL, "the freed handle is not null");
}

static void receiver(int from)
{
    static int in1[N], in2[N];
    MPI_Request r[2];
    MPI_Status st[2];
    CHECK_MPI(MPI_Precv_init(in1, 4, N / 4, MPI_INT, from, 1,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    CHECK_MPI(MPI_Precv_init(in2, 5, N / 5, MPI_INT, from, 2,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    for (int round = 0; round < ROUNDS; round++) {
        memset(in1, 0, sizeof in1);
        memset(in2, 0, sizeof in2);
        if (round % 3)
            CHECK_MPI(MPI_Startall(2, r));
        else {
            CHECK_MPI(MPI_Start(&r[1]));
            CHECK_MPI(MPI_Start(&r[0]));
        }
        if (round % 4 == 3) { /* looked at first, left to the wait */
            int flag = 0;
            while (!flag)
                CHECK_MPI(MPI_Request_get_status(r[1], &flag, &st[1]));
            CHECK(st[1].MPI_SOURCE == from && st[1].MPI_TAG == 2,
                  "round %d: MPI_Request_get_status gave source %d tag %d",
                  round, st[1].MPI_SOURCE, st[1].MPI_TAG);
            CHECK(r[1] != MPI_REQUEST_NULL, "get_status freed the request");
        }
        CHECK_MPI(MPI_Waitall(2, r, st));
        for (int i = 0; i < N; i++) {
            CHECK(in1[i] == value(from, round, i), "round %d: in1[%d] = %d",
                  round, i, in1[i]);
            CHECK(in2[i] == -value(from, round, i), "round %d: in2[%d] = %d",
                  round, i, in2[i]);
        }
        for (int m = 0; m < 2; m++) {
            int count;
            CHECK_MPI(MPI_Get_count(&st[m], MPI_INT, &count));
            CHECK(st[m].MPI_SOURCE == from && st[m].MPI_TAG == m + 1 &&
                      count == N,
                  "round %d message %d: source %d tag %d count %d", round, m,
                  st[m].MPI_SOURCE, st[m].MPI_TAG, count);
        }
    }
    CHECK_MPI(MPI_Request_free(&r[0]));
    CHECK_MPI(MPI_Request_free(&r[1]));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size % 2 == 0, "needs an even number of ranks");
    if (rank % 2 == 0)
        sender(rank + 1);
    else
        receiver(rank - 1);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
