/* abi_session: the sessions model through the standard ABI, without MPI_Init: process sets and their infos, a group and a communicator from one, session error handlers given the ABI's session and codes. */
/* shmpi-test: np=1,2,3 timeout=60 ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built against include/abi/mpi.h: MPI_SESSION_NULL is 0x120,
 * MPI_ERRORS_RETURN 0x142, MPI_ERR_OTHER 16; the checks on handles and
 * codes fail if shmpi's own come through.
 */
#include "check.h"

#include <stdint.h>

static MPI_Session handled_session;
static int handled_code;

static void handler(MPI_Session *session, int *code, ...)
{
    handled_session = *session;
    handled_code = *code;
}

int main(void)
{
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Session_create_errhandler(handler, &eh));
    MPI_Session s = MPI_SESSION_NULL;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, eh, &s));
    CHECK(s != MPI_SESSION_NULL && (uintptr_t)s >= 0x1000, "a session");
    int i = MPI_Session_toint(s);
    CHECK(i >= 0x1000 && MPI_Session_fromint(i) == s, "Session toint/fromint");
    int n = -1;
    CHECK_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    CHECK(n >= 2, "process sets %d", n);
    int seen_world = 0;
    for (int k = 0; k < n; k++) {
        char name[MPI_MAX_PSET_NAME_LEN];
        int len = (int)sizeof name;
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, k, &len, name));
        seen_world += strcmp(name, "mpi://WORLD") == 0;
    }
    CHECK(seen_world == 1, "mpi://WORLD among the process sets");
    MPI_Info pinfo;
    CHECK_MPI(MPI_Session_get_pset_info(s, "mpi://WORLD", &pinfo));
    char v[MPI_MAX_INFO_VAL];
    int vlen = (int)sizeof v, flag = 0;
    CHECK_MPI(MPI_Info_get_string(pinfo, "mpi_size", &vlen, v, &flag));
    CHECK(flag && atoi(v) >= 1, "mpi_size '%s'", flag ? v : "");
    int size = atoi(v);
    CHECK_MPI(MPI_Info_free(&pinfo));
    MPI_Info used;
    CHECK_MPI(MPI_Session_get_info(s, &used));
    CHECK(used != MPI_INFO_NULL, "Session_get_info");
    CHECK_MPI(MPI_Info_free(&used));

    MPI_Group g;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_create_from_group(g, "abi.session", MPI_INFO_NULL,
                                         MPI_ERRORS_RETURN, &c));
    int rank = -1, csize = -1, sum = 0;
    CHECK_MPI(MPI_Comm_rank(c, &rank));
    CHECK_MPI(MPI_Comm_size(c, &csize));
    CHECK(csize == size, "the communicator of mpi://WORLD: %d", csize);
    int one = 1;
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c));
    CHECK(sum == size, "Allreduce on it %d", sum);
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Group_free(&g));

    MPI_Errhandler got;
    CHECK_MPI(MPI_Session_get_errhandler(s, &got));
    CHECK(got == eh, "the session's error handler");
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    CHECK(handled_session == s && handled_code == MPI_ERR_OTHER,
          "the handler got the session and %d", handled_code);
    char sname[MPI_MAX_PSET_NAME_LEN];
    int slen = (int)sizeof sname;
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, -1, &slen, sname);
    int cls = -1;
    CHECK_MPI(MPI_Error_class(handled_code, &cls));
    CHECK(cls == MPI_ERR_ARG, "a bad pset index: class %d", cls);
    CHECK_MPI(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    int bsize = 1024;
    char *buf = malloc((size_t)bsize);
    CHECK(buf != NULL, "malloc");
    CHECK_MPI(MPI_Session_attach_buffer(s, buf, bsize));
    CHECK_MPI(MPI_Session_flush_buffer(s));
    MPI_Request r;
    CHECK_MPI(MPI_Session_iflush_buffer(s, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    void *back = NULL;
    int bs = 0;
    CHECK_MPI(MPI_Session_detach_buffer(s, &back, &bs));
    CHECK(back == buf && bs == bsize, "session buffer");
    free(buf);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Session_finalize(&s));
    CHECK(s == MPI_SESSION_NULL, "finalized session is MPI_SESSION_NULL");
    return 0;
}
