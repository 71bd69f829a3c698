/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * neighbor.c - the neighbor collectives (MPI-3.1 7.6):
 * MPI_Neighbor_allgather, MPI_Neighbor_allgatherv, MPI_Neighbor_alltoall,
 * MPI_Neighbor_alltoallv, MPI_Neighbor_alltoallw.
 *
 * and their nonblocking forms (7.7): MPI_Ineighbor_allgather,
 * MPI_Ineighbor_allgatherv, MPI_Ineighbor_alltoall,
 * MPI_Ineighbor_alltoallv, MPI_Ineighbor_alltoallw,
 *
 * and their persistent forms (MPI-4.0 6.13, 8.8):
 * MPI_Neighbor_allgather_init, MPI_Neighbor_allgatherv_init,
 * MPI_Neighbor_alltoall_init, MPI_Neighbor_alltoallv_init,
 * MPI_Neighbor_alltoallw_init, which plan the nonblocking form's
 * schedule once, the neighbor lists and block addresses read from the
 * topology then, into an inactive persistent request that MPI_Start
 * reruns (coll/sched.c).  Their info must be MPI_INFO_NULL or valid
 * (MPI_ERR_INFO); no hint is read.
 *
 * A process receives block i from sources[i] and sends block i to
 * destinations[i] (topo.h: the order 7.6 gives for each kind of
 * topology).  Each block is one typed point-to-point message of a
 * one-round schedule (coll/sched.h) on the communicator's internal
 * context, so it never meets a message of the program, and the pt2pt
 * engine packs and unpacks any datatype.  All the receives are posted
 * first, then the sends started: no order of the processes can
 * deadlock.  The blocking calls run the schedule to its end.
 *
 * Several blocks between the same two processes match in the order the
 * receives are posted, since messages between two processes on one
 * context never overtake each other.  Repeated edges of a graph pair up
 * in the order each side lists them.  A Cartesian grid is different:
 * the block a process sends down dimension d arrives in its lower
 * neighbor's block from "up" (MPI-3.1 7.6 as corrected by the errata in
 * MPI-4.0 Annex B.1.1; MPI-4.1 8.6 names the periodic dimension of one or
 * two processes, where down and up are one process).  So the receives of
 * each dimension are posted up first, then down, against sends in list
 * order: down, then up.  Where the two neighbors differ the order changes
 * nothing.  (Measured 2026-11-28 with a probe on a periodic ring of 2:
 * Open MPI 4.1 gets the blocking calls right and the nonblocking ones
 * wrong; MPICH 4.0 gets alltoall right and alltoallv/w wrong.)  An
 * MPI_PROC_NULL neighbor has its block in the buffers, untouched.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "coll/check.h"
#include "coll/vec.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/info.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"
#include "coll/sched.h"
#include "comm/topo.h"

SHMPI_WEAK_ALIAS(Neighbor_allgather)
SHMPI_WEAK_ALIAS(Neighbor_allgather_c)
SHMPI_WEAK_ALIAS(Neighbor_allgatherv)
SHMPI_WEAK_ALIAS(Neighbor_allgatherv_c)
SHMPI_WEAK_ALIAS(Neighbor_alltoall)
SHMPI_WEAK_ALIAS(Neighbor_alltoall_c)
SHMPI_WEAK_ALIAS(Neighbor_alltoallv)
SHMPI_WEAK_ALIAS(Neighbor_alltoallv_c)
SHMPI_WEAK_ALIAS(Neighbor_alltoallw)
SHMPI_WEAK_ALIAS(Neighbor_alltoallw_c)
SHMPI_WEAK_ALIAS(Ineighbor_allgather)
SHMPI_WEAK_ALIAS(Ineighbor_allgather_c)
SHMPI_WEAK_ALIAS(Ineighbor_allgatherv)
SHMPI_WEAK_ALIAS(Ineighbor_allgatherv_c)
SHMPI_WEAK_ALIAS(Ineighbor_alltoall)
SHMPI_WEAK_ALIAS(Ineighbor_alltoall_c)
SHMPI_WEAK_ALIAS(Ineighbor_alltoallv)
SHMPI_WEAK_ALIAS(Ineighbor_alltoallv_c)
SHMPI_WEAK_ALIAS(Ineighbor_alltoallw)
SHMPI_WEAK_ALIAS(Ineighbor_alltoallw_c)
SHMPI_WEAK_ALIAS(Neighbor_allgather_init)
SHMPI_WEAK_ALIAS(Neighbor_allgather_init_c)
SHMPI_WEAK_ALIAS(Neighbor_allgatherv_init)
SHMPI_WEAK_ALIAS(Neighbor_allgatherv_init_c)
SHMPI_WEAK_ALIAS(Neighbor_alltoall_init)
SHMPI_WEAK_ALIAS(Neighbor_alltoall_init_c)
SHMPI_WEAK_ALIAS(Neighbor_alltoallv_init)
SHMPI_WEAK_ALIAS(Neighbor_alltoallv_init_c)
SHMPI_WEAK_ALIAS(Neighbor_alltoallw_init)
SHMPI_WEAK_ALIAS(Neighbor_alltoallw_init_c)

