/* p2p_allpairs_many: every pair of ranks exchanges point-to-point messages (Isend/Irecv to all, sizes from 0 bytes to past the eager limit, several tags, two in order on one tag), every payload checked. */
/* shmpi-test: np=64,256 timeout=300 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * All n * (n - 1) directed channels in use, as a large job's all-to-all
 * over messages uses them:
 *   small   each rank posts every receive first, then every send, of
 *           four sizes on four tags, to and from every other rank at
 *           once, plus a second message on the first tag (the two must
 *           arrive in the order sent); one MPI_Waitall for them all;
 *   large   BIG bytes (past shmpi's default eager limit of 16 KiB) to
 *           every other rank, WAVE peers at a time (rank + d for d in
 *           the wave, from rank - d), so that memory stays
 *           2 * WAVE * BIG bytes a rank at any size.
 * Each payload depends on sender, receiver, tag and position.
 */
#include "check.h"

#include <stdint.h>

#define BIG 20000 /* bytes */
#define WAVE 16
#define TAG_BIG 99

static const int small_len[] = {0, 4, 256, 4000}; /* bytes, tag = index */
enum { SMALL = sizeof small_len / sizeof small_len[0], PER_PEER = SMALL + 1 };

static unsigned char byte_of(int from, int to, int tag, int i)
{
    uint32_t x = (uint32_t)from * 2654435761u ^ (uint32_t)to * 40503u ^
                 (uint32_t)tag * 97u ^ (uint32_t)i * 2246822519u;
    return (unsigned char)(x ^ x >> 13);
}

static void fill(unsigned char *b, int len, int from, int to, int tag)
{
    for (int i = 0; i < len; i++)
        b[i] = byte_of(from, to, tag, i);
}

static void check_payload(const unsigned char *b, int len, int from, int to,
                          int tag, const MPI_Status *st)
{
    int count;
    CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK(count == len && st->MPI_SOURCE == from && st->MPI_TAG == tag,
          "from %d tag %d: got %d bytes from %d tag %d, expected %d bytes",
          from, tag, count, st->MPI_SOURCE, st->MPI_TAG, len);
    for (int i = 0; i < len; i++)
        CHECK(b[i] == byte_of(from, to, tag, i),
              "from %d tag %d: byte %d of %d is %d, expected %d", from, tag,
              i, len, b[i], byte_of(from, to, tag, i));
}

/* Message k (of PER_PEER) between a pair: its tag, length, and the
   payload's tag (the repeat on tag 0 carries other bytes). */
static int tag_of(int k) { return k < SMALL ? k : 0; }
static int len_of(int k) { return small_len[tag_of(k)]; }
static int seed_of(int k) { return k < SMALL ? k : 1000; }

static void small_all(int rank, int size)
{
    int peers = size - 1, n = peers * PER_PEER;
    size_t slot = 4000;
    unsigned char *in = malloc((size_t)n * slot), *out = malloc((size_t)n * slot);
    MPI_Request *req = malloc(2 * (size_t)n * sizeof *req);
    MPI_Status *st = malloc(2 * (size_t)n * sizeof *st);
    CHECK(in && out && req && st, "out of memory");
    for (int p = 0, i = 0; p < size; p++) {
        if (p == rank)
            continue;
        for (int k = 0; k < PER_PEER; k++, i++)
            CHECK_MPI(MPI_Irecv(in + (size_t)i * slot, len_of(k), MPI_BYTE, p,
                                tag_of(k), MPI_COMM_WORLD, &req[i]));
    }
    for (int p = 0, i = 0; p < size; p++) {
        if (p == rank)
            continue;
        for (int k = 0; k < PER_PEER; k++, i++) {
            unsigned char *b = out + (size_t)i * slot;
            fill(b, len_of(k), rank, p, seed_of(k));
            CHECK_MPI(MPI_Isend(b, len_of(k), MPI_BYTE, p, tag_of(k),
                                MPI_COMM_WORLD, &req[n + i]));
        }
    }
    CHECK_MPI(MPI_Waitall(2 * n, req, st));
    for (int p = 0, i = 0; p < size; p++) {
        if (p == rank)
            continue;
        for (int k = 0; k < PER_PEER; k++, i++) {
            const unsigned char *b = in + (size_t)i * slot;
            if (k < SMALL) {
                check_payload(b, len_of(k), p, rank, k, &st[i]);
                continue;
            }
            /* the second message on tag 0 matched the second receive */
            CHECK(st[i].MPI_SOURCE == p && st[i].MPI_TAG == 0,
                  "the repeat from %d: source %d tag %d", p,
                  st[i].MPI_SOURCE, st[i].MPI_TAG);
            for (int j = 0; j < len_of(k); j++)
                CHECK(b[j] == byte_of(p, rank, 1000, j),
                      "the repeat on tag 0 from %d overtook the first", p);
        }
    }
    free(in);
    free(out);
    free(req);
    free(st);
}

static void large_waves(int rank, int size)
{
    unsigned char *in = malloc((size_t)WAVE * BIG), *out = malloc((size_t)WAVE * BIG);
    CHECK(in && out, "out of memory");
    for (int first = 1; first < size; first += WAVE) {
        MPI_Request req[2 * WAVE];
        MPI_Status st[2 * WAVE];
        int m = size - first < WAVE ? size - first : WAVE;
        for (int w = 0; w < m; w++) {
            int from = (rank - (first + w) + size) % size;
            CHECK_MPI(MPI_Irecv(in + (size_t)w * BIG, BIG, MPI_BYTE, from,
                                TAG_BIG, MPI_COMM_WORLD, &req[w]));
        }
        for (int w = 0; w < m; w++) {
            int to = (rank + first + w) % size;
            fill(out + (size_t)w * BIG, BIG, rank, to, TAG_BIG);
            CHECK_MPI(MPI_Isend(out + (size_t)w * BIG, BIG, MPI_BYTE, to,
                                TAG_BIG, MPI_COMM_WORLD, &req[m + w]));
        }
        CHECK_MPI(MPI_Waitall(2 * m, req, st));
        for (int w = 0; w < m; w++)
            check_payload(in + (size_t)w * BIG, BIG,
                          (rank - (first + w) + size) % size, rank, TAG_BIG,
                          &st[w]);
    }
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    int size, rank;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    small_all(rank, size);
    large_waves(rank, size);
    small_all(rank, size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
