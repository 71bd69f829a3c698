/* errors: error classes and strings, user error classes/codes/strings, error handlers (create, set, get, call, free), argument errors under MPI_ERRORS_RETURN. */
/* shmpi-test: np=1,2 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define NAMED(X)                                                             \
    X(MPI_SUCCESS) X(MPI_ERR_BUFFER) X(MPI_ERR_COUNT) X(MPI_ERR_TYPE)         \
    X(MPI_ERR_TAG) X(MPI_ERR_COMM) X(MPI_ERR_RANK) X(MPI_ERR_REQUEST)         \
    X(MPI_ERR_ROOT) X(MPI_ERR_GROUP) X(MPI_ERR_OP) X(MPI_ERR_TOPOLOGY)        \
    X(MPI_ERR_DIMS) X(MPI_ERR_ARG) X(MPI_ERR_UNKNOWN) X(MPI_ERR_TRUNCATE)     \
    X(MPI_ERR_OTHER) X(MPI_ERR_INTERN) X(MPI_ERR_IN_STATUS)                   \
    X(MPI_ERR_PENDING) X(MPI_ERR_KEYVAL) X(MPI_ERR_NO_MEM) X(MPI_ERR_BASE)    \
    X(MPI_ERR_INFO_KEY) X(MPI_ERR_INFO_VALUE) X(MPI_ERR_INFO_NOKEY)           \
    X(MPI_ERR_SPAWN) X(MPI_ERR_PORT) X(MPI_ERR_SERVICE) X(MPI_ERR_NAME)       \
    X(MPI_ERR_WIN) X(MPI_ERR_SIZE) X(MPI_ERR_DISP) X(MPI_ERR_INFO)            \
    X(MPI_ERR_LOCKTYPE) X(MPI_ERR_ASSERT) X(MPI_ERR_RMA_CONFLICT)             \
    X(MPI_ERR_RMA_SYNC) X(MPI_ERR_FILE) X(MPI_ERR_NOT_SAME) X(MPI_ERR_AMODE)  \
    X(MPI_ERR_UNSUPPORTED_DATAREP) X(MPI_ERR_UNSUPPORTED_OPERATION)           \
    X(MPI_ERR_NO_SUCH_FILE) X(MPI_ERR_FILE_EXISTS) X(MPI_ERR_BAD_FILE)        \
    X(MPI_ERR_ACCESS) X(MPI_ERR_NO_SPACE) X(MPI_ERR_QUOTA)                    \
    X(MPI_ERR_READ_ONLY) X(MPI_ERR_FILE_IN_USE) X(MPI_ERR_DUP_DATAREP)        \
    X(MPI_ERR_CONVERSION) X(MPI_ERR_IO) X(MPI_ERR_RMA_RANGE)                  \
    X(MPI_ERR_RMA_ATTACH) X(MPI_ERR_RMA_SHARED) X(MPI_ERR_RMA_FLAVOR)

#define ENTRY(c) {c, #c},
static const struct { int code; const char *name; } classes[] = {NAMED(ENTRY)};
#define NCLASSES ((int)(sizeof classes / sizeof classes[0]))

/* What the user handler saw. */
static int calls;
static MPI_Comm seen_comm;
static int seen_code;
static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    seen_comm = *comm;
    seen_code = *code;
}
static int calls2;
static void handler2(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
    calls2++;
}

static int lastusedcode(void)
{
    int *val = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &val, &flag));
    CHECK(flag && val, "MPI_LASTUSEDCODE is not set on MPI_COMM_WORLD");
    return *val;
}

static void check_string(int code, const char *want)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = -1;
    memset(s, 'X', sizeof s);
    CHECK_MPI(MPI_Error_string(code, s, &len));
    CHECK(len >= 0 && len < MPI_MAX_ERROR_STRING && s[len] == '\0' &&
              (int)strlen(s) == len,
          "MPI_Error_string(%d): resultlen %d does not match the string",
          code, len);
    CHECK(strcmp(s, want) == 0, "MPI_Error_string(%d) = \"%s\", expected \"%s\"",
          code, s, want);
}

