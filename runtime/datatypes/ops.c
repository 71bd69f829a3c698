/*
 * ops.c - the predefined reduction operations (MPI-3.1 5.9.2, 11.3.4),
 * constant objects named by their mpi.h handles.  The reduction kernels
 * that apply them arrive with the datatype engine.
 */
#include "core/objects.h"

struct shmpi_op {
    uint32_t magic;
    const char *name;
};

#define OP(var, NAME) \
    struct shmpi_op shmpi_op_##var = {SHMPI_MAGIC_OP, "MPI_" #NAME};

OP(max, MAX)
OP(min, MIN)
OP(sum, SUM)
OP(prod, PROD)
OP(land, LAND)
OP(band, BAND)
OP(lor, LOR)
OP(bor, BOR)
OP(lxor, LXOR)
OP(bxor, BXOR)
OP(maxloc, MAXLOC)
OP(minloc, MINLOC)
OP(replace, REPLACE)
OP(no_op, NO_OP)
