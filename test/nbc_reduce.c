/* nbc_reduce: MPI_Ireduce and MPI_Iallreduce - MPI_SUM on int, MPI_MAX on double, MPI_MINLOC pairs, a commutative user op on a gapped vector of ints, a non-commutative user op on a contiguous and a gapped type checked against a serial fold at every root, MPI_IN_PLACE, zero counts, up to ~1 MiB; a dozen in flight at once mixed with blocking collectives, completed by Waitall or by polling Testall, with the op and types freed while they run; errors (bad root, invalid op and op not defined on the type for both, negative count, uncommitted type). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stddef.h>
#include <stdint.h>

static int rank, size;

enum kind { INT_SUM, DOUBLE_MAX, VEC_SUM, MINLOC, AFFINE_PAIR, AFFINE_GAP };

/* The types and the op of one batch (freed while the batch runs). */
struct kit {
    MPI_Datatype vec;          /* 3 ints at stride 2: extent 5 ints */
    MPI_Datatype pair;         /* 2 contiguous uint32: (a, b) */
    MPI_Datatype gap;          /* (a, gap, b) as uint32: extent 12 */
    MPI_Op compose;            /* affine maps, not commutative */
    MPI_Op vsum;               /* commutative */
};

struct job {
    enum kind kind;
    int root;                  /* -1: Iallreduce */
    long count;
    int in_place;
    unsigned char *s, *d;
    MPI_Request req;
};

struct dmin {
    double v;
    int i;
};

static const size_t extent_of[] = {sizeof(int), sizeof(double),
                                   5 * sizeof(int), sizeof(struct dmin), 8,
                                   12};
static const char *name_of[] = {"int sum", "double max", "vector sum",
                                "minloc", "affine pair", "affine gapped"};

static int ival(int r, long e) { return (int)((r * 7 + e * 3) % 1000) - 300; }
static double dval(int r, long e) { return (double)((r * 31 + e * 17) % 101) + 0.5; }
static double mval(int r, long e) { return (double)((r * 13 + e * 7) % 10); }
static uint32_t fa(int r, long e) { return (uint32_t)(2 * r + 3 + e % 5) | 1; }
static uint32_t fb(int r, long e) { return (uint32_t)(r * 17 + e); }

/* Sums of the vector type (3 ints at stride 2), as a commutative user
   op: Open MPI does not apply predefined ops to derived types. */
static void vsum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const int *a = in;
    int *b = inout;
    for (int i = 0; i < *len; i++)
        for (int c = 0; c < 6; c += 2)
            b[5 * i + c] += a[5 * i + c];
}

/* (in o inout)(x) for maps x -> a*x + b, wherever b sits in the type. */
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
        uint32_t a = a1 * a2, b = a1 * b2 + b1;
        memcpy(g, &a, 4);
        memcpy(g + b_at, &b, 4);
    }
}

static void kit_make(struct kit *k)
{
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &k->vec));
    CHECK_MPI(MPI_Type_commit(&k->vec));
    CHECK_MPI(MPI_Type_contiguous(2, MPI_UINT32_T, &k->pair));
    CHECK_MPI(MPI_Type_commit(&k->pair));
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_UINT32_T, &k->gap));
    CHECK_MPI(MPI_Type_commit(&k->gap));
    CHECK_MPI(MPI_Op_create(compose, 0, &k->compose));
    CHECK_MPI(MPI_Op_create(vsum, 1, &k->vsum));
}

static void kit_free(struct kit *k)
{
    CHECK_MPI(MPI_Type_free(&k->vec));
    CHECK_MPI(MPI_Type_free(&k->pair));
    CHECK_MPI(MPI_Type_free(&k->gap));
    CHECK_MPI(MPI_Op_free(&k->compose));
    CHECK_MPI(MPI_Op_free(&k->vsum));
}

/* Rank r's element e of a job's kind, written at p. */
static void put(enum kind kind, int r, long e, unsigned char *p)
{
    switch (kind) {
    case INT_SUM: {
        int v = ival(r, e);
        memcpy(p, &v, sizeof v);
        break;
    }
    case DOUBLE_MAX: {
        double v = dval(r, e);
        memcpy(p, &v, sizeof v);
        break;
    }
    case VEC_SUM:
        for (int c = 0; c < 3; c++) {
            int v = ival(r, 3 * e + c);
            memcpy(p + 2 * c * sizeof(int), &v, sizeof v);
        }
        break;
    case MINLOC: { /* the members only: padding keeps its bytes */
        double v = mval(r, e);
        memcpy(p + offsetof(struct dmin, v), &v, sizeof v);
        memcpy(p + offsetof(struct dmin, i), &r, sizeof r);
        break;
    }
    default: {
        uint32_t a = fa(r, e), b = fb(r, e);
        memcpy(p, &a, 4);
        memcpy(p + (kind == AFFINE_PAIR ? 4 : 8), &b, 4);
    }
    }
}

