/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * layout.c - size, bounds and extent of a derived type from its block
 * list, by the typemap definitions of MPI-3.1 4.1.6 - 4.1.8.
 *
 * A block of b copies of a child with extent e at displacement d puts
 * copy k at d + k * e; a regular list adds disp0 + i * stride on top.  So
 * a block's copies start anywhere in [lo, hi], and the new type's
 *   true_lb = min(lo + child true_lb), true_ub = max(hi + child true_ub)
 * over the children that hold data.  Bounds markers are "sticky"
 * (4.1.6): when any child carries an lb marker, lb = min(lo + child lb)
 * over the children so marked, and likewise ub = max(hi + child ub) over
 * those with an ub marker.  MPI_Type_create_resized gives a type both
 * markers; the MPI-1 pseudo-types MPI_LB and MPI_UB (MPI-2.2 4.1.6)
 * each give one, so a type may have one bound marked and the other
 * not.  Without an lb marker lb = true_lb; without an ub marker ub is
 * the end of the data, plus the epsilon that rounds the extent (ub -
 * lb) up to the largest alignment of the basic types, which is what a C
 * compiler gives a struct or an array of them.  (MPI-2.2 writes these
 * bounds as min and max over "the entries", but markers occupy no
 * space: the bound that no marker sets comes from the data, as in Open
 * MPI and MPICH, e.g. {MPI_UB at -8, int at 0} has lb 0 and extent -8.
 * MPI-2.2 puts the epsilon on ub even when lb is marked, as Open MPI
 * does: {MPI_LB at -4, double at 0} has extent 16; MPICH gives 12.)
 *
 * The epsilon is computed from the basic entries, as the standard
 * defines it, not from the children's padded extents: the two agree
 * whenever children sit at aligned displacements (every struct a C
 * compiler lays out) and differ only for misplaced ones, e.g. a
 * {double; char} at displacement 9, where Open MPI and MPICH each give
 * an answer of their own.
 *
 * Every product and sum is checked: a type whose size, nelems or bounds
 * do not fit MPI_Count / MPI_Aint is refused (MPI_ERR_ARG).
 */
#include "datatypes/derived.h"

struct acc {
    MPI_Count size, nelems;
    MPI_Aint true_lo, true_hi;       /* when has_data */
    MPI_Aint mark_lo;                /* when has_lb_mark */
    MPI_Aint mark_hi;                /* when has_ub_mark */
    MPI_Aint align;
    MPI_Datatype basic;              /* of the blocks seen so far */
    int seen, has_data, has_lb_mark, has_ub_mark, mixed, overflow;
};

#define OVF(expr) (a->overflow |= (expr))

static MPI_Aint min_aint(MPI_Aint x, MPI_Aint y) { return x < y ? x : y; }
static MPI_Aint max_aint(MPI_Aint x, MPI_Aint y) { return x > y ? x : y; }

/* Widens [*lo, *hi] by the spread of n steps: the first of n points
   step apart is at 0, the last at (n - 1) * step. */
static void spread(struct acc *a, MPI_Count n, MPI_Aint step, MPI_Aint *lo,
                   MPI_Aint *hi)
{
    MPI_Aint last;
    OVF(__builtin_mul_overflow(n - 1, step, &last));
    OVF(__builtin_add_overflow(*lo, min_aint(last, 0), lo));
    OVF(__builtin_add_overflow(*hi, max_aint(last, 0), hi));
}

/* `copies` copies of c whose origins lie in [lo, hi]. */
static void add_copies(struct acc *a, MPI_Datatype c, MPI_Count copies,
                       MPI_Aint lo, MPI_Aint hi)
{
    MPI_Count bytes, elems;
    MPI_Aint low, high;
    OVF(__builtin_mul_overflow(copies, c->size, &bytes));
    OVF(__builtin_add_overflow(a->size, bytes, &a->size));
    OVF(__builtin_mul_overflow(copies, c->nelems, &elems));
    OVF(__builtin_add_overflow(a->nelems, elems, &a->nelems));
    if (c->size > 0) {
        OVF(__builtin_add_overflow(lo, c->true_lb, &low));
        OVF(__builtin_add_overflow(hi, c->true_ub, &high));
        a->true_lo = a->has_data ? min_aint(a->true_lo, low) : low;
        a->true_hi = a->has_data ? max_aint(a->true_hi, high) : high;
        a->has_data = 1;
        a->align = max_aint(a->align, c->align);
    }
    if (c->lb_marked) {
        OVF(__builtin_add_overflow(lo, c->lb, &low));
        a->mark_lo = a->has_lb_mark ? min_aint(a->mark_lo, low) : low;
        a->has_lb_mark = 1;
    }
    if (c->ub_marked) {
        OVF(__builtin_add_overflow(hi, c->ub, &high));
        a->mark_hi = a->has_ub_mark ? max_aint(a->mark_hi, high) : high;
        a->has_ub_mark = 1;
    }
    /* MPI_LB and MPI_UB (the only basic types without data) are no
       element: a struct of ints between them is still made of ints */
    if (c->leaf && c->size == 0)
        return;
    if (a->seen && a->basic != c->basic)
        a->mixed = 1;
    a->basic = c->basic;
    a->seen = 1;
}

