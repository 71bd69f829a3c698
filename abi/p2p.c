/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * p2p.c - the ABI's point-to-point functions (abi.h): handles and ranks
 * translated on the way in, statuses and requests on the way out.
 */
#include "abi/abi.h"

/* Each call below is made twice: with int counts, and as its MPI-4.0
   large-count form (the _c name, MPI_Count counts). */

/* The blocking sends, all of one signature. */
#define ABI_SEND(name, count_t)                                            \
    ABI_FN(int, name, (const void *buf, count_t count, abi_Datatype dt,    \
                       int dest, int tag, abi_Comm comm))                  \
    {                                                                      \
        return err_out(PMPI_##name(buf, count, dt_in(dt), rank_in(dest),   \
                                   tag_in(tag), comm_in(comm)));           \
    }
#define ABI_SENDS(name) ABI_SEND(name, int) ABI_SEND(name##_c, MPI_Count)
ABI_SENDS(Send)
ABI_SENDS(Ssend)
ABI_SENDS(Bsend)
ABI_SENDS(Rsend)

/* A receive from a source >= -1 (a rank, MPI_ANY_SOURCE) with a tag >=
   0, the common case, has values that are the same in both ABIs, and
   gets a message's source and tag, >= 0 in both, into its status: the
   call goes to shmpi with them and the program's status as they are,
   with one test for both.  Any other (MPI_PROC_NULL, MPI_ANY_TAG...)
   is translated, and so is the status it gets, by a function of its
   own: in the same one, its calls made the common path save six
   registers and load every argument on the stack first.  peer_bits has its sign
   bit clear for such a pair; or-ed, for several. */
static inline unsigned peer_bits(int rank, int tag)
{
    return ((unsigned)rank + 1) | (unsigned)tag;
}

#define ABI_RECV(name, count_t)                                            \
    static __attribute__((noinline, cold)) int                             \
    name##_translated(void *buf, count_t count, abi_Datatype dt,           \
                      int source, int tag, abi_Comm comm,                  \
                      abi_Status *status)                                  \
    {                                                                      \
        int rc = PMPI_##name(buf, count, dt_in(dt), rank_in(source),       \
                             tag_in(tag), comm_in(comm),                   \
                             status_in(status));                           \
        status_out(status);                                                \
        return err_out(rc);                                                \
    }                                                                      \
    ABI_FN(int, name, (void *buf, count_t count, abi_Datatype dt,          \
                       int source, int tag, abi_Comm comm,                 \
                       abi_Status *status))                                \
    {                                                                      \
        if (__builtin_expect(peer_bits(source, tag) > INT_MAX, 0))         \
            return name##_translated(buf, count, dt, source, tag, comm,    \
                                     status);                              \
        return err_out(PMPI_##name(buf, count, dt_in(dt), source, tag,     \
                                   comm_in(comm), status_in(status)));     \
    }
ABI_RECV(Recv, int)
ABI_RECV(Recv_c, MPI_Count)

/* Sendrecv: both pairs tested at once. */
#define ABI_SENDRECV(name, count_t)                                        \
    static __attribute__((noinline, cold)) int                             \
    name##_translated(const void *sendbuf, count_t sendcount,              \
                      abi_Datatype sendtype, int dest, int sendtag,        \
                      void *recvbuf, count_t recvcount,                    \
                      abi_Datatype recvtype, int source, int recvtag,      \
                      abi_Comm comm, abi_Status *status)                   \
    {                                                                      \
        int rc = PMPI_##name(sendbuf, sendcount, dt_in(sendtype),          \
                             rank_in(dest), tag_in(sendtag), recvbuf,      \
                             recvcount, dt_in(recvtype), rank_in(source),  \
                             tag_in(recvtag), comm_in(comm),               \
                             status_in(status));                           \
        status_out(status);                                                \
        return err_out(rc);                                                \
    }                                                                      \
    ABI_FN(int, name, (const void *sendbuf, count_t sendcount,             \
                       abi_Datatype sendtype, int dest, int sendtag,       \
                       void *recvbuf, count_t recvcount,                   \
                       abi_Datatype recvtype, int source, int recvtag,     \
                       abi_Comm comm, abi_Status *status))                 \
    {                                                                      \
        if (__builtin_expect((peer_bits(dest, sendtag) |                   \
                              peer_bits(source, recvtag)) > INT_MAX, 0))   \
            return name##_translated(sendbuf, sendcount, sendtype, dest,   \
                                     sendtag, recvbuf, recvcount,          \
                                     recvtype, source, recvtag, comm,      \
                                     status);                              \
        return err_out(PMPI_##name(sendbuf, sendcount, dt_in(sendtype),    \
                                   dest, sendtag, recvbuf, recvcount,      \
                                   dt_in(recvtype), source, recvtag,       \
                                   comm_in(comm), status_in(status)));     \
    }
ABI_SENDRECV(Sendrecv, int)
ABI_SENDRECV(Sendrecv_c, MPI_Count)

/* The calls that start a request, nonblocking or persistent, to a
   destination (dest) or from a source. */
