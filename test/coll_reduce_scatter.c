/* coll_reduce_scatter: MPI_Reduce_scatter_block and MPI_Reduce_scatter - MPI_SUM on ints and doubles, a non-commutative user op on a contiguous and a gapped vector type checked against a serial fold (gaps left alone), uneven and zero segments, MPI_IN_PLACE, vectors of several MiB; errors (negative counts, invalid op). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

static int rank, size;

/* What each kind reduces: MATRIX is 4 contiguous uint32, GAPPED_MATRIX
   the same entries 8 bytes apart (MPI_Type_vector(4, 1, 2), resized to
   32 bytes: a gap after every entry). */
enum kind { INT_SUM, DOUBLE_SUM, MATRIX, GAPPED_MATRIX, NKINDS };
static const char *const kind_name[] = {"int sum", "double sum", "matrix",
                                        "gapped matrix"};
static const size_t extent_of[] = {sizeof(int), sizeof(double), 16, 32};
static MPI_Datatype type_of[NKINDS];
static MPI_Op op_of[NKINDS];

static int ival(int r, long e) { return (int)((r * 11 + e * 5) % 997) - 400; }

/* Eighths: exact in a double, so any order of the sum gives one result. */
static double dval(int r, long e) { return ival(r, e) / 8.0; }

/* b = a * b for 2x2 matrices of uint32 mod 2^32: not commutative. */
static void mul(const uint32_t a[4], uint32_t b[4])
{
    uint32_t c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                     a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
    memcpy(b, c, sizeof c);
}

/* The op, on either matrix type: entries ext / 16 uint32 apart. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    MPI_Aint lb, ext;
    CHECK_MPI(MPI_Type_get_extent(*dt, &lb, &ext));
    long st = ext / 16;
    uint32_t *a = in, *b = inout;
    for (int i = 0; i < *len; i++, a += 4 * st, b += 4 * st) {
        uint32_t x[4], y[4];
        for (int k = 0; k < 4; k++) {
            x[k] = a[k * st];
            y[k] = b[k * st];
        }
        mul(x, y);
        for (int k = 0; k < 4; k++)
            b[k * st] = y[k];
    }
}

static void mval(int r, long e, uint32_t m[4])
{
    m[0] = (uint32_t)(r + e % 3 + 1);
    m[1] = (uint32_t)(r * 7 + e);
    m[2] = (uint32_t)(e % 5);
    m[3] = (uint32_t)(r + 2);
}

/* Rank r's element e, or (r < 0) the serial fold of element e over all
   ranks in rank order, written at p; the gaps are left alone. */
static void put(enum kind kind, int r, long e, unsigned char *p)
{
    int lo = r < 0 ? 0 : r, hi = r < 0 ? size - 1 : r;
    if (kind == INT_SUM) {
        int v = 0;
        for (int q = lo; q <= hi; q++)
            v += ival(q, e);
        memcpy(p, &v, sizeof v);
    } else if (kind == DOUBLE_SUM) {
        double v = 0;
        for (int q = lo; q <= hi; q++)
            v += dval(q, e);
        memcpy(p, &v, sizeof v);
    } else {
        uint32_t m[4], x[4];
        mval(hi, e, m);
        for (int q = hi - 1; q >= lo; q--) {
            mval(q, e, x);
            mul(x, m);
        }
        size_t st = extent_of[kind] / 4;
        for (int k = 0; k < 4; k++)
            memcpy(p + k * st, &m[k], sizeof m[k]);
    }
}

/* counts[i] elements for rank i; the whole vector is their sum.  Source
   bytes not written by put are 0x5a, result bytes 0xa5: a gap or the end
   of the result written shows. */
