/* p2p_ring_grow: a pair that turned busy on 8-byte messages then streams windows of mixed sizes (1 B .. 64 KiB, around the eager limit), received pre-posted, in order, and unexpected: every message arrives whole and in send order. */
/* shmpi-test: np=2,4 timeout=90 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What it guards against, in shmpi: a pair first exchanges 300 8-byte
 * ping-pongs, so it turns hot (pt2pt/conn.c, SHMPI_FAST_AFTER 256) on a
 * ring sized for 8-byte records (SHMPI_RING_MIN_KB, 16 KiB).  Windows of
 * 64 messages of mixed sizes then find that ring full and carry
 * messages over its eager limit, so the pair moves to larger rings, in
 * the middle of a window: a move that lost, repeated or reordered a
 * record, read the new ring before the old one was done, or reused a
 * slot whose pages still held an old ring shows here as a message with
 * the wrong size or bytes.  Rank 2k sends to rank 2k+1.  Each window
 * is received one of three ways in turn: receives posted before the
 * sends, receives with MPI_ANY_TAG posted after the whole window has
 * arrived (every message unexpected), and blocking receives with the
 * specific tag as they come.  Any MPI passes; in shmpi, removing the
 * move's CONNECT record (the sender switching rings silently) makes it
 * fail.
 */
#include "check.h"

#include <stdint.h>

#define PINGS 300
#define WINDOW 64
#define ROUNDS 48
#define MAXMSG (64 * 1024)

static const int sizes[] = {8, 4096, 1, 16384, 1000, 12000, 64, 16385,
                            4096, 65536, 0, 8192, 16384, 40000, 256};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static int msg_size(int round, int i)
{
    return sizes[(round * 5 + i * 7 + i / 3) % NSIZES];
}

static int msg_tag(int round, int i)
{
    return (round + i) % 3;
}

static unsigned char msg_byte(int round, int i, int j)
{
    return (unsigned char)(round * 37 + i * 11 + j + (j >> 8) * 3);
}

static void fill(unsigned char *b, int round, int i)
{
    for (int j = 0; j < msg_size(round, i); j++)
        b[j] = msg_byte(round, i, j);
}

static void check_msg(const unsigned char *b, const MPI_Status *st,
                      int round, int i)
{
    int n;
    CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &n));
    CHECK(n == msg_size(round, i), "round %d message %d: %d bytes, sent %d",
          round, i, n, msg_size(round, i));
    CHECK(st->MPI_TAG == msg_tag(round, i),
          "round %d message %d: tag %d, sent with %d", round, i, st->MPI_TAG,
          msg_tag(round, i));
    for (int j = 0; j < n; j++)
        CHECK(b[j] == msg_byte(round, i, j),
              "round %d message %d (%d bytes): byte %d is %d, sent %d", round,
              i, n, j, b[j], msg_byte(round, i, j));
}

static void pingpong(int peer, int first)
{
    long v = 0;
    for (int k = 0; k < PINGS; k++) {
        if (first) {
            CHECK_MPI(MPI_Send(&v, 1, MPI_LONG, peer, 9, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(&v, 1, MPI_LONG, peer, 9, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
            CHECK(v == k + 1, "ping %d came back as %ld", k, v);
        } else {
            CHECK_MPI(MPI_Recv(&v, 1, MPI_LONG, peer, 9, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
            v++;
            CHECK_MPI(MPI_Send(&v, 1, MPI_LONG, peer, 9, MPI_COMM_WORLD));
        }
    }
}

static void send_window(unsigned char *buf, int peer, int round)
{
    MPI_Request req[WINDOW];
    for (int i = 0; i < WINDOW; i++) {
        unsigned char *b = buf + (size_t)i * MAXMSG;
        fill(b, round, i);
        CHECK_MPI(MPI_Isend(b, msg_size(round, i), MPI_BYTE, peer,
                            msg_tag(round, i), MPI_COMM_WORLD, &req[i]));
    }
    if (round % 3 == 1) /* after the window: the receiver waits for it */
        CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, 7, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE));
}

static void recv_window(unsigned char *buf, int peer, int round)
{
    MPI_Request req[WINDOW];
    MPI_Status st[WINDOW];
    memset(buf, 0xee, (size_t)WINDOW * MAXMSG);
    switch (round % 3) {
    case 0: /* posted before the sends (the sender waits for the go) */
        for (int i = 0; i < WINDOW; i++)
            CHECK_MPI(MPI_Irecv(buf + (size_t)i * MAXMSG, MAXMSG, MPI_BYTE,
                                peer, msg_tag(round, i), MPI_COMM_WORLD,
                                &req[i]));
        CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, 8, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Waitall(WINDOW, req, st));
        break;
    case 1: /* the window's envelopes there before its receives: the
               marker comes after them (3.5) */
        CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, 7, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        for (int i = 0; i < WINDOW; i++)
            CHECK_MPI(MPI_Irecv(buf + (size_t)i * MAXMSG, MAXMSG, MPI_BYTE,
                                peer, MPI_ANY_TAG, MPI_COMM_WORLD, &req[i]));
        CHECK_MPI(MPI_Waitall(WINDOW, req, st));
        break;
    default: /* blocking, as they come */
        for (int i = 0; i < WINDOW; i++)
            CHECK_MPI(MPI_Recv(buf + (size_t)i * MAXMSG, MAXMSG, MPI_BYTE,
                               peer, msg_tag(round, i), MPI_COMM_WORLD,
                               &st[i]));
    }
    for (int i = 0; i < WINDOW; i++)
        check_msg(buf + (size_t)i * MAXMSG, &st[i], round, i);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size % 2 == 0, "needs an even number of ranks, got %d", size);
    unsigned char *buf = malloc((size_t)WINDOW * MAXMSG);
    CHECK(buf != NULL, "no memory for %d x %d bytes", WINDOW, MAXMSG);
    int sender = rank % 2 == 0, peer = sender ? rank + 1 : rank - 1;
    pingpong(peer, sender);
    for (int round = 0; round < ROUNDS; round++) {
        if (sender) {
            if (round % 3 == 0)
                CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, 8,
                                   MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            send_window(buf, peer, round);
        } else {
            recv_window(buf, peer, round);
        }
    }
    free(buf);
    CHECK_MPI(MPI_Finalize());
    if (rank == 0)
        printf("ok\n");
    return 0;
}
