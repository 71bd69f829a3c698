/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pallreduce.h - a persistent Allreduce of a few bytes on the collective
 * area (pallreduce.c says how it shares the area with the other
 * collectives).
 */
#ifndef SHMPI_COLL_PALLREDUCE_H
#define SHMPI_COLL_PALLREDUCE_H

#include "core/objects.h"

/* MPI_Init (shmpi_coll_init): lends pt2pt the operations of
   SHMPI_REQ_PCOLL. */
void shmpi_coll_pallreduce_register(void);
/* MPI_Allreduce_init with checked arguments: 1 with *req the inactive
   persistent request of the area's algorithm, 0 when the call does not
   qualify (the caller plans the schedule), -1 out of memory. */
int shmpi_coll_pallreduce_plan(const void *sendbuf, void *recvbuf,
                               MPI_Count count, MPI_Datatype t, MPI_Op op,
                               MPI_Comm comm, MPI_Request *req);

#endif