#define ABI_START(name, peer, count_t)                                     \
    ABI_FN(int, name, (ABI_START_BUF_##peer buf, count_t count,            \
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
#define ABI_STARTS(name, peer)                                             \
    ABI_START(name, peer, int) ABI_START(name##_c, peer, MPI_Count)
ABI_STARTS(Isend, dest)
ABI_STARTS(Issend, dest)
ABI_STARTS(Ibsend, dest)
ABI_STARTS(Irsend, dest)
ABI_STARTS(Send_init, dest)
ABI_STARTS(Ssend_init, dest)
ABI_STARTS(Bsend_init, dest)
ABI_STARTS(Rsend_init, dest)
ABI_STARTS(Irecv, source)
ABI_STARTS(Recv_init, source)

#define ABI_SENDRECV_REPLACE(name, count_t)                                \
    ABI_FN(int, name, (void *buf, count_t count, abi_Datatype dt,          \
                       int dest, int sendtag, int source, int recvtag,     \
                       abi_Comm comm, abi_Status *status))                 \
    {                                                                      \
        int rc = PMPI_##name(buf, count, dt_in(dt), rank_in(dest),         \
                             tag_in(sendtag), rank_in(source),             \
                             tag_in(recvtag), comm_in(comm),               \
                             status_in(status));                           \
        status_out(status);                                                \
        return err_out(rc);                                                \
    }
ABI_SENDRECV_REPLACE(Sendrecv_replace, int)
ABI_SENDRECV_REPLACE(Sendrecv_replace_c, MPI_Count)

#define ABI_ISENDRECV(name, count_t)                                       \
    ABI_FN(int, name, (const void *sendbuf, count_t sendcount,             \
                       abi_Datatype sendtype, int dest, int sendtag,       \
                       void *recvbuf, count_t recvcount,                   \
                       abi_Datatype recvtype, int source, int recvtag,     \
                       abi_Comm comm, abi_Request *request))               \
    {                                                                      \
        MPI_Request r;                                                     \
        return started(PMPI_##name(sendbuf, sendcount, dt_in(sendtype),   \
                                   rank_in(dest), tag_in(sendtag),         \
                                   recvbuf, recvcount, dt_in(recvtype),    \
                                   rank_in(source), tag_in(recvtag),       \
                                   comm_in(comm), request ? &r : NULL),    \
                       &r, request);                                       \
    }
ABI_ISENDRECV(Isendrecv, int)
ABI_ISENDRECV(Isendrecv_c, MPI_Count)

#define ABI_ISENDRECV_REPLACE(name, count_t)                               \
    ABI_FN(int, name, (void *buf, count_t count, abi_Datatype dt,          \
                       int dest, int sendtag, int source, int recvtag,     \
                       abi_Comm comm, abi_Request *request))               \
    {                                                                      \
        MPI_Request r;                                                     \
        return started(PMPI_##name(buf, count, dt_in(dt), rank_in(dest),   \
                                   tag_in(sendtag), rank_in(source),       \
                                   tag_in(recvtag), comm_in(comm),         \
                                   request ? &r : NULL), &r, request);     \
    }
ABI_ISENDRECV_REPLACE(Isendrecv_replace, int)
ABI_ISENDRECV_REPLACE(Isendrecv_replace_c, MPI_Count)

/* ---- the buffer of the buffered sends ---- */
/* MPI_Buffer_attach and _detach, with their _c forms (S the size's
   type). */
#define ABI_BUFFER(attach, detach, S)                                      \
    ABI_FN(int, attach, (void *buffer, S size))                            \
    {                                                                      \
        return err_out(PMPI_##attach(buffer, size));                       \
    }                                                                      \
    ABI_FN(int, detach, (void *buffer_addr, S *size))                      \
    {                                                                      \
        return err_out(PMPI_##detach(buffer_addr, size));                  \
    }
ABI_BUFFER(Buffer_attach, Buffer_detach, int)
ABI_BUFFER(Buffer_attach_c, Buffer_detach_c, MPI_Count)

ABI_FN(int, Buffer_flush, (void))
{
    return err_out(PMPI_Buffer_flush());
}

ABI_FN(int, Buffer_iflush, (abi_Request *request))
{
    MPI_Request r;
    return started(PMPI_Buffer_iflush(request ? &r : NULL), &r, request);
}

/* The buffer of a communicator or a session, and the _c forms. */
#define ABI_OBJ_BUFFER(attach, detach, atype, in, S)                       \
    ABI_FN(int, attach, (atype obj, void *buffer, S size))                 \
    {                                                                      \
        return err_out(PMPI_##attach(in(obj), buffer, size));              \
    }                                                                      \
    ABI_FN(int, detach, (atype obj, void *buffer_addr, S *size))           \
    {                                                                      \
        return err_out(PMPI_##detach(in(obj), buffer_addr, size));         \
    }
ABI_OBJ_BUFFER(Comm_attach_buffer, Comm_detach_buffer, abi_Comm, comm_in,
               int)
ABI_OBJ_BUFFER(Comm_attach_buffer_c, Comm_detach_buffer_c, abi_Comm,
               comm_in, MPI_Count)
ABI_OBJ_BUFFER(Session_attach_buffer, Session_detach_buffer, abi_Session,
               session_in, int)
ABI_OBJ_BUFFER(Session_attach_buffer_c, Session_detach_buffer_c,
               abi_Session, session_in, MPI_Count)

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
    int rc = PMPI_Probe(rank_in(source), tag_in(tag), comm_in(comm),
                        status_in(status));
    status_out(status);
    return err_out(rc);
}

ABI_FN(int, Iprobe, (int source, int tag, abi_Comm comm, int *flag,
                     abi_Status *status))
{
    int rc = PMPI_Iprobe(rank_in(source), tag_in(tag), comm_in(comm), flag,
                         status_in(status));
    if (rc == MPI_SUCCESS && *flag)
        status_out(status);
    return err_out(rc);
}
