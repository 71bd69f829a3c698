/* thread_wait_test: under MPI_THREAD_MULTIPLE one thread blocks in MPI_Wait on a receive while another thread of the same rank polls a different receive with MPI_Test; the peer completes them in either order, and sends the second message only once the first one was seen, so neither thread's call may keep the other's request from completing. */
/* shmpi-test: np=2,4 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "thread_multiple.h"

/* The legal form of "wait and test at once" (MPI-3.1 12.4.2: one request
   must not be in two concurrent Wait/Test calls): request A belongs to
   the waiting thread, request B to the testing thread, both receives from
   the same peer on the same communicator.  Ranks pair up (2k, 2k+1); the
   even one runs the two threads, the odd one is the peer.  In round r the
   peer sends
     r even: B, then waits for the tester's acknowledgement, then A - the
             tester's MPI_Test must succeed while the waiter sits in
             MPI_Wait on A;
     r odd:  A, then waits for the waiter's acknowledgement, then B - the
             waiter's MPI_Wait must return while the tester keeps calling
             MPI_Test on B.
   A library whose MPI_Wait held back other threads' progress, or whose
   MPI_Test did not progress while another thread waited, hangs here. */
#define ROUNDS 1000
enum { TAG_A = 1, TAG_B = 2, TAG_ACK_WAITER = 3, TAG_ACK_TESTER = 4 };

static int rank, peer;

static void check_msg(int got, int round, const MPI_Status *st, int tag,
                      const char *who)
{
    CHECK(got == round && st->MPI_SOURCE == peer && st->MPI_TAG == tag,
          "%s, round %d: got %d from %d with tag %d, expected %d from %d "
          "with tag %d", who, round, got, st->MPI_SOURCE, st->MPI_TAG, round,
          peer, tag);
}

static void *waiter(void)
{
    for (int r = 0; r < ROUNDS; r++) {
        int got = -1;
        MPI_Request a;
        MPI_Status st;
        CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, peer, TAG_A, MPI_COMM_WORLD, &a));
        CHECK_MPI(MPI_Wait(&a, &st));
        CHECK(a == MPI_REQUEST_NULL, "MPI_Wait left the request active");
        check_msg(got, r, &st, TAG_A, "waiter");
        if (r % 2)
            CHECK_MPI(MPI_Send(&r, 1, MPI_INT, peer, TAG_ACK_WAITER, MPI_COMM_WORLD));
    }
    return NULL;
}

static void *tester(void)
{
    for (int r = 0; r < ROUNDS; r++) {
        int got = -1, flag = 0;
        MPI_Request b;
        MPI_Status st;
        CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, peer, TAG_B, MPI_COMM_WORLD, &b));
        while (!flag) {
            CHECK_MPI(MPI_Test(&b, &flag, &st));
        }
        CHECK(b == MPI_REQUEST_NULL, "MPI_Test left the request active");
        check_msg(got, r, &st, TAG_B, "tester");
        if (r % 2 == 0)
            CHECK_MPI(MPI_Send(&r, 1, MPI_INT, peer, TAG_ACK_TESTER, MPI_COMM_WORLD));
    }
    return NULL;
}

static void *work(void *arg)
{
    return *(int *)arg == 0 ? waiter() : tester();
}

static void send_then_ack(int r, int first, int ack, int second)
{
    int got = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Send(&r, 1, MPI_INT, peer, first, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, peer, ack, MPI_COMM_WORLD, &st));
    check_msg(got, r, &st, ack, "peer");
    CHECK_MPI(MPI_Send(&r, 1, MPI_INT, peer, second, MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    int size;
    mt_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size % 2 == 0, "needs an even number of ranks, not %d", size);
    peer = rank ^ 1;
    if (rank % 2 == 0) {
        int ids[2] = {0, 1};
        mt_run(2, work, ids, sizeof ids[0]);
    } else {
        for (int r = 0; r < ROUNDS; r++) {
            if (r % 2 == 0)
                send_then_ack(r, TAG_B, TAG_ACK_TESTER, TAG_A);
            else
                send_then_ack(r, TAG_A, TAG_ACK_WAITER, TAG_B);
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
