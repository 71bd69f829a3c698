/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * elements.c - counting the basic elements in a prefix of packed data,
 * and back (MPI_Get_elements, MPI_Status_set_elements; 4.1.11).
 *
 * Whole elements of a type hold t->nelems basic elements each, so only
 * the remainder - less than one element - walks the tree, in type-map
 * order.  At each level the blocks the remainder covers are skipped by
 * their measure (in one division when the blocks are uniform, so a
 * vector of a million blocks costs what one block does), and the walk
 * descends into the single child element where the prefix ends.  A pair
 * type such as MPI_DOUBLE_INT is two blocks over its basic types and so
 * holds 2 basic elements.
 */
#include "datatypes/datatype.h"

/* A prefix is measured in packed bytes or in basic elements. */
enum measure { BYTES, ELEMENTS };

static MPI_Count measure_of(MPI_Datatype t, enum measure unit)
{
    return unit == BYTES ? t->size : t->nelems;
}

/* The prefix of one element of t that is `rest` long in measure `from`
   (0 <= rest < one element of t), measured in the other measure; or
   MPI_UNDEFINED when it ends inside a basic element. */
static MPI_Count convert_prefix(MPI_Datatype t, MPI_Count rest,
                                enum measure from)
{
    enum measure to = from == BYTES ? ELEMENTS : BYTES;
    MPI_Count done = 0;
    while (rest > 0) {
        if (t->leaf)
            return MPI_UNDEFINED;
        /* rest is less than t's blocks together, so it ends in one of
           them, and that block is not empty */
        const struct shmpi_dt_blocks *m = &t->map;
        MPI_Count i = 0;
        if (shmpi_dt_blocks_uniform(m)) {
            MPI_Count block = m->blocklen * measure_of(m->child, from);
            i = rest / block;
            rest %= block;
            done += i * m->blocklen * measure_of(m->child, to);
        } else {
            for (;; i++) {
                MPI_Count len = shmpi_dt_block_len(m, i);
                MPI_Datatype c = shmpi_dt_block_child(m, i);
                if (rest < len * measure_of(c, from))
                    break;
                rest -= len * measure_of(c, from);
                done += len * measure_of(c, to);
            }
        }
        /* whole copies of the child in block i, then into the next */
        MPI_Datatype child = shmpi_dt_block_child(m, i);
        MPI_Count per = measure_of(child, from);
        done += rest / per * measure_of(child, to);
        rest %= per;
        t = child;
    }
    return done;
}

MPI_Count shmpi_dt_elements(MPI_Datatype t, MPI_Count nbytes)
{
    if (t->size == 0)
        return 0;
    MPI_Count part = convert_prefix(t, nbytes % t->size, BYTES);
    if (part == MPI_UNDEFINED)
        return MPI_UNDEFINED;
    return nbytes / t->size * t->nelems + part;
}

MPI_Count shmpi_dt_elements_bytes(MPI_Datatype t, MPI_Count elements)
{
    if (t->nelems == 0)
        return 0;
    MPI_Count whole;
    if (__builtin_mul_overflow(elements / t->nelems, t->size, &whole))
        return -1;
    /* a prefix in elements always ends between basic elements */
    MPI_Count part = convert_prefix(t, elements % t->nelems, ELEMENTS);
    MPI_Count bytes;
    if (__builtin_add_overflow(whole, part, &bytes))
        return -1;
    return bytes;
}
