/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mprobe.c - the ABI's matched probes and receives (abi.h): MPI_Message
 * handles, MPI_MESSAGE_NULL 0x128 and MPI_MESSAGE_NO_PROC 0x129 looked up
 * in shmpi_abi_pre, any other passed through.
 */
#include "abi/abi.h"

static inline abi_Message msg_out(MPI_Message m)
{
    return ABI_OUT(abi_Message, m, MESSAGE);
}

ABI_FN(int, Mprobe, (int source, int tag, abi_Comm comm,
                     abi_Message *message, abi_Status *status))
{
    MPI_Message m;
    int rc = PMPI_Mprobe(source, tag, comm_in(comm),
                         message ? &m : NULL, status_in(status));
    if (rc == MPI_SUCCESS)
        *message = msg_out(m);
    return rc;
}

ABI_FN(int, Improbe, (int source, int tag, abi_Comm comm, int *flag,
                      abi_Message *message, abi_Status *status))
{
    MPI_Message m;
    int rc = PMPI_Improbe(source, tag, comm_in(comm), flag,
                          message ? &m : NULL, status_in(status));
    if (rc == MPI_SUCCESS && *flag)
        *message = msg_out(m);
    return rc;
}

#define ABI_MRECV(name, count_t)                                           \
    ABI_FN(int, name, (void *buf, count_t count, abi_Datatype dt,          \
                       abi_Message *message, abi_Status *status))          \
    {                                                                      \
        MPI_Message m = message ? msg_in(*message) : NULL;                 \
        int rc = PMPI_##name(buf, count, dt_in(dt), message ? &m : NULL,   \
                             status_in(status));                           \
        if (message)                                                       \
            *message = msg_out(m);                                         \
        return rc;                                                         \
    }
ABI_MRECV(Mrecv, int)
ABI_MRECV(Mrecv_c, MPI_Count)

#define ABI_IMRECV(name, count_t)                                          \
    ABI_FN(int, name, (void *buf, count_t count, abi_Datatype dt,          \
                       abi_Message *message, abi_Request *request))        \
    {                                                                      \
        MPI_Message m = message ? msg_in(*message) : NULL;                 \
        int rc = PMPI_##name(buf, count, dt_in(dt), message ? &m : NULL,   \
                             reqp_in(request));                            \
        if (message)                                                       \
            *message = msg_out(m);                                         \
        return rc;                                                         \
    }
ABI_IMRECV(Imrecv, int)
ABI_IMRECV(Imrecv_c, MPI_Count)
