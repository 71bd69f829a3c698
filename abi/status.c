/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * status.c - the ABI's functions that read or write a status (abi.h):
 * shmpi's status has the ABI's layout, so each hands the program's to
 * shmpi's call as it is.  MPI_SOURCE, MPI_TAG and MPI_ERROR are read and
 * written as the program's values, whatever they are: a status may carry
 * any (MPI-4.1 3.2.5), and shmpi's calls copy them unchanged.
 */
#include "abi/abi.h"

/* MPI_Get_count and MPI_Get_elements, and their _c forms. */
#define ABI_STATUS_COUNT(name, count_t)                                    \
    ABI_FN(int, name, (const abi_Status *status, abi_Datatype dt,          \
                       count_t *count))                                    \
    {                                                                      \
        return PMPI_##name(cstatus_in(status), dt_in(dt), count);          \
    }
ABI_STATUS_COUNT(Get_count, int)
ABI_STATUS_COUNT(Get_count_c, MPI_Count)
ABI_STATUS_COUNT(Get_elements, int)
ABI_STATUS_COUNT(Get_elements_c, MPI_Count)
ABI_STATUS_COUNT(Get_elements_x, MPI_Count)

ABI_FN(int, Test_cancelled, (const abi_Status *status, int *flag))
{
    return PMPI_Test_cancelled(cstatus_in(status), flag);
}

ABI_FN(int, Status_set_cancelled, (abi_Status *status, int flag))
{
    return PMPI_Status_set_cancelled(status_in(status), flag);
}

/* MPI_Status_set_elements, _x and _c, of a count of type count_t. */
#define ABI_SET_ELEMENTS(name, count_t)                                    \
    ABI_FN(int, name, (abi_Status *status, abi_Datatype dt, count_t count))\
    {                                                                      \
        return PMPI_##name(status_in(status), dt_in(dt), count);           \
    }
ABI_SET_ELEMENTS(Status_set_elements, int)
ABI_SET_ELEMENTS(Status_set_elements_x, MPI_Count)
ABI_SET_ELEMENTS(Status_set_elements_c, MPI_Count)

/* MPI_Status_get_/set_source, _tag, _error. */
#define ABI_STATUS_FIELD(Name)                                             \
    ABI_FN(int, Status_get_##Name, (abi_Status *status, int *v))           \
    {                                                                      \
        return PMPI_Status_get_##Name(status_in(status), v);               \
    }                                                                      \
    ABI_FN(int, Status_set_##Name, (abi_Status *status, int v))            \
    {                                                                      \
        return PMPI_Status_set_##Name(status_in(status), v);               \
    }
ABI_STATUS_FIELD(source)
ABI_STATUS_FIELD(tag)
ABI_STATUS_FIELD(error)
