/* nbc_gather_scatter: MPI_Igather, Igatherv, Iscatter and Iscatterv of int, double, vector and struct types with every root, uneven and zero counts, displacements out of order, MPI_IN_PLACE at the root, blocks of several MiB, several outstanding at once; completed by Wait and Test loops; errors (same classes as the blocking calls). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "coll_types.h"

static int rank, size, calls;

/* Every other request is completed by polling MPI_Test. */
static void complete(MPI_Request *req)
{
    int flag = 0;
    if (calls++ % 2) {
        CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
        return;
    }
    while (!flag)
        CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
}

/* Blocks of the v forms: count of rank r and where it goes (elements),
   laid out backwards with a gap of 3 elements after each. */
static int vcount(int r, int scale) { return ((r * 5 + 3) % 7) * scale; }

static long vlayout(int *counts, int *displs, int scale)
{
    long total = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = vcount(r, scale);
        displs[r] = (int)total;
        total += counts[r] + 3;
    }
    return total;
}

static void igather(const struct ttype *tt, int root, long count,
                    int in_place)
{
    int seed = 50 + rank, inp = rank == root && in_place;
    void *send = tt_alloc(tt, count);
    tt_fill(tt, send, 0, count, seed);
    void *recv = tt_alloc(tt, count * size + 1);
    if (inp)
        tt_fill(tt, recv, count * rank, count, seed);
    MPI_Request req;
    CHECK_MPI(MPI_Igather(inp ? MPI_IN_PLACE : send, (int)count, tt->t,
                          recv, (int)count, tt->t, root, MPI_COMM_WORLD,
                          &req));
    complete(&req);
    if (rank == root) {
        char ctx[64];
        snprintf(ctx, sizeof ctx, "igather of %ld to %d", count, root);
        tt_expect_blocks(tt, recv, size, count, 50, 1, ctx);
    }
    free(send);
    free(recv);
}

static void igatherv(const struct ttype *tt, int root, int scale,
                     int in_place)
{
    int *counts = malloc(2 * sizeof(int) * (size_t)size), *displs;
    CHECK(counts, "out of memory");
    displs = counts + size;
    long total = vlayout(counts, displs, scale);
    int mine = counts[rank], seed = 1000 + rank * 17 + scale;
    int inp = rank == root && in_place;
    void *send = tt_alloc(tt, mine), *recv = tt_alloc(tt, total);
    tt_fill(tt, send, 0, mine, seed);
    if (inp)
        tt_fill(tt, recv, displs[rank], mine, seed);
    MPI_Request req;
    CHECK_MPI(MPI_Igatherv(inp ? MPI_IN_PLACE : send, mine, tt->t, recv,
                           counts, displs, tt->t, root, MPI_COMM_WORLD,
                           &req));
    complete(&req);
    if (rank == root) {
        char ctx[64];
        snprintf(ctx, sizeof ctx, "igatherv to %d, scale %d", root, scale);
        tt_expect_vblocks(tt, recv, size, counts, displs, 3, 1000 + scale,
                          17, ctx);
    }
    free(send);
    free(recv);
    free(counts);
}

static void iscatter(const struct ttype *tt, int root, long count,
                     int in_place)
{
    int inp = rank == root && in_place;
    void *send = tt_alloc(tt, count * size), *recv = tt_alloc(tt, count + 1);
    if (rank == root)
        for (int r = 0; r < size; r++)
            tt_fill(tt, send, count * r, count, 300 + r);
    MPI_Request req;
    CHECK_MPI(MPI_Iscatter(send, (int)count, tt->t,
                           inp ? MPI_IN_PLACE : recv, (int)count, tt->t,
                           root, MPI_COMM_WORLD, &req));
    complete(&req);
    char ctx[64];
    snprintf(ctx, sizeof ctx, "iscatter of %ld from %d", count, root);
    if (inp) {
        tt_expect(tt, send, count * rank, count, 300 + rank, 0, ctx);
        CHECK(tt_untouched(tt, recv, 0, count + 1), "%s: recvbuf written",
              ctx);
    } else {
        tt_expect(tt, recv, 0, count, 300 + rank, 0, ctx);
        CHECK(tt_untouched(tt, recv, count, 1), "%s: written past the end",
              ctx);
    }
    free(send);
    free(recv);
}

