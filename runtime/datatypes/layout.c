/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * layout.c - size, bounds and extent of a derived type from its block
 * list, by the typemap definitions of MPI-3.1 4.1.6 - 4.1.8.
 *
 * A block of b copies of a child with extent e at displacement d puts
 * copy k at d + k * e; a regular list adds disp0 + i * stride on top.  So
 * a block's copies start anywhere in [lo, hi], and the new type's
 *   true_lb = min(lo + child true_lb), true_ub = max(hi + child true_ub)
 * over the children that hold data.  Bounds markers (from
 * MPI_Type_create_resized, anywhere below) are "sticky" (4.1.6): when
 * any child carries them, lb = min(lo + child lb) and ub = max(hi + child
 * ub) over the marked children only.  Without markers lb = true_lb and
 * the extent is the true extent rounded up to the largest alignment of
 * the basic types (the epsilon of 4.1.6), which is what a C compiler
 * gives a struct or an array of them.
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
    MPI_Aint mark_lo, mark_hi;       /* when has_marks */
    MPI_Aint align;
    MPI_Datatype basic;              /* of the blocks seen so far */
    int seen, has_data, has_marks, mixed, overflow;
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
    if (c->marked) {
        OVF(__builtin_add_overflow(lo, c->lb, &low));
        OVF(__builtin_add_overflow(hi, c->ub, &high));
        a->mark_lo = a->has_marks ? min_aint(a->mark_lo, low) : low;
        a->mark_hi = a->has_marks ? max_aint(a->mark_hi, high) : high;
        a->has_marks = 1;
    }
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

/* lb, ub and extent without markers: lb at the data, the extent
   rounded up to the alignment (epsilon). */
static void natural_bounds(struct acc *a, MPI_Datatype t)
{
    MPI_Aint span = t->true_ub - t->true_lb;    /* checked by the caller */
    MPI_Aint rounded;
    OVF(__builtin_add_overflow(span, t->align - 1, &rounded));
    rounded -= rounded % t->align;
    t->lb = t->true_lb;
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
    t->marked = a->has_marks;
    if (a->has_marks) {
        t->lb = a->mark_lo;
        t->ub = a->mark_hi;
    } else if (!a->overflow) {
        natural_bounds(a, t);
    }
    OVF(__builtin_sub_overflow(t->ub, t->lb, &t->extent));
    return a->overflow ? MPI_ERR_ARG : MPI_SUCCESS;
}

int shmpi_dt_set_bounds(MPI_Datatype t, MPI_Aint lb, MPI_Aint extent)
{
    if (__builtin_add_overflow(lb, extent, &t->ub))
        return MPI_ERR_ARG;
    t->marked = 1;
    t->lb = lb;
    t->extent = extent;
    return MPI_SUCCESS;
}
