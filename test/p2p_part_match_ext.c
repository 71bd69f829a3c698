/* p2p_part_match_ext: partitioned sends and receives match by communicator, source and tag, in the order of their init calls (MPI-4.0 4.2.1), and never match a plain send or receive: the sender initialises tag 1, tag 2, tag 1 on MPI_COMM_WORLD and tag 1 on a duplicate, with a plain message of tag 1 between; the receiver initialises tag 2 first and completes it before it initialises the others (in another order), then receives the plain message. */
/* shmpi-test: np=2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define PARTS 3
#define COUNT 100
#define MSGS 4

static int rank;

static void fill(int *b, int which)
{
    for (int i = 0; i < PARTS * COUNT; i++)
        b[i] = which * 10000 + i;
}

static void sender(int to, MPI_Comm dup)
{
    static int out[MSGS][PARTS * COUNT];
    static const int tags[MSGS] = {1, 2, 1, 1};
    MPI_Request r[MSGS];
    for (int m = 0; m < MSGS; m++) {
        fill(out[m], m);
        CHECK_MPI(MPI_Psend_init(out[m], PARTS, COUNT, MPI_INT, to, tags[m],
                                 m == 3 ? dup : MPI_COMM_WORLD, MPI_INFO_NULL,
                                 &r[m]));
        if (m == 0) {
            int plain = -5;
            CHECK_MPI(MPI_Send(&plain, 1, MPI_INT, to, 1, MPI_COMM_WORLD));
        }
    }
    CHECK_MPI(MPI_Startall(MSGS, r));
    for (int m = MSGS - 1; m >= 0; m--)
        CHECK_MPI(MPI_Pready_range(0, PARTS - 1, r[m]));
    CHECK_MPI(MPI_Waitall(MSGS, r, MPI_STATUSES_IGNORE));
    for (int m = 0; m < MSGS; m++)
        CHECK_MPI(MPI_Request_free(&r[m]));
}

static void expect(const int *b, int which)
{
    for (int i = 0; i < PARTS * COUNT; i++)
        CHECK(b[i] == which * 10000 + i,
              "message %d: element %d is %d (from message %d?)", which, i,
              b[i], b[i] / 10000);
}

static void receiver(int from, MPI_Comm dup)
{
    static int in[MSGS][PARTS * COUNT];
    MPI_Request r[MSGS];
    /* tag 2 first, alone: the announcement of tag 1 that comes before
       it must not hold it up */
    CHECK_MPI(MPI_Precv_init(in[1], PARTS, COUNT, MPI_INT, from, 2,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    CHECK_MPI(MPI_Start(&r[1]));
    CHECK_MPI(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
    expect(in[1], 1);
    CHECK_MPI(MPI_Precv_init(in[3], PARTS, COUNT, MPI_INT, from, 1, dup,
                             MPI_INFO_NULL, &r[3]));
    CHECK_MPI(MPI_Precv_init(in[0], PARTS, COUNT, MPI_INT, from, 1,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    CHECK_MPI(MPI_Precv_init(in[2], PARTS, COUNT, MPI_INT, from, 1,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]));
    CHECK_MPI(MPI_Start(&r[3]));
    CHECK_MPI(MPI_Start(&r[2]));
    CHECK_MPI(MPI_Start(&r[0]));
    MPI_Request rest[3] = {r[0], r[2], r[3]};
    CHECK_MPI(MPI_Waitall(3, rest, MPI_STATUSES_IGNORE));
    expect(in[0], 0);
    expect(in[2], 2);
    expect(in[3], 3);
    int plain;
    CHECK_MPI(MPI_Recv(&plain, 1, MPI_INT, from, 1, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    CHECK(plain == -5, "the plain message holds %d", plain);
    for (int m = 0; m < MSGS; m++)
        CHECK_MPI(MPI_Request_free(&r[m]));
}

int main(int argc, char **argv)
{
    int size;
    MPI_Comm dup;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size % 2 == 0, "needs an even number of ranks");
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    if (rank % 2 == 0)
        sender(rank + 1, dup);
    else
        receiver(rank - 1, dup);
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
