/* hello: sizes and ranks are right and every rank of MPI_COMM_WORLD exists exactly once, as its own process. */
/* shmpi-test: np=1,2,4,16,64 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <dirent.h>
#include <fcntl.h>

int main(int argc, char **argv)
{
    int size = -1, rank = -1;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(size >= 1, "MPI_COMM_WORLD has size %d", size);
    CHECK(rank >= 0 && rank < size, "rank %d outside [0, %d)", rank, size);
    const char *np = getenv("TEST_NP");          /* set by test/run-tests */
    if (np)
        CHECK(size == atoi(np), "size %d, but the job was started with -np %s",
              size, np);

    int ssize = -1, srank = -1;
    CHECK_MPI(MPI_Comm_size(MPI_COMM_SELF, &ssize));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_SELF, &srank));
    CHECK(ssize == 1 && srank == 0, "MPI_COMM_SELF: size %d rank %d", ssize,
          srank);

    /* Each rank claims its number with O_EXCL: a duplicate rank fails
       here, a missing one is seen below by everyone. */
    char dir[512], path[600];
    test_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/hello.%d", dir, rank);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    CHECK(fd >= 0, "cannot claim %s (%s): is rank %d twice in the job?", path,
          strerror(errno), rank);
    char line[64];
    int n = snprintf(line, sizeof line, "%ld\n", (long)getpid());
    CHECK(write(fd, line, n) == n, "write %s: %s", path, strerror(errno));
    close(fd);

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* Every rank checks the whole set: size files, one per rank, each
       written by a different process. */
    long *pids = calloc(size, sizeof *pids);
    CHECK(pids, "out of memory");
    for (int r = 0; r < size; r++) {
        snprintf(path, sizeof path, "%s/hello.%d", dir, r);
        FILE *f = fopen(path, "r");
        CHECK(f, "rank %d has not announced itself after the barrier (%s)", r,
              path);
        CHECK(fscanf(f, "%ld", &pids[r]) == 1, "%s is empty", path);
        fclose(f);
        for (int q = 0; q < r; q++)
            CHECK(pids[q] != pids[r], "ranks %d and %d are the same process %ld",
                  q, r, pids[r]);
    }
    CHECK(pids[rank] == (long)getpid(), "my file holds pid %ld", pids[rank]);
    int entries = 0;
    DIR *d = opendir(dir);
    CHECK(d, "opendir %s: %s", dir, strerror(errno));
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, "hello.", 6) == 0)
            entries++;
    closedir(d);
    CHECK(entries == size, "%d ranks announced themselves, size is %d", entries,
          size);
    free(pids);

    printf("hello from rank %d of %d (pid %ld)\n", rank, size, (long)getpid());

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));     /* everyone has looked */
    snprintf(path, sizeof path, "%s/hello.%d", dir, rank);
    unlink(path);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        test_dir_remove(dir);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
