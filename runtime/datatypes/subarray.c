/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * subarray.c - MPI_Type_create_subarray and MPI_Type_create_darray
 * (MPI-3.1 4.1.3, 4.1.4), and their large-count forms (_c, MPI-4.0:
 * MPI_Count sizes, subsizes, starts and gsizes; one code for both).
 *
 * Both describe a piece of an n-dimensional array of oldtype elements
 * and are built one dimension at a time, fastest first (the last for
 * MPI_ORDER_C, the first for MPI_ORDER_FORTRAN), from hidden regular
 * nodes: a dimension costs a few words whatever its size, so the compiled
 * form stays small.  The hidden nodes are never handed out; the returned
 * type keeps the program's arguments for MPI_Type_get_contents.
 *
 * Both types span the whole array: lb 0, extent the product of the sizes
 * times the extent of oldtype.
 *
 * darray follows the standard's construction: in every dimension a
 * process owns the blocks r, r + p, r + 2p, ... of length darg (block
 * cyclic; BLOCK is the case of at most one block each, NONE that of one
 * process owning the whole dimension), where r is its coordinate in the
 * row-major process grid, and the node for the dimension is given the
 * bounds of the whole dimension so that the next one strides over it.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/derived.h"

SHMPI_WEAK_ALIAS(Type_create_subarray)
SHMPI_WEAK_ALIAS(Type_create_darray)
SHMPI_WEAK_ALIAS(Type_create_subarray_c)
SHMPI_WEAK_ALIAS(Type_create_darray_c)

static int check_order(const char *fn, int order)
{
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "order is %d, not MPI_ORDER_C or "
                           "MPI_ORDER_FORTRAN", order);
    return MPI_SUCCESS;
}

static int check_ndims(const char *fn, int ndims, int ints_per_dim,
                       int fixed)
{
    if (ndims < 1)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_DIMS, fn,
                           "ndims is %d", ndims);
    if (ndims > (INT_MAX - fixed) / ints_per_dim)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_DIMS, fn,
                           "ndims %d: too many dimensions to describe in "
                           "MPI_Type_get_contents", ndims);
    return MPI_SUCCESS;
}

static int raise_arg(const char *fn, const char *what, int dim,
                     MPI_Count value)
{
    return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn, "%s[%d] is %lld",
                       what, dim, (long long)value);
}

/* An int form's array of n ints as MPI_Counts (malloc'd; NULL when
   in is, or out of memory: *failed). */
static MPI_Count *widen(const int *in, int n, int *failed)
{
    MPI_Count *out = in ? malloc((size_t)n * sizeof *out) : NULL;
    *failed |= in && !out;
    for (int i = 0; out && i < n; i++)
        out[i] = in[i];
    return out;
}

/* The i-th dimension in the order the array is laid out, fastest first. */
static int dim_at(int i, int ndims, int order)
{
    return order == MPI_ORDER_C ? ndims - 1 - i : i;
}

/* extent * product of sizes[]: the extent of both types. */
static int array_extent(const char *fn, int ndims, const MPI_Count *sizes,
                        MPI_Aint extent, MPI_Aint *total)
{
    *total = extent;
    for (int d = 0; d < ndims; d++)
        if (__builtin_mul_overflow(*total, (MPI_Aint)sizes[d], total))
            return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                               "the array's extent overflows MPI_Aint");
    return MPI_SUCCESS;
}

static int raise_build(const char *fn, int rc)
{
    return shmpi_raise(MPI_COMM_NULL, rc, fn, "%s",
                       rc == MPI_ERR_NO_MEM
                           ? "out of memory"
                           : "a displacement or size overflows");
}

/* ----------------------------------------------------------- subarray */

static int check_subarray(const char *fn, int ndims, const MPI_Count *sizes,
                          const MPI_Count *subsizes, const MPI_Count *starts)
{
    if (!sizes || !subsizes || !starts)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "an array argument is NULL");
    for (int d = 0; d < ndims; d++) {
        if (sizes[d] < 1)
            return raise_arg(fn, "array_of_sizes", d, sizes[d]);
        if (subsizes[d] < 1 || subsizes[d] > sizes[d])
            return raise_arg(fn, "array_of_subsizes", d, subsizes[d]);
        if (starts[d] < 0 || starts[d] > sizes[d] - subsizes[d])
            return raise_arg(fn, "array_of_starts", d, starts[d]);
    }
    return MPI_SUCCESS;
}

