/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduction.h - the schedules (sched.h) of the reduction collectives:
 * MPI_Ireduce, Iallreduce, Ireduce_scatter(_block), Iscan, Iexscan, and
 * every reduction on an intercommunicator, blocking or not.
 *
 * Every result is combined in rank order, x0 op x1 op ... op x(n-1), as
 * the blocking collectives do (coll/reduce.c), so non-commutative user
 * ops get what 5.9.1 promises; commutative ones get a tree rooted where
 * the result is wanted.
 *
 * The builders add rounds to s talking on comm (the schedule's current
 * communicator: an intercommunicator's local one for its local steps)
 * and leave the last round closed, so that what follows may send their
 * results.  Each returns MPI_SUCCESS or MPI_ERR_NO_MEM, not raised.
 */
#ifndef SHMPI_NBC_REDUCTION_H
#define SHMPI_NBC_REDUCTION_H

#include "coll/reduce.h"
#include "coll/sched.h"

/* ireduce.c: every member's (sbuf, count, t) reduced to member root.
   At root the result lands in dst, or in scratch of the schedule when
   dst is NULL; *at (root only) says where, which is sbuf itself when
   there was nothing to fold (one member, dst NULL). */
int shmpi_nbc_reduce_to(struct shmpi_nbc *s, MPI_Comm comm, const void *sbuf,
                        void *dst, MPI_Count count, MPI_Datatype t,
                        MPI_Op op, int root, const void **at);
/* iallreduce.c: root's (buf, count, t) to every member, down a binomial
   tree. */
int shmpi_nbc_bcast_from(struct shmpi_nbc *s, MPI_Comm comm, void *buf,
                         MPI_Count count, MPI_Datatype t, int root);
/* ireduce_scatter.c: member 0's whole vector `full` (significant there
   only) cut into x's segments, segment i to member i's x->rbuf. */
int shmpi_nbc_scatter_segments(struct shmpi_nbc *s, MPI_Comm comm,
                               const void *full,
                               const struct shmpi_coll_red *x);

/* The whole collective x on comm, by x->kind. */
int shmpi_nbc_build_reduce(struct shmpi_nbc *s, MPI_Comm comm,
                           const struct shmpi_coll_red *x);    /* ireduce.c */
int shmpi_nbc_build_allreduce(struct shmpi_nbc *s, MPI_Comm comm,
                              const struct shmpi_coll_red *x); /* iallreduce.c */
int shmpi_nbc_build_scatter(struct shmpi_nbc *s, MPI_Comm comm,
                            const struct shmpi_coll_red *x);   /* ireduce_scatter.c */
int shmpi_nbc_build_scan(struct shmpi_nbc *s, MPI_Comm comm,
                         const struct shmpi_coll_red *x);      /* iscan.c */
int shmpi_nbc_build_exscan(struct shmpi_nbc *s, MPI_Comm comm,
                           const struct shmpi_coll_red *x);    /* iscan.c */
/* inter_reduce.c: each group of intercommunicator comm reduces its own
   (x->sbuf, x->count) to its leader, local rank 0, and the two leaders
   swap their results: the other group's lands in `into` (scratch when
   NULL), *got says where (leaders only).  The schedule talks on
   comm->local afterwards. */
int shmpi_nbc_inter_swap(struct shmpi_nbc *s, MPI_Comm comm,
                         const struct shmpi_coll_red *x, void *into,
                         void **got);
/* inter_reduce.c: Reduce and Allreduce of an intercommunicator */
int shmpi_nbc_build_inter_reduce(struct shmpi_nbc *s, MPI_Comm comm,
                                 const struct shmpi_coll_red *x);
int shmpi_nbc_build_inter_allreduce(struct shmpi_nbc *s, MPI_Comm comm,
                                    const struct shmpi_coll_red *x);
/* inter_reduce_scatter.c: Reduce_scatter(_block) of an intercommunicator */
int shmpi_nbc_build_inter_scatter(struct shmpi_nbc *s, MPI_Comm comm,
                                  const struct shmpi_coll_red *x);

/* reduction.c: x (checked: coll/reduce_args.h) as a schedule on comm,
   started into *req, or run to completion (the blocking calls on an
   intercommunicator).  MPI_SUCCESS or an error raised on comm under
   fn. */
int shmpi_nbc_reduction_start(const char *fn, MPI_Comm comm,
                              const struct shmpi_coll_red *x,
                              MPI_Request *req);
/* x planned on comm into the inactive persistent request *req (the
   persistent collectives, MPI-4.0 6.13). */
int shmpi_nbc_reduction_plan(const char *fn, MPI_Comm comm,
                             const struct shmpi_coll_red *x,
                             MPI_Request *req);
int shmpi_nbc_reduction_run(const char *fn, MPI_Comm comm,
                            const struct shmpi_coll_red *x);

#endif
