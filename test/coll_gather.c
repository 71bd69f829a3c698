/* coll_gather: MPI_Gather and MPI_Gatherv of int, double, vector and struct types to every root, uneven and zero counts, displacements out of order, MPI_IN_PLACE at the root, blocks of several MiB, many in a row; errors (bad root for both, negative count, uncommitted type). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "coll_types.h"

static int rank, size;

/* Block r of a Gatherv: count and where it goes (in elements), reversed
   order and a gap of 3 elements between blocks. */
static int vcount(int r, int scale) { return ((r * 5 + 3) % 7) * scale; }

static void gatherv(const struct ttype *tt, int root, int scale, int in_place)
{
    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)size * sizeof *displs);
    CHECK(counts && displs, "out of memory");
    long total = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = vcount(r, scale);
        displs[r] = (int)total;
        total += counts[r] + 3;
    }
    int mine = counts[rank], seed = 1000 + rank * 17 + scale;
    void *send = tt_alloc(tt, mine);
    tt_fill(tt, send, 0, mine, seed);
    void *recv = tt_alloc(tt, total);
    if (rank == root && in_place)
        tt_fill(tt, recv, displs[rank], mine, seed);
    CHECK_MPI(MPI_Gatherv(rank == root && in_place ? MPI_IN_PLACE : send,
                          mine, tt->t, recv, counts, displs, tt->t, root,
                          MPI_COMM_WORLD));
    if (rank == root) {
        char ctx[64];
        snprintf(ctx, sizeof ctx, "gatherv to %d, scale %d", root, scale);
        tt_expect_vblocks(tt, recv, size, counts, displs, 3, 1000 + scale,
                          17, ctx);
    }
    free(send);
    free(recv);
    free(counts);
    free(displs);
}

static void gather(const struct ttype *tt, int root, long count, int in_place)
{
    int seed = 50 + rank;
    void *send = tt_alloc(tt, count);
    tt_fill(tt, send, 0, count, seed);
    void *recv = tt_alloc(tt, count * size + 1);
    if (rank == root && in_place)
        tt_fill(tt, recv, count * rank, count, seed);
    CHECK_MPI(MPI_Gather(rank == root && in_place ? MPI_IN_PLACE : send,
                         (int)count, tt->t, recv, (int)count, tt->t, root,
                         MPI_COMM_WORLD));
    if (rank == root) {
        char ctx[64];
        snprintf(ctx, sizeof ctx, "gather of %ld to %d", count, root);
        tt_expect_blocks(tt, recv, size, count, 50, 1, ctx);
    }
    free(send);
    free(recv);
}

static void errors(void)
{
    int x = 0, y[64];
    MPI_Comm comm = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Gather(&x, 1, MPI_INT, y, 1, MPI_INT, -2, comm),
                MPI_ERR_ROOT);
    int counts[64] = {0}, displs[64] = {0};
    CHECK_CLASS(MPI_Gatherv(&x, 0, MPI_INT, y, counts, displs, MPI_INT, size,
                            comm), MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Gatherv(&x, 0, MPI_INT, y, counts, displs, MPI_INT, -1,
                            comm), MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Gather(&x, -1, MPI_INT, y, 1, MPI_INT, 0, comm),
                MPI_ERR_COUNT);
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &loose));
    CHECK_CLASS(MPI_Gather(&x, 1, loose, y, 1, MPI_INT, 0, comm),
                MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&loose));
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
                gather(&tt_all[k], root, counts[c], (int)c % 2);
            gatherv(&tt_all[k], root, 1, root % 2);
            gatherv(&tt_all[k], root, 97, (root + 1) % 2);
        }
    /* blocks larger than a half: rounds */
    long big = size > 8 ? 40000 : 300000;
    gather(&tt_all[0], size - 1, big, 0);
    gather(&tt_all[3], 0, big / 8, 1);
    gatherv(&tt_all[2], size / 2, 9000, 0);

    /* many small ones in a row with a moving root */
    for (int i = 0; i < 1000; i++) {
        int v[2] = {i, rank}, *all = malloc(2 * sizeof(int) * size);
        CHECK(all, "out of memory");
        int root = i % size;
        CHECK_MPI(MPI_Gather(v, 2, MPI_INT, all, 2, MPI_INT, root,
                             MPI_COMM_WORLD));
        if (rank == root)
            for (int r = 0; r < size; r++)
                CHECK(all[2 * r] == i && all[2 * r + 1] == r,
                      "gather %d: block %d is %d %d", i, r, all[2 * r],
                      all[2 * r + 1]);
        free(all);
    }
    /* the non-root ranks leave right after publishing: the next gather
       must not overwrite what the root has not read yet - checked above,
       with the root moving */

    errors();
    tt_free();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
