/* abi_status: statuses shmpi writes straight into the program's through the standard ABI: MPI_PROC_NULL, MPI_ANY_TAG and error codes in the ABI's values, statuses left alone where none is written, arrays of them, the hidden count and cancelled flag. */
/* shmpi-test: np=1,2 timeout=60 ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built against include/abi/mpi.h: MPI_ANY_TAG is -2, MPI_PROC_NULL -3,
 * MPI_ERR_NO_MEM 39, MPI_ERR_IN_STATUS 19, values shmpi's own mpi.h must
 * share for the layer to pass statuses through, so a status field shmpi
 * wrote with another value fails its check.
 */
#include "check.h"

static int rank, size, next, prev;

/* A status with values shmpi never writes, to see what a call left. */
static void poison(MPI_Status *st)
{
    st->MPI_SOURCE = -77;
    st->MPI_TAG = -78;
    st->MPI_ERROR = 12345;
}

static void check_one(void)
{
    int out = rank, in = -1;
    MPI_Status st;
    poison(&st);
    /* a source of MPI_PROC_NULL */
    CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, next, 4, &in, 1, MPI_INT,
                           MPI_PROC_NULL, 4, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG &&
          st.MPI_ERROR == 12345, "Sendrecv from MPI_PROC_NULL %d/%d/%d",
          st.MPI_SOURCE, st.MPI_TAG, st.MPI_ERROR);
    CHECK_MPI(MPI_Recv(&in, 1, MPI_INT, prev, 4, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    /* MPI_ANY_TAG on the way in, a message's tag out */
    CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, next, 6, &in, 1, MPI_INT,
                           prev, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK(in == prev && st.MPI_SOURCE == prev && st.MPI_TAG == 6,
          "Sendrecv with MPI_ANY_TAG %d/%d", st.MPI_SOURCE, st.MPI_TAG);

    /* Test that completes nothing leaves the status as it was */
    MPI_Request r;
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, prev, 8, MPI_COMM_WORLD, &r));
    int flag = 1;
    poison(&st);
    st.MPI_SOURCE = MPI_PROC_NULL;
    st.MPI_TAG = MPI_ANY_TAG;
    CHECK_MPI(MPI_Test(&r, &flag, &st));
    CHECK(!flag && st.MPI_SOURCE == MPI_PROC_NULL &&
          st.MPI_TAG == MPI_ANY_TAG && st.MPI_ERROR == 12345,
          "Test with nothing done wrote %d/%d/%d", st.MPI_SOURCE, st.MPI_TAG,
          st.MPI_ERROR);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));   /* no message before the Test */
    CHECK_MPI(MPI_Send(&out, 1, MPI_INT, next, 8, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 8 && st.MPI_ERROR == 12345,
          "Wait %d/%d/%d", st.MPI_SOURCE, st.MPI_TAG, st.MPI_ERROR);

    int count = -1;
    CHECK_MPI(MPI_Status_set_elements(&st, MPI_DOUBLE, 5));
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
    CHECK(count == 5, "count set %d", count);
    CHECK_MPI(MPI_Status_set_cancelled(&st, 1));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(flag, "cancelled flag set");
    CHECK_MPI(MPI_Status_set_source(&st, MPI_PROC_NULL));
    int v = 0;
    CHECK_MPI(MPI_Status_get_source(&st, &v));
    CHECK(v == MPI_PROC_NULL && st.MPI_SOURCE == MPI_PROC_NULL,
          "source set %d", v);
}

/* Waitall and Testsome over a receive from MPI_PROC_NULL, a null
   request and a message: every status in the ABI's values, MPI_ERROR
   MPI_SUCCESS (the stride of the array is the ABI's). */
