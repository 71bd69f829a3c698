/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * typemap_walk.c - the basic elements of a type in type-map order (see
 * typemap_walk.h).
 *
 * A block of a map is blocklen copies of its child end to end, so a
 * block over a basic type is one run for the visitor however long it
 * is; only derived children are entered copy by copy.  Types without
 * data (zero size) are skipped whole.
 */
#include "datatypes/typemap_walk.h"

static int walk_copies(MPI_Datatype t, MPI_Aint disp, MPI_Count count,
                       shmpi_leaf_fn *fn, void *arg);

static int walk_map(MPI_Datatype t, MPI_Aint disp, shmpi_leaf_fn *fn,
                    void *arg)
{
    const struct shmpi_dt_blocks *m = &t->map;
    for (MPI_Count i = 0; i < m->n; i++) {
        int rc = walk_copies(shmpi_dt_block_child(m, i),
                             disp + shmpi_dt_block_disp(m, i),
                             shmpi_dt_block_len(m, i), fn, arg);
        if (rc)
            return rc;
    }
    return 0;
}

static int walk_copies(MPI_Datatype t, MPI_Aint disp, MPI_Count count,
                       shmpi_leaf_fn *fn, void *arg)
{
    if (count == 0 || t->size == 0)
        return 0;
    if (t->leaf)
        return fn(t, disp, count, arg);
    for (MPI_Count k = 0; k < count; k++) {
        int rc = walk_map(t, disp + (MPI_Aint)k * t->extent, fn, arg);
        if (rc)
            return rc;
    }
    return 0;
}

int shmpi_dt_typemap_walk(MPI_Datatype t, MPI_Count count, shmpi_leaf_fn *fn,
                          void *arg)
{
    return walk_copies(t, 0, count, fn, arg);
}
