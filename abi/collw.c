/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * collw.c - the ABI's collectives that take an array of datatypes, one
 * per peer (abi.h): MPI_Alltoallw and MPI_Neighbor_alltoallw in their
 * blocking, nonblocking and persistent forms.  The arrays are converted
 * into shmpi's for the call only: shmpi builds the collective's schedule
 * from them at the call, the persistent one's at the init (coll/data.h),
 * and reads them no more after it.
 *
 * The number of peers is the communicator's size, or its remote size on
 * an intercommunicator; of neighbors, the topology's in- and out-degree.
 * shmpi is asked for them first: an invalid communicator is reported by
 * that query, with MPI_ERR_COMM.  A communicator without a topology has
 * no neighbors: empty arrays go to shmpi, which reports that.
 */
#include "abi/abi.h"

enum form { BLOCKING, NONBLOCKING, PERSISTENT };

static int peers(MPI_Comm comm, int *n)
{
    int inter = 0;
    int rc = PMPI_Comm_test_inter(comm, &inter);
    if (rc == MPI_SUCCESS)
        rc = inter ? PMPI_Comm_remote_size(comm, n) : PMPI_Comm_size(comm, n);
    return rc;
}

struct w {
    MPI_Datatype *s, *r;
    MPI_Datatype sstack[ABI_TYPES_STACK], rstack[ABI_TYPES_STACK];
};

/* The in-degree and out-degree of comm's topology, 0 without one. */
static int degrees(MPI_Comm comm, int *in, int *out)
{
    int kind = MPI_UNDEFINED, rank = 0, weighted;
    int rc = PMPI_Topo_test(comm, &kind);
    *in = *out = 0;
    if (rc != MPI_SUCCESS)
        return rc;
    switch (kind) {
    case MPI_CART:
        rc = PMPI_Cartdim_get(comm, in);
        *in = *out = 2 * *in;
        return rc;
    case MPI_GRAPH:
        rc = PMPI_Comm_rank(comm, &rank);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Graph_neighbors_count(comm, rank, in);
        *out = *in;
        return rc;
    case MPI_DIST_GRAPH:
        return PMPI_Dist_graph_neighbors_count(comm, in, out, &weighted);
    default:
        return MPI_SUCCESS;
    }
}

/* The send (unless MPI_IN_PLACE) datatypes of ns peers and the receive
   datatypes of nr; NULL arrays passed on for shmpi to report. */
