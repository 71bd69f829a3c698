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
#include "core/check.h"
#include "core/error.h"
#include "core/info.h"
#include "core/live.h"
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

/* The check mode's list of what the program must free (core/live.h):
   the request fn planned into *req, if rc says it did. */
static int planned(const char *fn, int rc, const MPI_Request *req)
{
    if (rc == MPI_SUCCESS && shmpi_core_checking())
        shmpi_core_live_made(SHMPI_LIVE_PREQ, *req, fn, NULL);
    return rc;
}

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
    return planned(fn, shmpi_nbc_pcollective(comm, build, a, req, fn), req);
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
            return planned(fn, MPI_SUCCESS, req);
        case -1:
            return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                               "no memory for a persistent request");
        }
    }
    return planned(fn, shmpi_nbc_reduction_plan(fn, comm, x, req), req);
}

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char fn[] = "MPI_Barrier_init";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_coll_order(fn, comm, shmpi_coll_check_comm(fn, comm),
                              SHMPI_ORDER_NO_ROOT, MPI_OP_NULL, 0, NULL);
    return plan_data(fn, comm, rc, shmpi_nbc_data_barrier, NULL, info,
                     request);
}

/* The bodies each int form and its _c form share. */

static int bcast_init(const char *fn, void *buffer, MPI_Count count,
                      MPI_Datatype datatype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc =
        shmpi_coll_args_bcast(fn, comm, buffer, count, datatype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_bcast, &a, info, request);
}

static int gather_init(const char *fn, const void *sendbuf,
                       MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Info info, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_gather(fn, comm, sendbuf, sendcount, sendtype,
                                    recvbuf, recvcount, recvtype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_gather, &a, info, request);
}

/* wide: the arrays are the _c form's (vec.h) */
static int gatherv_init(const char *fn, int wide, const void *sendbuf,
                        MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const void *recvcounts,
                        const void *displs, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_gatherv(
        fn, comm, sendbuf, sendcount, sendtype, recvbuf,
        shmpi_coll_vec_of(recvcounts, wide), shmpi_coll_vec_of(displs, wide),
        recvtype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_gather, &a, info, request);
}

static int scatter_init(const char *fn, const void *sendbuf,
                        MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_scatter(fn, comm, sendbuf, sendcount, sendtype,
                                     recvbuf, recvcount, recvtype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_scatter, &a, info, request);
}

/* wide: the arrays are the _c form's (vec.h) */
static int scatterv_init(const char *fn, int wide, const void *sendbuf,
                         const void *sendcounts, const void *displs,
                         MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_scatterv(
        fn, comm, sendbuf, shmpi_coll_vec_of(sendcounts, wide),
        shmpi_coll_vec_of(displs, wide), sendtype, recvbuf, recvcount,
        recvtype, root, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_scatter, &a, info, request);
}

static int allgather_init(const char *fn, const void *sendbuf,
                          MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_allgather(fn, comm, sendbuf, sendcount, sendtype,
                                       recvbuf, recvcount, recvtype, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_allgather, &a, info,
                     request);
}

/* wide: the arrays are the _c form's (vec.h) */
static int allgatherv_init(const char *fn, int wide, const void *sendbuf,
                           MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const void *recvcounts,
                           const void *displs, MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_allgatherv(
        fn, comm, sendbuf, sendcount, sendtype, recvbuf,
        shmpi_coll_vec_of(recvcounts, wide), shmpi_coll_vec_of(displs, wide),
        recvtype, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_allgather, &a, info,
                     request);
}

static int alltoall_init(const char *fn, const void *sendbuf,
                         MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoall(fn, comm, sendbuf, sendcount, sendtype,
                                      recvbuf, recvcount, recvtype, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_alltoall, &a, info, request);
}

/* wide: the arrays are the _c form's (vec.h) */
static int alltoallv_init(const char *fn, int wide, const void *sendbuf,
                          const void *sendcounts, const void *sdispls,
                          MPI_Datatype sendtype, void *recvbuf,
                          const void *recvcounts, const void *rdispls,
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoallv(
        fn, comm, sendbuf, shmpi_coll_vec_of(sendcounts, wide),
        shmpi_coll_vec_of(sdispls, wide), sendtype, recvbuf,
        shmpi_coll_vec_of(recvcounts, wide), shmpi_coll_vec_of(rdispls, wide),
        recvtype, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_alltoall, &a, info, request);
}

