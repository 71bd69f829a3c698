/* coll_many: MPI_Barrier, MPI_Allgather, MPI_Scatter and MPI_Alltoall (one int, and blocks that need several rounds) at 513 ranks on 2 cores, every value checked. */
/* shmpi-test: np=513 timeout=120 ext */
/* shmpi-test-skip san tsan: a sanitizer runtime keeps 12-15 MB resident in each process (as hello_many), 6 to 8 GiB for 513 ranks, which a two-core machine pages through for 100 s and more under ASan (2026-11-29) while the suite's other steps share it; step 2 runs it unsanitized */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * 513 is the first job size whose collective areas have halves too small
 * for a cache line per member (runtime/coll/xchg.c); the all-to-all and the
 * scatter must still complete, not turn into 513 * 512 point-to-point
 * connections.  Blocks of BIG ints are larger than a member's region of
 * a half there, so they move in rounds.
 */
#include "check.h"

#define BIG 100

static int value(int from, int to, int i) { return from * 1000003 + to * 7 + i; }

static void alltoall(int rank, int size, int count)
{
    size_t n = (size_t)size * count;
    int *out = calloc(n, sizeof *out), *in = calloc(n, sizeof *in);
    CHECK(out && in, "out of memory");
    for (int d = 0; d < size; d++)
        for (int i = 0; i < count; i++) {
            out[(size_t)d * count + i] = value(rank, d, i);
            in[(size_t)d * count + i] = -1;
        }
    CHECK_MPI(MPI_Alltoall(out, count, MPI_INT, in, count, MPI_INT,
                           MPI_COMM_WORLD));
    for (int s = 0; s < size; s++)
        for (int i = 0; i < count; i++)
            CHECK(in[(size_t)s * count + i] == value(s, rank, i),
                  "MPI_Alltoall of %d ints: element %d from rank %d is %d, "
                  "expected %d", count, i, s, in[(size_t)s * count + i],
                  value(s, rank, i));
    free(out);
    free(in);
}

static void allgather(int rank, int size)
{
    int *all = malloc((size_t)size * sizeof *all);
    CHECK(all, "out of memory");
    int mine = value(rank, 0, 0);
    CHECK_MPI(MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT,
                            MPI_COMM_WORLD));
    for (int s = 0; s < size; s++)
        CHECK(all[s] == value(s, 0, 0), "MPI_Allgather: rank %d's int is %d, "
              "expected %d", s, all[s], value(s, 0, 0));
    free(all);
}

static void scatter(int rank, int size, int root)
{
    int *blocks = NULL, got[BIG];
    if (rank == root) {
        blocks = malloc((size_t)size * BIG * sizeof *blocks);
        CHECK(blocks, "out of memory");
        for (int d = 0; d < size; d++)
            for (int i = 0; i < BIG; i++)
                blocks[(size_t)d * BIG + i] = value(root, d, i);
    }
    CHECK_MPI(MPI_Scatter(blocks, BIG, MPI_INT, got, BIG, MPI_INT, root,
                          MPI_COMM_WORLD));
    for (int i = 0; i < BIG; i++)
        CHECK(got[i] == value(root, rank, i), "MPI_Scatter from %d: element "
              "%d is %d, expected %d", root, i, got[i], value(root, rank, i));
    free(blocks);
}

int main(int argc, char **argv)
{
    int size, rank;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    check_barrier_on(MPI_COMM_WORLD, "coll_many", 1);
    allgather(rank, size);
    alltoall(rank, size, 1);
    alltoall(rank, size, 1);
    alltoall(rank, size, BIG);
    scatter(rank, size, 0);
    scatter(rank, size, size - 1);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
