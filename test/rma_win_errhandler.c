/* rma_win_errhandler: window error handlers - MPI_ERRORS_ARE_FATAL by default whatever the communicator has, MPI_ERRORS_RETURN, a user handler from MPI_Win_create_errhandler (called with the window and the code, also for a real error), MPI_Win_get_errhandler, MPI_Win_call_errhandler with predefined and added codes, a handler freed while in use. */
/* shmpi-test: np=1,2,3 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size;

static struct {
    int calls;
    MPI_Win win;
    int code;
} seen;

static void handler(MPI_Win *win, int *code, ...)
{
    seen.calls++;
    seen.win = *win;
    seen.code = *code;
}

static int error_class(int code)
{
    int cls;
    MPI_Error_class(code, &cls);
    return cls;
}

static void defaults(MPI_Win win)
{
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL, "a new window's handler is not "
          "MPI_ERRORS_ARE_FATAL (the communicator's is MPI_ERRORS_RETURN)");
    MPI_Errhandler_free(&eh);
}

static void returns(MPI_Win win)
{
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "get_errhandler after set");
    MPI_Errhandler_free(&eh);
    int x = 0;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    int rc = MPI_Put(&x, 1, MPI_INT, size, 0, 1, MPI_INT, win);
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_RANK,
          "a put to rank %d returned class %d", size, error_class(rc));
    CHECK(MPI_Win_call_errhandler(win, MPI_ERR_OTHER) == MPI_SUCCESS,
          "MPI_Win_call_errhandler returns MPI_SUCCESS when it returns");
}

static void user(MPI_Win win)
{
    MPI_Errhandler eh, got;
    CHECK_MPI(MPI_Win_create_errhandler(handler, &eh));
    CHECK_MPI(MPI_Win_set_errhandler(win, eh));
    CHECK_MPI(MPI_Win_get_errhandler(win, &got));
    CHECK(got == eh, "get_errhandler gives another handler");
    MPI_Errhandler_free(&got);
    CHECK_MPI(MPI_Errhandler_free(&eh)); /* the window keeps it */
    CHECK(eh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free left the handle");

    CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_RMA_SYNC));
    CHECK(seen.calls == 1 && seen.win == win && seen.code == MPI_ERR_RMA_SYNC,
          "call_errhandler: %d calls, code %d", seen.calls, seen.code);

    int cls, code;
    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    CHECK_MPI(MPI_Win_call_errhandler(win, code));
    CHECK(seen.calls == 2 && seen.code == code, "an added code: %d",
          seen.code);

    int x = 0;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    int rc = MPI_Put(&x, 1, MPI_INT, size, 0, 1, MPI_INT, win);
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK(seen.calls == 3 && seen.win == win &&
              error_class(seen.code) == MPI_ERR_RANK,
          "a real error reaches the user handler: %d calls", seen.calls);
    CHECK(rc == seen.code, "the call returns the handler's code");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    void *base;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &base, &win));
    defaults(win);
    returns(win);
    user(win);
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    if (rank == 0)
        printf("rma_win_errhandler: ok\n");
    return 0;
}
