/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * allgather.c - MPI_Allgather and MPI_Allgatherv: every member packs its
 * block into its half (its control line up to 16 bytes), publishes, and
 * unpacks everyone else's (xchg.c); one store and one cache-line read per
 * member and peer for small blocks.  With MPI_IN_PLACE a member's block
 * is taken from its place in recvbuf.  On an intercommunicator, the
 * schedule of coll/iallgather.c.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "coll/args.h"
#include "coll/check.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"
#include "coll/data.h"

SHMPI_WEAK_ALIAS(Allgather)
SHMPI_WEAK_ALIAS(Allgather_c)
SHMPI_WEAK_ALIAS(Allgatherv)
SHMPI_WEAK_ALIAS(Allgatherv_c)

static int allgather(MPI_Comm comm, const struct shmpi_coll_args *a,
                     const char *fn)
{
    struct shmpi_coll_block own, mine;
    shmpi_coll_block_at(&a->in, comm->rank, &own);
    shmpi_coll_block_at(&a->out, 0, &mine);
    struct shmpi_coll_xchg x = {
        .shape = SHMPI_XCHG_ONE, .writes = 1, .readers = SHMPI_COLL_ALL,
        .sources = SHMPI_COLL_ALL, .agreed = 1, .mine = mine, .in = a->in};
    int rc = comm->size > 1 ? shmpi_coll_move(comm, &x, -1, fn) : MPI_SUCCESS;
    if (a->in_place)
        return rc;
    uint64_t len = mine.len < own.len ? mine.len : own.len;
    shmpi_dt_copy_typed(own.buf, own.type, mine.buf, mine.type, len);
    if (rc == MPI_SUCCESS && mine.len > own.len)
        rc = shmpi_raise(comm, MPI_ERR_TRUNCATE, fn,
                         "sendbuf (%llu bytes) does not fit this rank's "
                         "block of recvbuf (%llu bytes)",
                         (unsigned long long)mine.len,
                         (unsigned long long)own.len);
    return rc;
}

/* The communicator and the send side (MPI_IN_PLACE: none, but not on an
   intercommunicator, where it is an error). */
static int check_send(const char *fn, MPI_Comm comm, const void *sendbuf,
                      MPI_Count sendcount, MPI_Datatype sendtype,
                      struct shmpi_coll_args *a)
{
    *a = (struct shmpi_coll_args){0};
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (sendbuf == MPI_IN_PLACE && !comm->is_inter) {
        a->in_place = 1;
        return MPI_SUCCESS;
    }
    rc = shmpi_coll_check_data(fn, comm, sendbuf, sendcount, sendtype,
                               "sendbuf");
    if (rc == MPI_SUCCESS)
        a->out = shmpi_coll_one_block(sendbuf, sendcount, sendtype);
    return rc;
}

/* With MPI_IN_PLACE, this process's block leaves from its place. */
static void send_from_place(MPI_Comm comm, struct shmpi_coll_args *a)
{
    if (!a->in_place)
        return;
    struct shmpi_coll_block own;
    shmpi_coll_block_at(&a->in, comm->rank, &own);
    a->out = shmpi_coll_one_block(own.buf, own.count, own.type);
}

int shmpi_coll_args_allgather(const char *fn, MPI_Comm comm,
                              const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              struct shmpi_coll_args *a)
{
    int rc = check_send(fn, comm, sendbuf, sendcount, sendtype, a);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_data(fn, comm, recvbuf, recvcount, recvtype,
                                   "recvbuf");
    if (rc == MPI_SUCCESS && !a->in_place)
        rc = shmpi_coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    sendcount > 0 && sendtype->size > 0 &&
                                        recvcount > 0);
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, MPI_OP_NULL,
                                0, NULL);
    a->in = (struct shmpi_coll_blocks){.base = recvbuf, .count = recvcount,
                                       .unit = recvtype->extent,
                                       .type = recvtype};
    send_from_place(comm, a);
    return shmpi_coll_order(fn, comm, MPI_SUCCESS, SHMPI_ORDER_NO_ROOT,
                            MPI_OP_NULL, recvcount, recvtype);
}

int shmpi_coll_args_allgatherv(const char *fn, MPI_Comm comm,
                               const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               struct shmpi_coll_vec recvcounts,
                               struct shmpi_coll_vec displs,
                               MPI_Datatype recvtype,
                               struct shmpi_coll_args *a)
{
    int rc = check_send(fn, comm, sendbuf, sendcount, sendtype, a);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_type(fn, comm, recvtype, "recvtype");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_blocks(fn, comm, recvbuf, recvcounts, displs,
                                     1, recvtype->extent, NULL, recvtype,
                                     "recvbuf");
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, MPI_OP_NULL,
                                0, NULL);
    a->in = (struct shmpi_coll_blocks){.base = recvbuf, .counts = recvcounts,
                                       .displs = displs,
                                       .unit = recvtype->extent,
                                       .type = recvtype};
    send_from_place(comm, a);
    return shmpi_coll_order(fn, comm, MPI_SUCCESS, SHMPI_ORDER_NO_ROOT,
                            MPI_OP_NULL, 0, NULL);
}

/* The blocking call once checked (rc), for both forms of both calls. */
static int run(MPI_Comm comm, int rc, const struct shmpi_coll_args *a,
               const char *fn)
{
    if (rc != MPI_SUCCESS)
        return shmpi_coll_refuse_call(comm, rc, 0);
    if (comm->is_inter)
        return shmpi_nbc_blocking(comm, shmpi_nbc_data_allgather, a, fn);
    return allgather(comm, a, fn);
}

static int allgather_call(const char *fn, const void *sendbuf,
                          MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_allgather(fn, comm, sendbuf, sendcount, sendtype,
                                       recvbuf, recvcount, recvtype, &a);
    return run(comm, rc, &a, fn);
}

/* wide: the arrays are the _c form's (vec.h) */
static int allgatherv_call(const char *fn, int wide, const void *sendbuf,
                           MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const void *recvcounts,
                           const void *displs, MPI_Datatype recvtype,
                           MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_allgatherv(
        fn, comm, sendbuf, sendcount, sendtype, recvbuf,
        shmpi_coll_vec_of(recvcounts, wide), shmpi_coll_vec_of(displs, wide),
        recvtype, &a);
    return run(comm, rc, &a, fn);
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm)
{
    return allgather_call("MPI_Allgather", sendbuf, sendcount, sendtype,
                          recvbuf, recvcount, recvtype, comm);
}

int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather_call("MPI_Allgather_c", sendbuf, sendcount, sendtype,
                          recvbuf, recvcount, recvtype, comm);
}

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int displs[],
                    MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgatherv_call("MPI_Allgatherv", 0, sendbuf, sendcount, sendtype,
                           recvbuf, recvcounts, displs, recvtype, comm);
}

int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgatherv_call("MPI_Allgatherv_c", 1, sendbuf, sendcount,
                           sendtype, recvbuf, recvcounts, displs, recvtype,
                           comm);
}