static void iscatterv(const struct ttype *tt, int root, int scale,
                      int in_place)
{
    int *counts = malloc(2 * sizeof(int) * (size_t)size), *displs;
    CHECK(counts, "out of memory");
    displs = counts + size;
    long total = vlayout(counts, displs, scale);
    int mine = counts[rank], inp = rank == root && in_place;
    void *send = tt_alloc(tt, total), *recv = tt_alloc(tt, mine + 1);
    if (rank == root)
        for (int r = 0; r < size; r++)
            tt_fill(tt, send, displs[r], counts[r], 77 + r);
    MPI_Request req;
    CHECK_MPI(MPI_Iscatterv(send, counts, displs, tt->t,
                            inp ? MPI_IN_PLACE : recv, mine, tt->t, root,
                            MPI_COMM_WORLD, &req));
    complete(&req);
    char ctx[64];
    snprintf(ctx, sizeof ctx, "iscatterv from %d, scale %d", root, scale);
    if (!inp) {
        tt_expect(tt, recv, 0, mine, 77 + rank, 0, ctx);
        CHECK(tt_untouched(tt, recv, mine, 1), "%s: written past the end",
              ctx);
    }
    free(send);
    free(recv);
    free(counts);
}

/* A gather to every root at once, all outstanding, then one Waitall. */
static void igather_all_roots(void)
{
    MPI_Request *reqs = malloc((size_t)size * sizeof *reqs);
    int *all = malloc((size_t)size * (size_t)size * 2 * sizeof *all);
    CHECK(reqs && all, "out of memory");
    int mine[2] = {rank, rank * 7};
    for (int root = 0; root < size; root++)
        CHECK_MPI(MPI_Igather(mine, 2, MPI_INT, all + root * size * 2, 2,
                              MPI_INT, root, MPI_COMM_WORLD, &reqs[root]));
    CHECK_MPI(MPI_Waitall(size, reqs, MPI_STATUSES_IGNORE));
    int *got = all + rank * size * 2;
    for (int r = 0; r < size; r++)
        CHECK(got[2 * r] == r && got[2 * r + 1] == r * 7,
              "igather to every root: block %d is %d %d", r, got[2 * r],
              got[2 * r + 1]);
    free(reqs);
    free(all);
}

static void errors(void)
{
    int x[64] = {0}, y[64];
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Igather(x, 1, MPI_INT, y, 1, MPI_INT, -2, comm, &req),
                MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Igather(x, -1, MPI_INT, y, 1, MPI_INT, 0, comm, &req),
                MPI_ERR_COUNT);
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &loose));
    CHECK_CLASS(MPI_Igather(x, 1, loose, y, 1, MPI_INT, 0, comm, &req),
                MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&loose));
    CHECK_CLASS(MPI_Iscatter(x, 1, MPI_INT, y, 1, MPI_INT, size, comm, &req),
                MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Iscatter(x, 1, MPI_INT, y, -1, MPI_INT, 0, comm, &req),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Iscatter(x, 1, MPI_INT, y, 1, MPI_DATATYPE_NULL, 0, comm,
                             &req),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Igatherv(x, 1, MPI_INT, y, x, x, MPI_INT, size + 1,
                             comm, &req),
                MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Iscatterv(x, x, x, MPI_INT, y, 0, MPI_INT, size, comm,
                              &req),
                MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Iscatterv(x, x, x, MPI_INT, y, 0, MPI_INT, -1, comm,
                              &req),
                MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Iscatterv(x, x, x, MPI_INT, y, 1, MPI_INT, 0,
                              MPI_COMM_NULL, &req),
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

    long counts[] = {0, 1, 2, 300};
    for (int k = 0; k < NTYPES; k++)
        for (int root = 0; root < size; root++) {
            for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
                igather(&tt_all[k], root, counts[c], (int)c % 2);
                iscatter(&tt_all[k], root, counts[c], (int)(c + 1) % 2);
            }
            igatherv(&tt_all[k], root, 1, root % 2);
            igatherv(&tt_all[k], root, 97, (root + 1) % 2);
            iscatterv(&tt_all[k], root, 1, (root + 1) % 2);
            iscatterv(&tt_all[k], root, 97, root % 2);
        }
    /* blocks far above the eager size */
    long big = size > 8 ? 40000 : 300000;
    igather(&tt_all[0], size - 1, big, 0);
    igather(&tt_all[3], 0, big / 8, 1);
    iscatter(&tt_all[1], 0, big / 2, 0);
    iscatterv(&tt_all[2], size / 2, 9000, 0);

    igather_all_roots();
    errors();
    tt_free();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
