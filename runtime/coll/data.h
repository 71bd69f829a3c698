/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * data.h - the schedules (sched.h) of the collectives that only move
 * data: MPI_Ibarrier, Ibcast, Igather(v), Iscatter(v), Iallgather(v) and
 * Ialltoall(v,w) on any communicator, and the blocking versions on
 * intercommunicators, which build the same schedule and run it (on an
 * intracommunicator the blocking calls use the collective area, coll.h).
 *
 * The arguments come checked, as block tables (coll/args.h), so one
 * schedule serves a call and its v/w forms.  Algorithms, for messages
 * between processes of one machine, where a message costs about a copy:
 *
 *   barrier     dissemination: in round k, a zero-byte message to rank
 *               + 2^k and one from rank - 2^k
 *   bcast       binomial tree from the root: receive from the parent,
 *               then send to the children
 *   gather,     one round: the root receives every block at once while
 *   scatter     each other process sends (receives) its own
 *   allgather,  one round: every process sends to and receives from
 *   alltoall    every other; its own block is a local copy
 *
 * MPI_IN_PLACE all-to-all sends its blocks from where it receives them,
 * so they are packed aside in a round before the messages.
 *
 * On an intercommunicator (5.2.2) a peer is a rank of the remote group:
 * gather, scatter, allgather and alltoall are the same rounds between the
 * two groups (no own block; a root's group has one process, MPI_ROOT,
 * that takes part, the others give MPI_PROC_NULL and have an empty
 * schedule).  The barrier is a barrier of the local group (on
 * comm->local), a zero-byte exchange between the two groups' rank 0,
 * then a broadcast in each group; bcast goes from the root to remote rank
 * 0, which broadcasts it in its group.
 */
#ifndef SHMPI_NBC_DATA_H
#define SHMPI_NBC_DATA_H

#include "coll/args.h"
#include "coll/sched.h"

/* Add collective a's steps on comm to s (a schedule on comm): MPI_SUCCESS
   or MPI_ERR_NO_MEM.  Barrier ignores a.  The v/w forms share the
   builder of their call. */
typedef int shmpi_nbc_data_fn(struct shmpi_nbc *s, MPI_Comm comm,
                              const struct shmpi_coll_args *a);
shmpi_nbc_data_fn shmpi_nbc_data_barrier, shmpi_nbc_data_bcast,
    shmpi_nbc_data_gather, shmpi_nbc_data_scatter, shmpi_nbc_data_allgather,
    shmpi_nbc_data_alltoall;

/* A nonblocking call's last steps, after its argument checks returned
   rc: the call refused (rc is not MPI_SUCCESS), or the request pointer
   checked (MPI_ERR_ARG), collective a built on comm and started,
   *request set.  MPI_SUCCESS or an error raised on comm under fn. */
int shmpi_nbc_icollective(MPI_Comm comm, int rc, shmpi_nbc_data_fn *build,
                          const struct shmpi_coll_args *a,
                          MPI_Request *request, const char *fn);
/* A persistent collective's init call, after its checks: collective a
   planned on comm into the inactive persistent request *request
   (shmpi_nbc_plan).  MPI_SUCCESS or an error raised on comm under fn. */
int shmpi_nbc_pcollective(MPI_Comm comm, shmpi_nbc_data_fn *build,
                          const struct shmpi_coll_args *a,
                          MPI_Request *request, const char *fn);
/* A blocking call on an intercommunicator: the same schedule, run to its
   end. */
int shmpi_nbc_blocking(MPI_Comm comm, shmpi_nbc_data_fn *build,
                       const struct shmpi_coll_args *a, const char *fn);

/* Steps for other schedules, on comm, the communicator s talks on at
   that point (shmpi_nbc_on).  The broadcast step is shmpi_nbc_bcast_from
   (reduction.h). */

/* Dissemination barrier of comm, an intracommunicator; leaves its last
   round closed. */
int shmpi_nbc_add_barrier(struct shmpi_nbc *s, MPI_Comm comm);
/* Into the current round: out's block d to every peer d of `to`, and
   in's block j from every peer j of `from`, where each is a peer,
   SHMPI_COLL_ALL (every peer but this process) or SHMPI_COLL_NOBODY. */
int shmpi_nbc_add_exchange(struct shmpi_nbc *s, MPI_Comm comm,
                           const struct shmpi_coll_blocks *out, int to,
                           const struct shmpi_coll_blocks *in, int from);
/* This process's block to itself (intracommunicators): out's block
   comm->rank into in's, as a local step of the current round. */
int shmpi_nbc_add_own(struct shmpi_nbc *s, MPI_Comm comm,
                      const struct shmpi_coll_blocks *out,
                      const struct shmpi_coll_blocks *in);

#endif
