/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iallreduce.c - MPI_Iallreduce: the reduction tree (ireduce.c) to member
 * 0, straight into its receive buffer, then a binomial broadcast of the
 * result from there.  2 ceil(log2 n) rounds.
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

SHMPI_WEAK_ALIAS(Iallreduce)
SHMPI_WEAK_ALIAS(Iallreduce_c)

/* Member v (counted from root) receives from v without its lowest set
   bit, then sends to v + k for every k below that bit, farthest first
   so that the largest subtree starts soonest. */
int shmpi_nbc_bcast_from(struct shmpi_nbc *s, MPI_Comm comm, void *buf,
                         MPI_Count count, MPI_Datatype t, int root)
{
    int n = comm->size, v = (comm->rank - root + n) % n, low = v & -v;
    if (v == 0) { /* the root: its "lowest set bit" is above them all */
        low = 1;
        while (low < n)
            low <<= 1;
    } else if (shmpi_nbc_recv(s, buf, count, t, (v - low + root) % n) ||
             shmpi_nbc_round(s))
        return MPI_ERR_NO_MEM;
    for (int k = low >> 1; k >= 1; k >>= 1)
        if (v + k < n && shmpi_nbc_send(s, buf, count, t, (v + k + root) % n))
            return MPI_ERR_NO_MEM;
    return shmpi_nbc_round(s);
}

int shmpi_nbc_build_allreduce(struct shmpi_nbc *s, MPI_Comm comm,
                              const struct shmpi_coll_red *x)
{
    const void *at;
    int rc = shmpi_nbc_reduce_to(s, comm, x->sbuf, x->rbuf, x->count,
                                 x->type, x->op, 0, &at);
    if (rc == MPI_SUCCESS)
        rc = shmpi_nbc_bcast_from(s, comm, x->rbuf, x->count, x->type, 0);
    return rc;
}

static int iallreduce_call(const char *fn, const void *sendbuf,
                           void *recvbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_allreduce(fn, sendbuf, recvbuf, count,
                                           datatype, op, comm, &x);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return shmpi_nbc_refuse_call(comm, rc);
    return shmpi_nbc_reduction_start(fn, comm, &x, request);
}

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request)
{
    return iallreduce_call("MPI_Iallreduce", sendbuf, recvbuf, count,
                           datatype, op, comm, request);
}

int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                      MPI_Request *request)
{
    return iallreduce_call("MPI_Iallreduce_c", sendbuf, recvbuf, count,
                           datatype, op, comm, request);
}
