/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * f90.c - MPI_Type_create_f90_integer, _real and _complex (MPI-3.1
 * 17.1.9.1): the predefined type of the Fortran kind that
 * SELECTED_INT_KIND(r) or SELECTED_REAL_KIND(p, r) would choose.
 *
 * The kinds are gfortran's on this platform, as for the other Fortran
 * types (predefined.c), limited to those shmpi has a type for: integers
 * of 1, 2, 4, 8 and 16 bytes, whose decimal ranges (Fortran's RANGE) are
 * 2, 4, 9, 18 and 38; reals float, double and long double (MPI_REAL4,
 * MPI_REAL8, MPI_REAL16 - shmpi's REAL16 is the x87 long double), whose
 * PRECISION is FLT_DIG, DBL_DIG and LDBL_DIG (6, 15, 18) and whose RANGE
 * is min(MAX_10_EXP, -MIN_10_EXP) (37, 307, 4931); complexes pairs of
 * them.  The first kind that is wide enough is the one: as in Fortran,
 * a negative p or r asks for nothing, and MPI_UNDEFINED leaves p or r
 * out (not both).
 *
 * The result behaves as its base type (MPI_REAL8, ...) everywhere - it
 * is one element of it - but is its own object, because
 * MPI_Type_get_envelope must tell MPI_COMBINER_F90_REAL and the (p, r)
 * it was made from.  It is predefined, so MPI_Type_free refuses it, and
 * the same (combiner, p, r) always returns the same handle, as the
 * standard advises: the types are kept for the life of the process
 * (shmpi_proc.f90_types), never freed, like the other predefined types.
 *
 * Threads (MPI_THREAD_MULTIPLE): the list is searched and grown under
 * shmpi_proc.f90_lock.  A new type is built with the lock left (building
 * may raise, and the error handler is the program's code); two threads
 * asking for the same new kind at once both build one, and the one that
 * finds the other's in the list when it comes back drops its own, so
 * each (combiner, p, r) still has one handle.
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/lock.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/derived.h"

SHMPI_WEAK_ALIAS(Type_create_f90_integer)
SHMPI_WEAK_ALIAS(Type_create_f90_real)
SHMPI_WEAK_ALIAS(Type_create_f90_complex)

#define RANGE(F) ((F##_MAX_10_EXP) < -(F##_MIN_10_EXP) ? (F##_MAX_10_EXP) \
                                                       : -(F##_MIN_10_EXP))

static const struct {
    int range;
    MPI_Datatype type;
} integers[] = {
    {2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4},
    {18, MPI_INTEGER8}, {38, MPI_INTEGER16},
};

static const struct {
    int precision, range;
    MPI_Datatype real, complex;
} reals[] = {
    {FLT_DIG, RANGE(FLT), MPI_REAL4, MPI_COMPLEX8},
    {DBL_DIG, RANGE(DBL), MPI_REAL8, MPI_COMPLEX16},
    {LDBL_DIG, RANGE(LDBL), MPI_REAL16, MPI_COMPLEX32},
};
enum { NREALS = sizeof reals / sizeof reals[0] };

/* The type made before from the same arguments, or NULL; with f90_lock
   held. */
static MPI_Datatype find(int combiner, int p, int r)
{
    for (int i = 0; i < shmpi_proc.nf90_types; i++) {
        MPI_Datatype t = shmpi_proc.f90_types[i];
        const int *a = t->contents->ints;
        if (t->combiner == combiner &&
            (combiner == MPI_COMBINER_F90_INTEGER ? a[0] == r
                                                  : a[0] == p && a[1] == r))
            return t;
    }
    return NULL;
}

static void describe(char *out, size_t len, int v)
{
    if (v == MPI_UNDEFINED)
        snprintf(out, len, "MPI_UNDEFINED");
    else
        snprintf(out, len, "%d", v);
}

/* The call that made it, which MPI_Type_get_name tells: the types have
   no constant of their own to be named after. */
static void set_name(MPI_Datatype t, int p, int r)
{
    char sp[16], sr[16];
    describe(sp, sizeof sp, p);
    describe(sr, sizeof sr, r);
    if (t->combiner == MPI_COMBINER_F90_INTEGER)
        snprintf(t->name, sizeof t->name, "MPI_Type_create_f90_integer(%s)",
                 sr);
    else
        snprintf(t->name, sizeof t->name, "MPI_Type_create_f90_%s(%s, %s)",
                 t->combiner == MPI_COMBINER_F90_REAL ? "real" : "complex",
                 sp, sr);
}

/* The type of (combiner, p, r) if the list has it, else NULL. */
static MPI_Datatype lookup(int combiner, int p, int r)
{
    shmpi_core_lock(&shmpi_proc.f90_lock);
    MPI_Datatype t = find(combiner, p, r);
    shmpi_core_unlock(&shmpi_proc.f90_lock);
    return t;
}

/* t, just built, goes into the list, unless another thread has put the
   same kind there meanwhile: then *newtype is that one and t is
   dropped.  MPI_SUCCESS or MPI_ERR_NO_MEM (not raised). */
static int publish(MPI_Datatype t, int p, int r, MPI_Datatype *newtype)
{
    int rc = MPI_SUCCESS;
    shmpi_core_lock(&shmpi_proc.f90_lock);
    MPI_Datatype had = find(t->combiner, p, r);
    MPI_Datatype *list = had ? NULL
                             : realloc(shmpi_proc.f90_types,
                                       (size_t)(shmpi_proc.nf90_types + 1) *
                                           sizeof *list);
    if (list) {
        t->predefined = 1;  /* only now: a dropped t is released */
        shmpi_proc.f90_types = list;
        list[shmpi_proc.nf90_types++] = t;
    } else if (!had) {
        rc = MPI_ERR_NO_MEM;
    }
    shmpi_core_unlock(&shmpi_proc.f90_lock);
    if (had || rc != MPI_SUCCESS)
        shmpi_dt_release(t);
    if (rc == MPI_SUCCESS)
        *newtype = had ? had : t;
    return rc;
}

/* One element of base, predefined, with (p, r) as its contents. */
static int make(const char *fn, int combiner, int p, int r,
                MPI_Datatype base, MPI_Datatype *newtype)
{
    MPI_Datatype t = lookup(combiner, p, r);
    if (t) {
        *newtype = t;
        return MPI_SUCCESS;
    }
    int is_int = combiner == MPI_COMBINER_F90_INTEGER;
    int rc = shmpi_dt_make(fn, combiner, shmpi_dt_regular(1, 1, 0, 0, base),
                           is_int ? 1 : 2, 0, 0, 0, NULL, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if (is_int) {
        t->contents->ints[0] = r;
    } else {
        t->contents->ints[0] = p;
        t->contents->ints[1] = r;
    }
    if ((rc = shmpi_dt_compile(t)) != MPI_SUCCESS) {
        shmpi_dt_release(t);
        return shmpi_raise(MPI_COMM_NULL, rc, fn, "out of memory");
    }
    t->committed = 1;
    set_name(t, p, r);
    if (publish(t, p, r, newtype) != MPI_SUCCESS)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_NO_MEM, fn,
                           "out of memory");
    return MPI_SUCCESS;
}

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_f90_integer";
    SHMPI_REQUIRE_INIT(fn);
    if (!newtype)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn, "newtype is NULL");
    if (r == MPI_UNDEFINED)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "r is MPI_UNDEFINED: an integer kind needs a "
                           "range");
    for (size_t i = 0; i < sizeof integers / sizeof integers[0]; i++)
        if (r <= integers[i].range)
            return make(fn, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r,
                        integers[i].type, newtype);
    return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                       "no integer kind has a range of %d decimal digits "
                       "(at most 38: INTEGER*16)", r);
}

