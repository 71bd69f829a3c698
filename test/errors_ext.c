/* errors_ext: argument checks the standard leaves open, answered as shmpi does: bad codes, NULL outputs, garbage handles, user classes, the handler used for an invalid communicator. */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int calls;
static MPI_Comm seen_comm;
static int seen_code;
static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    seen_comm = *comm;
    seen_code = *code;
}

/* Handles that point at memory which is not an MPI object. */
static long junk[512];

int main(int argc, char **argv)
{
    char s[MPI_MAX_ERROR_STRING];
    int len, cls, flag, x;
    void *val;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* Codes that do not exist. */
    const int bad[] = {-1, MPI_ERR_LASTCODE + 1, 99999};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_CLASS(MPI_Error_class(bad[i], &cls), MPI_ERR_ARG);
        CHECK_CLASS(MPI_Error_string(bad[i], s, &len), MPI_ERR_ARG);
    }
    CHECK_CLASS(MPI_Error_class(MPI_ERR_ARG, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Error_string(MPI_ERR_ARG, NULL, &len), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Error_string(MPI_ERR_ARG, s, NULL), MPI_ERR_ARG);

    /* The string of a class names it. */
    CHECK_MPI(MPI_Error_string(MPI_ERR_RANK, s, &len));
    CHECK(strstr(s, "MPI_ERR_RANK"), "MPI_Error_string(MPI_ERR_RANK) = \"%s\"",
          s);

    /* User classes and codes. */
    int c1, code1;
    CHECK_MPI(MPI_Add_error_class(&c1));
    CHECK(c1 == MPI_ERR_LASTCODE + 1, "first added class is %d", c1);
    CHECK_MPI(MPI_Error_class(c1, &cls));
    CHECK(cls == c1, "MPI_Error_class(added class %d) = %d", c1, cls);
    CHECK_MPI(MPI_Add_error_code(c1, &code1));
    int *last = NULL;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last,
                                &flag));
    CHECK(flag && *last == code1, "MPI_LASTUSEDCODE = %d, last added %d",
          *last, code1);
    CHECK_CLASS(MPI_Add_error_code(code1, &x), MPI_ERR_ARG); /* not a class */
    CHECK_CLASS(MPI_Add_error_code(99999, &x), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Add_error_code(c1, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Add_error_string(MPI_ERR_ARG, "mine"), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Add_error_string(99999, "mine"), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Add_error_string(code1, NULL), MPI_ERR_ARG);
    char toolong[MPI_MAX_ERROR_STRING + 1];
    memset(toolong, 'x', MPI_MAX_ERROR_STRING);
    toolong[MPI_MAX_ERROR_STRING] = '\0';
    CHECK_CLASS(MPI_Add_error_string(code1, toolong), MPI_ERR_ARG);
    /* a predefined class can have user codes */
    CHECK_MPI(MPI_Add_error_code(MPI_ERR_RANK, &x));
    CHECK_MPI(MPI_Error_class(x, &cls));
    CHECK(cls == MPI_ERR_RANK, "a code added to MPI_ERR_RANK has class %d", cls);

    /* Other checks. */
    CHECK_CLASS(MPI_Is_thread_main(NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, 12345, &val, &flag),
                MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL, &flag),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL),
                MPI_ERR_ARG);
    MPI_Errhandler nul = MPI_ERRHANDLER_NULL;
    CHECK_CLASS(MPI_Errhandler_free(&nul), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Get_library_version(NULL, &len), MPI_ERR_ARG);

    /* Garbage handles are caught, not followed. */
    MPI_Comm bogus = (MPI_Comm)(void *)junk;
    CHECK_CLASS(MPI_Comm_size(bogus, &x), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Barrier(bogus), MPI_ERR_COMM);
    MPI_Errhandler bogus_eh = (MPI_Errhandler)(void *)junk;
    CHECK_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, bogus_eh), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Errhandler_free(&bogus_eh), MPI_ERR_ARG);

    /* An invalid communicator raises the error on MPI_COMM_WORLD (3.1:
       errors not tied to a valid object go there). */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    calls = 0;
    int rc = MPI_Comm_size(MPI_COMM_NULL, &x);
    CHECK(calls == 1 && seen_comm == MPI_COMM_WORLD && seen_code == rc,
          "invalid comm: handler called %d times", calls);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_COMM, "class %d", cls);
    /* errors in calls without a communicator go there too */
    calls = 0;
    rc = MPI_Error_class(-5, &cls);
    CHECK(calls == 1 && seen_comm == MPI_COMM_WORLD && seen_code == rc,
          "MPI_Error_class(-5): handler called %d times", calls);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&eh));

    /* Comm_call_errhandler returns MPI_SUCCESS under MPI_ERRORS_RETURN too */
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER));

    CHECK_MPI(MPI_Finalize());
    return 0;
}
