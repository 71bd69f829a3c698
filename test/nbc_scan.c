/* nbc_scan: MPI_Iscan and MPI_Iexscan - MPI_SUM on longs, a non-commutative user op (affine maps) on a gapped vector type checked against a serial fold, MPI_IN_PLACE, zero counts, vectors up to ~1 MiB, sixteen in flight at once, a long run of small ones overlapping blocking scans, the op freed while they run; errors (invalid op and op not defined on the type for both, negative count, uncommitted type). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

static int rank, size;

static long lval(int r, long e) { return (r * 13 + e * 3) % 1001 - 500; }
static uint32_t fa(int r, long e) { return (uint32_t)(2 * r + 1 + e % 4) | 1; }
static uint32_t fb(int r, long e) { return (uint32_t)(r * 5 + e); }

/* Affine maps in a vector type with a gap: (a, gap, b). */
static void compose(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++) {
        uint32_t *f = (uint32_t *)in + 3 * i, *g = (uint32_t *)inout + 3 * i;
        uint32_t a = f[0] * g[0], b = f[0] * g[2] + f[2];
        g[0] = a;
        g[2] = b;
    }
}

struct job {
    int affine, ex, in_place;
    long count;
    void *s, *d;
};

static void start(struct job *j, MPI_Op op, MPI_Datatype gapped,
                  MPI_Request *req)
{
    long n = j->count;
    if (j->affine) {
        uint32_t *s = malloc((size_t)n * 12 + 16), *d = malloc((size_t)n * 12 + 16);
        CHECK(s && d, "out of memory");
        for (long e = 0; e < n; e++) {
            s[3 * e] = fa(rank, e);
            s[3 * e + 1] = 0xabcdef;
            s[3 * e + 2] = fb(rank, e);
        }
        memset(d, 0x5a, (size_t)n * 12 + 16);
        if (j->in_place)
            for (long e = 0; e < n; e++) {
                d[3 * e] = s[3 * e];
                d[3 * e + 2] = s[3 * e + 2];
            }
        j->s = s;
        j->d = d;
    } else {
        long *s = malloc((size_t)(n + 2) * sizeof *s);
        long *d = malloc((size_t)(n + 2) * sizeof *d);
        CHECK(s && d, "out of memory");
        for (long e = 0; e < n + 2; e++) {
            s[e] = lval(rank, e);
            d[e] = j->in_place && e < n ? s[e] : 4242;
        }
        j->s = s;
        j->d = d;
    }
    const void *src = j->in_place ? MPI_IN_PLACE : j->s;
    MPI_Datatype t = j->affine ? gapped : MPI_LONG;
    MPI_Op o = j->affine ? op : MPI_SUM;
    if (j->ex)
        CHECK_MPI(MPI_Iexscan(src, j->d, (int)n, t, o, MPI_COMM_WORLD, req));
    else
        CHECK_MPI(MPI_Iscan(src, j->d, (int)n, t, o, MPI_COMM_WORLD, req));
}

static void verify(struct job *j)
{
    int hi = j->ex ? rank : rank + 1; /* folds x0 .. x(hi-1) */
    const char *what = j->ex ? "iexscan" : "iscan";
    if (j->affine) {
        uint32_t *d = j->d;
        for (long e = 0; hi > 0 && e < j->count; e++) {
            uint32_t a = fa(hi - 1, e), b = fb(hi - 1, e);
            for (int r = hi - 2; r >= 0; r--) {
                b = fa(r, e) * b + fb(r, e);
                a = fa(r, e) * a;
            }
            CHECK(d[3 * e] == a && d[3 * e + 2] == b,
                  "affine %s of %ld (in place %d): element %ld is (%u, %u), "
                  "expected (%u, %u)", what, j->count, j->in_place, e,
                  d[3 * e], d[3 * e + 2], a, b);
            CHECK(d[3 * e + 1] == 0x5a5a5a5a, "gap of element %ld written",
                  e);
        }
        CHECK(d[3 * j->count] == 0x5a5a5a5a, "%s: written past the end",
              what);
    } else {
        long *d = j->d;
        for (long e = 0; hi > 0 && e < j->count; e++) {
            long want = 0;
            for (int r = 0; r < hi; r++)
                want += lval(r, e);
            CHECK(d[e] == want, "%s of %ld (in place %d): element %ld is "
                  "%ld, expected %ld", what, j->count, j->in_place, e, d[e],
                  want);
        }
        CHECK(d[j->count] == 4242, "%s: written past the end", what);
    }
    free(j->s);
    free(j->d);
}

/* Sixteen at once: both calls, both kinds, in place or not, two
   counts. */
static void batch(long c1, long c2, MPI_Datatype gapped)
{
    MPI_Op op;
    CHECK_MPI(MPI_Op_create(compose, 0, &op));
    struct job jobs[16];
    MPI_Request reqs[16];
    for (int i = 0; i < 16; i++) {
        jobs[i] = (struct job){.affine = i & 1, .ex = (i >> 1) & 1,
                               .in_place = (i >> 2) & 1,
                               .count = i & 8 ? c2 : c1};
        start(&jobs[i], op, gapped, &reqs[i]);
    }
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Waitall(16, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 16; i++)
        verify(&jobs[i]);
}

/* Many small ones, each overlapping a blocking scan started after it. */
static void overlap(void)
{
    for (int i = 0; i < 300; i++) {
        int q = -1, p = 0, one = 1;
        MPI_Request req;
        CHECK_MPI(MPI_Iexscan(&i, &q, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                              &req));
        CHECK_MPI(MPI_Scan(&one, &p, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CHECK(p == rank + 1, "blocking scan among nonblocking ones: %d", p);
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK(rank == 0 || q == i * rank, "iexscan %d: %d", i, q);
    }
}

static void errors(void)
{
    int x[2] = {0, 0}, y[2];
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm comm = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    double z = 0, w;
    CHECK_CLASS(MPI_Iscan(x, y, 1, MPI_INT, MPI_OP_NULL, comm, &req),
                MPI_ERR_OP);
    CHECK_CLASS(MPI_Iexscan(x, y, 1, MPI_INT, MPI_OP_NULL, comm, &req),
                MPI_ERR_OP);
    /* MPI_BAND is not defined on floating point (5.9.2) */
    CHECK_CLASS(MPI_Iexscan(&z, &w, 1, MPI_DOUBLE, MPI_BAND, comm, &req),
                MPI_ERR_OP);
    CHECK_CLASS(MPI_Iexscan(x, y, -1, MPI_INT, MPI_SUM, comm, &req),
                MPI_ERR_COUNT);
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &loose));
    MPI_Op op; /* a user op is defined for every type: only the commit is
                  missing */
    CHECK_MPI(MPI_Op_create(compose, 0, &op));
    CHECK_CLASS(MPI_Iscan(x, y, 1, loose, op, comm, &req), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Type_free(&loose));
    CHECK(req == MPI_REQUEST_NULL, "a failed call set the request");
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Datatype gapped;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_UINT32_T, &gapped));
    CHECK_MPI(MPI_Type_commit(&gapped));

    batch(0, 1, gapped);
    batch(3, 500, gapped);
    batch(size > 8 ? 2000 : 20000, size > 8 ? 8000 : 90000, gapped);
    overlap();

    errors();
    CHECK_MPI(MPI_Type_free(&gapped));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
