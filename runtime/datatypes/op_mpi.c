/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * op_mpi.c - the MPI calls on reduction ops: MPI_Op_create, MPI_Op_free,
 * MPI_Op_commutative (5.9.5) and MPI_Reduce_local (5.9.7), and the
 * large-count forms of MPI-4.0: MPI_Op_create_c, whose function takes an
 * MPI_Count len, and MPI_Reduce_local_c.  An op of either kind serves
 * every reduction, of int or MPI_Count counts.  None has a
 * communicator, so errors go to MPI_COMM_WORLD's handler.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/check.h"
#include "datatypes/datatype.h"
#include "datatypes/ops.h"

SHMPI_WEAK_ALIAS(Op_create)
SHMPI_WEAK_ALIAS(Op_free)
SHMPI_WEAK_ALIAS(Op_commutative)
SHMPI_WEAK_ALIAS(Reduce_local)
SHMPI_WEAK_ALIAS(Op_create_c)
SHMPI_WEAK_ALIAS(Reduce_local_c)

/* One of user_fn and user_fn_c is set. */
static int op_create(const char *fn, MPI_User_function *user_fn,
                     MPI_User_function_c *user_fn_c, int commute, MPI_Op *op)
{
    SHMPI_REQUIRE_INIT(fn);
    if ((!user_fn && !user_fn_c) || !op)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "%s is NULL",
                           user_fn || user_fn_c ? "op" : "user_fn");
    struct shmpi_op *o = malloc(sizeof *o);
    if (!o)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "no memory for the op");
    *o = (struct shmpi_op){.magic = SHMPI_MAGIC_OP, .code = SHMPI_OP_USER,
                           .refs = 1, .commute = commute != 0,
                           .fn = user_fn, .fn_c = user_fn_c,
                           .name = "a user-defined op"};
    *op = o;
    return MPI_SUCCESS;
}

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return op_create("MPI_Op_create", user_fn, NULL, commute, op);
}

int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return op_create("MPI_Op_create_c", NULL, user_fn, commute, op);
}

int PMPI_Op_free(MPI_Op *op)
{
    static const char fn[] = "MPI_Op_free";
    SHMPI_REQUIRE_INIT(fn);
    if (!op)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "op is NULL");
    if (!shmpi_op_ok(*op))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_OP, fn,
                           "*op is not an op (MPI_OP_NULL, or freed)");
    if ((*op)->code != SHMPI_OP_USER)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_OP, fn,
                           "%s is predefined and cannot be freed",
                           (*op)->name);
    shmpi_op_release(*op); /* operations in flight keep it alive */
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    static const char fn[] = "MPI_Op_commutative";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_op_ok(op))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_OP, fn,
                           "op is not an op (MPI_OP_NULL, or freed)");
    if (!commute)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "commute is NULL");
    *commute = op->commute;
    return MPI_SUCCESS;
}

/* What a buffer shmpi_buffer_ok refused is, for the message. */
static const char *bad_buffer_name(const void *buf)
{
    return buf == MPI_IN_PLACE ? "MPI_IN_PLACE"
           : buf == NULL       ? "NULL with no absolute addresses in the "
                                 "datatype"
                               : "not a valid address";
}

/* The bytes (buf, count, t) spans, from its first to past its last. */
static void span(const void *buf, MPI_Count count, MPI_Datatype t,
                 uintptr_t *lo, uintptr_t *hi)
{
    *lo = (uintptr_t)buf + (uintptr_t)t->true_lb;
    *hi = (uintptr_t)buf + (uintptr_t)((count - 1) * t->extent +
                                       t->true_ub);
}

/* inbuf and inoutbuf must not overlap (an INOUT argument is never
   aliased).  Two non-contiguous layouts can interleave without touching
   a common byte, so for those only the same start address is caught. */
static int overlap(const void *in, const void *inout, MPI_Count count,
                   MPI_Datatype t)
{
    if (in == inout)
        return 1;
    if (!shmpi_datatype_contiguous(t))
        return 0;
    uintptr_t in_lo, in_hi, io_lo, io_hi;
    span(in, count, t, &in_lo, &in_hi);
    span(inout, count, t, &io_lo, &io_hi);
    return in_lo < io_hi && io_lo < in_hi;
}

static int check_op(const char *fn, MPI_Op op, MPI_Datatype t,
                    MPI_Count count)
{
    if (!shmpi_op_ok(op))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_OP, fn,
                           "op is not an op (MPI_OP_NULL, or freed)");
    if (op->code == SHMPI_OP_REPLACE || op->code == SHMPI_OP_NO_OP)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_OP, fn,
                           "%s is for RMA accumulate only (11.3.4)",
                           op->name);
    int rc = shmpi_op_refusal(shmpi_op_check(op, t, SHMPI_OP_FOR_REDUCTION, fn),
                              op, count);
    if (rc == MPI_SUCCESS)
        return MPI_SUCCESS;
    if (rc == MPI_ERR_TYPE)
        return shmpi_raise(MPI_COMM_WORLD, rc, fn,
                           "datatype is " SHMPI_HANDLE_SYNC_RULE);
    if (t->predefined)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_OP, fn,
                           "%s is not defined on %s (5.9.2, 5.9.4; "
                           "shmpi_datatypes(7))", op->name, t->name);
    if (t->basic)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_OP, fn,
                           "%s is not defined on %s, the basic type of "
                           "the datatype (5.9.2, 5.9.4; shmpi_datatypes(7))",
                           op->name, t->basic->name);
    return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_OP, fn,
                       "%s needs a datatype made of one predefined type; "
                       "this one mixes several", op->name);
}

static int check_reduce_local(const char *fn, const void *inbuf,
                              const void *inoutbuf, MPI_Count count,
                              MPI_Datatype t, MPI_Op op)
{
    int rc = shmpi_dt_check_count_type(fn, MPI_COMM_WORLD, count, t);
    if (rc == MPI_SUCCESS)
        rc = check_op(fn, op, t, count);
    if (rc != MPI_SUCCESS || count == 0 || t->size == 0)
        return rc;
    MPI_Count bytes; /* a _c form's count may span past any address */
    if (__builtin_mul_overflow(count, t->size, &bytes) ||
        __builtin_mul_overflow(count, t->extent, &bytes))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, fn,
                           "count %lld times the datatype's size or extent "
                           "overflows MPI_Count", (long long)count);
    int in_ok = shmpi_buffer_ok(inbuf, count, t);
    if (!in_ok || !shmpi_buffer_ok(inoutbuf, count, t))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, fn,
                           "%s is %s but count is %lld",
                           in_ok ? "inoutbuf" : "inbuf",
                           bad_buffer_name(in_ok ? inoutbuf : inbuf),
                           (long long)count);
    if (overlap(inbuf, inoutbuf, count, t))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, fn,
                           "inbuf and inoutbuf overlap");
    return MPI_SUCCESS;
}

static int reduce_local(const char *fn, const void *inbuf, void *inoutbuf,
                        MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_reduce_local(fn, inbuf, inoutbuf, count, datatype, op);
    if (rc == MPI_SUCCESS)
        shmpi_op_reduce(op, inbuf, inoutbuf, count, datatype);
    return rc;
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
                      MPI_Datatype datatype, MPI_Op op)
{
    return reduce_local("MPI_Reduce_local", inbuf, inoutbuf, count, datatype,
                        op);
}

int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op)
{
    return reduce_local("MPI_Reduce_local_c", inbuf, inoutbuf, count,
                        datatype, op);
}
