/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ops.h - the reduction operation object (MPI-3.1 5.9.2-5.9.7) and the
 * kernels that apply the predefined ones.
 *
 * Predefined ops are constant objects named by their mpi.h handles;
 * user ops come from MPI_Op_create and are reference counted like
 * groups: the handle holds one reference and every operation in flight
 * that will still apply the op (a nonblocking collective, say) holds
 * another, so MPI_Op_free in between is safe.
 *
 * shmpi_op_reduce and shmpi_op_check, the entry points the collectives and
 * RMA use, are declared in datatype.h.
 */
#ifndef SHMPI_OPS_H
#define SHMPI_OPS_H

#include <stddef.h>

#include "core/objects.h"
#include "datatypes/datatype.h"

/* The order of mpi.h.  The ops that have kernels come first: the kernel
   table is indexed by them. */
enum shmpi_op_code {
    SHMPI_OP_MAX, SHMPI_OP_MIN, SHMPI_OP_SUM, SHMPI_OP_PROD,
    SHMPI_OP_LAND, SHMPI_OP_BAND, SHMPI_OP_LOR, SHMPI_OP_BOR,
    SHMPI_OP_LXOR, SHMPI_OP_BXOR, SHMPI_OP_MAXLOC, SHMPI_OP_MINLOC,
    SHMPI_OP_LAST_KERNEL = SHMPI_OP_MINLOC,
    SHMPI_OP_REPLACE, SHMPI_OP_NO_OP,
    SHMPI_OP_USER,             /* from MPI_Op_create */
};

struct shmpi_op {
    uint32_t magic;
    enum shmpi_op_code code;
    _Atomic int refs;          /* user ops: the handle + operations in
                                  flight (core/ref.h); predefined ops:
                                  unused */
    int commute;               /* 1 for every predefined op */
    MPI_User_function *fn;     /* user ops of MPI_Op_create only */
    MPI_User_function_c *fn_c; /* user ops of MPI_Op_create_c (MPI-4.0):
                                  an MPI_Count len, called once */
    const char *name;          /* "MPI_SUM", or "a user-defined op" */
    int fint;                  /* its Fortran integer, or 0 (fint.h) */
};

static inline int shmpi_op_ok(MPI_Op op)
{
    return op != MPI_OP_NULL && op->magic == SHMPI_MAGIC_OP;
}

/* ops.c: no-ops on predefined ops. */
void shmpi_op_retain(MPI_Op op);
void shmpi_op_release(MPI_Op op);

/* reduce_kernels.c: inout[i] = in[i] op inout[i] for n elements of a
   predefined type, packed (a MINLOC/MAXLOC pair is its value followed
   directly by its index, no padding).  in and inout never overlap. */
typedef void shmpi_kernel(const void *restrict in, void *restrict inout,
                          size_t n);

/* The kernel of a predefined op (MPI_MAX ... MPI_MINLOC) on a
   predefined type, or NULL when shmpi refuses the pair for that use:
   when 5.9.2/5.9.4 do not define the op on the type and Open MPI and
   MPICH do not both accept it either (shmpi_datatypes(7)). */
shmpi_kernel *shmpi_op_kernel_find(enum shmpi_op_code op, MPI_Datatype type,
                               enum shmpi_op_use use);

/* Check mode: predefined op on the predefined type basic, which shmpi accepts for
   use in fn, is reported if 5.9.2/5.9.4 do not define it (once per use,
   op and type in a process). */
void shmpi_op_check_portable(MPI_Op op, MPI_Datatype basic,
                             enum shmpi_op_use use, const char *fn)
    __attribute__((cold));

/* Writes the row (and op masks) of every reducible predefined type,
   which shmpi_op_kernel_find reads; once, from MPI_Init
   (shmpi_dt_compile_predefined). */
void shmpi_op_kernel_rows(void);

#endif
