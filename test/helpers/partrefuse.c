/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * partrefuse - a partitioned send whose receiver may not open the
 * sender's memory: rank 0 makes itself non-dumpable (run without
 * CAP_SYS_PTRACE, rank 1 then cannot open /proc/<rank 0>/fd/N), and
 * sends 4 partitions of 8 ints to rank 1, for two rounds.
 *
 *   partrefuse return   MPI_ERRORS_RETURN: both sides' MPI_Wait must
 *                       fail in both rounds with the same class, after
 *                       which the pair still exchanges a message; each
 *                       rank prints "rank R refused CLASS" and "rank R ok"
 *   partrefuse fatal    the default handler: the job ends non-zero
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "die.h"

int main(int argc, char **argv)
{
    int fatal = argc > 1 && strcmp(argv[1], "fatal") == 0;
    int rank, rc, buf[32];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!fatal)
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0 && prctl(PR_SET_DUMPABLE, 0) != 0) {
        perror("prctl");
        return 1;
    }
    MPI_Request req;
    if (rank == 0)
        rc = MPI_Psend_init(buf, 4, 8, MPI_INT, 1, 5, MPI_COMM_WORLD,
                            MPI_INFO_NULL, &req);
    else
        rc = MPI_Precv_init(buf, 4, 8, MPI_INT, 0, 5, MPI_COMM_WORLD,
                            MPI_INFO_NULL, &req);
    if (rc != MPI_SUCCESS)
        die(rank, "init", rc);
    int klass[2];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 32; i++)
            buf[i] = rank == 0 ? i + round : -1;
        MPI_Start(&req);
        if (rank == 0)
            MPI_Pready_range(0, 3, req);
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS) {
            fprintf(stderr, "rank %d: round %d was not refused\n", rank,
                    round);
            return 1;
        }
        MPI_Error_class(rc, &klass[round]);
    }
    if (klass[0] != klass[1]) {
        fprintf(stderr, "rank %d: classes %d and %d\n", rank, klass[0],
                klass[1]);
        return 1;
    }
    char name[MPI_MAX_ERROR_STRING];
    int n;
    MPI_Error_string(klass[0], name, &n);
    printf("rank %d refused %s\n", rank, name);
    MPI_Request_free(&req);
    int peer = 1 - rank, got = -1;
    rc = MPI_Sendrecv(&rank, 1, MPI_INT, peer, 9, &got, 1, MPI_INT, peer, 9,
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS || got != peer)
        die(rank, "MPI_Sendrecv after the refusal", rc);
    printf("rank %d ok\n", rank);
    MPI_Finalize();
    return 0;
}
