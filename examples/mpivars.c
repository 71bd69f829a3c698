/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpivars.c - list every variable of the MPI tool information interface
 * (MPI-3.1 chapter 14): the control variables with their values, the
 * performance variables with theirs, and the categories that group them.
 *
 *     make
 *     ./mpicc -o mpivars examples/mpivars.c
 *     ./mpirun -np 1 ./mpivars
 *
 * In shmpi the control variables are the SHMPI_* tunables (shmpi(7),
 * ENVIRONMENT): SHMPI_EAGER_LIMIT=8192 ./mpirun -np 1 ./mpivars shows
 * the value in effect.  A performance variable bound to a communicator is
 * read on MPI_COMM_WORLD (its elements one per rank, for per-peer
 * counters); the events of MPI-4.0 (15.3.8) are listed with their
 * elements, where the MPI has them.  Only rank 0 prints.  Nothing here is
 * specific to shmpi: the same file builds with Open MPI's or MPICH's
 * mpicc (whose lists are much longer).
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *scope_name(int scope)
{
    static const char *const names[] = {"constant", "readonly", "local",
                                        "group", "group_eq", "all", "all_eq"};
    return scope >= 0 && scope <= 6 ? names[scope] : "?";
}

static const char *class_name(int c)
{
    static const char *const names[] = {
        "state", "level", "size", "percentage", "highwatermark",
        "lowwatermark", "counter", "aggregate", "timer", "generic"};
    return c >= 0 && c <= 9 ? names[c] : "?";
}

/* The name of value v in enumeration e, or NULL. */
static const char *item_name(MPI_T_enum e, int v, char *buf, int len)
{
    int num = 0;
    if (e == MPI_T_ENUM_NULL ||
        MPI_T_enum_get_info(e, &num, NULL, NULL) != MPI_SUCCESS)
        return NULL;
    for (int k = 0; k < num; k++) {
        int value, n = len;
        if (MPI_T_enum_get_item(e, k, &value, buf, &n) == MPI_SUCCESS &&
            value == v)
            return buf;
    }
    return NULL;
}

/* One value of datatype dt at p, in words. */
static void show(MPI_Datatype dt, const void *p, MPI_T_enum e)
{
    char item[64];
    if (dt == MPI_INT) {
        int v;
        memcpy(&v, p, sizeof v);
        const char *name = item_name(e, v, item, sizeof item);
        if (name)
            printf("%s (%d)", name, v);
        else
            printf("%d", v);
    } else if (dt == MPI_UNSIGNED) {
        printf("%u", *(const unsigned *)p);
    } else if (dt == MPI_UNSIGNED_LONG) {
        printf("%lu", *(const unsigned long *)p);
    } else if (dt == MPI_UNSIGNED_LONG_LONG) {
        printf("%llu", *(const unsigned long long *)p);
    } else if (dt == MPI_COUNT) {
        printf("%lld", (long long)*(const MPI_Count *)p);
    } else if (dt == MPI_DOUBLE) {
        printf("%g", *(const double *)p);
    } else if (dt == MPI_CHAR) {
        printf("\"%s\"", (const char *)p);
    } else {
        printf("(a value of another datatype)");
    }
}

/* Room for count values of dt: at least 8 bytes each. */
static void *room(MPI_Datatype dt, int count)
{
    int size = 8;
    MPI_Type_size(dt, &size);
    return calloc((size_t)(count > 0 ? count : 1), size > 8 ? size : 8);
}

static void cvars(void)
{
    int n = 0;
    MPI_T_cvar_get_num(&n);
    printf("control variables: %d\n", n);
    for (int i = 0; i < n; i++) {
        char name[256], desc[1024];
        int len = sizeof name, dlen = sizeof desc, verbosity, bind, scope,
            count;
        MPI_Datatype dt;
        MPI_T_enum e;
        if (MPI_T_cvar_get_info(i, name, &len, &verbosity, &dt, &e, desc,
                                &dlen, &bind, &scope) != MPI_SUCCESS)
            continue;
        printf("  %s = ", name);
        MPI_T_cvar_handle h;
        if (bind == MPI_T_BIND_NO_OBJECT &&
            MPI_T_cvar_handle_alloc(i, NULL, &h, &count) == MPI_SUCCESS) {
            void *buf = room(dt, count);
            if (buf && MPI_T_cvar_read(h, buf) == MPI_SUCCESS)
                show(dt, buf, e);
            else
                printf("(cannot be read)");
            free(buf);
            MPI_T_cvar_handle_free(&h);
        } else {
            printf("(bound to an object)");
        }
        printf("  [%s]\n      %s\n", scope_name(scope), desc);
    }
}

