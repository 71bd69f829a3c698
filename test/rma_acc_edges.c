/* rma_acc_edges: the accumulate family's edges on every window flavor - MPI_Accumulate, MPI_Get_accumulate, MPI_Raccumulate and MPI_Rget_accumulate with derived origin (vector, indexed, struct, resized) and result types against contiguous or other derived target types: exact values at the target and fetched, gaps and guard ints untouched; MPI_PROC_NULL targets of all six accumulate-family calls and zero counts succeed and move nothing; PSCW epochs posted with MPI_MODE_NOSTORE and NOSTORE|NOPUT. */
/* shmpi-test: np=1,2,3,4 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each rank is the target of its left neighbour only (of itself at
 * np = 1).  A window holds GUARD fill ints, a region of SPAN ints and
 * GUARD fill ints again; a case's target type covers DATA ints of the
 * region.  Every rank models the DATA ints of its own window and of its
 * target's, applies to both what each call must do, and after every
 * epoch compares its whole window with the model (every int the target
 * type does not cover: the fill) and each buffer it fetched into with
 * the old values the model gives.  The int offsets of a test type are
 * computed here from the block lists that build it, not asked of MPI.
 */
#include "rma_win.h"

#define DATA 6                       /* ints moved per call */
#define SPAN 16                      /* ints any test type spans */
#define GUARD 8
#define WIN (GUARD + SPAN + GUARD)   /* ints of a window */
#define FILL ((int)0xeeeeeeee)       /* twin_open's fill, as an int */

struct ttype {
    const char *name;
    MPI_Datatype t;
    int count;
    int off[DATA];                   /* int offset of element k */
};

struct acase {
    const struct ttype *o, *t, *r;   /* origin, target, result */
};

struct ctx {
    struct twin *w;
    const struct acase *c;
    int mine[DATA], theirs[DATA];    /* my window's data, my target's */
    char where[160];
};

static int me, np, left, right;

static MPI_Datatype commit(MPI_Datatype t)
{
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

/* count copies, ext ints apart, of nblk blocks of blen ints with the
   given stride (ext 0: the vector itself, count 1). */
static struct ttype vector_type(const char *name, int nblk, int blen,
                                int stride, int ext, int count)
{
    struct ttype d = {.name = name, .count = count};
    CHECK(count == 1 || ext, "%s: copies need an extent", name);
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(nblk, blen, stride, MPI_INT, &v));
    d.t = v;
    if (ext) {
        CHECK_MPI(MPI_Type_create_resized(v, 0, (MPI_Aint)ext * sizeof(int),
                                          &d.t));
        CHECK_MPI(MPI_Type_free(&v));
    }
    d.t = commit(d.t);
    int k = 0;
    for (int c = 0; c < count; c++)
        for (int b = 0; b < nblk; b++)
            for (int j = 0; j < blen; j++)
                d.off[k++] = c * ext + b * stride + j;
    CHECK(k == DATA, "%s covers %d ints", name, k);
    return d;
}

/* Blocks of len[i] ints at disp[i] ints, as MPI_Type_indexed or as a
   struct of MPI_INT blocks at byte displacements. */
static struct ttype blocks_type(const char *name, int n, const int *len,
                                const int *disp, int as_struct)
{
    struct ttype d = {.name = name, .count = 1};
    MPI_Aint bytes[4];
    MPI_Datatype ints[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
    for (int i = 0; i < n; i++)
        bytes[i] = (MPI_Aint)disp[i] * sizeof(int);
    if (as_struct)
        CHECK_MPI(MPI_Type_create_struct(n, len, bytes, ints, &d.t));
    else
        CHECK_MPI(MPI_Type_indexed(n, len, disp, MPI_INT, &d.t));
    d.t = commit(d.t);
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < len[i]; j++)
            d.off[k++] = disp[i] + j;
    CHECK(k == DATA, "%s covers %d ints", name, k);
    return d;
}

static int value(int origin, int step, int k)
{
    return (origin + 1) * 1000 + step * 100 + k;
}

/* What op does to the data t when origin contributes its values of
   step; old (if not NULL) gets t as it was. */
static void apply(int *t, MPI_Op op, int origin, int step, int *old)
{
    for (int k = 0; k < DATA; k++) {
        if (old)
            old[k] = t[k];
        if (op == MPI_SUM)
            t[k] += value(origin, step, k);
        else if (op == MPI_REPLACE)
            t[k] = value(origin, step, k);
    }
}

/* Every rank does the same call to its right: my window gets the left
   neighbour's values, my target mine. */
