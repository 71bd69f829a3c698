/* coll_bcast: MPI_Bcast of int, double, vector and struct types from every root, zero counts, 16-byte and several-MiB buffers, many in a row, on world and a split; errors (bad root, uncommitted type, bad count). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "coll_types.h"

static int rank, size;

static void bcast_one(MPI_Comm comm, const struct ttype *tt, long count,
                      int root, int seed)
{
    int me;
    CHECK_MPI(MPI_Comm_rank(comm, &me));
    void *buf = tt_alloc(tt, count + 1);
    if (me == root)
        tt_fill(tt, buf, 0, count, seed);
    CHECK_MPI(MPI_Bcast(buf, (int)count, tt->t, root, comm));
    char ctx[64];
    snprintf(ctx, sizeof ctx, "bcast of %ld from %d", count, root);
    tt_expect(tt, buf, 0, count, seed, 0, ctx);
    CHECK(tt_untouched(tt, buf, count, 1), "%s: written past count %ld",
          tt->name, count);
    free(buf);
}

static void errors(void)
{
    int x = 0, rc;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    rc = MPI_Bcast(&x, 1, MPI_INT, size, MPI_COMM_WORLD);
    CHECK_CLASS(rc, MPI_ERR_ROOT);
    rc = MPI_Bcast(&x, 1, MPI_INT, -1, MPI_COMM_WORLD);
    CHECK_CLASS(rc, MPI_ERR_ROOT);
    rc = MPI_Bcast(&x, -1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    rc = MPI_Bcast(&x, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
    CHECK_CLASS(rc, MPI_ERR_TYPE);
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &loose));
    rc = MPI_Bcast(&x, 1, loose, 0, MPI_COMM_WORLD);
    CHECK_CLASS(rc, MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&loose));
    rc = MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_NULL);
    CHECK_CLASS(rc, MPI_ERR_COMM);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD,
                                      MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    tt_init();

    long counts[] = {0, 1, 2, 3, 100, 5000};
    for (int k = 0; k < NTYPES; k++)
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int root = 0; root < size; root++)
                bcast_one(MPI_COMM_WORLD, &tt_all[k], counts[c], root,
                          (int)(k * 100 + c * 10 + root));

    /* several MiB: many rounds through both halves of the root's slot */
    long big = size > 8 ? 300000 : 1200000; /* ints: 1.2 or 4.8 MiB */
    bcast_one(MPI_COMM_WORLD, &tt_all[0], big, size - 1, 7);
    bcast_one(MPI_COMM_WORLD, &tt_all[2], big / 3, 0, 8);

    /* many in a row, roots changing: a root running ahead must not
       overwrite what a slow reader has not read yet */
    for (int i = 0; i < 2000; i++) {
        int v[4] = {i, -i, i * 3, rank};
        int root = (i / 3) % size;
        CHECK_MPI(MPI_Bcast(v, i % 5 == 0 ? 4 : 3, MPI_INT, root,
                            MPI_COMM_WORLD));
        CHECK(v[0] == i && v[1] == -i && v[2] == i * 3,
              "bcast %d from %d: got %d %d %d", i, root, v[0], v[1], v[2]);
        CHECK(v[3] == (i % 5 == 0 ? root : rank), "bcast %d: v[3] = %d", i,
              v[3]);
    }

    /* on the halves of a split, each with its own area */
    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
    int hsize;
    CHECK_MPI(MPI_Comm_size(half, &hsize));
    for (int root = 0; root < hsize; root++)
        for (int k = 0; k < NTYPES; k++)
            bcast_one(half, &tt_all[k], 777, root, 31 * root + k + rank % 2);
    CHECK_MPI(MPI_Comm_free(&half));

    errors();
    tt_free();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
