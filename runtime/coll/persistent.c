/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * persistent.c - the persistent collectives of MPI-4.0 6.13:
 * MPI_Barrier_init, Bcast_init, Gather_init, Gatherv_init, Scatter_init,
 * Scatterv_init, Allgather_init, Allgatherv_init, Alltoall_init,
 * Alltoallv_init, Alltoallw_init, Reduce_init, Allreduce_init,
 * Reduce_scatter_init, Reduce_scatter_block_init, Scan_init, Exscan_init,
 * on intra- and intercommunicators where the blocking form allows them.
 *
 * An init call checks its arguments as the blocking and nonblocking
 * forms do (args.h, reduce_args.h), then plans the schedule the
 * nonblocking form would build - algorithm, peers, scratch buffers,
 * datatypes retained - once, and returns it in an inactive persistent
 * request (shmpi_nbc_plan; sched.c says what each MPI_Start then does);
 * except an Allreduce of a few bytes on an intracommunicator with a
 * collective area, which runs the blocking form's algorithm on the area
 * (pallreduce.c; its init takes no schedule number, on every member).
 * Like the nonblocking forms it does not synchronize: it sends nothing.
 * It takes the communicator's next schedule number, as every collective
 * does, so all processes must make their init calls in the same order
 * as their other collectives on the communicator (6.13).  The info
 * argument must be MPI_INFO_NULL or a valid info object; shmpi reads no
 * hint from it.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "coll/check.h"
#include "coll/data.h"
#include "coll/pallreduce.h"
#include "coll/reduce_args.h"
#include "coll/reduction.h"
#include "core/error.h"
#include "core/info.h"
#include "core/pmpi.h"

SHMPI_WEAK_ALIAS(Barrier_init)
SHMPI_WEAK_ALIAS(Bcast_init)
SHMPI_WEAK_ALIAS(Bcast_init_c)
SHMPI_WEAK_ALIAS(Gather_init)
SHMPI_WEAK_ALIAS(Gather_init_c)
SHMPI_WEAK_ALIAS(Gatherv_init)
SHMPI_WEAK_ALIAS(Gatherv_init_c)
SHMPI_WEAK_ALIAS(Scatter_init)
SHMPI_WEAK_ALIAS(Scatter_init_c)
SHMPI_WEAK_ALIAS(Scatterv_init)
SHMPI_WEAK_ALIAS(Scatterv_init_c)
SHMPI_WEAK_ALIAS(Allgather_init)
SHMPI_WEAK_ALIAS(Allgather_init_c)
SHMPI_WEAK_ALIAS(Allgatherv_init)
SHMPI_WEAK_ALIAS(Allgatherv_init_c)
SHMPI_WEAK_ALIAS(Alltoall_init)
SHMPI_WEAK_ALIAS(Alltoall_init_c)
SHMPI_WEAK_ALIAS(Alltoallv_init)
SHMPI_WEAK_ALIAS(Alltoallv_init_c)
SHMPI_WEAK_ALIAS(Alltoallw_init)
SHMPI_WEAK_ALIAS(Alltoallw_init_c)
SHMPI_WEAK_ALIAS(Reduce_init)
SHMPI_WEAK_ALIAS(Reduce_init_c)
SHMPI_WEAK_ALIAS(Allreduce_init)
SHMPI_WEAK_ALIAS(Allreduce_init_c)
SHMPI_WEAK_ALIAS(Reduce_scatter_init)
SHMPI_WEAK_ALIAS(Reduce_scatter_init_c)
SHMPI_WEAK_ALIAS(Reduce_scatter_block_init)
SHMPI_WEAK_ALIAS(Reduce_scatter_block_init_c)
SHMPI_WEAK_ALIAS(Scan_init)
SHMPI_WEAK_ALIAS(Scan_init_c)
SHMPI_WEAK_ALIAS(Exscan_init)
SHMPI_WEAK_ALIAS(Exscan_init_c)

/* A data collective whose argument checks returned rc: planned into
   *req, or refused (the others took the schedule number). */
