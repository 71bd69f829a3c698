/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_scatter.c - MPI_Reduce_scatter_block and MPI_Reduce_scatter,
 * and their argument checks (reduce_args.h), which the nonblocking forms
 * share: member i gets segment i of the reduced vector (reduce.c reduces
 * each segment by the member that needs it).  With MPI_IN_PLACE the
 * whole vector is in recvbuf and the segment comes back to its start.
 * On an intercommunicator (no MPI_IN_PLACE) each group gets the other
 * group's vector, cut by its own counts (coll/inter_reduce_scatter.c).
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "coll/check.h"
#include "coll/reduce_args.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Reduce_scatter_block)
SHMPI_WEAK_ALIAS(Reduce_scatter_block_c)
SHMPI_WEAK_ALIAS(Reduce_scatter)
SHMPI_WEAK_ALIAS(Reduce_scatter_c)

/* The buffers and the op, the counts being checked; `mine` is this
   member's segment, x->count the whole vector. */
static int check_rest(const char *fn, const void *sendbuf, void *recvbuf,
                      MPI_Count mine, MPI_Comm comm, struct shmpi_coll_red *x)
{
    int in_place = sendbuf == MPI_IN_PLACE && !comm->is_inter;
    int rc = shmpi_coll_check_data(fn, comm, in_place ? recvbuf : sendbuf,
                                   x->count > 0, x->type,
                                   in_place ? "recvbuf" : "sendbuf");
    if (rc == MPI_SUCCESS && !in_place)
        rc = shmpi_coll_check_data(fn, comm, recvbuf, mine, x->type,
                                   "recvbuf");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_op(fn, comm, x->op, x->type, x->count);
    if (rc == MPI_SUCCESS && !in_place)
        rc = shmpi_coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    mine > 0 && x->type->size > 0);
    x->kind = SHMPI_RED_SCATTER;
    x->sbuf = in_place ? recvbuf : sendbuf;
    x->rbuf = recvbuf;
    return rc;
}

int shmpi_coll_red_args_scatter_block(const char *fn, const void *sendbuf,
                                      void *recvbuf, MPI_Count recvcount,
                                      MPI_Datatype datatype, MPI_Op op,
                                      MPI_Comm comm, struct shmpi_coll_red *x)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS && recvcount < 0)
        rc = shmpi_raise(comm, MPI_ERR_COUNT, fn,
                         "recvcount is negative (%lld)", (long long)recvcount);
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, op, 0,
                                NULL);
    *x = (struct shmpi_coll_red){
        .count = (MPI_Count)recvcount * comm->size, .type = datatype,
        .op = op, .seg_count = recvcount};
    return shmpi_coll_order(
        fn, comm, check_rest(fn, sendbuf, recvbuf, recvcount, comm, x),
        SHMPI_ORDER_NO_ROOT, op, recvcount, datatype);
}

int shmpi_coll_red_args_scatter(const char *fn, const void *sendbuf,
                                void *recvbuf,
                                struct shmpi_coll_vec recvcounts,
                                MPI_Datatype datatype, MPI_Op op,
                                MPI_Comm comm, struct shmpi_coll_red *x)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS && !recvcounts.p)
        rc = shmpi_raise(comm, MPI_ERR_ARG, fn, "recvcounts is NULL");
    MPI_Count total = 0;
    for (int i = 0; rc == MPI_SUCCESS && i < comm->size; i++) {
        MPI_Count n = shmpi_coll_count_at(recvcounts, i);
        if (n < 0)
            rc = shmpi_raise(comm, MPI_ERR_COUNT, fn,
                             "recvcounts[%d] is negative (%lld)", i,
                             (long long)n);
        else
            total += n;
    }
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, op, 0,
                                NULL);
    *x = (struct shmpi_coll_red){.count = total, .type = datatype, .op = op,
                                 .seg_counts = recvcounts};
    return shmpi_coll_order(
        fn, comm,
        check_rest(fn, sendbuf, recvbuf,
                   shmpi_coll_count_at(recvcounts, comm->rank), comm, x),
        SHMPI_ORDER_NO_ROOT, op, 0, NULL);
}

/* The blocking call once checked (rc), for both forms of both calls. */
static int run(const char *fn, MPI_Comm comm, int rc,
               struct shmpi_coll_red *x)
{
    if (rc != MPI_SUCCESS)
        return shmpi_coll_refuse_call(comm, rc, 0);
    return shmpi_coll_red_run(fn, comm, x);
}

static int block_call(const char *fn, const void *sendbuf, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scatter_block(fn, sendbuf, recvbuf, recvcount,
                                               datatype, op, comm, &x);
    return run(fn, comm, rc, &x);
}

/* wide: recvcounts is the _c form's (vec.h) */
static int counts_call(const char *fn, int wide, const void *sendbuf,
                       void *recvbuf, const void *recvcounts,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scatter(fn, sendbuf, recvbuf,
                                         shmpi_coll_vec_of(recvcounts, wide),
                                         datatype, op, comm, &x);
    return run(fn, comm, rc, &x);
}

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
                              int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    return block_call("MPI_Reduce_scatter_block", sendbuf, recvbuf,
                      recvcount, datatype, op, comm);
}

int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm)
{
    return block_call("MPI_Reduce_scatter_block_c", sendbuf, recvbuf,
                      recvcount, datatype, op, comm);
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
                        const int recvcounts[], MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm)
{
    return counts_call("MPI_Reduce_scatter", 0, sendbuf, recvbuf, recvcounts,
                       datatype, op, comm);
}

int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf,
                          const MPI_Count recvcounts[], MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm)
{
    return counts_call("MPI_Reduce_scatter_c", 1, sendbuf, recvbuf,
                       recvcounts, datatype, op, comm);
}
