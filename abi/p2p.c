/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * p2p.c - the ABI's point-to-point functions (abi.h): the handles
 * decoded, everything else - ranks, tags, statuses, the request written,
 * the return code - passed through, as shmpi's values are the ABI's.
 */
#include "abi/abi.h"

/* Each call below is made twice: with int counts, and as its MPI-4.0
   large-count form (the _c name, MPI_Count counts). */

/* The blocking sends, all of one signature. */
#define ABI_SEND(name, count_t)                                            \
    ABI_FN(int, name, (const void *buf, count_t count, abi_Datatype dt,    \
                       int dest, int tag, abi_Comm comm))                  \
    {                                                                      \
        return PMPI_##name(buf, count, dt_in(dt), dest, tag, comm_in(comm)); \
    }
#define ABI_SENDS(name) ABI_SEND(name, int) ABI_SEND(name##_c, MPI_Count)
ABI_SENDS(Send)
ABI_SENDS(Ssend)
ABI_SENDS(Bsend)
ABI_SENDS(Rsend)

#define ABI_RECV(name, count_t)                                            \
    ABI_FN(int, name, (void *buf, count_t count, abi_Datatype dt,          \
                       int source, int tag, abi_Comm comm,                 \
                       abi_Status *status))                                \
    {                                                                      \
        return PMPI_##name(buf, count, dt_in(dt), source, tag,             \
                           comm_in(comm), status_in(status));              \
    }
ABI_RECV(Recv, int)
ABI_RECV(Recv_c, MPI_Count)

#if defined(__x86_64__) && defined(__ELF__)
/* On x86-64 the sendrecv calls, whose handles are partly among their
   stack arguments, are written in assembly.  In C, GCC 12 makes their tail call a copy of
   every stack argument, four registers saved around it: MPI_Sendrecv
   took 33 instructions, 21 of them that copy, against the 12 of its three
   lookups (2026-11-30, gdb's disassemble of lib/libmpi_abi.so).  A callee
   owns its stack arguments (System V AMD64 ABI, 3.2.3), so these decode
   the handles there in place, the one in %rdx in its register, and jump:
   one compare for a handle of the program's, four instructions more for
   a predefined one (shmpi_abi_pre, as ABI_IN_ANY).  (%rsp) is the return
   address, 8(%rsp) the seventh argument. */
#define ABI_S(x) #x
#define ABI_XS(x) ABI_S(x)
#define ABI_ASM_DECODE(where, label)                                       \
    "    cmp $" ABI_XS(ABI_PREDEFINED_END) ", " where "\n"                  \
    "    jae " #label "f\n"                                                \
    "    mov shmpi_abi_pre@GOTPCREL(%rip), %r10\n"                         \
    "    mov (%r10," where ",8), " where "\n"                               \
    #label ":\n"
#define ABI_ASM_DECODE_SLOT(off, label)                                    \
    "    mov " #off "(%rsp), %rax\n"                                       \
    "    cmp $" ABI_XS(ABI_PREDEFINED_END) ", %rax\n"                       \
    "    jae " #label "f\n"                                                \
    "    mov shmpi_abi_pre@GOTPCREL(%rip), %r10\n"                         \
    "    mov (%r10,%rax,8), %rax\n"                                        \
    "    mov %rax, " #off "(%rsp)\n"                                       \
    #label ":\n"
/* The function and its weak MPI_ name, as ABI_FN makes them. */
#define ABI_ASM_FN(name, body)                                             \
    __asm__(".text\n"                                                      \
            ".p2align 4\n"                                                 \
            ".globl shmpi_abi_PMPI_" #name "\n"                            \
            ".type shmpi_abi_PMPI_" #name ", @function\n"                  \
            "shmpi_abi_PMPI_" #name ":\n" body                             \
            "    jmp PMPI_" #name "\n"                                     \
            ".size shmpi_abi_PMPI_" #name ", . - shmpi_abi_PMPI_" #name "\n" \
            ".weak shmpi_abi_MPI_" #name "\n"                              \
            ".set shmpi_abi_MPI_" #name ", shmpi_abi_PMPI_" #name "\n");
/* MPI_Sendrecv: sendtype in %rdx; recvtype 16(%rsp), comm 40(%rsp).
   Counts take a stack slot of 8 bytes whatever their type, so the _c
   form is the same. */
#define ABI_SENDRECV(name, count_t)                                        \
    ABI_ASM_FN(name, ABI_ASM_DECODE("%rdx", 1) ABI_ASM_DECODE_SLOT(16, 2)   \
                         ABI_ASM_DECODE_SLOT(40, 3))
#else
#define ABI_SENDRECV(name, count_t)                                        \
    ABI_FN(int, name, (const void *sendbuf, count_t sendcount,             \
                       abi_Datatype sendtype, int dest, int sendtag,       \
                       void *recvbuf, count_t recvcount,                   \
                       abi_Datatype recvtype, int source, int recvtag,     \
                       abi_Comm comm, abi_Status *status))                 \
    {                                                                      \
        return PMPI_##name(sendbuf, sendcount, dt_in(sendtype), dest,      \
                           sendtag, recvbuf, recvcount, dt_in(recvtype),   \
                           source, recvtag, comm_in(comm),                 \
                           status_in(status));                             \
    }
