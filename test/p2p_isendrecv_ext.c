/* p2p_isendrecv_ext: MPI-4.0's MPI_Isendrecv and MPI_Isendrecv_replace: a ring exchange (small, large, a strided type in place), one request that completes only when its receive has, under Wait, Waitany, Testall and MPI_Request_get_status; MPI_PROC_NULL on either side; cancel, free before completion, truncation and bad arguments. */
/* shmpi-test: np=1,2,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size, left, right;

static void check_status(const MPI_Status *st, int src, int tag, int count,
                         MPI_Datatype dt, const char *what)
{
    int n = -1;
    CHECK_MPI(MPI_Get_count(st, dt, &n));
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag && n == count,
          "%s: status source %d tag %d count %d, expected %d %d %d", what,
          st->MPI_SOURCE, st->MPI_TAG, n, src, tag, count);
}

static void ring(int n)
{
    int *out = malloc(n * sizeof *out), *in = malloc(n * sizeof *in);
    CHECK(out && in, "no memory");
    for (int i = 0; i < n; i++) {
        out[i] = rank * 1000003 + i;
        in[i] = -1;
    }
    MPI_Request r;
    MPI_Status st;
    CHECK_MPI(MPI_Isendrecv(out, n, MPI_INT, right, 3, in, n, MPI_INT, left,
                            3, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL, "Wait left the request");
    check_status(&st, left, 3, n, MPI_INT, "Isendrecv");
    for (int i = 0; i < n; i++)
        CHECK(in[i] == left * 1000003 + i, "Isendrecv of %d: in[%d] = %d", n,
              i, in[i]);
    /* in place: the buffer goes right and comes back from the left */
    CHECK_MPI(MPI_Isendrecv_replace(in, n, MPI_INT, right, 4, left, 4,
                                    MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    check_status(&st, left, 4, n, MPI_INT, "Isendrecv_replace");
    int ll = (left + size - 1) % size;
    for (int i = 0; i < n; i++)
        CHECK(in[i] == ll * 1000003 + i, "Isendrecv_replace of %d: in[%d] = %d",
              n, i, in[i]);
    free(out);
    free(in);
}

/* Every other int of 2n, in place: the strided type is packed. */
static void strided_replace(int n)
{
    int *buf = malloc(2 * n * sizeof *buf);
    CHECK(buf, "no memory");
    for (int i = 0; i < 2 * n; i++)
        buf[i] = i % 2 ? -7 : rank * 100000 + i;
    MPI_Datatype every_other;
    CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    MPI_Request r;
    CHECK_MPI(MPI_Isendrecv_replace(buf, 1, every_other, right, 5, left, 5,
                                    MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Type_free(&every_other)); /* the request keeps it */
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < 2 * n; i++)
        CHECK(buf[i] == (i % 2 ? -7 : left * 100000 + i),
              "strided replace: buf[%d] = %d", i, buf[i]);
    free(buf);
}

static void proc_null(void)
{
    int out = rank, in = -5;
    MPI_Request r;
    MPI_Status st;
    CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT, MPI_PROC_NULL, 1, &in, 1,
                            MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    check_status(&st, MPI_PROC_NULL, MPI_ANY_TAG, 0, MPI_INT, "both null");
    CHECK(in == -5, "a receive from MPI_PROC_NULL wrote %d", in);
    /* send to nobody, receive from the left (which sends to nobody too
       but its right neighbour sends in the next call) */
    CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT, MPI_PROC_NULL, 1, &in, 1,
                            MPI_INT, left, 2, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Send(&out, 1, MPI_INT, right, 2, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, &st));
    check_status(&st, left, 2, 1, MPI_INT, "send to null");
    CHECK(in == left, "send to null: received %d", in);
    in = -5;
    CHECK_MPI(MPI_Isendrecv_replace(&in, 1, MPI_INT, right, 6, MPI_PROC_NULL,
                                    6, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Recv(&out, 1, MPI_INT, left, 6, MPI_COMM_WORLD, &st));
    CHECK(out == -5, "replace to the right sent %d", out);
    CHECK_MPI(MPI_Wait(&r, &st));
    check_status(&st, MPI_PROC_NULL, MPI_ANY_TAG, 0, MPI_INT, "receive null");
}

/* The receive's message is sent only after a barrier: until then the
   request is not complete, whatever its send did. */
static void completes_with_receive(void)
{
    int out = rank, in = -1, echo = -1;
    MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st;
    int flag = -1, index = -1;
    CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT, right, 7, &in, 1, MPI_INT, left,
                            8, MPI_COMM_WORLD, &r[1]));
    CHECK_MPI(MPI_Recv(&echo, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &st));
    CHECK(echo == left, "the send part delivered %d", echo);
    CHECK_MPI(MPI_Request_get_status(r[1], &flag, &st));
    CHECK(!flag, "complete before its receive's message was sent");
    CHECK_MPI(MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE));
    CHECK(!flag && r[1] != MPI_REQUEST_NULL, "Testall: complete too early");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(&out, 1, MPI_INT, right, 8, MPI_COMM_WORLD));
    do
        CHECK_MPI(MPI_Request_get_status(r[1], &flag, &st));
    while (!flag);
    check_status(&st, left, 8, 1, MPI_INT, "get_status");
    CHECK_MPI(MPI_Waitany(2, r, &index, &st));
    CHECK(index == 1 && r[1] == MPI_REQUEST_NULL, "Waitany: index %d", index);
    check_status(&st, left, 8, 1, MPI_INT, "Waitany");
    CHECK(in == left, "received %d", in);
}

