/* alloc_mem: MPI_Alloc_mem/MPI_Free_mem of 0, 1, 4 KiB and 64 MiB and of thousands of small blocks, each written whole and kept apart from the others. */
/* shmpi-test: np=1,2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

#define NSMALL 10000

static unsigned rnd_state = 12345;
static unsigned rnd(void)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return rnd_state >> 8;
}

static void *alloc(MPI_Aint size)
{
    void *p = NULL;
    CHECK_MPI(MPI_Alloc_mem(size, MPI_INFO_NULL, &p));
    CHECK(p != NULL || size == 0, "MPI_Alloc_mem(%ld) gave NULL", (long)size);
    return p;
}

/* Write every byte, then read every byte back. */
static void fill_and_check(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(seed + i * 7);
    for (size_t i = 0; i < n; i++)
        CHECK(p[i] == (unsigned char)(seed + i * 7),
              "block of %zu bytes: byte %zu changed", n, i);
}

int main(int argc, char **argv)
{
    int rank;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    rnd_state += rank;

    /* Size 0: valid; whatever pointer it gives goes back to MPI_Free_mem. */
    void *zero = alloc(0);
    CHECK_MPI(MPI_Free_mem(zero));

    const MPI_Aint sizes[] = {1, 7, 64, 4096, 4097, 1 << 20, 64 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        unsigned char *p = alloc(sizes[i]);
        fill_and_check(p, sizes[i], (unsigned)i);
        CHECK_MPI(MPI_Free_mem(p));
    }

    /* Several big blocks at once: no overlap. */
    unsigned char *big[4];
    for (int i = 0; i < 4; i++) {
        big[i] = alloc(16 << 20);
        memset(big[i], 'a' + i, 16 << 20);
    }
    for (int i = 0; i < 4; i++)
        for (size_t k = 0; k < (16 << 20); k += 4093)
            CHECK(big[i][k] == 'a' + i, "16 MiB block %d overwritten at %zu", i,
                  k);
    for (int i = 0; i < 4; i++)
        CHECK_MPI(MPI_Free_mem(big[i]));

    /* Many small blocks, all live at once, freed in a scrambled order; twice,
       so the second round reuses what the first freed. */
    static unsigned char *blk[NSMALL];
    static size_t len[NSMALL];
    static int order[NSMALL];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < NSMALL; i++) {
            len[i] = 1 + rnd() % 300;
            blk[i] = alloc((MPI_Aint)len[i]);
            memset(blk[i], (unsigned char)(i * 31 + round), len[i]);
        }
        for (int i = 0; i < NSMALL; i++)
            for (size_t k = 0; k < len[i]; k++)
                CHECK(blk[i][k] == (unsigned char)(i * 31 + round),
                      "round %d: small block %d (%zu bytes) overwritten at "
                      "byte %zu: blocks overlap", round, i, len[i], k);
        for (int i = 0; i < NSMALL; i++)
            order[i] = i;
        for (int i = NSMALL - 1; i > 0; i--) {
            int j = rnd() % (i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < NSMALL; i++)
            CHECK_MPI(MPI_Free_mem(blk[order[i]]));
    }

    /* A negative size is an error, reported through MPI_COMM_WORLD. */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    void *p = NULL;
    CHECK(MPI_Alloc_mem(-1, MPI_INFO_NULL, &p) != MPI_SUCCESS,
          "MPI_Alloc_mem(-1) succeeded");

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
