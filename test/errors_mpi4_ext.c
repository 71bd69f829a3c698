/* errors_mpi4_ext: the MPI-4.0/4.1 error classes (their numbers, classes and strings, below MPI_ERR_LASTCODE) and the predefined handler MPI_ERRORS_ABORT as an object (set, get, free, Fortran number), which Open MPI 4.1 lacks. */
/* shmpi-test: np=1,2,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static const struct { int cls; const char *name; } mpi4[] = {
    {MPI_ERR_PROC_ABORTED, "MPI_ERR_PROC_ABORTED"},
    {MPI_ERR_VALUE_TOO_LARGE, "MPI_ERR_VALUE_TOO_LARGE"},
    {MPI_ERR_SESSION, "MPI_ERR_SESSION"},
    {MPI_ERR_ERRHANDLER, "MPI_ERR_ERRHANDLER"},
};
#define N_MPI4 (int)(sizeof mpi4 / sizeof mpi4[0])

static void classes(void)
{
    char s[MPI_MAX_ERROR_STRING];
    int len, cls;
    for (int i = 0; i < N_MPI4; i++) {
        CHECK(mpi4[i].cls > MPI_SUCCESS && mpi4[i].cls <= MPI_ERR_LASTCODE,
              "%s = %d, outside 1..MPI_ERR_LASTCODE", mpi4[i].name,
              mpi4[i].cls);
        for (int j = 0; j < i; j++)
            CHECK(mpi4[i].cls != mpi4[j].cls, "%s and %s are both %d",
                  mpi4[i].name, mpi4[j].name, mpi4[i].cls);
        CHECK(mpi4[i].cls != MPI_ERR_OTHER && mpi4[i].cls != MPI_ERR_ARG &&
                  mpi4[i].cls != MPI_ERR_RMA_FLAVOR,
              "%s shares an MPI-3.1 class's number", mpi4[i].name);
        CHECK_MPI(MPI_Error_class(mpi4[i].cls, &cls));
        CHECK(cls == mpi4[i].cls, "MPI_Error_class(%s) = %d", mpi4[i].name,
              cls);
        CHECK_MPI(MPI_Error_string(mpi4[i].cls, s, &len));
        CHECK(len == (int)strlen(s) && strstr(s, mpi4[i].name) &&
                  strlen(s) > strlen(mpi4[i].name) + 2,
              "MPI_Error_string(%s) = \"%s\"", mpi4[i].name, s);
    }
    /* added classes still start above the predefined ones */
    int added;
    CHECK_MPI(MPI_Add_error_class(&added));
    CHECK(added > MPI_ERR_LASTCODE, "added class %d <= MPI_ERR_LASTCODE",
          added);
}

static void handler_object(void)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_Comm dup;
    CHECK(MPI_ERRORS_ABORT != MPI_ERRORS_ARE_FATAL &&
              MPI_ERRORS_ABORT != MPI_ERRORS_RETURN &&
              MPI_ERRORS_ABORT != MPI_ERRHANDLER_NULL,
          "MPI_ERRORS_ABORT is another predefined handler");
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_ABORT));
    CHECK_MPI(MPI_Comm_get_errhandler(dup, &eh));
    CHECK(eh == MPI_ERRORS_ABORT, "MPI_Comm_get_errhandler: not "
          "MPI_ERRORS_ABORT");
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK(eh == MPI_ERRHANDLER_NULL, "freed handle not nulled");
    /* freeing the handle left the communicator's handler in place */
    CHECK_MPI(MPI_Comm_get_errhandler(dup, &eh));
    CHECK(eh == MPI_ERRORS_ABORT, "handler lost after MPI_Errhandler_free");
    CHECK_MPI(MPI_Errhandler_free(&eh));
    /* a dup inherits it */
    MPI_Comm dup2;
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    CHECK_MPI(MPI_Comm_get_errhandler(dup2, &eh));
    CHECK(eh == MPI_ERRORS_ABORT, "a dup did not inherit MPI_ERRORS_ABORT");
    CHECK_MPI(MPI_Errhandler_free(&eh));
    /* a call that succeeds does not call it */
    int rank;
    CHECK_MPI(MPI_Comm_rank(dup2, &rank));
    CHECK_MPI(MPI_Comm_free(&dup2));
    CHECK_MPI(MPI_Comm_free(&dup));

    /* on a window too */
    MPI_Win win;
    int mem = 0;
    CHECK_MPI(MPI_Win_create(&mem, sizeof mem, 1, MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_ABORT));
    CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
    CHECK(eh == MPI_ERRORS_ABORT, "MPI_Win_get_errhandler: not "
          "MPI_ERRORS_ABORT");
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Win_free(&win));

    /* its Fortran number is fixed (3, after the other two: the
       MPI_Errhandler_c2f page) and converts back */
    MPI_Fint f = MPI_Errhandler_c2f(MPI_ERRORS_ABORT);
    CHECK(f == 3, "MPI_Errhandler_c2f(MPI_ERRORS_ABORT) = %d", (int)f);
    CHECK(MPI_Errhandler_f2c(f) == MPI_ERRORS_ABORT,
          "MPI_Errhandler_f2c(%d) is not MPI_ERRORS_ABORT", (int)f);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    classes();
    handler_object();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
