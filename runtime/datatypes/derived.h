/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * derived.h - inside the datatype room: how derived types are built
 * (type.c, build.c, layout.c, contents.c, constructors.c, subarray.c),
 * and the datatype argument check every MPI call on types uses.
 *
 * A constructor checks its arguments, describes the new type as a block
 * list (datatype.h) and lets shmpi_dt_make build the object, compute its
 * layout and make room for its own arguments, which MPI_Type_get_contents
 * gives back.
 */
#ifndef SHMPI_DERIVED_H
#define SHMPI_DERIVED_H

#include "datatypes/datatype.h"

/* type.c: MPI_SUCCESS, or raises MPI_ERR_TYPE on MPI_COMM_WORLD for an
   argument (named `what`) that is not a datatype. */
int shmpi_dt_check_arg(MPI_Datatype t, const char *fn, const char *what);
/* type.c: the same of a type a constructor builds from (oldtype, an
   entry of array_of_types), which also must not be MPI_HANDLE_SYNC
   (datatype.h). */
int shmpi_dt_check_oldtype(MPI_Datatype t, const char *fn, const char *what);

/* queries.c: the datatype and the (one or two) output pointers of a
   query (MPI_Type_size ... MPI_Type_get_extent, MPI-1's MPI_Type_lb ...);
   MPI_SUCCESS, or raises for fn. */
int shmpi_dt_check_query(const char *fn, MPI_Datatype t, const void *out1,
                         const void *out2);
/* queries.c: MPI_Get_address (and MPI-1's MPI_Address) for fn. */
int shmpi_dt_address(const char *fn, const void *location,
                     MPI_Aint *address);

/* constructors.c: MPI_Type_create_hvector, _hindexed and _struct,
   raising errors for fn, so that their MPI-1 forms (mpi1.c: same
   arguments, same combiners) report under their own names. */
int shmpi_dt_hvector(const char *fn, int count, int blocklength,
                     MPI_Aint stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype);
int shmpi_dt_hindexed(const char *fn, int count, const int blocklengths[],
                      const MPI_Aint displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype);
int shmpi_dt_struct(const char *fn, int count, const int blocklengths[],
                    const MPI_Aint displacements[],
                    const MPI_Datatype types[], MPI_Datatype *newtype);

/* type.c: a zeroed derived type of this combiner holding one reference
   (the caller's), or NULL when out of memory. */
MPI_Datatype shmpi_dt_alloc(int combiner);

/* build.c: a new type of `combiner` made of `map`.  The map's
   arrays must come from malloc (or be NULL); the type takes them over,
   also on failure.  It takes its own references to the children, drops
   zero-length blocks, folds arrays whose entries are all equal, and
   computes the layout.  MPI_SUCCESS, MPI_ERR_NO_MEM, or MPI_ERR_ARG when
   a size or bound overflows. */
int shmpi_dt_build(int combiner, struct shmpi_dt_blocks map,
                   MPI_Datatype *out);

/* the common regular map, `n` blocks of `blocklen`
   children at disp0 + i * stride. */
static inline struct shmpi_dt_blocks shmpi_dt_regular(MPI_Count n,
                                                      MPI_Count blocklen,
                                                      MPI_Aint disp0,
                                                      MPI_Aint stride,
                                                      MPI_Datatype child)
{
    return (struct shmpi_dt_blocks){.n = n, .regular = 1, .disp0 = disp0,
                                    .stride = stride, .blocklen = blocklen,
                                    .child = child};
}

/* layout.c: size, bounds, true bounds, align, nelems and basic of t from
   t->map, by 4.1.6 - 4.1.8.  MPI_SUCCESS, or MPI_ERR_ARG when a value
   does not fit its type (MPI_Count, MPI_Aint). */
int shmpi_dt_layout(MPI_Datatype t);

/* layout.c: gives t explicit bounds (MPI_Type_create_resized):
   lb and lb + extent; MPI_ERR_ARG if the upper bound overflows. */
int shmpi_dt_set_bounds(MPI_Datatype t, MPI_Aint lb, MPI_Aint extent);

/* build.c: shmpi_dt_build, then the record of the constructor's
   arguments for MPI_Type_get_contents: room for nints ints, naddrs
   addresses and ncounts large counts (the _c constructors', MPI-4.0),
   which the caller fills in (t->contents->ints, ->addrs, ->counts),
   and the ntypes types, referenced.  On failure raises (for fn) and
   returns the class. */
int shmpi_dt_make(const char *fn, int combiner, struct shmpi_dt_blocks map,
                  int nints, int naddrs, int ncounts, int ntypes,
                  const MPI_Datatype *types, MPI_Datatype *out);

/* contents.c: allocates t->contents as described above.
   MPI_SUCCESS or MPI_ERR_NO_MEM. */
int shmpi_dt_set_contents(MPI_Datatype t, int nints, int naddrs,
                          int ncounts, int ntypes, const MPI_Datatype *types);
/* contents.c: drops them (when t is destroyed). */
void shmpi_dt_free_contents(struct shmpi_dt_contents *c);

#endif
