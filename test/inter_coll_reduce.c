/* inter_coll_reduce: the reductions on an intercommunicator (the world ranks divisible by 3 against the rest, so the groups differ in size and interleave), blocking and nonblocking - MPI_Reduce and MPI_Ireduce to every root of either group (MPI_ROOT / MPI_PROC_NULL), Allreduce, Reduce_scatter_block and Reduce_scatter with uneven and zero segments, each group getting the other's data; MPI_SUM on ints and a non-commutative user op on a gapped type checked against a serial fold; zero counts; all the nonblocking ones in flight at once; errors (Scan and Iscan: MPI_ERR_COMM; bad roots; inter_coll_reduce_ext has the rest). */
/* shmpi-test: np=2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

static int group, lrank, lsize, rsize; /* group 0: world ranks 3k */
static MPI_Datatype gapped;            /* (a, gap, b) as uint32 */
static MPI_Op affine;                  /* composition, not commutative */

enum kind { INT_SUM, AFFINE };
enum what { REDUCE, ALLREDUCE, SCATTER_BLOCK, SCATTER };
static const char *what_name[] = {"reduce", "allreduce",
                                  "reduce_scatter_block", "reduce_scatter"};
static const size_t extent_of[] = {sizeof(int), 12};

static int ival(int g, int r, long e) { return (int)((g * 577 + r * 7 + e * 3) % 1000) - 300; }
static uint32_t fa(int g, int r, long e) { return (uint32_t)(2 * r + 3 * g + 3 + e % 5) | 1; }
static uint32_t fb(int g, int r, long e) { return (uint32_t)(r * 17 + g * 1000 + e); }

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

/* Member r of group g's element e at p. */
static void put(enum kind kind, int g, int r, long e, unsigned char *p)
{
    if (kind == INT_SUM) {
        int v = ival(g, r, e);
        memcpy(p, &v, sizeof v);
        return;
    }
    uint32_t a = fa(g, r, e), b = fb(g, r, e);
    memcpy(p, &a, 4);
    memcpy(p + 8, &b, 4);
}

/* Element e of group g's (n members) reduction, in rank order, at p. */
static void folded(enum kind kind, int g, int n, long e, unsigned char *p)
{
    if (kind == INT_SUM) {
        int v = 0;
        for (int r = 0; r < n; r++)
            v += ival(g, r, e);
        memcpy(p, &v, sizeof v);
        return;
    }
    uint32_t a = fa(g, n - 1, e), b = fb(g, n - 1, e);
    for (int r = n - 2; r >= 0; r--) {
        b = fa(g, r, e) * b + fb(g, r, e);
        a = fa(g, r, e) * a;
    }
    memcpy(p, &a, 4);
    memcpy(p + 8, &b, 4);
}

struct job {
    enum kind kind;
    enum what what;
    int root_group, root;      /* REDUCE: the root, a rank of root_group */
    long count;                /* the whole vector */
    int *counts;               /* SCATTER: this group's segments */
    long first, mine;          /* this member's part of the result */
    unsigned char *s, *d;
};

/* This group's segments of a vector of `total`: uneven, some empty. */
static int *segments(long total)
{
    int *c = calloc((size_t)lsize, sizeof *c);
    CHECK(c, "out of memory");
    long left = total;
    for (int i = 0; i < lsize - 1; i++) {
        long want = (long)((i * 7 + 1) % 4) * total / (2 * lsize);
        c[i] = (int)(want < left ? want : left);
        left -= c[i];
    }
    c[lsize - 1] = (int)left;
    return c;
}

static void prepare(struct job *j)
{
    size_t ext = extent_of[j->kind], bytes = (size_t)j->count * ext + 16;
    j->s = malloc(bytes);
    j->d = malloc(bytes);
    CHECK(j->s && j->d, "out of memory");
    memset(j->s, 0x5a, bytes);
    memset(j->d, 0xa5, bytes);
    for (long e = 0; e < j->count; e++)
        put(j->kind, group, lrank, e, j->s + e * ext);
    j->first = 0;
    j->mine = j->count;
    if (j->what == SCATTER_BLOCK) {
        j->mine = j->count / lsize;
        j->first = j->mine * lrank;
    } else if (j->what == SCATTER) {
        j->counts = segments(j->count);
        for (int i = 0; i < lrank; i++)
            j->first += j->counts[i];
        j->mine = j->counts[lrank];
    } else if (j->what == REDUCE &&
               (group != j->root_group || lrank != j->root)) {
        j->mine = 0;
    }
}

/* The root argument of a REDUCE job here. */
static int root_arg(const struct job *j)
{
    if (group != j->root_group)
        return j->root;
    return lrank == j->root ? MPI_ROOT : MPI_PROC_NULL;
}

