/* p2p_ring_wrap: small messages sent one at a time over ground where a large message's data lay, that data being ints equal to the sequence numbers those small messages will carry. */
/* shmpi-test: np=2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What it guards against: a shared-memory transport that recognises a new
 * record by a sequence number in the record's first word can take stale
 * payload of an earlier lap for a record when that payload happens to
 * equal the number it expects next.  Rank 0 first sends a large message
 * (1 MiB, more than a ring's worth) whose every int is W, then ping-pongs
 * one small message at a time, so rank 1 keeps looking at the spot where
 * the next one will land before it is written; W is chosen so that the
 * small messages reach sequence number W while still crossing the large
 * message's leftovers.  Two rounds with different W, in case one of them
 * lands on a spot that held a header rather than data.  A transport
 * without sequence numbers simply passes.
 */
#include "check.h"

#define BIG_INTS (1 << 18)     /* 1 MiB of ints */
#define PINGS 2000
#define AHEAD 1500             /* W, in messages after the large one */
#define ROUNDS 2

static int rank;

/* Rank 0: the large message, then PINGS small ones, each answered. */
static void sender(int *big, int round, int *sent)
{
    int w = *sent + AHEAD + round * 97;
    for (int i = 0; i < BIG_INTS; i++)
        big[i] = w;
    CHECK_MPI(MPI_Send(big, BIG_INTS, MPI_INT, 1, 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(&w, 1, MPI_INT, 1, 2, MPI_COMM_WORLD));
    *sent += 2;
    for (int i = 0; i < PINGS; i++) {
        int msg[2] = {round, i}, echo[2] = {-1, -1};
        CHECK_MPI(MPI_Send(msg, 2, MPI_INT, 1, 3, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(echo, 2, MPI_INT, 1, 4, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        CHECK(echo[0] == round && echo[1] == i,
              "round %d, ping %d: echo %d %d", round, i, echo[0], echo[1]);
    }
    *sent += PINGS;
}

static void receiver(int *big, int round)
{
    int w = -1;
    CHECK_MPI(MPI_Recv(big, BIG_INTS, MPI_INT, 0, 1, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, 0, 2, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    for (int i = 0; i < BIG_INTS; i++)
        CHECK(big[i] == w, "round %d: int %d of the large message is %d, "
              "not %d", round, i, big[i], w);
    /* each ping's receive is posted before the previous one is answered
       and waited for with MPI_Wait, so rank 1 is already looking for the
       next ping when it is sent, and takes whatever it finds there */
    int msg[2][2];
    MPI_Request req;
    CHECK_MPI(MPI_Irecv(msg[0], 2, MPI_INT, 0, 3, MPI_COMM_WORLD, &req));
    for (int i = 0; i < PINGS; i++) {
        int *got = msg[i % 2];
        MPI_Status st;
        CHECK_MPI(MPI_Wait(&req, &st));
        int count;
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
        CHECK(count == 2 && got[0] == round && got[1] == i,
              "round %d, ping %d: got %d ints: %d %d", round, i, count,
              got[0], got[1]);
        if (i + 1 < PINGS)
            CHECK_MPI(MPI_Irecv(msg[(i + 1) % 2], 2, MPI_INT, 0, 3,
                                MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Send(got, 2, MPI_INT, 0, 4, MPI_COMM_WORLD));
    }
}

int main(int argc, char **argv)
{
    int size, sent = 0;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size == 2, "needs exactly 2 ranks, has %d", size);
    int *big = malloc(BIG_INTS * sizeof *big);
    CHECK(big, "out of memory");
    for (int round = 0; round < ROUNDS; round++) {
        if (rank == 0)
            sender(big, round, &sent);
        else
            receiver(big, round);
    }
    free(big);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
