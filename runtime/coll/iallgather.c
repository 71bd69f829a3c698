/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iallgather.c - MPI_Iallgather and MPI_Iallgatherv, and the allgather
 * schedule that MPI_Allgather(v) runs on an intercommunicator (data.h):
 * one round, in which every process sends its block to every other and
 * receives theirs, and copies its own block locally (not with
 * MPI_IN_PLACE, where it is in place already and leaves from there).  On
 * an intercommunicator the blocks cross between the groups: every
 * process gets the remote group's.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "coll/data.h"

SHMPI_WEAK_ALIAS(Iallgather)
SHMPI_WEAK_ALIAS(Iallgather_c)
SHMPI_WEAK_ALIAS(Iallgatherv)
SHMPI_WEAK_ALIAS(Iallgatherv_c)

int shmpi_nbc_data_allgather(struct shmpi_nbc *s, MPI_Comm comm,
                             const struct shmpi_coll_args *a)
{
    if (shmpi_nbc_add_exchange(s, comm, &a->out, SHMPI_COLL_ALL, &a->in,
                               SHMPI_COLL_ALL))
        return MPI_ERR_NO_MEM;
    if (comm->is_inter || a->in_place)
        return MPI_SUCCESS;
    return shmpi_nbc_add_own(s, comm, &a->out, &a->in);
}

static int iallgather_call(const char *fn, const void *sendbuf,
                           MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, MPI_Count recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_allgather(fn, comm, sendbuf, sendcount, sendtype,
                                       recvbuf, recvcount, recvtype, &a);
    return shmpi_nbc_icollective(comm, rc, shmpi_nbc_data_allgather, &a,
                                 request, fn);
}

/* wide: the arrays are the _c form's (vec.h) */
static int iallgatherv_call(const char *fn, int wide, const void *sendbuf,
                            MPI_Count sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const void *recvcounts,
                            const void *displs, MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_allgatherv(
        fn, comm, sendbuf, sendcount, sendtype, recvbuf,
        shmpi_coll_vec_of(recvcounts, wide), shmpi_coll_vec_of(displs, wide),
        recvtype, &a);
    return shmpi_nbc_icollective(comm, rc, shmpi_nbc_data_allgather, &a,
                                 request, fn);
}

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, int recvcount, MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    return iallgather_call("MPI_Iallgather", sendbuf, sendcount, sendtype,
                           recvbuf, recvcount, recvtype, comm, request);
}

int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype,
                      MPI_Comm comm, MPI_Request *request)
{
    return iallgather_call("MPI_Iallgather_c", sendbuf, sendcount, sendtype,
                           recvbuf, recvcount, recvtype, comm, request);
}

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, const int recvcounts[], const int displs[],
                     MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    return iallgatherv_call("MPI_Iallgatherv", 0, sendbuf, sendcount,
                            sendtype, recvbuf, recvcounts, displs, recvtype,
                            comm, request);
}

int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf,
                       const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_Request *request)
{
    return iallgatherv_call("MPI_Iallgatherv_c", 1, sendbuf, sendcount,
                            sendtype, recvbuf, recvcounts, displs, recvtype,
                            comm, request);
}
