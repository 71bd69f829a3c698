/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm.c - MPI_COMM_WORLD and MPI_COMM_SELF at MPI_Init, and
 * MPI_Comm_size/rank (their attributes, the predefined ones included, are
 * comm_attr.c's).
 *
 * The two objects themselves are core's (core/objects.c: every room
 * names them); MPI_Init fills in world's rank, size and collective state
 * here, and hands core what the last release of any other communicator
 * must do (comm_create.c).
 *
 * State: what the room keeps besides the objects themselves (the values
 * of the predefined attributes, the retired communicators) is
 * shmpi_proc.comm (struct shmpi_comm_state, comm.h), made here at
 * MPI_Init and kept until the process exits.
 */
#include <limits.h>
#include <stdlib.h>

#include "coll/coll.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/pmpi.h"

SHMPI_WEAK_ALIAS(Comm_size)
SHMPI_WEAK_ALIAS(Comm_rank)

int shmpi_comm_init_predefined(struct shmpi_proc *p)
{
    struct shmpi_comm_state *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    st->env.tag_ub = INT_MAX;          /* every non-negative int is a tag */
    st->env.host = MPI_PROC_NULL;      /* no process is "the host" */
    st->env.io = MPI_ANY_SOURCE;       /* every rank can do I/O */
    st->env.wtime_is_global = 1;       /* one CLOCK_MONOTONIC */
    st->env.appnum = 0;                /* one application per job */
    st->env.universe_size = p->size;   /* no processes can be spawned */
    p->comm = st;
    shmpi_comm_world.rank = p->rank;
    shmpi_comm_world.size = p->size;
    shmpi_comm_register_retire();
    return shmpi_coll_init(&shmpi_comm_world);
}

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    SHMPI_REQUIRE_INIT("MPI_Comm_size");
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, "MPI_Comm_size",
                           "invalid communicator");
    if (!size)
        return shmpi_raise(comm, MPI_ERR_ARG, "MPI_Comm_size",
                           "size is NULL");
    *size = comm->size;
    return MPI_SUCCESS;
}

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    SHMPI_REQUIRE_INIT("MPI_Comm_rank");
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, "MPI_Comm_rank",
                           "invalid communicator");
    if (!rank)
        return shmpi_raise(comm, MPI_ERR_ARG, "MPI_Comm_rank",
                           "rank is NULL");
    *rank = comm->rank;
    return MPI_SUCCESS;
}
