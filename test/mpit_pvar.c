/* mpit_pvar: every performance variable has a name that MPI_T_pvar_get_index finds again with its class, a class, a datatype and flags; in a session each unbound one is allocated, started if not continuous (a continuous one refuses it with MPI_T_ERR_PVAR_NO_STARTSTOP), read, reset where writable (else MPI_T_ERR_PVAR_NO_WRITE), stopped and freed; MPI_T_PVAR_ALL_HANDLES starts, stops and resets them all; handles are tied to their session; bad sessions, handles and indices are refused. */
/* shmpi-test: np=1,2 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

struct var {
    char name[256];
    int var_class, bind, readonly, continuous, atomic, valid;
    MPI_Datatype dt;
    MPI_T_pvar_handle h;
    int count;
};

static void info(int i, struct var *v)
{
    char desc[1024];
    int len = sizeof v->name, dlen = sizeof desc, verbosity, index = -1;
    MPI_T_enum e;
    int rc = MPI_T_pvar_get_info(i, v->name, &len, &verbosity,
                                 &v->var_class, &v->dt, &e, desc, &dlen,
                                 &v->bind, &v->readonly, &v->continuous,
                                 &v->atomic);
    v->valid = rc == MPI_SUCCESS;
    /* no longer valid: 14.3.7 allows it (Open MPI 4.1 also says
       MPI_T_ERR_INVALID for some) */
    if (rc == MPI_T_ERR_INVALID_INDEX || rc == MPI_T_ERR_INVALID)
        return;
    T_RC(rc, MPI_SUCCESS);
    CHECK(len == (int)strlen(v->name) + 1 && len > 1, "pvar %d: name", i);
    CHECK(v->var_class >= MPI_T_PVAR_CLASS_STATE &&
              v->var_class <= MPI_T_PVAR_CLASS_GENERIC,
          "%s: class %d", v->name, v->var_class);
    int size = 0;
    CHECK(v->dt != MPI_DATATYPE_NULL &&
              MPI_Type_size(v->dt, &size) == MPI_SUCCESS && size > 0,
          "%s: a datatype without a size", v->name);
    T_RC(MPI_T_pvar_get_index(v->name, v->var_class, &index), MPI_SUCCESS);
    CHECK(index == i, "%s: MPI_T_pvar_get_index gave %d, not %d", v->name,
          index, i);
}

/* Operations on one allocated handle of session s. */
static void exercise(MPI_T_pvar_session s, struct var *v, void *buf)
{
    if (v->continuous)
        T_RC(MPI_T_pvar_start(s, v->h), MPI_T_ERR_PVAR_NO_STARTSTOP);
    else
        T_RC(MPI_T_pvar_start(s, v->h), MPI_SUCCESS);
    T_RC(MPI_T_pvar_read(s, v->h, buf), MPI_SUCCESS);
    if (v->readonly) {
        /* 14.3.9: MPI_T_ERR_PVAR_NO_WRITE; Open MPI 4.1 may say
           MPI_T_ERR_INVALID (mpit_pvar_ext checks shmpi's) */
        int rc = MPI_T_pvar_reset(s, v->h);
        CHECK(rc == MPI_T_ERR_PVAR_NO_WRITE || rc == MPI_T_ERR_INVALID,
              "%s: reset of a read-only variable gave %d", v->name, rc);
        rc = MPI_T_pvar_write(s, v->h, buf);
        CHECK(rc == MPI_T_ERR_PVAR_NO_WRITE || rc == MPI_T_ERR_INVALID,
              "%s: write of a read-only variable gave %d", v->name, rc);
    } else {
        T_RC(MPI_T_pvar_reset(s, v->h), MPI_SUCCESS);
    }
    if (!v->continuous)
        T_RC(MPI_T_pvar_stop(s, v->h), MPI_SUCCESS);
    T_RC(MPI_T_pvar_read(s, v->h, buf), MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    int provided, n = -1, index;
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK_MPI(MPI_Init(&argc, &argv));
    T_RC(MPI_T_pvar_get_num(&n), MPI_SUCCESS);
    CHECK(n >= 0, "%d performance variables", n);
    struct var *vars = calloc((size_t)n + 1, sizeof *vars);
    CHECK(vars, "out of memory");
    MPI_T_pvar_session s, other;
    T_RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    T_RC(MPI_T_pvar_session_create(&other), MPI_SUCCESS);
    CHECK(s != MPI_T_PVAR_SESSION_NULL && s != other, "two sessions");
    for (int i = 0; i < n; i++) {
        struct var *v = &vars[i];
        info(i, v);
        if (!v->valid || v->bind != MPI_T_BIND_NO_OBJECT)
            continue;
        T_RC(MPI_T_pvar_handle_alloc(s, i, NULL, &v->h, &v->count),
             MPI_SUCCESS);
        int size;
        MPI_Type_size(v->dt, &size);
        void *buf = calloc((size_t)v->count, (size_t)size);
        CHECK(buf && v->count > 0, "%s: count %d", v->name, v->count);
        exercise(s, v, buf);
        /* a handle of s is no handle of other */
        int rc = MPI_T_pvar_read(other, v->h, buf);
        CHECK(rc == MPI_T_ERR_INVALID_HANDLE || rc == MPI_T_ERR_INVALID_SESSION,
              "%s: read through another session gave %d", v->name, rc);
        free(buf);
    }
    T_RC(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    T_RC(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    T_RC(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    for (int i = 0; i < n; i++)
        if (vars[i].h != MPI_T_PVAR_HANDLE_NULL) {
            T_RC(MPI_T_pvar_handle_free(s, &vars[i].h), MPI_SUCCESS);
            CHECK(vars[i].h == MPI_T_PVAR_HANDLE_NULL, "%s: handle after free",
                  vars[i].name);
        }
    T_RC(MPI_T_pvar_session_free(&other), MPI_SUCCESS);
    T_RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    CHECK(s == MPI_T_PVAR_SESSION_NULL, "session after free");
    T_RC(MPI_T_pvar_get_index("no such variable, surely",
                              MPI_T_PVAR_CLASS_COUNTER, &index),
         MPI_T_ERR_INVALID_NAME);
    free(vars);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