/* Where the blocks of one side of a call are. */
struct layout {
    enum {
        SAME,      /* one block, for every neighbor (allgather's send) */
        EACH,      /* block i at i * count elements of type */
        VECTOR,    /* counts[i] elements of type at displs[i] extents */
        BYTES,     /* counts[i] elements of types[i] at bytes[i] bytes */
    } shape;
    unsigned char *base;
    MPI_Count count;
    MPI_Datatype type;
    struct shmpi_coll_vec counts, displs; /* either width (coll/vec.h) */
    const MPI_Aint *bytes;
    const MPI_Datatype *types;
};

static void *block_at(const struct layout *l, int i, MPI_Count *count,
                      MPI_Datatype *type)
{
    *count = l->shape == VECTOR || l->shape == BYTES
                 ? shmpi_coll_count_at(l->counts, i)
                 : l->count;
    *type = l->shape == BYTES ? l->types[i] : l->type;
    switch (l->shape) {
    case SAME:
        return l->base;
    case EACH:
        return l->base + (MPI_Aint)i * l->count * l->type->extent;
    case VECTOR:
        return l->base + shmpi_coll_disp_at(l->displs, i) * l->type->extent;
    default:
        return l->base + l->bytes[i];
    }
}

/* ------------------------------------------------------------------ */
/* Argument checks                                                     */
/* ------------------------------------------------------------------ */

static int check_arrays(const char *fn, MPI_Comm comm,
                        const struct layout *l, const char *what)
{
    const char *missing = !l->counts.p                         ? "counts"
                          : l->shape == VECTOR && !l->displs.p ? "displs"
                          : l->shape == BYTES && !l->bytes     ? "displs"
                          : l->shape == BYTES && !l->types     ? "types"
                                                               : NULL;
    if (missing)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "the %s of %s are NULL",
                           missing, what);
    return MPI_SUCCESS;
}

/* The n blocks of one side: arrays present, counts >= 0, committed
   types, and real buffers where there is data (coll/check.h).  Counts
   and types that are single arguments are checked even when no neighbor
   uses them. */
