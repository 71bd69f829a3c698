/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce.h - the reduction collectives' common description, run on the
 * area (reduce.c) or over messages (fallback.c).
 */
#ifndef SHMPI_COLL_REDUCE_H
#define SHMPI_COLL_REDUCE_H

#include "coll/coll.h"
#include "coll/vec.h"

enum shmpi_red_kind {
    SHMPI_RED_ALLREDUCE,
    SHMPI_RED_REDUCE,          /* the result at root only */
    SHMPI_RED_SCATTER,         /* member i gets segment i of the result */
    SHMPI_RED_SCAN,            /* member i gets x0 op ... op xi */
    SHMPI_RED_EXSCAN,          /* member i > 0 gets x0 op ... op x(i-1) */
};

struct shmpi_coll_red {
    enum shmpi_red_kind kind;
    int root;                  /* SHMPI_RED_REDUCE */
    const void *sbuf;          /* this member's contribution (MPI_IN_PLACE
                                  already resolved to the receive buffer) */
    void *rbuf;                /* its result */
    MPI_Count count;           /* elements of the whole vector */
    MPI_Datatype type;
    MPI_Op op;
    struct shmpi_coll_vec seg_counts; /* SCATTER: elements of member i's
                                  segment (either width, vec.h), */
    MPI_Count seg_count;              /* or seg_count each when seg_counts.p is
                                  NULL */
};

/* The segment of member i (SHMPI_RED_SCATTER): first element, count. */
void shmpi_coll_segment(const struct shmpi_coll_red *x, int size, int i,
                        MPI_Count *first, MPI_Count *count);
/* reduce.c: MPI_Allreduce's fast path for a few bytes of a predefined
   type and op; 1 when it did the call, 0 to take the general one. */
int shmpi_coll_allreduce_small(const void *sendbuf, void *recvbuf,
                               int count, MPI_Datatype t, MPI_Op op,
                               MPI_Comm comm);
/* Run it on comm (on the area when it has one and the elements fit);
   MPI_SUCCESS or an error raised on comm under fn. */
int shmpi_coll_reduction(MPI_Comm comm, struct shmpi_coll_red *x,
                         const char *fn);

#endif