static void predefined_classes(void)
{
    static char strings[NCLASSES][MPI_MAX_ERROR_STRING];
    for (int i = 0; i < NCLASSES; i++) {
        int code = classes[i].code, cls = -1, len = -1;
        CHECK(code == MPI_SUCCESS ? i == 0
                                  : code > MPI_SUCCESS && code <= MPI_ERR_LASTCODE,
              "%s = %d is outside (MPI_SUCCESS, MPI_ERR_LASTCODE = %d]",
              classes[i].name, code, MPI_ERR_LASTCODE);
        CHECK_MPI(MPI_Error_class(code, &cls));
        CHECK(cls == code, "MPI_Error_class(%s) = %d, a class is its own class",
              classes[i].name, cls);
        CHECK_MPI(MPI_Error_string(code, strings[i], &len));
        CHECK(len > 0 && len < MPI_MAX_ERROR_STRING &&
                  (int)strlen(strings[i]) == len,
              "MPI_Error_string(%s): length %d, string \"%s\"", classes[i].name,
              len, strings[i]);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(strings[i], strings[j]) != 0,
                  "%s and %s have the same string \"%s\"", classes[i].name,
                  classes[j].name, strings[i]);
    }
    CHECK(lastusedcode() >= MPI_ERR_LASTCODE,
          "MPI_LASTUSEDCODE %d < MPI_ERR_LASTCODE %d", lastusedcode(),
          MPI_ERR_LASTCODE);
}

static void user_classes(void)
{
    int cls[3], code[3][2];
    for (int i = 0; i < 3; i++) {
        CHECK_MPI(MPI_Add_error_class(&cls[i]));
        CHECK(cls[i] > MPI_ERR_LASTCODE, "new class %d <= MPI_ERR_LASTCODE",
              cls[i]);
        CHECK(lastusedcode() >= cls[i],
              "MPI_LASTUSEDCODE %d, but class %d was just added",
              lastusedcode(), cls[i]);
        for (int k = 0; k < 2; k++) {
            CHECK_MPI(MPI_Add_error_code(cls[i], &code[i][k]));
            CHECK(code[i][k] > MPI_ERR_LASTCODE,
                  "new code %d <= MPI_ERR_LASTCODE", code[i][k]);
            CHECK(lastusedcode() >= code[i][k],
                  "MPI_LASTUSEDCODE %d, but code %d was just added",
                  lastusedcode(), code[i][k]);
        }
    }
    /* All distinct, each code in its class. */
    int all[9], n = 0;
    for (int i = 0; i < 3; i++) {
        all[n++] = cls[i];
        all[n++] = code[i][0];
        all[n++] = code[i][1];
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            CHECK(all[i] != all[j], "value %d handed out twice", all[i]);
    for (int i = 0; i < 3; i++) {
        /* MPI_Error_class(new class) is the class itself too, but Open
           MPI 4.1 answers MPI_ERR_UNKNOWN: errors_ext.c checks it. */
        int c = -1;
        for (int k = 0; k < 2; k++) {
            CHECK_MPI(MPI_Error_class(code[i][k], &c));
            CHECK(c == cls[i], "MPI_Error_class(new code %d) = %d, expected %d",
                  code[i][k], c, cls[i]);
        }
    }
    /* No string yet: the empty string (8.5). */
    check_string(cls[0], "");
    check_string(code[0][0], "");
    /* Strings round trip, and a second call replaces the first. */
    CHECK_MPI(MPI_Add_error_string(cls[1], "my class one"));
    CHECK_MPI(MPI_Add_error_string(code[1][0], "my code one"));
    check_string(cls[1], "my class one");
    check_string(code[1][0], "my code one");
    check_string(code[1][1], "");
    CHECK_MPI(MPI_Add_error_string(code[1][0], "my code one, again"));
    check_string(code[1][0], "my code one, again");
    char longest[MPI_MAX_ERROR_STRING];
    memset(longest, 'L', sizeof longest - 1);
    longest[sizeof longest - 1] = '\0';
    CHECK_MPI(MPI_Add_error_string(code[2][1], longest));
    check_string(code[2][1], longest);

    /* A user code goes through a user handler like any other. */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    calls = 0;
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code[2][0]));
    CHECK(calls == 1 && seen_code == code[2][0] && seen_comm == MPI_COMM_WORLD,
          "handler: %d calls, code %d (expected %d)", calls, seen_code,
          code[2][0]);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&eh));
}

