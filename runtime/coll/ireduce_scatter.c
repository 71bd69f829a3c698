/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ireduce_scatter.c - MPI_Ireduce_scatter_block and MPI_Ireduce_scatter:
 * the reduction tree (ireduce.c) brings the whole vector to member 0, in
 * scratch, which sends member i its segment.  With MPI_IN_PLACE the
 * vector is in recvbuf and the segment comes back to its start.
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

SHMPI_WEAK_ALIAS(Ireduce_scatter_block)
SHMPI_WEAK_ALIAS(Ireduce_scatter_block_c)
SHMPI_WEAK_ALIAS(Ireduce_scatter)
SHMPI_WEAK_ALIAS(Ireduce_scatter_c)

int shmpi_nbc_scatter_segments(struct shmpi_nbc *s, MPI_Comm comm,
                               const void *full,
                               const struct shmpi_coll_red *x)
{
    MPI_Datatype t = x->type;
    MPI_Count first, count;
    if (comm->rank != 0) {
        shmpi_coll_segment(x, comm->size, comm->rank, &first, &count);
        if (count > 0 && shmpi_nbc_recv(s, x->rbuf, count, t, 0))
            return MPI_ERR_NO_MEM;
        return shmpi_nbc_round(s);
    }
    const unsigned char *at = full;
    for (int i = 1; i < comm->size; i++) {
        shmpi_coll_segment(x, comm->size, i, &first, &count);
        if (count > 0 &&
            shmpi_nbc_send(s, at + first * t->extent, count, t, i))
            return MPI_ERR_NO_MEM;
    }
    shmpi_coll_segment(x, comm->size, 0, &first, &count);
    if (count > 0 && shmpi_nbc_copy(s, at + first * t->extent, count, t,
                                    x->rbuf, count, t))
        return MPI_ERR_NO_MEM;
    return shmpi_nbc_round(s);
}

int shmpi_nbc_build_scatter(struct shmpi_nbc *s, MPI_Comm comm,
                            const struct shmpi_coll_red *x)
{
    const void *full = NULL;
    int rc = shmpi_nbc_reduce_to(s, comm, x->sbuf, NULL, x->count, x->type,
                                 x->op, 0, &full);
    if (rc == MPI_SUCCESS)
        rc = shmpi_nbc_scatter_segments(s, comm, full, x);
    return rc;
}

static int start(const char *fn, MPI_Comm comm, int rc,
                 const struct shmpi_coll_red *x, MPI_Request *request)
{
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return shmpi_nbc_refuse_call(comm, rc);
    return shmpi_nbc_reduction_start(fn, comm, x, request);
}

static int block_call(const char *fn, const void *sendbuf, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scatter_block(fn, sendbuf, recvbuf, recvcount,
                                               datatype, op, comm, &x);
    return start(fn, comm, rc, &x, request);
}

/* wide: recvcounts is the _c form's (vec.h) */
static int counts_call(const char *fn, int wide, const void *sendbuf,
                       void *recvbuf, const void *recvcounts,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scatter(fn, sendbuf, recvbuf,
                                         shmpi_coll_vec_of(recvcounts, wide),
                                         datatype, op, comm, &x);
    return start(fn, comm, rc, &x, request);
}

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf,
                               int recvcount, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request *request)
{
    return block_call("MPI_Ireduce_scatter_block", sendbuf, recvbuf,
                      recvcount, datatype, op, comm, request);
}

int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request)
{
    return block_call("MPI_Ireduce_scatter_block_c", sendbuf, recvbuf,
                      recvcount, datatype, op, comm, request);
}

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf,
                         const int recvcounts[], MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return counts_call("MPI_Ireduce_scatter", 0, sendbuf, recvbuf,
                       recvcounts, datatype, op, comm, request);
}

int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf,
                           const MPI_Count recvcounts[], MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return counts_call("MPI_Ireduce_scatter_c", 1, sendbuf, recvbuf,
                       recvcounts, datatype, op, comm, request);
}
