/* barrier: 2000 rounds of MPI_Barrier, each proven to hold every rank back until all have arrived. */
/* shmpi-test: np=1,2,3,4,7,8,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How a broken barrier is caught without any other MPI call: every rank
 * appends one 8-byte record (rank, round) to a shared O_APPEND file, then
 * waits in the barrier, then looks at the file's size, then waits in a
 * second barrier.  With a correct barrier the size is exactly
 * size * (round + 1) records: all ranks have written this round (first
 * barrier) and none has written the next one yet (second barrier).  A
 * barrier that lets a rank through early sees too few records; one that
 * lets a rank run ahead is seen by the others as too many.  Every 25th
 * round one rank (a different one each time) arrives late on purpose.  At
 * the end rank 0 reads the whole file back: each round holds each rank
 * exactly once.
 */
#include "check.h"

#include <fcntl.h>
#include <time.h>

#define ROUNDS 2000

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    int size, rank;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));

    /* A barrier on MPI_COMM_SELF only waits for oneself. */
    for (int i = 0; i < 100; i++)
        CHECK_MPI(MPI_Barrier(MPI_COMM_SELF));

    char dir[512], path[600];
    test_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/barrier.log", dir);
    if (rank == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        CHECK(fd >= 0, "create %s: %s", path, strerror(errno));
        close(fd);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    int fd = open(path, O_RDWR | O_APPEND);
    CHECK(fd >= 0, "open %s after the first barrier: %s", path,
          strerror(errno));

    for (int round = 0; round < ROUNDS; round++) {
        if (round % 25 == 0 && rank == (round / 25) % size)
            sleep_ms(2);
        int rec[2] = {rank, round};
        CHECK(write(fd, rec, sizeof rec) == (ssize_t)sizeof rec, "write: %s",
              strerror(errno));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        struct stat st;
        CHECK(fstat(fd, &st) == 0, "fstat: %s", strerror(errno));
        long want = (long)size * (round + 1), have = st.st_size / sizeof rec;
        CHECK(have == want,
              "round %d: after the barrier the file holds %ld records, "
              "expected %ld (%s)", round, have, want,
              have < want ? "someone had not arrived yet"
                          : "someone already ran ahead");
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }

    if (rank == 0) {
        int(*recs)[2] = malloc(sizeof *recs * size * ROUNDS);
        CHECK(recs, "out of memory");
        CHECK(pread(fd, recs, sizeof *recs * size * ROUNDS, 0) ==
                  (ssize_t)(sizeof *recs * size * ROUNDS),
              "short read of %s", path);
        char *seen = malloc(size);
        CHECK(seen, "out of memory");
        for (int round = 0; round < ROUNDS; round++) {
            memset(seen, 0, size);
            for (int i = 0; i < size; i++) {
                int *r = recs[round * size + i];
                CHECK(r[1] == round && r[0] >= 0 && r[0] < size && !seen[r[0]],
                      "round %d, record %d: rank %d round %d", round, i, r[0],
                      r[1]);
                seen[r[0]] = 1;
            }
        }
        free(seen);
        free(recs);
    }
    close(fd);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        unlink(path);
        test_dir_remove(dir);
    }
    if (rank == 0)
        printf("%d rounds of MPI_Barrier at np=%d: all synchronized\n", ROUNDS,
               size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
