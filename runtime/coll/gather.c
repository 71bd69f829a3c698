/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gather.c - MPI_Gather and MPI_Gatherv: every member but the root packs
 * its block into its half (its control line up to 16 bytes); the root
 * unpacks each block where recvcounts and displs say, in rounds when
 * blocks are larger than a half (xchg.c).  The root copies its own block
 * directly, unless it is already in place.  On an intercommunicator, the
 * schedule of coll/igather.c.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "coll/args.h"
#include "coll/check.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"
#include "coll/data.h"

SHMPI_WEAK_ALIAS(Gather)
SHMPI_WEAK_ALIAS(Gatherv)
SHMPI_WEAK_ALIAS(Gather_c)
SHMPI_WEAK_ALIAS(Gatherv_c)

/* The root's own block, from its send buffer to its receive buffer. */
static int copy_own(MPI_Comm comm, const struct shmpi_coll_block *from,
                    const struct shmpi_coll_blocks *to, const char *fn)
{
    struct shmpi_coll_block b;
    shmpi_coll_block_at(to, comm->rank, &b);
    uint64_t len = from->len < b.len ? from->len : b.len;
    shmpi_dt_copy_typed(b.buf, b.type, from->buf, from->type, len);
    if (from->len > b.len)
        return shmpi_raise(comm, MPI_ERR_TRUNCATE, fn,
                           "the root's own block (%llu bytes) does not fit "
                           "its receive block (%llu bytes)",
                           (unsigned long long)from->len,
                           (unsigned long long)b.len);
    return MPI_SUCCESS;
}

static int gather(MPI_Comm comm, const struct shmpi_coll_args *a,
                  const char *fn)
{
    struct shmpi_coll_block mine = {0};
    if (!a->in_place)
        shmpi_coll_block_at(&a->out, 0, &mine);
    struct shmpi_coll_xchg x = {
        .shape = SHMPI_XCHG_ONE, .writes = !a->at_root, .readers = a->root,
        .sources = a->at_root ? SHMPI_COLL_ALL : SHMPI_COLL_NOBODY,
        .mine = mine, .in = a->in};
    int rc = comm->size > 1 ? shmpi_coll_move(comm, &x, a->root, fn) : MPI_SUCCESS;
    if (a->at_root && !a->in_place) {
        int own = copy_own(comm, &mine, &a->in, fn);
        if (rc == MPI_SUCCESS)
            rc = own;
    }
    return rc;
}

int shmpi_coll_args_gather(const char *fn, MPI_Comm comm, const void *sendbuf,
                           MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, MPI_Count recvcount,
                           MPI_Datatype recvtype, int root,
                           struct shmpi_coll_args *a)
{
    int rc = shmpi_coll_args_rooted(fn, comm, root, sendbuf, sendcount,
                                    sendtype, "sendbuf", a, &a->out);
    if (rc != MPI_SUCCESS || !a->at_root)
        return shmpi_coll_order(fn, comm, rc, root, MPI_OP_NULL, sendcount,
                                sendtype);
    rc = shmpi_coll_check_data(fn, comm, recvbuf, recvcount, recvtype,
                               "recvbuf");
    if (rc == MPI_SUCCESS && !comm->is_inter && !a->in_place)
        rc = shmpi_coll_check_alias(
            fn, comm, sendbuf, recvbuf,
            sendcount > 0 && sendtype->size > 0 && recvcount > 0);
    if (rc == MPI_SUCCESS)
        a->in = (struct shmpi_coll_blocks){.base = recvbuf,
                                           .count = recvcount,
                                           .unit = recvtype->extent,
                                           .type = recvtype};
    return shmpi_coll_order(fn, comm, rc, root, MPI_OP_NULL, recvcount,
                            recvtype);
}

int shmpi_coll_args_gatherv(const char *fn, MPI_Comm comm, const void *sendbuf,
                            MPI_Count sendcount, MPI_Datatype sendtype,
                            void *recvbuf, struct shmpi_coll_vec recvcounts,
                            struct shmpi_coll_vec displs,
                            MPI_Datatype recvtype, int root,
                            struct shmpi_coll_args *a)
{
    int rc = shmpi_coll_args_rooted(fn, comm, root, sendbuf, sendcount,
                                    sendtype, "sendbuf", a, &a->out);
    if (rc != MPI_SUCCESS || !a->at_root)
        return shmpi_coll_order(fn, comm, rc, root, MPI_OP_NULL, 0, NULL);
    rc = shmpi_coll_check_type(fn, comm, recvtype, "recvtype");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_blocks(fn, comm, recvbuf, recvcounts, displs,
                                     1, recvtype->extent, NULL, recvtype,
                                     "recvbuf");
    if (rc == MPI_SUCCESS)
        a->in = (struct shmpi_coll_blocks){
            .base = recvbuf, .counts = recvcounts, .displs = displs,
            .unit = recvtype->extent, .type = recvtype};
    return shmpi_coll_order(fn, comm, rc, root, MPI_OP_NULL, 0, NULL);
}

/* The blocking call once checked (rc), for both forms of both calls. */
static int run(MPI_Comm comm, int rc, const struct shmpi_coll_args *a,
               const char *fn)
{
    if (rc != MPI_SUCCESS)
        return shmpi_coll_refuse_call(comm, rc, 0);
    if (comm->is_inter)
        return shmpi_nbc_blocking(comm, shmpi_nbc_data_gather, a, fn);
    return gather(comm, a, fn);
}

static int gather_call(const char *fn, const void *sendbuf,
                       MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_gather(fn, comm, sendbuf, sendcount, sendtype,
                                    recvbuf, recvcount, recvtype, root, &a);
    return run(comm, rc, &a, fn);
}

/* wide: the arrays are the _c form's (vec.h) */
static int gatherv_call(const char *fn, int wide, const void *sendbuf,
                        MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const void *recvcounts,
                        const void *displs, MPI_Datatype recvtype, int root,
                        MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_gatherv(
        fn, comm, sendbuf, sendcount, sendtype, recvbuf,
        shmpi_coll_vec_of(recvcounts, wide), shmpi_coll_vec_of(displs, wide),
        recvtype, root, &a);
    return run(comm, rc, &a, fn);
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                MPI_Comm comm)
{
    return gather_call("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, root, comm);
}

int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount,
                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather_call("MPI_Gather_c", sendbuf, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, root, comm);
}

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, const int recvcounts[], const int displs[],
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gatherv_call("MPI_Gatherv", 0, sendbuf, sendcount, sendtype,
                        recvbuf, recvcounts, displs, recvtype, root, comm);
}

int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount,
                   MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[],
                   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gatherv_call("MPI_Gatherv_c", 1, sendbuf, sendcount, sendtype,
                        recvbuf, recvcounts, displs, recvtype, root, comm);
}
