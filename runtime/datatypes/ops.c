/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ops.c - the reduction op objects and shmpi_op_reduce, which applies one
 * to (in, inout, count, type) for every caller: MPI_Reduce_local, the
 * collectives and RMA accumulate (MPI-3.1 5.9, 11.3.4).
 *
 * A predefined op runs its kernel (reduce_kernels.c) on the basic type
 * every element is made of: straight on the buffers when the data is one
 * contiguous run, otherwise on both sides packed, a bounded chunk at a
 * time, unpacking the result back into inout.  The packed form is also
 * what the MINLOC/MAXLOC kernels expect: pairs without their padding.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/fint.h"
#include "core/ref.h"
#include "datatypes/datatype.h"
#include "datatypes/ops.h"

#define PREDEFINED(var, CODE)                                               \
    struct shmpi_op shmpi_op_##var = {.magic = SHMPI_MAGIC_OP,              \
                                      .code = SHMPI_OP_##CODE,              \
                                      .commute = 1,                         \
                                      .name = "MPI_" #CODE};
PREDEFINED(max, MAX)
PREDEFINED(min, MIN)
PREDEFINED(sum, SUM)
PREDEFINED(prod, PROD)
PREDEFINED(land, LAND)
PREDEFINED(band, BAND)
PREDEFINED(lor, LOR)
PREDEFINED(bor, BOR)
PREDEFINED(lxor, LXOR)
PREDEFINED(bxor, BXOR)
PREDEFINED(maxloc, MAXLOC)
PREDEFINED(minloc, MINLOC)
PREDEFINED(replace, REPLACE)
PREDEFINED(no_op, NO_OP)

/* Bytes of packed data reduced per round on a non-contiguous type: two
   buffers of it live on the stack and stay in L1. */
enum { CHUNK = 8192 };

void shmpi_op_retain(MPI_Op op)
{
    if (op->code == SHMPI_OP_USER)
        shmpi_core_ref_inc(&op->refs);
}

void shmpi_op_release(MPI_Op op)
{
    if (op->code != SHMPI_OP_USER || !shmpi_core_ref_dec(&op->refs))
        return;
    shmpi_fint_drop(SHMPI_FINT_OP, &op->fint);
    op->magic = 0;
    free(op);
}

/* MPI_ERR_OP, or MPI_SUCCESS and in *kernel the kernel to run: NULL for
   ops that have none (MPI_REPLACE, MPI_NO_OP, user ops, which apply to
   any type) and for empty types, which have no data to reduce. */
static int lookup(MPI_Op op, MPI_Datatype t, enum shmpi_op_use use,
                  shmpi_kernel **kernel)
{
    *kernel = NULL;
    if (!shmpi_op_ok(op))
        return MPI_ERR_OP;
    if (op->code > SHMPI_OP_LAST_KERNEL)
        return MPI_SUCCESS;
    if (!t->basic)              /* mixes several predefined types */
        return t->size == 0 ? MPI_SUCCESS : MPI_ERR_OP;
    *kernel = shmpi_op_kernel_find(op->code, t->basic, use);
    return *kernel ? MPI_SUCCESS : MPI_ERR_OP;
}

int shmpi_op_check(MPI_Op op, MPI_Datatype t, enum shmpi_op_use use,
                   const char *fn)
{
    if (t->handle_sync)         /* whatever the op, user ops too */
        return MPI_ERR_TYPE;
    shmpi_kernel *kernel;
    int rc = lookup(op, t, use, &kernel);
    /* a kernel: a predefined op on a predefined basic type */
    if (shmpi_core_checking() && kernel && fn)
        shmpi_op_check_portable(op, t->basic, use, fn);
    return rc;
}

int shmpi_op_refusal(int rc, MPI_Op op, MPI_Count count)
{
    return rc == MPI_ERR_OP && count == 0 && shmpi_op_ok(op) ? MPI_SUCCESS
                                                              : rc;
}

/* The user's function takes an int count: larger ones go in pieces;
   one of MPI_Op_create_c takes them whole. */
static void apply_user(MPI_Op op, const void *in, void *inout,
                       MPI_Count count, MPI_Datatype t)
{
    if (op->fn_c) {
        MPI_Datatype dt = t;
        op->fn_c((void *)in, inout, &count, &dt);
        return;
    }
    const char *src = in;
    char *dst = inout;
    while (count > 0) {
        int len = count > INT_MAX ? INT_MAX : (int)count;
        MPI_Datatype dt = t;
        op->fn((void *)src, dst, &len, &dt);
        src += (MPI_Count)len * t->extent;
        dst += (MPI_Count)len * t->extent;
        count -= len;
    }
}

static void replace(const void *in, void *inout, MPI_Count count,
                    MPI_Datatype t)
{
    if (in == inout)
        return;
    if (shmpi_datatype_contiguous(t))
        memcpy(inout, in, (size_t)(count * t->size));
    else
        shmpi_dt_copy_typed(inout, t, in, t, (uint64_t)(count * t->size));
}

static void apply_kernel(shmpi_kernel *kernel, const void *in, void *inout,
                         MPI_Count count, MPI_Datatype t)
{
    /* the basic type's packed size: a pair without its padding */
    uint64_t elem = (uint64_t)t->basic->size;
    uint64_t total = (uint64_t)(count * t->size);
    if (shmpi_datatype_contiguous(t)) {
        kernel(in, inout, total / elem);
        return;
    }
    _Alignas(64) unsigned char a[CHUNK], b[CHUNK];
    uint64_t chunk = CHUNK / elem * elem; /* whole elements only */
    for (uint64_t off = 0; off < total; off += chunk) {
        uint64_t len = total - off < chunk ? total - off : chunk;
        shmpi_dt_pack(in, t, off, a, len);
        shmpi_dt_pack(inout, t, off, b, len);
        kernel(a, b, len / elem);
        shmpi_dt_unpack(inout, t, off, b, len);
    }
}

int shmpi_op_reduce(MPI_Op op, const void *in, void *inout, MPI_Count count,
                    MPI_Datatype t)
{
    if (count == 0 || t->size == 0)
        return shmpi_op_ok(op) ? MPI_SUCCESS : MPI_ERR_OP;
    shmpi_kernel *kernel;
    int rc = lookup(op, t, SHMPI_OP_FOR_REDUCTION, &kernel);
    if (rc != MPI_SUCCESS)
        return rc;
    switch (op->code) {
    case SHMPI_OP_NO_OP:
        break;
    case SHMPI_OP_REPLACE:
        replace(in, inout, count, t);
        break;
    case SHMPI_OP_USER:
        apply_user(op, in, inout, count, t);
        break;
    default:
        apply_kernel(kernel, in, inout, count, t);
        break;
    }
    return MPI_SUCCESS;
}