static int w_in(struct w *w, int ns, int nr, const void *sendbuf,
                const abi_Datatype *st, const abi_Datatype *rt)
{
    w->s = w->r = NULL;
    if (sendbuf != MPI_IN_PLACE && st &&
        !(w->s = shmpi_abi_types_in(st, ns, w->sstack)))
        return MPI_ERR_NO_MEM;
    if (rt && !(w->r = shmpi_abi_types_in(rt, nr, w->rstack))) {
        if (w->s)
            shmpi_abi_types_done(w->s, w->sstack);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

static void w_done(struct w *w)
{
    if (w->s)
        shmpi_abi_types_done(w->s, w->sstack);
    if (w->r)
        shmpi_abi_types_done(w->r, w->rstack);
}

static int alltoallw(enum form form, const void *sendbuf,
                     const int sendcounts[], const int sdispls[],
                     const abi_Datatype sendtypes[], void *recvbuf,
                     const int recvcounts[], const int rdispls[],
                     const abi_Datatype recvtypes[], abi_Comm comm,
                     abi_Info info, abi_Request *request)
{
    MPI_Comm c = comm_in(comm);
    struct w w;
    int n = 0, rc = peers(c, &n);
    if (rc == MPI_SUCCESS)
        rc = w_in(&w, n, n, sendbuf, sendtypes, recvtypes);
    if (rc != MPI_SUCCESS)
        return err_out(rc);
    MPI_Request r;
    MPI_Request *rp = request ? &r : NULL;
    switch (form) {
    case BLOCKING:
        rc = PMPI_Alltoallw(sendbuf, sendcounts, sdispls, w.s, recvbuf,
                            recvcounts, rdispls, w.r, c);
        break;
    case NONBLOCKING:
        rc = PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, w.s, recvbuf,
                             recvcounts, rdispls, w.r, c, rp);
        break;
    case PERSISTENT:
        rc = PMPI_Alltoallw_init(sendbuf, sendcounts, sdispls, w.s, recvbuf,
                                 recvcounts, rdispls, w.r, c, info_in(info),
                                 rp);
        break;
    }
    w_done(&w);
    return form == BLOCKING ? err_out(rc) : started(rc, &r, request);
}

ABI_FN(int, Alltoallw, (const void *sendbuf, const int sendcounts[],
                        const int sdispls[], const abi_Datatype sendtypes[],
                        void *recvbuf, const int recvcounts[],
                        const int rdispls[], const abi_Datatype recvtypes[],
                        abi_Comm comm))
{
    return alltoallw(BLOCKING, sendbuf, sendcounts, sdispls, sendtypes,
                     recvbuf, recvcounts, rdispls, recvtypes, comm, NULL,
                     NULL);
}

ABI_FN(int, Ialltoallw, (const void *sendbuf, const int sendcounts[],
                         const int sdispls[], const abi_Datatype sendtypes[],
                         void *recvbuf, const int recvcounts[],
                         const int rdispls[], const abi_Datatype recvtypes[],
                         abi_Comm comm, abi_Request *request))
{
    return alltoallw(NONBLOCKING, sendbuf, sendcounts, sdispls, sendtypes,
                     recvbuf, recvcounts, rdispls, recvtypes, comm, NULL,
                     request);
}

ABI_FN(int, Alltoallw_init, (const void *sendbuf, const int sendcounts[],
                             const int sdispls[],
                             const abi_Datatype sendtypes[], void *recvbuf,
                             const int recvcounts[], const int rdispls[],
                             const abi_Datatype recvtypes[], abi_Comm comm,
                             abi_Info info, abi_Request *request))
{
    return alltoallw(PERSISTENT, sendbuf, sendcounts, sdispls, sendtypes,
                     recvbuf, recvcounts, rdispls, recvtypes, comm, info,
                     request);
}

static int neighbor_alltoallw(enum form form, const void *sendbuf,
                              const int sendcounts[], const MPI_Aint sdispls[],
                              const abi_Datatype sendtypes[], void *recvbuf,
                              const int recvcounts[], const MPI_Aint rdispls[],
                              const abi_Datatype recvtypes[], abi_Comm comm,
                              abi_Info info, abi_Request *request)
{
    MPI_Comm c = comm_in(comm);
    struct w w;
    int in = 0, out = 0, rc = degrees(c, &in, &out);
    if (rc == MPI_SUCCESS)
        rc = w_in(&w, out, in, sendbuf, sendtypes, recvtypes);
    if (rc != MPI_SUCCESS)
        return err_out(rc);
    MPI_Request r;
    MPI_Request *rp = request ? &r : NULL;
    switch (form) {
    case BLOCKING:
        rc = PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, w.s,
                                     recvbuf, recvcounts, rdispls, w.r, c);
        break;
    case NONBLOCKING:
        rc = PMPI_Ineighbor_alltoallw(sendbuf, sendcounts, sdispls, w.s,
                                      recvbuf, recvcounts, rdispls, w.r, c,
                                      rp);
        break;
    case PERSISTENT:
        rc = PMPI_Neighbor_alltoallw_init(sendbuf, sendcounts, sdispls, w.s,
                                          recvbuf, recvcounts, rdispls, w.r,
                                          c, info_in(info), rp);
        break;
    }
    w_done(&w);
    return form == BLOCKING ? err_out(rc) : started(rc, &r, request);
}

ABI_FN(int, Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[],
                                 const abi_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[],
                                 const MPI_Aint rdispls[],
                                 const abi_Datatype recvtypes[],
                                 abi_Comm comm))
{
    return neighbor_alltoallw(BLOCKING, sendbuf, sendcounts, sdispls,
                              sendtypes, recvbuf, recvcounts, rdispls,
                              recvtypes, comm, NULL, NULL);
}

ABI_FN(int, Ineighbor_alltoallw, (const void *sendbuf,
                                  const int sendcounts[],
                                  const MPI_Aint sdispls[],
                                  const abi_Datatype sendtypes[],
                                  void *recvbuf, const int recvcounts[],
                                  const MPI_Aint rdispls[],
                                  const abi_Datatype recvtypes[],
                                  abi_Comm comm, abi_Request *request))
{
    return neighbor_alltoallw(NONBLOCKING, sendbuf, sendcounts, sdispls,
                              sendtypes, recvbuf, recvcounts, rdispls,
                              recvtypes, comm, NULL, request);
}

ABI_FN(int, Neighbor_alltoallw_init, (const void *sendbuf,
                                      const int sendcounts[],
                                      const MPI_Aint sdispls[],
                                      const abi_Datatype sendtypes[],
                                      void *recvbuf, const int recvcounts[],
                                      const MPI_Aint rdispls[],
                                      const abi_Datatype recvtypes[],
                                      abi_Comm comm, abi_Info info,
                                      abi_Request *request))
{
    return neighbor_alltoallw(PERSISTENT, sendbuf, sendcounts, sdispls,
                              sendtypes, recvbuf, recvcounts, rdispls,
                              recvtypes, comm, info, request);
}
