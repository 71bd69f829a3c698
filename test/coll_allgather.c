/* coll_allgather: MPI_Allgather and MPI_Allgatherv of int, double, vector and struct types, uneven and zero counts, displacements out of order, MPI_IN_PLACE, blocks of several MiB, many in a row on two communicators in turn; errors (negative count, uncommitted type, NULL counts). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "coll_types.h"

static int rank, size;

static int vcount(int r, int scale) { return ((r * 5 + 1) % 4) * scale; }

static void allgatherv(const struct ttype *tt, int scale, int in_place)
{
    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)size * sizeof *displs);
    CHECK(counts && displs, "out of memory");
    long total = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = vcount(r, scale);
        displs[r] = (int)total;
        total += counts[r] + 1;
    }
    int mine = counts[rank];
    void *send = tt_alloc(tt, mine);
    tt_fill(tt, send, 0, mine, 9 + rank * 3 + scale);
    void *recv = tt_alloc(tt, total);
    if (in_place)
        tt_fill(tt, recv, displs[rank], mine, 9 + rank * 3 + scale);
    CHECK_MPI(MPI_Allgatherv(in_place ? MPI_IN_PLACE : send, mine, tt->t,
                             recv, counts, displs, tt->t, MPI_COMM_WORLD));
    char ctx[64];
    snprintf(ctx, sizeof ctx, "allgatherv, scale %d, in place %d", scale,
             in_place);
    tt_expect_vblocks(tt, recv, size, counts, displs, 1, 9 + scale, 3, ctx);
    free(send);
    free(recv);
    free(counts);
    free(displs);
}

static void allgather(MPI_Comm comm, const struct ttype *tt, long count,
                      int in_place, int seed)
{
    int me, n;
    CHECK_MPI(MPI_Comm_rank(comm, &me));
    CHECK_MPI(MPI_Comm_size(comm, &n));
    void *send = tt_alloc(tt, count);
    tt_fill(tt, send, 0, count, seed + me);
    void *recv = tt_alloc(tt, count * n + 1);
    if (in_place)
        tt_fill(tt, recv, count * me, count, seed + me);
    CHECK_MPI(MPI_Allgather(in_place ? MPI_IN_PLACE : send, (int)count,
                            tt->t, recv, (int)count, tt->t, comm));
    char ctx[64];
    snprintf(ctx, sizeof ctx, "allgather of %ld, in place %d", count,
             in_place);
    tt_expect_blocks(tt, recv, n, count, seed, 1, ctx);
    free(send);
    free(recv);
}

static void errors(void)
{
    int x = 0, y[64];
    MPI_Comm comm = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Allgather(&x, -1, MPI_INT, y, 1, MPI_INT, comm),
                MPI_ERR_COUNT);
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &loose));
    CHECK_CLASS(MPI_Allgather(&x, 1, loose, y, 1, MPI_INT, comm),
                MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&loose));
    CHECK_CLASS(MPI_Allgather(&x, 1, MPI_INT, y, 1, MPI_DATATYPE_NULL, comm),
                MPI_ERR_TYPE);
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    tt_init();

    long counts[] = {0, 1, 2, 5, 300};
    for (int k = 0; k < NTYPES; k++) {
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int in_place = 0; in_place < 2; in_place++)
                allgather(MPI_COMM_WORLD, &tt_all[k], counts[c], in_place,
                          (int)(k * 50 + c * 7));
        allgatherv(&tt_all[k], 1, k % 2);
        allgatherv(&tt_all[k], 400, (k + 1) % 2);
    }
    long big = size > 8 ? 30000 : 250000;
    allgather(MPI_COMM_WORLD, &tt_all[0], big, 0, 1);
    allgather(MPI_COMM_WORLD, &tt_all[3], big / 8, 1, 2);
    allgatherv(&tt_all[2], 20000, 0);

    /* many in a row, alternating between world and a duplicate */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    for (int i = 0; i < 1000; i++)
        allgather(i % 2 ? dup : MPI_COMM_WORLD, &tt_all[i % 3 == 0 ? 2 : 0],
                  1 + i % 4, i % 5 == 0, i);
    CHECK_MPI(MPI_Comm_free(&dup));

    errors();
    tt_free();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
