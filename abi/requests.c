/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * requests.c - the ABI's completion and request functions (abi.h): Wait,
 * Test and their any/all/some forms, Start, Cancel, Request_free and
 * _get_status.
 *
 * A completion changes a request in one way only: it frees it, and the
 * program's handle becomes MPI_REQUEST_NULL; any other handle is left as
 * the program gave it; shmpi's MPI_REQUEST_NULL (NULL) is the ABI's
 * 0x180.  Arrays of requests are converted into arrays of shmpi's
 * (struct reqs); statuses, of the ABI's layout and values in shmpi
 * too, are the program's (abi.h).
 */
#include <stdlib.h>

#include "abi/abi.h"

static inline void req_done(MPI_Request r, abi_Request *request)
{
    if (!r)
        *request = (abi_Request)ABI_REQUEST_FIRST;
}

ABI_FN(int, Wait, (abi_Request *request, abi_Status *status))
{
    MPI_Request r = request ? req_in(*request) : NULL;
    int rc = PMPI_Wait(request ? &r : NULL, status_in(status));
    if (request)
        req_done(r, request);
    return rc;
}

ABI_FN(int, Test, (abi_Request *request, int *flag, abi_Status *status))
{
    MPI_Request r = request ? req_in(*request) : NULL;
    int rc = PMPI_Test(request ? &r : NULL, flag, status_in(status));
    if (request)
        req_done(r, request);
    return rc;
}

ABI_FN(int, Request_get_status, (abi_Request request, int *flag,
                                 abi_Status *status))
{
    return PMPI_Request_get_status(req_in(request), flag, status_in(status));
}

ABI_FN(int, Request_free, (abi_Request *request))
{
    MPI_Request r = request ? req_in(*request) : NULL;
    int rc = PMPI_Request_free(request ? &r : NULL);
    if (request)
        req_done(r, request);
    return rc;
}

/* The calls that act on a request and leave the handle as it is. */
#define ABI_REQ_ACT(name)                                                  \
    ABI_FN(int, name, (abi_Request *request))                              \
    {                                                                      \
        MPI_Request r = request ? req_in(*request) : NULL;                 \
        return PMPI_##name(request ? &r : NULL);                           \
    }
ABI_REQ_ACT(Start)
ABI_REQ_ACT(Cancel)

/* ---- arrays of requests ---- */

/* Up to this many requests are converted on the stack; more in memory
   of their own, freed by reqs_out. */
enum { REQS_STACK = 32 };

struct reqs {
    MPI_Request *r;
    MPI_Request rbuf[REQS_STACK];
};

/* The program's requests (count of them, reqs, checked by the caller)
   as shmpi's.  MPI_ERR_NO_MEM when they do not fit in memory. */
static int reqs_in(struct reqs *c, int count, abi_Request *reqs)
{
    c->r = c->rbuf;
    if (count > REQS_STACK) {
        c->r = malloc((size_t)count * sizeof *c->r);
        if (!c->r)
            return PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
    }
    for (int i = 0; i < count; i++)
        c->r[i] = req_in(reqs[i]);
    return MPI_SUCCESS;
}

/* The freed requests back to the program as MPI_REQUEST_NULL, and the
   memory given back. */
static void reqs_out(struct reqs *c, int count, abi_Request *reqs)
{
    for (int i = 0; i < count; i++)
        req_done(c->r[i], &reqs[i]);
    if (c->r != c->rbuf)
        free(c->r);
}

/* An array shmpi checks itself: a count <= 0 or no array (NULL passed on,
   for shmpi to report or accept). */
#define REQS_UNCONVERTED(count, reqs) ((count) <= 0 || !(reqs))

ABI_FN(int, Waitall, (int count, abi_Request reqs[], abi_Status st[]))
{
    if (REQS_UNCONVERTED(count, reqs))
        return PMPI_Waitall(count, NULL, MPI_STATUSES_IGNORE);
    struct reqs c;
    int rc = reqs_in(&c, count, reqs);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Waitall(count, c.r, status_in(st));
    reqs_out(&c, count, reqs);
    return rc;
}

ABI_FN(int, Waitany, (int count, abi_Request reqs[], int *index,
                      abi_Status *status))
{
    if (REQS_UNCONVERTED(count, reqs))  /* none: an empty status (3.7.3) */
        return PMPI_Waitany(count, NULL, index, status_in(status));
    struct reqs c;
    int rc = reqs_in(&c, count, reqs);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Waitany(count, c.r, index, status_in(status));
    reqs_out(&c, count, reqs);
    return rc;
}

/* Waitsome and Testsome: the statuses of the *outcount requests done. */
#define ABI_SOME(name)                                                     \
    ABI_FN(int, name, (int count, abi_Request reqs[], int *outcount,       \
                       int indices[], abi_Status st[]))                    \
    {                                                                      \
        if (REQS_UNCONVERTED(count, reqs))                                 \
            return PMPI_##name(count, NULL, outcount, indices,             \
                               MPI_STATUSES_IGNORE);                       \
        struct reqs c;                                                     \
        int rc = reqs_in(&c, count, reqs);                                 \
        if (rc != MPI_SUCCESS)                                             \
            return rc;                                                     \
        rc = PMPI_##name(count, c.r, outcount, indices, status_in(st));    \
        reqs_out(&c, count, reqs);                                         \
        return rc;                                                         \
    }
ABI_SOME(Waitsome)
ABI_SOME(Testsome)

ABI_FN(int, Startall, (int count, abi_Request reqs[]))
{
    if (REQS_UNCONVERTED(count, reqs))
        return PMPI_Startall(count, NULL);
    struct reqs c;
    int rc = reqs_in(&c, count, reqs);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Startall(count, c.r);
    reqs_out(&c, count, reqs);
    return rc;
}

/* Testall and Request_get_status_all: every status when *flag. */
#define ABI_ALL_FLAG(name)                                                 \
    ABI_FN(int, name, (int count, abi_Request reqs[], int *flag,           \
                       abi_Status st[]))                                   \
    {                                                                      \
        if (REQS_UNCONVERTED(count, reqs))                                 \
            return PMPI_##name(count, NULL, flag, MPI_STATUSES_IGNORE);    \
        struct reqs c;                                                     \
        int rc = reqs_in(&c, count, reqs);                                 \
        if (rc != MPI_SUCCESS)                                             \
            return rc;                                                     \
        rc = PMPI_##name(count, c.r, flag, status_in(st));                 \
        reqs_out(&c, count, reqs);                                         \
        return rc;                                                         \
    }
ABI_ALL_FLAG(Testall)
ABI_ALL_FLAG(Request_get_status_all)

/* Testany and Request_get_status_any: the status of the one found. */
#define ABI_ANY_FLAG(name)                                                 \
    ABI_FN(int, name, (int count, abi_Request reqs[], int *index,          \
                       int *flag, abi_Status *status))                     \
    {                                                                      \
        struct reqs c;                                                     \
        int none = REQS_UNCONVERTED(count, reqs); /* an empty status */    \
        int rc = none ? MPI_SUCCESS : reqs_in(&c, count, reqs);            \
        if (rc != MPI_SUCCESS)                                             \
            return rc;                                                     \
        rc = PMPI_##name(count, none ? NULL : c.r, index, flag,            \
                         status_in(status));                               \
        if (!none)                                                         \
            reqs_out(&c, count, reqs);                                     \
        return rc;                                                         \
    }
ABI_ANY_FLAG(Testany)
ABI_ANY_FLAG(Request_get_status_any)

ABI_SOME(Request_get_status_some)
