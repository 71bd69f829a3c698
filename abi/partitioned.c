/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * partitioned.c - the ABI's partitioned communication (abi.h, MPI-4.0
 * chapter 4): persistent requests made by MPI_Psend_init/_Precv_init,
 * started and completed as any other (requests.c).
 */
#include "abi/abi.h"

ABI_FN(int, Psend_init, (const void *buf, int partitions, MPI_Count count,
                         abi_Datatype dt, int dest, int tag, abi_Comm comm,
                         abi_Info info, abi_Request *request))
{
    return PMPI_Psend_init(buf, partitions, count, dt_in(dt), dest, tag,
                           comm_in(comm), info_in(info), reqp_in(request));
}

ABI_FN(int, Precv_init, (void *buf, int partitions, MPI_Count count,
                         abi_Datatype dt, int source, int tag, abi_Comm comm,
                         abi_Info info, abi_Request *request))
{
    return PMPI_Precv_init(buf, partitions, count, dt_in(dt), source, tag,
                           comm_in(comm), info_in(info), reqp_in(request));
}

ABI_FN(int, Pready, (int partition, abi_Request request))
{
    return PMPI_Pready(partition, req_in(request));
}

ABI_FN(int, Pready_range, (int partition_low, int partition_high,
                           abi_Request request))
{
    return PMPI_Pready_range(partition_low, partition_high,
                             req_in(request));
}

ABI_FN(int, Pready_list, (int length, const int partitions[],
                          abi_Request request))
{
    return PMPI_Pready_list(length, partitions, req_in(request));
}

ABI_FN(int, Parrived, (abi_Request request, int partition, int *flag))
{
    return PMPI_Parrived(req_in(request), partition, flag);
}
