/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * decode.c - MPI_Type_get_envelope and MPI_Type_get_contents through the
 * ABI (abi.h): the combiner is the ABI's; the integers of a subarray or
 * darray carry its order and distributions, given as the ABI's; the
 * datatypes are the ABI's handles, a predefined one as its integer.
 */
#include "abi/abi.h"

ABI_FN(int, Type_get_envelope, (abi_Datatype dt, int *num_integers,
                                int *num_addresses, int *num_datatypes,
                                int *combiner))
{
    int rc = PMPI_Type_get_envelope(dt_in(dt), num_integers, num_addresses,
                                    num_datatypes, combiner);
    if (rc == MPI_SUCCESS)
        *combiner = shmpi_abi_combiner_out(*combiner);
    return err_out(rc);
}

/* The constants among the integers of a subarray (ndims, sizes,
   subsizes, starts, order) or darray (size, rank, ndims, gsizes,
   distribs, dargs, psizes, order), as the ABI's; n of them were
   written. */
static void ints_out(int combiner, int *ints, int n)
{
    if (combiner == MPI_COMBINER_SUBARRAY && n > 0 && 3 * ints[0] + 1 < n) {
        ints[3 * ints[0] + 1] = shmpi_abi_order_out(ints[3 * ints[0] + 1]);
    } else if (combiner == MPI_COMBINER_DARRAY && n > 2 &&
               3 + 4 * ints[2] < n) {
        int nd = ints[2];
        for (int i = 0; i < nd; i++) {
            ints[3 + nd + i] = shmpi_abi_distrib_out(ints[3 + nd + i]);
            ints[3 + 2 * nd + i] = shmpi_abi_darg_out(ints[3 + 2 * nd + i]);
        }
        ints[3 + 4 * nd] = shmpi_abi_order_out(ints[3 + 4 * nd]);
    }
}

ABI_FN(int, Type_get_contents, (abi_Datatype dt, int max_integers,
                                int max_addresses, int max_datatypes,
                                int integers[], MPI_Aint addresses[],
                                abi_Datatype datatypes[]))
{
    MPI_Datatype t = dt_in(dt);
    /* shmpi writes its handles over the program's array, each as wide
       as the ABI's, and they are translated in place */
    int rc = PMPI_Type_get_contents(t, max_integers, max_addresses,
                                    max_datatypes, integers, addresses,
                                    (MPI_Datatype *)(void *)datatypes);
    int ni = 0, na = 0, nd = 0, combiner = 0;
    if (rc == MPI_SUCCESS)      /* t is valid: its envelope is had */
        rc = PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
    if (rc != MPI_SUCCESS)
        return err_out(rc);
    ints_out(combiner, integers, ni < max_integers ? ni : max_integers);
    for (int i = 0; i < nd && i < max_datatypes; i++)
        datatypes[i] = ABI_OUT(abi_Datatype,
                               ((MPI_Datatype *)(void *)datatypes)[i],
                               DATATYPE);
    return MPI_SUCCESS;
}