static void model_step(struct ctx *x, MPI_Op op, int step, int *old)
{
    apply(x->mine, op, left, step, NULL);
    apply(x->theirs, op, me, step, old);
}

/* buf's n ints hold vals at base + d's offsets (nothing when vals is
   NULL) and the fill everywhere else. */
static void check_image(const struct ctx *x, const int *buf, int n, int base,
                        const struct ttype *d, const int *vals,
                        const char *what)
{
    int want[WIN];
    CHECK(n <= WIN, "images are up to %d ints", WIN);
    for (int i = 0; i < n; i++)
        want[i] = FILL;
    for (int k = 0; vals && k < DATA; k++)
        want[base + d->off[k]] = vals[k];
    for (int i = 0; i < n; i++)
        CHECK(buf[i] == want[i], "%s: %s: int %d is %d, expected %d",
              x->where, what, i, buf[i], want[i]);
}

static void check_window(const struct ctx *x, const char *what)
{
    check_image(x, (const int *)x->w->base, WIN, GUARD, x->c->t, x->mine,
                what);
}

/* obuf: my values of step at the origin type's offsets, fill between. */
static void origin_data(const struct ttype *d, int step, int *obuf,
                        int *vals)
{
    for (int i = 0; i < SPAN; i++)
        obuf[i] = FILL;
    for (int k = 0; k < DATA; k++)
        obuf[d->off[k]] = vals[k] = value(me, step, k);
}

static void fill(int *buf, int n)
{
    for (int i = 0; i < n; i++)
        buf[i] = FILL;
}

static MPI_Aint region(const struct ctx *x)
{
    return twin_disp(x->w, right, GUARD * sizeof(int));
}

/* Local stores while no epoch is open: the next one starts with them. */
static void reset(struct ctx *x)
{
    int *mem = (int *)x->w->base;
    fill(mem, WIN);
    for (int k = 0; k < DATA; k++) {
        x->mine[k] = x->theirs[k] = 50 + k;
        mem[GUARD + x->c->t->off[k]] = x->mine[k];
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

enum call { ACC, GET_ACC, RACC, RGET_ACC };
static const char *const call_names[] = {
    "MPI_Accumulate", "MPI_Get_accumulate", "MPI_Raccumulate",
    "MPI_Rget_accumulate"};

static void issue(const struct ctx *x, enum call call, MPI_Op op,
                  const int *obuf, int *rbuf, MPI_Request *req)
{
    const struct ttype *o = x->c->o, *t = x->c->t, *r = x->c->r;
    MPI_Win win = x->w->win;
    MPI_Aint d = region(x);
    if (call == ACC)
        CHECK_MPI(MPI_Accumulate(obuf, o->count, o->t, right, d, t->count,
                                 t->t, op, win));
    else if (call == GET_ACC)
        CHECK_MPI(MPI_Get_accumulate(obuf, o->count, o->t, rbuf, r->count,
                                     r->t, right, d, t->count, t->t, op,
                                     win));
    else if (call == RACC)
        CHECK_MPI(MPI_Raccumulate(obuf, o->count, o->t, right, d, t->count,
                                  t->t, op, win, req));
    else
        CHECK_MPI(MPI_Rget_accumulate(obuf, o->count, o->t, rbuf, r->count,
                                      r->t, right, d, t->count, t->t, op,
                                      win, req));
}

/* One call in its own epoch: a fence one (closed with NOSUCCEED, as a
   lock or PSCW epoch may come next), or lock_all for the request-based
   calls, whose result is there once MPI_Wait returns. */
static void family_step(struct ctx *x, enum call call, MPI_Op op, int step)
{
    int obuf[SPAN], vals[DATA], rbuf[SPAN], old[DATA];
    int fetch = call == GET_ACC || call == RGET_ACC;
    MPI_Request req = MPI_REQUEST_NULL;
    origin_data(x->c->o, step, obuf, vals);
    fill(rbuf, SPAN);
    model_step(x, op, step, old);
    if (call >= RACC) {
        /* no fence to wait for: the target checked the last epoch */
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Win_lock_all(0, x->w->win));
        issue(x, call, op, obuf, rbuf, &req);
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK(req == MPI_REQUEST_NULL, "%s: MPI_Wait left the request of %s",
              x->where, call_names[call]);
        check_image(x, rbuf, SPAN, 0, x->c->r, fetch ? old : NULL,
                    call_names[call]);
        CHECK_MPI(MPI_Win_unlock_all(x->w->win));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Win_fence(0, x->w->win));
        issue(x, call, op, obuf, rbuf, &req);
        CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, x->w->win));
        check_image(x, rbuf, SPAN, 0, x->c->r, fetch ? old : NULL,
                    call_names[call]);
    }
    check_window(x, call_names[call]);
    check_image(x, obuf, SPAN, 0, x->c->o, vals, "the origin buffer");
}

