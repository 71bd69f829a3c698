/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibcast.c - MPI_Ibcast, and the broadcast schedule that MPI_Bcast runs
 * on an intercommunicator (data.h).  The tree is shmpi_nbc_bcast_from's
 * (iallreduce.c): binomial, ceil(log2 n) messages deep, one message into
 * each process.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "coll/data.h"
#include "coll/reduction.h"

SHMPI_WEAK_ALIAS(Ibcast)
SHMPI_WEAK_ALIAS(Ibcast_c)

/* 5.2.2: the root sends to remote rank 0, which broadcasts in its group;
   the rest of the root's group does nothing. */
static int inter_bcast(struct shmpi_nbc *s, MPI_Comm comm,
                       const struct shmpi_coll_args *a)
{
    struct shmpi_coll_block b;
    if (a->idle)
        return MPI_SUCCESS;
    if (a->at_root) {
        shmpi_coll_block_at(&a->out, 0, &b);
        return shmpi_nbc_send(s, b.buf, b.count, b.type, 0);
    }
    shmpi_coll_block_at(&a->in, 0, &b);
    if (comm->local->rank == 0 &&
        (shmpi_nbc_recv(s, b.buf, b.count, b.type, a->root) ||
         shmpi_nbc_round(s)))
        return MPI_ERR_NO_MEM;
    if (shmpi_nbc_on(s, comm->local))
        return MPI_ERR_NO_MEM;
    return shmpi_nbc_bcast_from(s, comm->local, b.buf, b.count, b.type, 0);
}

int shmpi_nbc_data_bcast(struct shmpi_nbc *s, MPI_Comm comm,
                         const struct shmpi_coll_args *a)
{
    if (comm->is_inter)
        return inter_bcast(s, comm, a);
    struct shmpi_coll_block b;
    shmpi_coll_block_at(&a->in, 0, &b);
    /* every buffer holds as many bytes as the root's: maybe none */
    if (b.len == 0)
        return MPI_SUCCESS;
    return shmpi_nbc_bcast_from(s, comm, b.buf, b.count, b.type, a->root);
}

static int ibcast_call(const char *fn, void *buffer, MPI_Count count,
                       MPI_Datatype datatype, int root, MPI_Comm comm,
                       MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc =
        shmpi_coll_args_bcast(fn, comm, buffer, count, datatype, root, &a);
    return shmpi_nbc_icollective(comm, rc, shmpi_nbc_data_bcast, &a, request,
                                 fn);
}

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
                MPI_Comm comm, MPI_Request *request)
{
    return ibcast_call("MPI_Ibcast", buffer, count, datatype, root, comm,
                       request);
}

int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype,
                  int root, MPI_Comm comm, MPI_Request *request)
{
    return ibcast_call("MPI_Ibcast_c", buffer, count, datatype, root, comm,
                       request);
}
