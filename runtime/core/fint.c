/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fint.c - the tables of handle numbers (fint.h), and the conversions of
 * the two kinds of handles that live in core: error handlers and info
 * objects (MPI-3.1 17.2.4).
 *
 * Threads: each table's lock (fint.h) is taken by every function here
 * that touches the table; MPI_ERR_NO_MEM is raised after it is left
 * (the error handler is the program's code, which may convert handles).
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/fint.h"
#include "core/lock.h"
#include "core/objects.h"
#include "core/pmpi.h"
#include "core/proc.h"

SHMPI_WEAK_ALIAS(Errhandler_c2f)
SHMPI_WEAK_ALIAS(Errhandler_f2c)
SHMPI_WEAK_ALIAS(Info_c2f)
SHMPI_WEAK_ALIAS(Info_f2c)

/* A free index, from the given-back ones first; -1 without memory. */
static int take_index(struct shmpi_fint_table *t)
{
    if (t->nfree > 0)
        return t->free[--t->nfree];
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        void **obj = realloc(t->obj, (size_t)cap * sizeof *obj);
        if (!obj)
            return -1;
        t->obj = obj;
        int *fr = realloc(t->free, (size_t)cap * sizeof *fr);
        if (!fr)
            return -1;
        t->free = fr;
        t->cap = cap;
    }
    return t->n++;
}

/* With the table's lock held: the number of obj, or -1 without memory
   (*why says what ran out). */
static MPI_Fint number(const struct shmpi_fint_kind *k,
                       struct shmpi_fint_table *t, void *obj, int *fint,
                       const char **why)
{
    if (*fint)
        return *fint;
    for (int i = 1; i < k->npredefined; i++)
        if (k->predefined[i] == obj)
            return *fint = i;
    int i = take_index(t);
    *why = "out of memory for the table of Fortran handles";
    if (i < 0)
        return -1;
    if (i > INT32_MAX - k->npredefined) {  /* 2^31 live handles */
        t->free[t->nfree++] = i;
        *why = "every Fortran integer is in use";
        return -1;
    }
    t->base = k->npredefined;
    t->obj[i] = obj;
    return *fint = k->npredefined + i;
}

MPI_Fint shmpi_fint_of(const struct shmpi_fint_kind *k, void *obj,
                       int *fint, const char *fn)
{
    if (*fint && !shmpi_proc.mt)
        return *fint;
    struct shmpi_fint_table *t = &shmpi_proc.fint[k->id];
    const char *why = NULL;
    shmpi_core_lock(&t->lock);
    MPI_Fint f = number(k, t, obj, fint, &why);
    shmpi_core_unlock(&t->lock);
    return f >= 0 ? f : shmpi_fint_raise_bad(MPI_ERR_NO_MEM, fn, why);
}

void *shmpi_fint_object(const struct shmpi_fint_kind *k, MPI_Fint f)
{
    if (f < 0)
        return k->invalid;
    if (f < k->npredefined)
        return k->predefined[f];
    struct shmpi_fint_table *t = &shmpi_proc.fint[k->id];
    int i = f - k->npredefined;   /* f >= npredefined: no overflow */
    shmpi_core_lock(&t->lock);
    void *obj = i < t->n && t->obj[i] ? t->obj[i] : k->invalid;
    shmpi_core_unlock(&t->lock);
    return obj;
}

MPI_Fint shmpi_fint_raise_bad(int class, const char *fn, const char *what)
{
    shmpi_raise(MPI_COMM_WORLD, class, fn, "%s", what);
    return -1;
}

/* Only the program's objects have numbers to give back (a predefined
   object never dies); after MPI_Finalize the tables are empty. */
void shmpi_fint_forget(enum shmpi_fint_kind_id id, int *fint)
{
    struct shmpi_fint_table *t = &shmpi_proc.fint[id];
    shmpi_core_lock(&t->lock);
    int i = *fint - t->base;
    *fint = 0;
    if (t->base != 0 && i >= 0 && i < t->n && t->obj[i]) {
        t->obj[i] = NULL;
        t->free[t->nfree++] = i;
    }
    shmpi_core_unlock(&t->lock);
}

void shmpi_fint_finalize(void)
{
    for (int id = 0; id < SHMPI_FINT_KINDS; id++) {
        struct shmpi_fint_table *t = &shmpi_proc.fint[id];
        free(t->obj);
        free(t->free);
        *t = (struct shmpi_fint_table){0};
    }
}

/* ------------------------------------------------------------------ */
/* Error handlers and info objects                                     */
/* ------------------------------------------------------------------ */

static struct shmpi_errhandler invalid_errhandler;
static const struct shmpi_fint_kind errhandlers = {
    SHMPI_FINT_ERRHANDLER, 4,
    (void *const[]){MPI_ERRHANDLER_NULL, MPI_ERRORS_ARE_FATAL,
                    MPI_ERRORS_RETURN, MPI_ERRORS_ABORT},
    &invalid_errhandler};

MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler)
{
    static const char fn[] = "MPI_Errhandler_c2f";
    SHMPI_REQUIRE_INIT(fn);
    if (errhandler == MPI_ERRHANDLER_NULL)
        return 0;
    if (!shmpi_errhandler_ok(errhandler))
        return shmpi_fint_raise_bad(MPI_ERR_ARG, fn,
                                    "errhandler is not a valid error "
                                    "handler (freed, or never made)");
    return shmpi_fint_of(&errhandlers, errhandler, &errhandler->fint, fn);
}

MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler)
{
    SHMPI_REQUIRE_INIT("MPI_Errhandler_f2c");
    return shmpi_fint_object(&errhandlers, errhandler);
}

static struct shmpi_info invalid_info;
static const struct shmpi_fint_kind infos = {
    SHMPI_FINT_INFO, 2, (void *const[]){MPI_INFO_NULL, MPI_INFO_ENV},
    &invalid_info};

MPI_Fint PMPI_Info_c2f(MPI_Info info)
{
    static const char fn[] = "MPI_Info_c2f";
    SHMPI_REQUIRE_INIT(fn);
    if (info == MPI_INFO_NULL)
        return 0;
    if (!shmpi_info_ok(info))
        return shmpi_fint_raise_bad(MPI_ERR_INFO, fn,
                                    "info is not a valid info object "
                                    "(freed, or never made)");
    return shmpi_fint_of(&infos, info, &info->fint, fn);
}

MPI_Info PMPI_Info_f2c(MPI_Fint info)
{
    SHMPI_REQUIRE_INIT("MPI_Info_f2c");
    return shmpi_fint_object(&infos, info);
}
