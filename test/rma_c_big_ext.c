/* rma_c_big_ext: a window of more than 2 GiB (MPI_Win_allocate_c) that MPI_Put_c fills with 2^31 + 8 MPI_BYTEs in one call, MPI_Accumulate_c changes with MPI_BXOR over all of it, and MPI_Get_c reads back as 2^29 + 2 elements of a derived 4-byte type, every byte checked (2 GiB a process).  ext: Open MPI 4.1 has no _c functions. */
/* shmpi-test: np=2 timeout=900 ext */
/* shmpi-test-skip tsan: each rank touches 2 GiB, which ThreadSanitizer's shadow memory makes 10 to 20 GiB (its documented 5-10x overhead), more than the machine has for two ranks; and the test starts no threads, between which its races would be. */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "big.h"
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#define NBYTES (((MPI_Count)1 << 31) + 8)

/* b holds pattern 1 (big.h), XORed with the one of i >> 17 when
   `masked`: pattern 1 with m. */
static void expect(const unsigned char *b, int masked, const char *what)
{
    int64_t i = big_wrong(b, NBYTES, 1, masked);
    CHECK(i < 0, "%s: byte %lld is %d, expected %d", what, (long long)i,
          i < 0 ? 0 : b[i], big_pat((uint64_t)i, 1, masked));
}

int main(int argc, char **argv)
{
    int rank;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    /* rank 1 holds the window; rank 0 the origin buffer */
    MPI_Aint size = rank == 1 ? (MPI_Aint)NBYTES : 0;
    unsigned char *mem = NULL, *b = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_c(size, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                                 &mem, &win));
    MPI_Datatype quad; /* a derived type: 4 bytes */
    CHECK_MPI(MPI_Type_contiguous(4, MPI_BYTE, &quad));
    CHECK_MPI(MPI_Type_commit(&quad));
    if (rank == 0) {
        b = big_alloc((size_t)NBYTES);
        CHECK(b, "no memory for %lld bytes", (long long)NBYTES);
        big_fill(b, NBYTES, 1, 0);
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win));
        CHECK_MPI(MPI_Put_c(b, NBYTES, MPI_BYTE, 1, 0, NBYTES, MPI_BYTE,
                            win));
        CHECK_MPI(MPI_Win_unlock(1, win));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 1) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
        expect(mem, 0, "Put_c");
        CHECK_MPI(MPI_Win_unlock(1, win));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        /* byte i is i >> 17 (mod 256): what XORs pattern 1 into pattern
           1 with m */
        for (MPI_Count i = 0; i < NBYTES; i += (MPI_Count)1 << 17) {
            MPI_Count n = NBYTES - i < (1 << 17) ? NBYTES - i : 1 << 17;
            memset(b + i, (int)(unsigned char)(i >> 17), (size_t)n);
        }
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win));
        CHECK_MPI(MPI_Accumulate_c(b, NBYTES, MPI_BYTE, 1, 0, NBYTES,
                                   MPI_BYTE, MPI_BXOR, win));
        CHECK_MPI(MPI_Win_flush(1, win));
        memset(b, 0, (size_t)NBYTES);
        CHECK_MPI(MPI_Get_c(b, NBYTES / 4, quad, 1, 0, NBYTES, MPI_BYTE,
                            win));
        CHECK_MPI(MPI_Win_unlock(1, win));
        expect(b, 1, "Accumulate_c then Get_c");
        big_free(b, (size_t)NBYTES);
    }
    CHECK_MPI(MPI_Type_free(&quad));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
