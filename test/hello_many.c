/* hello_many: 1024 ranks on 2 cores start, each knows its rank and the size, all are distinct processes, and a reduction over all of them is right. */
/* shmpi-test: np=1024 timeout=120 ext */
/* shmpi-test-skip san tsan: a sanitizer runtime keeps 12-15 MB resident in each process (ASan, ps, 2026-11-30), 13 GiB for 1024 ranks of a 24 GiB machine; under TSan the job was killed by the OOM killer (status 137, 2026-11-30) */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The launch at scale: every rank is started, runs MPI_Init, reaches a
 * collective and MPI_Finalize, with 512 ranks a CPU.  Rank 0 gathers the
 * pids (one process per rank, sorted: O(n log n), not hello's n^2 file
 * checks) and checks an MPI_Reduce of the ranks; every rank checks an
 * MPI_Allreduce of its rank and of 1.  Standard MPI, but "ext": it
 * checks shmpi's launch at a size the reference run (test/run-tests
 * --ref) would start 1024 Open MPI processes for.
 */
#include "check.h"

static int by_value(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int size = -1, rank = -1;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(rank >= 0 && rank < size, "rank %d outside [0, %d)", rank, size);
    const char *np = getenv("TEST_NP"); /* set by test/run-tests */
    if (np)
        CHECK(size == atoi(np), "size %d, but the job was started with -np %s",
              size, np);

    long pid = (long)getpid(), *pids = NULL;
    if (rank == 0) {
        pids = malloc((size_t)size * sizeof *pids);
        CHECK(pids, "out of memory");
    }
    CHECK_MPI(MPI_Gather(&pid, 1, MPI_LONG, pids, 1, MPI_LONG, 0,
                         MPI_COMM_WORLD));
    long long sum = -1, mine = rank;
    CHECK_MPI(MPI_Reduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, 0,
                         MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK(pids[0] == pid, "rank 0's gathered pid is %ld, not %ld",
              pids[0], pid);
        qsort(pids, (size_t)size, sizeof *pids, by_value);
        for (int r = 1; r < size; r++)
            CHECK(pids[r] != pids[r - 1], "two ranks are process %ld",
                  pids[r]);
        long long want = (long long)size * (size - 1) / 2;
        CHECK(sum == want, "MPI_Reduce of the ranks: %lld, expected %lld",
              sum, want);
        free(pids);
    }
    int in[2] = {rank, 1}, out[2] = {-1, -1};
    CHECK_MPI(MPI_Allreduce(in, out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(out[0] == size * (size - 1) / 2 && out[1] == size,
          "MPI_Allreduce: ranks sum to %d, ones to %d (size %d)", out[0],
          out[1], size);
    if (rank == 0)
        printf("%d ranks started, all distinct processes\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