/* The selected elements, as nested hidden vectors (*top), and the
   displacement of the first one (*disp). */
static int subarray_nodes(int ndims, const MPI_Count *sizes,
                          const MPI_Count *subsizes, const MPI_Count *starts,
                          int order, MPI_Datatype old, MPI_Datatype *top,
                          MPI_Aint *disp)
{
    MPI_Aint stride = old->extent;   /* of the current dimension */
    MPI_Datatype cur = old;
    *disp = 0;
    shmpi_dt_retain(cur);
    for (int i = 0; i < ndims; i++) {
        int d = dim_at(i, ndims, order);
        struct shmpi_dt_blocks m =
            i == 0 ? shmpi_dt_regular(1, subsizes[d], 0, 0, cur)
                   : shmpi_dt_regular(subsizes[d], 1, 0, stride, cur);
        MPI_Datatype next;
        int rc = shmpi_dt_build(MPI_COMBINER_HVECTOR, m, &next);
        shmpi_dt_release(cur);
        if (rc != MPI_SUCCESS)
            return rc;
        cur = next;
        *disp += starts[d] * stride;     /* within the array: no overflow */
        stride *= sizes[d];
    }
    *top = cur;
    return MPI_SUCCESS;
}

/* The arguments, as the int form (ints) or the _c form (ndims and
   order ints, the arrays large counts: MPI-4.0) gave them. */
struct subarray_args {
    int ndims;
    const MPI_Count *sizes, *subsizes, *starts;   /* as MPI_Counts */
    const int *isizes, *isubsizes, *istarts;      /* the int form's */
    int order;
};

static void subarray_contents(MPI_Datatype t, const struct subarray_args *a)
{
    int n = a->ndims;
    int *ints = t->contents->ints;
    ints[0] = n;
    if (t->contents->ncounts) {
        MPI_Count *c = t->contents->counts;
        memcpy(c, a->sizes, (size_t)n * sizeof *c);
        memcpy(c + n, a->subsizes, (size_t)n * sizeof *c);
        memcpy(c + 2 * n, a->starts, (size_t)n * sizeof *c);
        ints[1] = a->order;
        return;
    }
    memcpy(ints + 1, a->isizes, (size_t)n * sizeof *ints);
    memcpy(ints + 1 + n, a->isubsizes, (size_t)n * sizeof *ints);
    memcpy(ints + 1 + 2 * n, a->istarts, (size_t)n * sizeof *ints);
    ints[1 + 3 * n] = a->order;
}

static int subarray(const char *fn, const struct subarray_args *a,
                    MPI_Datatype oldtype, MPI_Datatype *newtype, int large)
{
    int rc, ndims = a->ndims;
    MPI_Aint extent, disp;
    if ((rc = check_subarray(fn, ndims, a->sizes, a->subsizes,
                             a->starts)) != MPI_SUCCESS ||
        (rc = check_order(fn, a->order)) != MPI_SUCCESS ||
        (rc = shmpi_dt_check_oldtype(oldtype, fn, "oldtype")) != MPI_SUCCESS)
        return rc;
    if (!newtype)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "newtype is NULL");
    if ((rc = array_extent(fn, ndims, a->sizes, oldtype->extent, &extent)) !=
        MPI_SUCCESS)
        return rc;
    MPI_Datatype top, t;
    rc = subarray_nodes(ndims, a->sizes, a->subsizes, a->starts, a->order,
                        oldtype, &top, &disp);
    if (rc != MPI_SUCCESS)
        return raise_build(fn, rc);
    rc = shmpi_dt_make(fn, MPI_COMBINER_SUBARRAY,
                       shmpi_dt_regular(1, 1, disp, 0, top),
                       large ? 2 : 3 * ndims + 2, 0, large ? 3 * ndims : 0, 1,
                       &oldtype, &t);
    shmpi_dt_release(top);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_dt_set_bounds(t, 0, extent);   /* cannot overflow: checked */
    subarray_contents(t, a);
    *newtype = t;
    return MPI_SUCCESS;
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                              const int array_of_subsizes[],
                              const int array_of_starts[], int order,
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_subarray";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_ndims(fn, ndims, 3, 2), failed = 0;
    if (rc != MPI_SUCCESS)
        return rc;
    struct subarray_args a = {
        ndims, widen(array_of_sizes, ndims, &failed),
        widen(array_of_subsizes, ndims, &failed),
        widen(array_of_starts, ndims, &failed), array_of_sizes,
        array_of_subsizes, array_of_starts, order};
    rc = failed ? shmpi_raise(MPI_COMM_NULL, MPI_ERR_NO_MEM, fn,
                              "out of memory")
                : subarray(fn, &a, oldtype, newtype, 0);
    free((void *)a.sizes);
    free((void *)a.subsizes);
    free((void *)a.starts);
    return rc;
}

