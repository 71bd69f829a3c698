/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * errcodes.c - the error classes, codes and strings a program adds,
 * looks up and takes back (abi.h): shmpi's classes, MPI_ERR_LASTCODE,
 * the codes it adds above it and MPI_MAX_ERROR_STRING are the ABI's, so
 * each call passes its arguments through.
 */
#include "abi/abi.h"

ABI_FN(int, Add_error_class, (int *errorclass))
{
    return PMPI_Add_error_class(errorclass);
}

ABI_FN(int, Add_error_code, (int errorclass, int *errorcode))
{
    return PMPI_Add_error_code(errorclass, errorcode);
}

ABI_FN(int, Add_error_string, (int errorcode, const char *string))
{
    return PMPI_Add_error_string(errorcode, string);
}

ABI_FN(int, Error_string, (int errorcode, char *string, int *resultlen))
{
    return PMPI_Error_string(errorcode, string, resultlen);
}

/* MPI_Remove_error_class, _code, _string. */
#define ABI_REMOVE(name)                                                   \
    ABI_FN(int, name, (int e))                                             \
    {                                                                      \
        return PMPI_##name(e);                                             \
    }
ABI_REMOVE(Remove_error_class)
ABI_REMOVE(Remove_error_code)
ABI_REMOVE(Remove_error_string)
