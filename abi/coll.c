/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coll.c - the ABI's collectives (abi.h), each in its three forms:
 * blocking, nonblocking (MPI_I..., a request more) and persistent
 * (..._init, an info and a request more), and the same large-count
 * (_c), from one list of parameters.
 * MPI_IN_PLACE and MPI_BOTTOM have the same values in both headers and
 * pass as they are.
 */
#include "abi/abi.h"

#define ABI_LIST(...) __VA_ARGS__

/* The blocking (Name), nonblocking (IName) and persistent (InitName)
   forms of a collective: params is a parenthesized list of the program's
   parameters, args shmpi's arguments made of them. */
#define ABI_COLL3(Name, IName, InitName, params, args)                     \
    ABI_FN(int, Name, params)                                              \
    {                                                                      \
        return PMPI_##Name args;                                           \
    }                                                                      \
    ABI_FN(int, IName, (ABI_LIST params, abi_Request *request))            \
    {                                                                      \
        return PMPI_##IName(ABI_LIST args, reqp_in(request));              \
    }                                                                      \
    ABI_FN(int, InitName, (ABI_LIST params, abi_Info info,                 \
                           abi_Request *request))                          \
    {                                                                      \
        return PMPI_##InitName(ABI_LIST args, info_in(info),               \
                               reqp_in(request));                          \
    }

/* The three forms and their large-count (_c) ones: params(C, D) is the
   list of parameters with counts of type C and displacements of type D
   (int, int; MPI_Count, MPI_Aint for _c). */