/* The first real kind with p digits and a range of r, or -1. */
static int real_kind(int p, int r)
{
    int pp = p == MPI_UNDEFINED ? 0 : p, rr = r == MPI_UNDEFINED ? 0 : r;
    for (int i = 0; i < NREALS; i++)
        if (pp <= reals[i].precision && rr <= reals[i].range)
            return i;
    return -1;
}

static int create_real(const char *fn, int combiner, int p, int r,
                       MPI_Datatype *newtype)
{
    SHMPI_REQUIRE_INIT(fn);
    if (!newtype)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn, "newtype is NULL");
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "p and r are both MPI_UNDEFINED: at most one of "
                           "them may be left out");
    int k = real_kind(p, r);
    if (k < 0) {
        char sp[16], sr[16];
        describe(sp, sizeof sp, p);
        describe(sr, sizeof sr, r);
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "no real kind has a precision of %s and a range "
                           "of %s decimal digits (at most %d and %d: "
                           "REAL*16, a long double)",
                           sp, sr, reals[NREALS - 1].precision,
                           reals[NREALS - 1].range);
    }
    MPI_Datatype base = combiner == MPI_COMBINER_F90_REAL ? reals[k].real
                                                          : reals[k].complex;
    return make(fn, combiner, p, r, base, newtype);
}

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return create_real("MPI_Type_create_f90_real", MPI_COMBINER_F90_REAL, p,
                       r, newtype);
}

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return create_real("MPI_Type_create_f90_complex",
                       MPI_COMBINER_F90_COMPLEX, p, r, newtype);
}
