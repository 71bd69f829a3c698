/* p2p_order: non-overtaking (3.5) under load: messages of one sender with one tag arrive in send order, sizes straddling the eager limit, with specific and wildcard source/tag, blocking and pre-posted receives. */
/* shmpi-test: np=2,4,8 timeout=90 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every rank sends M messages to every other rank in each phase (all
 * with Isend, every 4th with Issend, so no receive order can deadlock),
 * sizes cycling through 0 B .. 1 MiB around the eager limit (16 KiB) and
 * the rendezvous chunk (32 KiB), tags drawn from three values.  The
 * receiver knows the whole schedule, so each message it gets must be
 * exactly the next one of its (source, tag) stream:
 *   A  blocking receives, specific source and tag, tags in reverse order
 *   B  blocking receives, specific source, MPI_ANY_TAG: whole send order
 *   C  blocking receives, MPI_ANY_SOURCE, specific tag
 *   D  blocking receives, MPI_ANY_SOURCE and MPI_ANY_TAG
 *   E  receives pre-posted (Irecv, specific source, MPI_ANY_TAG) before the
 *      sends start: the i-th request gets the i-th message
 *   F  receives pre-posted with MPI_ANY_SOURCE and MPI_ANY_TAG: per source,
 *      the requests (in posting order) get that source's messages in order
 * Phases are separated by barriers; tags differ per phase as well.
 */
#include "check.h"

#include <stdint.h>

#define M 24     /* messages per (sender, receiver) pair per phase */
#define NTAGS 3
#define BIG (1 << 20)

static const int sizes_full[] = {1, 16384, 16385, BIG, 0, 100, 16383,
                                 40000, 32768, 8, 65539, 2};
static const int sizes_small[] = {1, 16384, 16385, 0, 100, 16383, 40000, 8};
#define NFULL ((int)(sizeof sizes_full / sizeof sizes_full[0]))
#define NSMALL ((int)(sizeof sizes_small / sizeof sizes_small[0]))

static int rank, size;

static int msg_size(int phase, int src, int dst, int seq)
{
    if (phase == 'F')
        return sizes_small[(seq + src + 2 * dst) % NSMALL];
    return sizes_full[(seq + src + 2 * dst) % NFULL];
}

static int msg_tag(int phase, int src, int dst, int seq)
{
    uint32_t h = (uint32_t)(seq * 2654435761u) ^ (uint32_t)(src * 40503) ^
                 (uint32_t)(dst * 977) ^ (uint32_t)phase;
    h ^= h >> 13;
    return (phase - 'A') * 10 + (int)(h % NTAGS);
}

static void msg_fill(unsigned char *b, int phase, int src, int dst, int seq,
                     int n)
{
    for (int i = 0; i < n; i++)
        b[i] = (unsigned char)(src * 31 + dst * 17 + seq * 7 + phase + i +
                               (i >> 8));
    if (n >= 16) {
        int h[4] = {src, dst, seq, phase};
        memcpy(b, h, sizeof h);
    }
}

static unsigned char *expect_buf;

/* The message just received (status st, data b) must be message seq of
   src to us in this phase. */
static void verify(int phase, int src, int seq, const MPI_Status *st,
                   const unsigned char *b)
{
    int n = msg_size(phase, src, rank, seq), count = -1;
    int tag = msg_tag(phase, src, rank, seq);
    CHECK(st->MPI_SOURCE == src, "phase %c: source %d, expected %d", phase,
          st->MPI_SOURCE, src);
    CHECK(st->MPI_TAG == tag,
          "phase %c: from %d message %d should have tag %d, got %d "
          "(overtaken?)", phase, src, seq, tag, st->MPI_TAG);
    CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK(count == n,
          "phase %c: from %d message %d should have %d bytes, got %d "
          "(overtaken?)", phase, src, seq, n, count);
    msg_fill(expect_buf, phase, src, rank, seq, n);
    if (memcmp(expect_buf, b, (size_t)n) != 0) {
        int h[4] = {-1, -1, -1, -1};
        if (n >= 16)
            memcpy(h, b, sizeof h);
        CHECK(0,
              "phase %c: from %d message %d (tag %d, %d bytes): wrong data; "
              "header says src %d dst %d seq %d phase %c",
              phase, src, seq, tag, n, h[0], h[1], h[2], h[3]);
    }
}

