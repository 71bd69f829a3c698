/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pack.c - the ABI's pack and unpack functions (abi.h), in shmpi's own
 * representation and in "external32", each with its large-count (_c)
 * form; only the datatype and the communicator are translated.  In each
 * macro C is the type of the counts of elements, S that of the sizes and
 * positions in bytes.
 */
#include "abi/abi.h"

#define ABI_PACK(name, C, S)                                               \
    ABI_FN(int, name, (const void *inbuf, C incount, abi_Datatype dt,      \
                       void *outbuf, S outsize, S *position,               \
                       abi_Comm comm))                                     \
    {                                                                      \
        return PMPI_##name(inbuf, incount, dt_in(dt), outbuf,              \
                           outsize, position, comm_in(comm));              \
    }
ABI_PACK(Pack, int, int)
ABI_PACK(Pack_c, MPI_Count, MPI_Count)

#define ABI_UNPACK(name, C, S)                                             \
    ABI_FN(int, name, (const void *inbuf, S insize, S *position,           \
                       void *outbuf, C outcount, abi_Datatype dt,          \
                       abi_Comm comm))                                     \
    {                                                                      \
        return PMPI_##name(inbuf, insize, position, outbuf,                \
                           outcount, dt_in(dt), comm_in(comm));            \
    }
ABI_UNPACK(Unpack, int, int)
ABI_UNPACK(Unpack_c, MPI_Count, MPI_Count)

#define ABI_PACK_SIZE(name, C, S)                                          \
    ABI_FN(int, name, (C incount, abi_Datatype dt, abi_Comm comm,          \
                       S *size))                                           \
    {                                                                      \
        return PMPI_##name(incount, dt_in(dt), comm_in(comm),              \
                           size);                                          \
    }
ABI_PACK_SIZE(Pack_size, int, int)
ABI_PACK_SIZE(Pack_size_c, MPI_Count, MPI_Count)

#define ABI_PACK_EXTERNAL(name, C, S)                                      \
    ABI_FN(int, name, (const char datarep[], const void *inbuf,            \
                       C incount, abi_Datatype dt, void *outbuf,           \
                       S outsize, S *position))                            \
    {                                                                      \
        return PMPI_##name(datarep, inbuf, incount, dt_in(dt),             \
                           outbuf, outsize, position);                     \
    }
ABI_PACK_EXTERNAL(Pack_external, int, MPI_Aint)
ABI_PACK_EXTERNAL(Pack_external_c, MPI_Count, MPI_Count)

#define ABI_UNPACK_EXTERNAL(name, C, S)                                    \
    ABI_FN(int, name, (const char datarep[], const void *inbuf,            \
                       S insize, S *position, void *outbuf, C outcount,    \
                       abi_Datatype dt))                                   \
    {                                                                      \
        return PMPI_##name(datarep, inbuf, insize, position,               \
                           outbuf, outcount, dt_in(dt));                   \
    }
ABI_UNPACK_EXTERNAL(Unpack_external, int, MPI_Aint)
ABI_UNPACK_EXTERNAL(Unpack_external_c, MPI_Count, MPI_Count)

#define ABI_PACK_EXTERNAL_SIZE(name, C, S)                                 \
    ABI_FN(int, name, (const char datarep[], C incount, abi_Datatype dt,   \
                       S *size))                                           \
    {                                                                      \
        return PMPI_##name(datarep, incount, dt_in(dt), size);             \
    }
ABI_PACK_EXTERNAL_SIZE(Pack_external_size, int, MPI_Aint)
ABI_PACK_EXTERNAL_SIZE(Pack_external_size_c, MPI_Count, MPI_Count)
