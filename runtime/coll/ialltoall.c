/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ialltoall.c - MPI_Ialltoall, MPI_Ialltoallv and MPI_Ialltoallw, and the
 * all-to-all schedule that the blocking calls run on an
 * intercommunicator (data.h): one round, in which every process sends
 * block d to process d and receives block j from process j, for every
 * other d and j; its own block is a local copy.  On an intercommunicator
 * block i goes to remote rank i, and there is no own block.
 *
 * MPI_IN_PLACE: the blocks leave from where the replies land, so a first
 * round packs every outgoing block aside, and they go out from there as
 * bytes (packed bytes are the data of the type signature, which is all
 * that the receiver's type has to match); the process's own block stays.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "coll/data.h"

SHMPI_WEAK_ALIAS(Ialltoall)
SHMPI_WEAK_ALIAS(Ialltoall_c)
SHMPI_WEAK_ALIAS(Ialltoallv)
SHMPI_WEAK_ALIAS(Ialltoallv_c)
SHMPI_WEAK_ALIAS(Ialltoallw)
SHMPI_WEAK_ALIAS(Ialltoallw_c)

static int in_place(struct shmpi_nbc *s, MPI_Comm comm,
                    const struct shmpi_coll_blocks *b)
{
    struct shmpi_coll_block blk;
    MPI_Count total = 0;
    for (int d = 0; d < comm->size; d++) {
        shmpi_coll_block_at(b, d, &blk);
        total += d == comm->rank ? 0 : (MPI_Count)blk.len;
    }
    unsigned char *aside = shmpi_nbc_scratch(s, NULL, total), *at = aside;
    if (!aside)
        return MPI_ERR_NO_MEM;
    for (int d = 0; d < comm->size; d++) {
        shmpi_coll_block_at(b, d, &blk);
        if (d == comm->rank)
            continue;
        if (shmpi_nbc_copy(s, blk.buf, blk.count, blk.type, at,
                           (MPI_Count)blk.len, MPI_BYTE))
            return MPI_ERR_NO_MEM;
        at += blk.len;
    }
    if (shmpi_nbc_round(s))
        return MPI_ERR_NO_MEM;
    at = aside;
    for (int d = 0; d < comm->size; d++) {
        shmpi_coll_block_at(b, d, &blk);
        if (d == comm->rank)
            continue;
        if (shmpi_nbc_recv(s, blk.buf, blk.count, blk.type, d) ||
            shmpi_nbc_send(s, at, (MPI_Count)blk.len, MPI_BYTE, d))
            return MPI_ERR_NO_MEM;
        at += blk.len;
    }
    return MPI_SUCCESS;
}

int shmpi_nbc_data_alltoall(struct shmpi_nbc *s, MPI_Comm comm,
                            const struct shmpi_coll_args *a)
{
    if (a->in_place)
        return in_place(s, comm, &a->in);
    if (shmpi_nbc_add_exchange(s, comm, &a->out, SHMPI_COLL_ALL, &a->in,
                               SHMPI_COLL_ALL))
        return MPI_ERR_NO_MEM;
    return comm->is_inter ? MPI_SUCCESS
                          : shmpi_nbc_add_own(s, comm, &a->out, &a->in);
}

static int ialltoall_call(const char *fn, const void *sendbuf,
                          MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoall(fn, comm, sendbuf, sendcount, sendtype,
                                      recvbuf, recvcount, recvtype, &a);
    return shmpi_nbc_icollective(comm, rc, shmpi_nbc_data_alltoall, &a,
                                 request, fn);
}

/* wide: the arrays are the _c form's (vec.h) */
static int ialltoallv_call(const char *fn, int wide, const void *sendbuf,
                           const void *sendcounts, const void *sdispls,
                           MPI_Datatype sendtype, void *recvbuf,
                           const void *recvcounts, const void *rdispls,
                           MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoallv(
        fn, comm, sendbuf, shmpi_coll_vec_of(sendcounts, wide),
        shmpi_coll_vec_of(sdispls, wide), sendtype, recvbuf,
        shmpi_coll_vec_of(recvcounts, wide), shmpi_coll_vec_of(rdispls, wide),
        recvtype, &a);
    return shmpi_nbc_icollective(comm, rc, shmpi_nbc_data_alltoall, &a,
                                 request, fn);
}

/* wide: the arrays are the _c form's (vec.h) */
static int ialltoallw_call(const char *fn, int wide, const void *sendbuf,
                           const void *sendcounts, const void *sdispls,
                           const MPI_Datatype sendtypes[], void *recvbuf,
                           const void *recvcounts, const void *rdispls,
                           const MPI_Datatype recvtypes[], MPI_Comm comm,
                           MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoallw(
        fn, comm, sendbuf, shmpi_coll_vec_of(sendcounts, wide),
        shmpi_coll_vec_of(sdispls, wide), sendtypes, recvbuf,
        shmpi_coll_vec_of(recvcounts, wide), shmpi_coll_vec_of(rdispls, wide),
        recvtypes, &a);
    return shmpi_nbc_icollective(comm, rc, shmpi_nbc_data_alltoall, &a,
                                 request, fn);
}

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm, MPI_Request *request)
{
    return ialltoall_call("MPI_Ialltoall", sendbuf, sendcount, sendtype,
                          recvbuf, recvcount, recvtype, comm, request);
}

int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    return ialltoall_call("MPI_Ialltoall_c", sendbuf, sendcount, sendtype,
                          recvbuf, recvcount, recvtype, comm, request);
}

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
                    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int rdispls[],
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return ialltoallv_call("MPI_Ialltoallv", 0, sendbuf, sendcounts, sdispls,
                           sendtype, recvbuf, recvcounts, rdispls, recvtype,
                           comm, request);
}

int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint sdispls[], MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype,
                      MPI_Comm comm, MPI_Request *request)
{
    return ialltoallv_call("MPI_Ialltoallv_c", 1, sendbuf, sendcounts,
                           sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm, request);
}

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
                    const int sdispls[], const MPI_Datatype sendtypes[],
                    void *recvbuf, const int recvcounts[], const int rdispls[],
                    const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
    return ialltoallw_call("MPI_Ialltoallw", 0, sendbuf, sendcounts, sdispls,
                           sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                           comm, request);
}

int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                      void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                      MPI_Comm comm, MPI_Request *request)
{
    return ialltoallw_call("MPI_Ialltoallw_c", 1, sendbuf, sendcounts,
                           sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                           recvtypes, comm, request);
}