#endif
ABI_SENDRECV(Sendrecv, int)
ABI_SENDRECV(Sendrecv_c, MPI_Count)

/* The calls that start a request, nonblocking or persistent, to a
   destination (dest) or from a source. */
#define ABI_START(name, peer, count_t)                                     \
    ABI_FN(int, name, (ABI_START_BUF_##peer buf, count_t count,            \
                       abi_Datatype dt, int peer, int tag, abi_Comm comm,  \
                       abi_Request *request))                              \
    {                                                                      \
        return PMPI_##name(buf, count, dt_in(dt), peer, tag, comm_in(comm), \
                           reqp_in(request));                              \
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

#if defined(__x86_64__) && defined(__ELF__)
/* dt in %rdx, comm 16(%rsp) (above, ABI_SENDRECV) */
#define ABI_SENDRECV_REPLACE(name, count_t)                                \
    ABI_ASM_FN(name, ABI_ASM_DECODE("%rdx", 1) ABI_ASM_DECODE_SLOT(16, 2))
#else
#define ABI_SENDRECV_REPLACE(name, count_t)                                \
    ABI_FN(int, name, (void *buf, count_t count, abi_Datatype dt,          \
                       int dest, int sendtag, int source, int recvtag,     \
                       abi_Comm comm, abi_Status *status))                 \
    {                                                                      \
        return PMPI_##name(buf, count, dt_in(dt), dest, sendtag, source,   \
                           recvtag, comm_in(comm), status_in(status));     \
    }
#endif
ABI_SENDRECV_REPLACE(Sendrecv_replace, int)
ABI_SENDRECV_REPLACE(Sendrecv_replace_c, MPI_Count)

#define ABI_ISENDRECV(name, count_t)                                       \
    ABI_FN(int, name, (const void *sendbuf, count_t sendcount,             \
                       abi_Datatype sendtype, int dest, int sendtag,       \
                       void *recvbuf, count_t recvcount,                   \
                       abi_Datatype recvtype, int source, int recvtag,     \
                       abi_Comm comm, abi_Request *request))               \
    {                                                                      \
        return PMPI_##name(sendbuf, sendcount, dt_in(sendtype), dest,      \
                           sendtag, recvbuf, recvcount, dt_in(recvtype),   \
                           source, recvtag, comm_in(comm),                 \
                           reqp_in(request));                              \
    }
ABI_ISENDRECV(Isendrecv, int)
ABI_ISENDRECV(Isendrecv_c, MPI_Count)

#define ABI_ISENDRECV_REPLACE(name, count_t)                               \
    ABI_FN(int, name, (void *buf, count_t count, abi_Datatype dt,          \
                       int dest, int sendtag, int source, int recvtag,     \
                       abi_Comm comm, abi_Request *request))               \
    {                                                                      \
        return PMPI_##name(buf, count, dt_in(dt), dest, sendtag, source,   \
                           recvtag, comm_in(comm), reqp_in(request));      \
    }
ABI_ISENDRECV_REPLACE(Isendrecv_replace, int)
ABI_ISENDRECV_REPLACE(Isendrecv_replace_c, MPI_Count)

/* ---- the buffer of the buffered sends ---- */
/* MPI_Buffer_attach and _detach, with their _c forms (S the size's
   type). */
#define ABI_BUFFER(attach, detach, S)                                      \
    ABI_FN(int, attach, (void *buffer, S size))                            \
    {                                                                      \
        return PMPI_##attach(buffer, size);                                \
    }                                                                      \
    ABI_FN(int, detach, (void *buffer_addr, S *size))                      \
    {                                                                      \
        return PMPI_##detach(buffer_addr, size);                           \
    }
ABI_BUFFER(Buffer_attach, Buffer_detach, int)
ABI_BUFFER(Buffer_attach_c, Buffer_detach_c, MPI_Count)

ABI_FN(int, Buffer_flush, (void))
{
    return PMPI_Buffer_flush();
}

ABI_FN(int, Buffer_iflush, (abi_Request *request))
{
    return PMPI_Buffer_iflush(reqp_in(request));
}

/* The buffer of a communicator or a session, and the _c forms. */
#define ABI_OBJ_BUFFER(attach, detach, atype, in, S)                       \
    ABI_FN(int, attach, (atype obj, void *buffer, S size))                 \
    {                                                                      \
        return PMPI_##attach(in(obj), buffer, size);                       \
    }                                                                      \
    ABI_FN(int, detach, (atype obj, void *buffer_addr, S *size))           \
    {                                                                      \
        return PMPI_##detach(in(obj), buffer_addr, size);                  \
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
    return PMPI_Comm_flush_buffer(comm_in(comm));
}

ABI_FN(int, Comm_iflush_buffer, (abi_Comm comm, abi_Request *request))
{
    return PMPI_Comm_iflush_buffer(comm_in(comm), reqp_in(request));
}

ABI_FN(int, Probe, (int source, int tag, abi_Comm comm, abi_Status *status))
{
    return PMPI_Probe(source, tag, comm_in(comm), status_in(status));
}

ABI_FN(int, Iprobe, (int source, int tag, abi_Comm comm, int *flag,
                     abi_Status *status))
{
    return PMPI_Iprobe(source, tag, comm_in(comm), flag, status_in(status));
}
