/* mpit_threads: with MPI_T_init_thread(MPI_THREAD_MULTIPLE) granted, four threads at once nest their own MPI_T_init_thread/MPI_T_finalize, create sessions, allocate, start, read, stop and free handles of every unbound performance variable, and query every control variable and category, while the main thread allocates memory and synchronizes through MPI; every call succeeds and the nesting ends balanced. */
/* shmpi-test: np=1,2 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <pthread.h>

#define THREADS 4
#define ROUNDS 50

static void pvars(void)
{
    int n, count;
    MPI_T_pvar_session s;
    T_RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    T_RC(MPI_T_pvar_get_num(&n), MPI_SUCCESS);
    for (int i = 0; i < n; i++) {
        int cls, bind, readonly, continuous, atomic, size;
        MPI_Datatype dt;
        MPI_T_enum e;
        char name[128], desc[256];
        int len = sizeof name, dlen = sizeof desc, verbosity;
        int rc = MPI_T_pvar_get_info(i, name, &len, &verbosity, &cls, &dt,
                                     &e, desc, &dlen, &bind, &readonly,
                                     &continuous, &atomic);
        if (rc != MPI_SUCCESS || bind != MPI_T_BIND_NO_OBJECT)
            continue; /* some of Open MPI's are not valid (mpit_pvar) */
        MPI_T_pvar_handle h;
        T_RC(MPI_T_pvar_handle_alloc(s, i, NULL, &h, &count), MPI_SUCCESS);
        MPI_Type_size(dt, &size);
        char *buf = calloc((size_t)count, (size_t)size);
        CHECK(buf, "out of memory");
        if (!continuous)
            T_RC(MPI_T_pvar_start(s, h), MPI_SUCCESS);
        T_RC(MPI_T_pvar_read(s, h, buf), MPI_SUCCESS);
        if (!continuous)
            T_RC(MPI_T_pvar_stop(s, h), MPI_SUCCESS);
        T_RC(MPI_T_pvar_handle_free(s, &h), MPI_SUCCESS);
        free(buf);
    }
    T_RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
}

static void cvars_and_categories(void)
{
    int n, stamp;
    char name[256];
    T_RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    for (int i = 0; i < n; i++) {
        int len = sizeof name, verbosity, bind, scope, index;
        MPI_Datatype dt;
        MPI_T_enum e;
        char desc[64];
        int dlen = sizeof desc;
        if (MPI_T_cvar_get_info(i, name, &len, &verbosity, &dt, &e, desc,
                                &dlen, &bind, &scope) != MPI_SUCCESS)
            continue;
        T_RC(MPI_T_cvar_get_index(name, &index), MPI_SUCCESS);
        CHECK(index == i, "%s: index %d, not %d", name, index, i);
    }
    T_RC(MPI_T_category_get_num(&n), MPI_SUCCESS);
    T_RC(MPI_T_category_changed(&stamp), MPI_SUCCESS);
}

static void *tool(void *arg)
{
    for (int r = 0; r < ROUNDS; r++) {
        int provided;
        T_RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);
        pvars();
        cvars_and_categories();
        T_RC(MPI_T_finalize(), MPI_SUCCESS);
    }
    return arg;
}

int main(int argc, char **argv)
{
    int provided, n;
    T_RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);
    CHECK_MPI(MPI_Init(&argc, &argv));
    if (provided == MPI_THREAD_MULTIPLE) {
        pthread_t t[THREADS];
        for (int i = 0; i < THREADS; i++)
            CHECK(pthread_create(&t[i], NULL, tool, NULL) == 0,
                  "pthread_create");
        for (int r = 0; r < ROUNDS; r++) {
            void *p;
            CHECK_MPI(MPI_Alloc_mem(1 << 20, MPI_INFO_NULL, &p));
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            CHECK_MPI(MPI_Free_mem(p));
        }
        for (int i = 0; i < THREADS; i++)
            CHECK(pthread_join(t[i], NULL) == 0, "pthread_join");
    }
    /* every thread's levels are closed: one is left, then none */
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    T_RC(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
