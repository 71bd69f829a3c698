/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rma_acc.h - the harness of the accumulate tests (rma_accumulate,
 * rma_accumulate_pairs_ext): a case is an op on a predefined type; for
 * each, every rank accumulates into every rank as one element, as
 * several and into a strided target type, then the fetching calls take
 * turns, and every result is checked against MPI_Reduce_local's fold of
 * the contributions.
 *
 * The expected value of an element is exact in any order: the values
 * are small integers (products of 1s, 2s and 3s), so even
 * floating-point sums and products do not round, and the ops commute.
 * MPI_REPLACE must leave one of the contributions.  Fetching calls take
 * turns (one rank per epoch), so the old value each one fetches is
 * known: the fold of the ranks before it.
 *
 *   run_all_flavors(cases, ncases)   every window flavor of rma_win.h,
 *                                    each under fence, lock_all and lock
 */
#ifndef SHMPI_TEST_RMA_ACC_H
#define SHMPI_TEST_RMA_ACC_H

#include "rma_win.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COUNT 5          /* elements of a multi-element accumulate */
#define EXT 16           /* bytes reserved per element, largest type */

enum kind { K_INT, K_UINT, K_FLOAT, K_DOUBLE, K_BOOL, K_PAIR_INT,
            K_PAIR_DOUBLE, K_PAIR_FLOAT, K_PAIR_LONG, K_PAIR_SHORT };

struct acase {
    MPI_Op op;
    const char *opname;
    MPI_Datatype t;
    const char *tname;
    enum kind kind;
    int size;                  /* of the value (pairs: of the value part) */
    int ext;                   /* extent of one element */
    int ioff;                  /* pairs: where the int index is */
};

struct pdi { double v; int i; };
struct pfi { float v; int i; };
struct pli { long v; int i; };
struct pii { int v; int i; };