/* PSCW, the target never storing: a plain epoch after its last stores,
   then one posted with MPI_MODE_NOSTORE that accumulates and fetches,
   then one with NOSTORE | NOPUT that only reads (MPI_NO_OP). */
static void pscw_nostore(struct ctx *x, int step)
{
    static const int asserts[3] = {0, MPI_MODE_NOSTORE,
                                   MPI_MODE_NOSTORE | MPI_MODE_NOPUT};
    static const char *const names[3] = {"PSCW", "PSCW, MPI_MODE_NOSTORE",
                                          "PSCW, NOSTORE | NOPUT"};
    MPI_Group all; /* each rank accesses only its right */
    CHECK_MPI(MPI_Win_get_group(x->w->win, &all));
    for (int e = 0; e < 3; e++) {
        MPI_Op op = e < 2 ? MPI_SUM : MPI_NO_OP;
        int obuf[SPAN], vals[DATA], rbuf[SPAN], old[DATA];
        origin_data(x->c->o, step + e, obuf, vals);
        fill(rbuf, SPAN);
        model_step(x, op, step + e, old);
        CHECK_MPI(MPI_Win_post(all, asserts[e], x->w->win));
        CHECK_MPI(MPI_Win_start(all, 0, x->w->win));
        if (e == 0)
            issue(x, ACC, op, obuf, rbuf, NULL);
        else if (e == 1)
            issue(x, GET_ACC, op, obuf, rbuf, NULL);
        else
            CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, rbuf,
                                         x->c->r->count, x->c->r->t, right,
                                         region(x), x->c->t->count,
                                         x->c->t->t, op, x->w->win));
        CHECK_MPI(MPI_Win_complete(x->w->win));
        CHECK_MPI(MPI_Win_wait(x->w->win));
        check_window(x, names[e]);
        check_image(x, rbuf, SPAN, 0, x->c->r, e ? old : NULL, names[e]);
        check_image(x, obuf, SPAN, 0, x->c->o, vals, "the origin buffer");
    }
    CHECK_MPI(MPI_Group_free(&all));
}

/* Calls that must move nothing: the four without a request to
   MPI_PROC_NULL (at a displacement that would hit the target's data,
   with a compare value that would match), and zero counts to the real
   target.  res: 3 result buffers of SPAN ints. */
static void null_calls(const struct ctx *x, const int *obuf, int *res)
{
    const struct ttype *o = x->c->o, *t = x->c->t, *r = x->c->r;
    MPI_Win win = x->w->win;
    MPI_Aint d = region(x);
    MPI_Aint d0 = twin_disp(x->w, right, (GUARD + t->off[0]) * sizeof(int));
    int one = 1, cmp = x->theirs[0];
    CHECK_MPI(MPI_Accumulate(obuf, o->count, o->t, MPI_PROC_NULL, d,
                             t->count, t->t, MPI_SUM, win));
    CHECK_MPI(MPI_Get_accumulate(obuf, o->count, o->t, res, r->count, r->t,
                                 MPI_PROC_NULL, d, t->count, t->t, MPI_SUM,
                                 win));
    CHECK_MPI(MPI_Fetch_and_op(&one, res + SPAN, MPI_INT, MPI_PROC_NULL, d0,
                               MPI_SUM, win));
    CHECK_MPI(MPI_Compare_and_swap(&one, &cmp, res + SPAN + 1, MPI_INT,
                                   MPI_PROC_NULL, d0, win));
    CHECK_MPI(MPI_Accumulate(obuf, 0, o->t, right, d, 0, t->t, MPI_SUM, win));
    CHECK_MPI(MPI_Get_accumulate(obuf, 0, o->t, res + 2 * SPAN, 0, r->t,
                                 right, d, 0, t->t, MPI_SUM, win));
}

/* null_calls in a fence epoch, then again in a lock_all one with the
   request-based calls to MPI_PROC_NULL and a zero-count MPI_Raccumulate;
   every result buffer and every window stay as they were. */
