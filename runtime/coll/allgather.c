/*
 * allgather.c - MPI_Allgather and MPI_Allgatherv: every member packs its
 * block into its half (its control line up to 16 bytes), publishes, and
 * unpacks everyone else's (xchg.c); one store and one cache-line read per
 * member and peer for small blocks.  With MPI_IN_PLACE a member's block
 * is taken from its place in recvbuf.
 */
#include "coll/check.h"
#include "coll/xchg.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Allgather)
SHMPI_WEAK_ALIAS(Allgatherv)

static int allgather(MPI_Comm comm, const void *sendbuf, int sendcount,
                     MPI_Datatype sendtype, const struct shmpi_coll_blocks *in,
                     const char *fn)
{
    struct shmpi_coll_block own, mine;
    shmpi_coll_block_at(in, comm->rank, &own);
    if (sendbuf == MPI_IN_PLACE)
        mine = own;
    else
        mine = (struct shmpi_coll_block){
            (void *)sendbuf, sendcount, sendtype,
            (uint64_t)sendcount * (uint64_t)sendtype->size};
    struct shmpi_coll_xchg x = {
        .shape = SHMPI_XCHG_ONE, .writes = 1, .readers = SHMPI_COLL_ALL,
        .sources = SHMPI_COLL_ALL, .agreed = 1, .mine = mine, .in = *in};
    int rc = comm->size > 1 ? shmpi_coll_move(comm, &x, fn) : MPI_SUCCESS;
    if (sendbuf == MPI_IN_PLACE)
        return rc;
    uint64_t len = mine.len < own.len ? mine.len : own.len;
    shmpi_copy_typed(own.buf, own.type, mine.buf, mine.type, len);
    if (rc == MPI_SUCCESS && mine.len > own.len)
        rc = shmpi_raise(comm, MPI_ERR_TRUNCATE, fn,
                         "sendbuf (%llu bytes) does not fit this rank's "
                         "block of recvbuf (%llu bytes)",
                         (unsigned long long)mine.len,
                         (unsigned long long)own.len);
    return rc;
}

static int check_send(const char *fn, MPI_Comm comm, const void *sendbuf,
                      int sendcount, MPI_Datatype sendtype)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc != MPI_SUCCESS || sendbuf == MPI_IN_PLACE)
        return rc;
    return shmpi_coll_check_data(fn, comm, sendbuf, sendcount, sendtype,
                                 "sendbuf");
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm)
{
    static const char fn[] = "MPI_Allgather";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_send(fn, comm, sendbuf, sendcount, sendtype);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_data(fn, comm, recvbuf, recvcount, recvtype,
                                   "recvbuf");
    if (rc == MPI_SUCCESS && sendbuf != MPI_IN_PLACE)
        rc = shmpi_coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    sendcount > 0 && sendtype->size > 0 &&
                                        recvcount > 0);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_coll_blocks in = {.base = recvbuf, .count = recvcount,
                                   .unit = recvtype->extent,
                                   .type = recvtype};
    return allgather(comm, sendbuf, sendcount, sendtype, &in, fn);
}

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int displs[],
                    MPI_Datatype recvtype, MPI_Comm comm)
{
    static const char fn[] = "MPI_Allgatherv";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_send(fn, comm, sendbuf, sendcount, sendtype);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_type(fn, comm, recvtype, "recvtype");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_blocks(fn, comm, recvbuf, recvcounts, displs,
                                     1, recvtype->extent, NULL, recvtype,
                                     "recvbuf");
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_coll_blocks in = {.base = recvbuf, .counts = recvcounts,
                                   .displs = displs,
                                   .unit = recvtype->extent,
                                   .type = recvtype};
    return allgather(comm, sendbuf, sendcount, sendtype, &in, fn);
}
