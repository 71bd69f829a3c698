/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * type_f2c.c - the Fortran integers of datatypes and reduction
 * operations (MPI-3.1 17.2.4), on core/fint.h's tables.
 *
 * MPI_DATATYPE_NULL and MPI_OP_NULL are 0.  The predefined datatypes are
 * numbered from 1 in the order of mpi.h's SHMPI_DATATYPES list (MPI_CHAR
 * 1, MPI_SHORT 2, ... MPI_2INTEGER), then MPI_HANDLE_SYNC, MPI_LB and
 * MPI_UB; the predefined operations from 1 in mpi.h's order (MPI_MAX 1
 * ... MPI_NO_OP 14).  The datatypes' list is shmpi_dt_numbered (predefined.c), which MPI_Init
 * also compiles.  The types of MPI_Type_create_f90_* are predefined too,
 * but made on demand: they are numbered like the program's types, once,
 * and keep their number to the end.
 */
#include "core/error.h"
#include "core/fint.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/datatype.h"
#include "datatypes/ops.h"

SHMPI_WEAK_ALIAS(Type_c2f)
SHMPI_WEAK_ALIAS(Type_f2c)
SHMPI_WEAK_ALIAS(Op_c2f)
SHMPI_WEAK_ALIAS(Op_f2c)

static struct shmpi_datatype invalid_type;
static const struct shmpi_fint_kind types = {
    SHMPI_FINT_DATATYPE, SHMPI_DT_NNUMBERED, shmpi_dt_numbered,
    &invalid_type};

MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype)
{
    static const char fn[] = "MPI_Type_c2f";
    SHMPI_REQUIRE_INIT(fn);
    if (datatype == MPI_DATATYPE_NULL)
        return 0;
    if (!shmpi_datatype_ok(datatype))
        return shmpi_fint_raise_bad(MPI_ERR_TYPE, fn,
                                    "datatype is not a valid datatype "
                                    "(freed, or never made)");
    return shmpi_fint_of(&types, datatype, &datatype->fint, fn);
}

MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype)
{
    SHMPI_REQUIRE_INIT("MPI_Type_f2c");
    return shmpi_fint_object(&types, datatype);
}

static struct shmpi_op invalid_op;
static const struct shmpi_fint_kind ops = {
    SHMPI_FINT_OP, 15,
    (void *const[]){MPI_OP_NULL, MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD,
                    MPI_LAND, MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR,
                    MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE,
                    MPI_NO_OP},
    &invalid_op};

MPI_Fint PMPI_Op_c2f(MPI_Op op)
{
    static const char fn[] = "MPI_Op_c2f";
    SHMPI_REQUIRE_INIT(fn);
    if (op == MPI_OP_NULL)
        return 0;
    if (!shmpi_op_ok(op))
        return shmpi_fint_raise_bad(MPI_ERR_OP, fn,
                                    "op is not a valid operation (freed, or "
                                    "never made)");
    return shmpi_fint_of(&ops, op, &op->fint, fn);
}

MPI_Op PMPI_Op_f2c(MPI_Fint op)
{
    SHMPI_REQUIRE_INIT("MPI_Op_f2c");
    return shmpi_fint_object(&ops, op);
}
