/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * live.c - the objects made and not freed, in check mode (live.h).
 *
 * One array per kind, oldest first, under one mutex: the mode is for
 * finding mistakes, and a program makes few such objects; a free looks
 * from the newest back, where most frees find their object.
 */
#include "core/live.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "mpi.h"

struct live_one {
    const void *obj;
    const char *fn;
    const char *name;
    int size;                  /* -1: none */
};

struct live_list {
    struct live_one *at;
    long n, cap;
};

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct live_list lists[SHMPI_LIVE_KINDS];
/* more than the arrays could hold: counted, never reported by name */
static long lost[SHMPI_LIVE_KINDS];

static const struct {
    const char *what, *fix;
} kinds[SHMPI_LIVE_KINDS] = {
    [SHMPI_LIVE_WIN] = {"windows never freed",
                        "call MPI_Win_free on every window before "
                        "MPI_Finalize"},
    [SHMPI_LIVE_PREQ] = {"persistent requests never freed",
                         "call MPI_Request_free on every persistent "
                         "request (once inactive) before MPI_Finalize"},
    [SHMPI_LIVE_COMM] = {"communicators never freed",
                         "call MPI_Comm_free on every communicator the "
                         "program made before MPI_Finalize"},
    [SHMPI_LIVE_TYPE] = {"datatypes never freed",
                         "call MPI_Type_free on every derived datatype "
                         "once the program made its last call with it "
                         "(pending operations keep it alive)"},
    [SHMPI_LIVE_GROUP] = {"groups never freed",
                          "call MPI_Group_free on every group handle "
                          "the program got (MPI_Comm_group's too) before "
                          "MPI_Finalize"},
    [SHMPI_LIVE_GREQ] = {"generalized requests never completed or freed",
                         "call MPI_Grequest_complete on every generalized "
                         "request, then MPI_Wait, MPI_Test or "
                         "MPI_Request_free it, before MPI_Finalize"},
};

static int grow(struct live_list *l)
{
    long cap = l->cap ? 2 * l->cap : 16;
    struct live_one *at = realloc(l->at, (size_t)cap * sizeof *at);
    if (!at)
        return 0;
    l->at = at;
    l->cap = cap;
    return 1;
}

static void add(enum shmpi_core_live_kind kind, struct live_one o)
{
    struct live_list *l = &lists[kind];
    pthread_mutex_lock(&live_lock);
    if (l->n < l->cap || grow(l))
        l->at[l->n++] = o;
    else
        lost[kind]++;
    pthread_mutex_unlock(&live_lock);
}

void shmpi_core_live_made(enum shmpi_core_live_kind kind, const void *obj,
                          const char *fn, const char *name)
{
    add(kind, (struct live_one){obj, fn, name, -1});
}

void shmpi_core_live_made_sized(enum shmpi_core_live_kind kind,
                                const void *obj, const char *fn, int size)
{
    add(kind, (struct live_one){obj, fn, NULL, size});
}

void shmpi_core_live_freed(enum shmpi_core_live_kind kind, const void *obj)
{
    struct live_list *l = &lists[kind];
    pthread_mutex_lock(&live_lock);
    for (long i = l->n - 1; i >= 0; i--)
        if (l->at[i].obj == obj) {
            memmove(&l->at[i], &l->at[i + 1],
                    (size_t)(l->n - i - 1) * sizeof l->at[0]);
            l->n--;
            break;
        }
    pthread_mutex_unlock(&live_lock);
}

/* The calls that made l's objects, in the order they first made one:
   "MPI_Comm_dup (2), MPI_Comm_split (1)", the first MAKERS of them. */
#define MAKERS 4
static void makers(const struct live_list *l, char *buf, size_t len)
{
    const char *fn[MAKERS];
    long count[MAKERS] = {0};
    int n = 0, more = 0;
    for (long i = 0; i < l->n; i++) {
        int k = 0;
        while (k < n && strcmp(fn[k], l->at[i].fn) != 0)
            k++;
        if (k == n && n == MAKERS) {
            more = 1;
            continue;
        }
        if (k == n)
            fn[n++] = l->at[i].fn;
        count[k]++;
    }
    size_t at = 0;
    buf[0] = 0;
    for (int k = 0; k < n && at < len; k++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s (%ld)",
                               k ? ", " : "", fn[k], count[k]);
    if (more && at < len)
        snprintf(buf + at, len - at, ", ...");
}

/* ", the first named "halo"", ", the first of size 4", or nothing */
static void first(const struct live_one *o, char *buf, size_t len)
{
    if (o->name && o->name[0])
        snprintf(buf, len, ", the first named \"%s\"", o->name);
    else if (o->size >= 0)
        snprintf(buf, len, ", the first of size %d", o->size);
    else
        buf[0] = 0;
}

static void report(enum shmpi_core_live_kind kind)
{
    struct live_list *l = &lists[kind];
    long n = l->n + lost[kind];
    if (!n)
        return;
    if (!l->n) {
        shmpi_core_check_report(kinds[kind].what, "8.7", kinds[kind].fix,
                                "%ld at MPI_Finalize", n);
        return;
    }
    char by[4 * 48], what[MPI_MAX_OBJECT_NAME + 32];
    makers(l, by, sizeof by);
    first(&l->at[0], what, sizeof what);
    shmpi_core_check_report(kinds[kind].what, "8.7", kinds[kind].fix,
                            "%ld at MPI_Finalize, made by %s%s", n, by,
                            what);
}

void shmpi_core_live_report(void)
{
    pthread_mutex_lock(&live_lock);
    for (int k = 0; k < SHMPI_LIVE_KINDS; k++) {
        report(k);
        free(lists[k].at);
        lists[k] = (struct live_list){0};
        lost[k] = 0;
    }
    pthread_mutex_unlock(&live_lock);
}