/* The expected element e of the result, written at p (over a copy of
   what the buffer held, so that gaps keep their bytes). */
static void expect(enum kind kind, long e, unsigned char *p)
{
    switch (kind) {
    case INT_SUM: {
        int v = 0;
        for (int r = 0; r < size; r++)
            v += ival(r, e);
        memcpy(p, &v, sizeof v);
        break;
    }
    case DOUBLE_MAX: {
        double v = -1;
        for (int r = 0; r < size; r++)
            v = dval(r, e) > v ? dval(r, e) : v;
        memcpy(p, &v, sizeof v);
        break;
    }
    case VEC_SUM:
        for (int c = 0; c < 3; c++) {
            int v = 0;
            for (int r = 0; r < size; r++)
                v += ival(r, 3 * e + c);
            memcpy(p + 2 * c * sizeof(int), &v, sizeof v);
        }
        break;
    case MINLOC: {
        double v = 1e9;
        int at = -1;
        for (int r = 0; r < size; r++)
            if (mval(r, e) < v) {
                v = mval(r, e);
                at = r;
            }
        memcpy(p + offsetof(struct dmin, v), &v, sizeof v);
        memcpy(p + offsetof(struct dmin, i), &at, sizeof at);
        break;
    }
    default: {
        uint32_t a = fa(size - 1, e), b = fb(size - 1, e);
        for (int r = size - 2; r >= 0; r--) {
            uint32_t na = fa(r, e) * a, nb = fa(r, e) * b + fb(r, e);
            a = na;
            b = nb;
        }
        memcpy(p, &a, 4);
        memcpy(p + (kind == AFFINE_PAIR ? 4 : 8), &b, 4);
    }
    }
}

static MPI_Datatype type_of(const struct kit *k, enum kind kind)
{
    MPI_Datatype t[] = {MPI_INT, MPI_DOUBLE, k->vec, MPI_DOUBLE_INT,
                        k->pair, k->gap};
    return t[kind];
}

static MPI_Op op_of(const struct kit *k, enum kind kind)
{
    MPI_Op o[] = {MPI_SUM, MPI_MAX, k->vsum, MPI_MINLOC, k->compose,
                  k->compose};
    return o[kind];
}

static void start(struct job *j, const struct kit *k, MPI_Comm comm)
{
    size_t bytes = (size_t)j->count * extent_of[j->kind] + 16;
    j->s = malloc(bytes);
    j->d = malloc(bytes);
    CHECK(j->s && j->d, "out of memory");
    memset(j->s, 0x5a, bytes);
    memset(j->d, 0xa5, bytes);
    for (long e = 0; e < j->count; e++)
        put(j->kind, rank, e, j->s + e * extent_of[j->kind]);
    int mine = j->root < 0 || rank == j->root;
    if (j->in_place && mine)
        memcpy(j->d, j->s, bytes);
    const void *src = j->in_place && mine ? MPI_IN_PLACE : j->s;
    MPI_Datatype t = type_of(k, j->kind);
    MPI_Op op = op_of(k, j->kind);
    if (j->root < 0)
        CHECK_MPI(MPI_Iallreduce(src, j->d, (int)j->count, t, op, comm,
                                 &j->req));
    else
        CHECK_MPI(MPI_Ireduce(src, j->d, (int)j->count, t, op, j->root,
                              comm, &j->req));
}

static void verify(struct job *j)
{
    size_t ext = extent_of[j->kind];
    size_t bytes = (size_t)j->count * ext + 16;
    int mine = j->root < 0 || rank == j->root;
    unsigned char *want = malloc(bytes);
    CHECK(want, "out of memory");
    if (j->in_place && mine) /* gaps keep the sender's bytes */
        memset(want, 0x5a, bytes);
    else
        memset(want, 0xa5, bytes);
    for (long e = 0; mine && e < j->count; e++)
        expect(j->kind, e, want + e * ext);
    for (long e = 0; e < j->count; e++)
        CHECK(memcmp(want + e * ext, j->d + e * ext, ext) == 0,
              "%s of %ld (%s, root %d, in place %d): element %ld wrong",
              name_of[j->kind], j->count,
              j->root < 0 ? "Iallreduce" : "Ireduce", j->root, j->in_place,
              e);
    CHECK(memcmp(want + j->count * ext, j->d + j->count * ext, 16) == 0,
          "%s of %ld: written past the end", name_of[j->kind], j->count);
    free(want);
    free(j->s);
    free(j->d);
}

