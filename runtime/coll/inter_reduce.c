/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * inter_reduce.c - MPI_Reduce and MPI_Allreduce on an intercommunicator
 * (5.2.2, 5.9.1, 5.9.6), blocking or not: the data of one group reduced
 * for the other.
 *
 * Each group first reduces its own data, in rank order, to its local
 * rank 0 on the intercommunicator's local communicator (comm->local);
 * that leader sends the result across.  Reduce: to the root, which
 * passed MPI_ROOT (the rest of its group, MPI_PROC_NULL, does nothing).
 * Allreduce: the two leaders swap their results, and each broadcasts the
 * one it received to its group.
 */
#include "coll/reduction.h"

/* This group's data reduced to its leader (local rank 0): *at there.
   The schedule talks on comm again afterwards. */
static int reduce_here(struct shmpi_nbc *s, MPI_Comm comm,
                       const struct shmpi_coll_red *x, const void **at)
{
    if (shmpi_nbc_on(s, comm->local) ||
        shmpi_nbc_reduce_to(s, comm->local, x->sbuf, NULL, x->count,
                            x->type, x->op, 0, at))
        return MPI_ERR_NO_MEM;
    return shmpi_nbc_on(s, comm);
}

int shmpi_nbc_inter_swap(struct shmpi_nbc *s, MPI_Comm comm,
                         const struct shmpi_coll_red *x, void *into,
                         void **got)
{
    const void *at = NULL;
    if (reduce_here(s, comm, x, &at))
        return MPI_ERR_NO_MEM;
    if (comm->local->rank == 0 &&
        (!(into = into ? into : shmpi_nbc_scratch(s, x->type, x->count)) ||
         shmpi_nbc_recv(s, into, x->count, x->type, 0) ||
         shmpi_nbc_send(s, at, x->count, x->type, 0)))
        return MPI_ERR_NO_MEM;
    *got = into;
    if (shmpi_nbc_round(s))
        return MPI_ERR_NO_MEM;
    return shmpi_nbc_on(s, comm->local);
}

int shmpi_nbc_build_inter_reduce(struct shmpi_nbc *s, MPI_Comm comm,
                                 const struct shmpi_coll_red *x)
{
    if (x->root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (x->root == MPI_ROOT) /* from the other group's leader */
        return shmpi_nbc_recv(s, x->rbuf, x->count, x->type, 0);
    const void *at = NULL;
    if (reduce_here(s, comm, x, &at))
        return MPI_ERR_NO_MEM;
    if (comm->local->rank != 0)
        return MPI_SUCCESS;
    return shmpi_nbc_send(s, at, x->count, x->type, x->root);
}

int shmpi_nbc_build_inter_allreduce(struct shmpi_nbc *s, MPI_Comm comm,
                                    const struct shmpi_coll_red *x)
{
    void *got;
    if (shmpi_nbc_inter_swap(s, comm, x, x->rbuf, &got))
        return MPI_ERR_NO_MEM;
    return shmpi_nbc_bcast_from(s, comm->local, x->rbuf, x->count, x->type,
                                0);
}
