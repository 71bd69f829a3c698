/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vec.h - an array argument of a v/w collective (counts, displacements)
 * as the call gave it: the int[] of the MPI-3.1 form, or the MPI_Count[]
 * (counts) and MPI_Aint[] (displacements) of the MPI-4.0 large-count
 * form (the _c functions).  Both forms share every check, table and
 * schedule below their entry points, so the table keeps the caller's
 * pointer and its width and reads an element where it needs one.
 *
 * Why not one width inside: converting the int form's arrays to 64 bits
 * would cost it an allocation and a pass over size entries in every
 * call (MPI_Alltoallv on 4 ranks is a few hundred nanoseconds, so that
 * would show), and converting the _c form's arrays down to int cannot
 * hold the counts it exists for.  Reading through the width costs one
 * well-predicted branch per element read, which the int form's timings
 * do not show (the commit that introduced this file has the numbers).
 */
#ifndef SHMPI_COLL_VEC_H
#define SHMPI_COLL_VEC_H

#include "mpi.h"

struct shmpi_coll_vec {
    const void *p;  /* NULL: the argument was not given */
    int wide;       /* 0: int[]; 1: MPI_Count[] (counts) or MPI_Aint[]
                       (displacements) */
};

static inline struct shmpi_coll_vec shmpi_coll_ints(const int *p)
{
    return (struct shmpi_coll_vec){p, 0};
}

static inline struct shmpi_coll_vec shmpi_coll_counts_c(const MPI_Count *p)
{
    return (struct shmpi_coll_vec){p, 1};
}

static inline struct shmpi_coll_vec shmpi_coll_aints(const MPI_Aint *p)
{
    return (struct shmpi_coll_vec){p, 1};
}

/* The array p as the int form (wide 0) or the _c form (wide 1) gave
   it: for the one body both forms of a call share. */
static inline struct shmpi_coll_vec shmpi_coll_vec_of(const void *p,
                                                      int wide)
{
    return (struct shmpi_coll_vec){p, wide};
}

/* Element i of a count array. */
static inline MPI_Count shmpi_coll_count_at(struct shmpi_coll_vec v, int i)
{
    return v.wide ? ((const MPI_Count *)v.p)[i] : ((const int *)v.p)[i];
}

/* Element i of a displacement array. */
static inline MPI_Aint shmpi_coll_disp_at(struct shmpi_coll_vec v, int i)
{
    return v.wide ? ((const MPI_Aint *)v.p)[i] : ((const int *)v.p)[i];
}

#endif