static int check_side(const char *fn, MPI_Comm comm, const struct layout *l,
                      int n, const char *what)
{
    if (l->base == MPI_IN_PLACE)
        return shmpi_raise(comm, MPI_ERR_BUFFER, fn,
                           "%s is MPI_IN_PLACE, which no neighbor "
                           "collective allows", what);
    int rc = MPI_SUCCESS;
    if (l->shape != BYTES)
        rc = shmpi_coll_check_type(fn, comm, l->type, what);
    if (rc == MPI_SUCCESS && (l->shape == SAME || l->shape == EACH) &&
        l->count < 0)
        rc = shmpi_raise(comm, MPI_ERR_COUNT, fn,
                         "the count of %s is negative (%lld)", what,
                         (long long)l->count);
    if (rc == MPI_SUCCESS && n > 0 &&
        (l->shape == VECTOR || l->shape == BYTES))
        rc = check_arrays(fn, comm, l, what);
    int blocks = l->shape == SAME && n > 0 ? 1 : n; /* SAME: one block */
    for (int i = 0; i < blocks && rc == MPI_SUCCESS; i++) {
        if (l->shape == BYTES &&
            (rc = shmpi_coll_check_type(fn, comm, l->types[i], what)))
            break;
        MPI_Count count;
        MPI_Datatype type;
        void *at = block_at(l, i, &count, &type);
        rc = shmpi_coll_check_data(fn, comm, at, count, type, what);
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* The exchange                                                        */
/* ------------------------------------------------------------------ */

struct exchange {
    const struct shmpi_topo *t;
    const struct layout *out, *in;
};

/* One round: every receive, then every send (sched.h starts the
   receives first whatever the order here).  A Cartesian grid's receives
   of dimension d go in the order 2d + 1, 2d (top comment). */
static int schedule(struct shmpi_nbc *s, MPI_Comm comm, const void *arg)
{
    const struct exchange *x = arg;
    MPI_Count count;
    int rc = MPI_SUCCESS, flip = x->t->kind == MPI_CART;
    MPI_Datatype type;
    (void)comm;
    for (int k = 0; k < x->t->indegree && rc == MPI_SUCCESS; k++) {
        int i = flip ? k ^ 1 : k;
        void *at = block_at(x->in, i, &count, &type);
        rc = shmpi_nbc_recv(s, at, count, type, x->t->sources[i]);
    }
    for (int i = 0; i < x->t->outdegree && rc == MPI_SUCCESS; i++) {
        void *at = block_at(x->out, i, &count, &type);
        rc = shmpi_nbc_send(s, at, count, type, x->t->destinations[i]);
    }
    return rc;
}

/* How a call runs, and the name it has (for its errors): blocking,
   started into *req, or planned into the inactive persistent request
   *req (with info). */
struct how {
    enum { BLOCK, START, PLAN } kind;
    MPI_Request *req;
    MPI_Info info;
    const char *fn;
};

#define BLOCKING(fn) (&(const struct how){BLOCK, NULL, MPI_INFO_NULL, (fn)})
#define STARTED(req, fn)                                                   \
    (&(const struct how){START, (req), MPI_INFO_NULL, (fn)})
#define PLANNED(req, info, fn)                                             \
    (&(const struct how){PLAN, (req), (info), (fn)})

/* The I-forms' extra argument, and the persistent forms' (coll/check.h). */
static int check_how(MPI_Comm comm, const struct how *how)
{
    if (how->kind == START && !how->req)
        return shmpi_raise(shmpi_comm_ok(comm) ? comm : MPI_COMM_NULL,
                           MPI_ERR_ARG, how->fn, "request is NULL");
    if (how->kind == PLAN && shmpi_comm_ok(comm))
        return shmpi_coll_check_init(how->fn, comm, how->info, how->req);
    return MPI_SUCCESS;
}

/* The common part of the thirty calls (fifteen, and their MPI-4.0
   large-count forms). */
static int neighbor(MPI_Comm comm, const struct layout *out,
                    const struct layout *in, const struct how *how)
{
    const char *fn = how->fn;
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_how(comm, how);
    struct shmpi_topo *t = rc ? NULL : shmpi_topo_of(comm, 0, fn, &rc);
    if (!t || (rc = check_side(fn, comm, out, t->outdegree, "sendbuf")) ||
        (rc = check_side(fn, comm, in, t->indegree, "recvbuf")))
        return shmpi_nbc_refuse_call(
            comm, shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT,
                                   MPI_OP_NULL, 0, NULL));
    shmpi_coll_order(fn, comm, MPI_SUCCESS, SHMPI_ORDER_NO_ROOT, MPI_OP_NULL, 0,
                     NULL);
    struct exchange x = {t, out, in};
    if (how->kind == PLAN)
        return shmpi_nbc_plan(comm, schedule, &x, how->req, fn);
    return shmpi_nbc_launch(comm, schedule, &x, how->req, fn);
}

/* ------------------------------------------------------------------ */
/* The calls: each blocking one and its I-form share the layouts       */
/* ------------------------------------------------------------------ */

static int allgather(const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm,
                     const struct how *how)
{
    struct layout out = {.shape = SAME, .base = (void *)sendbuf,
                         .count = sendcount, .type = sendtype};
    struct layout in = {.shape = EACH, .base = recvbuf, .count = recvcount,
                        .type = recvtype};
    return neighbor(comm, &out, &in, how);
}

static int allgatherv(const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf,
                      struct shmpi_coll_vec recvcounts,
                      struct shmpi_coll_vec displs, MPI_Datatype recvtype,
                      MPI_Comm comm, const struct how *how)
{
    struct layout out = {.shape = SAME, .base = (void *)sendbuf,
                         .count = sendcount, .type = sendtype};
    struct layout in = {.shape = VECTOR, .base = recvbuf,
                        .counts = recvcounts, .displs = displs,
                        .type = recvtype};
    return neighbor(comm, &out, &in, how);
}

static int alltoall(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm,
                    const struct how *how)
{
    struct layout out = {.shape = EACH, .base = (void *)sendbuf,
                         .count = sendcount, .type = sendtype};
    struct layout in = {.shape = EACH, .base = recvbuf, .count = recvcount,
                        .type = recvtype};
    return neighbor(comm, &out, &in, how);
}

static int alltoallv(const void *sendbuf, struct shmpi_coll_vec sendcounts,
                     struct shmpi_coll_vec sdispls, MPI_Datatype sendtype,
                     void *recvbuf, struct shmpi_coll_vec recvcounts,
                     struct shmpi_coll_vec rdispls, MPI_Datatype recvtype,
                     MPI_Comm comm, const struct how *how)
{
    struct layout out = {.shape = VECTOR, .base = (void *)sendbuf,
                         .counts = sendcounts, .displs = sdispls,
                         .type = sendtype};
    struct layout in = {.shape = VECTOR, .base = recvbuf,
                        .counts = recvcounts, .displs = rdispls,
                        .type = recvtype};
    return neighbor(comm, &out, &in, how);
}

static int alltoallw(const void *sendbuf, struct shmpi_coll_vec sendcounts,
                     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                     void *recvbuf, struct shmpi_coll_vec recvcounts,
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                     MPI_Comm comm, const struct how *how)
{
    struct layout out = {.shape = BYTES, .base = (void *)sendbuf,
                         .counts = sendcounts, .bytes = sdispls,
                         .types = sendtypes};
    struct layout in = {.shape = BYTES, .base = recvbuf,
                        .counts = recvcounts, .bytes = rdispls,
                        .types = recvtypes};
    return neighbor(comm, &out, &in, how);
}

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, comm, BLOCKING("MPI_Neighbor_allgather"));
}

