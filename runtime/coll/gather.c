/*
 * gather.c - MPI_Gather and MPI_Gatherv: every member but the root packs
 * its block into its half (its control line up to 16 bytes); the root
 * unpacks each block where recvcounts and displs say, in rounds when
 * blocks are larger than a half (xchg.c).  The root copies its own block
 * directly, unless it is already in place.
 */
#include "coll/check.h"
#include "coll/xchg.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"

SHMPI_WEAK_ALIAS(Gather)
SHMPI_WEAK_ALIAS(Gatherv)

/* The root's own block, from its send buffer to its receive buffer. */
static int copy_own(MPI_Comm comm, const struct shmpi_coll_block *from,
                    const struct shmpi_coll_blocks *to, const char *fn)
{
    struct shmpi_coll_block b;
    shmpi_coll_block_at(to, comm->rank, &b);
    uint64_t len = from->len < b.len ? from->len : b.len;
    shmpi_copy_typed(b.buf, b.type, from->buf, from->type, len);
    if (from->len > b.len)
        return shmpi_raise(comm, MPI_ERR_TRUNCATE, fn,
                           "the root's own block (%llu bytes) does not fit "
                           "its receive block (%llu bytes)",
                           (unsigned long long)from->len,
                           (unsigned long long)b.len);
    return MPI_SUCCESS;
}

static int gather(MPI_Comm comm, const void *sendbuf, int sendcount,
                  MPI_Datatype sendtype, const struct shmpi_coll_blocks *in,
                  int root, const char *fn)
{
    int at_root = comm->rank == root;
    struct shmpi_coll_block mine = {0};
    if (sendbuf != MPI_IN_PLACE)
        mine = (struct shmpi_coll_block){
            (void *)sendbuf, sendcount, sendtype,
            (uint64_t)sendcount * (uint64_t)sendtype->size};
    struct shmpi_coll_xchg x = {
        .shape = SHMPI_XCHG_ONE, .writes = !at_root, .readers = root,
        .sources = at_root ? SHMPI_COLL_ALL : SHMPI_COLL_NOBODY,
        .mine = mine, .in = *in};
    int rc = comm->size > 1 ? shmpi_coll_move(comm, &x, fn) : MPI_SUCCESS;
    if (at_root && sendbuf != MPI_IN_PLACE) {
        int own = copy_own(comm, &mine, in, fn);
        if (rc == MPI_SUCCESS)
            rc = own;
    }
    return rc;
}

/* What every member checks: the communicator, the root, its send side. */
static int check_common(const char *fn, MPI_Comm comm, int root,
                        const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_root(fn, comm, root);
    if (rc != MPI_SUCCESS || (sendbuf == MPI_IN_PLACE && comm->rank == root))
        return rc;
    return shmpi_coll_check_data(fn, comm, sendbuf, sendcount, sendtype,
                                 "sendbuf");
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                MPI_Comm comm)
{
    static const char fn[] = "MPI_Gather";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_common(fn, comm, root, sendbuf, sendcount, sendtype);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_coll_blocks in = {0};
    if (comm->rank == root) {
        rc = shmpi_coll_check_data(fn, comm, recvbuf, recvcount, recvtype,
                                   "recvbuf");
        if (rc == MPI_SUCCESS && sendbuf != MPI_IN_PLACE)
            rc = shmpi_coll_check_alias(
                fn, comm, sendbuf, recvbuf,
                sendcount > 0 && sendtype->size > 0 && recvcount > 0);
        if (rc != MPI_SUCCESS)
            return rc;
        in = (struct shmpi_coll_blocks){.base = recvbuf, .count = recvcount,
                                        .unit = recvtype->extent,
                                        .type = recvtype};
    }
    return gather(comm, sendbuf, sendcount, sendtype, &in, root, fn);
}

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, const int recvcounts[], const int displs[],
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Gatherv";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_common(fn, comm, root, sendbuf, sendcount, sendtype);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_coll_blocks in = {0};
    if (comm->rank == root) {
        rc = shmpi_coll_check_type(fn, comm, recvtype, "recvtype");
        if (rc == MPI_SUCCESS)
            rc = shmpi_coll_check_blocks(fn, comm, recvbuf, recvcounts,
                                         displs, 1, recvtype->extent, NULL,
                                         recvtype, "recvbuf");
        if (rc != MPI_SUCCESS)
            return rc;
        in = (struct shmpi_coll_blocks){
            .base = recvbuf, .counts = recvcounts, .displs = displs,
            .unit = recvtype->extent, .type = recvtype};
    }
    return gather(comm, sendbuf, sendcount, sendtype, &in, root, fn);
}