/* A batch of n jobs in flight at once on comm, with a blocking
   allreduce and a barrier in between; the kit's handles are freed
   before the jobs complete.  poll: complete by MPI_Testall. */
static void batch(struct job *jobs, int n, MPI_Comm comm, int poll)
{
    struct kit k;
    kit_make(&k);
    MPI_Request reqs[64];
    for (int i = 0; i < n; i++) {
        start(&jobs[i], &k, comm);
        reqs[i] = jobs[i].req;
    }
    kit_free(&k);
    int one = 1, all;
    CHECK_MPI(MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, comm));
    CHECK(all == size, "blocking allreduce among nonblocking ones: %d", all);
    CHECK_MPI(MPI_Barrier(comm));
    if (poll) {
        int done = 0;
        while (!done)
            CHECK_MPI(MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE));
    } else {
        CHECK_MPI(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
    }
    for (int i = 0; i < n; i++) {
        CHECK(reqs[i] == MPI_REQUEST_NULL, "request %d not freed", i);
        verify(&jobs[i]);
    }
}

/* Every kind at one count, reduced and allreduced, in place or not. */
static void all_kinds(long count, int poll)
{
    struct job jobs[4 * 6];
    int n = 0;
    for (int kind = INT_SUM; kind <= AFFINE_GAP; kind++)
        for (int v = 0; v < 4; v++)
            jobs[n++] = (struct job){
                .kind = (enum kind)kind,
                .root = v < 2 ? -1 : (int)((kind + v + count) % size),
                .count = count, .in_place = v & 1};
    batch(jobs, n, MPI_COMM_WORLD, poll);
}

static void errors(void)
{
    int x[2] = {1, 1}, y[2];
    double z = 1, w;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm comm = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Ireduce(x, y, 1, MPI_INT, MPI_SUM, size, comm, &req),
                MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Ireduce(x, y, 1, MPI_INT, MPI_SUM, -1, comm, &req),
                MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Iallreduce(x, y, 1, MPI_INT, MPI_OP_NULL, comm, &req),
                MPI_ERR_OP);
    CHECK_CLASS(MPI_Ireduce(x, y, 1, MPI_INT, MPI_OP_NULL, 0, comm, &req),
                MPI_ERR_OP);
    CHECK_CLASS(MPI_Ireduce(&z, &w, 1, MPI_DOUBLE, MPI_BAND, 0, comm, &req),
                MPI_ERR_OP);
    CHECK_CLASS(MPI_Iallreduce(&z, &w, 1, MPI_DOUBLE, MPI_BAND, comm, &req),
                MPI_ERR_OP);
    CHECK_CLASS(MPI_Iallreduce(x, y, -2, MPI_INT, MPI_SUM, comm, &req),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Ireduce(x, y, -1, MPI_INT, MPI_SUM, 0, comm, &req),
                MPI_ERR_COUNT);
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &loose));
    MPI_Op op; /* a user op is defined for every type: only the commit is
                  missing */
    CHECK_MPI(MPI_Op_create(compose, 0, &op));
    CHECK_CLASS(MPI_Iallreduce(x, y, 1, loose, op, comm, &req),
                MPI_ERR_TYPE);
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

    long counts[] = {0, 1, 5, 1000, 9000, size > 8 ? 12000 : 50000};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        all_kinds(counts[c], (int)c & 1);

    /* one large one alone: messages of about 1 MiB */
    struct job big = {.kind = INT_SUM, .root = -1,
                      .count = size > 8 ? 60000 : 250000};
    batch(&big, 1, MPI_COMM_WORLD, 0);
    big.root = size - 1;
    big.in_place = 1;
    batch(&big, 1, MPI_COMM_WORLD, 1);

    /* on a communicator of its own, reversed ranks */
    MPI_Comm rev;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
    CHECK_MPI(MPI_Comm_rank(rev, &rank));
    struct job rj[2] = {{.kind = AFFINE_GAP, .root = -1, .count = 77},
                        {.kind = AFFINE_PAIR, .root = 0, .count = 77}};
    batch(rj, 2, rev, 0);
    CHECK_MPI(MPI_Comm_free(&rev));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));

    errors();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
