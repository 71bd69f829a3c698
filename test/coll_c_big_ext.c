/* coll_c_big_ext: more than 2^31 elements through the large-count collectives: MPI_Bcast_c of 2^31 + 8 MPI_BYTEs received as 2^29 + 2 elements of a derived 4-byte type, MPI_Ibcast_c of 178956971 elements of a derived 12-byte type received as 2^31 + 4 MPI_BYTEs (a message whose element sizes differ at its two ends), and MPI_Allreduce_c in place of 2^31 + 8 MPI_BYTEs with MPI_BXOR, every byte checked (2 GiB a process).  ext: Open MPI 4.1 has no _c functions. */
/* shmpi-test: np=2 timeout=900 ext */
/* shmpi-test-skip tsan: each rank touches 2 GiB, which ThreadSanitizer's shadow memory makes 10 to 20 GiB (its documented 5-10x overhead), more than the machine has for two ranks; and the test starts no threads, between which its races would be. */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#define NBYTES (((MPI_Count)1 << 31) + 8)

static int rank, size;

/* Byte i of the pattern `seed`: differs at every offset of a 4-byte
   piece boundary and from one GiB to the next, so data that lands a
   piece off shows. */
static unsigned char pat(MPI_Count i, int seed)
{
    uint64_t x = (uint64_t)i;
    return (unsigned char)(x ^ (x >> 9) ^ (x >> 30) ^ (uint64_t)(seed * 37));
}

static void fill(unsigned char *b, int seed)
{
    for (MPI_Count i = 0; i < NBYTES; i++)
        b[i] = pat(i, seed);
}

static void expect(const unsigned char *b, MPI_Count n, int seed,
                   const char *what)
{
    for (MPI_Count i = 0; i < n; i++)
        if (b[i] != pat(i, seed))
            CHECK(0, "%s: byte %lld is %d, expected %d", what,
                  (long long)i, b[i], pat(i, seed));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    unsigned char *b = malloc((size_t)NBYTES);
    CHECK(b, "no memory for %lld bytes", (long long)NBYTES);
    MPI_Datatype quad, dozen; /* derived types: 4 and 12 bytes */
    CHECK_MPI(MPI_Type_contiguous(4, MPI_BYTE, &quad));
    CHECK_MPI(MPI_Type_commit(&quad));
    CHECK_MPI(MPI_Type_contiguous(12, MPI_BYTE, &dozen));
    CHECK_MPI(MPI_Type_commit(&dozen));
    int root = size - 1;

    /* blocking, on the collective area: bytes out, quads in */
    if (rank == root)
        fill(b, 1);
    else
        memset(b, 0, (size_t)NBYTES);
    if (rank == root)
        CHECK_MPI(MPI_Bcast_c(b, NBYTES, MPI_BYTE, root, MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Bcast_c(b, NBYTES / 4, quad, root, MPI_COMM_WORLD));
    expect(b, NBYTES, 1, "Bcast_c");

    /* nonblocking, as a message of the schedule: 12-byte elements out,
       bytes in */
    if (rank == 0)
        fill(b, 2);
    else
        memset(b, 0, (size_t)NBYTES);
    MPI_Request req;
    if (rank == 0)
        CHECK_MPI(MPI_Ibcast_c(b, NBYTES / 12, dozen, 0, MPI_COMM_WORLD,
                               &req));
    else
        CHECK_MPI(MPI_Ibcast_c(b, NBYTES / 12 * 12, MPI_BYTE, 0,
                               MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    expect(b, NBYTES / 12 * 12, 2, "Ibcast_c");

    /* every rank's pattern XORed together */
    fill(b, 3 + rank);
    CHECK_MPI(MPI_Allreduce_c(MPI_IN_PLACE, b, NBYTES, MPI_BYTE, MPI_BXOR,
                              MPI_COMM_WORLD));
    unsigned char key = 0; /* pat(i, s) is x(i) ^ 37 s */
    for (int r = 0; r < size; r++)
        key ^= (unsigned char)((3 + r) * 37);
    for (MPI_Count i = 0; i < NBYTES; i++) {
        unsigned char want = (unsigned char)((size % 2 ? pat(i, 0) : 0) ^ key);
        if (b[i] != want)
            CHECK(0, "Allreduce_c: byte %lld is %d, expected %d",
                  (long long)i, b[i], want);
    }

    CHECK_MPI(MPI_Type_free(&quad));
    CHECK_MPI(MPI_Type_free(&dozen));
    free(b);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
