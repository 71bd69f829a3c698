/* nbc_reduce_scatter: MPI_Ireduce_scatter_block and MPI_Ireduce_scatter - MPI_SUM on ints, a commutative user op on a gapped vector of ints, a non-commutative user op (2x2 matrix products) checked against a serial fold, uneven and zero segments, MPI_IN_PLACE, vectors up to ~1 MiB, several in flight at once with the counts arrays and the ops freed while they run; errors (negative counts, invalid op for both, uncommitted type). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

static int rank, size;

enum kind { INT_SUM, VEC_SUM, MATRIX };
static const size_t extent_of[] = {sizeof(int), 5 * sizeof(int), 16};

static int ival(int r, long e) { return (int)((r * 11 + e * 5) % 997) - 400; }

/* 2x2 matrices of uint32 mod 2^32, multiplied: not commutative. */
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

/* Rank r's element e, or (r < 0) the reduced element e, at p. */
static void put(enum kind kind, int r, long e, unsigned char *p)
{
    if (kind == MATRIX) {
        uint32_t m[4], x[4];
        int one = 1;
        MPI_Datatype dummy = MPI_DATATYPE_NULL;
        mval(r < 0 ? size - 1 : r, e, m);
        for (int q = size - 2; r < 0 && q >= 0; q--) {
            mval(q, e, x);
            matmul(x, m, &one, &dummy);
        }
        memcpy(p, m, sizeof m);
        return;
    }
    int comps = kind == VEC_SUM ? 3 : 1;
    for (int c = 0; c < comps; c++) {
        long at = comps * e + c;
        int v = 0;
        if (r >= 0)
            v = ival(r, at);
        for (int q = 0; r < 0 && q < size; q++)
            v += ival(q, at);
        memcpy(p + 2 * c * sizeof(int), &v, sizeof v);
    }
}

struct job {
    enum kind kind;
    int block, in_place;
    int *counts;               /* freed once started */
    long total, first, mine;
    unsigned char *s, *d;
};

static void start(struct job *j, MPI_Datatype vec, MPI_Datatype mat,
                  const MPI_Op op[2], MPI_Request *req)
{
    size_t ext = extent_of[j->kind];
    j->total = j->first = 0;
    for (int r = 0; r < size; r++) {
        j->first += r < rank ? j->counts[r] : 0;
        j->total += j->counts[r];
    }
    j->mine = j->counts[rank];
    size_t sbytes = (size_t)j->total * ext + 16;
    j->s = malloc(sbytes);
    j->d = malloc(sbytes);
    CHECK(j->s && j->d, "out of memory");
    memset(j->s, 0x5a, sbytes);
    memset(j->d, 0xa5, sbytes);
    for (long e = 0; e < j->total; e++)
        put(j->kind, rank, e, j->s + e * ext);
    if (j->in_place)
        memcpy(j->d, j->s, sbytes);
    const void *src = j->in_place ? MPI_IN_PLACE : j->s;
    MPI_Datatype t = j->kind == INT_SUM ? MPI_INT
                     : j->kind == VEC_SUM ? vec : mat;
    MPI_Op o = j->kind == INT_SUM ? MPI_SUM : op[j->kind == MATRIX];
    if (j->block)
        CHECK_MPI(MPI_Ireduce_scatter_block(src, j->d, j->counts[0], t, o,
                                            MPI_COMM_WORLD, req));
    else
        CHECK_MPI(MPI_Ireduce_scatter(src, j->d, j->counts, t, o,
                                      MPI_COMM_WORLD, req));
    free(j->counts); /* 5.12: only buffers must wait for completion */
}

static void verify(struct job *j)
{
    size_t ext = extent_of[j->kind];
    unsigned char *want = malloc(ext);
    CHECK(want, "out of memory");
    for (long e = 0; e < j->mine; e++) {
        memset(want, j->in_place ? 0x5a : 0xa5, ext);
        put(j->kind, -1, j->first + e, want);
        CHECK(memcmp(want, j->d + e * ext, ext) == 0,
              "reduce_scatter%s kind %d (in place %d): element %ld of %ld "
              "wrong", j->block ? "_block" : "", j->kind, j->in_place, e,
              j->mine);
    }
    if (!j->in_place)
        for (size_t b = 0; b < 16; b++)
            CHECK(j->d[j->mine * ext + b] == 0xa5, "written past the end");
    free(want);
    free(j->s);
    free(j->d);
}

/* Every kind, block and v form, in place or not, at one block size:
   twelve in flight. */
static void batch(int block_count, MPI_Datatype vec, MPI_Datatype mat)
{
    MPI_Op op[2];
    CHECK_MPI(MPI_Op_create(vsum, 1, &op[0]));
    CHECK_MPI(MPI_Op_create(matmul, 0, &op[1]));
    struct job jobs[12];
    MPI_Request reqs[12];
    int n = 0;
    for (int kind = INT_SUM; kind <= MATRIX; kind++)
        for (int v = 0; v < 4; v++, n++) {
            struct job *j = &jobs[n];
            *j = (struct job){.kind = (enum kind)kind, .block = v < 2,
                              .in_place = v & 1};
            j->counts = malloc((size_t)size * sizeof *j->counts);
            CHECK(j->counts, "out of memory");
            for (int r = 0; r < size; r++)
                j->counts[r] = j->block ? block_count
                               : (int)((r * 7 + v + kind) % 4) *
                                     block_count / 2;
            start(j, vec, mat, op, &reqs[n]);
        }
    CHECK_MPI(MPI_Op_free(&op[0]));
    CHECK_MPI(MPI_Op_free(&op[1]));
    CHECK_MPI(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; i++)
        verify(&jobs[i]);
}

static void errors(void)
{
    int x[64] = {0}, y[64];
    MPI_Request req = MPI_REQUEST_NULL;
    int *counts = calloc((size_t)size, sizeof *counts);
    CHECK(counts, "out of memory");
    MPI_Comm comm = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Ireduce_scatter(x, y, counts, MPI_INT, MPI_OP_NULL,
                                    comm, &req), MPI_ERR_OP);
    counts[size - 1] = -1;
    CHECK_CLASS(MPI_Ireduce_scatter(x, y, counts, MPI_INT, MPI_SUM, comm,
                                    &req), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Ireduce_scatter_block(x, y, -3, MPI_INT, MPI_SUM, comm,
                                          &req), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Ireduce_scatter_block(x, y, 1, MPI_INT, MPI_OP_NULL,
                                          comm, &req), MPI_ERR_OP);
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &loose));
    MPI_Op op; /* a user op is defined for every type: only the commit is
                  missing */
    CHECK_MPI(MPI_Op_create(matmul, 0, &op));
    CHECK_CLASS(MPI_Ireduce_scatter_block(x, y, 1, loose, op, comm, &req),
                MPI_ERR_TYPE);
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Type_free(&loose));
    CHECK(req == MPI_REQUEST_NULL, "a failed call set the request");
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL));
    free(counts);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Datatype vec, mat;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    CHECK_MPI(MPI_Type_contiguous(4, MPI_UINT32_T, &mat));
    CHECK_MPI(MPI_Type_commit(&mat));

    int blocks[] = {0, 1, 3, 700, size > 8 ? 1000 : 12000};
    for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++)
        batch(blocks[b], vec, mat);

    errors();
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_free(&mat));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
