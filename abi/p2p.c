/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * p2p.c - the ABI's point-to-point functions (abi.h): handles and ranks
 * translated on the way in, statuses and requests on the way out.
 */
#include <stdlib.h>

#include "abi/abi.h"

/* A status for shmpi to fill, or none when the program ignores it. */
#define STATUS_IN(a, s) ((a) ? (status_mark(&(s)), &(s)) : MPI_STATUS_IGNORE)
#define STATUS_OUT(a, s) do { if (a) shmpi_abi_status_out(&(s), (a)); } while (0)

ABI_FN(int, Send, (const void *buf, int count, abi_Datatype dt, int dest,
                   int tag, abi_Comm comm))
{
    return err_out(PMPI_Send(buf, count, dt_in(dt), rank_in(dest),
                             tag_in(tag), comm_in(comm)));
}

ABI_FN(int, Ssend, (const void *buf, int count, abi_Datatype dt, int dest,
                    int tag, abi_Comm comm))
{
    return err_out(PMPI_Ssend(buf, count, dt_in(dt), rank_in(dest),
                              tag_in(tag), comm_in(comm)));
}

ABI_FN(int, Recv, (void *buf, int count, abi_Datatype dt, int source,
                   int tag, abi_Comm comm, abi_Status *status))
{
    MPI_Status s;
    int rc = PMPI_Recv(buf, count, dt_in(dt), rank_in(source), tag_in(tag),
                       comm_in(comm), STATUS_IN(status, s));
    STATUS_OUT(status, s);
    return err_out(rc);
}

ABI_FN(int, Sendrecv, (const void *sendbuf, int sendcount,
                       abi_Datatype sendtype, int dest, int sendtag,
                       void *recvbuf, int recvcount, abi_Datatype recvtype,
                       int source, int recvtag, abi_Comm comm,
                       abi_Status *status))
{
    MPI_Status s;
    int rc = PMPI_Sendrecv(sendbuf, sendcount, dt_in(sendtype),
                           rank_in(dest), tag_in(sendtag), recvbuf,
                           recvcount, dt_in(recvtype), rank_in(source),
                           tag_in(recvtag), comm_in(comm),
                           STATUS_IN(status, s));
    STATUS_OUT(status, s);
    return err_out(rc);
}

/* A request a call started, given to the program when the call
   succeeded. */
static inline int started(int rc, const MPI_Request *r, abi_Request *request)
{
    if (rc == MPI_SUCCESS)
        *request = req_out(*r);
    return err_out(rc);
}

ABI_FN(int, Isend, (const void *buf, int count, abi_Datatype dt, int dest,
                    int tag, abi_Comm comm, abi_Request *request))
{
    MPI_Request r;
    return started(PMPI_Isend(buf, count, dt_in(dt), rank_in(dest),
                              tag_in(tag), comm_in(comm), request ? &r : NULL),
                   &r, request);
}

ABI_FN(int, Irecv, (void *buf, int count, abi_Datatype dt, int source,
                    int tag, abi_Comm comm, abi_Request *request))
{
    MPI_Request r;
    return started(PMPI_Irecv(buf, count, dt_in(dt), rank_in(source),
                              tag_in(tag), comm_in(comm), request ? &r : NULL),
                   &r, request);
}

ABI_FN(int, Probe, (int source, int tag, abi_Comm comm, abi_Status *status))
{
    MPI_Status s;
    int rc = PMPI_Probe(rank_in(source), tag_in(tag), comm_in(comm),
                        STATUS_IN(status, s));
    STATUS_OUT(status, s);
    return err_out(rc);
}

ABI_FN(int, Iprobe, (int source, int tag, abi_Comm comm, int *flag,
                     abi_Status *status))
{
    MPI_Status s;
    int rc = PMPI_Iprobe(rank_in(source), tag_in(tag), comm_in(comm), flag,
                         STATUS_IN(status, s));
    if (rc == MPI_SUCCESS && *flag)
        STATUS_OUT(status, s);
    return err_out(rc);
}

ABI_FN(int, Wait, (abi_Request *request, abi_Status *status))
{
    MPI_Status s;
    MPI_Request r = request ? req_in(*request) : NULL;
    int rc = PMPI_Wait(request ? &r : NULL, STATUS_IN(status, s));
    if (request)
        *request = req_out(r);
    STATUS_OUT(status, s);
    return err_out(rc);
}

ABI_FN(int, Test, (abi_Request *request, int *flag, abi_Status *status))
{
    MPI_Status s;
    MPI_Request r = request ? req_in(*request) : NULL;
    int rc = PMPI_Test(request ? &r : NULL, flag, STATUS_IN(status, s));
    if (request)
        *request = req_out(r);
    if (rc == MPI_SUCCESS && *flag)
        STATUS_OUT(status, s);
    return err_out(rc);
}

/* Up to this many requests are converted on the stack; more in memory
   of their own, freed before the return. */
enum { WAITALL_STACK = 32 };

static int waitall_convert(int count, abi_Request *reqs, abi_Status *st,
                           MPI_Request *r, MPI_Status *s)
{
    for (int i = 0; i < count; i++) {
        r[i] = req_in(reqs[i]);
        if (st)
            status_mark(&s[i]);
    }
    int rc = PMPI_Waitall(count, r, st ? s : MPI_STATUSES_IGNORE);
    for (int i = 0; i < count; i++) {
        reqs[i] = req_out(r[i]);
        if (st)
            shmpi_abi_status_out(&s[i], &st[i]);
    }
    return rc;
}

ABI_FN(int, Waitall, (int count, abi_Request reqs[], abi_Status st[]))
{
    if (count <= 0 || !reqs)         /* shmpi checks and reports these */
        return err_out(PMPI_Waitall(count, NULL, MPI_STATUSES_IGNORE));
    if (count <= WAITALL_STACK) {
        MPI_Request r[WAITALL_STACK];
        MPI_Status s[WAITALL_STACK];
        return err_out(waitall_convert(count, reqs, st, r, s));
    }
    MPI_Request *r = malloc((size_t)count * sizeof *r);
    MPI_Status *s = st ? malloc((size_t)count * sizeof *s) : NULL;
    int rc = r && (s || !st)
        ? waitall_convert(count, reqs, st, r, s)
        : PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
    free(r);
    free(s);
    return err_out(rc);
}

ABI_FN(int, Request_free, (abi_Request *request))
{
    MPI_Request r = request ? req_in(*request) : NULL;
    int rc = PMPI_Request_free(request ? &r : NULL);
    if (request)
        *request = req_out(r);
    return err_out(rc);
}

ABI_FN(int, Get_count, (const abi_Status *status, abi_Datatype dt,
                        int *count))
{
    MPI_Status s;
    if (status)
        shmpi_abi_status_in(status, &s);
    return err_out(PMPI_Get_count(status ? &s : NULL, dt_in(dt), count));
}
