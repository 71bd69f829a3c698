/* alloc_mem_many: 4000 small MPI_Alloc_mem blocks live at once in a process limited to 1024 open files (the usual default), all usable and freed. */
/* shmpi-test: np=1,2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <sys/resource.h>

#define NBLOCKS 4000

int main(int argc, char **argv)
{
    /* The soft limit most users have (ulimit -n); MPI_Alloc_mem must not
       need a descriptor per block. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur > 1024) {
        rl.rlim_cur = 1024;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    int rank;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    static char *blk[NBLOCKS];
    for (int i = 0; i < NBLOCKS; i++) {
        MPI_Aint len = 16 + i % 113;
        CHECK_MPI(MPI_Alloc_mem(len, MPI_INFO_NULL, &blk[i]));
        memset(blk[i], (char)i, len);
    }
    for (int i = 0; i < NBLOCKS; i++)
        for (int k = 0; k < 16 + i % 113; k++)
            CHECK(blk[i][k] == (char)i, "block %d overwritten at byte %d", i, k);
    for (int i = NBLOCKS - 1; i >= 0; i--)
        CHECK_MPI(MPI_Free_mem(blk[i]));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