int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, comm, BLOCKING("MPI_Neighbor_allgather_c"));
}

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, comm,
                     STARTED(request, "MPI_Ineighbor_allgather"));
}

int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, comm,
                     STARTED(request, "MPI_Ineighbor_allgather_c"));
}

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgatherv(sendbuf, sendcount, sendtype, recvbuf,
                      shmpi_coll_ints(recvcounts), shmpi_coll_ints(displs),
                      recvtype, comm, BLOCKING("MPI_Neighbor_allgatherv"));
}

int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[],
                               const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm)
{
    return allgatherv(sendbuf, sendcount, sendtype, recvbuf,
                      shmpi_coll_counts_c(recvcounts),
                      shmpi_coll_aints(displs), recvtype, comm,
                      BLOCKING("MPI_Neighbor_allgatherv_c"));
}

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request)
{
    return allgatherv(sendbuf, sendcount, sendtype, recvbuf,
                      shmpi_coll_ints(recvcounts), shmpi_coll_ints(displs),
                      recvtype, comm,
                      STARTED(request, "MPI_Ineighbor_allgatherv"));
}

int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request)
{
    return allgatherv(sendbuf, sendcount, sendtype, recvbuf,
                      shmpi_coll_counts_c(recvcounts),
                      shmpi_coll_aints(displs), recvtype, comm,
                      STARTED(request, "MPI_Ineighbor_allgatherv_c"));
}

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    comm, BLOCKING("MPI_Neighbor_alltoall"));
}

int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm)
{
    return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    comm, BLOCKING("MPI_Neighbor_alltoall_c"));
}

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request *request)
{
    return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    comm, STARTED(request, "MPI_Ineighbor_alltoall"));
}

int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request)
{
    return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    comm, STARTED(request, "MPI_Ineighbor_alltoall_c"));
}

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                            const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    return alltoallv(sendbuf, shmpi_coll_ints(sendcounts),
                     shmpi_coll_ints(sdispls), sendtype, recvbuf,
                     shmpi_coll_ints(recvcounts), shmpi_coll_ints(rdispls),
                     recvtype, comm, BLOCKING("MPI_Neighbor_alltoallv"));
}

int PMPI_Neighbor_alltoallv_c(const void *sendbuf,
                              const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype,
                              void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    return alltoallv(sendbuf, shmpi_coll_counts_c(sendcounts),
                     shmpi_coll_aints(sdispls), sendtype, recvbuf,
                     shmpi_coll_counts_c(recvcounts),
                     shmpi_coll_aints(rdispls), recvtype, comm,
                     BLOCKING("MPI_Neighbor_alltoallv_c"));
}

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                             const int sdispls[], MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    return alltoallv(sendbuf, shmpi_coll_ints(sendcounts),
                     shmpi_coll_ints(sdispls), sendtype, recvbuf,
                     shmpi_coll_ints(recvcounts), shmpi_coll_ints(rdispls),
                     recvtype, comm,
                     STARTED(request, "MPI_Ineighbor_alltoallv"));
}

