/* coll_scan: MPI_Scan and MPI_Exscan - MPI_SUM and MPI_PROD, a non-commutative user op on a gapped vector type checked against a serial fold, MPI_IN_PLACE, zero counts, vectors of several MiB, many in a row; errors (invalid op and op not defined on the type for both, negative count). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

static int rank, size;

static long lval(int r, long e) { return (r * 13 + e * 3) % 1001 - 500; }

static void sums(long count, int ex, int in_place)
{
    long *s = calloc((size_t)count + 1, sizeof *s);
    long *d = calloc((size_t)count + 1, sizeof *d);
    CHECK(s && d, "out of memory");
    for (long e = 0; e <= count; e++) {
        s[e] = lval(rank, e);
        d[e] = in_place ? s[e] : 4242;
    }
    d[count] = 4242;
    const void *src = in_place ? MPI_IN_PLACE : s;
    if (ex)
        CHECK_MPI(MPI_Exscan(src, d, (int)count, MPI_LONG, MPI_SUM,
                             MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Scan(src, d, (int)count, MPI_LONG, MPI_SUM,
                           MPI_COMM_WORLD));
    if (!ex || rank > 0)
        for (long e = 0; e < count; e++) {
            long want = 0;
            for (int r = 0; r < rank + !ex; r++)
                want += lval(r, e);
            CHECK(d[e] == want, "%s of %ld (in place %d): element %ld is "
                  "%ld, expected %ld", ex ? "exscan" : "scan", count,
                  in_place, e, d[e], want);
        }
    CHECK(d[count] == 4242, "written past the end");
    free(s);
    free(d);
}

/* Affine maps as in coll_reduce, in a vector type with a gap. */
static void compose(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt; /* always the gapped vector: (a, gap, b) */
    for (int i = 0; i < *len; i++) {
        uint32_t *f = (uint32_t *)in + 3 * i, *g = (uint32_t *)inout + 3 * i;
        uint32_t a = f[0] * g[0], b = f[0] * g[2] + f[2];
        g[0] = a;
        g[2] = b;
    }
}

static void affine(MPI_Op op, MPI_Datatype t, long count, int ex,
                   int in_place)
{
    uint32_t *s = malloc((size_t)count * 12 + 4);
    uint32_t *d = malloc((size_t)count * 12 + 4);
    CHECK(s && d, "out of memory");
    for (long e = 0; e < count; e++) {
        s[3 * e] = (uint32_t)(2 * rank + 1 + e % 4) | 1;
        s[3 * e + 1] = 0xabcdef;
        s[3 * e + 2] = (uint32_t)(rank * 5 + e);
    }
    memcpy(d, s, count * 12);
    for (long e = 0; e < count; e++)
        d[3 * e + 1] = 0x5a5a5a5a;
    CHECK_MPI((ex ? MPI_Exscan : MPI_Scan)(in_place ? MPI_IN_PLACE : s, d,
                                           (int)count, t, op,
                                           MPI_COMM_WORLD));
    if (ex && rank == 0)
        goto out;
    for (long e = 0; e < count; e++) {
        int hi = ex ? rank : rank + 1;
        uint32_t a = (uint32_t)(2 * (hi - 1) + 1 + e % 4) | 1;
        uint32_t b = (uint32_t)((hi - 1) * 5 + e);
        for (int r = hi - 2; r >= 0; r--) {
            uint32_t ra = (uint32_t)(2 * r + 1 + e % 4) | 1;
            uint32_t rb = (uint32_t)(r * 5 + e);
            b = ra * b + rb;
            a = ra * a;
        }
        CHECK(d[3 * e] == a && d[3 * e + 2] == b,
              "affine %s of %ld: element %ld is (%u, %u), expected (%u, %u)",
              ex ? "exscan" : "scan", count, e, d[3 * e], d[3 * e + 2], a, b);
        CHECK(d[3 * e + 1] == 0x5a5a5a5a, "gap of element %ld written", e);
    }
out:
    free(s);
    free(d);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

    long counts[] = {0, 1, 2, 3, 500, 3000, size > 8 ? 60000 : 400000};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        for (int ex = 0; ex < 2; ex++)
            for (int in_place = 0; in_place < 2; in_place++)
                sums(counts[c], ex, in_place);

    int p = 1, q = 0;
    CHECK_MPI(MPI_Scan(&(int){2}, &p, 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD));
    CHECK(p == 1 << (rank + 1), "product scan: %d", p);
    for (int i = 0; i < 1000; i++) {
        CHECK_MPI(MPI_Exscan(&i, &q, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CHECK(rank == 0 || q == i * rank, "exscan %d: %d", i, q);
    }

    MPI_Op op;
    CHECK_MPI(MPI_Op_create(compose, 0, &op));
    MPI_Datatype gapped;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_UINT32_T, &gapped));
    CHECK_MPI(MPI_Type_commit(&gapped));
    long ucounts[] = {1, 4, 2000, size > 8 ? 20000 : 100000};
    for (size_t c = 0; c < sizeof ucounts / sizeof *ucounts; c++)
        for (int ex = 0; ex < 2; ex++)
            for (int in_place = 0; in_place < 2; in_place++)
                affine(op, gapped, ucounts[c], ex, in_place);

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int x = 0, y;
    double z = 0, w;
    CHECK_CLASS(MPI_Scan(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD),
                MPI_ERR_OP);
    CHECK_CLASS(MPI_Exscan(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD),
                MPI_ERR_OP);
    /* MPI_BAND is not defined on floating point (5.9.2) */
    CHECK_CLASS(MPI_Exscan(&z, &w, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD),
                MPI_ERR_OP);
    CHECK_CLASS(MPI_Exscan(&x, &y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                MPI_ERR_COUNT);

    CHECK_MPI(MPI_Type_free(&gapped));
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
