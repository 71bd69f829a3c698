/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * collw.c - the ABI's collectives that take an array of datatypes, one
 * per peer (abi.h): MPI_Alltoallw in its blocking, nonblocking and
 * persistent forms.  The arrays are converted into shmpi's for the call
 * only: shmpi builds the collective's schedule from them at the call
 * (coll/data.h), and reads them no more after it.
 *
 * The number of peers is the communicator's size, or its remote size on
 * an intercommunicator, which shmpi is asked for first: an invalid
 * communicator is reported by that query, with MPI_ERR_COMM.
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

/* The send (unless MPI_IN_PLACE) and receive datatypes of n peers;
   NULL arrays passed on for shmpi to report. */
static int w_in(struct w *w, int n, const void *sendbuf,
                const abi_Datatype *st, const abi_Datatype *rt)
{
    w->s = w->r = NULL;
    if (sendbuf != MPI_IN_PLACE && st &&
        !(w->s = shmpi_abi_types_in(st, n, w->sstack)))
        return MPI_ERR_NO_MEM;
    if (rt && !(w->r = shmpi_abi_types_in(rt, n, w->rstack))) {
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
        rc = w_in(&w, n, sendbuf, sendtypes, recvtypes);
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
