/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * info.c - the ABI's info functions (abi.h); MPI_INFO_ENV is 0x131 and
 * MPI_INFO_NULL 0x130.  MPI_Info_get and MPI_Info_get_valuelen are
 * deprecated since MPI-4.0 and in the ABI's header all the same (its
 * deprecated bindings, A.3).
 *
 * The ABI's MPI_MAX_INFO_KEY is 256, shmpi's 255: this library's link
 * takes the definition below in place of shmpi's weak one (core/info.c),
 * so that its calls take keys of up to 255 characters and reject longer
 * ones, as the program's header says.
 */
#include "abi/abi.h"

#define ABI_MAX_INFO_KEY 256

int shmpi_info_key_max = ABI_MAX_INFO_KEY - 1;

ABI_FN(int, Info_create, (abi_Info *info))
{
    MPI_Info in;
    int rc = PMPI_Info_create(info ? &in : NULL);
    if (rc == MPI_SUCCESS)
        *info = ABI_OUT(abi_Info, in, INFO);
    return rc;
}

ABI_FN(int, Info_set, (abi_Info info, const char *key, const char *value))
{
    return PMPI_Info_set(info_in(info), key, value);
}

ABI_FN(int, Info_get_string, (abi_Info info, const char *key, int *buflen,
                              char *value, int *flag))
{
    return PMPI_Info_get_string(info_in(info), key, buflen, value,
                                flag);
}

ABI_FN(int, Info_free, (abi_Info *info))
{
    MPI_Info in = info ? info_in(*info) : NULL;
    int rc = PMPI_Info_free(info ? &in : NULL);
    if (info)
        *info = ABI_OUT(abi_Info, in, INFO);
    return rc;
}

ABI_FN(int, Info_create_env, (int argc, char *argv[], abi_Info *info))
{
    MPI_Info in;
    int rc = PMPI_Info_create_env(argc, argv, info ? &in : NULL);
    MADE(rc, info, in, abi_Info, INFO);
    return rc;
}

ABI_FN(int, Info_dup, (abi_Info info, abi_Info *newinfo))
{
    MPI_Info in;
    int rc = PMPI_Info_dup(info_in(info), newinfo ? &in : NULL);
    MADE(rc, newinfo, in, abi_Info, INFO);
    return rc;
}

ABI_FN(int, Info_delete, (abi_Info info, const char *key))
{
    return PMPI_Info_delete(info_in(info), key);
}

ABI_FN(int, Info_get_nkeys, (abi_Info info, int *nkeys))
{
    return PMPI_Info_get_nkeys(info_in(info), nkeys);
}

ABI_FN(int, Info_get_nthkey, (abi_Info info, int n, char *key))
{
    return PMPI_Info_get_nthkey(info_in(info), n, key);
}

ABI_FN(int, Info_get, (abi_Info info, const char *key, int valuelen,
                       char *value, int *flag))
{
    return PMPI_Info_get(info_in(info), key, valuelen, value, flag);
}

ABI_FN(int, Info_get_valuelen, (abi_Info info, const char *key,
                                int *valuelen, int *flag))
{
    return PMPI_Info_get_valuelen(info_in(info), key, valuelen,
                                  flag);
}
