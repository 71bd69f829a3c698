/*
 * reduce_scatter.c - MPI_Reduce_scatter_block and MPI_Reduce_scatter:
 * member i gets segment i of the reduced vector (reduce.c reduces each
 * segment by the member that needs it).  With MPI_IN_PLACE the whole
 * vector is in recvbuf and the segment comes back to its start.
 */
#include "coll/check.h"
#include "coll/reduce.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Reduce_scatter_block)
SHMPI_WEAK_ALIAS(Reduce_scatter)

/* Checks and runs; `mine` is this member's segment, `total` the vector. */
static int reduce_scatter(const char *fn, const void *sendbuf, void *recvbuf,
                          MPI_Count total, int mine, struct shmpi_coll_red *x,
                          MPI_Comm comm)
{
    int in_place = sendbuf == MPI_IN_PLACE;
    /* counts were checked: this checks the type and the buffer */
    int rc = shmpi_coll_check_data(fn, comm, in_place ? recvbuf : sendbuf,
                                   total > 0, x->type,
                                   in_place ? "recvbuf" : "sendbuf");
    if (rc == MPI_SUCCESS && !in_place)
        rc = shmpi_coll_check_data(fn, comm, recvbuf, mine, x->type,
                                   "recvbuf");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_op(fn, comm, x->op, x->type);
    if (rc == MPI_SUCCESS && !in_place)
        rc = shmpi_coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    mine > 0 && x->type->size > 0);
    if (rc != MPI_SUCCESS || total == 0 || x->type->size == 0)
        return rc;
    x->kind = SHMPI_RED_SCATTER;
    x->sbuf = in_place ? recvbuf : sendbuf;
    x->rbuf = recvbuf;
    x->count = total;
    return shmpi_coll_reduction(comm, x, fn);
}

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
                              int recvcount, MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm)
{
    static const char fn[] = "MPI_Reduce_scatter_block";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS && recvcount < 0)
        rc = shmpi_raise(comm, MPI_ERR_COUNT, fn,
                         "recvcount is negative (%d)", recvcount);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_coll_red x = {.type = datatype, .op = op,
                               .seg_count = recvcount};
    return reduce_scatter(fn, sendbuf, recvbuf,
                          (MPI_Count)recvcount * comm->size, recvcount, &x,
                          comm);
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
                        const int recvcounts[], MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm)
{
    static const char fn[] = "MPI_Reduce_scatter";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS && !recvcounts)
        rc = shmpi_raise(comm, MPI_ERR_ARG, fn, "recvcounts is NULL");
    MPI_Count total = 0;
    for (int i = 0; rc == MPI_SUCCESS && i < comm->size; i++) {
        if (recvcounts[i] < 0)
            rc = shmpi_raise(comm, MPI_ERR_COUNT, fn,
                             "recvcounts[%d] is negative (%d)", i,
                             recvcounts[i]);
        else
            total += recvcounts[i];
    }
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_coll_red x = {.type = datatype, .op = op,
                               .seg_counts = recvcounts};
    return reduce_scatter(fn, sendbuf, recvbuf, total,
                          recvcounts[comm->rank], &x, comm);
}
