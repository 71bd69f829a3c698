/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coll.c - the ABI's blocking collectives (abi.h).  MPI_IN_PLACE and
 * MPI_BOTTOM have the same values in both headers and pass as they are.
 */
#include "abi/abi.h"

ABI_FN(int, Barrier, (abi_Comm comm))
{
    return err_out(PMPI_Barrier(comm_in(comm)));
}

ABI_FN(int, Bcast, (void *buf, int count, abi_Datatype dt, int root,
                    abi_Comm comm))
{
    return err_out(PMPI_Bcast(buf, count, dt_in(dt), rank_in(root),
                              comm_in(comm)));
}

ABI_FN(int, Reduce, (const void *sendbuf, void *recvbuf, int count,
                     abi_Datatype dt, abi_Op op, int root, abi_Comm comm))
{
    return err_out(PMPI_Reduce(sendbuf, recvbuf, count, dt_in(dt),
                               op_in(op), rank_in(root), comm_in(comm)));
}

ABI_FN(int, Allreduce, (const void *sendbuf, void *recvbuf, int count,
                        abi_Datatype dt, abi_Op op, abi_Comm comm))
{
    return err_out(PMPI_Allreduce(sendbuf, recvbuf, count, dt_in(dt),
                                  op_in(op), comm_in(comm)));
}

ABI_FN(int, Gather, (const void *sendbuf, int sendcount,
                     abi_Datatype sendtype, void *recvbuf, int recvcount,
                     abi_Datatype recvtype, int root, abi_Comm comm))
{
    return err_out(PMPI_Gather(sendbuf, sendcount, dt_in(sendtype), recvbuf,
                               recvcount, dt_in(recvtype), rank_in(root),
                               comm_in(comm)));
}

ABI_FN(int, Scatter, (const void *sendbuf, int sendcount,
                      abi_Datatype sendtype, void *recvbuf, int recvcount,
                      abi_Datatype recvtype, int root, abi_Comm comm))
{
    return err_out(PMPI_Scatter(sendbuf, sendcount, dt_in(sendtype),
                                recvbuf, recvcount, dt_in(recvtype),
                                rank_in(root), comm_in(comm)));
}

ABI_FN(int, Allgather, (const void *sendbuf, int sendcount,
                        abi_Datatype sendtype, void *recvbuf, int recvcount,
                        abi_Datatype recvtype, abi_Comm comm))
{
    return err_out(PMPI_Allgather(sendbuf, sendcount, dt_in(sendtype),
                                  recvbuf, recvcount, dt_in(recvtype),
                                  comm_in(comm)));
}

ABI_FN(int, Alltoall, (const void *sendbuf, int sendcount,
                       abi_Datatype sendtype, void *recvbuf, int recvcount,
                       abi_Datatype recvtype, abi_Comm comm))
{
    return err_out(PMPI_Alltoall(sendbuf, sendcount, dt_in(sendtype),
                                 recvbuf, recvcount, dt_in(recvtype),
                                 comm_in(comm)));
}

ABI_FN(int, Gatherv, (const void *sendbuf, int sendcount,
                      abi_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[],
                      abi_Datatype recvtype, int root, abi_Comm comm))
{
    return err_out(PMPI_Gatherv(sendbuf, sendcount, dt_in(sendtype), recvbuf,
                                recvcounts, displs, dt_in(recvtype),
                                rank_in(root), comm_in(comm)));
}

ABI_FN(int, Scatterv, (const void *sendbuf, const int sendcounts[],
                       const int displs[], abi_Datatype sendtype,
                       void *recvbuf, int recvcount, abi_Datatype recvtype,
                       int root, abi_Comm comm))
{
    return err_out(PMPI_Scatterv(sendbuf, sendcounts, displs,
                                 dt_in(sendtype), recvbuf, recvcount,
                                 dt_in(recvtype), rank_in(root),
                                 comm_in(comm)));
}

ABI_FN(int, Allgatherv, (const void *sendbuf, int sendcount,
                         abi_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[],
                         abi_Datatype recvtype, abi_Comm comm))
{
    return err_out(PMPI_Allgatherv(sendbuf, sendcount, dt_in(sendtype),
                                   recvbuf, recvcounts, displs,
                                   dt_in(recvtype), comm_in(comm)));
}

ABI_FN(int, Alltoallv, (const void *sendbuf, const int sendcounts[],
                        const int sdispls[], abi_Datatype sendtype,
                        void *recvbuf, const int recvcounts[],
                        const int rdispls[], abi_Datatype recvtype,
                        abi_Comm comm))
{
    return err_out(PMPI_Alltoallv(sendbuf, sendcounts, sdispls,
                                  dt_in(sendtype), recvbuf, recvcounts,
                                  rdispls, dt_in(recvtype), comm_in(comm)));
}

ABI_FN(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf,
                                   int recvcount, abi_Datatype dt,
                                   abi_Op op, abi_Comm comm))
{
    return err_out(PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount,
                                             dt_in(dt), op_in(op),
                                             comm_in(comm)));
}

ABI_FN(int, Scan, (const void *sendbuf, void *recvbuf, int count,
                   abi_Datatype dt, abi_Op op, abi_Comm comm))
{
    return err_out(PMPI_Scan(sendbuf, recvbuf, count, dt_in(dt), op_in(op),
                             comm_in(comm)));
}

ABI_FN(int, Exscan, (const void *sendbuf, void *recvbuf, int count,
                     abi_Datatype dt, abi_Op op, abi_Comm comm))
{
    return err_out(PMPI_Exscan(sendbuf, recvbuf, count, dt_in(dt), op_in(op),
                               comm_in(comm)));
}
