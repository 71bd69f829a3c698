/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * external32.c - MPI_Pack_external, MPI_Unpack_external,
 * MPI_Pack_external_size (MPI-3.1 4.3) and their large-count forms
 * (_c, MPI-4.0: MPI_Count counts, sizes and positions): packing in the portable
 * "external32" representation of 13.5.2.
 *
 * The packed form is the basic elements of the type map in order, each
 * in its external32 form (ext32_convert.c), byte aligned with no gaps.
 * The walk follows the type's tree (typemap_walk.c) because it must know
 * each element's basic type; a block over a basic type converts as one
 * run.  The size of a type in external32 is found from the tree too, a
 * block at a time (or in one step when every element is of one basic
 * type), never element by element.
 */
#include <string.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/datatype.h"
#include "datatypes/ext32_convert.h"
#include "datatypes/typemap_walk.h"

SHMPI_WEAK_ALIAS(Pack_external)
SHMPI_WEAK_ALIAS(Unpack_external)
SHMPI_WEAK_ALIAS(Pack_external_size)
SHMPI_WEAK_ALIAS(Pack_external_c)
SHMPI_WEAK_ALIAS(Unpack_external_c)
SHMPI_WEAK_ALIAS(Pack_external_size_c)

/* External32 bytes of one element of t, or -1 when one of its basic
   types has no external32 form. */
static MPI_Count ext32_size(MPI_Datatype t)
{
    if (t->size == 0)
        return 0;
    if (t->leaf) {
        const struct shmpi_ext32_conv *c = shmpi_dt_ext32_conv_of(t);
        return c ? shmpi_ext32_bytes(c) : -1;
    }
    if (t->basic && t->basic != t) {   /* all of one basic type */
        MPI_Count one = ext32_size(t->basic);
        return one < 0 ? -1 : t->nelems / t->basic->nelems * one;
    }
    const struct shmpi_dt_blocks *m = &t->map;
    if (shmpi_dt_blocks_uniform(m)) {
        MPI_Count one = ext32_size(m->child);
        return one < 0 ? -1 : m->n * m->blocklen * one;
    }
    MPI_Count total = 0;
    for (MPI_Count i = 0; i < m->n; i++) {
        MPI_Count one = ext32_size(shmpi_dt_block_child(m, i));
        if (one < 0)
            return -1;
        total += shmpi_dt_block_len(m, i) * one;
    }
    return total;
}

/* The checks every call shares; sets *bytes to the external32 size of
   count elements of t. */
static int check_common(const char *fn, const char *datarep, MPI_Count count,
                        MPI_Datatype t, MPI_Aint *bytes)
{
    if (!datarep || strcmp(datarep, "external32") != 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "datarep is %s%s%s, not \"external32\" (the only "
                           "representation of 4.3)",
                           datarep ? "\"" : "", datarep ? datarep : "NULL",
                           datarep ? "\"" : "");
    if (count < 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, fn,
                           "count %lld is negative", (long long)count);
    if (!shmpi_datatype_ok(t))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, fn,
                           "invalid datatype");
    MPI_Count one = ext32_size(t);
    if (one < 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_INTERN, fn,
                           "a basic type of the datatype has no external32 "
                           "form");
    if (__builtin_mul_overflow(one, count, bytes))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, fn,
                           "%lld elements of %lld external32 bytes each do "
                           "not fit in an MPI_Aint", (long long)count,
                           (long long)one);
    return MPI_SUCCESS;
}

/* The checks of a pack or an unpack: (typed, count, t) is memory that
   will be read or written, and [*position, *position + bytes) must lie
   in the packed buffer of `size` bytes. */
static int check_transfer(const char *fn, const void *typed, MPI_Count count,
                          MPI_Datatype t, const void *packed, MPI_Aint size,
                          const MPI_Aint *position, MPI_Aint bytes)
{
    if (!t->committed)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, fn,
                           "datatype is not committed");
    if (!position)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "position is NULL");
    if (size < 0 || *position < 0 || *position > size)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "position %lld is outside the packed buffer of "
                           "%lld bytes", (long long)*position,
                           (long long)size);
    if (bytes > size - *position)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_TRUNCATE, fn,
                           "%lld external32 bytes from position %lld do not "
                           "fit in the packed buffer of %lld bytes",
                           (long long)bytes, (long long)*position,
                           (long long)size);
    if (bytes > 0 && !packed)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, fn,
                           "the packed buffer is NULL");
    if (!shmpi_buffer_ok(typed, count, t))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, fn,
                           "the buffer %s", typed
                               ? "is not a valid address"
                               : "is NULL (MPI_BOTTOM) but the datatype "
                                 "holds no absolute addresses");
    return MPI_SUCCESS;
}

/* A walk converting between the user's buffer and external32. */
struct ext32_walk {
    uintptr_t typed;                       /* the user's buffer */
    unsigned char *packed;                 /* next external32 byte */
    int encode;                            /* to external32 */
    MPI_Datatype leaf;                     /* the last basic type seen */
    const struct shmpi_ext32_conv *conv;   /* and its representation */
    char why[128];                         /* a value that did not fit */
};

