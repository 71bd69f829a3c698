/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * consts.c - the datatype constants of the ABI (abi.h): array orders,
 * distributions and the default distribution argument, type classes,
 * combiners.  The ABI's values are include/abi/mpi.h's; an ABI value
 * with no meaning becomes INT_MIN, which every shmpi check rejects.
 */
#include <limits.h>

#include "abi/abi.h"

enum {
    ABI_ORDER_C = 12, ABI_ORDER_FORTRAN = 15,
    ABI_DISTRIBUTE_NONE = 16, ABI_DISTRIBUTE_BLOCK = 17,
    ABI_DISTRIBUTE_CYCLIC = 18, ABI_DISTRIBUTE_DFLT_DARG = 19,
    ABI_TYPECLASS_INTEGER = 192, ABI_TYPECLASS_REAL = 193,
    ABI_TYPECLASS_COMPLEX = 194,
    ABI_COMBINER_NAMED = 101        /* the others follow, as shmpi's do */
};

int shmpi_abi_order_in(int order)
{
    return order == ABI_ORDER_C ? MPI_ORDER_C
         : order == ABI_ORDER_FORTRAN ? MPI_ORDER_FORTRAN : INT_MIN;
}

int shmpi_abi_order_out(int order)
{
    return order == MPI_ORDER_C ? ABI_ORDER_C
         : order == MPI_ORDER_FORTRAN ? ABI_ORDER_FORTRAN : order;
}

int shmpi_abi_distrib_in(int distrib)
{
    switch (distrib) {
    case ABI_DISTRIBUTE_NONE:   return MPI_DISTRIBUTE_NONE;
    case ABI_DISTRIBUTE_BLOCK:  return MPI_DISTRIBUTE_BLOCK;
    case ABI_DISTRIBUTE_CYCLIC: return MPI_DISTRIBUTE_CYCLIC;
    default:                    return INT_MIN;
    }
}

int shmpi_abi_distrib_out(int distrib)
{
    switch (distrib) {
    case MPI_DISTRIBUTE_NONE:   return ABI_DISTRIBUTE_NONE;
    case MPI_DISTRIBUTE_BLOCK:  return ABI_DISTRIBUTE_BLOCK;
    case MPI_DISTRIBUTE_CYCLIC: return ABI_DISTRIBUTE_CYCLIC;
    default:                    return distrib;
    }
}

/* A distribution argument is a positive count, or the default. */
int shmpi_abi_darg_in(int darg)
{
    return darg == ABI_DISTRIBUTE_DFLT_DARG ? MPI_DISTRIBUTE_DFLT_DARG : darg;
}

int shmpi_abi_darg_out(int darg)
{
    return darg == MPI_DISTRIBUTE_DFLT_DARG ? ABI_DISTRIBUTE_DFLT_DARG : darg;
}

int shmpi_abi_typeclass_in(int typeclass)
{
    switch (typeclass) {
    case ABI_TYPECLASS_INTEGER: return MPI_TYPECLASS_INTEGER;
    case ABI_TYPECLASS_REAL:    return MPI_TYPECLASS_REAL;
    case ABI_TYPECLASS_COMPLEX: return MPI_TYPECLASS_COMPLEX;
    default:                    return INT_MIN;
    }
}

/* shmpi's combiners are the ABI's less 100 but for the Fortran 90 ones,
   whose order differs (shmpi: REAL, COMPLEX, INTEGER; the ABI: INTEGER,
   REAL, COMPLEX). */
int shmpi_abi_combiner_out(int combiner)
{
    switch (combiner) {
    case MPI_COMBINER_F90_INTEGER: return ABI_COMBINER_NAMED + 12;
    case MPI_COMBINER_F90_REAL:    return ABI_COMBINER_NAMED + 13;
    case MPI_COMBINER_F90_COMPLEX: return ABI_COMBINER_NAMED + 14;
    default:   return combiner - MPI_COMBINER_NAMED + ABI_COMBINER_NAMED;
    }
}
