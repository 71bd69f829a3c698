/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * value_index.c - MPI_Type_get_value_index (MPI-4.1, with MPI_MINLOC
 * and MPI_MAXLOC): the predefined (value, index) pair type of those two
 * operations for a value type and an index type, or MPI_DATATYPE_NULL
 * when the standard defines none for them (a derived type included: it
 * is no error, only no pair).  The table is the standard's list of pair types, nothing
 * more; types that are the same handle (MPI_LONG_LONG_INT and
 * MPI_LONG_LONG) match alike.
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/derived.h"

SHMPI_WEAK_ALIAS(Type_get_value_index)

static const struct {
    MPI_Datatype value, index, pair;
} pairs[] = {
    {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
    {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
    {MPI_LONG, MPI_INT, MPI_LONG_INT},
    {MPI_INT, MPI_INT, MPI_2INT},
    {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
    {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
    {MPI_REAL, MPI_REAL, MPI_2REAL},
    {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
    {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
};

int PMPI_Type_get_value_index(MPI_Datatype value_type,
                              MPI_Datatype index_type,
                              MPI_Datatype *pair_type)
{
    static const char fn[] = "MPI_Type_get_value_index";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_arg(value_type, fn, "value_type");
    if (rc == MPI_SUCCESS)
        rc = shmpi_dt_check_arg(index_type, fn, "index_type");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!pair_type)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "pair_type is NULL");
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i].value == value_type && pairs[i].index == index_type)
            *pair_type = pairs[i].pair;
    return MPI_SUCCESS;
}
