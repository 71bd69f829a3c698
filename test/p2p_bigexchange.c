/* p2p_bigexchange: 64 MiB exchanged between pairs of ranks every safe way (Isend+Recv, Irecv+Send, Sendrecv, Sendrecv_replace, ordered Send/Recv), data verified, nothing written past the buffers. */
/* shmpi-test: np=2,4 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ranks pair up (0-1, 2-3).  Every exchange is one the standard says
 * completes whatever the library buffers (3.5, Example 3.8-3.10): the
 * head-to-head "both MPI_Send first" exchange is not among them, see
 * p2p_bigexchange_ext.  The payload is a 64-bit pattern of (sender,
 * round, offset); 4 KiB of guard bytes after each receive buffer must
 * stay untouched.
 */
#include "check.h"

#include <stdint.h>

#define BIG (64u << 20)
#define GUARD 4096

static void fill(unsigned char *b, size_t n, int who, int round)
{
    uint64_t *w = (uint64_t *)b;
    for (size_t i = 0; i < n / 8; i++)
        w[i] = ((uint64_t)who << 56) ^ ((uint64_t)round << 48) ^
               (i * 0x9e3779b97f4a7c15ull >> 16);
}

static void verify(const unsigned char *b, size_t n, int who, int round,
                   const char *what)
{
    const uint64_t *w = (const uint64_t *)b;
    for (size_t i = 0; i < n / 8; i++) {
        uint64_t want = ((uint64_t)who << 56) ^ ((uint64_t)round << 48) ^
                        (i * 0x9e3779b97f4a7c15ull >> 16);
        CHECK(w[i] == want,
              "%s: word %zu of %zu is %#llx, expected %#llx (from rank %d, "
              "round %d)", what, i, n / 8, (unsigned long long)w[i],
              (unsigned long long)want, who, round);
    }
    for (size_t i = n; i < n + GUARD; i++)
        CHECK(b[i] == 0xA5, "%s: guard byte %zu past the buffer written",
              what, i - n);
}

static void check_status_t(const MPI_Status *st, int src, int tag,
                           MPI_Datatype dt, int n, const char *what)
{
    int count = -1;
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag,
          "%s: status source %d tag %d, expected %d %d", what,
          st->MPI_SOURCE, st->MPI_TAG, src, tag);
    CHECK_MPI(MPI_Get_count(st, dt, &count));
    CHECK(count == n, "%s: count %d, expected %d", what, count, n);
}

static void check_status(const MPI_Status *st, int src, int tag, int bytes,
                         const char *what)
{
    check_status_t(st, src, tag, MPI_BYTE, bytes, what);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int peer = rank ^ 1;
    if (peer >= size) { /* odd np: nothing to pair with */
        CHECK_MPI(MPI_Finalize());
        return 0;
    }
    unsigned char *s = malloc(BIG + GUARD), *r = malloc(BIG + GUARD);
    CHECK(s && r, "malloc");
    MPI_Status st;
    MPI_Request rq;
    int round = 0;

    /* 1. Isend then Recv, both sides at once */
    round++;
    fill(s, BIG, rank, round);
    memset(r, 0xA5, BIG + GUARD);
    CHECK_MPI(MPI_Isend(s, BIG, MPI_BYTE, peer, round, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Recv(r, BIG, MPI_BYTE, peer, round, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    check_status(&st, peer, round, BIG, "Isend+Recv");
    verify(r, BIG, peer, round, "Isend+Recv");

    /* 2. Irecv then Send, both sides at once */
    round++;
    fill(s, BIG, rank, round);
    memset(r, 0xA5, BIG + GUARD);
    CHECK_MPI(MPI_Irecv(r, BIG, MPI_BYTE, peer, round, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Send(s, BIG, MPI_BYTE, peer, round, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&rq, &st));
    check_status(&st, peer, round, BIG, "Irecv+Send");
    verify(r, BIG, peer, round, "Irecv+Send");

    /* 3. Sendrecv, as 8 M doubles */
    round++;
    fill(s, BIG, rank, round);
    memset(r, 0xA5, BIG + GUARD);
    CHECK_MPI(MPI_Sendrecv(s, BIG / 8, MPI_DOUBLE, peer, round, r, BIG / 8,
                           MPI_DOUBLE, peer, round, MPI_COMM_WORLD, &st));
    check_status_t(&st, peer, round, MPI_DOUBLE, BIG / 8, "Sendrecv");
    verify(r, BIG, peer, round, "Sendrecv");

    /* 4. Sendrecv with wildcards on the receive */
    round++;
    fill(s, BIG, rank, round);
    memset(r, 0xA5, BIG + GUARD);
    CHECK_MPI(MPI_Sendrecv(s, BIG, MPI_BYTE, peer, round, r, BIG, MPI_BYTE,
                           MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    check_status(&st, peer, round, BIG, "Sendrecv (wildcards)");
    verify(r, BIG, peer, round, "Sendrecv (wildcards)");

    /* 5. Sendrecv_replace, as 16 M ints */
    round++;
    fill(r, BIG, rank, round);
    memset(r + BIG, 0xA5, GUARD);
    CHECK_MPI(MPI_Sendrecv_replace(r, BIG / 4, MPI_INT, peer, round, peer,
                                   round, MPI_COMM_WORLD, &st));
    check_status_t(&st, peer, round, MPI_INT, BIG / 4, "Sendrecv_replace");
    verify(r, BIG, peer, round, "Sendrecv_replace");

    /* 6. ordered: the even rank sends first, the odd one receives first */
    round++;
    fill(s, BIG, rank, round);
    memset(r, 0xA5, BIG + GUARD);
    if (rank % 2 == 0) {
        CHECK_MPI(MPI_Send(s, BIG, MPI_BYTE, peer, round, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(r, BIG, MPI_BYTE, peer, round, MPI_COMM_WORLD,
                           &st));
    } else {
        CHECK_MPI(MPI_Recv(r, BIG, MPI_BYTE, peer, round, MPI_COMM_WORLD,
                           &st));
        CHECK_MPI(MPI_Send(s, BIG, MPI_BYTE, peer, round, MPI_COMM_WORLD));
    }
    check_status(&st, peer, round, BIG, "Send/Recv");
    verify(r, BIG, peer, round, "Send/Recv");

    /* 7. a receive buffer larger than the message, Ssend */
    round++;
    fill(s, BIG, rank, round);
    memset(r, 0xA5, BIG + GUARD);
    int part = BIG / 2 + 8;
    CHECK_MPI(MPI_Irecv(r, BIG, MPI_BYTE, peer, round, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Ssend(s, part, MPI_BYTE, peer, round, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&rq, &st));
    check_status(&st, peer, round, part, "Ssend (shorter message)");
    verify(r, (size_t)part, peer, round, "Ssend (shorter message)");

    free(s);
    free(r);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