#define INT_CASE(op, t, ct, k) {op, #op, t, #t, k, sizeof(ct), sizeof(ct), 0}
#define PAIR_CASE(op, t, st, k)                                            \
    {op, #op, t, #t, k, sizeof(((st *)0)->v), sizeof(st), offsetof(st, i)}

/* The small integer rank r contributes to element i (r == -1: the
   target's initial value), chosen for the op so that every fold is
   exact: factors 1..3 for products, 0..2 for logical values, bit
   patterns for bit ops, -20..29 otherwise (ties in *LOC on purpose). */
static long small(const struct acase *c, int r, int i)
{
    int x = r + 1;
    if (c->op == MPI_PROD)
        return 1 + (x * 5 + i) % 3;
    if (c->op == MPI_LAND || c->op == MPI_LOR || c->op == MPI_LXOR)
        return c->t == MPI_C_BOOL ? (x + i) % 3 == 0 : (x * 7 + i) % 3;
    if (c->op == MPI_BAND || c->op == MPI_BOR || c->op == MPI_BXOR)
        return r < 0 && c->op == MPI_BAND ? 0x7f : (x * 0x35 + i * 0x17) & 0x7f;
    if (c->kind == K_UINT)
        return (x * 7 + i * 3) % 50;
    return (x * 7 + i * 3) % 50 - 20;
}

static void set_value(const struct acase *c, unsigned char *e, long v,
                      int index)
{
    memset(e, 0, (size_t)c->ext);
    switch (c->kind) {
    case K_FLOAT: { float f = (float)v; memcpy(e, &f, sizeof f); break; }
    case K_DOUBLE: { double d = (double)v; memcpy(e, &d, sizeof d); break; }
    case K_PAIR_DOUBLE: { double d = (double)v; memcpy(e, &d, sizeof d);
        memcpy(e + c->ioff, &index, sizeof index); break; }
    case K_PAIR_FLOAT: { float f = (float)v; memcpy(e, &f, sizeof f);
        memcpy(e + c->ioff, &index, sizeof index); break; }
    case K_PAIR_LONG: { long l = v; memcpy(e, &l, sizeof l);
        memcpy(e + c->ioff, &index, sizeof index); break; }
    case K_PAIR_INT: { int n = (int)v; memcpy(e, &n, sizeof n);
        memcpy(e + c->ioff, &index, sizeof index); break; }
    case K_PAIR_SHORT: { short h = (short)v; memcpy(e, &h, sizeof h);
        memcpy(e + c->ioff, &index, sizeof index); break; }
    default: /* integers of c->size bytes, little or big endian alike */
        if (c->size == 1) { int8_t x = (int8_t)v; memcpy(e, &x, 1); }
        else if (c->size == 2) { int16_t x = (int16_t)v; memcpy(e, &x, 2); }
        else if (c->size == 4) { int32_t x = (int32_t)v; memcpy(e, &x, 4); }
        else { int64_t x = v; memcpy(e, &x, 8); }
        break;
    }
}

/* count elements of rank r's contribution (r == -1: initial values). */
static void contribution(const struct acase *c, int r, unsigned char *buf,
                         int count)
{
    for (int i = 0; i < count; i++)
        set_value(c, buf + (size_t)i * c->ext, small(c, r, i), r + 1);
}

/* The bytes that carry a value (not a pair's padding). */
static int same_element(const struct acase *c, const unsigned char *a,
                        const unsigned char *b)
{
    if (c->ioff)
        return !memcmp(a, b, (size_t)c->size) &&
               !memcmp(a + c->ioff, b + c->ioff, sizeof(int));
    return !memcmp(a, b, (size_t)c->size);
}

/* The fold of initial values and the contributions of ranks [0, upto). */
static void expected(const struct acase *c, int upto, unsigned char *out,
                     int count)
{
    unsigned char in[COUNT * EXT];
    contribution(c, -1, out, count);
    for (int r = 0; r < upto; r++) {
        contribution(c, r, in, count);
        if (c->op == MPI_REPLACE)
            memcpy(out, in, (size_t)count * c->ext);
        else
            CHECK_MPI(MPI_Reduce_local(in, out, count, c->t, c->op));
    }
}

/* got holds elements first .. first + count - 1 of the expected want
   (for MPI_REPLACE: of some rank's contribution). */
static void check_elements(const struct acase *c, const unsigned char *got,
                           const unsigned char *want, int first, int count,
                           int n, const char *what, const char *where)
{
    unsigned char any[COUNT * EXT];
    for (int i = first; i < first + count; i++) {
        const unsigned char *g = got + (size_t)(i - first) * c->ext;
        int ok = same_element(c, g, want + (size_t)i * c->ext);
        for (int r = 0; !ok && c->op == MPI_REPLACE && r < n; r++) {
            contribution(c, r, any, COUNT);
            ok = same_element(c, g, any + (size_t)i * c->ext);
        }
        CHECK(ok, "%s, %s on %s, %s: element %d is wrong", where, c->opname,
              c->tname, what, i);
    }
}

/* How the harness synchronizes: fence epochs; one lock_all epoch around
   it all, completed by flush_all; or a lock per target around each
   origin's calls to it (shared for the accumulates that run at once,
   exclusive for the fetches that take turns). */
enum sync { BY_FENCE, BY_LOCK_ALL, BY_LOCK, SYNCS };

static const char *const sync_names[SYNCS] = {
    "fence", "lock_all and flush_all", "lock and unlock"};

/* MPI_Win_sync, which needs a passive-target epoch: under BY_LOCK, a
   lock of this rank's own window, released at once (held across the
   barrier of settle, it would keep out a rank's exclusive lock that
   must come first). */
static void sync_self(struct twin *w, enum sync s)
{
    int me;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    if (s == BY_LOCK)
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, w->win));
    CHECK_MPI(MPI_Win_sync(w->win));
    if (s == BY_LOCK)
        CHECK_MPI(MPI_Win_unlock(me, w->win));
}

/* The harness's fence: every rank's RMA calls before it are done at
   their targets and seen by local loads after it; local stores before
   it are seen by RMA calls after it. */
