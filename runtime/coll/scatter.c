/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scatter.c - MPI_Scatter and MPI_Scatterv: the root packs block i into
 * region i of its half (one region per member, xchg.c), member i
 * unpacks its region; larger blocks go in rounds
 * (xchg.c).  The root copies its own block directly, unless MPI_IN_PLACE
 * says it stays where it is.  On an intercommunicator, the schedule of
 * coll/iscatter.c.
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

SHMPI_WEAK_ALIAS(Scatter)
SHMPI_WEAK_ALIAS(Scatter_c)
SHMPI_WEAK_ALIAS(Scatterv)
SHMPI_WEAK_ALIAS(Scatterv_c)

static int copy_own(MPI_Comm comm, const struct shmpi_coll_blocks *from,
                    const struct shmpi_coll_block *to, const char *fn)
{
    struct shmpi_coll_block b;
    shmpi_coll_block_at(from, comm->rank, &b);
    uint64_t len = b.len < to->len ? b.len : to->len;
    shmpi_dt_copy_typed(to->buf, to->type, b.buf, b.type, len);
    if (b.len > to->len)
        return shmpi_raise(comm, MPI_ERR_TRUNCATE, fn,
                           "the root's own block (%llu bytes) does not fit "
                           "recvbuf (%llu bytes)", (unsigned long long)b.len,
                           (unsigned long long)to->len);
    return MPI_SUCCESS;
}

static int scatter(MPI_Comm comm, const struct shmpi_coll_args *a,
                   int uniform, const char *fn)
{
    struct shmpi_coll_xchg x = {
        .shape = SHMPI_XCHG_EACH, .writes = a->at_root,
        .readers = SHMPI_COLL_ALL,
        .sources = a->at_root ? SHMPI_COLL_NOBODY : a->root,
        .exact = uniform, .out = a->out, .in = a->in};
    int rc = comm->size > 1 ? shmpi_coll_move(comm, &x, a->root, fn) : MPI_SUCCESS;
    if (a->at_root && !a->in_place) {
        struct shmpi_coll_block mine;
        shmpi_coll_block_at(&a->in, 0, &mine);
        int own = copy_own(comm, &a->out, &mine, fn);
        if (rc == MPI_SUCCESS)
            rc = own;
    }
    return rc;
}

int shmpi_coll_args_scatter(const char *fn, MPI_Comm comm, const void *sendbuf,
                            MPI_Count sendcount, MPI_Datatype sendtype,
                            void *recvbuf, MPI_Count recvcount,
                            MPI_Datatype recvtype, int root,
                            struct shmpi_coll_args *a)
{
    int rc = shmpi_coll_args_rooted(fn, comm, root, recvbuf, recvcount,
                                    recvtype, "recvbuf", a, &a->in);
    if (rc != MPI_SUCCESS || !a->at_root)
        return shmpi_coll_order(fn, comm, rc, root, MPI_OP_NULL, recvcount,
                                recvtype);
    rc = shmpi_coll_check_data(fn, comm, sendbuf, sendcount, sendtype,
                               "sendbuf");
    if (rc == MPI_SUCCESS && !comm->is_inter && !a->in_place)
        rc = shmpi_coll_check_alias(
            fn, comm, sendbuf, recvbuf,
            sendcount > 0 && sendtype->size > 0 && recvcount > 0);
    if (rc == MPI_SUCCESS)
        a->out = (struct shmpi_coll_blocks){
            .base = (void *)sendbuf, .count = sendcount,
            .unit = sendtype->extent, .type = sendtype};
    return shmpi_coll_order(fn, comm, rc, root, MPI_OP_NULL, sendcount,
                            sendtype);
}

int shmpi_coll_args_scatterv(const char *fn, MPI_Comm comm,
                             const void *sendbuf,
                             struct shmpi_coll_vec sendcounts,
                             struct shmpi_coll_vec displs,
                             MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype,
                             int root, struct shmpi_coll_args *a)
{
    int rc = shmpi_coll_args_rooted(fn, comm, root, recvbuf, recvcount,
                                    recvtype, "recvbuf", a, &a->in);
    if (rc != MPI_SUCCESS || !a->at_root)
        return shmpi_coll_order(fn, comm, rc, root, MPI_OP_NULL, 0, NULL);
    rc = shmpi_coll_check_type(fn, comm, sendtype, "sendtype");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_blocks(fn, comm, sendbuf, sendcounts, displs,
                                     1, sendtype->extent, NULL, sendtype,
                                     "sendbuf");
    if (rc == MPI_SUCCESS)
        a->out = (struct shmpi_coll_blocks){
            .base = (void *)sendbuf, .counts = sendcounts, .displs = displs,
            .unit = sendtype->extent, .type = sendtype};
    return shmpi_coll_order(fn, comm, rc, root, MPI_OP_NULL, 0, NULL);
}

/* The blocking call once checked (rc), for both forms of both calls. */
static int run(MPI_Comm comm, int rc, const struct shmpi_coll_args *a,
               int uniform, const char *fn)
{
    if (rc != MPI_SUCCESS)
        return shmpi_coll_refuse_call(comm, rc, 0);
    if (comm->is_inter)
        return shmpi_nbc_blocking(comm, shmpi_nbc_data_scatter, a, fn);
    return scatter(comm, a, uniform, fn);
}

static int scatter_call(const char *fn, const void *sendbuf,
                        MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_scatter(fn, comm, sendbuf, sendcount, sendtype,
                                     recvbuf, recvcount, recvtype, root, &a);
    return run(comm, rc, &a, 1, fn);
}

/* wide: the arrays are the _c form's (vec.h) */
static int scatterv_call(const char *fn, int wide, const void *sendbuf,
                         const void *sendcounts, const void *displs,
                         MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_args a;
    int rc = shmpi_coll_args_scatterv(
        fn, comm, sendbuf, shmpi_coll_vec_of(sendcounts, wide),
        shmpi_coll_vec_of(displs, wide), sendtype, recvbuf, recvcount,
        recvtype, root, &a);
    return run(comm, rc, &a, 0, fn);
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
    return scatter_call("MPI_Scatter", sendbuf, sendcount, sendtype, recvbuf,
                        recvcount, recvtype, root, comm);
}

int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount,
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatter_call("MPI_Scatter_c", sendbuf, sendcount, sendtype,
                        recvbuf, recvcount, recvtype, root, comm);
}

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[],
                  const int displs[], MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm)
{
    return scatterv_call("MPI_Scatterv", 0, sendbuf, sendcounts, displs,
                         sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[],
                    const MPI_Aint displs[], MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int root, MPI_Comm comm)
{
    return scatterv_call("MPI_Scatterv_c", 1, sendbuf, sendcounts, displs,
                         sendtype, recvbuf, recvcount, recvtype, root, comm);
}