/* wide: the arrays are the _c form's (vec.h) */
static int alltoallw_init(const char *fn, int wide, const void *sendbuf,
                          const void *sendcounts, const void *sdispls,
                          const MPI_Datatype sendtypes[], void *recvbuf,
                          const void *recvcounts, const void *rdispls,
                          const MPI_Datatype recvtypes[], MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoallw(
        fn, comm, sendbuf, shmpi_coll_vec_of(sendcounts, wide),
        shmpi_coll_vec_of(sdispls, wide), sendtypes, recvbuf,
        shmpi_coll_vec_of(recvcounts, wide), shmpi_coll_vec_of(rdispls, wide),
        recvtypes, &a);
    return plan_data(fn, comm, rc, shmpi_nbc_data_alltoall, &a, info, request);
}

static int reduce_init(const char *fn, const void *sendbuf, void *recvbuf,
                       MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_reduce(fn, sendbuf, recvbuf, count, datatype,
                                        op, root, comm, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

static int allreduce_init(const char *fn, const void *sendbuf, void *recvbuf,
                          MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_allreduce(fn, sendbuf, recvbuf, count,
                                           datatype, op, comm, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

/* wide: recvcounts is the _c form's (vec.h) */
static int reduce_scatter_init(const char *fn, int wide, const void *sendbuf,
                               void *recvbuf, const void *recvcounts,
                               MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Info info,
                               MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scatter(fn, sendbuf, recvbuf,
                                         shmpi_coll_vec_of(recvcounts, wide),
                                         datatype, op, comm, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

static int reduce_scatter_block_init(const char *fn, const void *sendbuf,
                                     void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op,
                                     MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scatter_block(fn, sendbuf, recvbuf, recvcount,
                                               datatype, op, comm, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

/* MPI_Scan_init, MPI_Exscan_init (kind) and their _c forms. */
static int scan_init(const char *fn, const void *sendbuf, void *recvbuf,
                     MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, enum shmpi_red_kind kind, MPI_Info info,
                     MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_scan(fn, sendbuf, recvbuf, count, datatype,
                                      op, comm, kind, &x);
    return plan_red(fn, comm, rc, &x, info, request);
}

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return bcast_init("MPI_Bcast_init", buffer, count, datatype, root, comm,
                      info, request);
}

int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype,
                      int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    return bcast_init("MPI_Bcast_init_c", buffer, count, datatype, root, comm,
                      info, request);
}

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request)
{
    return gather_init("MPI_Gather_init", sendbuf, sendcount, sendtype,
                       recvbuf, recvcount, recvtype, root, comm, info,
                       request);
}

int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return gather_init("MPI_Gather_init_c", sendbuf, sendcount, sendtype,
                       recvbuf, recvcount, recvtype, root, comm, info,
                       request);
}

int PMPI_Gatherv_init(const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[],
                      MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    return gatherv_init("MPI_Gatherv_init", 0, sendbuf, sendcount, sendtype,
                        recvbuf, recvcounts, displs, recvtype, root, comm,
                        info, request);
}

int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf,
                        const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    return gatherv_init("MPI_Gatherv_init_c", 1, sendbuf, sendcount,
                        sendtype, recvbuf, recvcounts, displs, recvtype, root,
                        comm, info, request);
}

int PMPI_Scatter_init(const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    return scatter_init("MPI_Scatter_init", sendbuf, sendcount, sendtype,
                        recvbuf, recvcount, recvtype, root, comm, info,
                        request);
}

int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return scatter_init("MPI_Scatter_init_c", sendbuf, sendcount, sendtype,
                        recvbuf, recvcount, recvtype, root, comm, info,
                        request);
}

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[],
                       const int displs[], MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    return scatterv_init("MPI_Scatterv_init", 0, sendbuf, sendcounts, displs,
                         sendtype, recvbuf, recvcount, recvtype, root, comm,
                         info, request);
}

int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint displs[], MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    return scatterv_init("MPI_Scatterv_init_c", 1, sendbuf, sendcounts,
                         displs, sendtype, recvbuf, recvcount, recvtype, root,
                         comm, info, request);
}