static void settle(struct twin *w, enum sync s)
{
    if (s == BY_FENCE) {
        CHECK_MPI(MPI_Win_fence(0, w->win));
        return;
    }
    if (s == BY_LOCK_ALL)
        CHECK_MPI(MPI_Win_flush_all(w->win));
    sync_self(w, s);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    sync_self(w, s);
}

/* Under BY_LOCK, a lock of type `type` around one origin's calls to t. */
static void lock_target(struct twin *w, enum sync s, int type, int t)
{
    if (s == BY_LOCK)
        CHECK_MPI(MPI_Win_lock(type, t, 0, w->win));
}

static void unlock_target(struct twin *w, enum sync s, int t)
{
    if (s == BY_LOCK)
        CHECK_MPI(MPI_Win_unlock(t, w->win));
}

/* A window region per case: COUNT elements, 1 element, and 2 * COUNT
   elements of which the strided target type takes the even ones. */
enum { MULTI = 0, SINGLE = COUNT * EXT, STRIDED = SINGLE + EXT,
       REGION = STRIDED + 2 * COUNT * EXT };

static void accumulate_all(struct twin *w, enum sync s,
                           const struct acase *c, const char *where)
{
    int me, n;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    MPI_Datatype strided;
    CHECK_MPI(MPI_Type_vector(COUNT, 1, 2, c->t, &strided));
    CHECK_MPI(MPI_Type_commit(&strided));
    unsigned char mine[COUNT * EXT], want[COUNT * EXT], fill[EXT];

    contribution(c, -1, w->base + MULTI, COUNT);
    contribution(c, -1, w->base + SINGLE, 1);
    memset(w->base + STRIDED, 0xee, 2 * COUNT * EXT);
    for (int i = 0; i < COUNT; i++)
        memcpy(w->base + STRIDED + 2 * i * c->ext,
               w->base + MULTI + i * c->ext, (size_t)c->ext);
    memset(fill, 0xee, sizeof fill);

    contribution(c, me, mine, COUNT);
    settle(w, s);
    for (int k = 0; k < n; k++) {
        int t = (me + k) % n; /* everyone starts on a different target */
        lock_target(w, s, MPI_LOCK_SHARED, t);
        CHECK_MPI(MPI_Accumulate(mine, COUNT, c->t, t,
                                 twin_disp(w, t, MULTI), COUNT, c->t, c->op,
                                 w->win));
        CHECK_MPI(MPI_Accumulate(mine, 1, c->t, t, twin_disp(w, t, SINGLE),
                                 1, c->t, c->op, w->win));
        CHECK_MPI(MPI_Accumulate(mine, COUNT, c->t, t,
                                 twin_disp(w, t, STRIDED), 1, strided,
                                 c->op, w->win));
        unlock_target(w, s, t);
    }
    settle(w, s);

    expected(c, n, want, COUNT);
    check_elements(c, w->base + MULTI, want, 0, COUNT, n, "5 elements",
                   where);
    check_elements(c, w->base + SINGLE, want, 0, 1, n, "1 element", where);
    for (int i = 0; i < COUNT; i++) {
        unsigned char *e = w->base + STRIDED + 2 * i * c->ext;
        check_elements(c, e, want, i, 1, n, "strided", where);
        CHECK(!memcmp(e + c->ext, fill, (size_t)c->ext),
              "%s, %s on %s: the gap after strided element %d was written",
              where, c->opname, c->tname, i);
    }
    CHECK_MPI(MPI_Type_free(&strided));
    settle(w, s);
}

/* One rank per epoch fetches from rank 0: the old value is the fold of
   the ranks before it. */
