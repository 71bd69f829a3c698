/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pack_mpi.c - MPI_Pack, MPI_Unpack, MPI_Pack_size (MPI-3.1 4.2).
 *
 * The packed form is the data's own bytes in type-map order with no
 * header - one machine, one representation - so a packing unit is byte
 * for byte what a typed send of the same data carries: either side of a
 * message may be MPI_PACKED and the other typed, and MPI_Pack_size is
 * exact (incount x size).  The bytes move by pack.c's walks, which is
 * also what sends and receives use.
 *
 * A pack that would write past outsize, or an unpack that would read past
 * insize, moves nothing and fails with MPI_ERR_TRUNCATE (the standard
 * names no class; Open MPI uses this one, and so does MPI_Pack_external).
 */
#include <limits.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/check.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Pack)
SHMPI_WEAK_ALIAS(Unpack)
SHMPI_WEAK_ALIAS(Pack_size)

/* [*position, *position + bytes) must lie in the packed buffer, whose
   size argument is called size_name. */
static int check_packed(const char *fn, MPI_Comm comm, const void *packed,
                        int size, const char *size_name, const int *position,
                        uint64_t bytes)
{
    if (!position)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "position is NULL");
    if (size < 0)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "%s %d is negative",
                           size_name, size);
    if (*position < 0 || *position > size)
        return shmpi_raise(comm, MPI_ERR_ARG, fn,
                           "position %d is outside the packed buffer "
                           "(%s %d)", *position, size_name, size);
    if (bytes > (uint64_t)(size - *position))
        return shmpi_raise(comm, MPI_ERR_TRUNCATE, fn,
                           "%llu bytes from position %d do not fit in the "
                           "packed buffer (%s %d)", (unsigned long long)bytes,
                           *position, size_name, size);
    if (bytes > 0 && !packed)
        return shmpi_raise(comm, MPI_ERR_BUFFER, fn,
                           "the packed buffer is NULL");
    return MPI_SUCCESS;
}

/* The packed bytes of count x t; UINT64_MAX, which no buffer holds,
   when the product overflows. */
static uint64_t packed_bytes(int count, MPI_Datatype t)
{
    uint64_t bytes;
    if (__builtin_mul_overflow((uint64_t)count, (uint64_t)t->size, &bytes))
        return UINT64_MAX;
    return bytes;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype,
              void *outbuf, int outsize, int *position, MPI_Comm comm)
{
    static const char fn[] = "MPI_Pack";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_buffer(fn, comm, inbuf, incount, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    uint64_t bytes = packed_bytes(incount, datatype);
    rc = check_packed(fn, comm, outbuf, outsize, "outsize", position, bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_dt_pack(inbuf, datatype, 0, (unsigned char *)outbuf + *position,
                  bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
                int outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    static const char fn[] = "MPI_Unpack";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_buffer(fn, comm, outbuf, outcount, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    uint64_t bytes = packed_bytes(outcount, datatype);
    rc = check_packed(fn, comm, inbuf, insize, "insize", position, bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_dt_unpack(outbuf, datatype, 0,
                    (const unsigned char *)inbuf + *position, bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm,
                   int *size)
{
    static const char fn[] = "MPI_Pack_size";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_count_type(fn, comm, incount, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!size)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "size is NULL");
    MPI_Count bytes;
    /* 4.2: a size an int cannot hold is MPI_UNDEFINED */
    if (__builtin_mul_overflow((MPI_Count)incount, datatype->size, &bytes) ||
        bytes > INT_MAX)
        *size = MPI_UNDEFINED;
    else
        *size = (int)bytes;
    return MPI_SUCCESS;
}
