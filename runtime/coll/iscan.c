/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iscan.c - MPI_Iscan and MPI_Iexscan: a chain along the ranks.  Member
 * i receives x0 op ... op x(i-1) from i - 1, folds its own data in after
 * it (rank order, whatever the op) and passes the result on to i + 1.
 * n - 1 rounds end to end, but each member waits for one message and
 * sends one, and the chain's links run as soon as their prefix arrives.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "coll/check.h"
#include "coll/reduce_args.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "coll/reduction.h"

SHMPI_WEAK_ALIAS(Iscan)
SHMPI_WEAK_ALIAS(Iscan_c)
SHMPI_WEAK_ALIAS(Iexscan)
SHMPI_WEAK_ALIAS(Iexscan_c)

/* recvbuf = own data, then prefix op recvbuf; passed on from there. */
int shmpi_nbc_build_scan(struct shmpi_nbc *s, MPI_Comm comm,
                         const struct shmpi_coll_red *x)
{
    int me = comm->rank, last = comm->size - 1;
    MPI_Datatype t = x->type;
    if (shmpi_nbc_copy(s, x->sbuf, x->count, t, x->rbuf, x->count, t))
        return MPI_ERR_NO_MEM;
    if (me > 0) {
        void *prefix = shmpi_nbc_scratch(s, t, x->count);
        if (!prefix || shmpi_nbc_recv(s, prefix, x->count, t, me - 1) ||
            shmpi_nbc_reduce(s, prefix, x->rbuf, x->count, t, x->op))
            return MPI_ERR_NO_MEM;
    }
    if (shmpi_nbc_round(s) ||
        (me < last && shmpi_nbc_send(s, x->rbuf, x->count, t, me + 1)))
        return MPI_ERR_NO_MEM;
    return shmpi_nbc_round(s);
}

/* recvbuf = the prefix as received; the next member gets prefix op own
   data, made in scratch from a copy of the own data taken before the
   prefix lands (MPI_IN_PLACE puts them in the same buffer). */
int shmpi_nbc_build_exscan(struct shmpi_nbc *s, MPI_Comm comm,
                           const struct shmpi_coll_red *x)
{
    int me = comm->rank, last = comm->size - 1;
    MPI_Datatype t = x->type;
    MPI_Count n = x->count;
    const void *next = x->sbuf; /* what goes on to me + 1 */
    if (me > 0 && me < last) {
        void *own = shmpi_nbc_scratch(s, t, n);
        if (!own || shmpi_nbc_copy(s, x->sbuf, n, t, own, n, t) ||
            shmpi_nbc_round(s) ||
            shmpi_nbc_recv(s, x->rbuf, n, t, me - 1) ||
            shmpi_nbc_reduce(s, x->rbuf, own, n, t, x->op))
            return MPI_ERR_NO_MEM;
        next = own;
    } else if (me > 0 && shmpi_nbc_recv(s, x->rbuf, n, t, me - 1)) {
        return MPI_ERR_NO_MEM;
    }
    if (shmpi_nbc_round(s) ||
        (me < last && shmpi_nbc_send(s, next, n, t, me + 1)))
        return MPI_ERR_NO_MEM;
    return shmpi_nbc_round(s);
}

static int start(const char *fn, const void *sendbuf, void *recvbuf,
                 MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, enum shmpi_red_kind kind, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scan(fn, sendbuf, recvbuf, count, datatype, op,
                                      comm, kind, &x);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return shmpi_nbc_refuse_call(comm, rc);
    return shmpi_nbc_reduction_start(fn, comm, &x, request);
}

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count,
               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request *request)
{
    return start("MPI_Iscan", sendbuf, recvbuf, count, datatype, op, comm,
                 SHMPI_RED_SCAN, request);
}

int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    return start("MPI_Iscan_c", sendbuf, recvbuf, count, datatype, op, comm,
                 SHMPI_RED_SCAN, request);
}

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    return start("MPI_Iexscan", sendbuf, recvbuf, count, datatype, op, comm,
                 SHMPI_RED_EXSCAN, request);
}

int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request)
{
    return start("MPI_Iexscan_c", sendbuf, recvbuf, count, datatype, op, comm,
                 SHMPI_RED_EXSCAN, request);
}
