/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * status.c - the ABI's functions that read or write a status (abi.h):
 * the status is converted to shmpi's, read or written there, and what
 * was written converted back.
 */
#include <string.h>

#include "abi/abi.h"

/* A status the program gives to be read: shmpi's copy of it, or NULL for
   shmpi to report. */
#define STATUS_READ(a, s) ((a) ? (shmpi_abi_status_in((a), &(s)), &(s)) : NULL)

/* shmpi's hidden fields (cancelled flag, byte count) back into the
   program's status, as a call that sets them changed them. */
static void hidden_out(const MPI_Status *s, abi_Status *a)
{
    a->internal[0] = s->shmpi_cancelled;
    memcpy(&a->internal[1], &s->shmpi_nbytes, sizeof s->shmpi_nbytes);
}

/* MPI_Get_count and MPI_Get_elements, and their _c forms. */
#define ABI_STATUS_COUNT(name, count_t)                                    \
    ABI_FN(int, name, (const abi_Status *status, abi_Datatype dt,          \
                       count_t *count))                                    \
    {                                                                      \
        MPI_Status s;                                                      \
        return err_out(PMPI_##name(STATUS_READ(status, s), dt_in(dt),      \
                                   count));                                \
    }
ABI_STATUS_COUNT(Get_count, int)
ABI_STATUS_COUNT(Get_count_c, MPI_Count)
ABI_STATUS_COUNT(Get_elements, int)
ABI_STATUS_COUNT(Get_elements_c, MPI_Count)
ABI_STATUS_COUNT(Get_elements_x, MPI_Count)

ABI_FN(int, Test_cancelled, (const abi_Status *status, int *flag))
{
    MPI_Status s;
    return err_out(PMPI_Test_cancelled(STATUS_READ(status, s), flag));
}

ABI_FN(int, Status_set_cancelled, (abi_Status *status, int flag))
{
    MPI_Status s;
    int rc = PMPI_Status_set_cancelled(STATUS_READ(status, s), flag);
    if (rc == MPI_SUCCESS)
        hidden_out(&s, status);
    return err_out(rc);
}

/* MPI_Status_set_elements, _x and _c, of a count of type count_t. */
#define ABI_SET_ELEMENTS(name, count_t)                                    \
    ABI_FN(int, name, (abi_Status *status, abi_Datatype dt, count_t count))\
    {                                                                      \
        MPI_Status s;                                                      \
        int rc = PMPI_##name(STATUS_READ(status, s), dt_in(dt), count);    \
        if (rc == MPI_SUCCESS)                                             \
            hidden_out(&s, status);                                        \
        return err_out(rc);                                                \
    }
ABI_SET_ELEMENTS(Status_set_elements, int)
ABI_SET_ELEMENTS(Status_set_elements_x, MPI_Count)
ABI_SET_ELEMENTS(Status_set_elements_c, MPI_Count)

/* MPI_Status_get_/set_source, _tag, _error: shmpi's call checks the
   arguments on a status of its own; the value is the program's field as
   it is, since a status may carry any (MPI-4.1 3.2.5). */
#define ABI_STATUS_FIELD(Name, FIELD)                                      \
    ABI_FN(int, Status_get_##Name, (abi_Status *status, int *v))           \
    {                                                                      \
        MPI_Status s = { 0 };                                              \
        int rc = PMPI_Status_get_##Name(status ? &s : NULL, v);            \
        if (rc == MPI_SUCCESS)                                             \
            *v = status->FIELD;                                            \
        return err_out(rc);                                                \
    }                                                                      \
    ABI_FN(int, Status_set_##Name, (abi_Status *status, int v))            \
    {                                                                      \
        MPI_Status s;                                                      \
        int rc = PMPI_Status_set_##Name(status ? &s : NULL, v);            \
        if (rc == MPI_SUCCESS)                                             \
            status->FIELD = v;                                             \
        return err_out(rc);                                                \
    }
ABI_STATUS_FIELD(source, MPI_SOURCE)
ABI_STATUS_FIELD(tag, MPI_TAG)
ABI_STATUS_FIELD(error, MPI_ERROR)