/* Start (req) or run (req NULL) the job on comm. */
static void issue(struct job *j, MPI_Comm comm, MPI_Request *req)
{
    MPI_Datatype t = j->kind == INT_SUM ? MPI_INT : gapped;
    MPI_Op op = j->kind == INT_SUM ? MPI_SUM : affine;
    int n = (int)j->count;
    switch (j->what) {
    case REDUCE:
        CHECK_MPI(req ? MPI_Ireduce(j->s, j->d, n, t, op, root_arg(j), comm,
                                    req)
                      : MPI_Reduce(j->s, j->d, n, t, op, root_arg(j),
                                   comm));
        break;
    case ALLREDUCE:
        CHECK_MPI(req ? MPI_Iallreduce(j->s, j->d, n, t, op, comm, req)
                      : MPI_Allreduce(j->s, j->d, n, t, op, comm));
        break;
    case SCATTER_BLOCK:
        CHECK_MPI(req ? MPI_Ireduce_scatter_block(j->s, j->d, (int)j->mine,
                                                  t, op, comm, req)
                      : MPI_Reduce_scatter_block(j->s, j->d, (int)j->mine, t,
                                                 op, comm));
        break;
    case SCATTER:
        CHECK_MPI(req ? MPI_Ireduce_scatter(j->s, j->d, j->counts, t, op,
                                            comm, req)
                      : MPI_Reduce_scatter(j->s, j->d, j->counts, t, op,
                                           comm));
        break;
    }
}

static void verify(struct job *j)
{
    size_t ext = extent_of[j->kind];
    unsigned char want[16];
    for (long e = 0; e < j->mine; e++) {
        memset(want, 0xa5, sizeof want);
        folded(j->kind, !group, rsize, j->first + e, want);
        CHECK(memcmp(want, j->d + e * ext, ext) == 0,
              "%s kind %d of %ld (root %d of group %d): element %ld of %ld "
              "wrong", what_name[j->what], j->kind, j->count, j->root,
              j->root_group, e, j->mine);
    }
    for (size_t b = 0; b < 16; b++)
        CHECK(j->d[j->mine * ext + b] == 0xa5, "%s: written past the end",
              what_name[j->what]);
    free(j->s);
    free(j->d);
    free(j->counts);
}

/* Every job shape at vector length `count` (a multiple of both group
   sizes): run one by one (blocking) or all in flight at once. */
static void round_of(long count, MPI_Comm comm, int blocking)
{
    struct job jobs[64];
    MPI_Request reqs[64];
    int n = 0, gsize[2];
    gsize[group] = lsize;
    gsize[!group] = rsize;
    for (int kind = INT_SUM; kind <= AFFINE; kind++) {
        for (int g = 0; g < 2; g++)
            for (int r = 0; r < gsize[g]; r += gsize[g] > 3 ? 3 : 1)
                jobs[n++] = (struct job){.kind = (enum kind)kind,
                                         .what = REDUCE, .root_group = g,
                                         .root = r, .count = count};
        for (int w = ALLREDUCE; w <= SCATTER; w++)
            jobs[n++] = (struct job){.kind = (enum kind)kind,
                                     .what = (enum what)w, .count = count};
    }
    CHECK(n <= 64, "too many jobs");
    for (int i = 0; i < n; i++) {
        prepare(&jobs[i]);
        issue(&jobs[i], comm, blocking ? NULL : &reqs[i]);
    }
    if (!blocking)
        CHECK_MPI(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; i++)
        verify(&jobs[i]);
}

static void errors(MPI_Comm comm)
{
    int x[4] = {1, 2, 3, 4}, y[4];
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Scan(x, y, 1, MPI_INT, MPI_SUM, comm), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Iscan(x, y, 1, MPI_INT, MPI_SUM, comm, &req),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Reduce(x, y, 1, MPI_INT, MPI_SUM, rsize, comm),
                MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Ireduce(x, y, 1, MPI_INT, MPI_SUM, -7, comm, &req),
                MPI_ERR_ROOT);
    CHECK(req == MPI_REQUEST_NULL, "a failed call set the request");
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    int wrank;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
    group = wrank % 3 != 0;
    MPI_Comm local, inter;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, group, wrank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, !group, 31,
                                   &inter));
    CHECK_MPI(MPI_Comm_rank(inter, &lrank));
    CHECK_MPI(MPI_Comm_size(inter, &lsize));
    CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_UINT32_T, &gapped));
    CHECK_MPI(MPI_Type_commit(&gapped));
    CHECK_MPI(MPI_Op_create(compose, 0, &affine));

    long unit = (long)lsize * rsize; /* both groups' counts divide it */
    long mult[] = {0, 1, 3, 700};
    for (int blocking = 1; blocking >= 0; blocking--)
        for (size_t m = 0; m < sizeof mult / sizeof *mult; m++)
            round_of(unit * mult[m], inter, blocking);
    errors(inter);

    CHECK_MPI(MPI_Op_free(&affine));
    CHECK_MPI(MPI_Type_free(&gapped));
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
