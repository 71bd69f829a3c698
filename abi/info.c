/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * info.c - the ABI's info functions (abi.h), those MPI_Abi_get_info's
 * object is read and freed with.
 */
#include "abi/abi.h"

ABI_FN(int, Info_create, (abi_Info *info))
{
    MPI_Info in;
    int rc = PMPI_Info_create(info ? &in : NULL);
    if (rc == MPI_SUCCESS)
        *info = ABI_OUT(abi_Info, in, INFO);
    return err_out(rc);
}

ABI_FN(int, Info_set, (abi_Info info, const char *key, const char *value))
{
    return err_out(PMPI_Info_set(info_in(info), key, value));
}

ABI_FN(int, Info_get_string, (abi_Info info, const char *key, int *buflen,
                              char *value, int *flag))
{
    return err_out(PMPI_Info_get_string(info_in(info), key, buflen, value,
                                        flag));
}

ABI_FN(int, Info_free, (abi_Info *info))
{
    MPI_Info in = info ? info_in(*info) : NULL;
    int rc = PMPI_Info_free(info ? &in : NULL);
    if (info)
        *info = ABI_OUT(abi_Info, in, INFO);
    return err_out(rc);
}
