/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * args.h - the argument checks of the data-movement collectives (bcast,
 * gather, scatter, allgather, alltoall and their v/w forms), shared by
 * the blocking calls and their nonblocking versions (coll/data.h), so that
 * both report exactly the same errors.  Each is defined in the file of
 * its blocking call; MPI_Barrier and MPI_Ibarrier only check comm.
 *
 * A check returns MPI_SUCCESS or the code shmpi_raise returned (raised
 * on comm under fn), and on success the arguments as block tables
 * (xchg.h): block d of `out` is what this process sends to peer d, block
 * j of `in` where it puts what peer j sends - a peer being a rank of the
 * communicator or, on an intercommunicator, of the remote group (5.2.2).
 * A side given as one buffer is a table whose every block is that buffer
 * (unit 0); a side the process does not have (a gather's receive side
 * off the root) is all zero.
 */
#ifndef SHMPI_COLL_ARGS_H
#define SHMPI_COLL_ARGS_H

#include "coll/xchg.h"

struct shmpi_coll_args {
    struct shmpi_coll_blocks out, in;
    int root;       /* as given: a rank, or MPI_ROOT / MPI_PROC_NULL */
    int at_root;    /* this process is the root (MPI_ROOT on an
                       intercommunicator) */
    int idle;       /* intercommunicator, root's group but not the root
                       (MPI_PROC_NULL): no data, no part in it */
    int in_place;   /* MPI_IN_PLACE (intracommunicators only); out is then
                       this process's own block(s) of in */
};

/* Who this process is in a rooted collective; root already checked. */
static inline void shmpi_coll_args_root(struct shmpi_coll_args *a,
                                        MPI_Comm comm, int root)
{
    *a = (struct shmpi_coll_args){.root = root};
    if (comm->is_inter) {
        a->at_root = root == MPI_ROOT;
        a->idle = root == MPI_PROC_NULL;
    } else {
        a->at_root = root == comm->rank;
    }
}

/* check.c: what every member of a rooted collective checks - the
   communicator, the root, and its own block (buf, count, type), named
   `what` - but the root's block with MPI_IN_PLACE (a->in_place) and
   anything in an intercommunicator's root group, which moves nothing of
   its own.  Fills a with who this process is and *mine (a block of a)
   with its block.  MPI_SUCCESS or the error raised. */
int shmpi_coll_args_rooted(const char *fn, MPI_Comm comm, int root,
                           const void *buf, MPI_Count count, MPI_Datatype type,
                           const char *what, struct shmpi_coll_args *a,
                           struct shmpi_coll_blocks *mine);

/* The checks of each call.  Counts are MPI_Count and arrays
   struct shmpi_coll_vec (vec.h), so that a call and its large-count
   form (MPI-4.0, the _c functions) share them. */
int shmpi_coll_args_bcast(const char *fn, MPI_Comm comm, void *buffer,
                          MPI_Count count, MPI_Datatype datatype, int root,
                          struct shmpi_coll_args *a);
int shmpi_coll_args_gather(const char *fn, MPI_Comm comm, const void *sendbuf,
                           MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, MPI_Count recvcount,
                           MPI_Datatype recvtype, int root,
                           struct shmpi_coll_args *a);
int shmpi_coll_args_gatherv(const char *fn, MPI_Comm comm, const void *sendbuf,
                            MPI_Count sendcount, MPI_Datatype sendtype,
                            void *recvbuf, struct shmpi_coll_vec recvcounts,
                            struct shmpi_coll_vec displs,
                            MPI_Datatype recvtype, int root,
                            struct shmpi_coll_args *a);
int shmpi_coll_args_scatter(const char *fn, MPI_Comm comm, const void *sendbuf,
                            MPI_Count sendcount, MPI_Datatype sendtype,
                            void *recvbuf, MPI_Count recvcount,
                            MPI_Datatype recvtype, int root,
                            struct shmpi_coll_args *a);
int shmpi_coll_args_scatterv(const char *fn, MPI_Comm comm,
                             const void *sendbuf,
                             struct shmpi_coll_vec sendcounts,
                             struct shmpi_coll_vec displs,
                             MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype,
                             int root, struct shmpi_coll_args *a);
int shmpi_coll_args_allgather(const char *fn, MPI_Comm comm,
                              const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              struct shmpi_coll_args *a);
int shmpi_coll_args_allgatherv(const char *fn, MPI_Comm comm,
                               const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               struct shmpi_coll_vec recvcounts,
                               struct shmpi_coll_vec displs,
                               MPI_Datatype recvtype,
                               struct shmpi_coll_args *a);
int shmpi_coll_args_alltoall(const char *fn, MPI_Comm comm,
                             const void *sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype,
                             struct shmpi_coll_args *a);
int shmpi_coll_args_alltoallv(
    const char *fn, MPI_Comm comm, const void *sendbuf,
    struct shmpi_coll_vec sendcounts, struct shmpi_coll_vec sdispls,
    MPI_Datatype sendtype, void *recvbuf, struct shmpi_coll_vec recvcounts,
    struct shmpi_coll_vec rdispls, MPI_Datatype recvtype,
    struct shmpi_coll_args *a);
int shmpi_coll_args_alltoallw(
    const char *fn, MPI_Comm comm, const void *sendbuf,
    struct shmpi_coll_vec sendcounts, struct shmpi_coll_vec sdispls,
    const MPI_Datatype sendtypes[], void *recvbuf,
    struct shmpi_coll_vec recvcounts, struct shmpi_coll_vec rdispls,
    const MPI_Datatype recvtypes[], struct shmpi_coll_args *a);

#endif
