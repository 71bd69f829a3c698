/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * p2phog - point-to-point sends that need outbox pages in a /dev/shm too
 * small for every rank's, for test/p2p-small-shm.sh.
 *
 *   p2phog MODE               every rank sends 8 bytes to the next rank
 *                             (a cold pair: the record is taken from the
 *                             sender's outbox, whose first pages it
 *                             reserves).  MODE "return": under
 *                             MPI_ERRORS_RETURN; a send that found no
 *                             room must fail with MPI_ERR_NO_MEM ("rank
 *                             R: no-mem"), the ranks learn whose sends
 *                             failed (an allreduce of a bit mask, which
 *                             needs no slot), receive the others'
 *                             messages and check them: "rank R ok",
 *                             exit 0.  MODE "fatal": under the default
 *                             handler, so the first failure ends the job.
 * Anything wrong: a message, exit 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"

int main(int argc, char **argv)
{
    int rank, size, rc, cls;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2 || size > 64 ||
        (strcmp(argv[1], "return") && strcmp(argv[1], "fatal"))) {
        fprintf(stderr, "usage: p2phog return|fatal (at most 64 ranks)\n");
        return 1;
    }
    if (!strcmp(argv[1], "return"))
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    long long out = 1000 + rank, in = -1;
    unsigned long long failed = 0, all = 0;
    rc = MPI_Send(&out, 1, MPI_LONG_LONG, (rank + 1) % size, 7,
                  MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        MPI_Error_class(rc, &cls);
        if (cls != MPI_ERR_NO_MEM)
            die(rank, "MPI_Send: not MPI_ERR_NO_MEM", rc);
        printf("rank %d: no-mem\n", rank);
        failed = 1ull << rank;
    }
    if ((rc = MPI_Allreduce(&failed, &all, 1, MPI_UNSIGNED_LONG_LONG,
                            MPI_BOR, MPI_COMM_WORLD)) != MPI_SUCCESS)
        die(rank, "MPI_Allreduce of the failures", rc);
    int from = (rank + size - 1) % size;
    if (!(all & (1ull << from))) {
        if ((rc = MPI_Recv(&in, 1, MPI_LONG_LONG, from, 7, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE)) != MPI_SUCCESS)
            die(rank, "MPI_Recv", rc);
        if (in != 1000 + from) {
            fprintf(stderr, "rank %d: got %lld from %d\n", rank, in, from);
            return 1;
        }
    }
    if ((rc = MPI_Barrier(MPI_COMM_WORLD)) != MPI_SUCCESS)
        die(rank, "MPI_Barrier", rc);
    printf("rank %d ok\n", rank);
    MPI_Finalize();
    return 0;
}
