/* p2p_bigexchange_ext: two ranks that both MPI_Send 64 MiB to each other before receiving complete (shmpi pulls an unexpected large message in; the standard calls this exchange unsafe). */
/* shmpi-test: np=2,4 timeout=120 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MPI-3.1 3.5 (Example 3.10) calls this program unsafe: it completes only
 * if the library buffers one of the messages, and with Open MPI (and
 * MPICH) it deadlocks at this size.  shmpi promises it completes
 * (pt2pt/pull.c): ext.  Data verified, guard bytes untouched; then the
 * same with MPI_ANY_SOURCE/MPI_ANY_TAG receives, with several messages
 * in a row each way, and with a shorter receive buffer (the truncation
 * is reported, and only the buffer is written).
 */
#include "check.h"

#include <stdint.h>

#define BIG (64u << 20)
#define GUARD 4096

static void fill(unsigned char *b, size_t n, int who, int round)
{
    uint64_t *w = (uint64_t *)b;
    for (size_t i = 0; i < n / 8; i++)
        w[i] = ((uint64_t)who << 56) ^ ((uint64_t)round << 48) ^ i;
}

static void verify(const unsigned char *b, size_t n, int who, int round,
                   const char *what)
{
    const uint64_t *w = (const uint64_t *)b;
    for (size_t i = 0; i < n / 8; i++)
        CHECK(w[i] == (((uint64_t)who << 56) ^ ((uint64_t)round << 48) ^ i),
              "%s: word %zu wrong (%#llx)", what, i,
              (unsigned long long)w[i]);
    for (size_t i = n; i < n + GUARD; i++)
        CHECK(b[i] == 0xA5, "%s: guard byte %zu past the buffer written",
              what, i - n);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int peer = rank ^ 1;
    if (peer >= size) {
        CHECK_MPI(MPI_Finalize());
        return 0;
    }
    unsigned char *s = malloc(BIG + GUARD), *r = malloc(BIG + GUARD);
    CHECK(s && r, "malloc");
    MPI_Status st;
    int count;

    /* both send first */
    fill(s, BIG, rank, 1);
    memset(r, 0xA5, BIG + GUARD);
    CHECK_MPI(MPI_Send(s, BIG, MPI_BYTE, peer, 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(r, BIG, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
    CHECK(count == (int)BIG && st.MPI_SOURCE == peer && st.MPI_TAG == 1,
          "head-to-head: count %d source %d tag %d", count, st.MPI_SOURCE,
          st.MPI_TAG);
    verify(r, BIG, peer, 1, "head-to-head");

    /* again, wildcard receive */
    fill(s, BIG, rank, 2);
    memset(r, 0xA5, BIG + GUARD);
    CHECK_MPI(MPI_Send(s, BIG, MPI_BYTE, peer, 2, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(r, BIG, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                       MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 2,
          "head-to-head (wildcards): source %d tag %d", st.MPI_SOURCE,
          st.MPI_TAG);
    verify(r, BIG, peer, 2, "head-to-head (wildcards)");

    /* three 4 MiB messages each way, then the receives, in order */
    const size_t mid = 4u << 20;
    for (int k = 0; k < 3; k++) {
        fill(s + k * mid, mid, rank, 10 + k);
        CHECK_MPI(MPI_Send(s + k * mid, (int)mid, MPI_BYTE, peer, 3,
                           MPI_COMM_WORLD));
    }
    for (int k = 0; k < 3; k++) {
        memset(r, 0xA5, mid + GUARD);
        CHECK_MPI(MPI_Recv(r, (int)mid, MPI_BYTE, peer, 3, MPI_COMM_WORLD,
                           &st));
        verify(r, mid, peer, 10 + k, "three in a row");
    }

    /* a receive shorter than the pulled message: MPI_ERR_TRUNCATE, and
       only the buffer written */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    fill(s, BIG, rank, 4);
    memset(r, 0xA5, BIG + GUARD);
    CHECK_MPI(MPI_Send(s, BIG, MPI_BYTE, peer, 4, MPI_COMM_WORLD));
    int rc = MPI_Recv(r, BIG / 2, MPI_BYTE, peer, 4, MPI_COMM_WORLD, &st);
    CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
    verify(r, BIG / 2, peer, 4, "truncated");

    free(s);
    free(r);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
