/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * collw.c - the ABI's collectives that take an array of datatypes, one
 * per peer (abi.h): MPI_Alltoallw and MPI_Neighbor_alltoallw in their
 * blocking, nonblocking and persistent forms, each also in its
 * large-count (_c) form.  The arrays are converted
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

/* The datatypes a process sends (ns) and receives (nr): one each per
   peer of comm, its remote group's on an intercommunicator. */
static int peers(MPI_Comm comm, int *ns, int *nr)
{
    int inter = 0;
    int rc = PMPI_Comm_test_inter(comm, &inter);
    if (rc == MPI_SUCCESS)
        rc = inter ? PMPI_Comm_remote_size(comm, ns) : PMPI_Comm_size(comm, ns);
    *nr = *ns;
    return rc;
}

/* The same for the neighbors of comm's topology: its out-degree and
   in-degree, 0 without a topology. */
static int degrees(MPI_Comm comm, int *ns, int *nr)
{
    int kind = MPI_UNDEFINED, rank = 0, weighted;
    int rc = PMPI_Topo_test(comm, &kind);
    *ns = *nr = 0;
    if (rc != MPI_SUCCESS)
        return rc;
    switch (kind) {
    case MPI_CART:
        rc = PMPI_Cartdim_get(comm, nr);
        *ns = *nr = 2 * *nr;
        return rc;
    case MPI_GRAPH:
        rc = PMPI_Comm_rank(comm, &rank);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Graph_neighbors_count(comm, rank, nr);
        *ns = *nr;
        return rc;
    case MPI_DIST_GRAPH:
        return PMPI_Dist_graph_neighbors_count(comm, nr, ns, &weighted);
    default:
        return MPI_SUCCESS;
    }
}

struct w {
    MPI_Datatype *s, *r;
    MPI_Datatype sstack[ABI_TYPES_STACK], rstack[ABI_TYPES_STACK];
};

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

/* Name's three forms (IName, InitName), counts of type count_t,
   displacements of type disp_t, the numbers of datatypes from count. */
#define ABI_W(Name, IName, InitName, count_t, disp_t, count)               \
    static int w_##Name(enum form form, const void *sendbuf,               \
                        const count_t sendcounts[], const disp_t sdispls[],\
                        const abi_Datatype sendtypes[], void *recvbuf,     \
                        const count_t recvcounts[], const disp_t rdispls[],\
                        const abi_Datatype recvtypes[], abi_Comm comm,     \
                        abi_Info info, abi_Request *request)               \
    {                                                                      \
        MPI_Comm c = comm_in(comm);                                        \
        struct w w;                                                        \
        int ns = 0, nr = 0, rc = count(c, &ns, &nr);                       \
        if (rc == MPI_SUCCESS)                                             \
            rc = w_in(&w, ns, nr, sendbuf, sendtypes, recvtypes);          \
        if (rc != MPI_SUCCESS)                                             \
            return rc;                                                     \
        MPI_Request *rp = reqp_in(request);                                \
        if (form == BLOCKING)                                              \
            rc = PMPI_##Name(sendbuf, sendcounts, sdispls, w.s, recvbuf,   \
                             recvcounts, rdispls, w.r, c);                 \
        else if (form == NONBLOCKING)                                      \
            rc = PMPI_##IName(sendbuf, sendcounts, sdispls, w.s, recvbuf,  \
                              recvcounts, rdispls, w.r, c, rp);            \
        else                                                               \
            rc = PMPI_##InitName(sendbuf, sendcounts, sdispls, w.s,        \
                                 recvbuf, recvcounts, rdispls, w.r, c,     \
                                 info_in(info), rp);                       \
        w_done(&w);                                                        \
        return rc;                                                         \
    }                                                                      \
    ABI_FN(int, Name, (const void *sendbuf, const count_t sendcounts[],    \
                       const disp_t sdispls[],                             \
                       const abi_Datatype sendtypes[], void *recvbuf,      \
                       const count_t recvcounts[], const disp_t rdispls[], \
                       const abi_Datatype recvtypes[], abi_Comm comm))     \
    {                                                                      \
        return w_##Name(BLOCKING, sendbuf, sendcounts, sdispls, sendtypes, \
                        recvbuf, recvcounts, rdispls, recvtypes, comm,     \
                        NULL, NULL);                                       \
    }                                                                      \
    ABI_FN(int, IName, (const void *sendbuf, const count_t sendcounts[],   \
                        const disp_t sdispls[],                            \
                        const abi_Datatype sendtypes[], void *recvbuf,     \
                        const count_t recvcounts[], const disp_t rdispls[],\
                        const abi_Datatype recvtypes[], abi_Comm comm,     \
                        abi_Request *request))                             \
    {                                                                      \
        return w_##Name(NONBLOCKING, sendbuf, sendcounts, sdispls,         \
                        sendtypes, recvbuf, recvcounts, rdispls,           \
                        recvtypes, comm, NULL, request);                   \
    }                                                                      \
    ABI_FN(int, InitName, (const void *sendbuf,                            \
                           const count_t sendcounts[],                     \
                           const disp_t sdispls[],                         \
                           const abi_Datatype sendtypes[], void *recvbuf,  \
                           const count_t recvcounts[],                     \
                           const disp_t rdispls[],                         \
                           const abi_Datatype recvtypes[], abi_Comm comm,  \
                           abi_Info info, abi_Request *request))           \
    {                                                                      \
        return w_##Name(PERSISTENT, sendbuf, sendcounts, sdispls,          \
                        sendtypes, recvbuf, recvcounts, rdispls,           \
                        recvtypes, comm, info, request);                   \
    }

ABI_W(Alltoallw, Ialltoallw, Alltoallw_init, int, int, peers)
ABI_W(Neighbor_alltoallw, Ineighbor_alltoallw, Neighbor_alltoallw_init,
      int, MPI_Aint, degrees)
ABI_W(Alltoallw_c, Ialltoallw_c, Alltoallw_init_c, MPI_Count, MPI_Aint,
      peers)
ABI_W(Neighbor_alltoallw_c, Ineighbor_alltoallw_c,
      Neighbor_alltoallw_init_c, MPI_Count, MPI_Aint, degrees)
