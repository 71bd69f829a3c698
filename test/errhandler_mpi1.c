/* errhandler_mpi1: the MPI-1 error-handler calls removed in MPI-3.0 (deprecated names in shmpi): MPI_Errhandler_create of an MPI_Handler_function, MPI_Errhandler_set and _get on a communicator, the handler firing with the communicator and the error code, the predefined handlers through them, interplay with the MPI-2 calls, and their errors. */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MPI-2.2 8.3: MPI_ERRHANDLER_CREATE, _SET and _GET are
 * MPI_COMM_CREATE_ERRHANDLER, _SET_ERRHANDLER and _GET_ERRHANDLER under
 * their MPI-1 names, MPI_Handler_function the type of the callback.
 */
/* The names under test are deprecated: their warnings are expected. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include "check.h"

/* What the handler saw. */
static int calls, last_code;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    last_comm = *comm;
    last_code = *code;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm comm;
    MPI_Errhandler eh, got;
    MPI_Handler_function *fn = handler;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));

    /* a new communicator has the default handler, read the MPI-1 way */
    CHECK_MPI(MPI_Errhandler_get(comm, &got));
    CHECK(got == MPI_ERRORS_ARE_FATAL, "a dup of MPI_COMM_WORLD starts "
          "with MPI_ERRORS_ARE_FATAL");
    CHECK_MPI(MPI_Errhandler_free(&got));

    CHECK_MPI(MPI_Errhandler_create(fn, &eh));
    CHECK_MPI(MPI_Errhandler_set(comm, eh));
    CHECK_MPI(MPI_Errhandler_get(comm, &got));
    CHECK(got == eh, "MPI_Errhandler_get gives another handler than set");
    CHECK_MPI(MPI_Errhandler_free(&got));
    /* the handle may go: the communicator keeps the handler (8.3.4) */
    CHECK_MPI(MPI_Errhandler_free(&eh));

    /* an error on comm fires it, with comm and the error's code */
    int rc = MPI_Send(&rank, 1, MPI_INT, size + 3, 0, comm);
    CHECK(calls == 1, "the handler ran %d times, expected once", calls);
    CHECK(last_comm == comm, "the handler got another communicator");
    CHECK(last_code == rc, "the handler got code %d, the call returned %d",
          last_code, rc);
    CHECK_CLASS(rc, MPI_ERR_RANK);
    CHECK_MPI(MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER));
    CHECK(calls == 2 && last_code == MPI_ERR_OTHER,
          "MPI_Comm_call_errhandler: %d calls, code %d", calls, last_code);
    /* errors elsewhere do not fire it */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Send(&rank, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD);
    CHECK_CLASS(rc, MPI_ERR_RANK);
    CHECK(calls == 2, "the handler of comm ran for MPI_COMM_WORLD");

    /* the MPI-2 calls see the handler the MPI-1 ones set, and back */
    CHECK_MPI(MPI_Comm_get_errhandler(comm, &got));
    CHECK_MPI(MPI_Errhandler_set(MPI_COMM_WORLD, got));
    CHECK_MPI(MPI_Errhandler_free(&got));
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_ARG);
    CHECK(calls == 3 && last_comm == MPI_COMM_WORLD &&
          last_code == MPI_ERR_ARG, "the handler, set on MPI_COMM_WORLD by "
          "MPI_Errhandler_set, did not run for it");
    CHECK_MPI(MPI_Errhandler_set(comm, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_get_errhandler(comm, &got));
    CHECK(got == MPI_ERRORS_RETURN, "MPI_Errhandler_set(MPI_ERRORS_RETURN) "
          "not seen by MPI_Comm_get_errhandler");
    CHECK_MPI(MPI_Errhandler_free(&got));
    rc = MPI_Send(&rank, 1, MPI_INT, size + 3, 0, comm);
    CHECK_CLASS(rc, MPI_ERR_RANK);
    CHECK(calls == 3, "the handler ran after MPI_ERRORS_RETURN replaced it");

    /* bad arguments, returned through MPI_COMM_WORLD's handler (set
       back to return) */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Errhandler_create(NULL, &eh), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Errhandler_create(fn, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Errhandler_set(MPI_COMM_NULL, MPI_ERRORS_RETURN),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Errhandler_set(comm, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Errhandler_get(MPI_COMM_NULL, &got), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Errhandler_get(comm, NULL), MPI_ERR_ARG);
    CHECK(calls == 3, "the handler ran for another communicator's error");

    CHECK_MPI(MPI_Comm_free(&comm));
    MPI_Finalize();
    return 0;
}