int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order,
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_subarray_c";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_ndims(fn, ndims, 3, 2);
    if (rc != MPI_SUCCESS)
        return rc;
    struct subarray_args a = {ndims, array_of_sizes, array_of_subsizes,
                              array_of_starts, NULL, NULL, NULL, order};
    return subarray(fn, &a, oldtype, newtype, 1);
}

/* ------------------------------------------------------------- darray */

/* gsizes as MPI_Counts; igsizes: the int form's (MPI-4.0's _c form
   keeps its gsizes as large counts). */
struct darray_args {
    int size, rank, ndims;
    const MPI_Count *gsizes;
    const int *distribs, *dargs, *psizes;
    int order;
    const int *igsizes;
};

static int check_darray_dim(const char *fn, const struct darray_args *a,
                            int d)
{
    MPI_Count g = a->gsizes[d];
    int dist = a->distribs[d], darg = a->dargs[d];
    int p = a->psizes[d];
    if (g < 1)
        return raise_arg(fn, "array_of_gsizes", d, g);
    if (p < 1)
        return raise_arg(fn, "array_of_psizes", d, p);
    if (dist != MPI_DISTRIBUTE_BLOCK && dist != MPI_DISTRIBUTE_CYCLIC &&
        dist != MPI_DISTRIBUTE_NONE)
        return raise_arg(fn, "array_of_distribs", d, dist);
    if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg < 1)
        return raise_arg(fn, "array_of_dargs", d, darg);
    if (dist == MPI_DISTRIBUTE_NONE && p != 1)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "dimension %d is MPI_DISTRIBUTE_NONE but has "
                           "%d processes (must be 1)", d, p);
    if (dist == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG &&
        (long long)darg * p < g)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "dimension %d: %d blocks of %d cannot hold %lld "
                           "elements", d, p, darg, (long long)g);
    return MPI_SUCCESS;
}

static int check_darray(const char *fn, const struct darray_args *a)
{
    if (a->size < 1)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn, "size is %d",
                           a->size);
    if (a->rank < 0 || a->rank >= a->size)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "rank %d is not in [0, %d)", a->rank, a->size);
    int rc;
    if (!a->gsizes || !a->distribs || !a->dargs || !a->psizes)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "an array argument is NULL");
    long long procs = 1;
    for (int d = 0; d < a->ndims; d++) {
        if ((rc = check_darray_dim(fn, a, d)) != MPI_SUCCESS)
            return rc;
        if (procs <= a->size)
            procs *= a->psizes[d];
    }
    if (procs != a->size)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "the product of array_of_psizes is not size "
                           "(%d)", a->size);
    return check_order(fn, a->order);
}

/* full (one copy, at d0) followed by tail copies of cur at d1. */
static int two_blocks(MPI_Datatype full, MPI_Aint d0, MPI_Datatype cur,
                      MPI_Count tail, MPI_Aint d1, MPI_Datatype *out)
{
    struct shmpi_dt_blocks m = {.n = 2};
    m.disps = malloc(2 * sizeof *m.disps);
    m.blocklens = malloc(2 * sizeof *m.blocklens);
    m.children = malloc(2 * sizeof *m.children);
    if (!m.disps || !m.blocklens || !m.children) {
        free(m.disps);
        free(m.blocklens);
        free(m.children);
        return MPI_ERR_NO_MEM;
    }
    m.disps[0] = d0;
    m.disps[1] = d1;
    m.blocklens[0] = 1;
    m.blocklens[1] = tail;
    m.children[0] = full;
    m.children[1] = cur;
    return shmpi_dt_build(MPI_COMBINER_STRUCT, m, out);
}

