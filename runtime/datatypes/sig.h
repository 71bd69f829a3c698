/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sig.h - the type signature of a message (MPI-3.1 3.3.1): the sequence
 * of basic types its data is made of, whatever the layout, as a 64-bit
 * hash; the check mode's test that a receive's type matches its
 * message's (pt2pt/sigcheck.c).
 */
#ifndef SHMPI_DT_SIG_H
#define SHMPI_DT_SIG_H

#include <stdint.h>

#include "datatypes/datatype.h"

/* What shmpi_dt_sig found in the bytes it was given. */
enum shmpi_dt_sig_kind {
    SHMPI_DT_SIG_TYPED,        /* basic types only: *hash is their
                                  signature */
    SHMPI_DT_SIG_UNTYPED,      /* an MPI_BYTE or MPI_PACKED among them:
                                  matches any signature (3.3.1) */
    SHMPI_DT_SIG_SPLIT,        /* nbytes ends inside a basic element: no
                                  signature of whole elements has that
                                  size */
};

/* The signature of the first nbytes packed bytes of count elements of t
   (nbytes <= count * t->size) into *hash, and what kind it is.  The
   basic types are taken in type-map order, each run of one type
   coalesced, so that contiguous(4, MPI_INT), 4 x MPI_INT and a vector
   of ints hash alike; a pair type (MPI_FLOAT_INT, ...) is its two basic
   types.  Cost: one step per run of the type map's tree
   (typemap_walk.h), nothing per element of a run. */
enum shmpi_dt_sig_kind shmpi_dt_sig(MPI_Datatype t, MPI_Count count,
                                    uint64_t nbytes, uint64_t *hash);

#endif
