/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * grequest.c - the ABI's generalized requests (abi.h, MPI-4.1 13.2).
 *
 * The program's query function fills the ABI's status and returns the
 * ABI's codes: shmpi is given trampolines and, as extra_state, a struct
 * greq holding the program's functions and extra_state; the query
 * trampoline hands the program shmpi's status, which has the ABI's
 * layout, and converts the values the program wrote to shmpi's.
 * The struct is freed by the free trampoline, the last call shmpi makes
 * on the request (MPI-4.1 13.2: free_fn is invoked once, after query_fn).
 */
#include <stdlib.h>

#include "abi/abi.h"

typedef int abi_query_fn(void *extra, abi_Status *status);
typedef int abi_free_fn(void *extra);
typedef int abi_cancel_fn(void *extra, int complete);

struct greq {
    abi_query_fn *query;
    abi_free_fn *free;
    abi_cancel_fn *cancel;
    void *extra;
};

static int query(void *extra, MPI_Status *status)
{
    struct greq *g = extra;
    abi_Status *a = (abi_Status *)(void *)status;
    shmpi_abi_status_fix(a);          /* what shmpi wrote, as the ABI's */
    a->MPI_ERROR = err_out(a->MPI_ERROR);
    int rc = g->query(g->extra, a);
    shmpi_abi_status_to_shmpi(status);
    return shmpi_abi_err_in(rc);
}

static int free_greq(void *extra)
{
    struct greq *g = extra;
    int rc = g->free(g->extra);
    free(g);
    return shmpi_abi_err_in(rc);
}

static int cancel(void *extra, int complete)
{
    struct greq *g = extra;
    return shmpi_abi_err_in(g->cancel(g->extra, complete));
}

ABI_FN(int, Grequest_start, (abi_query_fn *query_fn, abi_free_fn *free_fn,
                             abi_cancel_fn *cancel_fn, void *extra_state,
                             abi_Request *request))
{
    if (!query_fn || !free_fn || !cancel_fn || !request)  /* shmpi reports */
        return err_out(PMPI_Grequest_start(NULL, NULL, NULL, extra_state,
                                           NULL));
    struct greq *g = malloc(sizeof *g);
    if (!g)
        return err_out(PMPI_Comm_call_errhandler(MPI_COMM_WORLD,
                                                 MPI_ERR_NO_MEM));
    *g = (struct greq){ query_fn, free_fn, cancel_fn, extra_state };
    MPI_Request r;
    int rc = PMPI_Grequest_start(query, free_greq, cancel, g, &r);
    if (rc != MPI_SUCCESS)
        free(g);
    return started(rc, &r, request);
}

ABI_FN(int, Grequest_complete, (abi_Request request))
{
    return err_out(PMPI_Grequest_complete(req_in(request)));
}
