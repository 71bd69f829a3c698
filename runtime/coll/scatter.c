/*
 * scatter.c - MPI_Scatter and MPI_Scatterv: the root packs block i into
 * region i of its half (regions of a half, 64-byte aligned, one per
 * member), member i unpacks its region; larger blocks go in rounds
 * (xchg.c).  The root copies its own block directly, unless MPI_IN_PLACE
 * says it stays where it is.
 */
#include "coll/check.h"
#include "coll/xchg.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Scatter)
SHMPI_WEAK_ALIAS(Scatterv)

static int copy_own(MPI_Comm comm, const struct shmpi_coll_blocks *from,
                    const struct shmpi_coll_block *to, const char *fn)
{
    struct shmpi_coll_block b;
    shmpi_coll_block_at(from, comm->rank, &b);
    uint64_t len = b.len < to->len ? b.len : to->len;
    shmpi_copy_typed(to->buf, to->type, b.buf, b.type, len);
    if (b.len > to->len)
        return shmpi_raise(comm, MPI_ERR_TRUNCATE, fn,
                           "the root's own block (%llu bytes) does not fit "
                           "recvbuf (%llu bytes)", (unsigned long long)b.len,
                           (unsigned long long)to->len);
    return MPI_SUCCESS;
}

static int scatter(MPI_Comm comm, const struct shmpi_coll_blocks *out,
                   int uniform, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, int root, const char *fn)
{
    int at_root = comm->rank == root;
    struct shmpi_coll_block mine = {0};
    if (recvbuf != MPI_IN_PLACE)
        mine = (struct shmpi_coll_block){
            recvbuf, recvcount, recvtype,
            (uint64_t)recvcount * (uint64_t)recvtype->size};
    struct shmpi_coll_xchg x = {
        .shape = SHMPI_XCHG_EACH, .writes = at_root,
        .readers = SHMPI_COLL_ALL,
        .sources = at_root ? SHMPI_COLL_NOBODY : root, .exact = uniform,
        .out = *out,
        .in = shmpi_coll_one_block(mine.buf, mine.count, mine.type)};
    int rc = comm->size > 1 ? shmpi_coll_move(comm, &x, fn) : MPI_SUCCESS;
    if (at_root && recvbuf != MPI_IN_PLACE) {
        int own = copy_own(comm, out, &mine, fn);
        if (rc == MPI_SUCCESS)
            rc = own;
    }
    return rc;
}

/* The communicator, the root and the receive side (every member but a
   root receiving in place). */
static int check_common(const char *fn, MPI_Comm comm, int root,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_root(fn, comm, root);
    if (rc != MPI_SUCCESS || (recvbuf == MPI_IN_PLACE && comm->rank == root))
        return rc;
    return shmpi_coll_check_data(fn, comm, recvbuf, recvcount, recvtype,
                                 "recvbuf");
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Scatter";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_common(fn, comm, root, recvbuf, recvcount, recvtype);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_coll_blocks out = {0};
    if (comm->rank == root) {
        rc = shmpi_coll_check_data(fn, comm, sendbuf, sendcount, sendtype,
                                   "sendbuf");
        if (rc == MPI_SUCCESS && recvbuf != MPI_IN_PLACE)
            rc = shmpi_coll_check_alias(
                fn, comm, sendbuf, recvbuf,
                sendcount > 0 && sendtype->size > 0 && recvcount > 0);
        if (rc != MPI_SUCCESS)
            return rc;
        out = (struct shmpi_coll_blocks){
            .base = (void *)sendbuf, .count = sendcount,
            .unit = sendtype->extent, .type = sendtype};
    }
    return scatter(comm, &out, 1, recvbuf, recvcount, recvtype, root, fn);
}

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[],
                  const int displs[], MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm)
{
    static const char fn[] = "MPI_Scatterv";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_common(fn, comm, root, recvbuf, recvcount, recvtype);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_coll_blocks out = {0};
    if (comm->rank == root) {
        rc = shmpi_coll_check_type(fn, comm, sendtype, "sendtype");
        if (rc == MPI_SUCCESS)
            rc = shmpi_coll_check_blocks(fn, comm, sendbuf, sendcounts,
                                         displs, 1, sendtype->extent, NULL,
                                         sendtype, "sendbuf");
        if (rc != MPI_SUCCESS)
            return rc;
        out = (struct shmpi_coll_blocks){
            .base = (void *)sendbuf, .counts = sendcounts, .displs = displs,
            .unit = sendtype->extent, .type = sendtype};
    }
    return scatter(comm, &out, 0, recvbuf, recvcount, recvtype, root, fn);
}
