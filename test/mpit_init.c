/* mpit_init: MPI_T_init_thread and MPI_T_finalize nest (each init needs its finalize), work before MPI_Init and across it, and every other MPI_T call says MPI_T_ERR_NOT_INITIALIZED outside them; the MPI_T_ERR_* codes are error classes that MPI_Error_string names (after MPI_Finalize: mpit_after_finalize_ext). */
/* shmpi-test: np=1,2 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

/* An MPI_T call that must return exactly `want` (MPI_T calls return
   their codes; they call no error handler). */
static void usable(const char *when)
{
    int n = -1;
    T_RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    CHECK(n >= 0, "%s: %d control variables", when, n);
    T_RC(MPI_T_pvar_get_num(&n), MPI_SUCCESS);
    CHECK(n >= 0, "%s: %d performance variables", when, n);
    T_RC(MPI_T_category_get_num(&n), MPI_SUCCESS);
    CHECK(n >= 0, "%s: %d categories", when, n);
    MPI_T_pvar_session s;
    T_RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    T_RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    CHECK(s == MPI_T_PVAR_SESSION_NULL, "%s: session not NULL after free",
          when);
}

static void not_usable(const char *when)
{
    int n;
    MPI_T_pvar_session s;
    T_RC(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    T_RC(MPI_T_pvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    T_RC(MPI_T_category_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    T_RC(MPI_T_category_changed(&n), MPI_T_ERR_NOT_INITIALIZED);
    T_RC(MPI_T_pvar_session_create(&s), MPI_T_ERR_NOT_INITIALIZED);
    T_RC(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    (void)when;
}

/* Two levels of nesting above `outer` open ones: usable until the
   second finalize, and after it only if outer > 0. */
static void nest(const char *when, int outer)
{
    int provided = -1;
    if (!outer)
        not_usable(when);
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    /* Open MPI 4.1 leaves provided alone in a nested call */
    CHECK(outer || (provided >= MPI_THREAD_SINGLE &&
                    provided <= MPI_THREAD_MULTIPLE),
          "%s: provided %d", when, provided);
    T_RC(MPI_T_init_thread(MPI_THREAD_FUNNELED, &provided), MPI_SUCCESS);
    usable(when);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    usable(when);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    if (outer)
        usable(when);
    else
        not_usable(when);
}

static const struct { int code; const char *name; } codes[] = {
#define C(x) {x, #x}
    C(MPI_T_ERR_MEMORY), C(MPI_T_ERR_NOT_INITIALIZED),
    C(MPI_T_ERR_CANNOT_INIT), C(MPI_T_ERR_INVALID_INDEX),
    C(MPI_T_ERR_INVALID_ITEM), C(MPI_T_ERR_INVALID_HANDLE),
    C(MPI_T_ERR_OUT_OF_HANDLES), C(MPI_T_ERR_OUT_OF_SESSIONS),
    C(MPI_T_ERR_INVALID_SESSION), C(MPI_T_ERR_CVAR_SET_NOT_NOW),
    C(MPI_T_ERR_CVAR_SET_NEVER), C(MPI_T_ERR_PVAR_NO_STARTSTOP),
    C(MPI_T_ERR_PVAR_NO_WRITE), C(MPI_T_ERR_PVAR_NO_ATOMIC),
    C(MPI_T_ERR_INVALID_NAME), C(MPI_T_ERR_INVALID),
#undef C
};

/* Each code is a class of its own, distinct from MPI_SUCCESS and the
   others, with a string. */
static void error_classes(void)
{
    int n = (int)(sizeof codes / sizeof codes[0]);
    for (int i = 0; i < n; i++) {
        char text[MPI_MAX_ERROR_STRING];
        int cls = -1, len = -1;
        CHECK(codes[i].code != MPI_SUCCESS, "%s is MPI_SUCCESS",
              codes[i].name);
        for (int k = 0; k < i; k++)
            CHECK(codes[k].code != codes[i].code, "%s = %s", codes[k].name,
                  codes[i].name);
        CHECK_MPI(MPI_Error_class(codes[i].code, &cls));
        CHECK(cls == codes[i].code, "class of %s is %d", codes[i].name, cls);
        CHECK_MPI(MPI_Error_string(codes[i].code, text, &len));
        CHECK(len > 0 && len < MPI_MAX_ERROR_STRING &&
                  (int)strlen(text) == len,
              "string of %s: '%s' (%d)", codes[i].name, text, len);
    }
}

int main(int argc, char **argv)
{
    int provided;
    nest("before MPI_Init", 0);
    /* one level open across MPI_Init and MPI_Finalize */
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK_MPI(MPI_Init(&argc, &argv));
    usable("after MPI_Init");
    nest("nested after MPI_Init", 1);
    error_classes();
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    not_usable("after MPI_T_finalize");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
