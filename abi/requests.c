/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * requests.c - the ABI's completion and request functions (abi.h): Wait,
 * Test and their any/all/some forms, Start, Cancel, Request_free and
 * _get_status.
 *
 * A request shmpi made is its own pointer in both ABIs and
 * MPI_REQUEST_NULL 0x180 in both, so the program's handles, and arrays
 * of them, are shmpi's, and the handle a completion frees becomes the
 * ABI's MPI_REQUEST_NULL in shmpi's hands; statuses, of the ABI's layout
 * and values in shmpi too, are the program's.  Each call passes its
 * arguments through.
 */
#include "abi/abi.h"

ABI_FN(int, Wait, (abi_Request *request, abi_Status *status))
{
    return PMPI_Wait(reqp_in(request), status_in(status));
}

ABI_FN(int, Test, (abi_Request *request, int *flag, abi_Status *status))
{
    return PMPI_Test(reqp_in(request), flag, status_in(status));
}

ABI_FN(int, Request_get_status, (abi_Request request, int *flag,
                                 abi_Status *status))
{
    return PMPI_Request_get_status(req_in(request), flag, status_in(status));
}

/* The calls on one request's handle. */
#define ABI_REQ_ACT(name)                                                  \
    ABI_FN(int, name, (abi_Request *request))                              \
    {                                                                      \
        return PMPI_##name(reqp_in(request));                              \
    }
ABI_REQ_ACT(Request_free)
ABI_REQ_ACT(Start)
ABI_REQ_ACT(Cancel)

ABI_FN(int, Waitall, (int count, abi_Request reqs[], abi_Status st[]))
{
    return PMPI_Waitall(count, reqp_in(reqs), status_in(st));
}

ABI_FN(int, Waitany, (int count, abi_Request reqs[], int *index,
                      abi_Status *status))
{
    return PMPI_Waitany(count, reqp_in(reqs), index, status_in(status));
}

/* Waitsome, Testsome and Request_get_status_some. */
#define ABI_SOME(name)                                                     \
    ABI_FN(int, name, (int count, abi_Request reqs[], int *outcount,       \
                       int indices[], abi_Status st[]))                    \
    {                                                                      \
        return PMPI_##name(count, reqp_in(reqs), outcount, indices,        \
                           status_in(st));                                 \
    }
ABI_SOME(Waitsome)
ABI_SOME(Testsome)
ABI_SOME(Request_get_status_some)

ABI_FN(int, Startall, (int count, abi_Request reqs[]))
{
    return PMPI_Startall(count, reqp_in(reqs));
}

/* Testall and Request_get_status_all. */
#define ABI_ALL_FLAG(name)                                                 \
    ABI_FN(int, name, (int count, abi_Request reqs[], int *flag,           \
                       abi_Status st[]))                                   \
    {                                                                      \
        return PMPI_##name(count, reqp_in(reqs), flag, status_in(st));     \
    }
ABI_ALL_FLAG(Testall)
ABI_ALL_FLAG(Request_get_status_all)

/* Testany and Request_get_status_any. */
#define ABI_ANY_FLAG(name)                                                 \
    ABI_FN(int, name, (int count, abi_Request reqs[], int *index,          \
                       int *flag, abi_Status *status))                     \
    {                                                                      \
        return PMPI_##name(count, reqp_in(reqs), index, flag,              \
                           status_in(status));                             \
    }
ABI_ANY_FLAG(Testany)
ABI_ANY_FLAG(Request_get_status_any)
