/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * names.c - MPI_Type_set_name and MPI_Type_get_name (MPI-3.1 6.8).
 *
 * A predefined type is born with its mpi.h name ("MPI_INT"), a derived
 * one with the empty name; MPI_Type_dup does not copy names.  Names
 * longer than MPI_MAX_OBJECT_NAME - 1 characters are cut.
 * shmpi_dt_describe: what the check mode's reports call a type.
 */
#include <stdio.h>

#include "core/error.h"
#include "core/objects.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/derived.h"

SHMPI_WEAK_ALIAS(Type_set_name)
SHMPI_WEAK_ALIAS(Type_get_name)

int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    static const char fn[] = "MPI_Type_set_name";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_arg(datatype, fn, "datatype");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!type_name)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "type_name is NULL");
    shmpi_core_name_set(datatype->name, type_name);
    return MPI_SUCCESS;
}

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name,
                       int *resultlen)
{
    static const char fn[] = "MPI_Type_get_name";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_arg(datatype, fn, "datatype");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!type_name || !resultlen)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "type_name or resultlen is NULL");
    *resultlen = shmpi_core_name_get(datatype->name, type_name);
    return MPI_SUCCESS;
}

void shmpi_dt_describe(MPI_Datatype dt, char *out, size_t len)
{
    char name[MPI_MAX_OBJECT_NAME];
    if (shmpi_core_name_get(dt->name, name) > 0)
        snprintf(out, len, "%s", name);
    else
        snprintf(out, len, "a derived datatype of %lld bytes",
                 (long long)dt->size);
}