static void fetch_in_turn(struct twin *w, enum sync s,
                          const struct acase *c, const char *where)
{
    int me, n;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    unsigned char mine[COUNT * EXT], got[2 * COUNT * EXT], want[COUNT * EXT];
    MPI_Datatype strided; /* the result laid out every other element */
    CHECK_MPI(MPI_Type_vector(COUNT, 1, 2, c->t, &strided));
    CHECK_MPI(MPI_Type_commit(&strided));
    if (me == 0) {
        contribution(c, -1, w->base + MULTI, COUNT);
        contribution(c, -1, w->base + SINGLE, 1);
    }
    contribution(c, me, mine, COUNT);
    for (int turn = 0; turn < n; turn++) {
        settle(w, s);
        if (turn == me) {
            memset(got, 0xee, sizeof got);
            lock_target(w, s, MPI_LOCK_EXCLUSIVE, 0);
            CHECK_MPI(MPI_Get_accumulate(mine, COUNT, c->t, got, 1, strided,
                                         0, twin_disp(w, 0, MULTI), COUNT,
                                         c->t, c->op, w->win));
            CHECK_MPI(MPI_Fetch_and_op(mine, got + 2 * COUNT * EXT - EXT,
                                       c->t, 0, twin_disp(w, 0, SINGLE),
                                       c->op, w->win));
            unlock_target(w, s, 0);
        }
        settle(w, s); /* completes them */
        if (turn != me)
            continue;
        expected(c, turn, want, COUNT);
        for (int i = 0; i < COUNT; i++)
            check_elements(c, got + 2 * i * c->ext, want, i, 1, n,
                           "MPI_Get_accumulate's old value", where);
        check_elements(c, got + 2 * COUNT * EXT - EXT, want, 0, 1, n,
                       "MPI_Fetch_and_op's old value", where);
    }
    /* MPI_NO_OP reads the final value and leaves it */
    memset(got, 0xee, sizeof got);
    lock_target(w, s, MPI_LOCK_SHARED, 0);
    CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, got, COUNT,
                                 c->t, 0, twin_disp(w, 0, MULTI), COUNT, c->t,
                                 MPI_NO_OP, w->win));
    CHECK_MPI(MPI_Fetch_and_op(NULL, got + COUNT * EXT, c->t, 0,
                               twin_disp(w, 0, SINGLE), MPI_NO_OP, w->win));
    unlock_target(w, s, 0);
    settle(w, s);
    expected(c, n, want, COUNT);
    check_elements(c, got, want, 0, COUNT, n, "MPI_NO_OP", where);
    check_elements(c, got + COUNT * EXT, want, 0, 1, n,
                   "MPI_NO_OP, 1 element", where);
    if (me == 0)
        check_elements(c, w->base + MULTI, want, 0, COUNT, n,
                       "after MPI_NO_OP", where);
    CHECK_MPI(MPI_Type_free(&strided));
}

static void run_flavor(enum twin_flavor f, enum sync s,
                       const struct acase *cases, int ncases, void *stack)
{
    struct twin w;
    char where[96];
    snprintf(where, sizeof where, "%s, %s", twin_names[f], sync_names[s]);
    twin_open(&w, f, REGION, 1, stack);
    if (s == BY_LOCK_ALL)
        CHECK_MPI(MPI_Win_lock_all(0, w.win));
    for (int i = 0; i < ncases; i++) {
        accumulate_all(&w, s, &cases[i], where);
        fetch_in_turn(&w, s, &cases[i], where);
    }
    if (s == BY_LOCK_ALL)
        CHECK_MPI(MPI_Win_unlock_all(w.win));
    twin_close(&w);
}

static void run_on_stack(enum sync s, const struct acase *cases, int ncases)
{
    _Alignas(16) unsigned char mem[REGION];
    run_flavor(TW_CREATE_STACK, s, cases, ncases, mem);
}

static void run_all_flavors(const struct acase *cases, int ncases)
{
    for (int s = 0; s < SYNCS; s++)
        for (int f = 0; f < TW_FLAVORS; f++) {
            if (f == TW_CREATE_STACK)
                run_on_stack((enum sync)s, cases, ncases);
            else
                run_flavor((enum twin_flavor)f, (enum sync)s, cases, ncases,
                           NULL);
        }
}

#endif
