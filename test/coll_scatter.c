/* coll_scatter: MPI_Scatter and MPI_Scatterv of int, double, vector and struct types from every root, uneven and zero counts, displacements out of order, MPI_IN_PLACE at the root, blocks of several MiB, many in a row; errors (bad root for both, negative count, null type). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "coll_types.h"

static int rank, size;

static int vcount(int r, int scale) { return ((r * 3 + 2) % 5) * scale; }

static void scatterv(const struct ttype *tt, int root, int scale,
                     int in_place)
{
    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)size * sizeof *displs);
    CHECK(counts && displs, "out of memory");
    long total = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = vcount(r, scale);
        displs[r] = (int)total;
        total += counts[r] + 2;
    }
    void *send = tt_alloc(tt, total);
    if (rank == root)
        for (int r = 0; r < size; r++)
            tt_fill(tt, send, displs[r], counts[r], 77 + r);
    int mine = counts[rank];
    void *recv = tt_alloc(tt, mine + 1);
    int inp = rank == root && in_place;
    CHECK_MPI(MPI_Scatterv(send, counts, displs, tt->t,
                           inp ? MPI_IN_PLACE : recv, mine, tt->t, root,
                           MPI_COMM_WORLD));
    char ctx[64];
    snprintf(ctx, sizeof ctx, "scatterv from %d, scale %d", root, scale);
    if (inp) {
        tt_expect(tt, send, displs[rank], mine, 77 + rank, 0, ctx);
        CHECK(tt_untouched(tt, recv, 0, mine + 1), "%s: recvbuf written "
              "in place", ctx);
    } else {
        tt_expect(tt, recv, 0, mine, 77 + rank, 0, ctx);
        CHECK(tt_untouched(tt, recv, mine, 1), "%s: written past the end",
              ctx);
    }
    free(send);
    free(recv);
    free(counts);
    free(displs);
}

static void scatter(const struct ttype *tt, int root, long count, int in_place)
{
    void *send = tt_alloc(tt, count * size);
    if (rank == root)
        for (int r = 0; r < size; r++)
            tt_fill(tt, send, count * r, count, 300 + r);
    void *recv = tt_alloc(tt, count + 1);
    int inp = rank == root && in_place;
    CHECK_MPI(MPI_Scatter(send, (int)count, tt->t, inp ? MPI_IN_PLACE : recv,
                          (int)count, tt->t, root, MPI_COMM_WORLD));
    char ctx[64];
    snprintf(ctx, sizeof ctx, "scatter of %ld from %d", count, root);
    if (!inp) {
        tt_expect(tt, recv, 0, count, 300 + rank, 0, ctx);
        CHECK(tt_untouched(tt, recv, count, 1), "%s: written past the end",
              ctx);
    }
    free(send);
    free(recv);
}

static void errors(void)
{
    int x[64] = {0}, y[4];
    MPI_Comm comm = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Scatter(x, 1, MPI_INT, y, 1, MPI_INT, size, comm),
                MPI_ERR_ROOT);
    int counts[64] = {0}, displs[64] = {0};
    CHECK_CLASS(MPI_Scatterv(x, counts, displs, MPI_INT, y, 0, MPI_INT, -1,
                             comm), MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Scatterv(x, counts, displs, MPI_INT, y, 0, MPI_INT, size,
                             comm), MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Scatter(x, 1, MPI_INT, y, -1, MPI_INT, 0, comm),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Scatter(x, 1, MPI_INT, y, 1, MPI_DATATYPE_NULL, 0, comm),
                MPI_ERR_TYPE);
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
            for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
                scatter(&tt_all[k], root, counts[c], (int)c % 2);
            scatterv(&tt_all[k], root, 1, root % 2);
            scatterv(&tt_all[k], root, 97, (root + 1) % 2);
        }
    long big = size > 8 ? 40000 : 300000;
    scatter(&tt_all[0], size - 1, big, 0);
    scatter(&tt_all[3], 0, big / 8, 1);
    scatterv(&tt_all[2], size / 2, 9000, 0);

    for (int i = 0; i < 1000; i++) {
        int root = i % size, v[2] = {-1, -1};
        int *all = malloc(2 * sizeof(int) * size);
        CHECK(all, "out of memory");
        for (int r = 0; r < size; r++) {
            all[2 * r] = i;
            all[2 * r + 1] = r;
        }
        CHECK_MPI(MPI_Scatter(all, 2, MPI_INT, v, 2, MPI_INT, root,
                              MPI_COMM_WORLD));
        CHECK(v[0] == i && v[1] == rank, "scatter %d from %d: got %d %d", i,
              root, v[0], v[1]);
        free(all);
    }

    errors();
    tt_free();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
