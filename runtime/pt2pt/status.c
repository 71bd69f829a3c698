/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * status.c - what a status says about a received message:
 * MPI_Get_count, MPI_Get_elements, MPI_Get_elements_x (3.2.5, 4.1.11).
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Get_count)
SHMPI_WEAK_ALIAS(Get_elements)
SHMPI_WEAK_ALIAS(Get_elements_x)

static int check(const char *fn, const MPI_Status *status, MPI_Datatype dt,
                 const void *out)
{
    if (!status || !out)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "status or the result pointer is NULL");
    if (!shmpi_datatype_ok(dt))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, fn,
                           "invalid datatype");
    return MPI_SUCCESS;
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype dt, int *count)
{
    SHMPI_REQUIRE_INIT("MPI_Get_count");
    int rc = check("MPI_Get_count", status, dt, count);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Count n = status->shmpi_nbytes;
    if (dt->size == 0)
        *count = 0; /* 3.2.5: a zero-size datatype counts 0 */
    else if (n % dt->size || n / dt->size > 2147483647)
        *count = MPI_UNDEFINED;
    else
        *count = (int)(n / dt->size);
    return MPI_SUCCESS;
}

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype dt,
                        MPI_Count *count)
{
    SHMPI_REQUIRE_INIT("MPI_Get_elements_x");
    int rc = check("MPI_Get_elements_x", status, dt, count);
    if (rc == MPI_SUCCESS)
        *count = shmpi_dt_elements(dt, status->shmpi_nbytes);
    return rc;
}

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype dt, int *count)
{
    SHMPI_REQUIRE_INIT("MPI_Get_elements");
    int rc = check("MPI_Get_elements", status, dt, count);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Count n = shmpi_dt_elements(dt, status->shmpi_nbytes);
    *count = n > 2147483647 ? MPI_UNDEFINED : (int)n;
    return MPI_SUCCESS;
}
