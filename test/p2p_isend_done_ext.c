/* p2p_isend_done_ext: a small standard MPI_Isend/MPI_Irsend to a hot peer is complete when it returns, and its handle (shared by all such sends) survives Wait, Test, the any/all/some forms, Request_free, Cancel, Request_get_status and the Fortran conversion of one another. */
/* shmpi-test: np=2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define WARM 300 /* records before the pair turns hot: SHMPI_FAST_AFTER */
#define N 8

static void check_send_status(const MPI_Status *st, const char *what)
{
    int flag = 1;
    CHECK_MPI(MPI_Test_cancelled(st, &flag));
    CHECK(!flag, "%s: a completed send reads as cancelled", what);
}

/* N sends of one int each, tags 0..N-1, values base+tag */
static void isend_all(MPI_Request *reqs, int *vals, int base)
{
    for (int i = 0; i < N; i++) {
        vals[i] = base + i;
        if (i % 2)
            CHECK_MPI(MPI_Irsend(&vals[i], 1, MPI_INT, 1, i, MPI_COMM_WORLD,
                                 &reqs[i]));
        else
            CHECK_MPI(MPI_Isend(&vals[i], 1, MPI_INT, 1, i, MPI_COMM_WORLD,
                                &reqs[i]));
        int flag = 0;
        MPI_Status st;
        CHECK_MPI(MPI_Request_get_status(reqs[i], &flag, &st));
        CHECK(flag, "round %d: send %d is not complete when Isend returns",
              base, i);
        CHECK(reqs[i] != MPI_REQUEST_NULL,
              "Request_get_status freed the request");
    }
}

static void sender(void)
{
    MPI_Request reqs[N];
    MPI_Status st[N];
    int vals[N];
    for (int i = 0; i < WARM; i++)
        CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 1, N, MPI_COMM_WORLD));

    /* Wait and Test, one by one; Cancel is too late for each */
    isend_all(reqs, vals, 100);
    for (int i = 0; i < N; i++) {
        CHECK_MPI(MPI_Cancel(&reqs[i]));
        int flag = 0;
        if (i % 2) {
            CHECK_MPI(MPI_Test(&reqs[i], &flag, &st[i]));
            CHECK(flag, "Test: send %d not complete", i);
        } else {
            CHECK_MPI(MPI_Wait(&reqs[i], &st[i]));
        }
        CHECK(reqs[i] == MPI_REQUEST_NULL, "send %d's handle not nulled", i);
        check_send_status(&st[i], "Wait/Test");
        for (int j = i + 1; j < N; j++) /* the others are untouched */
            CHECK(reqs[j] != MPI_REQUEST_NULL, "send %d's handle nulled", j);
    }

    /* Waitany, Testsome, Request_free and Waitall of the rest */
    isend_all(reqs, vals, 200);
    int index = -1, outcount = -1, indices[N];
    CHECK_MPI(MPI_Waitany(N, reqs, &index, &st[0]));
    CHECK(index == 0, "Waitany took %d, not the first complete one", index);
    CHECK_MPI(MPI_Request_free(&reqs[1]));
    CHECK(reqs[1] == MPI_REQUEST_NULL, "Request_free did not null it");
    reqs[2] = MPI_Request_f2c(MPI_Request_c2f(reqs[2]));
    CHECK_MPI(MPI_Testsome(4, reqs, &outcount, indices, st));
    CHECK(outcount == 2 && indices[0] == 2 && indices[1] == 3,
          "Testsome: %d complete, not sends 2 and 3", outcount);
    CHECK_MPI(MPI_Waitall(N, reqs, st));
    for (int i = 0; i < N; i++) {
        CHECK(reqs[i] == MPI_REQUEST_NULL, "Waitall left send %d", i);
        if (i >= 4)
            check_send_status(&st[i], "Waitall");
    }

    /* Testall of sends with a receive still pending among them */
    isend_all(reqs, vals, 300);
    int ack = -1, flag = 1;
    CHECK_MPI(MPI_Wait(&reqs[N / 2], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Irecv(&ack, 1, MPI_INT, 1, N + 1, MPI_COMM_WORLD,
                        &reqs[N / 2]));
    CHECK_MPI(MPI_Testall(N, reqs, &flag, st));
    CHECK(!flag, "Testall: the receive cannot be complete yet");
    CHECK_MPI(MPI_Send(&flag, 1, MPI_INT, 1, N + 2, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Waitall(N, reqs, st));
    CHECK(ack == 42, "the receive got %d", ack);
    for (int i = 0; i < N; i++)
        CHECK(reqs[i] == MPI_REQUEST_NULL, "Waitall left request %d", i);
}

static void receiver(void)
{
    int v;
    for (int i = 0; i < WARM; i++) {
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, N, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        CHECK(v == i, "warm-up message %d reads %d", i, v);
    }
    for (int base = 100; base <= 300; base += 100) {
        for (int i = 0; i < N; i++) {
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, i, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
            CHECK(v == base + i, "round %d, message %d reads %d", base, i, v);
        }
    }
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, N + 2, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    v = 42;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, N + 1, MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        sender();
    else
        receiver();
    MPI_Finalize();
    return 0;
}
