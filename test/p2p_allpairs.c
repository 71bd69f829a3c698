/* p2p_allpairs: every rank exchanges 300 messages of varied sizes with every other rank (eager, rendezvous, synchronous), each checked for its order, size and every byte. */
/* shmpi-test: np=2,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each rank sends MSGS messages to every other rank, WINDOW at a time per
 * peer: a window's sends are all started before its receives are posted,
 * so most messages arrive before their receive (unexpected) and the
 * receives take them with MPI_ANY_TAG: the tag says which message came,
 * and it must be the next one of that sender (3.5, non-overtaking).
 * Sizes (a function of sender, receiver and number) run from 0 bytes to
 * 40000, one in eight beyond 16384; one message in seven is synchronous.
 * Every byte is checked.
 *
 * In shmpi this crosses every path of the transport (pt2pt/conn.c): pairs
 * start on the mailbox, switch to a ring of their own after
 * SHMPI_FAST_AFTER records (mid-stream, with messages of both kinds in
 * flight), and with more senders than a receiver's ring slots some pairs
 * stay on the mailbox for good.
 */
#include "check.h"

#include <stdint.h>

#define MSGS 300
#define WINDOW 20
#define MAXBYTES 40000

static int size_of(int src, int dst, int i)
{
    uint32_t h = (uint32_t)(src * 7919 + dst * 104729 + i * 2654435761u);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    if (h % 8 == 0)
        return 16385 + (int)(h / 8 % (MAXBYTES - 16385));
    if (h % 8 == 1)
        return (int)(h / 8 % 16385);
    return (int)(h / 8 % 512);
}

static unsigned char byte_of(int src, int dst, int i, int k)
{
    return (unsigned char)(src * 31 + dst * 17 + i * 7 + k * 13 + (k >> 8));
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int peers = size - 1;
    size_t slots = (size_t)peers * WINDOW;
    unsigned char *sbuf = malloc(slots * MAXBYTES);
    unsigned char *rbuf = malloc(slots * MAXBYTES);
    MPI_Request *rq = malloc(sizeof *rq * slots * 2);
    MPI_Status *st = malloc(sizeof *st * slots * 2);
    CHECK(sbuf && rbuf && rq && st, "malloc");
    for (int w = 0; w < MSGS; w += WINDOW) {
        int n = 0;
        for (int j = 0; j < WINDOW; j++) {
            int i = w + j;
            for (int p = 1; p <= peers; p++) {
                int dst = (rank + p) % size;
                unsigned char *b = sbuf + ((size_t)(p - 1) * WINDOW + j) *
                                              MAXBYTES;
                int bytes = size_of(rank, dst, i);
                for (int k = 0; k < bytes; k++)
                    b[k] = byte_of(rank, dst, i, k);
                if (i % 7 == 3)
                    CHECK_MPI(MPI_Issend(b, bytes, MPI_BYTE, dst, i,
                                         MPI_COMM_WORLD, &rq[n++]));
                else
                    CHECK_MPI(MPI_Isend(b, bytes, MPI_BYTE, dst, i,
                                        MPI_COMM_WORLD, &rq[n++]));
            }
        }
        int first_recv = n;
        for (int j = 0; j < WINDOW; j++)
            for (int p = 1; p <= peers; p++) {
                int src = (rank - p + size) % size;
                CHECK_MPI(MPI_Irecv(rbuf + ((size_t)(p - 1) * WINDOW + j) *
                                               MAXBYTES,
                                    MAXBYTES, MPI_BYTE, src, MPI_ANY_TAG,
                                    MPI_COMM_WORLD, &rq[n++]));
            }
        CHECK_MPI(MPI_Waitall(n, rq, st));
        for (int j = 0; j < WINDOW; j++)
            for (int p = 1; p <= peers; p++) {
                int src = (rank - p + size) % size, i = w + j;
                MPI_Status *s = &st[first_recv + j * peers + (p - 1)];
                const unsigned char *b =
                    rbuf + ((size_t)(p - 1) * WINDOW + j) * MAXBYTES;
                int count, bytes = size_of(src, rank, i);
                CHECK(s->MPI_SOURCE == src && s->MPI_TAG == i,
                      "from %d: message %d expected, got source %d tag %d "
                      "(overtaken)", src, i, s->MPI_SOURCE, s->MPI_TAG);
                CHECK_MPI(MPI_Get_count(s, MPI_BYTE, &count));
                CHECK(count == bytes, "from %d, message %d: %d bytes, "
                      "expected %d", src, i, count, bytes);
                for (int k = 0; k < bytes; k++)
                    CHECK(b[k] == byte_of(src, rank, i, k),
                          "from %d, message %d, byte %d: %u, expected %u",
                          src, i, k, b[k], byte_of(src, rank, i, k));
            }
    }
    free(sbuf);
    free(rbuf);
    free(rq);
    free(st);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
