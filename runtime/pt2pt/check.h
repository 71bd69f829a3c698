/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check.h - the argument checks shared by every point-to-point call;
 * those of the (buffer, count, datatype) triple alone are
 * datatypes/check.h's, which this includes.  Each returns MPI_SUCCESS
 * or the code shmpi_raise returned.
 */
#ifndef SHMPI_CHECK_H
#define SHMPI_CHECK_H

#include <limits.h>
#include <stdint.h>

#include "core/objects.h"
#include "datatypes/check.h"
#include "datatypes/datatype.h"
#include "mpi.h"

/* check.c: the whole checks of a send's and a receive's arguments,
   which say what was wrong. */
int shmpi_p2p_check_send_fully(const char *fn, const void *buf, MPI_Count count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm);
int shmpi_p2p_check_recv_fully(const char *fn, const void *buf, MPI_Count count,
                               MPI_Datatype datatype, int source, int tag,
                               MPI_Comm comm);

/* The common good case in one branch, inline: the checks were ~200 of
   the instructions of an MPI_Send + MPI_Recv and are ~50 so (callgrind,
   8 B ping-pong, 2026-11-22, commit e71c29b).  Anything
   else - MPI_PROC_NULL, MPI_ANY_SOURCE and MPI_ANY_TAG included - goes
   to the whole check, and so does a count beyond INT_MAX (only a _c
   form gives one), whose product with the type's size the whole check
   sees overflow; one compare, as count >= 0 was. */
static inline int shmpi_args_plain(const void *buf, MPI_Count count,
                                   MPI_Datatype datatype, int peer, int tag,
                                   MPI_Comm comm)
{
    return __builtin_expect(shmpi_comm_ok(comm) &&
                                (uint64_t)count <= INT_MAX &&
                                shmpi_datatype_ok(datatype) &&
                                datatype->committed &&
                                shmpi_buffer_ok(buf, count, datatype) &&
                                (unsigned)peer <
                                    (unsigned)shmpi_comm_peer_count(comm) &&
                                tag >= 0,
                            1);
}

static inline int shmpi_check_send(const char *fn, const void *buf,
                                   MPI_Count count, MPI_Datatype datatype,
                                   int dest, int tag, MPI_Comm comm)
{
    if (shmpi_args_plain(buf, count, datatype, dest, tag, comm))
        return MPI_SUCCESS;
    return shmpi_p2p_check_send_fully(fn, buf, count, datatype, dest, tag,
                                      comm);
}

static inline int shmpi_check_recv(const char *fn, const void *buf,
                                   MPI_Count count, MPI_Datatype datatype,
                                   int source, int tag, MPI_Comm comm)
{
    if (shmpi_args_plain(buf, count, datatype, source, tag, comm))
        return MPI_SUCCESS;
    return shmpi_p2p_check_recv_fully(fn, buf, count, datatype, source, tag,
                                      comm);
}

#endif
