/* coll_reduce: MPI_Reduce and MPI_Allreduce - predefined ops on int and double, MINLOC pairs, a non-commutative user op on contiguous and gapped types checked against a serial fold, MPI_IN_PLACE, zero counts, 16 B to several MiB, every root; errors (bad root, invalid op, op not defined for the type, uncommitted type). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

static int rank, size;

/* ------------------------------------------------------------------ */
/* Predefined ops                                                      */
/* ------------------------------------------------------------------ */

static int ival(int r, long e) { return (int)((r * 7 + e * 3) % 1000) - 300; }

static void sum_ints(long count, int root, int in_place)
{
    int *s = malloc((size_t)(count + 1) * sizeof *s);
    int *d = malloc((size_t)(count + 1) * sizeof *d);
    CHECK(s && d, "out of memory");
    for (long e = 0; e < count; e++)
        s[e] = d[e] = ival(rank, e);
    d[count] = -12345;
    int all = root < 0;
    const void *src = in_place && (all || rank == root) ? MPI_IN_PLACE : s;
    if (all)
        CHECK_MPI(MPI_Allreduce(src, d, (int)count, MPI_INT, MPI_SUM,
                                MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Reduce(src, d, (int)count, MPI_INT, MPI_SUM, root,
                             MPI_COMM_WORLD));
    if (all || rank == root)
        for (long e = 0; e < count; e++) {
            long want = 0;
            for (int r = 0; r < size; r++)
                want += ival(r, e);
            CHECK(d[e] == want, "%s of %ld ints (root %d, in place %d): "
                  "element %ld is %d, expected %ld",
                  all ? "allreduce" : "reduce", count, root, in_place, e,
                  d[e], want);
        }
    CHECK(d[count] == -12345, "written past the end");
    free(s);
    free(d);
}

static void max_doubles(long count)
{
    double *s = calloc((size_t)count, sizeof *s);
    double *d = malloc((size_t)count * sizeof *d);
    CHECK(s && d, "out of memory");
    for (long e = 0; e < count; e++)
        s[e] = (double)((rank * 31 + e * 17) % 101) + 0.5;
    CHECK_MPI(MPI_Allreduce(s, d, (int)count, MPI_DOUBLE, MPI_MAX,
                            MPI_COMM_WORLD));
    for (long e = 0; e < count; e++) {
        double want = -1;
        for (int r = 0; r < size; r++) {
            double v = (double)((r * 31 + e * 17) % 101) + 0.5;
            want = v > want ? v : want;
        }
        CHECK(d[e] == want, "max of %ld doubles: element %ld is %g, not %g",
              count, e, d[e], want);
    }
    free(s);
    free(d);
}

static void minloc(long count, int root)
{
    struct { double v; int i; } *s = malloc((size_t)count * sizeof *s),
                                *d = malloc((size_t)count * sizeof *d);
    CHECK(s && d, "out of memory");
    for (long e = 0; e < count; e++) {
        s[e].v = (double)((rank * 13 + e * 7) % 10);
        s[e].i = rank;
    }
    CHECK_MPI(MPI_Reduce(s, d, (int)count, MPI_DOUBLE_INT, MPI_MINLOC, root,
                         MPI_COMM_WORLD));
    if (rank == root)
        for (long e = 0; e < count; e++) {
            double best = 1e9;
            int at = -1;
            for (int r = 0; r < size; r++) {
                double v = (double)((r * 13 + e * 7) % 10);
                if (v < best) {
                    best = v;
                    at = r;
                }
            }
            CHECK(d[e].v == best && d[e].i == at,
                  "minloc %ld: (%g, %d), expected (%g, %d)", e, d[e].v,
                  d[e].i, best, at);
        }
    free(s);
    free(d);
}

/* ------------------------------------------------------------------ */
/* A non-commutative user op: composing affine maps x -> a*x + b mod   */
/* 2^32, on a contiguous pair type and on a type with a gap            */
/* ------------------------------------------------------------------ */

static void compose(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(*dt, &lb, &extent);
    size_t b_at = extent == 8 ? 4 : 8;
    for (int i = 0; i < *len; i++) {
        unsigned char *f = (unsigned char *)in + i * extent;
        unsigned char *g = (unsigned char *)inout + i * extent;
        uint32_t a1, b1, a2, b2;
        memcpy(&a1, f, 4);
        memcpy(&b1, f + b_at, 4);
        memcpy(&a2, g, 4);
        memcpy(&b2, g + b_at, 4);
        uint32_t a = a1 * a2, b = a1 * b2 + b1; /* (in o inout)(x) */
        memcpy(g, &a, 4);
        memcpy(g + b_at, &b, 4);
    }
}

static uint32_t fa(int r, long e) { return (uint32_t)(2 * r + 3 + e % 5) | 1; }
static uint32_t fb(int r, long e) { return (uint32_t)(r * 17 + e); }

/* x0 o x1 o ... o x(hi-1) for element e. */
static void serial(int hi, long e, uint32_t *a, uint32_t *b)
{
    *a = fa(hi - 1, e);
    *b = fb(hi - 1, e);
    for (int r = hi - 2; r >= 0; r--) {
        uint32_t na = fa(r, e) * *a, nb = fa(r, e) * *b + fb(r, e);
        *a = na;
        *b = nb;
    }
}

static void affine(MPI_Op op, MPI_Datatype t, size_t stride, long count,
                   int root, int in_place)
{
    size_t b_at = stride == 8 ? 4 : 8;
    unsigned char *s = malloc(count * stride + 1), *d = malloc(count * stride + 1);
    CHECK(s && d, "out of memory");
    memset(s, 0x5a, count * stride);
    memset(d, 0x5a, count * stride);
    for (long e = 0; e < count; e++) {
        uint32_t a = fa(rank, e), b = fb(rank, e);
        memcpy(s + e * stride, &a, 4);
        memcpy(s + e * stride + b_at, &b, 4);
    }
    int all = root < 0, mine = all || rank == root;
    if (in_place && mine)
        memcpy(d, s, count * stride);
    const void *src = in_place && mine ? MPI_IN_PLACE : s;
    if (all)
        CHECK_MPI(MPI_Allreduce(src, d, (int)count, t, op, MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Reduce(src, d, (int)count, t, op, root,
                             MPI_COMM_WORLD));
    if (mine)
        for (long e = 0; e < count; e++) {
            uint32_t a, b, wa, wb;
            memcpy(&a, d + e * stride, 4);
            memcpy(&b, d + e * stride + b_at, 4);
            serial(size, e, &wa, &wb);
            CHECK(a == wa && b == wb,
                  "affine %s, stride %zu, %ld elements, root %d: element "
                  "%ld is (%u, %u), expected (%u, %u)",
                  all ? "allreduce" : "reduce", stride, count, root, e, a, b,
                  wa, wb);
            if (stride == 12)
                CHECK(d[e * stride + 4] == 0x5a, "gap of element %ld "
                      "written", e);
        }
    free(s);
    free(d);
}

static void errors(void)
{
    int x[2] = {1, 1}, y[2];
    double z = 1, w;
    MPI_Comm comm = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    /* a good call first: the bad ones below with the same type and op
       must still be caught (shmpi: past its small-Allreduce fast path) */
    CHECK_MPI(MPI_Allreduce(x, y, 1, MPI_INT, MPI_SUM, comm));
    CHECK(y[0] == size, "sum of ones is %d, expected %d", y[0], size);
    CHECK_CLASS(MPI_Reduce(x, y, 1, MPI_INT, MPI_SUM, size, comm),
                MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Allreduce(x, y, 1, MPI_INT, MPI_OP_NULL, comm),
                MPI_ERR_OP);
    CHECK_CLASS(MPI_Allreduce(&z, &w, 1, MPI_DOUBLE, MPI_BAND, comm),
                MPI_ERR_OP);
    CHECK_CLASS(MPI_Allreduce(x, y, -2, MPI_INT, MPI_SUM, comm),
                MPI_ERR_COUNT);
    /* a user op is defined for every type: only the commit is missing */
    MPI_Op op;
    CHECK_MPI(MPI_Op_create(compose, 0, &op));
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_UINT32_T, &loose));
    CHECK_CLASS(MPI_Allreduce(x, y, 1, loose, op, comm), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&loose));
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

    /* 1 int .. several MiB: folded whole, in slices, in many rounds */
    long counts[] = {0, 1, 4, 5, 1000, 6000, 40000, size > 8 ? 300000 : 900000};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        for (int in_place = 0; in_place < 2; in_place++) {
            sum_ints(counts[c], -1, in_place);
            sum_ints(counts[c], (int)(c + in_place) % size, in_place);
        }
    max_doubles(3);
    max_doubles(20000);
    minloc(3, 0);
    minloc(5000, size - 1);

    MPI_Op op;
    CHECK_MPI(MPI_Op_create(compose, 0, &op));
    MPI_Datatype pair, gapped;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_UINT32_T, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_UINT32_T, &gapped));
    CHECK_MPI(MPI_Type_commit(&gapped));
    long ucounts[] = {1, 2, 3000, 70000};
    for (size_t c = 0; c < sizeof ucounts / sizeof *ucounts; c++)
        for (int in_place = 0; in_place < 2; in_place++) {
            affine(op, pair, 8, ucounts[c], -1, in_place);
            affine(op, gapped, 12, ucounts[c], -1, in_place);
            affine(op, pair, 8, ucounts[c], (int)c % size, in_place);
            affine(op, gapped, 12, ucounts[c], size - 1, in_place);
        }
    CHECK_MPI(MPI_Type_free(&pair));
    CHECK_MPI(MPI_Type_free(&gapped));
    CHECK_MPI(MPI_Op_free(&op));

    errors();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
