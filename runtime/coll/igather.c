/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * igather.c - MPI_Igather and MPI_Igatherv, and the gather schedule that
 * MPI_Gather(v) runs on an intercommunicator (data.h): one round, in
 * which the root receives every block at once and each other process
 * sends its own; the root's own block is a local copy.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "coll/data.h"

SHMPI_WEAK_ALIAS(Igather)
SHMPI_WEAK_ALIAS(Igather_c)
SHMPI_WEAK_ALIAS(Igatherv)
SHMPI_WEAK_ALIAS(Igatherv_c)

int shmpi_nbc_data_gather(struct shmpi_nbc *s, MPI_Comm comm,
                          const struct shmpi_coll_args *a)
{
    if (a->idle)
        return MPI_SUCCESS;
    if (!a->at_root)
        return shmpi_nbc_add_exchange(s, comm, &a->out, a->root, NULL,
                                      SHMPI_COLL_NOBODY);
    if (shmpi_nbc_add_exchange(s, comm, NULL, SHMPI_COLL_NOBODY, &a->in,
                               SHMPI_COLL_ALL))
        return MPI_ERR_NO_MEM;
    if (comm->is_inter || a->in_place)
        return MPI_SUCCESS;
    return shmpi_nbc_add_own(s, comm, &a->out, &a->in);
}

static int igather_call(const char *fn, const void *sendbuf,
                        MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_gather(fn, comm, sendbuf, sendcount, sendtype,
                                    recvbuf, recvcount, recvtype, root, &a);
    return shmpi_nbc_icollective(comm, rc, shmpi_nbc_data_gather, &a, request,
                                 fn);
}

/* wide: the arrays are the _c form's (vec.h) */
static int igatherv_call(const char *fn, int wide, const void *sendbuf,
                         MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const void *recvcounts,
                         const void *displs, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_gatherv(
        fn, comm, sendbuf, sendcount, sendtype, recvbuf,
        shmpi_coll_vec_of(recvcounts, wide), shmpi_coll_vec_of(displs, wide),
        recvtype, root, &a);
    return shmpi_nbc_icollective(comm, rc, shmpi_nbc_data_gather, &a, request,
                                 fn);
}

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    return igather_call("MPI_Igather", sendbuf, sendcount, sendtype, recvbuf,
                        recvcount, recvtype, root, comm, request);
}

int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount,
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    return igather_call("MPI_Igather_c", sendbuf, sendcount, sendtype,
                        recvbuf, recvcount, recvtype, root, comm, request);
}

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, const int recvcounts[], const int displs[],
                  MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    return igatherv_call("MPI_Igatherv", 0, sendbuf, sendcount, sendtype,
                         recvbuf, recvcounts, displs, recvtype, root, comm,
                         request);
}

int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[],
                    MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request)
{
    return igatherv_call("MPI_Igatherv_c", 1, sendbuf, sendcount, sendtype,
                         recvbuf, recvcounts, displs, recvtype, root, comm,
                         request);
}