static int convert_run(MPI_Datatype leaf, MPI_Aint disp, MPI_Count n,
                       void *arg)
{
    struct ext32_walk *w = arg;
    if (leaf != w->leaf) {
        /* found: ext32_size() has seen every basic type of the walk */
        w->leaf = leaf;
        w->conv = shmpi_dt_ext32_conv_of(leaf);
    }
    void *typed = (void *)(w->typed + (uintptr_t)disp);
    if (w->encode) {
        int rc = shmpi_dt_ext32_encode(w->conv, typed, n, w->packed, w->why,
                                       sizeof w->why);
        if (rc != MPI_SUCCESS)
            return rc;
    } else {
        shmpi_dt_ext32_decode(w->conv, w->packed, n, typed);
    }
    w->packed += n * shmpi_ext32_bytes(w->conv);
    return MPI_SUCCESS;
}

/* Pack (encode) or unpack: checks, converts, advances *position. */
static int transfer(const char *fn, const char *datarep, const void *typed,
                    MPI_Count count, MPI_Datatype t, const void *packed,
                    MPI_Aint size, MPI_Aint *position, int encode)
{
    MPI_Aint bytes;
    int rc = check_common(fn, datarep, count, t, &bytes);
    if (rc == MPI_SUCCESS)
        rc = check_transfer(fn, typed, count, t, packed, size, position,
                            bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    struct ext32_walk w = {.typed = (uintptr_t)typed, .encode = encode};
    if (bytes > 0)
        w.packed = (unsigned char *)packed + *position;
    rc = shmpi_dt_typemap_walk(t, count, convert_run, &w);
    if (rc != MPI_SUCCESS)       /* only encoding can fail */
        return shmpi_raise(MPI_COMM_WORLD, rc, fn,
                           "%s does not fit in its external32 size", w.why);
    *position += bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount,
                       MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                       MPI_Aint *position)
{
    static const char fn[] = "MPI_Pack_external";
    SHMPI_REQUIRE_INIT(fn);
    return transfer(fn, datarep, inbuf, incount, datatype, outbuf, outsize,
                    position, 1);
}

/* The large-count forms (MPI-4.0): an MPI_Count position, held in an
   MPI_Aint of the same width meanwhile. */
static int transfer_c(const char *fn, const char *datarep, const void *typed,
                      MPI_Count count, MPI_Datatype t, const void *packed,
                      MPI_Count size, MPI_Count *position, int encode)
{
    SHMPI_REQUIRE_INIT(fn);
    MPI_Aint pos = position ? (MPI_Aint)*position : 0;
    int rc = transfer(fn, datarep, typed, count, t, packed, (MPI_Aint)size,
                      position ? &pos : NULL, encode);
    if (rc == MPI_SUCCESS)
        *position = pos;
    return rc;
}

int PMPI_Pack_external_c(const char datarep[], const void *inbuf,
                         MPI_Count incount, MPI_Datatype datatype,
                         void *outbuf, MPI_Count outsize,
                         MPI_Count *position)
{
    return transfer_c("MPI_Pack_external_c", datarep, inbuf, incount,
                      datatype, outbuf, outsize, position, 1);
}

int PMPI_Unpack_external_c(const char datarep[], const void *inbuf,
                           MPI_Count insize, MPI_Count *position,
                           void *outbuf, MPI_Count outcount,
                           MPI_Datatype datatype)
{
    return transfer_c("MPI_Unpack_external_c", datarep, outbuf, outcount,
                      datatype, inbuf, insize, position, 0);
}

int PMPI_Unpack_external(const char datarep[], const void *inbuf,
                         MPI_Aint insize, MPI_Aint *position, void *outbuf,
                         int outcount, MPI_Datatype datatype)
{
    static const char fn[] = "MPI_Unpack_external";
    SHMPI_REQUIRE_INIT(fn);
    return transfer(fn, datarep, outbuf, outcount, datatype, inbuf, insize,
                    position, 0);
}

static int external_size(const char *fn, const char datarep[],
                         MPI_Count incount, MPI_Datatype datatype,
                         MPI_Aint *size)
{
    SHMPI_REQUIRE_INIT(fn);
    MPI_Aint bytes;
    int rc = check_common(fn, datarep, incount, datatype, &bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!size)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "size is NULL");
    *size = bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack_external_size(const char datarep[], int incount,
                            MPI_Datatype datatype, MPI_Aint *size)
{
    return external_size("MPI_Pack_external_size", datarep, incount,
                         datatype, size);
}

int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount,
                              MPI_Datatype datatype, MPI_Count *size)
{
    MPI_Aint bytes;
    int rc = external_size("MPI_Pack_external_size_c", datarep, incount,
                           datatype, size ? &bytes : NULL);
    if (rc == MPI_SUCCESS)
        *size = bytes;
    return rc;
}
