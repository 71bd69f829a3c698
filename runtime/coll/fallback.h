/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fallback.h - the collectives over point-to-point messages, for
 * communicators that have no collective area (coll.h).
 */
#ifndef SHMPI_COLL_FALLBACK_H
#define SHMPI_COLL_FALLBACK_H

#include "coll/reduce.h"
#include "coll/xchg.h"

/* Each returns MPI_SUCCESS or an error raised on comm under fn. */
int shmpi_coll_fb_barrier(MPI_Comm comm, const char *fn);
int shmpi_coll_fb_xchg(MPI_Comm comm, struct shmpi_coll_xchg *x,
                       const char *fn);
int shmpi_coll_fb_reduction(MPI_Comm comm, const struct shmpi_coll_red *x,
                            const char *fn);

#endif
