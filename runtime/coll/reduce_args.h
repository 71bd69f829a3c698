/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_args.h - the argument checks of the reduction collectives,
 * shared by the blocking calls (coll/allreduce.c, reduce_scatter.c,
 * scan.c, which define them) and the nonblocking ones (coll/), so that
 * MPI_Ireduce fails exactly where and how MPI_Reduce does.
 *
 * Each checks every argument but the request, raises the first problem
 * on comm under fn (MPI_COMM_WORLD's handler for an invalid comm) and
 * returns its code; on success it fills *x with the call's description
 * (MPI_IN_PLACE resolved to the receive buffer).  Intercommunicators
 * (5.2.2): no MPI_IN_PLACE; Reduce's root group passes MPI_ROOT or
 * MPI_PROC_NULL and the other group the root's remote rank; Scan and
 * Exscan are MPI_ERR_COMM.
 */
#ifndef SHMPI_COLL_REDUCE_ARGS_H
#define SHMPI_COLL_REDUCE_ARGS_H

#include "coll/reduce.h"
#include "datatypes/datatype.h"

int shmpi_coll_red_args_reduce(const char *fn, const void *sendbuf,
                               void *recvbuf, MPI_Count count,
                               MPI_Datatype datatype, MPI_Op op, int root,
                               MPI_Comm comm, struct shmpi_coll_red *x);
int shmpi_coll_red_args_allreduce(const char *fn, const void *sendbuf,
                                  void *recvbuf, MPI_Count count,
                                  MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, struct shmpi_coll_red *x);
/* recvcounts has comm->size entries (the local group's, on an
   intercommunicator); x->seg_counts is it. */
int shmpi_coll_red_args_scatter(const char *fn, const void *sendbuf,
                                void *recvbuf,
                                struct shmpi_coll_vec recvcounts,
                                MPI_Datatype datatype, MPI_Op op,
                                MPI_Comm comm, struct shmpi_coll_red *x);
int shmpi_coll_red_args_scatter_block(const char *fn, const void *sendbuf,
                                      void *recvbuf, MPI_Count recvcount,
                                      MPI_Datatype datatype, MPI_Op op,
                                      MPI_Comm comm, struct shmpi_coll_red *x);
/* kind: SHMPI_RED_SCAN or SHMPI_RED_EXSCAN. */
int shmpi_coll_red_args_scan(const char *fn, const void *sendbuf,
                             void *recvbuf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             enum shmpi_red_kind kind,
                             struct shmpi_coll_red *x);

/* allreduce.c: the blocking call of a checked x - on the collective
   area (reduce.c) for an intracommunicator, as a schedule
   (coll/reduction.h) for an intercommunicator; nothing when x is empty.
   MPI_SUCCESS or an error raised on comm under fn. */
int shmpi_coll_red_run(const char *fn, MPI_Comm comm, struct shmpi_coll_red *x);

/* Nothing to move: the call completes at once (count 0, or elements
   without data). */
static inline int shmpi_red_empty(const struct shmpi_coll_red *x)
{
    return x->count == 0 || x->type->size == 0;
}

#endif
