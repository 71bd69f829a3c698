/* coll_reduce_scatter: MPI_Reduce_scatter_block and MPI_Reduce_scatter - MPI_SUM on ints, a non-commutative user op checked against a serial fold, uneven and zero segments, MPI_IN_PLACE, vectors of several MiB; errors (negative counts, invalid op). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
#include "check.h"

#include <stdint.h>

static int rank, size;

static int ival(int r, long e) { return (int)((r * 11 + e * 5) % 997) - 400; }

/* The op: 2x2 matrices of uint32 mod 2^32, multiplied: not commutative. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    uint32_t *a = in, *b = inout;
    (void)dt; /* always 4 contiguous uint32 */
    for (int i = 0; i < *len; i++, a += 4, b += 4) {
        uint32_t c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                         a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof c);
    }
}

static void mval(int r, long e, uint32_t m[4])
{
    m[0] = (uint32_t)(r + e % 3 + 1);
    m[1] = (uint32_t)(r * 7 + e);
    m[2] = (uint32_t)(e % 5);
    m[3] = (uint32_t)(r + 2);
}

/* counts[i] elements for rank i; the whole vector is their sum. */
static void run(const int *counts, int block, int in_place, MPI_Op op,
                MPI_Datatype mat)
{
    long total = 0, first = 0;
    for (int r = 0; r < size; r++) {
        if (r < rank)
            first += counts[r];
        total += counts[r];
    }
    int mine = counts[rank];
    int *s = calloc((size_t)total + 1, sizeof *s);
    int *d = calloc((size_t)(in_place ? total : mine) + 1, sizeof *d);
    CHECK(s && d, "out of memory");
    for (long e = 0; e < total; e++)
        s[e] = ival(rank, e);
    if (in_place)
        memcpy(d, s, total * sizeof *s);
    const void *src = in_place ? MPI_IN_PLACE : s;
    if (block)
        CHECK_MPI(MPI_Reduce_scatter_block(src, d, mine, MPI_INT, MPI_SUM,
                                           MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Reduce_scatter(src, d, counts, MPI_INT, MPI_SUM,
                                     MPI_COMM_WORLD));
    for (long e = 0; e < mine; e++) {
        long want = 0;
        for (int r = 0; r < size; r++)
            want += ival(r, first + e);
        CHECK(d[e] == want, "reduce_scatter%s of %ld (in place %d): "
              "element %ld is %d, expected %ld", block ? "_block" : "",
              total, in_place, e, d[e], want);
    }
    free(s);
    free(d);

    /* the same shape with matrices */
    uint32_t *ms = calloc((size_t)total * 4 + 1, 4);
    uint32_t *md = calloc((size_t)(in_place ? total : mine) * 4 + 1, 4);
    CHECK(ms && md, "out of memory");
    for (long e = 0; e < total; e++)
        mval(rank, e, ms + 4 * e);
    if (in_place)
        memcpy(md, ms, total * 16);
    src = in_place ? MPI_IN_PLACE : ms;
    if (block)
        CHECK_MPI(MPI_Reduce_scatter_block(src, md, mine, mat, op,
                                           MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Reduce_scatter(src, md, counts, mat, op,
                                     MPI_COMM_WORLD));
    for (long e = 0; e < mine; e++) {
        uint32_t acc[4], x[4];
        mval(size - 1, first + e, acc);
        for (int r = size - 2; r >= 0; r--) {
            int one = 1;
            mval(r, first + e, x);
            matmul(x, acc, &one, &mat);
        }
        CHECK(memcmp(acc, md + 4 * e, 16) == 0, "matrix reduce_scatter%s "
              "element %ld wrong (in place %d)", block ? "_block" : "", e,
              in_place);
    }
    free(ms);
    free(md);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Op op;
    CHECK_MPI(MPI_Op_create(matmul, 0, &op));
    MPI_Datatype mat;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_UINT32_T, &mat));
    CHECK_MPI(MPI_Type_commit(&mat));

    int *counts = malloc((size_t)size * sizeof *counts);
    CHECK(counts, "out of memory");
    int blocks[] = {0, 1, 3, 1000, size > 8 ? 20000 : 150000};
    for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++)
        for (int in_place = 0; in_place < 2; in_place++) {
            for (int r = 0; r < size; r++)
                counts[r] = blocks[b];
            run(counts, 1, in_place, op, mat);
            for (int r = 0; r < size; r++)
                counts[r] = (int)((r * 7 + b) % 4) * blocks[b] / 2;
            run(counts, 0, in_place, op, mat);
        }

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int x[64] = {0}, y[64];
    counts[0] = -1;
    CHECK_CLASS(MPI_Reduce_scatter(x, y, counts, MPI_INT, MPI_SUM,
                                   MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Reduce_scatter_block(x, y, -3, MPI_INT, MPI_SUM,
                                         MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Reduce_scatter_block(x, y, 1, MPI_INT, MPI_OP_NULL,
                                         MPI_COMM_WORLD), MPI_ERR_OP);

    free(counts);
    CHECK_MPI(MPI_Type_free(&mat));
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
