/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * decode.c - MPI_Type_get_envelope and MPI_Type_get_contents, and their
 * large-count (_c) forms, through the ABI (abi.h): the combiner is the
 * ABI's; the integers of a subarray or darray carry its order and
 * distributions, given as the ABI's; the datatypes are the ABI's
 * handles, a predefined one as its integer.
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
    return rc;
}

ABI_FN(int, Type_get_envelope_c, (abi_Datatype dt, MPI_Count *num_integers,
                                  MPI_Count *num_addresses,
                                  MPI_Count *num_large_counts,
                                  MPI_Count *num_datatypes, int *combiner))
{
    int rc = PMPI_Type_get_envelope_c(dt_in(dt), num_integers, num_addresses,
                                      num_large_counts, num_datatypes,
                                      combiner);
    if (rc == MPI_SUCCESS)
        *combiner = shmpi_abi_combiner_out(*combiner);
    return rc;
}

/* The constants among the integers of a subarray (ndims, sizes,
   subsizes, starts, order) or darray (size, rank, ndims, gsizes,
   distribs, dargs, psizes, order), as the ABI's; n of them were
   written.  A _c constructor's type (large) keeps its sizes, subsizes,
   starts and gsizes among the large counts instead (MPI-4.0 5.1.13). */
static void ints_out(int combiner, int *ints, int n, int large)
{
    if (combiner == MPI_COMBINER_SUBARRAY && n > 0) {
        int order = large ? 1 : 3 * ints[0] + 1;
        if (order < n)
            ints[order] = shmpi_abi_order_out(ints[order]);
    } else if (combiner == MPI_COMBINER_DARRAY && n > 2) {
        int nd = ints[2], distribs = 3 + (large ? 0 : nd);
        if (distribs + 3 * nd >= n)
            return;
        for (int i = 0; i < nd; i++) {
            ints[distribs + i] = shmpi_abi_distrib_out(ints[distribs + i]);
            ints[distribs + nd + i] =
                shmpi_abi_darg_out(ints[distribs + nd + i]);
        }
        ints[distribs + 3 * nd] = shmpi_abi_order_out(ints[distribs + 3 * nd]);
    }
}

/* After shmpi wrote a valid t's contents: its integers' constants and
   its datatypes, which shmpi wrote over the program's array, each as
   wide as the ABI's, translated in place. */
static int contents_out(MPI_Datatype t, int *integers, MPI_Count max_integers,
                        abi_Datatype *datatypes, MPI_Count max_datatypes)
{
    MPI_Count ni = 0, na = 0, nc = 0, nd = 0;
    int combiner = 0;
    int rc = PMPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &combiner);
    if (rc != MPI_SUCCESS)
        return rc;
    ints_out(combiner, integers, (int)(ni < max_integers ? ni : max_integers),
             nc > 0);
    for (MPI_Count i = 0; i < nd && i < max_datatypes; i++)
        datatypes[i] = ABI_OUT(abi_Datatype,
                               ((MPI_Datatype *)(void *)datatypes)[i],
                               DATATYPE);
    return MPI_SUCCESS;
}

ABI_FN(int, Type_get_contents, (abi_Datatype dt, int max_integers,
                                int max_addresses, int max_datatypes,
                                int integers[], MPI_Aint addresses[],
                                abi_Datatype datatypes[]))
{
    MPI_Datatype t = dt_in(dt);
    int rc = PMPI_Type_get_contents(t, max_integers, max_addresses,
                                    max_datatypes, integers, addresses,
                                    (MPI_Datatype *)(void *)datatypes);
    if (rc == MPI_SUCCESS)
        rc = contents_out(t, integers, max_integers, datatypes,
                          max_datatypes);
    return rc;
}

ABI_FN(int, Type_get_contents_c, (abi_Datatype dt, MPI_Count max_integers,
                                  MPI_Count max_addresses,
                                  MPI_Count max_large_counts,
                                  MPI_Count max_datatypes, int integers[],
                                  MPI_Aint addresses[],
                                  MPI_Count large_counts[],
                                  abi_Datatype datatypes[]))
{
    MPI_Datatype t = dt_in(dt);
    int rc = PMPI_Type_get_contents_c(t, max_integers, max_addresses,
                                      max_large_counts, max_datatypes,
                                      integers, addresses, large_counts,
                                      (MPI_Datatype *)(void *)datatypes);
    if (rc == MPI_SUCCESS)
        rc = contents_out(t, integers, max_integers, datatypes,
                          max_datatypes);
    return rc;
}
