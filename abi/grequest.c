/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * grequest.c - the ABI's generalized requests (abi.h, MPI-4.1 13.2).
 *
 * The program's functions are given to shmpi as they are: the status
 * shmpi hands the query function has the ABI's layout and values, and
 * the error codes the functions return are the same in both, so the
 * ABI's function types are shmpi's.
 */
#include "abi/abi.h"

ABI_FN(int, Grequest_start, (MPI_Grequest_query_function *query_fn,
                             MPI_Grequest_free_function *free_fn,
                             MPI_Grequest_cancel_function *cancel_fn,
                             void *extra_state, abi_Request *request))
{
    return PMPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state,
                               reqp_in(request));
}

ABI_FN(int, Grequest_complete, (abi_Request request))
{
    return PMPI_Grequest_complete(req_in(request));
}