#define ABI_COLL(Name, IName, params, args)                                \
    ABI_COLL3(Name, IName, Name##_init, params(int, int), args)            \
    ABI_COLL3(Name##_c, IName##_c, Name##_init_c,                          \
              params(MPI_Count, MPI_Aint), args)

ABI_COLL3(Barrier, Ibarrier, Barrier_init, (abi_Comm comm), (comm_in(comm)))

#define P_BCAST(C, D)                                                      \
    (void *buf, C count, abi_Datatype dt, int root, abi_Comm comm)
ABI_COLL(Bcast, Ibcast, P_BCAST,
         (buf, count, dt_in(dt), root, comm_in(comm)))

#define P_REDUCE(C, D)                                                     \
    (const void *sendbuf, void *recvbuf, C count, abi_Datatype dt,         \
     abi_Op op, int root, abi_Comm comm)
ABI_COLL(Reduce, Ireduce, P_REDUCE,
         (sendbuf, recvbuf, count, dt_in(dt), op_in(op), root,
          comm_in(comm)))

/* Allreduce, Scan and Exscan. */
#define P_ALLREDUCE(C, D)                                                  \
    (const void *sendbuf, void *recvbuf, C count, abi_Datatype dt,         \
     abi_Op op, abi_Comm comm)
#define A_ALLREDUCE                                                        \
    (sendbuf, recvbuf, count, dt_in(dt), op_in(op), comm_in(comm))
ABI_COLL(Allreduce, Iallreduce, P_ALLREDUCE, A_ALLREDUCE)
ABI_COLL(Scan, Iscan, P_ALLREDUCE, A_ALLREDUCE)
ABI_COLL(Exscan, Iexscan, P_ALLREDUCE, A_ALLREDUCE)

/* Gather and Scatter, to or from a root. */
#define P_ROOTED(C, D)                                                     \
    (const void *sendbuf, C sendcount, abi_Datatype sendtype,              \
     void *recvbuf, C recvcount, abi_Datatype recvtype, int root,          \
     abi_Comm comm)
#define A_ROOTED                                                           \
    (sendbuf, sendcount, dt_in(sendtype), recvbuf, recvcount,              \
     dt_in(recvtype), root, comm_in(comm))
ABI_COLL(Gather, Igather, P_ROOTED, A_ROOTED)
ABI_COLL(Scatter, Iscatter, P_ROOTED, A_ROOTED)

/* Allgather and Alltoall, and their neighbor forms. */
#define P_ALL(C, D)                                                        \
    (const void *sendbuf, C sendcount, abi_Datatype sendtype,              \
     void *recvbuf, C recvcount, abi_Datatype recvtype, abi_Comm comm)
#define A_ALL                                                              \
    (sendbuf, sendcount, dt_in(sendtype), recvbuf, recvcount,              \
     dt_in(recvtype), comm_in(comm))
ABI_COLL(Allgather, Iallgather, P_ALL, A_ALL)
ABI_COLL(Alltoall, Ialltoall, P_ALL, A_ALL)
ABI_COLL(Neighbor_allgather, Ineighbor_allgather, P_ALL, A_ALL)
ABI_COLL(Neighbor_alltoall, Ineighbor_alltoall, P_ALL, A_ALL)

#define P_GATHERV(C, D)                                                    \
    (const void *sendbuf, C sendcount, abi_Datatype sendtype,              \
     void *recvbuf, const C recvcounts[], const D displs[],                \
     abi_Datatype recvtype, int root, abi_Comm comm)
ABI_COLL(Gatherv, Igatherv, P_GATHERV,
         (sendbuf, sendcount, dt_in(sendtype), recvbuf, recvcounts, displs,
          dt_in(recvtype), root, comm_in(comm)))

#define P_SCATTERV(C, D)                                                   \
    (const void *sendbuf, const C sendcounts[], const D displs[],          \
     abi_Datatype sendtype, void *recvbuf, C recvcount,                    \
     abi_Datatype recvtype, int root, abi_Comm comm)
ABI_COLL(Scatterv, Iscatterv, P_SCATTERV,
         (sendbuf, sendcounts, displs, dt_in(sendtype), recvbuf, recvcount,
          dt_in(recvtype), root, comm_in(comm)))

/* Allgatherv and its neighbor form. */
#define P_ALLGATHERV(C, D)                                                 \
    (const void *sendbuf, C sendcount, abi_Datatype sendtype,              \
     void *recvbuf, const C recvcounts[], const D displs[],                \
     abi_Datatype recvtype, abi_Comm comm)
#define A_ALLGATHERV                                                       \
    (sendbuf, sendcount, dt_in(sendtype), recvbuf, recvcounts, displs,     \
     dt_in(recvtype), comm_in(comm))
ABI_COLL(Allgatherv, Iallgatherv, P_ALLGATHERV, A_ALLGATHERV)
ABI_COLL(Neighbor_allgatherv, Ineighbor_allgatherv, P_ALLGATHERV,
         A_ALLGATHERV)

/* Alltoallv and its neighbor form. */
#define P_ALLTOALLV(C, D)                                                  \
    (const void *sendbuf, const C sendcounts[], const D sdispls[],         \
     abi_Datatype sendtype, void *recvbuf, const C recvcounts[],           \
     const D rdispls[], abi_Datatype recvtype, abi_Comm comm)
#define A_ALLTOALLV                                                        \
    (sendbuf, sendcounts, sdispls, dt_in(sendtype), recvbuf, recvcounts,   \
     rdispls, dt_in(recvtype), comm_in(comm))
ABI_COLL(Alltoallv, Ialltoallv, P_ALLTOALLV, A_ALLTOALLV)
ABI_COLL(Neighbor_alltoallv, Ineighbor_alltoallv, P_ALLTOALLV, A_ALLTOALLV)

#define P_RSB(C, D)                                                        \
    (const void *sendbuf, void *recvbuf, C recvcount, abi_Datatype dt,     \
     abi_Op op, abi_Comm comm)
ABI_COLL(Reduce_scatter_block, Ireduce_scatter_block, P_RSB,
         (sendbuf, recvbuf, recvcount, dt_in(dt), op_in(op), comm_in(comm)))

#define P_RS(C, D)                                                         \
    (const void *sendbuf, void *recvbuf, const C recvcounts[],             \
     abi_Datatype dt, abi_Op op, abi_Comm comm)
ABI_COLL(Reduce_scatter, Ireduce_scatter, P_RS,
         (sendbuf, recvbuf, recvcounts, dt_in(dt), op_in(op), comm_in(comm)))
