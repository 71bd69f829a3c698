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
 */
#include <limits.h>
#include <stdlib.h>

#include "coll/check.h"
#include "coll/xchg.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Alltoall)
SHMPI_WEAK_ALIAS(Alltoallv)
SHMPI_WEAK_ALIAS(Alltoallw)

/* Will the blocks leave in one round of the area? */
static int one_round(MPI_Comm comm, const struct shmpi_coll_blocks *b)
{
    if (!comm->coll || !shmpi_coll_xchg_fits(comm->coll, SHMPI_XCHG_EACH))
        return 0;
    uint64_t region =
        comm->coll->half / (uint64_t)comm->size / 64 * 64;
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
    int *counts = malloc((size_t)n * sizeof *counts);
    MPI_Datatype *types = malloc((size_t)n * sizeof *types);
    unsigned char *packed = NULL;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        struct shmpi_coll_block b;
        shmpi_coll_block_at(&x->in, i, &b);
        total += b.len;
    }
    packed = malloc(total ? total : 1);
    int *displs = malloc((size_t)n * sizeof *displs);
    if (!counts || !types || !packed || !displs) {
        rc = shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                         "no memory to copy MPI_IN_PLACE blocks aside");
        goto out;
    }
    uint64_t at = 0;
    for (int i = 0; i < n; i++) {
        struct shmpi_coll_block b;
        shmpi_coll_block_at(&x->in, i, &b);
        if (b.len > (uint64_t)INT_MAX || at > (uint64_t)INT_MAX) {
            rc = shmpi_raise(comm, MPI_ERR_COUNT, fn,
                             "MPI_IN_PLACE blocks beyond 2 GiB");
            goto out;
        }
        shmpi_pack(b.buf, b.type, 0, packed + at, b.len);
        counts[i] = (int)b.len;
        displs[i] = (int)at;
        types[i] = MPI_BYTE;
        at += b.len;
    }
    x->out = (struct shmpi_coll_blocks){.base = packed, .counts = counts,
                                        .displs = displs, .unit = 1,
                                        .types = types};
    rc = shmpi_coll_move(comm, x, fn);
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
    shmpi_copy_typed(to.buf, to.type, from.buf, from.type, len);
    if (from.len > to.len)
        return shmpi_raise(comm, MPI_ERR_TRUNCATE, fn,
                           "this rank's block to itself (%llu bytes) does "
                           "not fit its receive block (%llu bytes)",
                           (unsigned long long)from.len,
                           (unsigned long long)to.len);
    return MPI_SUCCESS;
}

static int alltoall(MPI_Comm comm, int in_place,
                    const struct shmpi_coll_blocks *out,
                    const struct shmpi_coll_blocks *in, int uniform,
                    const char *fn)
{
    struct shmpi_coll_xchg x = {
        .shape = SHMPI_XCHG_EACH, .writes = 1, .readers = SHMPI_COLL_ALL,
        .sources = SHMPI_COLL_ALL, .agreed = uniform, .exact = uniform,
        .out = in_place ? *in : *out, .in = *in};
    if (comm->size == 1)
        return in_place ? MPI_SUCCESS : copy_own(comm, &x, fn);
    if (in_place && !one_round(comm, in))
        return run_aside(comm, &x, fn);
    int rc = shmpi_coll_move(comm, &x, fn);
    if (in_place)
        return rc;
    int own = copy_own(comm, &x, fn);
    return rc != MPI_SUCCESS ? rc : own;
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm)
{
    static const char fn[] = "MPI_Alltoall";
    SHMPI_REQUIRE_INIT(fn);
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS && !in_place)
        rc = shmpi_coll_check_data(fn, comm, sendbuf, sendcount, sendtype,
                                   "sendbuf");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_data(fn, comm, recvbuf, recvcount, recvtype,
                                   "recvbuf");
    if (rc == MPI_SUCCESS && !in_place)
        rc = shmpi_coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    sendcount > 0 && sendtype->size > 0);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_coll_blocks out = {0};
    if (!in_place)
        out = (struct shmpi_coll_blocks){
            .base = (void *)sendbuf, .count = sendcount,
            .unit = sendtype->extent, .type = sendtype};
    struct shmpi_coll_blocks in = {.base = recvbuf, .count = recvcount,
                                   .unit = recvtype->extent,
                                   .type = recvtype};
    return alltoall(comm, in_place, &out, &in, 1, fn);
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    static const char fn[] = "MPI_Alltoallv";
    SHMPI_REQUIRE_INIT(fn);
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS && !in_place)
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
        return rc;
    struct shmpi_coll_blocks out = {0};
    if (!in_place)
        out = (struct shmpi_coll_blocks){
            .base = (void *)sendbuf, .counts = sendcounts, .displs = sdispls,
            .unit = sendtype->extent, .type = sendtype};
    struct shmpi_coll_blocks in = {.base = recvbuf, .counts = recvcounts,
                                   .displs = rdispls,
                                   .unit = recvtype->extent,
                                   .type = recvtype};
    return alltoall(comm, in_place, &out, &in, 0, fn);
}

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    static const char fn[] = "MPI_Alltoallw";
    SHMPI_REQUIRE_INIT(fn);
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS && !in_place && !sendtypes)
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
        return rc;
    struct shmpi_coll_blocks out = {0};
    if (!in_place)
        out = (struct shmpi_coll_blocks){
            .base = (void *)sendbuf, .counts = sendcounts, .displs = sdispls,
            .unit = 1, .types = sendtypes};
    struct shmpi_coll_blocks in = {.base = recvbuf, .counts = recvcounts,
                                   .displs = rdispls, .unit = 1,
                                   .types = recvtypes};
    return alltoall(comm, in_place, &out, &in, 0, fn);
}
