/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * build.c - making a derived type object from a block list: the list is
 * normalized, the children referenced and the layout computed (layout.c);
 * shmpi_dt_make adds the record of the constructor's arguments.
 *
 * Normalizing keeps the list small for the compiled form (compile.c):
 * blocks of length 0 are dropped (MPI_Type_get_contents still returns
 * them: the arguments are kept separately), arrays whose entries are all
 * equal are folded into one value, and equally spaced blocks of one
 * length and one type become the regular form.
 */
#include <stdlib.h>

#include "core/check.h"
#include "core/error.h"
#include "core/live.h"
#include "datatypes/derived.h"

static void drop_empty_blocks(struct shmpi_dt_blocks *m)
{
    MPI_Count kept = 0;
    for (MPI_Count i = 0; i < m->n; i++) {
        if (shmpi_dt_block_len(m, i) == 0)
            continue;
        m->disps[kept] = m->disps[i];
        if (m->blocklens)
            m->blocklens[kept] = m->blocklens[i];
        if (m->children)
            m->children[kept] = m->children[i];
        kept++;
    }
    m->n = kept;
}

static void fold_equal_entries(struct shmpi_dt_blocks *m)
{
    MPI_Count i = 1;
    if (m->blocklens) {
        while (i < m->n && m->blocklens[i] == m->blocklens[0])
            i++;
        if (i >= m->n) {
            m->blocklen = m->n ? m->blocklens[0] : 0;
            free(m->blocklens);
            m->blocklens = NULL;
        }
    }
    if (m->children) {
        for (i = 1; i < m->n && m->children[i] == m->children[0]; i++)
            ;
        if (i >= m->n) {
            m->child = m->n ? m->children[0] : MPI_DATATYPE_NULL;
            free(m->children);
            m->children = NULL;
        }
    }
}

/* Blocks of one length and one type at equal distances (one block
   included) are the regular form: a few words instead of n entries. */
static void make_regular_if_possible(struct shmpi_dt_blocks *m)
{
    if (m->n == 0 || m->blocklens || m->children)
        return;
    MPI_Aint stride = m->n > 1 ? m->disps[1] - m->disps[0] : 0;
    for (MPI_Count i = 2; i < m->n; i++)
        if (m->disps[i] - m->disps[i - 1] != stride)
            return;
    m->disp0 = m->disps[0];
    m->stride = stride;
    m->regular = 1;
    free(m->disps);
    m->disps = NULL;
}

static void normalize(struct shmpi_dt_blocks *m)
{
    if (m->regular) {
        if (m->blocklen == 0)
            m->n = 0;
        return;
    }
    drop_empty_blocks(m);
    fold_equal_entries(m);
    make_regular_if_possible(m);
}

static void retain_children(const struct shmpi_dt_blocks *m)
{
    if (m->children) {
        for (MPI_Count i = 0; i < m->n; i++)
            shmpi_dt_retain(m->children[i]);
    } else if (m->child) {
        shmpi_dt_retain(m->child);
    }
}

int shmpi_dt_build(int combiner, struct shmpi_dt_blocks map,
                   MPI_Datatype *out)
{
    MPI_Datatype t = shmpi_dt_alloc(combiner);
    if (!t) {
        free(map.disps);
        free(map.blocklens);
        free(map.children);
        return MPI_ERR_NO_MEM;
    }
    normalize(&map);
    retain_children(&map);
    t->map = map;
    int rc = shmpi_dt_layout(t);
    if (rc != MPI_SUCCESS) {
        shmpi_dt_release(t);
        return rc;
    }
    *out = t;
    return MPI_SUCCESS;
}

/* The check mode's list of objects never freed (core/live.h): a type
   the program got, unless an MPI_Type_create_f90_* made it - those are
   predefined (MPI-3.1 17.2.9), never freed. */
static __attribute__((cold, noinline)) void handed(MPI_Datatype t,
                                                   const char *fn)
{
    if (t->combiner != MPI_COMBINER_F90_INTEGER &&
        t->combiner != MPI_COMBINER_F90_REAL &&
        t->combiner != MPI_COMBINER_F90_COMPLEX)
        shmpi_core_live_made(SHMPI_LIVE_TYPE, t, fn, t->name);
}

int shmpi_dt_make(const char *fn, int combiner, struct shmpi_dt_blocks map,
                  int nints, int naddrs, int ncounts, int ntypes,
                  const MPI_Datatype *types, MPI_Datatype *out)
{
    MPI_Datatype t;
    int rc = shmpi_dt_build(combiner, map, &t);
    if (rc == MPI_SUCCESS &&
        (rc = shmpi_dt_set_contents(t, nints, naddrs, ncounts, ntypes,
                                    types)) !=
            MPI_SUCCESS)
        shmpi_dt_release(t);
    if (rc == MPI_ERR_ARG)
        return shmpi_raise(MPI_COMM_NULL, rc, fn,
                           "the new type's size or bounds do not fit in "
                           "MPI_Count / MPI_Aint");
    if (rc != MPI_SUCCESS)
        return shmpi_raise(MPI_COMM_NULL, rc, fn, "out of memory");
    *out = t;
    if (__builtin_expect(shmpi_core_checking(), 0))
        handed(t, fn);
    return MPI_SUCCESS;
}
