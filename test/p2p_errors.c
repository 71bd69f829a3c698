/* p2p_errors: bad arguments to the point-to-point calls return the standard's error class under MPI_ERRORS_RETURN (rank, tag, count, communicator, datatype, buffer, request), reach a user error handler, and send nothing. */
/* shmpi-test: np=2,3 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Only what the standard fixes is asserted: each of these is the class
 * named for that kind of argument (8.4, Table 8.1), and every one agrees
 * with Open MPI 4.1.  Left out on purpose, because the standard does not
 * say and the libraries differ: a NULL request pointer to MPI_Test or
 * MPI_Isend (shmpi: MPI_ERR_ARG, Open MPI: MPI_ERR_REQUEST), a negative
 * count to MPI_Waitall (shmpi: MPI_ERR_COUNT, Open MPI: MPI_ERR_ARG),
 * and MPI_Iprobe on MPI_COMM_NULL (Open MPI calls the fatal handler).
 */
#include "check.h"

#include <limits.h>

static int handler_calls, handler_code;
static MPI_Comm handler_comm;
static void handler(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_comm = *comm;
    handler_code = *code;
}

int main(int argc, char **argv)
{
    int rank, size, v[4] = {1, 2, 3, 4}, flag = 0;
    MPI_Request rq = MPI_REQUEST_NULL;
    MPI_Status st;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2, "needs 2 ranks");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    int peer = (rank + 1) % size;
    MPI_Comm W = MPI_COMM_WORLD;

    /* invalid rank */
    CHECK_CLASS(MPI_Send(v, 1, MPI_INT, size, 0, W), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Send(v, 1, MPI_INT, -5, 0, W), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Send(v, 1, MPI_INT, MPI_ANY_SOURCE, 0, W), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Ssend(v, 1, MPI_INT, size, 0, W), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Rsend(v, 1, MPI_INT, size, 0, W), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Isend(v, 1, MPI_INT, size + 10, 0, W, &rq),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Issend(v, 1, MPI_INT, -5, 0, W, &rq), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Irsend(v, 1, MPI_INT, size, 0, W, &rq), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Recv(v, 1, MPI_INT, size, 0, W, &st), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Recv(v, 1, MPI_INT, -5, 0, W, &st), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Irecv(v, 1, MPI_INT, size, 0, W, &rq), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Probe(size, 0, W, &st), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Iprobe(-7, 0, W, &flag, &st), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Sendrecv(v, 1, MPI_INT, size, 0, v + 1, 1, MPI_INT, peer,
                             0, W, &st),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Sendrecv(v, 1, MPI_INT, peer, 0, v + 1, 1, MPI_INT, size,
                             0, W, &st),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Sendrecv_replace(v, 1, MPI_INT, size, 0, peer, 0, W, &st),
                MPI_ERR_RANK);

    /* invalid tag: negative (MPI_ANY_TAG included) on a send, negative
       other than MPI_ANY_TAG on a receive; above MPI_TAG_UB */
    CHECK_CLASS(MPI_Send(v, 1, MPI_INT, peer, -1, W), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Send(v, 1, MPI_INT, peer, MPI_ANY_TAG, W), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Send(v, 1, MPI_INT, peer, -1000, W), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Ssend(v, 1, MPI_INT, peer, -2, W), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Isend(v, 1, MPI_INT, peer, -2, W, &rq), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Send(v, 1, MPI_INT, MPI_PROC_NULL, -2, W), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Recv(v, 1, MPI_INT, peer, -7, W, &st), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Irecv(v, 1, MPI_INT, MPI_ANY_SOURCE, -7, W, &rq),
                MPI_ERR_TAG);
    CHECK_CLASS(MPI_Probe(peer, -7, W, &st), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Iprobe(MPI_ANY_SOURCE, -7, W, &flag, &st), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Sendrecv(v, 1, MPI_INT, peer, -1, v + 1, 1, MPI_INT, peer,
                             0, W, &st),
                MPI_ERR_TAG);
    CHECK_CLASS(MPI_Sendrecv_replace(v, 1, MPI_INT, peer, -3, peer, 0, W,
                                     &st),
                MPI_ERR_TAG);
    {
        int *ub = NULL;
        CHECK_MPI(MPI_Comm_get_attr(W, MPI_TAG_UB, &ub, &flag));
        CHECK(flag && ub && *ub >= 32767, "MPI_TAG_UB %d is below 32767",
              ub ? *ub : -1);
        if (*ub < INT_MAX)
            CHECK_CLASS(MPI_Send(v, 1, MPI_INT, peer, *ub + 1, W),
                        MPI_ERR_TAG);
    }

    /* negative count */
    CHECK_CLASS(MPI_Send(v, -1, MPI_INT, peer, 0, W), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Isend(v, -1, MPI_INT, peer, 0, W, &rq), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Recv(v, -1, MPI_INT, peer, 0, W, &st), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Irecv(v, -100, MPI_INT, peer, 0, W, &rq), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Recv(v, -1, MPI_INT, MPI_PROC_NULL, 0, W, &st),
                MPI_ERR_COUNT);

    /* MPI_COMM_NULL */
    CHECK_CLASS(MPI_Send(v, 1, MPI_INT, peer, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Isend(v, 1, MPI_INT, peer, 0, MPI_COMM_NULL, &rq),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Recv(v, 1, MPI_INT, peer, 0, MPI_COMM_NULL, &st),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Irecv(v, 1, MPI_INT, peer, 0, MPI_COMM_NULL, &rq),
                MPI_ERR_COMM);

    /* MPI_DATATYPE_NULL */
    CHECK_CLASS(MPI_Send(v, 1, MPI_DATATYPE_NULL, peer, 0, W), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Recv(v, 1, MPI_DATATYPE_NULL, peer, 0, W, &st),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Irecv(v, 1, MPI_DATATYPE_NULL, peer, 0, W, &rq),
                MPI_ERR_TYPE);
    st.MPI_SOURCE = 0;
    st.MPI_TAG = 0;
    CHECK_CLASS(MPI_Get_count(&st, MPI_DATATYPE_NULL, &flag), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Get_elements(&st, MPI_DATATYPE_NULL, &flag),
                MPI_ERR_TYPE);

    /* NULL buffer with data to move */
    CHECK_CLASS(MPI_Send(NULL, 1, MPI_INT, peer, 0, W), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Isend(NULL, 4, MPI_INT, peer, 0, W, &rq), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Recv(NULL, 1, MPI_INT, peer, 0, W, &st), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Irecv(NULL, 1, MPI_INT, peer, 0, W, &rq), MPI_ERR_BUFFER);
    /* but NULL with count 0 is fine */
    CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, W));

    /* invalid requests */
    CHECK_CLASS(MPI_Wait(NULL, &st), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Request_free(NULL), MPI_ERR_REQUEST);
    rq = MPI_REQUEST_NULL;
    CHECK_CLASS(MPI_Request_free(&rq), MPI_ERR_REQUEST);

    /* None of the failed sends sent anything. */
    CHECK_MPI(MPI_Barrier(W));
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, W, &flag, &st));
    CHECK(!flag, "a failed send delivered a message (from %d, tag %d)",
          st.MPI_SOURCE, st.MPI_TAG);
    CHECK_MPI(MPI_Barrier(W));

    /* A user handler sees each error once, with the communicator; the
       call then returns the code. */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(W, eh));
    int rc = MPI_Send(v, 1, MPI_INT, size, 0, W);
    CHECK(handler_calls == 1, "handler called %d times", handler_calls);
    CHECK(handler_comm == MPI_COMM_WORLD, "handler got another communicator");
    CHECK_CLASS(handler_code, MPI_ERR_RANK);
    CHECK(rc == handler_code, "call returned %d, handler saw %d", rc,
          handler_code);
    rc = MPI_Irecv(v, 1, MPI_INT, peer, -9, W, &rq);
    CHECK(handler_calls == 2, "handler called %d times", handler_calls);
    CHECK_CLASS(handler_code, MPI_ERR_TAG);
    CHECK_CLASS(rc, MPI_ERR_TAG);
    CHECK_MPI(MPI_Comm_set_errhandler(W, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&eh));

    /* and the library still works */
    int w = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, peer, 5, &w, 1, MPI_INT,
                           (rank + size - 1) % size, 5, W, &st));
    CHECK(w == (rank + size - 1) % size, "after the errors: got %d", w);

    CHECK_MPI(MPI_Finalize());
    return 0;
}
