/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * alltoall.c - MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw: every
 * member packs block d of its send side into region d of its half and
 * unpacks region r of every other member's half into block j of its
 * receive side; larger blocks go in rounds (xchg.c).  Its own block is
 * copied directly.
 *
 * MPI_IN_PLACE: the blocks go out of recvbuf and come back into it.  In a
 * single round on the area that is safe as it is - every block is packed
 * into the area before any arrives.  Otherwise (rounds, or messages) the
 * outgoing blocks are first copied aside, each with its own type.
 *
 * On an intercommunicator, the schedule of coll/ialltoall.c.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include <stdlib.h>

#include "coll/args.h"
#include "coll/check.h"
#include "coll/xchg.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"
#include "coll/data.h"

SHMPI_WEAK_ALIAS(Alltoall)
SHMPI_WEAK_ALIAS(Alltoall_c)
SHMPI_WEAK_ALIAS(Alltoallv)
SHMPI_WEAK_ALIAS(Alltoallv_c)
SHMPI_WEAK_ALIAS(Alltoallw)
SHMPI_WEAK_ALIAS(Alltoallw_c)

/* Will the blocks leave in one round of the area? */
static int one_round(MPI_Comm comm, const struct shmpi_coll_blocks *b)
{
    if (!comm->coll || !shmpi_coll_xchg_fits(comm->coll, SHMPI_XCHG_EACH))
        return 0;
    uint64_t region = shmpi_coll_xchg_region(comm->coll);
    for (int i = 0; i < comm->size; i++) {
        struct shmpi_coll_block blk;
        shmpi_coll_block_at(b, i, &blk);
        if (blk.len > region)
            return 0;
    }
    return 1;
}

/* Run with the outgoing blocks packed aside first; they go out as bytes
   (packed bytes are the data of the type signature, which is all the
   receiver's type has to match). */
static int run_aside(MPI_Comm comm, struct shmpi_coll_xchg *x,
                     const char *fn)
{
    int n = comm->size, rc;
    MPI_Count *counts = malloc((size_t)n * sizeof *counts);
    MPI_Datatype *types = malloc((size_t)n * sizeof *types);
    unsigned char *packed = NULL;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        struct shmpi_coll_block b;
        shmpi_coll_block_at(&x->in, i, &b);
        total += b.len;
    }
    packed = malloc(total ? total : 1);
    MPI_Aint *displs = malloc((size_t)n * sizeof *displs);
    if (!counts || !types || !packed || !displs) {
        rc = shmpi_coll_refuse_call(
            comm,
            shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                        "no memory to copy MPI_IN_PLACE blocks aside"),
            0);
        goto out;
    }
    uint64_t at = 0;
    for (int i = 0; i < n; i++) {
        struct shmpi_coll_block b;
        shmpi_coll_block_at(&x->in, i, &b);
        shmpi_dt_pack(b.buf, b.type, 0, packed + at, b.len);
        counts[i] = (MPI_Count)b.len;
        displs[i] = (MPI_Aint)at;
        types[i] = MPI_BYTE;
        at += b.len;
    }
    x->out = (struct shmpi_coll_blocks){.base = packed,
                                        .counts = shmpi_coll_counts_c(counts),
                                        .displs = shmpi_coll_aints(displs),
                                        .unit = 1,
                                        .types = types};
    rc = shmpi_coll_move(comm, x, -1, fn);
out:
    free(counts);
    free(types);
    free(packed);
    free(displs);
    return rc;
}

static int copy_own(MPI_Comm comm, const struct shmpi_coll_xchg *x,
                    const char *fn)
{
    struct shmpi_coll_block from, to;
    shmpi_coll_block_at(&x->out, comm->rank, &from);
    shmpi_coll_block_at(&x->in, comm->rank, &to);
    uint64_t len = from.len < to.len ? from.len : to.len;
    shmpi_dt_copy_typed(to.buf, to.type, from.buf, from.type, len);
    if (from.len > to.len)
        return shmpi_raise(comm, MPI_ERR_TRUNCATE, fn,
                           "this rank's block to itself (%llu bytes) does "
                           "not fit its receive block (%llu bytes)",
                           (unsigned long long)from.len,
                           (unsigned long long)to.len);
    return MPI_SUCCESS;
}

