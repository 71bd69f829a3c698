/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold.c - applying a reduction op to data the area holds packed.
 *
 * The area holds packed bytes (a derived type's gaps are not copied), but
 * shmpi_op_reduce and user functions take data laid out as the type says.
 * For a contiguous type the two are the same bytes.  A predefined op on a
 * type made of one contiguous basic type (a vector of doubles, say) works
 * on the packed bytes as that many basic elements.  Anything else - a
 * user op on a derived type, a pair type with padding - is unpacked into
 * a typed staging buffer (the communicator's scratch, sized before the
 * collective starts by shmpi_coll_fold_prepare) a chunk at a time.
 */
#include <stdlib.h>

#include "coll/coll.h"
#include "core/check.h"
#include "datatypes/datatype.h"
#include "datatypes/ops.h"

/* Elements staged at once stay within this (unless one element is
   larger). */
enum { STAGE_BYTES = 256 * 1024 };

/* Bytes a typed buffer of n elements spans, and where element 0 sits in
   it (types may have negative displacements and extents). */
static uint64_t typed_span(MPI_Datatype t, MPI_Count n, MPI_Aint *origin)
{
    MPI_Aint step = (MPI_Aint)(n > 0 ? n - 1 : 0) * t->extent;
    MPI_Aint lo = t->true_lb + (step < 0 ? step : 0);
    MPI_Aint hi = t->true_ub + (step > 0 ? step : 0);
    *origin = -lo;
    return hi > lo ? (uint64_t)(hi - lo) : 0;
}

void *shmpi_coll_typed_alloc(MPI_Datatype t, MPI_Count n, void **block)
{
    MPI_Aint origin;
    uint64_t span = typed_span(t, n, &origin);
    *block = malloc(span ? span : 1);
    return *block ? (unsigned char *)*block + origin : NULL;
}

static int packed_directly(MPI_Op op, MPI_Datatype t)
{
    return t->contig || (op->code != SHMPI_OP_USER && t->basic &&
                         t->basic->contig);
}

/* Elements per staging chunk: as many as fit STAGE_BYTES, at least 1. */
static MPI_Count stage_elements(MPI_Datatype t)
{
    MPI_Aint origin;
    MPI_Count k = t->size > 0 ? STAGE_BYTES / t->size : 1;
    if (k < 1)
        k = 1;
    while (k > 1 && typed_span(t, k, &origin) > STAGE_BYTES)
        k /= 2;
    return k;
}

/* A predefined op on a contiguous predefined type: its kernel, run
   straight on the buffers (the common case: MPI_SUM on doubles).  Looked
   up once for the communicator's last such pair; a predefined type
   object never goes away, so the cache cannot go stale.  NULL for
   anything else. */
static shmpi_kernel *direct_kernel(struct shmpi_coll *c, MPI_Op op,
                                   MPI_Datatype t)
{
    if (!t->predefined || !t->contig || op->code > SHMPI_OP_LAST_KERNEL)
        return NULL;
    if (c->kernel.op != op || c->kernel.type != t) {
        /* basic: t itself, but for the MPI_Type_create_f90_* types,
           one element of the type they stand for */
        shmpi_kernel *fn =
            shmpi_op_kernel_find(op->code, t->basic, SHMPI_OP_FOR_REDUCTION);
        /* the check mode keeps the cache empty: MPI_Allreduce's fast
           path (reduce.c), which needs a hit, then never skips the
           argument checks and their order check (order_check.c) */
        if (shmpi_core_checking())
            return fn;
        c->kernel.op = op;
        c->kernel.type = t;
        c->kernel.fn = fn;
    }
    return c->kernel.fn;
}

int shmpi_coll_fold_prepare(struct shmpi_coll *c, MPI_Datatype t)
{
    if (t->contig)
        return MPI_SUCCESS;
    MPI_Aint origin;
    uint64_t need = 2 * typed_span(t, stage_elements(t), &origin) + 64;
    if (c->scratch_bytes >= need)
        return MPI_SUCCESS;
    void *grown = realloc(c->scratch, need);
    if (!grown)
        return MPI_ERR_NO_MEM;
    c->scratch = grown;
    c->scratch_bytes = need;
    return MPI_SUCCESS;
}

/* The two typed staging buffers of the scratch, element 0 of each. */
static void staging(struct shmpi_coll *c, MPI_Datatype t, MPI_Count k,
                    unsigned char **a, unsigned char **b)
{
    MPI_Aint origin;
    uint64_t span = (typed_span(t, k, &origin) + 63) / 64 * 64;
    *a = (unsigned char *)c->scratch + origin;
    *b = (unsigned char *)c->scratch + span + origin;
}

/* The cases that need no staging: nothing to fold, a kernel for the
   pair, or a contiguous type.  Returns whether the fold was done. */
static int reduced_unstaged(struct shmpi_coll *c, MPI_Op op, MPI_Datatype t,
                            const void *in, void *inout, MPI_Count n)
{
    shmpi_kernel *kernel = direct_kernel(c, op, t);
    if (n == 0)
        return 1;
    if (kernel)
        kernel(in, inout, (size_t)n);
    else if (t->contig)
        shmpi_op_reduce(op, in, inout, n, t);
    return kernel || t->contig;
}

void shmpi_coll_reduce_packed(struct shmpi_coll *c, MPI_Op op,
                              MPI_Datatype t, const void *in, void *inout,
                              MPI_Count n)
{
    if (reduced_unstaged(c, op, t, in, inout, n))
        return;
    if (packed_directly(op, t)) {
        shmpi_op_reduce(op, in, inout, n * t->size / t->basic->size, t->basic);
        return;
    }
    MPI_Count k = stage_elements(t);
    unsigned char *a, *b;
    staging(c, t, k, &a, &b);
    for (MPI_Count done = 0; done < n; done += k) {
        MPI_Count now = n - done < k ? n - done : k;
        uint64_t off = (uint64_t)(done * t->size), len = (uint64_t)(now * t->size);
        shmpi_dt_unpack(a, t, 0, (const unsigned char *)in + off, len);
        shmpi_dt_unpack(b, t, 0, (unsigned char *)inout + off, len);
        shmpi_op_reduce(op, a, b, now, t);
        shmpi_dt_pack(b, t, 0, (unsigned char *)inout + off, len);
    }
}

void shmpi_coll_reduce_into(struct shmpi_coll *c, MPI_Op op, MPI_Datatype t,
                            const void *in, void *inout, MPI_Count n)
{
    if (reduced_unstaged(c, op, t, in, inout, n))
        return;
    MPI_Count k = stage_elements(t);
    unsigned char *a, *b;
    staging(c, t, k, &a, &b);
    for (MPI_Count done = 0; done < n; done += k) {
        MPI_Count now = n - done < k ? n - done : k;
        shmpi_dt_unpack(a, t, 0, (const unsigned char *)in + done * t->size,
                        (uint64_t)(now * t->size));
        shmpi_op_reduce(op, a, (unsigned char *)inout + done * t->extent, now,
                        t);
    }
}
