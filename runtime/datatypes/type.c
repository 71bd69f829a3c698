/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * type.c - the life of a derived datatype: allocation, references,
 * MPI_Type_commit and MPI_Type_free (MPI-3.1 4.1.9).
 *
 * A derived type is referenced by the program's handle, by every type
 * built from it (its map and its contents) and by every operation in
 * flight that uses it; it is destroyed when the last reference goes.  So
 * MPI_Type_free of a type that a parent or a pending send still uses only
 * drops the handle, which is the "as if passed by value" behaviour of
 * 4.1.9.  Attribute delete callbacks run when the type is destroyed; when
 * MPI_Type_free drops the last reference they run inside it, so that a
 * failing callback is reported by MPI_Type_free.  Predefined types are
 * static objects: references to them are not counted.
 */
#include <stdlib.h>

#include "core/attr.h"
#include "core/check.h"
#include "core/error.h"
#include "core/fint.h"
#include "core/live.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/ref.h"
#include "datatypes/derived.h"

SHMPI_WEAK_ALIAS(Type_commit)
SHMPI_WEAK_ALIAS(Type_free)

int shmpi_dt_check_arg(MPI_Datatype t, const char *fn, const char *what)
{
    if (!shmpi_datatype_ok(t))
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_TYPE, fn,
                           "%s is not a valid datatype%s", what,
                           t == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)"
                                                  : "");
    return MPI_SUCCESS;
}

int shmpi_dt_check_oldtype(MPI_Datatype t, const char *fn, const char *what)
{
    int rc = shmpi_dt_check_arg(t, fn, what);
    if (rc == MPI_SUCCESS && t->handle_sync)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_TYPE, fn,
                           "%s is " SHMPI_HANDLE_SYNC_RULE, what);
    return rc;
}

MPI_Datatype shmpi_dt_alloc(int combiner)
{
    MPI_Datatype t = calloc(1, sizeof *t);
    if (t) {
        t->magic = SHMPI_MAGIC_DATATYPE;
        atomic_init(&t->refs, 1); /* not yet shared */
        t->combiner = combiner;
    }
    return t;
}

void shmpi_dt_retain(MPI_Datatype t)
{
    if (!t->predefined)
        shmpi_core_ref_inc(&t->refs);
}

static void release_children(struct shmpi_dt_blocks *map)
{
    if (map->children) {
        for (MPI_Count i = 0; i < map->n; i++)
            shmpi_dt_release(map->children[i]);
    } else if (map->child) {
        shmpi_dt_release(map->child);
    }
    free(map->disps);
    free(map->blocklens);
    free(map->children);
}

static void destroy(MPI_Datatype t)
{
    /* Nobody to report a failing callback to here: MPI_Type_free ran
       them already if it dropped the last reference. */
    shmpi_attr_delete_all(&t->attrs, t);
    release_children(&t->map);
    shmpi_dt_free_contents(t->contents);
    struct shmpi_flat *flat =
        atomic_load_explicit(&t->flat, memory_order_relaxed);
    if (flat) /* relaxed: the last reference's acquire ordered it */
        shmpi_dt_flat_free(flat);
    shmpi_fint_drop(SHMPI_FINT_DATATYPE, &t->fint);
    t->magic = 0;
    free(t);
}

void shmpi_dt_release(MPI_Datatype t)
{
    if (!t->predefined && shmpi_core_ref_dec(&t->refs))
        destroy(t);
}

/* The INOUT handle of commit and free: a pointer to a datatype. */
static int check_handle(const char *fn, const MPI_Datatype *datatype)
{
    if (!datatype)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "datatype is NULL");
    return shmpi_dt_check_arg(*datatype, fn, "*datatype");
}

int PMPI_Type_commit(MPI_Datatype *datatype)
{
    static const char fn[] = "MPI_Type_commit";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_handle(fn, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Datatype t = *datatype;
    /* predefined types are born committed; another thread may be
       committing t too: shmpi_dt_compile returns once t is committed */
    rc = shmpi_dt_compile(t);
    if (rc != MPI_SUCCESS)
        return shmpi_raise(MPI_COMM_NULL, rc, fn,
                           "cannot compile the datatype");
    return MPI_SUCCESS;
}

int PMPI_Type_free(MPI_Datatype *datatype)
{
    static const char fn[] = "MPI_Type_free";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_handle(fn, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Datatype t = *datatype;
    if (t->predefined)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_TYPE, fn,
                           "%s is predefined and cannot be freed", t->name);
    if (shmpi_core_ref_count(&t->refs) == 1)
        rc = shmpi_attr_delete_all(&t->attrs, t);
    *datatype = MPI_DATATYPE_NULL;
    if (__builtin_expect(shmpi_core_checking(), 0))
        shmpi_core_live_freed(SHMPI_LIVE_TYPE, t);
    shmpi_dt_release(t);
    if (rc != MPI_SUCCESS)
        return shmpi_raise(MPI_COMM_NULL, rc, fn,
                           "an attribute delete callback returned %d "
                           "(the type is freed all the same)", rc);
    return MPI_SUCCESS;
}
