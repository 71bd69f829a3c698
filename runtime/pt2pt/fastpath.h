/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastpath.h - blocking send and receive without a request, when nothing
 * unusual is going on (fastpath.c says exactly when).  Each returns 1 if
 * it did the whole call, 0 if the caller must take the general path; the
 * arguments have been checked.
 */
#ifndef SHMPI_FASTPATH_H
#define SHMPI_FASTPATH_H

#include "mpi.h"

int shmpi_p2p_fast_send(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                        int tag, MPI_Comm comm);
int shmpi_p2p_fast_recv(void *buf, MPI_Count count, MPI_Datatype dt, int source,
                        int tag, MPI_Comm comm, MPI_Status *status);

#endif
