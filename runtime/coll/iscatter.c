/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iscatter.c - MPI_Iscatter and MPI_Iscatterv, and the scatter schedule
 * that MPI_Scatter(v) runs on an intercommunicator (data.h): one round,
 * in which the root sends every block at once and each other process
 * receives its own; the root's own block is a local copy.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "coll/data.h"

SHMPI_WEAK_ALIAS(Iscatter)
SHMPI_WEAK_ALIAS(Iscatter_c)
SHMPI_WEAK_ALIAS(Iscatterv)
SHMPI_WEAK_ALIAS(Iscatterv_c)

int shmpi_nbc_data_scatter(struct shmpi_nbc *s, MPI_Comm comm,
                           const struct shmpi_coll_args *a)
{
    if (a->idle)
        return MPI_SUCCESS;
    if (!a->at_root)
        return shmpi_nbc_add_exchange(s, comm, NULL, SHMPI_COLL_NOBODY,
                                      &a->in, a->root);
    if (shmpi_nbc_add_exchange(s, comm, &a->out, SHMPI_COLL_ALL, NULL,
                               SHMPI_COLL_NOBODY))
        return MPI_ERR_NO_MEM;
    if (comm->is_inter || a->in_place)
        return MPI_SUCCESS;
    return shmpi_nbc_add_own(s, comm, &a->out, &a->in);
}

static int iscatter_call(const char *fn, const void *sendbuf,
                         MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_scatter(fn, comm, sendbuf, sendcount, sendtype,
                                     recvbuf, recvcount, recvtype, root, &a);
    return shmpi_nbc_icollective(comm, rc, shmpi_nbc_data_scatter, &a, request,
                                 fn);
}

/* wide: the arrays are the _c form's (vec.h) */
static int iscatterv_call(const char *fn, int wide, const void *sendbuf,
                          const void *sendcounts, const void *displs,
                          MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, int root,
                          MPI_Comm comm, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_scatterv(
        fn, comm, sendbuf, shmpi_coll_vec_of(sendcounts, wide),
        shmpi_coll_vec_of(displs, wide), sendtype, recvbuf, recvcount,
        recvtype, root, &a);
    return shmpi_nbc_icollective(comm, rc, shmpi_nbc_data_scatter, &a, request,
                                 fn);
}

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request)
{
    return iscatter_call("MPI_Iscatter", sendbuf, sendcount, sendtype,
                         recvbuf, recvcount, recvtype, root, comm, request);
}

int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request)
{
    return iscatter_call("MPI_Iscatter_c", sendbuf, sendcount, sendtype,
                         recvbuf, recvcount, recvtype, root, comm, request);
}

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[],
                   const int displs[], MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, MPI_Request *request)
{
    return iscatterv_call("MPI_Iscatterv", 0, sendbuf, sendcounts, displs,
                          sendtype, recvbuf, recvcount, recvtype, root, comm,
                          request);
}

int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint displs[], MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm, MPI_Request *request)
{
    return iscatterv_call("MPI_Iscatterv_c", 1, sendbuf, sendcounts, displs,
                          sendtype, recvbuf, recvcount, recvtype, root, comm,
                          request);
}
