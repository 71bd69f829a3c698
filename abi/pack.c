/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pack.c - the ABI's pack and unpack functions (abi.h), in shmpi's own
 * representation and in "external32"; only the datatype and the
 * communicator are translated.
 */
#include "abi/abi.h"

ABI_FN(int, Pack, (const void *inbuf, int incount, abi_Datatype dt,
                   void *outbuf, int outsize, int *position, abi_Comm comm))
{
    return err_out(PMPI_Pack(inbuf, incount, dt_in(dt), outbuf, outsize,
                             position, comm_in(comm)));
}

ABI_FN(int, Unpack, (const void *inbuf, int insize, int *position,
                     void *outbuf, int outcount, abi_Datatype dt,
                     abi_Comm comm))
{
    return err_out(PMPI_Unpack(inbuf, insize, position, outbuf, outcount,
                               dt_in(dt), comm_in(comm)));
}

ABI_FN(int, Pack_size, (int incount, abi_Datatype dt, abi_Comm comm,
                        int *size))
{
    return err_out(PMPI_Pack_size(incount, dt_in(dt), comm_in(comm), size));
}

ABI_FN(int, Pack_external, (const char datarep[], const void *inbuf,
                            int incount, abi_Datatype dt, void *outbuf,
                            MPI_Aint outsize, MPI_Aint *position))
{
    return err_out(PMPI_Pack_external(datarep, inbuf, incount, dt_in(dt),
                                      outbuf, outsize, position));
}

ABI_FN(int, Unpack_external, (const char datarep[], const void *inbuf,
                              MPI_Aint insize, MPI_Aint *position,
                              void *outbuf, int outcount, abi_Datatype dt))
{
    return err_out(PMPI_Unpack_external(datarep, inbuf, insize, position,
                                        outbuf, outcount, dt_in(dt)));
}

ABI_FN(int, Pack_external_size, (const char datarep[], int incount,
                                 abi_Datatype dt, MPI_Aint *size))
{
    return err_out(PMPI_Pack_external_size(datarep, incount, dt_in(dt),
                                           size));
}
