/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * errcodes.c - the error classes, codes and strings a program adds and
 * takes back (abi.h): shmpi's added values are above its
 * MPI_ERR_LASTCODE, the ABI's above 0x3fff, and err_out/shmpi_abi_err_in
 * shift them each way.
 */
#include "abi/abi.h"

ABI_FN(int, Add_error_class, (int *errorclass))
{
    int c = 0;
    int rc = PMPI_Add_error_class(errorclass ? &c : NULL);
    if (rc == MPI_SUCCESS)
        *errorclass = err_out(c);
    return err_out(rc);
}

ABI_FN(int, Add_error_code, (int errorclass, int *errorcode))
{
    int c = 0;
    int rc = PMPI_Add_error_code(shmpi_abi_err_in(errorclass),
                                 errorcode ? &c : NULL);
    if (rc == MPI_SUCCESS)
        *errorcode = err_out(c);
    return err_out(rc);
}

ABI_FN(int, Add_error_string, (int errorcode, const char *string))
{
    return err_out(PMPI_Add_error_string(shmpi_abi_err_in(errorcode),
                                         string));
}

/* MPI_Remove_error_class, _code, _string. */
#define ABI_REMOVE(name)                                                   \
    ABI_FN(int, name, (int e))                                             \
    {                                                                      \
        return err_out(PMPI_##name(shmpi_abi_err_in(e)));                  \
    }
ABI_REMOVE(Remove_error_class)
ABI_REMOVE(Remove_error_code)
ABI_REMOVE(Remove_error_string)
