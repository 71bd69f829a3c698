/* mpit_after_finalize_ext: the tool interface stays usable after MPI_Finalize (MPI-3.1 14.3.4) - a level opened before MPI_Init and one opened after MPI_Finalize both work, control variables read the values in effect, and the last MPI_T_finalize ends it (ext: Open MPI 4.1 crashes in MPI_T_finalize after MPI_Finalize). */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

/* Reads every control variable and every performance variable. */
static void read_all(const char *when)
{
    int n = 0, count;
    char buf[256];
    T_RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    CHECK(n > 0, "%s: %d control variables", when, n);
    for (int i = 0; i < n; i++) {
        MPI_T_cvar_handle h;
        T_RC(MPI_T_cvar_handle_alloc(i, NULL, &h, &count), MPI_SUCCESS);
        T_RC(MPI_T_cvar_read(h, buf), MPI_SUCCESS);
        T_RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    }
    MPI_T_pvar_session s;
    T_RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    T_RC(MPI_T_pvar_get_num(&n), MPI_SUCCESS);
    for (int i = 0; i < n; i++) {
        MPI_T_pvar_handle h;
        int bind;
        T_RC(MPI_T_pvar_get_info(i, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                 NULL, &bind, NULL, NULL, NULL),
             MPI_SUCCESS);
        if (bind != MPI_T_BIND_NO_OBJECT)
            continue; /* needs an object: not there before MPI_Init */
        T_RC(MPI_T_pvar_handle_alloc(s, i, NULL, &h, &count), MPI_SUCCESS);
        T_RC(MPI_T_pvar_read(s, h, buf), MPI_SUCCESS);
    }
    T_RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    int provided, n;
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    read_all("before MPI_Init");
    CHECK_MPI(MPI_Init(&argc, &argv));
    read_all("after MPI_Init");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    read_all("after MPI_Finalize");
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    T_RC(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    /* a first level opened after MPI_Finalize */
    T_RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    read_all("opened after MPI_Finalize");
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    T_RC(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    return 0;
}