static void run(enum kind kind, const int *counts, int block, int in_place)
{
    size_t ext = extent_of[kind];
    long total = 0, first = 0, mine = counts[rank];
    for (int r = 0; r < size; r++) {
        first += r < rank ? counts[r] : 0;
        total += counts[r];
    }
    size_t bytes = (size_t)total * ext + 16;
    unsigned char *s = malloc(bytes), *d = malloc(bytes), *want = malloc(ext);
    CHECK(s && d && want, "out of memory");
    memset(s, 0x5a, bytes);
    memset(d, 0xa5, bytes);
    for (long e = 0; e < total; e++)
        put(kind, rank, e, s + e * ext);
    if (in_place)
        memcpy(d, s, bytes);
    const void *src = in_place ? MPI_IN_PLACE : s;
    if (block)
        CHECK_MPI(MPI_Reduce_scatter_block(src, d, (int)mine, type_of[kind],
                                           op_of[kind], MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Reduce_scatter(src, d, counts, type_of[kind],
                                     op_of[kind], MPI_COMM_WORLD));
    for (long e = 0; e < mine; e++) {
        memset(want, in_place ? 0x5a : 0xa5, ext);
        put(kind, -1, first + e, want);
        CHECK(memcmp(want, d + e * ext, ext) == 0, "%s reduce_scatter%s of "
              "%ld (in place %d): element %ld wrong", kind_name[kind],
              block ? "_block" : "", total, in_place, e);
    }
    for (size_t b = 0; !in_place && b < 16; b++)
        CHECK(d[mine * ext + b] == 0xa5, "%s reduce_scatter%s: written past "
              "the end", kind_name[kind], block ? "_block" : "");
    free(s);
    free(d);
    free(want);
}

static void make_types(void)
{
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_UINT32_T, &type_of[MATRIX]));
    CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_UINT32_T, &vec));
    CHECK_MPI(MPI_Type_create_resized(vec, 0, 32, &type_of[GAPPED_MATRIX]));
    CHECK_MPI(MPI_Type_free(&vec));
    type_of[INT_SUM] = MPI_INT;
    type_of[DOUBLE_SUM] = MPI_DOUBLE;
    op_of[INT_SUM] = op_of[DOUBLE_SUM] = MPI_SUM;
    CHECK_MPI(MPI_Op_create(matmul, 0, &op_of[MATRIX]));
    op_of[GAPPED_MATRIX] = op_of[MATRIX];
    for (int k = MATRIX; k <= GAPPED_MATRIX; k++)
        CHECK_MPI(MPI_Type_commit(&type_of[k]));
}

static void errors(int *counts)
{
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int x[64] = {0}, y[64];
    double z[64] = {0}, w[64];
    for (int r = 0; r < size; r++)
        counts[r] = 1;
    CHECK_CLASS(MPI_Reduce_scatter(x, y, counts, MPI_INT, MPI_OP_NULL,
                                   MPI_COMM_WORLD), MPI_ERR_OP);
    /* MPI_BAND is not defined on floating point (5.9.2) */
    CHECK_CLASS(MPI_Reduce_scatter(z, w, counts, MPI_DOUBLE, MPI_BAND,
                                   MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_CLASS(MPI_Reduce_scatter_block(x, y, 1, MPI_INT, MPI_OP_NULL,
                                         MPI_COMM_WORLD), MPI_ERR_OP);
    counts[0] = -1;
    CHECK_CLASS(MPI_Reduce_scatter(x, y, counts, MPI_INT, MPI_SUM,
                                   MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Reduce_scatter_block(x, y, -3, MPI_INT, MPI_SUM,
                                         MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    make_types();

    int *counts = malloc((size_t)size * sizeof *counts);
    CHECK(counts, "out of memory");
    long big = size > 8 ? 80000 : 600000; /* bytes a rank gets, at most */
    for (int kind = 0; kind < NKINDS; kind++) {
        long blocks[] = {0, 1, 3, 1000, big / (long)extent_of[kind]};
        for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++)
            for (int in_place = 0; in_place < 2; in_place++) {
                for (int r = 0; r < size; r++)
                    counts[r] = (int)blocks[b];
                run((enum kind)kind, counts, 1, in_place);
                for (int r = 0; r < size; r++)
                    counts[r] = (int)((r * 7 + b + kind) % 4 * blocks[b] / 2);
                run((enum kind)kind, counts, 0, in_place);
            }
    }

    errors(counts);
    free(counts);
    CHECK_MPI(MPI_Type_free(&type_of[MATRIX]));
    CHECK_MPI(MPI_Type_free(&type_of[GAPPED_MATRIX]));
    CHECK_MPI(MPI_Op_free(&op_of[MATRIX]));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