int PMPI_Allgather_init(const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    return allgather_init("MPI_Allgather_init", sendbuf, sendcount, sendtype,
                          recvbuf, recvcount, recvtype, comm, info, request);
}

int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allgather_init("MPI_Allgather_init_c", sendbuf, sendcount,
                          sendtype, recvbuf, recvcount, recvtype, comm, info,
                          request);
}

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    return allgatherv_init("MPI_Allgatherv_init", 0, sendbuf, sendcount,
                           sendtype, recvbuf, recvcounts, displs, recvtype,
                           comm, info, request);
}

int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[],
                           const MPI_Aint displs[], MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allgatherv_init("MPI_Allgatherv_init_c", 1, sendbuf, sendcount,
                           sendtype, recvbuf, recvcounts, displs, recvtype,
                           comm, info, request);
}

int PMPI_Alltoall_init(const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    return alltoall_init("MPI_Alltoall_init", sendbuf, sendcount, sendtype,
                         recvbuf, recvcount, recvtype, comm, info, request);
}

int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return alltoall_init("MPI_Alltoall_init_c", sendbuf, sendcount, sendtype,
                         recvbuf, recvcount, recvtype, comm, info, request);
}

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[],
                        const int sdispls[], MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return alltoallv_init("MPI_Alltoallv_init", 0, sendbuf, sendcounts,
                          sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm, info, request);
}

int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype,
                          void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return alltoallv_init("MPI_Alltoallv_init_c", 1, sendbuf, sendcounts,
                          sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm, info, request);
}

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[],
                        const int sdispls[], const MPI_Datatype sendtypes[],
                        void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[],
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return alltoallw_init("MPI_Alltoallw_init", 0, sendbuf, sendcounts,
                          sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                          recvtypes, comm, info, request);
}

int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf,
                          const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    return alltoallw_init("MPI_Alltoallw_init_c", 1, sendbuf, sendcounts,
                          sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                          recvtypes, comm, info, request);
}

int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    return reduce_init("MPI_Reduce_init", sendbuf, recvbuf, count, datatype,
                       op, root, comm, info, request);
}

int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce_init("MPI_Reduce_init_c", sendbuf, recvbuf, count,
                       datatype, op, root, comm, info, request);
}

int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    return allreduce_init("MPI_Allreduce_init", sendbuf, recvbuf, count,
                          datatype, op, comm, info, request);
}

int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    return allreduce_init("MPI_Allreduce_init_c", sendbuf, recvbuf, count,
                          datatype, op, comm, info, request);
}

int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf,
                             const int recvcounts[], MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    return reduce_scatter_init("MPI_Reduce_scatter_init", 0, sendbuf,
                               recvbuf, recvcounts, datatype, op, comm, info,
                               request);
}

int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf,
                               const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Info info, MPI_Request *request)
{
    return reduce_scatter_init("MPI_Reduce_scatter_init_c", 1, sendbuf,
                               recvbuf, recvcounts, datatype, op, comm, info,
                               request);
}

int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf,
                                   int recvcount, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    return reduce_scatter_block_init("MPI_Reduce_scatter_block_init", sendbuf,
                                     recvbuf, recvcount, datatype, op, comm,
                                     info, request);
}

int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf,
                                     MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op,
                                     MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request)
{
    return reduce_scatter_block_init("MPI_Reduce_scatter_block_init_c",
                                     sendbuf, recvbuf, recvcount, datatype,
                                     op, comm, info, request);
}

int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    return scan_init("MPI_Scan_init", sendbuf, recvbuf, count, datatype, op,
                     comm, SHMPI_RED_SCAN, info, request);
}

int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    return scan_init("MPI_Scan_init_c", sendbuf, recvbuf, count, datatype, op,
                     comm, SHMPI_RED_SCAN, info, request);
}

int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    return scan_init("MPI_Exscan_init", sendbuf, recvbuf, count, datatype, op,
                     comm, SHMPI_RED_EXSCAN, info, request);
}

int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       MPI_Info info, MPI_Request *request)
{
    return scan_init("MPI_Exscan_init_c", sendbuf, recvbuf, count, datatype,
                     op, comm, SHMPI_RED_EXSCAN, info, request);
}