/* One block: blocklen copies of c laid end to end from disp, repeated
   n times stride apart (n is 1 outside the regular form). */
static void add_block(struct acc *a, MPI_Datatype c, MPI_Count blocklen,
                      MPI_Aint disp, MPI_Count n, MPI_Aint stride)
{
    MPI_Count copies;
    MPI_Aint lo = disp, hi = disp;
    if (n <= 0 || blocklen <= 0)
        return;
    OVF(__builtin_mul_overflow(n, blocklen, &copies));
    spread(a, n, stride, &lo, &hi);
    spread(a, blocklen, c->extent, &lo, &hi);
    add_copies(a, c, copies, lo, hi);
}

static void add_map(struct acc *a, const struct shmpi_dt_blocks *m)
{
    if (m->regular) {
        add_block(a, m->child, m->blocklen, m->disp0, m->n, m->stride);
        return;
    }
    for (MPI_Count i = 0; i < m->n; i++)
        add_block(a, shmpi_dt_block_child(m, i), shmpi_dt_block_len(m, i),
                  m->disps[i], 1, 0);
}

/* ub without an ub marker: the end of the data, and the epsilon that
   rounds the extent up to the alignment.  An extent that is not
   positive (an lb marker above the data) is left as it is. */
static void natural_ub(struct acc *a, MPI_Datatype t)
{
    MPI_Aint span, rounded;
    OVF(__builtin_sub_overflow(t->true_ub, t->lb, &span));
    if (a->overflow || span <= 0) {
        t->ub = t->true_ub;
        return;
    }
    OVF(__builtin_add_overflow(span, t->align - 1, &rounded));
    rounded -= rounded % t->align;
    OVF(__builtin_add_overflow(t->lb, rounded, &t->ub));
}

int shmpi_dt_layout(MPI_Datatype t)
{
    struct acc acc = {.align = 1}, *a = &acc;
    add_map(a, &t->map);
    t->size = a->size;
    t->nelems = a->nelems;
    t->align = a->align;
    /* An empty type made of one type keeps that type's basic, so that
       e.g. a reduction over contiguous(0, MPI_INT) is still allowed. */
    if (!a->seen && !t->map.children)
        t->basic = t->map.child ? t->map.child->basic : MPI_DATATYPE_NULL;
    else
        t->basic = a->mixed ? MPI_DATATYPE_NULL : a->basic;
    t->true_lb = a->has_data ? a->true_lo : 0;
    t->true_ub = a->has_data ? a->true_hi : 0;
    OVF(__builtin_sub_overflow(t->true_ub, t->true_lb, &(MPI_Aint){0}));
    t->lb_marked = a->has_lb_mark;
    t->ub_marked = a->has_ub_mark;
    t->lb = a->has_lb_mark ? a->mark_lo : t->true_lb;
    if (a->has_ub_mark)
        t->ub = a->mark_hi;
    else
        natural_ub(a, t);
    OVF(__builtin_sub_overflow(t->ub, t->lb, &t->extent));
    return a->overflow ? MPI_ERR_ARG : MPI_SUCCESS;
}

int shmpi_dt_set_bounds(MPI_Datatype t, MPI_Aint lb, MPI_Aint extent)
{
    if (__builtin_add_overflow(lb, extent, &t->ub))
        return MPI_ERR_ARG;
    t->lb_marked = t->ub_marked = 1;
    t->lb = lb;
    t->extent = extent;
    return MPI_SUCCESS;
}
