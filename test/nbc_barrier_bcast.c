/* nbc_barrier_bcast: MPI_Ibarrier really waits for everyone (shared-file records), completed by Wait and by Test loops; MPI_Ibcast of int, double, vector and struct types from every root, zero counts, several MiB, many in flight at once, on world and a split; errors (same classes as the blocking calls). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "coll_types.h"

static int rank, size;

/* MPI_Test until done, then the request is MPI_REQUEST_NULL. */
static void test_until_done(MPI_Request *req)
{
    int flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
    CHECK(*req == MPI_REQUEST_NULL, "a completed request is not freed");
}

/* One Ibarrier, completed by MPI_Wait or by MPI_Test in turn. */
static int ibarrier(MPI_Comm comm, int round)
{
    MPI_Request req;
    int rc = MPI_Ibarrier(comm, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    if (round % 2)
        test_until_done(&req);
    else
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    return rc;
}

static void ibcast_one(MPI_Comm comm, const struct ttype *tt, long count,
                       int root, int seed)
{
    int me;
    CHECK_MPI(MPI_Comm_rank(comm, &me));
    void *buf = tt_alloc(tt, count + 1);
    if (me == root)
        tt_fill(tt, buf, 0, count, seed);
    MPI_Request req;
    CHECK_MPI(MPI_Ibcast(buf, (int)count, tt->t, root, comm, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    char ctx[64];
    snprintf(ctx, sizeof ctx, "ibcast of %ld from %d", count, root);
    tt_expect(tt, buf, 0, count, seed, 0, ctx);
    CHECK(tt_untouched(tt, buf, count, 1), "%s: written past count %ld",
          tt->name, count);
    free(buf);
}

/* Many broadcasts outstanding at once, from different roots, of
   different types; completed in one Waitall. */
static void ibcast_many(void)
{
    enum { N = 24 };
    MPI_Request reqs[N];
    void *bufs[N];
    for (int i = 0; i < N; i++) {
        const struct ttype *tt = &tt_all[i % NTYPES];
        long count = 1 + (i * 37) % 200;
        int root = (i * 5) % size;
        bufs[i] = tt_alloc(tt, count);
        if (rank == root)
            tt_fill(tt, bufs[i], 0, count, 900 + i);
        CHECK_MPI(MPI_Ibcast(bufs[i], (int)count, tt->t, root,
                             MPI_COMM_WORLD, &reqs[i]));
    }
    CHECK_MPI(MPI_Waitall(N, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < N; i++) {
        const struct ttype *tt = &tt_all[i % NTYPES];
        long count = 1 + (i * 37) % 200;
        char ctx[64];
        snprintf(ctx, sizeof ctx, "ibcast %d of many", i);
        tt_expect(tt, bufs[i], 0, count, 900 + i, 0, ctx);
        free(bufs[i]);
    }
}

static void errors(void)
{
    int x = 0;
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Ibarrier(MPI_COMM_NULL, &req), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Ibcast(&x, 1, MPI_INT, size, comm, &req), MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Ibcast(&x, 1, MPI_INT, -1, comm, &req), MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Ibcast(&x, -1, MPI_INT, 0, comm, &req), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Ibcast(&x, 1, MPI_DATATYPE_NULL, 0, comm, &req),
                MPI_ERR_TYPE);
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &loose));
    CHECK_CLASS(MPI_Ibcast(&x, 1, loose, 0, comm, &req), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&loose));
    CHECK_CLASS(MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_NULL, &req),
                MPI_ERR_COMM);
    CHECK(req == MPI_REQUEST_NULL, "a failed call set the request");
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    tt_init();

    check_barrier_with(MPI_COMM_WORLD, "nbc_ibarrier", size > 8 ? 8 : 24,
                       ibarrier);

    long counts[] = {0, 1, 3, 100, 5000};
    for (int k = 0; k < NTYPES; k++)
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int root = 0; root < size; root++)
                ibcast_one(MPI_COMM_WORLD, &tt_all[k], counts[c], root,
                           (int)(k * 100 + c * 10 + root));

    /* several MiB: messages far above the eager size */
    long big = size > 8 ? 300000 : 1200000;
    ibcast_one(MPI_COMM_WORLD, &tt_all[0], big, size - 1, 7);
    ibcast_one(MPI_COMM_WORLD, &tt_all[2], big / 3, 0, 8);

    ibcast_many();

    /* on the halves of a split */
    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
    int hsize;
    CHECK_MPI(MPI_Comm_size(half, &hsize));
    check_barrier_with(half,
                       rank % 2 ? "nbc_ibarrier_odd" : "nbc_ibarrier_even", 6,
                       ibarrier);
    for (int root = 0; root < hsize; root++)
        for (int k = 0; k < NTYPES; k++)
            ibcast_one(half, &tt_all[k], 777, root, 31 * root + k + rank % 2);
    CHECK_MPI(MPI_Comm_free(&half));

    errors();
    tt_free();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
