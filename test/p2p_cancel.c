/* p2p_cancel: MPI_Cancel of a receive nothing matched (Irecv and a started Recv_init): the Wait that follows returns, MPI_Test_cancelled says so, and a later message goes to the next receive; the persistent one starts again and receives; cancelling a request that already completed leaves it complete, not cancelled, with its data. */
/* shmpi-test: np=1,2,3 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static void check_cancelled(const MPI_Status *st, int want, const char *what)
{
    int flag = -1;
    CHECK_MPI(MPI_Test_cancelled(st, &flag));
    CHECK(flag == want, "%s: MPI_Test_cancelled says %d, expected %d", what,
          flag, want);
}

/* A receive from `from` with tag 9 is cancelled; then from sends 9 with
   value `from`, which the next receive gets. */
static void posted_receive(int rank, int size, int persistent)
{
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    int in = -1, out = rank;
    MPI_Request r;
    MPI_Status st;
    if (persistent) {
        CHECK_MPI(MPI_Recv_init(&in, 1, MPI_INT, from, 9, MPI_COMM_WORLD,
                                &r));
        CHECK_MPI(MPI_Start(&r));
    } else {
        CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, from, 9, MPI_COMM_WORLD, &r));
    }
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, &st));
    check_cancelled(&st, 1, persistent ? "Recv_init" : "Irecv");
    CHECK(in == -1, "a cancelled receive wrote %d", in);
    CHECK(persistent == (r != MPI_REQUEST_NULL),
          "after Wait the request is %s", r == MPI_REQUEST_NULL ? "null"
                                                                : "not null");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every cancel is done */
    MPI_Request s;
    CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, to, 9, MPI_COMM_WORLD, &s));
    if (persistent) {
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK_MPI(MPI_Request_free(&r));
    } else {
        CHECK_MPI(MPI_Recv(&in, 1, MPI_INT, from, 9, MPI_COMM_WORLD, &st));
    }
    check_cancelled(&st, 0, "the receive after the cancel");
    CHECK(in == from, "received %d, expected %d", in, from);
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
}

static void too_late(int rank)
{
    int out = 42 + rank, in = -1, flag = 0;
    MPI_Request s, r;
    MPI_Status st;
    CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &s));
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &r));
    while (!flag)
        CHECK_MPI(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, &st));
    check_cancelled(&st, 0, "a completed receive");
    CHECK(in == 42 + rank, "received %d, expected %d", in, 42 + rank);
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    posted_receive(rank, size, 0);
    posted_receive(rank, size, 1);
    too_late(rank);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