/* One dimension: the blocks of `blk` elements (the last one of the
   dimension maybe shorter) that coordinate r of p owns among g elements
   of cur, cur_extent bytes apart; bounds [0, g * cur_extent). */
static int cyclic_node(MPI_Count g, MPI_Count blk, int p, int r,
                       MPI_Datatype cur, MPI_Aint cur_extent,
                       MPI_Datatype *out)
{
    MPI_Count nblocks = (g + blk - 1) / blk;
    MPI_Count count = r < nblocks ? (nblocks - 1 - r) / p + 1 : 0;
    int short_last = count > 0 && r + (count - 1) * p == nblocks - 1 &&
                     g % blk != 0;
    MPI_Count tail = short_last ? g - (nblocks - 1) * blk : blk;
    MPI_Aint stride, first, last, dim_extent;
    MPI_Aint pblk, rblk;
    if (__builtin_mul_overflow((MPI_Aint)p, blk, &pblk) ||
        __builtin_mul_overflow((MPI_Aint)r, blk, &rblk) ||
        __builtin_mul_overflow(pblk, cur_extent, &stride) ||
        __builtin_mul_overflow(rblk, cur_extent, &first) ||
        __builtin_mul_overflow((MPI_Aint)g, cur_extent, &dim_extent) ||
        __builtin_mul_overflow((MPI_Aint)(count > 0 ? count - 1 : 0), stride,
                               &last) ||
        __builtin_add_overflow(last, first, &last))
        return MPI_ERR_ARG;
    int rc;
    if (!short_last || count == 1) {
        rc = shmpi_dt_build(MPI_COMBINER_HVECTOR,
                            shmpi_dt_regular(count, count == 1 ? tail : blk,
                                             first, stride, cur),
                            out);
    } else {
        MPI_Datatype full;
        rc = shmpi_dt_build(MPI_COMBINER_HVECTOR,
                            shmpi_dt_regular(count - 1, blk, 0, stride, cur),
                            &full);
        if (rc != MPI_SUCCESS)
            return rc;
        rc = two_blocks(full, first, cur, tail, last, out);
        shmpi_dt_release(full);
    }
    if (rc == MPI_SUCCESS)
        shmpi_dt_set_bounds(*out, 0, dim_extent);
    return rc;
}

/* The block length of dimension d and the process count/coordinate it
   is distributed over (NONE: one process owning everything). */
static void dim_distribution(const struct darray_args *a, int d,
                             int coord, MPI_Count *blk, int *p, int *r)
{
    MPI_Count g = a->gsizes[d];
    int darg = a->dargs[d];
    *p = a->psizes[d];
    *r = coord;
    switch (a->distribs[d]) {
    case MPI_DISTRIBUTE_NONE:
        *blk = g;
        *p = 1;
        *r = 0;
        break;
    case MPI_DISTRIBUTE_BLOCK:
        /* ceil(g / p) */
        *blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + *p - 1) / *p : darg;
        break;
    default: /* MPI_DISTRIBUTE_CYCLIC */
        *blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        break;
    }
}

/* This process's coordinate in dimension d of the row-major grid. */
static int grid_coord(const struct darray_args *a, int d)
{
    int rank = a->rank, procs = a->size;
    for (int i = 0; i <= d; i++) {
        procs /= a->psizes[i];
        if (i < d)
            rank %= procs;
    }
    return rank / procs;
}

