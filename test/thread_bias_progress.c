/* thread_bias_progress: under MPI_THREAD_MULTIPLE each thread streams small messages on its own communicator, then rank 0's second thread starts a large send on its communicator and leaves MPI while the main thread waits in MPI_Recv for a message rank 1 sends only once that send arrived; every payload arrives, and the waiter progresses the other thread's communicator. */
/* shmpi-test: np=2 timeout=60 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A lane used by one thread only is held by that thread without its
 * mutex (pt2pt/lane.c: its biased thread).  MPI-3.1 3.7.4 still asks a
 * thread blocked on one communicator to progress a send started on
 * another, here by a thread that is outside MPI meanwhile (in a pthread
 * barrier): rank 0's main thread, in MPI_Recv on W, must move the large
 * send of thread 1 on U, whose lane is biased to thread 1, or both ranks
 * wait forever.  On rank 1 the main thread receives on U, a lane biased
 * to rank 1's thread 1, which sits in the barrier: it enters that lane
 * for a call of its own.  Each round streams first, so that the lanes
 * are biased again after the last round took them.
 */
#include "check.h"
#include "thread_multiple.h"

#include <stdint.h>
#include <stdlib.h>

#define BIG (2u << 20)  /* well past any eager limit: a rendezvous */
#define WINDOW 64
#define WINDOWS 8       /* a run of takes long enough to bias a lane */
#define ROUNDS 4

static int rank;
static MPI_Comm comm[2];    /* W for the main thread, U for thread 1 */
static unsigned char *buf;

/* WINDOWS windows of WINDOW ints between the two ranks' thread t. */
static void stream(int t, int round)
{
    int other = 1 - rank;
    int v[WINDOW];
    MPI_Request req[WINDOW];
    for (int w = 0; w < WINDOWS; w++) {
        for (int i = 0; i < WINDOW; i++) {
            if (rank == 0) {
                v[i] = (round * WINDOWS + w) * WINDOW + i + t;
                CHECK_MPI(MPI_Isend(&v[i], 1, MPI_INT, other, i, comm[t],
                                    &req[i]));
            } else {
                v[i] = -1;
                CHECK_MPI(MPI_Irecv(&v[i], 1, MPI_INT, other, i, comm[t],
                                    &req[i]));
            }
        }
        CHECK_MPI(MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE));
        for (int i = 0; rank == 1 && i < WINDOW; i++)
            CHECK(v[i] == (round * WINDOWS + w) * WINDOW + i + t,
                  "thread %d round %d window %d: message %d is %d", t, round,
                  w, i, v[i]);
    }
}

static void round_main(int round)
{
    if (rank == 0) {
        mt_together(); /* thread 1's send started */
        int got = -1;
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 1, 6, comm[0],
                           MPI_STATUS_IGNORE));
        CHECK(got == round, "round %d: rank 1 sent %d", round, got);
        mt_together(); /* thread 1 may wait for its send */
    } else {
        CHECK_MPI(MPI_Recv(buf, BIG, MPI_BYTE, 0, 5, comm[1],
                           MPI_STATUS_IGNORE));
        for (size_t i = 0; i < BIG; i++)
            CHECK(buf[i] == (unsigned char)(i * 7 + round),
                  "round %d: byte %zu is %u", round, i, buf[i]);
        CHECK_MPI(MPI_Send(&round, 1, MPI_INT, 0, 6, comm[0]));
        mt_together();
        mt_together();
    }
}

static void round_thread1(int round)
{
    MPI_Request req = MPI_REQUEST_NULL;
    if (rank == 0) {
        for (size_t i = 0; i < BIG; i++)
            buf[i] = (unsigned char)(i * 7 + round);
        CHECK_MPI(MPI_Isend(buf, BIG, MPI_BYTE, 1, 5, comm[1], &req));
    }
    mt_together();
    mt_together(); /* outside MPI while the main thread waits */
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
}

static void *work(void *arg)
{
    int t = *(int *)arg;
    for (int round = 0; round < ROUNDS; round++) {
        stream(t, round);
        mt_together();
        if (t == 0)
            round_main(round);
        else
            round_thread1(round);
        mt_together(); /* the send waited for before the next stream */
    }
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    buf = malloc(BIG);
    CHECK(buf != NULL, "no memory");
    for (int i = 0; i < 2; i++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm[i]));
    int args[2] = {0, 1};
    mt_run(2, work, args, sizeof args[0]);
    for (int i = 0; i < 2; i++)
        CHECK_MPI(MPI_Comm_free(&comm[i]));
    free(buf);
    MPI_Finalize();
    return 0;
}
