/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * collhog - communicators with collectives that fill their collective
 * areas, for the shell tests of the arena's memory (test/arena-*.sh).
 *
 *   collhog idle SECONDS [KIB]
 *                             MPI_Init, a barrier (with KIB: a dup of
 *                             MPI_COMM_WORLD with an allgather of KIB
 *                             KiB per rank on it, freed again), sleep, a
 *                             barrier, MPI_Finalize: "rank R ok"
 *   collhog fill KIB MODE     keep a new dup of MPI_COMM_WORLD per
 *                             round and allgather KIB KiB per rank on it
 *                             until a collective fails (at most 1000
 *                             rounds).  MODE "return": under
 *                             MPI_ERRORS_RETURN; the rank whose slot
 *                             found no room in /dev/shm must see
 *                             MPI_ERR_NO_MEM ("rank R: no-mem in round
 *                             N"), the others that or MPI_ERR_OTHER; all
 *                             agree to stop after the round (an 8-byte
 *                             allreduce on MPI_COMM_WORLD, which needs
 *                             no slot), free every dup and meet in a
 *                             barrier - the memory is back then - and
 *                             an allgather on a fresh dup must work:
 *                             "rank R ok", exit 0.
 *                             MODE "fatal": under the default handler,
 *                             so the first failure ends the job.
 * Anything wrong: a message, exit 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROUNDS 1000

#include "die.h"

/* KIB KiB from each rank, checked. */
static int allgather(MPI_Comm c, int rank, int size, size_t kib)
{
    size_t n = kib * 1024;
    unsigned char *out = malloc(n), *in = malloc(n * (size_t)size);
    if (!out || !in)
        die(rank, "malloc", MPI_ERR_NO_MEM);
    memset(out, rank + 1, n);
    int rc = MPI_Allgather(out, (int)n, MPI_BYTE, in, (int)n, MPI_BYTE, c);
    for (int r = 0; rc == MPI_SUCCESS && r < size; r++)
        for (size_t i = 0; i < n; i += 4093)
            if (in[(size_t)r * n + i] != (unsigned char)(r + 1))
                die(rank, "allgather: wrong data", MPI_ERR_OTHER);
    free(out);
    free(in);
    return rc;
}

static void idle(int rank, int size, int seconds, size_t kib)
{
    MPI_Comm c;
    int rc;
    if ((rc = MPI_Barrier(MPI_COMM_WORLD)) != MPI_SUCCESS)
        die(rank, "idle: the first barrier", rc);
    if (kib && ((rc = MPI_Comm_dup(MPI_COMM_WORLD, &c)) != MPI_SUCCESS ||
                (rc = allgather(c, rank, size, kib)) != MPI_SUCCESS ||
                (rc = MPI_Comm_free(&c)) != MPI_SUCCESS))
        die(rank, "idle: the allgather on a dup", rc);
    sleep((unsigned)seconds);
    if ((rc = MPI_Barrier(MPI_COMM_WORLD)) != MPI_SUCCESS)
        die(rank, "idle: the last barrier", rc);
}

static void fill(int rank, int size, size_t kib)
{
    MPI_Comm comms[ROUNDS];
    int n = 0, stop = 0, rc, cls;
    while (!stop && n < ROUNDS) {
        if ((rc = MPI_Comm_dup(MPI_COMM_WORLD, &comms[n])) != MPI_SUCCESS)
            die(rank, "MPI_Comm_dup", rc); /* with world's handler */
        int failed = 0;
        if ((rc = allgather(comms[n++], rank, size, kib)) != MPI_SUCCESS) {
            MPI_Error_class(rc, &cls);
            if (cls == MPI_ERR_NO_MEM)
                printf("rank %d: no-mem in round %d\n", rank, n);
            else if (cls != MPI_ERR_OTHER)
                die(rank, "allgather: neither MPI_ERR_NO_MEM nor "
                          "MPI_ERR_OTHER", rc);
            failed = cls == MPI_ERR_NO_MEM ? 2 : 1;
        }
        if ((rc = MPI_Allreduce(&failed, &stop, 1, MPI_INT, MPI_MAX,
                                MPI_COMM_WORLD)) != MPI_SUCCESS)
            die(rank, "MPI_Allreduce of the failures", rc);
        if (stop == 1)
            die(rank, "a collective failed, none for want of memory",
                MPI_ERR_OTHER);
    }
    if (!stop)
        die(rank, "the areas never filled /dev/shm", MPI_ERR_OTHER);
    while (n > 0)
        if ((rc = MPI_Comm_free(&comms[--n])) != MPI_SUCCESS)
            die(rank, "MPI_Comm_free", rc);
    /* an area's memory goes back when its last member frees it: after
       the barrier, every member has */
    if ((rc = MPI_Barrier(MPI_COMM_WORLD)) != MPI_SUCCESS)
        die(rank, "MPI_Barrier after the frees", rc);
    MPI_Comm c;
    if ((rc = MPI_Comm_dup(MPI_COMM_WORLD, &c)) != MPI_SUCCESS ||
        (rc = allgather(c, rank, size, kib)) != MPI_SUCCESS ||
        (rc = MPI_Comm_free(&c)) != MPI_SUCCESS)
        die(rank, "an allgather after the memory came back", rc);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "idle") == 0) {
        idle(rank, size, atoi(argv[2]), argc == 4 ? (size_t)atoi(argv[3]) : 0);
    } else if (argc == 4 && strcmp(argv[1], "fill") == 0) {
        int fatal = strcmp(argv[3], "fatal") == 0;
        if (!fatal && strcmp(argv[3], "return") != 0)
            die(rank, "MODE is return or fatal", MPI_ERR_ARG);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, fatal ? MPI_ERRORS_ARE_FATAL
                                                      : MPI_ERRORS_RETURN);
        fill(rank, size, (size_t)atoi(argv[2]));
    } else {
        fprintf(stderr, "usage: collhog idle SECONDS [KIB] | collhog fill "
                        "KIB return|fatal\n");
        return 1;
    }
    printf("rank %d ok\n", rank);
    MPI_Finalize();
    return 0;
}
