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
#include <stdlib.h>
#include <string.h>

#include "core/check.h"

struct live_one {
    const void *obj;
    const char *fn;
    const char *name;
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

void shmpi_core_live_made(enum shmpi_core_live_kind kind, const void *obj,
                          const char *fn, const char *name)
{
    struct live_list *l = &lists[kind];
    pthread_mutex_lock(&live_lock);
    if (l->n < l->cap || grow(l))
        l->at[l->n++] = (struct live_one){obj, fn, name};
    else
        lost[kind]++;
    pthread_mutex_unlock(&live_lock);
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
    const struct live_one *o = &l->at[0];
    int named = o->name && o->name[0];
    shmpi_core_check_report(kinds[kind].what, "8.7", kinds[kind].fix,
                            "%ld at MPI_Finalize, the first made by %s%s%s%s",
                            n, o->fn, named ? " and named \"" : "",
                            named ? o->name : "", named ? "\"" : "");
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
