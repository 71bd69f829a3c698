/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext32_convert.h - the external32 representation of each basic type
 * (MPI-3.1 13.5.2, table 13.2), one run of values at a time.
 */
#ifndef SHMPI_EXT32_CONVERT_H
#define SHMPI_EXT32_CONVERT_H

#include <stddef.h>

#include "datatypes/datatype.h"

struct shmpi_ext32_conv {
    MPI_Datatype type;      /* a basic (leaf) type */
    unsigned char kind;     /* how a part is converted (ext32_convert.c) */
    unsigned char parts;    /* 2 for the complex types (re, im), else 1 */
    unsigned char bytes;    /* external32 bytes of one part */
};

/* How the basic type `leaf` is represented, or NULL if it has no
   external32 form. */
const struct shmpi_ext32_conv *shmpi_dt_ext32_conv_of(MPI_Datatype leaf);

/* External32 bytes of one value. */
static inline MPI_Count shmpi_ext32_bytes(const struct shmpi_ext32_conv *c)
{
    return (MPI_Count)c->parts * c->bytes;
}

/* Convert n consecutive values of c->type at `native` into external32 at
   `out`.  MPI_SUCCESS, or MPI_ERR_CONVERSION when a value does not fit
   its external32 size (then `why`, of `whylen` bytes, says which). */
int shmpi_dt_ext32_encode(const struct shmpi_ext32_conv *c, const void *native,
                          MPI_Count n, void *out, char *why, size_t whylen);

/* The inverse: n external32 values at `in` into native form.  Every
   external32 value has a native one (long double rounds to nearest). */
void shmpi_dt_ext32_decode(const struct shmpi_ext32_conv *c, const void *in,
                           MPI_Count n, void *native);

#endif
