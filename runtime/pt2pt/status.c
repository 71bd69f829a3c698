/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * status.c - what a status says about a received message:
 * MPI_Get_count, MPI_Get_elements, MPI_Get_elements_x (3.2.5, 4.1.11)
 * and their large-count forms MPI_Get_count_c, MPI_Get_elements_c
 * (MPI-4.0).  An int form whose answer does not fit in an int says
 * MPI_UNDEFINED (MPI-4.0 3.2.5, 5.1.11).
 */
#include <limits.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Get_count)
SHMPI_WEAK_ALIAS(Get_elements)
SHMPI_WEAK_ALIAS(Get_elements_x)
SHMPI_WEAK_ALIAS(Get_count_c)
SHMPI_WEAK_ALIAS(Get_elements_c)

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

/* Whole elements of dt in the message, or MPI_UNDEFINED. */
static MPI_Count count_of(const MPI_Status *status, MPI_Datatype dt)
{
    MPI_Count n = status->shmpi_nbytes;
    if (dt->size == 0)
        return 0; /* 3.2.5: a zero-size datatype counts 0 */
    return n % dt->size ? MPI_UNDEFINED : n / dt->size;
}

/* n as an int form returns it. */
static int int_or_undefined(MPI_Count n)
{
    return n > INT_MAX ? MPI_UNDEFINED : (int)n;
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype dt, int *count)
{
    SHMPI_REQUIRE_INIT("MPI_Get_count");
    int rc = check("MPI_Get_count", status, dt, count);
    if (rc == MPI_SUCCESS)
        *count = int_or_undefined(count_of(status, dt));
    return rc;
}

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype dt,
                     MPI_Count *count)
{
    SHMPI_REQUIRE_INIT("MPI_Get_count_c");
    int rc = check("MPI_Get_count_c", status, dt, count);
    if (rc == MPI_SUCCESS)
        *count = count_of(status, dt);
    return rc;
}

static int get_elements(const char *fn, const MPI_Status *status,
                        MPI_Datatype dt, MPI_Count *count)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = check(fn, status, dt, count);
    if (rc == MPI_SUCCESS)
        *count = shmpi_dt_elements(dt, status->shmpi_nbytes);
    return rc;
}

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype dt,
                        MPI_Count *count)
{
    return get_elements("MPI_Get_elements_x", status, dt, count);
}

int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype dt,
                        MPI_Count *count)
{
    return get_elements("MPI_Get_elements_c", status, dt, count);
}

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype dt, int *count)
{
    SHMPI_REQUIRE_INIT("MPI_Get_elements");
    int rc = check("MPI_Get_elements", status, dt, count);
    if (rc == MPI_SUCCESS)
        *count = int_or_undefined(shmpi_dt_elements(dt,
                                                    status->shmpi_nbytes));
    return rc;
}