/* Start all of this rank's sends of a phase. */
static void start_sends(int phase, MPI_Request *reqs, unsigned char **bufs)
{
    int k = 0;
    for (int i = 1; i < size; i++) {
        int dst = (rank + i) % size;
        for (int seq = 0; seq < M; seq++, k++) {
            int n = msg_size(phase, rank, dst, seq);
            bufs[k] = malloc((size_t)n + 1);
            CHECK(bufs[k], "malloc");
            msg_fill(bufs[k], phase, rank, dst, seq, n);
            int tag = msg_tag(phase, rank, dst, seq);
            if (seq % 4 == 3)
                CHECK_MPI(MPI_Issend(bufs[k], n, MPI_BYTE, dst, tag,
                                     MPI_COMM_WORLD, &reqs[k]));
            else
                CHECK_MPI(MPI_Isend(bufs[k], n, MPI_BYTE, dst, tag,
                                    MPI_COMM_WORLD, &reqs[k]));
        }
    }
}

static void finish_sends(MPI_Request *reqs, unsigned char **bufs)
{
    int total = (size - 1) * M;
    CHECK_MPI(MPI_Waitall(total, reqs, MPI_STATUSES_IGNORE));
    for (int k = 0; k < total; k++)
        free(bufs[k]);
}

/* next[src][tag]: the next seq of src's stream with that tag */
static int next_with_tag(int phase, int src, int from, int tag)
{
    for (int s = from; s < M; s++)
        if (msg_tag(phase, src, rank, s) == tag)
            return s;
    return M;
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2, "needs at least 2 ranks");

    int total = (size - 1) * M;
    MPI_Request *sreq = malloc(sizeof *sreq * (size_t)total);
    MPI_Request *rreq = malloc(sizeof *rreq * (size_t)total);
    MPI_Status *rst = malloc(sizeof *rst * (size_t)total);
    unsigned char **sbufs = malloc(sizeof *sbufs * (size_t)total);
    unsigned char **rbufs = calloc((size_t)total, sizeof *rbufs);
    unsigned char *rbuf = malloc(BIG + 64);
    expect_buf = malloc(BIG + 64);
    int *next = malloc(sizeof *next * (size_t)size * NTAGS);
    int *seqpos = malloc(sizeof *seqpos * (size_t)size);
    CHECK(sreq && rreq && rst && sbufs && rbufs && rbuf && expect_buf &&
          next && seqpos, "malloc");
    MPI_Status st;

    /* A: specific source and tag; tags in reverse, sources descending */
    start_sends('A', sreq, sbufs);
    for (int i = size - 1; i >= 1; i--) {
        int src = (rank + i) % size;
        for (int t = NTAGS - 1; t >= 0; t--) {
            int tag = ('A' - 'A') * 10 + t;
            for (int s = next_with_tag('A', src, 0, tag); s < M;
                 s = next_with_tag('A', src, s + 1, tag)) {
                CHECK_MPI(MPI_Recv(rbuf, BIG, MPI_BYTE, src, tag,
                                   MPI_COMM_WORLD, &st));
                verify('A', src, s, &st, rbuf);
            }
        }
    }
    finish_sends(sreq, sbufs);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* B: specific source, any tag: the whole send order */
    start_sends('B', sreq, sbufs);
    for (int i = 1; i < size; i++) {
        int src = (rank + size - i) % size;
        for (int s = 0; s < M; s++) {
            CHECK_MPI(MPI_Recv(rbuf, BIG, MPI_BYTE, src, MPI_ANY_TAG,
                               MPI_COMM_WORLD, &st));
            verify('B', src, s, &st, rbuf);
        }
    }
    finish_sends(sreq, sbufs);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* C: any source, specific tag */
    start_sends('C', sreq, sbufs);
    for (int src = 0; src < size; src++)
        for (int t = 0; t < NTAGS; t++)
            next[src * NTAGS + t] =
                src == rank ? M : next_with_tag('C', src, 0, 20 + t);
    for (int t = 0; t < NTAGS; t++) {
        int expected = 0;
        for (int src = 0; src < size; src++)
            for (int s = 0; s < M; s++)
                expected += src != rank && msg_tag('C', src, rank, s) == 20 + t;
        for (int k = 0; k < expected; k++) {
            CHECK_MPI(MPI_Recv(rbuf, BIG, MPI_BYTE, MPI_ANY_SOURCE, 20 + t,
                               MPI_COMM_WORLD, &st));
            int src = st.MPI_SOURCE;
            CHECK(src >= 0 && src < size && src != rank,
                  "phase C: bad source %d", src);
            int *nx = &next[src * NTAGS + t];
            CHECK(*nx < M, "phase C: one message too many from %d tag %d",
                  src, 20 + t);
            verify('C', src, *nx, &st, rbuf);
            *nx = next_with_tag('C', src, *nx + 1, 20 + t);
        }
    }
    finish_sends(sreq, sbufs);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* D: any source, any tag */
    start_sends('D', sreq, sbufs);
    for (int src = 0; src < size; src++)
        seqpos[src] = 0;
    for (int k = 0; k < total; k++) {
        CHECK_MPI(MPI_Recv(rbuf, BIG, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                           MPI_COMM_WORLD, &st));
        int src = st.MPI_SOURCE;
        CHECK(src >= 0 && src < size && src != rank,
              "phase D: bad source %d", src);
        CHECK(seqpos[src] < M, "phase D: too many messages from %d", src);
        verify('D', src, seqpos[src]++, &st, rbuf);
    }
    finish_sends(sreq, sbufs);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* E: pre-posted, specific source, any tag; posted before anyone
       sends (barrier), so they are matched in posting order */
    {
        int k = 0;
        for (int i = 1; i < size; i++) {
            int src = (rank + i) % size;
            for (int s = 0; s < M; s++, k++) {
                int n = msg_size('E', src, rank, s);
                rbufs[k] = malloc((size_t)n + 1);
                CHECK(rbufs[k], "malloc");
                CHECK_MPI(MPI_Irecv(rbufs[k], n, MPI_BYTE, src, MPI_ANY_TAG,
                                    MPI_COMM_WORLD, &rreq[k]));
            }
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        start_sends('E', sreq, sbufs);
        CHECK_MPI(MPI_Waitall(total, rreq, rst));
        k = 0;
        for (int i = 1; i < size; i++) {
            int src = (rank + i) % size;
            for (int s = 0; s < M; s++, k++) {
                verify('E', src, s, &rst[k], rbufs[k]);
                free(rbufs[k]);
            }
        }
        finish_sends(sreq, sbufs);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* F: pre-posted, any source, any tag (sizes up to 40000 bytes) */
    {
        int maxn = 0;
        for (int i = 0; i < NSMALL; i++)
            maxn = sizes_small[i] > maxn ? sizes_small[i] : maxn;
        for (int k = 0; k < total; k++) {
            rbufs[k] = malloc((size_t)maxn);
            CHECK(rbufs[k], "malloc");
            CHECK_MPI(MPI_Irecv(rbufs[k], maxn, MPI_BYTE, MPI_ANY_SOURCE,
                                MPI_ANY_TAG, MPI_COMM_WORLD, &rreq[k]));
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        start_sends('F', sreq, sbufs);
        CHECK_MPI(MPI_Waitall(total, rreq, rst));
        for (int src = 0; src < size; src++)
            seqpos[src] = 0;
        for (int k = 0; k < total; k++) {
            int src = rst[k].MPI_SOURCE;
            CHECK(src >= 0 && src < size && src != rank,
                  "phase F: bad source %d", src);
            CHECK(seqpos[src] < M, "phase F: too many messages from %d", src);
            verify('F', src, seqpos[src]++, &rst[k], rbufs[k]);
            free(rbufs[k]);
        }
        finish_sends(sreq, sbufs);
    }

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    free(sreq); free(rreq); free(rst); free(sbufs); free(rbufs); free(rbuf);
    free(expect_buf); free(next); free(seqpos);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
