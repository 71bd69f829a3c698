/* thread_lanes_progress: under MPI_THREAD_MULTIPLE, a thread blocked in MPI_Recv on one communicator progresses a large send it started on another (rank 0 Isend(B) then Recv(A); rank 1 Recv(B) then Send(A)), while a second thread of each rank waits in MPI_Recv on a third communicator. */
/* shmpi-test: np=2 timeout=60 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * p2p_lanes_progress with threads.  MPI-3.1 3.7.4: rank 0's MPI_Isend on
 * B must complete once rank 1 posts its receive, whatever rank 0 does
 * meanwhile - here wait in MPI_Recv on A for a message rank 1 sends only
 * after its receive on B has finished.  Under MULTIPLE nobody is in B's
 * lane while rank 0's thread waits on A: the clear to send that comes
 * back on B must be seen by that waiter, which looks at lanes other than
 * its own before it tries them (pt2pt/lane.c) and must not take B for
 * quiet.  Meanwhile the other thread of each rank sleeps in MPI_Recv on
 * C until the exchange is over.  A, B, C are world and dups of it, so
 * that with any number of lanes some are not A's.
 */
#include "check.h"
#include "thread_multiple.h"

#include <stdint.h>
#include <stdlib.h>

#define BIG (4u << 20)  /* well past any eager limit: a rendezvous */
#define DUPS 4          /* successive dups land on successive lanes */

static int rank;
static MPI_Comm dups[DUPS], last;
static unsigned char *buf;

static void exchange(MPI_Comm a, MPI_Comm b, int round)
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

static void *work(void *arg)
{
    int t = *(int *)arg, other = 1 - rank;
    if (t == 1) { /* waits in C's lane the whole time */
        int got = -1;
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, other, 7, last,
                           MPI_STATUS_IGNORE));
        CHECK(got == 2 * DUPS, "the end says %d", got);
        return NULL;
    }
    for (int i = 0; i < DUPS; i++)
        exchange(MPI_COMM_WORLD, dups[i], i);
    for (int i = 0; i < DUPS; i++)
        exchange(dups[i], MPI_COMM_WORLD, DUPS + i);
    int end = 2 * DUPS;
    CHECK_MPI(MPI_Send(&end, 1, MPI_INT, other, 7, last));
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    buf = malloc(BIG);
    CHECK(buf != NULL, "no memory");
    for (int i = 0; i < DUPS; i++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dups[i]));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &last));
    int args[2] = {0, 1};
    mt_run(2, work, args, sizeof args[0]);
    for (int i = 0; i < DUPS; i++)
        CHECK_MPI(MPI_Comm_free(&dups[i]));
    CHECK_MPI(MPI_Comm_free(&last));
    free(buf);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
