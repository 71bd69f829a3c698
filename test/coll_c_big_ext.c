/* coll_c_big_ext: more than 2^31 elements through the large-count collectives: MPI_Bcast_c of 2^31 + 8 MPI_BYTEs received as 2^29 + 2 elements of a derived 4-byte type, MPI_Ibcast_c of 178956971 elements of a derived 12-byte type received as 2^31 + 4 MPI_BYTEs (a message whose element sizes differ at its two ends), and MPI_Allreduce_c in place of 2^31 + 8 MPI_BYTEs with MPI_BXOR, every byte checked (2 GiB a process).  ext: Open MPI 4.1 has no _c functions. */
/* shmpi-test: np=2 timeout=900 ext */
/* shmpi-test-skip tsan: each rank touches 2 GiB, which ThreadSanitizer's shadow memory makes 10 to 20 GiB (its documented 5-10x overhead), more than the machine has for two ranks; and the test starts no threads, between which its races would be. */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "big.h"
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#define NBYTES (((MPI_Count)1 << 31) + 8)

static int rank, size;

/* b holds pattern 37 seed (big.h) up to n */
static void expect(const unsigned char *b, MPI_Count n, int seed,
                   const char *what)
{
    unsigned key = (unsigned)seed * 37;
    int64_t i = big_wrong(b, (uint64_t)n, key, 0);
    CHECK(i < 0, "%s: byte %lld is %d, expected %d", what, (long long)i,
          i < 0 ? 0 : b[i], big_pat((uint64_t)i, key, 0));
}

/* the first of the n bytes at b that is not c, or -1 */
static int64_t wrong_const(const unsigned char *b, uint64_t n, unsigned char c)
{
    uint64_t i = 0, w, want = c * 0x0101010101010101ull;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, b + i, 8);
        if (w != want)
            break;
    }
    for (; i < n; i++)
        if (b[i] != c)
            return (int64_t)i;
    return -1;
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    unsigned char *b = big_alloc((size_t)NBYTES);
    CHECK(b, "no memory for %lld bytes", (long long)NBYTES);
    MPI_Datatype quad, dozen; /* derived types: 4 and 12 bytes */
    CHECK_MPI(MPI_Type_contiguous(4, MPI_BYTE, &quad));
    CHECK_MPI(MPI_Type_commit(&quad));
    CHECK_MPI(MPI_Type_contiguous(12, MPI_BYTE, &dozen));
    CHECK_MPI(MPI_Type_commit(&dozen));
    int root = size - 1;

    /* blocking, on the collective area: bytes out, quads in */
    if (rank == root)
        big_fill(b, NBYTES, 1 * 37, 0);
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
        big_fill(b, NBYTES, 2 * 37, 0);
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
    big_fill(b, NBYTES, (unsigned)(3 + rank) * 37, 0);
    CHECK_MPI(MPI_Allreduce_c(MPI_IN_PLACE, b, NBYTES, MPI_BYTE, MPI_BXOR,
                              MPI_COMM_WORLD));
    unsigned char key = 0; /* pattern 37 s is x(i) ^ 37 s (big.h) */
    for (int r = 0; r < size; r++)
        key ^= (unsigned char)((3 + r) * 37);
    int64_t i = size % 2 ? big_wrong(b, NBYTES, key, 0)
                         : wrong_const(b, NBYTES, key);
    CHECK(i < 0, "Allreduce_c: byte %lld is %d, expected %d", (long long)i,
          i < 0 ? 0 : b[i], size % 2 ? big_pat((uint64_t)i, key, 0) : key);

    CHECK_MPI(MPI_Type_free(&quad));
    CHECK_MPI(MPI_Type_free(&dozen));
    big_free(b, (size_t)NBYTES);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
