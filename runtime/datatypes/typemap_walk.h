/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * typemap_walk.h - visiting the basic elements of count elements of a
 * type, in type-map order, by following the datatype tree.
 *
 * The compiled form merges adjacent runs and forgets which basic types
 * they hold; a walk that converts values one basic type at a time
 * (external32) uses this instead.  Reductions need no such walk: a type
 * they accept is made of one basic type (t->basic), so they run on its
 * packed form.
 */
#ifndef SHMPI_TYPEMAP_WALK_H
#define SHMPI_TYPEMAP_WALK_H

#include "datatypes/datatype.h"

/* n basic elements of type `leaf`, laid end to end by its extent from
   byte displacement disp (relative to the buffer of the walk).  A
   nonzero return ends the walk. */
typedef int shmpi_leaf_fn(MPI_Datatype leaf, MPI_Aint disp, MPI_Count n,
                          void *arg);

/* Calls fn on every run of basic elements of count elements of t
   (placed t's extent apart from displacement 0), in type-map order.
   Returns 0, or the first nonzero value fn returned. */
int shmpi_dt_typemap_walk(MPI_Datatype t, MPI_Count count, shmpi_leaf_fn *fn,
                          void *arg);

#endif
