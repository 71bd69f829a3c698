/* p2p_lanes_progress: a blocked receive on one communicator progresses a large send started on another (rank 0 Isend(B) then Recv(A); rank 1 Recv(B) then Send(A)), for communicators that travel in different lanes. */
/* shmpi-test: np=2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MPI-3.1 3.7.4 (progress): rank 0's MPI_Isend on B must complete once
 * rank 1 posts the matching receive, whatever rank 0 does meanwhile -
 * here, wait in MPI_Recv on A for a message rank 1 sends only after its
 * receive on B has finished.  A wait that turned only the lane of its
 * own communicator would never read rank 1's answer on B (the clear to
 * send of a large message) and both ranks would wait forever.  B is a
 * series of dups of MPI_COMM_WORLD, so that with any number of lanes
 * some of them travel in a lane that is not A's.
 */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#define BIG (4u << 20)  /* well past any eager limit: a rendezvous */
#define DUPS 4          /* successive dups land on successive lanes */

static void exchange(MPI_Comm a, MPI_Comm b, int rank, unsigned char *buf,
                     int round)
{
    if (rank == 0) {
        for (size_t i = 0; i < BIG; i++)
            buf[i] = (unsigned char)(i * 7 + round);
        MPI_Request req;
        CHECK_MPI(MPI_Isend(buf, BIG, MPI_BYTE, 1, 5, b, &req));
        int got = -1;
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 1, 6, a, MPI_STATUS_IGNORE));
        CHECK(got == round, "round %d: rank 1 sent %d on A", round, got);
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        CHECK_MPI(MPI_Recv(buf, BIG, MPI_BYTE, 0, 5, b, MPI_STATUS_IGNORE));
        for (size_t i = 0; i < BIG; i++)
            CHECK(buf[i] == (unsigned char)(i * 7 + round),
                  "round %d: byte %zu is %u", round, i, buf[i]);
        CHECK_MPI(MPI_Send(&round, 1, MPI_INT, 0, 6, a));
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    unsigned char *buf = malloc(BIG);
    CHECK(buf != NULL, "no memory");
    MPI_Comm dups[DUPS];
    for (int i = 0; i < DUPS; i++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dups[i]));
    /* A is world, B each dup in turn; then A a dup, B world */
    for (int i = 0; i < DUPS; i++)
        exchange(MPI_COMM_WORLD, dups[i], rank, buf, i);
    for (int i = 0; i < DUPS; i++)
        exchange(dups[i], MPI_COMM_WORLD, rank, buf, DUPS + i);
    for (int i = 0; i < DUPS; i++)
        MPI_Comm_free(&dups[i]);
    free(buf);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