static int alltoall(MPI_Comm comm, const struct shmpi_coll_args *a,
                    int uniform, const char *fn)
{
    struct shmpi_coll_xchg x = {
        .shape = SHMPI_XCHG_EACH, .writes = 1, .readers = SHMPI_COLL_ALL,
        .sources = SHMPI_COLL_ALL, .agreed = uniform, .exact = uniform,
        .out = a->out, .in = a->in};
    if (comm->size == 1)
        return a->in_place ? MPI_SUCCESS : copy_own(comm, &x, fn);
    if (a->in_place && !one_round(comm, &a->in))
        return run_aside(comm, &x, fn);
    int rc = shmpi_coll_move(comm, &x, -1, fn);
    if (a->in_place)
        return rc;
    int own = copy_own(comm, &x, fn);
    return rc != MPI_SUCCESS ? rc : own;
}

/* A fresh description of the call; returns its in_place: MPI_IN_PLACE,
   the blocks leave from recvbuf (never on an intercommunicator, where
   the send side is then checked, and refused, like any buffer). */
static int fresh_args(MPI_Comm comm, const void *sendbuf,
                      struct shmpi_coll_args *a)
{
    *a = (struct shmpi_coll_args){
        .in_place = sendbuf == MPI_IN_PLACE && !comm->is_inter};
    return a->in_place;
}

int shmpi_coll_args_alltoall(const char *fn, MPI_Comm comm,
                             const void *sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype,
                             struct shmpi_coll_args *a)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, MPI_OP_NULL,
                                0, NULL);
    int in_place = fresh_args(comm, sendbuf, a);
    if (!in_place)
        rc = shmpi_coll_check_data(fn, comm, sendbuf, sendcount, sendtype,
                                   "sendbuf");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_data(fn, comm, recvbuf, recvcount, recvtype,
                                   "recvbuf");
    if (rc == MPI_SUCCESS && !in_place)
        rc = shmpi_coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    sendcount > 0 && sendtype->size > 0);
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, MPI_OP_NULL,
                                0, NULL);
    a->in = (struct shmpi_coll_blocks){.base = recvbuf, .count = recvcount,
                                       .unit = recvtype->extent,
                                       .type = recvtype};
    a->out = in_place ? a->in
                      : (struct shmpi_coll_blocks){
                            .base = (void *)sendbuf, .count = sendcount,
                            .unit = sendtype->extent, .type = sendtype};
    return shmpi_coll_order(fn, comm, MPI_SUCCESS, SHMPI_ORDER_NO_ROOT,
                            MPI_OP_NULL, recvcount, recvtype);
}

int shmpi_coll_args_alltoallv(const char *fn, MPI_Comm comm,
                              const void *sendbuf,
                              struct shmpi_coll_vec sendcounts,
                              struct shmpi_coll_vec sdispls,
                              MPI_Datatype sendtype, void *recvbuf,
                              struct shmpi_coll_vec recvcounts,
                              struct shmpi_coll_vec rdispls,
                              MPI_Datatype recvtype, struct shmpi_coll_args *a)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, MPI_OP_NULL,
                                0, NULL);
    int in_place = fresh_args(comm, sendbuf, a);
    if (!in_place)
        rc = shmpi_coll_check_type(fn, comm, sendtype, "sendtype");
    if (rc == MPI_SUCCESS && !in_place)
        rc = shmpi_coll_check_blocks(fn, comm, sendbuf, sendcounts, sdispls,
                                     1, sendtype->extent, NULL, sendtype,
                                     "sendbuf");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_type(fn, comm, recvtype, "recvtype");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_blocks(fn, comm, recvbuf, recvcounts, rdispls,
                                     1, recvtype->extent, NULL, recvtype,
                                     "recvbuf");
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, MPI_OP_NULL,
                                0, NULL);
    a->in = (struct shmpi_coll_blocks){.base = recvbuf, .counts = recvcounts,
                                       .displs = rdispls,
                                       .unit = recvtype->extent,
                                       .type = recvtype};
    a->out = in_place ? a->in
                      : (struct shmpi_coll_blocks){
                            .base = (void *)sendbuf, .counts = sendcounts,
                            .displs = sdispls, .unit = sendtype->extent,
                            .type = sendtype};
    return shmpi_coll_order(fn, comm, MPI_SUCCESS, SHMPI_ORDER_NO_ROOT,
                            MPI_OP_NULL, 0, NULL);
}