static void argument_errors(void)
{
    int x, flag, len;
    void *val;
    char buf[MPI_MAX_PROCESSOR_NAME];
    MPI_Errhandler eh;
    CHECK_CLASS(MPI_Comm_size(MPI_COMM_NULL, &x), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_rank(MPI_COMM_NULL, &x), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_size(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_rank(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &val,
                                  &flag),
                MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &val, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Get_processor_name(NULL, &len), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Get_processor_name(buf, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Get_version(NULL, &x), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_create_errhandler(NULL, &eh), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_get_errhandler(MPI_COMM_NULL, &eh), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_get_errhandler(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_call_errhandler(MPI_COMM_NULL, MPI_ERR_OTHER),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Errhandler_free(NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Add_error_class(NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Query_thread(NULL), MPI_ERR_ARG);
    /* The errors above changed nothing. */
    int size, rank;
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(rank >= 0 && rank < size, "rank %d size %d", rank, size);
}

static void handlers(void)
{
    MPI_Errhandler eh, eh2, got;

    /* Set and get. */
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    CHECK(got == MPI_ERRORS_RETURN, "MPI_Comm_get_errhandler does not return "
                                    "the MPI_ERRORS_RETURN just set");
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK(got == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free did not null the "
                                      "handle");
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
    CHECK(eh != MPI_ERRHANDLER_NULL, "MPI_Comm_create_errhandler gave "
                                     "MPI_ERRHANDLER_NULL");
    CHECK(eh != MPI_ERRORS_RETURN && eh != MPI_ERRORS_ARE_FATAL,
          "a new handler is a predefined one");
    CHECK_MPI(MPI_Comm_create_errhandler(handler2, &eh2));
    CHECK(eh2 != eh, "two handlers, one handle");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    CHECK(got == eh, "MPI_Comm_get_errhandler does not return the handler "
                     "just set");
    CHECK_MPI(MPI_Errhandler_free(&got));

    /* Called by MPI_Comm_call_errhandler, with the comm and the code. */
    calls = 0;
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER));
    CHECK(calls == 1, "handler called %d times by MPI_Comm_call_errhandler",
          calls);
    CHECK(seen_comm == MPI_COMM_WORLD, "handler got the wrong communicator");
    CHECK(seen_code == MPI_ERR_OTHER, "handler got code %d, expected %d",
          seen_code, MPI_ERR_OTHER);

    /* Called by a real error; the call then returns the code. */
    calls = 0;
    int rc = MPI_Comm_rank(MPI_COMM_WORLD, NULL), cls = -1;
    CHECK(calls == 1, "handler called %d times by a failing MPI_Comm_rank",
          calls);
    CHECK(seen_comm == MPI_COMM_WORLD, "handler got the wrong communicator");
    CHECK_MPI(MPI_Error_class(seen_code, &cls));
    CHECK(cls == MPI_ERR_ARG, "handler got code %d of class %d, expected "
                              "MPI_ERR_ARG", seen_code, cls);
    CHECK(rc == seen_code, "MPI_Comm_rank returned %d, the handler saw %d", rc,
          seen_code);

    /* Per communicator: MPI_COMM_SELF keeps its own handler. */
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_SELF, &got));
    CHECK(got == MPI_ERRORS_ARE_FATAL, "MPI_COMM_SELF's handler changed with "
                                       "MPI_COMM_WORLD's");
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh2));
    calls = calls2 = 0;
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_ARG));
    CHECK(calls == 0 && calls2 == 1, "MPI_COMM_SELF: world's handler called "
                                     "%d times, self's %d times", calls,
          calls2);
    CHECK_CLASS(MPI_Comm_rank(MPI_COMM_SELF, NULL), MPI_ERR_ARG);
    CHECK(calls == 0 && calls2 == 2, "a real error on MPI_COMM_SELF: world's "
                                     "handler called %d times, self's %d "
                                     "times", calls, calls2);

    /* Freeing a handler that is in use: it stays attached until replaced. */
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK(eh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free did not null the "
                                     "handle");
    calls = 0;
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_TAG));
    CHECK(calls == 1 && seen_code == MPI_ERR_TAG,
          "a freed but attached handler was not called");
    CHECK_MPI(MPI_Errhandler_free(&eh2));
    calls2 = 0;
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_TAG));
    CHECK(calls2 == 1, "a freed but attached handler was not called");

    /* Back to MPI_ERRORS_RETURN: the user handler is not called again. */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    calls = calls2 = 0;
    CHECK_CLASS(MPI_Comm_rank(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_rank(MPI_COMM_SELF, NULL), MPI_ERR_ARG);
    CHECK(calls == 0 && calls2 == 0, "a replaced handler was called");

    /* Predefined handlers can be set, got and "freed" (the handle only). */
    got = MPI_ERRORS_ARE_FATAL;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, got));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_SELF, &got));
    CHECK(got == MPI_ERRORS_ARE_FATAL, "MPI_COMM_SELF: not MPI_ERRORS_ARE_FATAL");
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
}

int main(int argc, char **argv)
{
    MPI_Errhandler got;
    CHECK_MPI(MPI_Init(&argc, &argv));
    /* The default on both predefined communicators (8.3). */
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    CHECK(got == MPI_ERRORS_ARE_FATAL, "MPI_COMM_WORLD does not start with "
                                       "MPI_ERRORS_ARE_FATAL");
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_SELF, &got));
    CHECK(got == MPI_ERRORS_ARE_FATAL, "MPI_COMM_SELF does not start with "
                                       "MPI_ERRORS_ARE_FATAL");
    CHECK_MPI(MPI_Errhandler_free(&got));

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    predefined_classes();
    argument_errors();
    handlers();
    user_classes();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
