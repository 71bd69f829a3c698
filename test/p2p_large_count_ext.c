/* p2p_large_count_ext: MPI-4.0's MPI_Send_c/MPI_Recv_c move 2^31 + 64 bytes (more elements than an int holds) as MPI_BYTE and into a non-contiguous MPI_Type_vector_c type; MPI_Get_count_c/MPI_Get_elements_c say so and the int forms say MPI_UNDEFINED. */
/* shmpi-test: np=2 timeout=180 ext */
/* shmpi-test-skip tsan: each rank writes and reads over 2 GiB, and ThreadSanitizer adds shadow memory of at least twice every byte touched, past what the machine (23 GiB) gives one test of a suite running beside others. */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: Open MPI 4.1 has no _c forms.  2 GiB and a little on each rank
 * (the receiver's vector has a 4 KiB hole in the middle).
 */
#include "big.h"
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#define N (((MPI_Count)1 << 31) + 64)
#define HALF (N / 2)
#define HOLE 4096

static uint64_t word(uint64_t i, int round)
{
    return (i * 0x9E3779B97F4A7C15ull) ^ (uint64_t)round;
}

static void fill(unsigned char *b, int round)
{
    uint64_t *w = (uint64_t *)b;
    for (MPI_Count i = 0; i < N / 8; i++)
        w[i] = word((uint64_t)i, round);
}

/* the n bytes at b are bytes [from, from + n) of round's message */
static void verify(const unsigned char *b, MPI_Count from, MPI_Count n,
                   int round)
{
    const uint64_t *w = (const uint64_t *)b;
    MPI_Count bad = 0;
    for (MPI_Count i = 0; i < n / 8; i++)
        bad += w[i] != word((uint64_t)(from / 8 + i), round);
    CHECK(bad == 0, "round %d: %lld words wrong", round, (long long)bad);
}

static void check_status(const MPI_Status *st, MPI_Datatype dt,
                         MPI_Count count, MPI_Count elements)
{
    MPI_Count c = -1, e = -1;
    int ic = 0, ie = 0;
    CHECK_MPI(MPI_Get_count_c(st, dt, &c));
    CHECK_MPI(MPI_Get_elements_c(st, dt, &e));
    CHECK(c == count, "MPI_Get_count_c says %lld, not %lld", (long long)c,
          (long long)count);
    CHECK(e == elements, "MPI_Get_elements_c says %lld, not %lld",
          (long long)e, (long long)elements);
    CHECK_MPI(MPI_Get_count(st, dt, &ic));
    CHECK_MPI(MPI_Get_elements(st, dt, &ie));
    CHECK(ic == (count > INT32_MAX ? MPI_UNDEFINED : (int)count),
          "MPI_Get_count says %d", ic);
    CHECK(ie == MPI_UNDEFINED, "MPI_Get_elements says %d, not MPI_UNDEFINED",
          ie);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Status st;
    if (rank == 0) {
        unsigned char *b = big_alloc((size_t)N);
        CHECK(b != NULL, "no memory for %lld bytes", (long long)N);
        for (int round = 0; round < 2; round++) {
            fill(b, round);
            CHECK_MPI(MPI_Send_c(b, N, MPI_BYTE, 1, round, MPI_COMM_WORLD));
        }
        big_free(b, (size_t)N);
    } else {
        /* round 0: MPI_BYTE */
        unsigned char *b = big_alloc((size_t)N + HOLE);
        CHECK(b != NULL, "no memory for %lld bytes", (long long)N);
        CHECK_MPI(MPI_Recv_c(b, N, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &st));
        verify(b, 0, N, 0);
        check_status(&st, MPI_BYTE, N, N);
        /* round 1: two blocks of HALF bytes, HOLE bytes apart */
        MPI_Datatype v;
        CHECK_MPI(MPI_Type_vector_c(2, HALF, HALF + HOLE, MPI_BYTE, &v));
        CHECK_MPI(MPI_Type_commit(&v));
        MPI_Count size;
        CHECK_MPI(MPI_Type_size_c(v, &size));
        CHECK(size == N, "the vector's size is %lld", (long long)size);
        CHECK_MPI(MPI_Recv_c(b, 1, v, 0, 1, MPI_COMM_WORLD, &st));
        verify(b, 0, HALF, 1);
        verify(b + HALF + HOLE, HALF, HALF, 1);
        check_status(&st, v, 1, N);
        CHECK_MPI(MPI_Type_free(&v));
        big_free(b, (size_t)N + HOLE);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return 0;
}