static int darray_nodes(const struct darray_args *a, MPI_Datatype old,
                        MPI_Datatype *top)
{
    MPI_Datatype cur = old;
    MPI_Aint extent = old->extent;        /* of cur */
    shmpi_dt_retain(cur);
    for (int i = 0; i < a->ndims; i++) {
        int d = dim_at(i, a->ndims, a->order), p, r;
        MPI_Count blk;
        dim_distribution(a, d, grid_coord(a, d), &blk, &p, &r);
        MPI_Datatype next;
        int rc = cyclic_node(a->gsizes[d], blk, p, r, cur, extent, &next);
        shmpi_dt_release(cur);
        if (rc != MPI_SUCCESS)
            return rc;
        cur = next;
        extent = next->extent;
    }
    *top = cur;
    return MPI_SUCCESS;
}

/* size, rank, ndims, gsizes (ints, or large counts apart: the _c
   form), distribs, dargs, psizes, order. */
static void darray_contents(MPI_Datatype t, const struct darray_args *a)
{
    int *ints = t->contents->ints, n = a->ndims;
    ints[0] = a->size;
    ints[1] = a->rank;
    ints[2] = n;
    ints += 3;
    if (t->contents->ncounts) {
        memcpy(t->contents->counts, a->gsizes,
               (size_t)n * sizeof *t->contents->counts);
    } else {
        memcpy(ints, a->igsizes, (size_t)n * sizeof *ints);
        ints += n;
    }
    memcpy(ints, a->distribs, (size_t)n * sizeof *ints);
    memcpy(ints + n, a->dargs, (size_t)n * sizeof *ints);
    memcpy(ints + 2 * n, a->psizes, (size_t)n * sizeof *ints);
    ints[3 * n] = a->order;
}

static int darray(const char *fn, const struct darray_args *a,
                  MPI_Datatype oldtype, MPI_Datatype *newtype, int large)
{
    MPI_Aint extent;
    int rc, ndims = a->ndims;
    if ((rc = check_darray(fn, a)) != MPI_SUCCESS ||
        (rc = shmpi_dt_check_oldtype(oldtype, fn, "oldtype")) != MPI_SUCCESS)
        return rc;
    if (!newtype)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "newtype is NULL");
    if ((rc = array_extent(fn, ndims, a->gsizes, oldtype->extent,
                           &extent)) != MPI_SUCCESS)
        return rc;
    MPI_Datatype top, t;
    if ((rc = darray_nodes(a, oldtype, &top)) != MPI_SUCCESS)
        return raise_build(fn, rc);
    rc = shmpi_dt_make(fn, MPI_COMBINER_DARRAY,
                       shmpi_dt_regular(1, 1, 0, 0, top),
                       large ? 3 * ndims + 4 : 4 * ndims + 4, 0,
                       large ? ndims : 0, 1, &oldtype, &t);
    shmpi_dt_release(top);
    if (rc != MPI_SUCCESS)
        return rc;
    darray_contents(t, a);
    *newtype = t;
    return MPI_SUCCESS;
}

int PMPI_Type_create_darray(int size, int rank, int ndims,
                            const int array_of_gsizes[],
                            const int array_of_distribs[],
                            const int array_of_dargs[],
                            const int array_of_psizes[], int order,
                            MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_darray";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_ndims(fn, ndims, 4, 4), failed = 0;
    if (rc != MPI_SUCCESS)
        return rc;
    struct darray_args a = {size, rank, ndims,
                            widen(array_of_gsizes, ndims, &failed),
                            array_of_distribs, array_of_dargs,
                            array_of_psizes, order, array_of_gsizes};
    rc = failed ? shmpi_raise(MPI_COMM_NULL, MPI_ERR_NO_MEM, fn,
                              "out of memory")
                : darray(fn, &a, oldtype, newtype, 0);
    free((void *)a.gsizes);
    return rc;
}

int PMPI_Type_create_darray_c(int size, int rank, int ndims,
                              const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[],
                              const int array_of_dargs[],
                              const int array_of_psizes[], int order,
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_darray_c";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_ndims(fn, ndims, 4, 4);
    if (rc != MPI_SUCCESS)
        return rc;
    struct darray_args a = {size, rank, ndims, array_of_gsizes,
                            array_of_distribs, array_of_dargs,
                            array_of_psizes, order, NULL};
    return darray(fn, &a, oldtype, newtype, 1);
}