static int plan_data(const char *fn, MPI_Comm comm, int rc,
                     shmpi_nbc_data_fn *build,
                     const struct shmpi_coll_args *a, MPI_Info info,
                     MPI_Request *req)
{
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_init(fn, comm, info, req);
    if (rc != MPI_SUCCESS)
        return shmpi_nbc_refuse_call(comm, rc);
    return shmpi_nbc_pcollective(comm, build, a, req, fn);
}

static int plan_red(const char *fn, MPI_Comm comm, int rc,
                    const struct shmpi_coll_red *x, MPI_Info info,
                    MPI_Request *req)
{
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_init(fn, comm, info, req);
    if (rc != MPI_SUCCESS)
        return shmpi_nbc_refuse_call(comm, rc);
    if (x->kind == SHMPI_RED_ALLREDUCE) {
        switch (shmpi_coll_pallreduce_plan(x->sbuf, x->rbuf, x->count,
                                           x->type, x->op, comm, req)) {
        case 1:
            return MPI_SUCCESS;
        case -1:
            return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                               "no memory for a persistent request");
        }
    }
    return shmpi_nbc_reduction_plan(fn, comm, x, req);
}

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Barrier_init";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_coll_check_comm(fn, comm);
    return plan_data(fn, comm, rc, shmpi_nbc_data_barrier, NULL, info,
                     request);
}

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Bcast_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc =
        shmpi_coll_args_bcast(fn, comm, buffer, count, datatype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_bcast, &a, info, request);
}

int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype,
                      int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    static const char fn[] = "MPI_Bcast_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc =
        shmpi_coll_args_bcast(fn, comm, buffer, count, datatype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_bcast, &a, info, request);
}

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request)
{
    static const char fn[] = "MPI_Gather_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_gather(fn, comm, sendbuf, sendcount, sendtype,
                                    recvbuf, recvcount, recvtype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_gather, &a, info, request);
}

int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Gather_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_gather(fn, comm, sendbuf, sendcount, sendtype,
                                    recvbuf, recvcount, recvtype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_gather, &a, info, request);
}

int PMPI_Gatherv_init(const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[],
                      MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Gatherv_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc =
        shmpi_coll_args_gatherv(fn, comm, sendbuf, sendcount, sendtype,
                                recvbuf, shmpi_coll_ints(recvcounts),
                                shmpi_coll_ints(displs), recvtype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_gather, &a, info, request);
}

int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf,
                        const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Gatherv_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc =
        shmpi_coll_args_gatherv(fn, comm, sendbuf, sendcount, sendtype,
                                recvbuf, shmpi_coll_counts_c(recvcounts),
                                shmpi_coll_aints(displs), recvtype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_gather, &a, info, request);
}

int PMPI_Scatter_init(const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Scatter_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_scatter(fn, comm, sendbuf, sendcount, sendtype,
                                     recvbuf, recvcount, recvtype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_scatter, &a, info, request);
}

int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Scatter_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_scatter(fn, comm, sendbuf, sendcount, sendtype,
                                     recvbuf, recvcount, recvtype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_scatter, &a, info, request);
}

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[],
                       const int displs[], MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    static const char fn[] = "MPI_Scatterv_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_scatterv(fn, comm, sendbuf,
                                      shmpi_coll_ints(sendcounts),
                                      shmpi_coll_ints(displs), sendtype,
                                      recvbuf, recvcount, recvtype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_scatter, &a, info, request);
}

int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint displs[], MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Scatterv_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_scatterv(fn, comm, sendbuf,
                                      shmpi_coll_counts_c(sendcounts),
                                      shmpi_coll_aints(displs), sendtype,
                                      recvbuf, recvcount, recvtype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_scatter, &a, info, request);
}

int PMPI_Allgather_init(const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    static const char fn[] = "MPI_Allgather_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_allgather(fn, comm, sendbuf, sendcount, sendtype,
                                       recvbuf, recvcount, recvtype, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_allgather, &a, info,
                     request);
}

int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Allgather_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_allgather(fn, comm, sendbuf, sendcount, sendtype,
                                       recvbuf, recvcount, recvtype, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_allgather, &a, info,
                     request);
}

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    static const char fn[] = "MPI_Allgatherv_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_allgatherv(fn, comm, sendbuf, sendcount, sendtype,
                                        recvbuf, shmpi_coll_ints(recvcounts),
                                        shmpi_coll_ints(displs), recvtype, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_allgather, &a, info,
                     request);
}

