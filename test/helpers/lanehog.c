/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lanehog - communicators in point-to-point lanes, for the shell test of
 * the address space a rank maps per lane (test/lane-vm-limit.sh).
 *
 *   lanehog pairs DUPS      DUPS dups of MPI_COMM_WORLD (with
 *                           SHMPI_LANES=4 the first three take lanes 1,
 *                           2, 3); on MPI_COMM_WORLD and each dup every
 *                           pair of ranks exchanges one 8-byte message
 *                           both ways, checked; "rank R ok VmPeak K kB"
 *   lanehog nomem MB MODE   after MPI_Init, limit this process's address
 *                           space (RLIMIT_AS) to what it maps now plus
 *                           MB MiB, then MPI_Comm_dup(MPI_COMM_WORLD),
 *                           whose lane is not mapped yet.  MODE "return":
 *                           under MPI_ERRORS_RETURN the dup must fail
 *                           with MPI_ERR_NO_MEM ("rank R: no-mem"), and
 *                           the exchange of "pairs" on MPI_COMM_WORLD
 *                           must still work afterwards: "rank R ok".
 *                           MODE "fatal": under the default handler, so
 *                           the failure ends the job with its line.
 * Anything wrong: a message, exit 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "die.h"

/* A line of /proc/self/status, in kB (VmPeak, VmSize). */
static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':')
            kb = strtol(line + n + 1, NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

/* Every pair exchanges one 8-byte message both ways on c, checked. */
static void pairs(MPI_Comm c, int rank, int size, long salt)
{
    for (int step = 1; step < size; step++) {
        int to = (rank + step) % size, from = (rank - step + size) % size;
        long out[2] = {rank, salt}, in[2] = {-1, -1};
        int rc = MPI_Sendrecv(out, 2, MPI_LONG, to, 7, in, 2, MPI_LONG,
                              from, 7, c, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            die(rank, "MPI_Sendrecv", rc);
        if (in[0] != from || in[1] != salt) {
            fprintf(stderr, "rank %d: from %d got %ld/%ld, want %d/%ld\n",
                    rank, from, in[0], in[1], from, salt);
            exit(1);
        }
    }
}

static int nomem(int rank, int size, long mb, const char *mode)
{
    int ret = strcmp(mode, "return") == 0;
    if (ret)
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Barrier(MPI_COMM_WORLD);
    struct rlimit rl;
    rl.rlim_cur = rl.rlim_max =
        (rlim_t)(status_kb("VmSize") * 1024 + mb * 1024 * 1024);
    if (setrlimit(RLIMIT_AS, &rl) != 0) {
        perror("setrlimit");
        return 1;
    }
    MPI_Comm dup = MPI_COMM_NULL;
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_NO_MEM || dup != MPI_COMM_NULL) {
        fprintf(stderr, "rank %d: MPI_Comm_dup gave class %d, want "
                "MPI_ERR_NO_MEM (%d) and MPI_COMM_NULL\n", rank, cls,
                MPI_ERR_NO_MEM);
        return 1;
    }
    printf("rank %d: no-mem\n", rank);
    pairs(MPI_COMM_WORLD, rank, size, 99);
    long sum = 0, one = 1;
    rc = MPI_Allreduce(&one, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS || sum != size)
        die(rank, "MPI_Allreduce after the failed dup", rc);
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc == 3 && strcmp(argv[1], "pairs") == 0) {
        int dups = atoi(argv[2]);
        pairs(MPI_COMM_WORLD, rank, size, 0);
        for (int i = 1; i <= dups; i++) {
            MPI_Comm c;
            int rc = MPI_Comm_dup(MPI_COMM_WORLD, &c);
            if (rc != MPI_SUCCESS)
                die(rank, "MPI_Comm_dup", rc);
            pairs(c, rank, size, i);
            MPI_Comm_free(&c);
        }
    } else if (argc == 4 && strcmp(argv[1], "nomem") == 0) {
        if (nomem(rank, size, atol(argv[2]), argv[3]) != 0)
            return 1;
    } else {
        fprintf(stderr, "usage: lanehog pairs DUPS | nomem MB return|fatal\n");
        return 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d ok VmPeak %ld kB\n", rank, status_kb("VmPeak"));
    MPI_Finalize();
    return 0;
}