static void pvars(void)
{
    int n = 0;
    MPI_T_pvar_session s;
    MPI_T_pvar_get_num(&n);
    printf("performance variables: %d\n", n);
    if (MPI_T_pvar_session_create(&s) != MPI_SUCCESS)
        return;
    for (int i = 0; i < n; i++) {
        char name[256], desc[1024];
        int len = sizeof name, dlen = sizeof desc, verbosity, cls, bind,
            readonly, continuous, atomic, count;
        MPI_Datatype dt;
        MPI_T_enum e;
        if (MPI_T_pvar_get_info(i, name, &len, &verbosity, &cls, &dt, &e,
                                desc, &dlen, &bind, &readonly, &continuous,
                                &atomic) != MPI_SUCCESS)
            continue;
        printf("  %s = ", name);
        MPI_T_pvar_handle h;
        MPI_Comm world = MPI_COMM_WORLD;
        if ((bind == MPI_T_BIND_NO_OBJECT || bind == MPI_T_BIND_MPI_COMM) &&
            MPI_T_pvar_handle_alloc(s, i, &world, &h, &count) ==
                MPI_SUCCESS) {
            void *buf = room(dt, count);
            int size = 8;
            MPI_Type_size(dt, &size);
            if (buf && MPI_T_pvar_read(s, h, buf) == MPI_SUCCESS)
                for (int k = 0; k < count; k++) {
                    printf(k ? " " : "");
                    show(dt, (char *)buf + (size_t)k * (size_t)size, e);
                }
            else
                printf("(cannot be read)");
            free(buf);
            MPI_T_pvar_handle_free(s, &h);
        } else {
            printf("(bound to an object)");
        }
        printf("  [%s%s%s]\n      %s\n", class_name(cls),
               continuous ? ", continuous" : "",
               readonly ? ", readonly" : "", desc);
    }
    MPI_T_pvar_session_free(&s);
}

/* The names of the n members of category c that get lists. */
static void members(int c, int n, int (*get)(int, int, int[]),
                    int (*name_of)(int, char *, int *), const char *what)
{
    int *idx = calloc((size_t)n + 1, sizeof *idx);
    if (!idx || get(c, n, idx) != MPI_SUCCESS) {
        free(idx);
        return;
    }
    printf("      %s:", what);
    for (int k = 0; k < n; k++) {
        char name[256];
        int len = sizeof name;
        if (name_of(idx[k], name, &len) == MPI_SUCCESS)
            printf(" %s", name);
    }
    printf("\n");
    free(idx);
}

static int cvar_name(int i, char *name, int *len)
{
    int verbosity, bind, scope;
    MPI_Datatype dt;
    MPI_T_enum e;
    return MPI_T_cvar_get_info(i, name, len, &verbosity, &dt, &e, NULL,
                               NULL, &bind, &scope);
}

static int pvar_name(int i, char *name, int *len)
{
    int verbosity, cls, bind, readonly, continuous, atomic;
    MPI_Datatype dt;
    MPI_T_enum e;
    return MPI_T_pvar_get_info(i, name, len, &verbosity, &cls, &dt, &e,
                               NULL, NULL, &bind, &readonly, &continuous,
                               &atomic);
}

static int category_name(int i, char *name, int *len)
{
    int nc, np, nk;
    return MPI_T_category_get_info(i, name, len, NULL, NULL, &nc, &np, &nk);
}

static void categories(void)
{
    int n = 0;
    MPI_T_category_get_num(&n);
    printf("categories: %d\n", n);
    for (int c = 0; c < n; c++) {
        char name[256], desc[1024];
        int len = sizeof name, dlen = sizeof desc, nc, np, nk;
        if (MPI_T_category_get_info(c, name, &len, desc, &dlen, &nc, &np,
                                    &nk) != MPI_SUCCESS)
            continue;
        printf("  %s: %s\n", name, desc);
        if (nc > 0)
            members(c, nc, MPI_T_category_get_cvars, cvar_name, "cvars");
        if (np > 0)
            members(c, np, MPI_T_category_get_pvars, pvar_name, "pvars");
        if (nk > 0)
            members(c, nk, MPI_T_category_get_categories, category_name,
                    "categories");
    }
}

#if MPI_VERSION >= 4
static void events(void)
{
    int n = 0, ns = 0;
    MPI_T_event_get_num(&n);
    printf("events: %d\n", n);
    for (int i = 0; i < n; i++) {
        char name[256], desc[1024];
        int len = sizeof name, dlen = sizeof desc, verbosity, bind, ne = 0;
        if (MPI_T_event_get_info(i, name, &len, &verbosity, NULL, NULL, &ne,
                                 NULL, NULL, desc, &dlen,
                                 &bind) != MPI_SUCCESS)
            continue;
        printf("  %s: %d element%s\n      %s\n", name, ne, ne == 1 ? "" : "s",
               desc);
    }
    MPI_T_source_get_num(&ns);
    printf("event sources: %d\n", ns);
    for (int i = 0; i < ns; i++) {
        char name[256], desc[1024];
        int len = sizeof name, dlen = sizeof desc;
        MPI_T_source_order order;
        MPI_Count tps, max;
        if (MPI_T_source_get_info(i, name, &len, desc, &dlen, &order, &tps,
                                  &max, NULL) == MPI_SUCCESS)
            printf("  %s: %lld ticks/s, %s\n      %s\n", name, (long long)tps,
                   order == MPI_T_SOURCE_ORDERED ? "ordered" : "unordered",
                   desc);
    }
}
#else
static void events(void)
{
}
#endif

int main(int argc, char **argv)
{
    int provided, rank;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "mpivars: MPI_T_init_thread failed\n");
        return 1;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        cvars();
        pvars();
        categories();
        events();
    }
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