int PMPI_Ineighbor_alltoallv_c(const void *sendbuf,
                               const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype,
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request)
{
    return alltoallv(sendbuf, shmpi_coll_counts_c(sendcounts),
                     shmpi_coll_aints(sdispls), sendtype, recvbuf,
                     shmpi_coll_counts_c(recvcounts),
                     shmpi_coll_aints(rdispls), recvtype, comm,
                     STARTED(request, "MPI_Ineighbor_alltoallv_c"));
}

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                            const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf,
                            const int recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoallw(sendbuf, shmpi_coll_ints(sendcounts), sdispls, sendtypes,
                     recvbuf, shmpi_coll_ints(recvcounts), rdispls, recvtypes,
                     comm, BLOCKING("MPI_Neighbor_alltoallw"));
}

int PMPI_Neighbor_alltoallw_c(const void *sendbuf,
                              const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf,
                              const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoallw(sendbuf, shmpi_coll_counts_c(sendcounts), sdispls,
                     sendtypes, recvbuf, shmpi_coll_counts_c(recvcounts),
                     rdispls, recvtypes, comm,
                     BLOCKING("MPI_Neighbor_alltoallw_c"));
}

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                             const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf,
                             const int recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request *request)
{
    return alltoallw(sendbuf, shmpi_coll_ints(sendcounts), sdispls, sendtypes,
                     recvbuf, shmpi_coll_ints(recvcounts), rdispls, recvtypes,
                     comm, STARTED(request, "MPI_Ineighbor_alltoallw"));
}

int PMPI_Ineighbor_alltoallw_c(
    const void *sendbuf, const MPI_Count sendcounts[],
    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    return alltoallw(sendbuf, shmpi_coll_counts_c(sendcounts), sdispls,
                     sendtypes, recvbuf, shmpi_coll_counts_c(recvcounts),
                     rdispls, recvtypes, comm,
                     STARTED(request, "MPI_Ineighbor_alltoallw_c"));
}

int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, comm,
                     PLANNED(request, info, "MPI_Neighbor_allgather_init"));
}

int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, comm,
                     PLANNED(request, info, "MPI_Neighbor_allgather_init_c"));
}

int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Info info, MPI_Request *request)
{
    return allgatherv(sendbuf, sendcount, sendtype, recvbuf,
                      shmpi_coll_ints(recvcounts), shmpi_coll_ints(displs),
                      recvtype, comm,
                      PLANNED(request, info, "MPI_Neighbor_allgatherv_init"));
}

int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[],
                                    const MPI_Aint displs[],
                                    MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request)
{
    return allgatherv(
        sendbuf, sendcount, sendtype, recvbuf, shmpi_coll_counts_c(recvcounts),
        shmpi_coll_aints(displs), recvtype, comm,
        PLANNED(request, info, "MPI_Neighbor_allgatherv_init_c"));
}

int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    comm,
                    PLANNED(request, info, "MPI_Neighbor_alltoall_init"));
}

int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    comm,
                    PLANNED(request, info, "MPI_Neighbor_alltoall_init_c"));
}

int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    return alltoallv(sendbuf, shmpi_coll_ints(sendcounts),
                     shmpi_coll_ints(sdispls), sendtype, recvbuf,
                     shmpi_coll_ints(recvcounts), shmpi_coll_ints(rdispls),
                     recvtype, comm,
                     PLANNED(request, info, "MPI_Neighbor_alltoallv_init"));
}

int PMPI_Neighbor_alltoallv_init_c(
    const void *sendbuf, const MPI_Count sendcounts[],
    const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return alltoallv(sendbuf, shmpi_coll_counts_c(sendcounts),
                     shmpi_coll_aints(sdispls), sendtype, recvbuf,
                     shmpi_coll_counts_c(recvcounts),
                     shmpi_coll_aints(rdispls), recvtype, comm,
                     PLANNED(request, info, "MPI_Neighbor_alltoallv_init_c"));
}

int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[],
                                 const MPI_Datatype sendtypes[], void *recvbuf,
                                 const int recvcounts[],
                                 const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    return alltoallw(sendbuf, shmpi_coll_ints(sendcounts), sdispls, sendtypes,
                     recvbuf, shmpi_coll_ints(recvcounts), rdispls, recvtypes,
                     comm,
                     PLANNED(request, info, "MPI_Neighbor_alltoallw_init"));
}

int PMPI_Neighbor_alltoallw_init_c(
    const void *sendbuf, const MPI_Count sendcounts[],
    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
    MPI_Request *request)
{
    return alltoallw(sendbuf, shmpi_coll_counts_c(sendcounts), sdispls,
                     sendtypes, recvbuf, shmpi_coll_counts_c(recvcounts),
                     rdispls, recvtypes, comm,
                     PLANNED(request, info, "MPI_Neighbor_alltoallw_init_c"));
}
