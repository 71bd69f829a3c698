/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduction.c - a checked reduction collective (coll/reduce_args.h) made
 * into a schedule and started (the I-calls) or run to its end (the
 * blocking calls on an intercommunicator, which have no shared-memory
 * version of their own).
 */
#include "coll/reduce_args.h"
#include "coll/reduction.h"

static int build(struct shmpi_nbc *s, MPI_Comm comm, const void *arg)
{
    const struct shmpi_coll_red *x = arg;
    if (shmpi_red_empty(x)) /* no messages: the request completes at once */
        return MPI_SUCCESS;
    switch (x->kind) {
    case SHMPI_RED_REDUCE:
        return comm->is_inter ? shmpi_nbc_build_inter_reduce(s, comm, x)
                              : shmpi_nbc_build_reduce(s, comm, x);
    case SHMPI_RED_ALLREDUCE:
        return comm->is_inter ? shmpi_nbc_build_inter_allreduce(s, comm, x)
                              : shmpi_nbc_build_allreduce(s, comm, x);
    case SHMPI_RED_SCATTER:
        return comm->is_inter ? shmpi_nbc_build_inter_scatter(s, comm, x)
                              : shmpi_nbc_build_scatter(s, comm, x);
    case SHMPI_RED_SCAN: /* intracommunicators only (reduce_args.h) */
        return shmpi_nbc_build_scan(s, comm, x);
    default:
        return shmpi_nbc_build_exscan(s, comm, x);
    }
}

int shmpi_nbc_reduction_start(const char *fn, MPI_Comm comm,
                              const struct shmpi_coll_red *x,
                              MPI_Request *req)
{
    return shmpi_nbc_launch(comm, build, x, req, fn);
}

int shmpi_nbc_reduction_plan(const char *fn, MPI_Comm comm,
                             const struct shmpi_coll_red *x,
                             MPI_Request *req)
{
    return shmpi_nbc_plan(comm, build, x, req, fn);
}

int shmpi_nbc_reduction_run(const char *fn, MPI_Comm comm,
                            const struct shmpi_coll_red *x)
{
    return shmpi_nbc_launch(comm, build, x, NULL, fn);
}