int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[],
                           const MPI_Aint displs[], MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Allgatherv_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc =
        shmpi_coll_args_allgatherv(fn, comm, sendbuf, sendcount, sendtype,
                                   recvbuf, shmpi_coll_counts_c(recvcounts),
                                   shmpi_coll_aints(displs), recvtype, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_allgather, &a, info,
                     request);
}

int PMPI_Alltoall_init(const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    static const char fn[] = "MPI_Alltoall_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoall(fn, comm, sendbuf, sendcount, sendtype,
                                      recvbuf, recvcount, recvtype, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_alltoall, &a, info, request);
}

int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Alltoall_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoall(fn, comm, sendbuf, sendcount, sendtype,
                                      recvbuf, recvcount, recvtype, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_alltoall, &a, info, request);
}

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[],
                        const int sdispls[], MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Alltoallv_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoallv(
        fn, comm, sendbuf, shmpi_coll_ints(sendcounts),
        shmpi_coll_ints(sdispls), sendtype, recvbuf,
        shmpi_coll_ints(recvcounts), shmpi_coll_ints(rdispls), recvtype, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_alltoall, &a, info, request);
}

int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype,
                          void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Alltoallv_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoallv(
        fn, comm, sendbuf, shmpi_coll_counts_c(sendcounts),
        shmpi_coll_aints(sdispls), sendtype, recvbuf,
        shmpi_coll_counts_c(recvcounts), shmpi_coll_aints(rdispls), recvtype,
        &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_alltoall, &a, info, request);
}

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[],
                        const int sdispls[], const MPI_Datatype sendtypes[],
                        void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[],
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Alltoallw_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoallw(
        fn, comm, sendbuf, shmpi_coll_ints(sendcounts),
        shmpi_coll_ints(sdispls), sendtypes, recvbuf,
        shmpi_coll_ints(recvcounts), shmpi_coll_ints(rdispls), recvtypes, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_alltoall, &a, info, request);
}

int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf,
                          const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Alltoallw_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoallw(
        fn, comm, sendbuf, shmpi_coll_counts_c(sendcounts),
        shmpi_coll_aints(sdispls), sendtypes, recvbuf,
        shmpi_coll_counts_c(recvcounts), shmpi_coll_aints(rdispls), recvtypes,
        &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_alltoall, &a, info, request);
}

int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Reduce_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_reduce(fn, sendbuf, recvbuf, count, datatype,
                                        op, root, comm, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Reduce_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_reduce(fn, sendbuf, recvbuf, count, datatype,
                                        op, root, comm, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Allreduce_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_allreduce(fn, sendbuf, recvbuf, count,
                                           datatype, op, comm, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Allreduce_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_allreduce(fn, sendbuf, recvbuf, count,
                                           datatype, op, comm, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf,
                             const int recvcounts[], MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    static const char fn[] = "MPI_Reduce_scatter_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scatter(fn, sendbuf, recvbuf,
                                         shmpi_coll_ints(recvcounts), datatype,
                                         op, comm, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf,
                               const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Reduce_scatter_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scatter(fn, sendbuf, recvbuf,
                                         shmpi_coll_counts_c(recvcounts),
                                         datatype, op, comm, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf,
                                   int recvcount, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    static const char fn[] = "MPI_Reduce_scatter_block_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scatter_block(fn, sendbuf, recvbuf, recvcount,
                                               datatype, op, comm, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf,
                                     MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op,
                                     MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request)
{
    static const char fn[] = "MPI_Reduce_scatter_block_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scatter_block(fn, sendbuf, recvbuf, recvcount,
                                               datatype, op, comm, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Scan_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scan(fn, sendbuf, recvbuf, count, datatype,
                                      op, comm, SHMPI_RED_SCAN, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Scan_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scan(fn, sendbuf, recvbuf, count, datatype,
                                      op, comm, SHMPI_RED_SCAN, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Exscan_init";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scan(fn, sendbuf, recvbuf, count, datatype,
                                      op, comm, SHMPI_RED_EXSCAN, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Exscan_init_c";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scan(fn, sendbuf, recvbuf, count, datatype,
                                      op, comm, SHMPI_RED_EXSCAN, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}
