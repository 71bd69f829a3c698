/* session_errors_ext: errors of the session calls: a bad pset name goes to the session's handler, a bad session is MPI_ERR_SESSION, handlers of the wrong kind are refused, MPI_Session_call_errhandler calls the program's function. */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int calls, last_code;
static MPI_Session last_session;

static void on_error(MPI_Session *s, int *code, ...)
{
    calls++;
    last_code = *code;
    last_session = *s;
}

static void comm_fn(MPI_Comm *c, int *code, ...) { (void)c; (void)code; }

int main(int argc, char **argv)
{
    MPI_Errhandler eh, got, ceh;
    CHECK_MPI(MPI_Session_create_errhandler(on_error, &eh));
    MPI_Session s;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, eh, &s));
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* a bad pset name: the session's handler, with the session */
    MPI_Group g = MPI_GROUP_NULL;
    int rc = MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
    CHECK_CLASS(rc, MPI_ERR_ARG);
    CHECK(calls == 1 && last_session == s, "handler calls %d", calls);
    CHECK(g == MPI_GROUP_NULL, "a group came out of a bad name");
    MPI_Info info;
    rc = MPI_Session_get_pset_info(s, "mpi://world", &info);
    CHECK_CLASS(rc, MPI_ERR_ARG);
    int len = 0;
    rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 2, &len, NULL);
    CHECK_CLASS(rc, MPI_ERR_ARG);
    CHECK(calls == 3, "handler calls %d, want 3", calls);

    /* a bad session: MPI_ERR_SESSION (on MPI_COMM_WORLD's handler) */
    int n;
    rc = MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n);
    CHECK_CLASS(rc, MPI_ERR_SESSION);
    /* a number that names no session: an invalid handle */
    rc = MPI_Group_from_session_pset(MPI_Session_f2c(12345), "mpi://WORLD",
                                     &g);
    CHECK_CLASS(rc, MPI_ERR_SESSION);
    CHECK(calls == 3, "a bad session reached the session's handler");

    /* the handler: get, call, refuse a communicator's */
    CHECK_MPI(MPI_Session_get_errhandler(s, &got));
    CHECK(got == eh, "get_errhandler gives another handler");
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    CHECK(calls == 4 && last_code == MPI_ERR_OTHER, "call_errhandler");
    CHECK_MPI(MPI_Comm_create_errhandler(comm_fn, &ceh));
    rc = MPI_Session_set_errhandler(s, ceh);
    CHECK_CLASS(rc, MPI_ERR_ARG);
    CHECK(calls == 5, "the refusal went to the session's handler");
    rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    CHECK_CLASS(rc, MPI_ERR_ARG);
    CHECK_MPI(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    rc = MPI_Group_from_session_pset(s, NULL, &g);
    CHECK_CLASS(rc, MPI_ERR_ARG);
    CHECK(calls == 5, "MPI_ERRORS_RETURN set, yet the old handler ran");

    /* Fortran integers */
    MPI_Fint f = MPI_Session_c2f(s);
    CHECK(MPI_Session_f2c(f) == s, "f2c(c2f(s)) != s");
    CHECK(MPI_Session_c2f(MPI_SESSION_NULL) == 0, "null is not 0");

    /* a bad tag */
    MPI_Comm c;
    char tag[MPI_MAX_STRINGTAG_LEN + 8];
    memset(tag, 'x', sizeof tag - 1);
    tag[sizeof tag - 1] = '\0';
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://SELF", &g));
    rc = MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                    &c);
    CHECK_CLASS(rc, MPI_ERR_ARG);
    rc = MPI_Comm_create_from_group(MPI_GROUP_NULL, "t", MPI_INFO_NULL,
                                    MPI_ERRORS_RETURN, &c);
    CHECK_CLASS(rc, MPI_ERR_GROUP);
    CHECK_MPI(MPI_Group_free(&g));

    CHECK_MPI(MPI_Errhandler_free(&ceh));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Session_finalize(&s));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
