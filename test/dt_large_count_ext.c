/* dt_large_count_ext: datatypes past 2^31 elements with MPI-4.0's _c forms: an MPI_Type_contiguous_c of 2^31 + 64 bytes (its size, envelope and contents), MPI_Pack_c/MPI_Unpack_c of it and of 2^31 + 64 MPI_BYTEs, MPI_Pack_size_c, and MPI_Reduce_local_c handing an MPI_Op_create_c function its whole count; the int queries say MPI_UNDEFINED. */
/* shmpi-test: np=1 timeout=180 ext */
/* shmpi-test-skip tsan: the rank writes and reads two buffers of over 2 GiB, and ThreadSanitizer adds shadow memory of at least twice every byte touched, past what the machine (23 GiB) gives one test of a suite running beside others. */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: Open MPI 4.1 has no _c forms.  Two buffers of 2 GiB and a little.
 */
#include "big.h"
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define N (((MPI_Count)1 << 31) + 64)

static uint64_t word(uint64_t i, unsigned salt)
{
    return (i * 0x9E3779B97F4A7C15ull) ^ salt;
}

static void fill(unsigned char *b, unsigned salt)
{
    uint64_t *w = (uint64_t *)b;
    for (MPI_Count i = 0; i < N / 8; i++)
        w[i] = word((uint64_t)i, salt);
}

static MPI_Count wrong_words(const unsigned char *b, unsigned salt)
{
    const uint64_t *w = (const uint64_t *)b;
    MPI_Count bad = 0;
    for (MPI_Count i = 0; i < N / 8; i++)
        bad += w[i] != word((uint64_t)i, salt);
    return bad;
}

static MPI_Count calls, last_len;

/* inout ^= in over *len bytes: must be called once, with the whole N */
static void xor_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    calls++;
    last_len = *len;
    const uint64_t *a = in;
    uint64_t *b = inout;
    if (*dt == MPI_BYTE)
        for (MPI_Count i = 0; i < *len / 8; i++)
            b[i] ^= a[i];
}

static void type_queries(MPI_Datatype t)
{
    MPI_Count size = 0, lb = -1, extent = 0;
    int isize = 0;
    CHECK_MPI(MPI_Type_size_c(t, &size));
    CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &extent));
    CHECK(size == N && lb == 0 && extent == N,
          "MPI_Type_contiguous_c: size %lld, lb %lld, extent %lld",
          (long long)size, (long long)lb, (long long)extent);
    CHECK_MPI(MPI_Type_size(t, &isize));
    CHECK(isize == MPI_UNDEFINED, "MPI_Type_size says %d", isize);
    MPI_Count ni, na, nc, nd, count = 0;
    int combiner;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &combiner));
    CHECK(combiner == MPI_COMBINER_CONTIGUOUS && ni == 0 && na == 0 &&
              nc == 1 && nd == 1,
          "envelope: combiner %d, %lld %lld %lld %lld", combiner,
          (long long)ni, (long long)na, (long long)nc, (long long)nd);
    MPI_Datatype old;
    CHECK_MPI(MPI_Type_get_contents_c(t, 0, 0, 1, 1, NULL, NULL, &count,
                                      &old));
    CHECK(count == N && old == MPI_BYTE, "contents: count %lld",
          (long long)count);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    unsigned char *a = big_alloc((size_t)N), *b = big_alloc((size_t)N);
    CHECK(a && b, "no memory for two buffers of %lld bytes", (long long)N);
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous_c(N, MPI_BYTE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    type_queries(t);

    /* pack and unpack the type, then N MPI_BYTEs, across 2^31 */
    MPI_Count size = 0, pos = 0;
    int isize = 0;
    CHECK_MPI(MPI_Pack_size_c(1, t, MPI_COMM_WORLD, &size));
    CHECK(size == N, "MPI_Pack_size_c says %lld", (long long)size);
    CHECK_MPI(MPI_Pack_size(1, t, MPI_COMM_WORLD, &isize));
    CHECK(isize == MPI_UNDEFINED, "MPI_Pack_size says %d", isize);
    fill(a, 1);
    CHECK_MPI(MPI_Pack_c(a, 1, t, b, N, &pos, MPI_COMM_WORLD));
    CHECK(pos == N, "MPI_Pack_c: position %lld", (long long)pos);
    CHECK(wrong_words(b, 1) == 0, "MPI_Pack_c: packed data wrong");
    memset(a, 0, (size_t)N);
    pos = 0;
    CHECK_MPI(MPI_Unpack_c(b, N, &pos, a, N, MPI_BYTE, MPI_COMM_WORLD));
    CHECK(pos == N, "MPI_Unpack_c: position %lld", (long long)pos);
    CHECK(wrong_words(a, 1) == 0, "MPI_Unpack_c: data wrong");

    /* a user function of MPI_Op_create_c gets the whole count at once */
    MPI_Op op;
    CHECK_MPI(MPI_Op_create_c(xor_c, 1, &op));
    fill(b, 2);
    CHECK_MPI(MPI_Reduce_local_c(a, b, N, MPI_BYTE, op));
    CHECK(calls == 1 && last_len == N,
          "the op was called %lld times, last with len %lld",
          (long long)calls, (long long)last_len);
    /* word(i, 1) ^ word(i, 2) is 1 ^ 2 in every word */
    const uint64_t *w = (const uint64_t *)b;
    MPI_Count bad = 0;
    for (MPI_Count i = 0; i < N / 8; i++)
        bad += w[i] != (1 ^ 2);
    CHECK(bad == 0, "MPI_Reduce_local_c: %lld words wrong", (long long)bad);
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Type_free(&t));
    big_free(a, (size_t)N);
    big_free(b, (size_t)N);
    MPI_Finalize();
    return 0;
}