/* A receive no one matches, with a send to nobody: cancelled, nothing
   moved.  With a small send to oneself, which is over at once: the
   receive is cancelled, the send is not, so the whole is not marked
   cancelled and the message arrives. */
static void cancelled(void)
{
    int out = rank, in = -1, flag = -1;
    MPI_Request r;
    MPI_Status st;
    CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT, MPI_PROC_NULL, 98, &in, 1,
                            MPI_INT, rank, 99, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(flag, "an Isendrecv cancelled whole is not marked cancelled");
    CHECK(in == -1, "a cancelled Isendrecv received %d", in);
    CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT, rank, 98, &in, 1, MPI_INT,
                            rank, 99, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(!flag, "half an Isendrecv cancelled is marked cancelled");
    CHECK(in == -1, "a cancelled receive received %d", in);
    CHECK_MPI(MPI_Recv(&in, 1, MPI_INT, rank, 98, MPI_COMM_WORLD, &st));
    CHECK(in == rank, "the send to oneself brought %d", in);
    /* complete already: cancelling changes nothing */
    CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT, rank, 97, &in, 1, MPI_INT,
                            rank, 97, MPI_COMM_WORLD, &r));
    do
        CHECK_MPI(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
    while (!flag);
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(!flag && in == rank, "a completed Isendrecv: cancelled %d, in %d",
          flag, in);
}

/* Freed while active: it still completes, and its data arrives. */
static void freed(void)
{
    int out = rank, in = -1, mark = -1;
    MPI_Request r;
    CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT, right, 11, &in, 1, MPI_INT,
                            left, 11, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL, "Request_free left the handle");
    CHECK_MPI(MPI_Send(&out, 1, MPI_INT, right, 12, MPI_COMM_WORLD));
    /* the left's tag 11 came before its tag 12 (3.5, order) */
    CHECK_MPI(MPI_Recv(&mark, 1, MPI_INT, left, 12, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    CHECK(in == left, "a freed Isendrecv received %d", in);
}

static void errors(void)
{
    int x[4] = {0}, y[2];
    MPI_Request r;
    MPI_Status st;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Isendrecv(x, 1, MPI_INT, right, 0, y, 1, MPI_INT, left, 0,
                              MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Isendrecv(x, 1, MPI_INT, size, 0, y, 1, MPI_INT, left, 0,
                              MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Isendrecv(x, 1, MPI_INT, right, 0, y, -1, MPI_INT, left,
                              0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Isendrecv(x, 1, MPI_INT, right, -3, y, 1, MPI_INT, left,
                              0, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Isendrecv(x, 1, MPI_INT, right, 0, y, 1, MPI_DATATYPE_NULL,
                              left, 0, MPI_COMM_WORLD, &r), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Isendrecv(x, 1, MPI_INT, right, 0, y, 1, MPI_INT, left, 0,
                              MPI_COMM_NULL, &r), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Isendrecv_replace(x, 1, MPI_INT, right, 0, -4, 0,
                                      MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Isendrecv_replace(x, 1, MPI_INT, right, 0, left, 0,
                                      MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    /* four ints into room for two: the Wait reports the truncation */
    CHECK_MPI(MPI_Isendrecv(x, 4, MPI_INT, right, 13, y, 2, MPI_INT, left, 13,
                            MPI_COMM_WORLD, &r));
    CHECK_CLASS(MPI_Wait(&r, &st), MPI_ERR_TRUNCATE);
    CHECK(r == MPI_REQUEST_NULL, "a failed Wait left the request");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    ring(1);
    ring(100);
    ring(300000); /* beyond the eager limit */
    strided_replace(10);
    strided_replace(200000);
    proc_null();
    completes_with_receive();
    cancelled();
    freed();
    errors();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
