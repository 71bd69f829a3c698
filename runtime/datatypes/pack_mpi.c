/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pack_mpi.c - MPI_Pack, MPI_Unpack, MPI_Pack_size (MPI-3.1 4.2) and
 * their large-count forms MPI_Pack_c, MPI_Unpack_c, MPI_Pack_size_c
 * (MPI-4.0), which are the same calls on MPI_Count sizes and positions.
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
SHMPI_WEAK_ALIAS(Pack_c)
SHMPI_WEAK_ALIAS(Unpack_c)
SHMPI_WEAK_ALIAS(Pack_size_c)

/* [*position, *position + bytes) must lie in the packed buffer, whose
   size argument is called size_name. */
static int check_packed(const char *fn, MPI_Comm comm, const void *packed,
                        MPI_Count size, const char *size_name,
                        const MPI_Count *position, uint64_t bytes)
{
    if (!position)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "position is NULL");
    if (size < 0)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "%s %lld is negative",
                           size_name, (long long)size);
    if (*position < 0 || *position > size)
        return shmpi_raise(comm, MPI_ERR_ARG, fn,
                           "position %lld is outside the packed buffer "
                           "(%s %lld)", (long long)*position, size_name,
                           (long long)size);
    if (bytes > (uint64_t)(size - *position))
        return shmpi_raise(comm, MPI_ERR_TRUNCATE, fn,
                           "%llu bytes from position %lld do not fit in the "
                           "packed buffer (%s %lld)",
                           (unsigned long long)bytes, (long long)*position,
                           size_name, (long long)size);
    if (bytes > 0 && !packed)
        return shmpi_raise(comm, MPI_ERR_BUFFER, fn,
                           "the packed buffer is NULL");
    return MPI_SUCCESS;
}

/* The packed bytes of count x t; UINT64_MAX, which no buffer holds,
   when the product overflows. */
static uint64_t packed_bytes(MPI_Count count, MPI_Datatype t)
{
    uint64_t bytes;
    if (__builtin_mul_overflow((uint64_t)count, (uint64_t)t->size, &bytes))
        return UINT64_MAX;
    return bytes;
}

static int pack(const char *fn, const void *inbuf, MPI_Count incount,
                MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                MPI_Count *position, MPI_Comm comm)
{
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
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

/* An int form's position through the MPI_Count one: it stays within
   the int size checked against it. */
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype,
              void *outbuf, int outsize, int *position, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int rc = pack("MPI_Pack", inbuf, incount, datatype, outbuf, outsize,
                  position ? &pos : NULL, comm);
    if (rc == MPI_SUCCESS)
        *position = (int)pos;
    return rc;
}

int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                void *outbuf, MPI_Count outsize, MPI_Count *position,
                MPI_Comm comm)
{
    return pack("MPI_Pack_c", inbuf, incount, datatype, outbuf, outsize,
                position, comm);
}

static int unpack(const char *fn, const void *inbuf, MPI_Count insize,
                  MPI_Count *position, void *outbuf, MPI_Count outcount,
                  MPI_Datatype datatype, MPI_Comm comm)
{
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
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
                int outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int rc = unpack("MPI_Unpack", inbuf, insize, position ? &pos : NULL,
                    outbuf, outcount, datatype, comm);
    if (rc == MPI_SUCCESS)
        *position = (int)pos;
    return rc;
}

int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position,
                  void *outbuf, MPI_Count outcount, MPI_Datatype datatype,
                  MPI_Comm comm)
{
    return unpack("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount,
                  datatype, comm);
}

/* incount x the size of datatype into *bytes: MPI_SUCCESS, or -1 if
   the product overflows an MPI_Count. */
static int pack_size(const char *fn, MPI_Count incount, MPI_Datatype datatype,
                     MPI_Comm comm, const void *size, MPI_Count *bytes)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_dt_check_count_type(fn, comm, incount, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!size)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "size is NULL");
    return __builtin_mul_overflow(incount, datatype->size, bytes) ? -1
                                                                  : rc;
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm,
                   int *size)
{
    MPI_Count bytes;
    int rc = pack_size("MPI_Pack_size", incount, datatype, comm, size,
                       &bytes);
    /* 4.2: a size an int cannot hold is MPI_UNDEFINED */
    if (rc == -1 || (rc == MPI_SUCCESS && bytes > INT_MAX))
        *size = MPI_UNDEFINED;
    else if (rc == MPI_SUCCESS)
        *size = (int)bytes;
    return rc == -1 ? MPI_SUCCESS : rc;
}

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype,
                     MPI_Comm comm, MPI_Count *size)
{
    static const char fn[] = "MPI_Pack_size_c";
    int rc = pack_size(fn, incount, datatype, comm, size, size);
    if (rc == -1)
        return shmpi_raise(comm, MPI_ERR_COUNT, fn,
                           "incount %lld times the datatype's size "
                           "overflows MPI_Count", (long long)incount);
    return rc;
}
