/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * status_fields.c - MPI_Status_get/set_source, _tag, _error (MPI-4.1
 * 3.2.5): the three public fields of a status through calls, for
 * bindings of other languages that cannot reach a C struct.
 *
 * Like the fields themselves, they need no MPI state, so they work
 * before MPI_Init and after MPI_Finalize too (as MPI_Error_string
 * does here); a NULL status - MPI_STATUS_IGNORE is NULL - or a NULL
 * output is MPI_ERR_ARG on MPI_COMM_WORLD.  No value is checked: a
 * status may carry any source, tag or code (a generalized request's
 * query function sets what it likes).
 */
#include "core/error.h"
#include "core/pmpi.h"

SHMPI_WEAK_ALIAS(Status_get_source)
SHMPI_WEAK_ALIAS(Status_set_source)
SHMPI_WEAK_ALIAS(Status_get_tag)
SHMPI_WEAK_ALIAS(Status_set_tag)
SHMPI_WEAK_ALIAS(Status_get_error)
SHMPI_WEAK_ALIAS(Status_set_error)

static int null_arg(const char *fn, const void *status)
{
    return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "%s",
                       status ? "the output is NULL"
                              : "status is NULL (MPI_STATUS_IGNORE)");
}

int PMPI_Status_get_source(MPI_Status *status, int *source)
{
    if (!status || !source)
        return null_arg("MPI_Status_get_source", status);
    *source = status->MPI_SOURCE;
    return MPI_SUCCESS;
}

int PMPI_Status_set_source(MPI_Status *status, int source)
{
    if (!status)
        return null_arg("MPI_Status_set_source", status);
    status->MPI_SOURCE = source;
    return MPI_SUCCESS;
}

int PMPI_Status_get_tag(MPI_Status *status, int *tag)
{
    if (!status || !tag)
        return null_arg("MPI_Status_get_tag", status);
    *tag = status->MPI_TAG;
    return MPI_SUCCESS;
}

int PMPI_Status_set_tag(MPI_Status *status, int tag)
{
    if (!status)
        return null_arg("MPI_Status_set_tag", status);
    status->MPI_TAG = tag;
    return MPI_SUCCESS;
}

int PMPI_Status_get_error(MPI_Status *status, int *error)
{
    if (!status || !error)
        return null_arg("MPI_Status_get_error", status);
    *error = status->MPI_ERROR;
    return MPI_SUCCESS;
}

int PMPI_Status_set_error(MPI_Status *status, int error)
{
    if (!status)
        return null_arg("MPI_Status_set_error", status);
    status->MPI_ERROR = error;
    return MPI_SUCCESS;
}
