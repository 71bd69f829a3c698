/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * p2p.c - the ABI's point-to-point functions (abi.h): handles and ranks
 * translated on the way in, statuses and requests on the way out.
 */
#include "abi/abi.h"

/* The blocking sends, all of one signature. */
#define ABI_SEND(name)                                                     \
    ABI_FN(int, name, (const void *buf, int count, abi_Datatype dt,        \
                       int dest, int tag, abi_Comm comm))                  \
    {                                                                      \
        return err_out(PMPI_##name(buf, count, dt_in(dt), rank_in(dest),   \
                                   tag_in(tag), comm_in(comm)));           \
    }
ABI_SEND(Send)
ABI_SEND(Ssend)
ABI_SEND(Bsend)
ABI_SEND(Rsend)

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

/* The calls that start a request, nonblocking or persistent, to a
   destination (dest) or from a source. */
#define ABI_START(name, peer)                                              \
    ABI_FN(int, name, (ABI_START_BUF_##peer buf, int count,                \
                       abi_Datatype dt, int peer, int tag, abi_Comm comm,  \
                       abi_Request *request))                              \
    {                                                                      \
        MPI_Request r;                                                     \
        return started(PMPI_##name(buf, count, dt_in(dt), rank_in(peer),   \
                                   tag_in(tag), comm_in(comm),             \
                                   request ? &r : NULL), &r, request);     \
    }
#define ABI_START_BUF_dest const void *
#define ABI_START_BUF_source void *
ABI_START(Isend, dest)
ABI_START(Issend, dest)
ABI_START(Ibsend, dest)
ABI_START(Irsend, dest)
ABI_START(Send_init, dest)
ABI_START(Ssend_init, dest)
ABI_START(Bsend_init, dest)
ABI_START(Rsend_init, dest)
ABI_START(Irecv, source)
ABI_START(Recv_init, source)

ABI_FN(int, Sendrecv_replace, (void *buf, int count, abi_Datatype dt,
                               int dest, int sendtag, int source,
                               int recvtag, abi_Comm comm,
                               abi_Status *status))
{
    MPI_Status s;
    int rc = PMPI_Sendrecv_replace(buf, count, dt_in(dt), rank_in(dest),
                                   tag_in(sendtag), rank_in(source),
                                   tag_in(recvtag), comm_in(comm),
                                   STATUS_IN(status, s));
    STATUS_OUT(status, s);
    return err_out(rc);
}

ABI_FN(int, Isendrecv, (const void *sendbuf, int sendcount,
                        abi_Datatype sendtype, int dest, int sendtag,
                        void *recvbuf, int recvcount, abi_Datatype recvtype,
                        int source, int recvtag, abi_Comm comm,
                        abi_Request *request))
{
    MPI_Request r;
    return started(PMPI_Isendrecv(sendbuf, sendcount, dt_in(sendtype),
                                  rank_in(dest), tag_in(sendtag), recvbuf,
                                  recvcount, dt_in(recvtype), rank_in(source),
                                  tag_in(recvtag), comm_in(comm),
                                  request ? &r : NULL), &r, request);
}

ABI_FN(int, Isendrecv_replace, (void *buf, int count, abi_Datatype dt,
                                int dest, int sendtag, int source,
                                int recvtag, abi_Comm comm,
                                abi_Request *request))
{
    MPI_Request r;
    return started(PMPI_Isendrecv_replace(buf, count, dt_in(dt),
                                          rank_in(dest), tag_in(sendtag),
                                          rank_in(source), tag_in(recvtag),
                                          comm_in(comm), request ? &r : NULL),
                   &r, request);
}

/* ---- the buffer of the buffered sends ---- */
ABI_FN(int, Buffer_attach, (void *buffer, int size))
{
    return err_out(PMPI_Buffer_attach(buffer, size));
}

ABI_FN(int, Buffer_detach, (void *buffer_addr, int *size))
{
    return err_out(PMPI_Buffer_detach(buffer_addr, size));
}

ABI_FN(int, Buffer_flush, (void))
{
    return err_out(PMPI_Buffer_flush());
}

ABI_FN(int, Buffer_iflush, (abi_Request *request))
{
    MPI_Request r;
    return started(PMPI_Buffer_iflush(request ? &r : NULL), &r, request);
}

ABI_FN(int, Comm_attach_buffer, (abi_Comm comm, void *buffer, int size))
{
    return err_out(PMPI_Comm_attach_buffer(comm_in(comm), buffer, size));
}

ABI_FN(int, Comm_detach_buffer, (abi_Comm comm, void *buffer_addr,
                                 int *size))
{
    return err_out(PMPI_Comm_detach_buffer(comm_in(comm), buffer_addr, size));
}

ABI_FN(int, Comm_flush_buffer, (abi_Comm comm))
{
    return err_out(PMPI_Comm_flush_buffer(comm_in(comm)));
}

ABI_FN(int, Comm_iflush_buffer, (abi_Comm comm, abi_Request *request))
{
    MPI_Request r;
    return started(PMPI_Comm_iflush_buffer(comm_in(comm), request ? &r : NULL),
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