static void check_arrays(void)
{
    int out = rank, in[2];
    MPI_Request r[3];
    MPI_Status sts[3];
    for (int i = 0; i < 3; i++)
        poison(&sts[i]);
    CHECK_MPI(MPI_Irecv(&in[0], 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                        &r[0]));
    r[1] = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Irecv(&in[1], 1, MPI_INT, prev, 2, MPI_COMM_WORLD, &r[2]));
    CHECK_MPI(MPI_Send(&out, 1, MPI_INT, next, 2, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Waitall(3, r, sts));
    CHECK(sts[0].MPI_SOURCE == MPI_PROC_NULL && sts[0].MPI_TAG == MPI_ANY_TAG,
          "Waitall's MPI_PROC_NULL %d/%d", sts[0].MPI_SOURCE, sts[0].MPI_TAG);
    CHECK(sts[1].MPI_SOURCE == MPI_ANY_SOURCE && sts[1].MPI_TAG == MPI_ANY_TAG,
          "Waitall's empty status %d/%d", sts[1].MPI_SOURCE, sts[1].MPI_TAG);
    CHECK(sts[2].MPI_SOURCE == prev && sts[2].MPI_TAG == 2,
          "Waitall's message %d/%d", sts[2].MPI_SOURCE, sts[2].MPI_TAG);
    for (int i = 0; i < 3; i++)
        CHECK(sts[i].MPI_ERROR == MPI_SUCCESS, "MPI_ERROR[%d] %d", i,
              sts[i].MPI_ERROR);

    poison(&sts[0]);
    poison(&sts[1]);
    CHECK_MPI(MPI_Irecv(&in[0], 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                        &r[0]));
    int n = -1, idx[1] = { -1 };
    do
        CHECK_MPI(MPI_Testsome(1, r, &n, idx, sts));
    while (n == 0);
    CHECK(n == 1 && idx[0] == 0 && sts[0].MPI_SOURCE == MPI_PROC_NULL &&
          sts[0].MPI_TAG == MPI_ANY_TAG && sts[1].MPI_SOURCE == -77,
          "Testsome %d: %d/%d, the next %d", n, sts[0].MPI_SOURCE,
          sts[0].MPI_TAG, sts[1].MPI_SOURCE);
}

static int failing_query(void *extra, MPI_Status *st)
{
    (void)extra;
    st->MPI_SOURCE = MPI_PROC_NULL;
    st->MPI_TAG = 5;
    st->MPI_ERROR = MPI_ERR_NO_MEM;
    MPI_Status_set_elements(st, MPI_INT, 2);
    MPI_Status_set_cancelled(st, 0);
    return MPI_ERR_NO_MEM;
}

static int free_fn(void *extra) { (void)extra; return MPI_SUCCESS; }
static int cancel_fn(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}

/* MPI_ERR_IN_STATUS: the failed request's MPI_ERROR in the ABI's
   code, the others MPI_SUCCESS; the query's source and tag as it set
   them. */
static void check_err_in_status(void)
{
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Request r[2];
    MPI_Status sts[2];
    int in = -1, out = rank;
    poison(&sts[0]);
    poison(&sts[1]);
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, prev, 3, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Grequest_start(failing_query, free_fn, cancel_fn, NULL,
                                 &r[1]));
    CHECK_MPI(MPI_Grequest_complete(r[1]));
    CHECK_MPI(MPI_Send(&out, 1, MPI_INT, next, 3, MPI_COMM_WORLD));
    int rc = MPI_Waitall(2, r, sts);
    CHECK(rc == MPI_ERR_IN_STATUS, "Waitall returned %d", rc);
    CHECK(sts[0].MPI_ERROR == MPI_SUCCESS && sts[0].MPI_SOURCE == prev &&
          sts[0].MPI_TAG == 3, "the receive's status %d/%d/%d",
          sts[0].MPI_SOURCE, sts[0].MPI_TAG, sts[0].MPI_ERROR);
    CHECK(sts[1].MPI_ERROR == MPI_ERR_NO_MEM &&
          sts[1].MPI_SOURCE == MPI_PROC_NULL && sts[1].MPI_TAG == 5,
          "the failed request's status %d/%d/%d", sts[1].MPI_SOURCE,
          sts[1].MPI_TAG, sts[1].MPI_ERROR);
    int count = -1;
    CHECK_MPI(MPI_Get_count(&sts[1], MPI_INT, &count));
    CHECK(count == 2, "the query's count %d", count);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    CHECK(sizeof(MPI_Status) == 32, "the ABI's status");
    check_one();
    check_arrays();
    check_err_in_status();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
