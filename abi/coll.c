/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coll.c - the ABI's collectives (abi.h), each in its three forms:
 * blocking, nonblocking (MPI_I..., a request more) and persistent
 * (..._init, an info and a request more), from one list of parameters.
 * MPI_IN_PLACE and MPI_BOTTOM have the same values in both headers and
 * pass as they are.
 */
#include "abi/abi.h"

#define ABI_LIST(...) __VA_ARGS__

/* Name's three forms; params and args are parenthesized lists, the
   program's parameters and shmpi's arguments made of them. */
#define ABI_COLL(Name, IName, params, args)                                \
    ABI_FN(int, Name, params)                                              \
    {                                                                      \
        return err_out(PMPI_##Name args);                                  \
    }                                                                      \
    ABI_FN(int, IName, (ABI_LIST params, abi_Request *request))            \
    {                                                                      \
        MPI_Request r;                                                     \
        return started(PMPI_##IName(ABI_LIST args, request ? &r : NULL),   \
                       &r, request);                                       \
    }                                                                      \
    ABI_FN(int, Name##_init, (ABI_LIST params, abi_Info info,              \
                              abi_Request *request))                       \
    {                                                                      \
        MPI_Request r;                                                     \
        return started(PMPI_##Name##_init(ABI_LIST args, info_in(info),    \
                                          request ? &r : NULL),            \
                       &r, request);                                       \
    }

ABI_COLL(Barrier, Ibarrier, (abi_Comm comm), (comm_in(comm)))

ABI_COLL(Bcast, Ibcast,
         (void *buf, int count, abi_Datatype dt, int root, abi_Comm comm),
         (buf, count, dt_in(dt), rank_in(root), comm_in(comm)))

ABI_COLL(Reduce, Ireduce,
         (const void *sendbuf, void *recvbuf, int count, abi_Datatype dt,
          abi_Op op, int root, abi_Comm comm),
         (sendbuf, recvbuf, count, dt_in(dt), op_in(op), rank_in(root),
          comm_in(comm)))

ABI_COLL(Allreduce, Iallreduce,
         (const void *sendbuf, void *recvbuf, int count, abi_Datatype dt,
          abi_Op op, abi_Comm comm),
         (sendbuf, recvbuf, count, dt_in(dt), op_in(op), comm_in(comm)))

/* Gather and Scatter, to or from a root. */
#define ABI_ROOTED(Name, IName)                                            \
    ABI_COLL(Name, IName,                                                  \
             (const void *sendbuf, int sendcount, abi_Datatype sendtype,   \
              void *recvbuf, int recvcount, abi_Datatype recvtype,         \
              int root, abi_Comm comm),                                    \
             (sendbuf, sendcount, dt_in(sendtype), recvbuf, recvcount,     \
              dt_in(recvtype), rank_in(root), comm_in(comm)))
ABI_ROOTED(Gather, Igather)
ABI_ROOTED(Scatter, Iscatter)

/* Allgather and Alltoall, and their neighbor forms. */
#define ABI_ALL(Name, IName)                                               \
    ABI_COLL(Name, IName,                                                  \
             (const void *sendbuf, int sendcount, abi_Datatype sendtype,   \
              void *recvbuf, int recvcount, abi_Datatype recvtype,         \
              abi_Comm comm),                                              \
             (sendbuf, sendcount, dt_in(sendtype), recvbuf, recvcount,     \
              dt_in(recvtype), comm_in(comm)))
ABI_ALL(Allgather, Iallgather)
ABI_ALL(Alltoall, Ialltoall)

ABI_COLL(Gatherv, Igatherv,
         (const void *sendbuf, int sendcount, abi_Datatype sendtype,
          void *recvbuf, const int recvcounts[], const int displs[],
          abi_Datatype recvtype, int root, abi_Comm comm),
         (sendbuf, sendcount, dt_in(sendtype), recvbuf, recvcounts, displs,
          dt_in(recvtype), rank_in(root), comm_in(comm)))

ABI_COLL(Scatterv, Iscatterv,
         (const void *sendbuf, const int sendcounts[], const int displs[],
          abi_Datatype sendtype, void *recvbuf, int recvcount,
          abi_Datatype recvtype, int root, abi_Comm comm),
         (sendbuf, sendcounts, displs, dt_in(sendtype), recvbuf, recvcount,
          dt_in(recvtype), rank_in(root), comm_in(comm)))

ABI_COLL(Allgatherv, Iallgatherv,
         (const void *sendbuf, int sendcount, abi_Datatype sendtype,
          void *recvbuf, const int recvcounts[], const int displs[],
          abi_Datatype recvtype, abi_Comm comm),
         (sendbuf, sendcount, dt_in(sendtype), recvbuf, recvcounts, displs,
          dt_in(recvtype), comm_in(comm)))

ABI_COLL(Alltoallv, Ialltoallv,
         (const void *sendbuf, const int sendcounts[], const int sdispls[],
          abi_Datatype sendtype, void *recvbuf, const int recvcounts[],
          const int rdispls[], abi_Datatype recvtype, abi_Comm comm),
         (sendbuf, sendcounts, sdispls, dt_in(sendtype), recvbuf,
          recvcounts, rdispls, dt_in(recvtype), comm_in(comm)))

ABI_COLL(Reduce_scatter_block, Ireduce_scatter_block,
         (const void *sendbuf, void *recvbuf, int recvcount,
          abi_Datatype dt, abi_Op op, abi_Comm comm),
         (sendbuf, recvbuf, recvcount, dt_in(dt), op_in(op), comm_in(comm)))

ABI_COLL(Reduce_scatter, Ireduce_scatter,
         (const void *sendbuf, void *recvbuf, const int recvcounts[],
          abi_Datatype dt, abi_Op op, abi_Comm comm),
         (sendbuf, recvbuf, recvcounts, dt_in(dt), op_in(op), comm_in(comm)))

/* Scan and Exscan. */
#define ABI_SCAN(Name, IName)                                              \
    ABI_COLL(Name, IName,                                                  \
             (const void *sendbuf, void *recvbuf, int count,               \
              abi_Datatype dt, abi_Op op, abi_Comm comm),                  \
             (sendbuf, recvbuf, count, dt_in(dt), op_in(op), comm_in(comm)))
ABI_SCAN(Scan, Iscan)
ABI_SCAN(Exscan, Iexscan)

/* The neighbor collectives of a topology (but Neighbor_alltoallw,
   collw.c). */
ABI_ALL(Neighbor_allgather, Ineighbor_allgather)

ABI_COLL(Neighbor_allgatherv, Ineighbor_allgatherv,
         (const void *sendbuf, int sendcount, abi_Datatype sendtype,
          void *recvbuf, const int recvcounts[], const int displs[],
          abi_Datatype recvtype, abi_Comm comm),
         (sendbuf, sendcount, dt_in(sendtype), recvbuf, recvcounts, displs,
          dt_in(recvtype), comm_in(comm)))

ABI_ALL(Neighbor_alltoall, Ineighbor_alltoall)

ABI_COLL(Neighbor_alltoallv, Ineighbor_alltoallv,
         (const void *sendbuf, const int sendcounts[], const int sdispls[],
          abi_Datatype sendtype, void *recvbuf, const int recvcounts[],
          const int rdispls[], abi_Datatype recvtype, abi_Comm comm),
         (sendbuf, sendcounts, sdispls, dt_in(sendtype), recvbuf,
          recvcounts, rdispls, dt_in(recvtype), comm_in(comm)))