int shmpi_coll_args_alltoallw(
    const char *fn, MPI_Comm comm, const void *sendbuf,
    struct shmpi_coll_vec sendcounts, struct shmpi_coll_vec sdispls,
    const MPI_Datatype sendtypes[], void *recvbuf,
    struct shmpi_coll_vec recvcounts, struct shmpi_coll_vec rdispls,
    const MPI_Datatype recvtypes[], struct shmpi_coll_args *a)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, MPI_OP_NULL,
                                0, NULL);
    int in_place = fresh_args(comm, sendbuf, a);
    if (!in_place && !sendtypes)
        rc = shmpi_raise(comm, MPI_ERR_ARG, fn, "sendtypes is NULL");
    if (rc == MPI_SUCCESS && !in_place)
        rc = shmpi_coll_check_blocks(fn, comm, sendbuf, sendcounts, sdispls,
                                     1, 1, sendtypes, NULL, "sendbuf");
    if (rc == MPI_SUCCESS && !recvtypes)
        rc = shmpi_raise(comm, MPI_ERR_ARG, fn, "recvtypes is NULL");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_blocks(fn, comm, recvbuf, recvcounts, rdispls,
                                     1, 1, recvtypes, NULL, "recvbuf");
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, MPI_OP_NULL,
                                0, NULL);
    a->in = (struct shmpi_coll_blocks){.base = recvbuf, .counts = recvcounts,
                                       .displs = rdispls, .unit = 1,
                                       .types = recvtypes};
    a->out = in_place ? a->in
                      : (struct shmpi_coll_blocks){
                            .base = (void *)sendbuf, .counts = sendcounts,
                            .displs = sdispls, .unit = 1,
                            .types = sendtypes};
    return shmpi_coll_order(fn, comm, MPI_SUCCESS, SHMPI_ORDER_NO_ROOT,
                            MPI_OP_NULL, 0, NULL);
}

/* The blocking call once checked (rc), for both forms of the three
   calls. */
static int run(MPI_Comm comm, int rc, const struct shmpi_coll_args *a,
               int uniform, const char *fn)
{
    if (rc != MPI_SUCCESS)
        return shmpi_coll_refuse_call(comm, rc, 0);
    if (comm->is_inter)
        return shmpi_nbc_blocking(comm, shmpi_nbc_data_alltoall, a, fn);
    return alltoall(comm, a, uniform, fn);
}

static int alltoall_call(const char *fn, const void *sendbuf,
                         MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoall(fn, comm, sendbuf, sendcount, sendtype,
                                      recvbuf, recvcount, recvtype, &a);
    return run(comm, rc, &a, 1, fn);
}

/* wide: the arrays are the _c form's (vec.h) */
static int alltoallv_call(const char *fn, int wide, const void *sendbuf,
                          const void *sendcounts, const void *sdispls,
                          MPI_Datatype sendtype, void *recvbuf,
                          const void *recvcounts, const void *rdispls,
                          MPI_Datatype recvtype, MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoallv(
        fn, comm, sendbuf, shmpi_coll_vec_of(sendcounts, wide),
        shmpi_coll_vec_of(sdispls, wide), sendtype, recvbuf,
        shmpi_coll_vec_of(recvcounts, wide), shmpi_coll_vec_of(rdispls, wide),
        recvtype, &a);
    return run(comm, rc, &a, 0, fn);
}

/* wide: the arrays are the _c form's (vec.h) */
static int alltoallw_call(const char *fn, int wide, const void *sendbuf,
                          const void *sendcounts, const void *sdispls,
                          const MPI_Datatype sendtypes[], void *recvbuf,
                          const void *recvcounts, const void *rdispls,
                          const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_alltoallw(
        fn, comm, sendbuf, shmpi_coll_vec_of(sendcounts, wide),
        shmpi_coll_vec_of(sdispls, wide), sendtypes, recvbuf,
        shmpi_coll_vec_of(recvcounts, wide), shmpi_coll_vec_of(rdispls, wide),
        recvtypes, &a);
    return run(comm, rc, &a, 0, fn);
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm)
{
    return alltoall_call("MPI_Alltoall", sendbuf, sendcount, sendtype,
                         recvbuf, recvcount, recvtype, comm);
}

int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_call("MPI_Alltoall_c", sendbuf, sendcount, sendtype,
                         recvbuf, recvcount, recvtype, comm);
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoallv_call("MPI_Alltoallv", 0, sendbuf, sendcounts, sdispls,
                          sendtype, recvbuf, recvcounts, rdispls, recvtype,
                          comm);
}

int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint sdispls[], MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    return alltoallv_call("MPI_Alltoallv_c", 1, sendbuf, sendcounts, sdispls,
                          sendtype, recvbuf, recvcounts, rdispls, recvtype,
                          comm);
}

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoallw_call("MPI_Alltoallw", 0, sendbuf, sendcounts, sdispls,
                          sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                          comm);
}

int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                     void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                     MPI_Comm comm)
{
    return alltoallw_call("MPI_Alltoallw_c", 1, sendbuf, sendcounts, sdispls,
                          sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                          comm);
}