static void moves_nothing(struct ctx *x, int step)
{
    int obuf[SPAN], vals[DATA], res[4 * SPAN];
    MPI_Request req[3];
    origin_data(x->c->o, step, obuf, vals);
    fill(res, 4 * SPAN);
    CHECK_MPI(MPI_Win_fence(0, x->w->win));
    null_calls(x, obuf, res);
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, x->w->win));
    check_window(x, "MPI_PROC_NULL and zero counts, fence");

    const struct ttype *o = x->c->o, *t = x->c->t, *r = x->c->r;
    MPI_Aint d = region(x);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* the fence epoch is checked */
    CHECK_MPI(MPI_Win_lock_all(0, x->w->win));
    null_calls(x, obuf, res);
    CHECK_MPI(MPI_Raccumulate(obuf, o->count, o->t, MPI_PROC_NULL, d,
                              t->count, t->t, MPI_SUM, x->w->win, &req[0]));
    CHECK_MPI(MPI_Rget_accumulate(obuf, o->count, o->t, res + 3 * SPAN,
                                  r->count, r->t, MPI_PROC_NULL, d, t->count,
                                  t->t, MPI_SUM, x->w->win, &req[1]));
    CHECK_MPI(MPI_Raccumulate(obuf, 0, o->t, right, d, 0, t->t, MPI_SUM,
                              x->w->win, &req[2]));
    CHECK_MPI(MPI_Waitall(3, req, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 3; i++)
        CHECK(req[i] == MPI_REQUEST_NULL, "%s: MPI_Waitall left request %d",
              x->where, i);
    CHECK_MPI(MPI_Win_unlock_all(x->w->win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    check_window(x, "MPI_PROC_NULL and zero counts, lock_all");
    for (int i = 0; i < 4; i++)
        check_image(x, res + i * SPAN, SPAN, 0, NULL, NULL,
                    "a result buffer of MPI_PROC_NULL or a zero count");
    check_image(x, obuf, SPAN, 0, o, vals, "the origin buffer");
}

static void run_case(struct twin *w, const struct acase *c)
{
    struct ctx x = {.w = w, .c = c};
    snprintf(x.where, sizeof x.where, "%s, origin %s, target %s, result %s",
             twin_names[w->flavor], c->o->name, c->t->name, c->r->name);
    reset(&x);
    family_step(&x, ACC, MPI_SUM, 0);
    family_step(&x, GET_ACC, MPI_SUM, 1);
    family_step(&x, RACC, MPI_REPLACE, 2);
    family_step(&x, RGET_ACC, MPI_SUM, 3);
    pscw_nostore(&x, 4);
    moves_nothing(&x, 7);
}

static void run_flavor(enum twin_flavor f, const struct acase *cases,
                       int ncases, void *stack)
{
    struct twin w; /* byte displacements on malloc'd memory */
    twin_open(&w, f, WIN * sizeof(int),
              f == TW_CREATE_HEAP ? 1 : (int)sizeof(int), stack);
    for (int i = 0; i < ncases; i++)
        run_case(&w, &cases[i]);
    twin_close(&w);
}

/* A window over this function's stack frame. */
static void run_stack(const struct acase *cases, int ncases)
{
    int mem[WIN];
    run_flavor(TW_CREATE_STACK, cases, ncases, mem);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
    left = (me + np - 1) % np;
    right = (me + 1) % np;

    /* offsets reach at most SPAN - 1; idx and strct are not monotonic */
    static const int il[3] = {2, 1, 3}, id[3] = {9, 2, 5};
    static const int sl[2] = {3, 3}, sd[2] = {12, 1};
    struct ttype ints = {.name = "MPI_INT x6", .t = MPI_INT, .count = DATA};
    for (int k = 0; k < DATA; k++)
        ints.off[k] = k;
    struct ttype vec = vector_type("vector 6x1/3", DATA, 1, 3, 0, 1);
    struct ttype tvec = vector_type("vector 3x2/5", 3, 2, 5, 0, 1);
    struct ttype pairs = vector_type("resized 2x1/2 ext 5, x3", 2, 1, 2, 5,
                                     3);
    struct ttype idx = blocks_type("indexed", 3, il, id, 0);
    struct ttype strct = blocks_type("struct of MPI_INT", 2, sl, sd, 1);
    const struct acase cases[] = {
        {&vec, &ints, &idx},
        {&idx, &tvec, &strct},
        {&strct, &idx, &vec},
        {&pairs, &strct, &ints},
    };
    int ncases = (int)(sizeof cases / sizeof cases[0]);
    for (int f = 0; f < TW_FLAVORS; f++) {
        if (f == TW_CREATE_STACK)
            run_stack(cases, ncases);
        else
            run_flavor((enum twin_flavor)f, cases, ncases, NULL);
    }
    struct ttype *derived[] = {&vec, &tvec, &pairs, &idx, &strct};
    for (int i = 0; i < 5; i++)
        CHECK_MPI(MPI_Type_free(&derived[i]->t));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
