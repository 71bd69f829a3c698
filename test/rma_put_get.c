/* rma_put_get: MPI_Put and MPI_Get on every window flavor (allocate, create over malloc, MPI_Alloc_mem and stack memory, allocate_shared, dynamic) with contiguous and derived datatypes on both sides, to the neighbour and to oneself, in fence and lock_all epochs; bytes outside the target datatype stay untouched; zero counts and MPI_PROC_NULL move nothing. */
/* shmpi-test: np=1,2,3,4,8 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each rank owns slot r (SLOT ints) of every window.  A round: every
 * rank puts 12 ints, laid out by the origin type, into slot r of its
 * target (itself, then its right neighbour), laid out there by the
 * target type; after the fence each rank checks every slot of its own
 * memory - the ints the target type covers hold the data, every other
 * int is still the fill - and then gets the data back into a fresh
 * origin buffer and checks it the same way.  The layout of a type is
 * learned from MPI itself: a self sendrecv of a buffer holding 0, 1,
 * 2, ... through the type lists the int offsets it covers, in order.
 */
#include "rma_win.h"

#define DATA 12      /* ints moved per operation */
#define SPAN 48      /* ints any test type spans (from 0) */
#define SLOT 64      /* ints per origin in a window */
#define FILL ((int)0xeeeeeeee)

struct tcase {
    const char *name;
    MPI_Datatype otype, ttype;
    int ocount, tcount;
    int ooff[DATA], toff[DATA]; /* int offsets of data[k] at each side */
};

/* The int offsets that count x t covers, in type-map order. */
static void layout(MPI_Datatype t, int count, int *off)
{
    int src[SPAN], me;
    for (int i = 0; i < SPAN; i++)
        src[i] = i;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Sendrecv(src, count, t, me, 7, off, DATA, MPI_INT, me, 7,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static MPI_Datatype commit(MPI_Datatype t)
{
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static int make_cases(struct tcase *c)
{
    MPI_Datatype vec2, blocks, idx, three, resized, strct;
    /* 12 ints, every other one */
    CHECK_MPI(MPI_Type_vector(DATA, 1, 2, MPI_INT, &vec2));
    /* 4 blocks of 3 ints, stride 5 */
    CHECK_MPI(MPI_Type_vector(4, 3, 5, MPI_INT, &blocks));
    /* starts 2 ints in: its true lb is not 0 */
    int lens[3] = {2, 4, 6}, disps[3] = {2, 7, 20};
    CHECK_MPI(MPI_Type_indexed(3, lens, disps, MPI_INT, &idx));
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &three));
    /* 2 ints with a 1-int hole, extent 5 ints: count 4 leaves gaps */
    MPI_Datatype pair_gap;
    int bl[2] = {1, 1}, bd[2] = {0, 2};
    CHECK_MPI(MPI_Type_indexed(2, bl, bd, MPI_INT, &pair_gap));
    CHECK_MPI(MPI_Type_create_resized(pair_gap, 0, 5 * sizeof(int),
                                      &resized));
    CHECK_MPI(MPI_Type_free(&pair_gap));
    /* a struct of ints at byte displacements, in decreasing order */
    int sl[2] = {6, 6};
    MPI_Aint sd[2] = {20 * sizeof(int), 4 * sizeof(int)};
    MPI_Datatype st[2] = {MPI_INT, MPI_INT};
    CHECK_MPI(MPI_Type_create_struct(2, sl, sd, st, &strct));
    vec2 = commit(vec2), blocks = commit(blocks), idx = commit(idx);
    three = commit(three), resized = commit(resized), strct = commit(strct);
    struct tcase all[] = {
        {"int -> int", MPI_INT, MPI_INT, DATA, DATA, {0}, {0}},
        {"vector -> int", vec2, MPI_INT, 1, DATA, {0}, {0}},
        {"int -> vector", MPI_INT, blocks, DATA, 1, {0}, {0}},
        {"indexed -> vector", idx, blocks, 1, 1, {0}, {0}},
        {"contiguous -> resized", three, resized, 4, 6, {0}, {0}},
        {"resized -> struct", resized, strct, 6, 1, {0}, {0}},
        {"struct -> indexed", strct, idx, 1, 1, {0}, {0}},
    };
    int n = (int)(sizeof all / sizeof all[0]);
    for (int i = 0; i < n; i++) {
        c[i] = all[i];
        layout(c[i].otype, c[i].ocount, c[i].ooff);
        layout(c[i].ttype, c[i].tcount, c[i].toff);
    }
    return n;
}

static void free_cases(struct tcase *c, int n)
{
    /* each derived type appears first as some case's origin or target */
    MPI_Datatype seen[16];
    int nseen = 0;
    for (int i = 0; i < n; i++) {
        MPI_Datatype t2[2] = {c[i].otype, c[i].ttype};
        for (int j = 0; j < 2; j++) {
            int dup = t2[j] == MPI_INT;
            for (int k = 0; k < nseen; k++)
                dup |= seen[k] == t2[j];
            if (!dup)
                seen[nseen++] = t2[j];
        }
    }
    for (int k = 0; k < nseen; k++)
        CHECK_MPI(MPI_Type_free(&seen[k]));
}

static int value(int origin, int round, int k)
{
    return origin * 10000 + round * 100 + k;
}

/* Slot `origin` of this rank's memory after `origin` put its data of
   `round` with case c - or, when wrote is 0, untouched. */
static void check_slot(const int *slot, const struct tcase *c, int origin,
                       int round, int wrote, const char *where)
{
    int want[SLOT];
    for (int i = 0; i < SLOT; i++)
        want[i] = FILL;
    for (int k = 0; wrote && k < DATA; k++)
        want[c->toff[k]] = value(origin, round, k);
    for (int i = 0; i < SLOT; i++)
        CHECK(slot[i] == want[i], "%s, case %s: slot of rank %d, int %d is "
              "%d, expected %d", where, c->name, origin, i, slot[i],
              want[i]);
}

enum epoch { FENCE, LOCK_ALL };

static void open_epoch(MPI_Win win, enum epoch e)
{
    if (e == FENCE)
        CHECK_MPI(MPI_Win_fence(0, win));
    else
        CHECK_MPI(MPI_Win_lock_all(0, win));
}

/* Completes this rank's operations and makes everybody's visible. */
static void close_epoch(MPI_Win win, enum epoch e)
{
    if (e == FENCE) {
        CHECK_MPI(MPI_Win_fence(0, win));
    } else {
        CHECK_MPI(MPI_Win_unlock_all(win));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
}

static void run_case(struct twin *w, const struct tcase *c, int round,
                     int shift, enum epoch e, const char *where)
{
    int me, n;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int target = (me + shift) % n, source = (me - shift + n) % n;
    int obuf[SPAN], gbuf[SPAN];
    for (int i = 0; i < SPAN; i++)
        obuf[i] = gbuf[i] = FILL;
    for (int k = 0; k < DATA; k++)
        obuf[c->ooff[k]] = value(me, round, k);
    MPI_Aint disp = twin_disp(w, target, (MPI_Aint)me * SLOT * sizeof(int));

    open_epoch(w->win, e);
    CHECK_MPI(MPI_Put(obuf, c->ocount, c->otype, target, disp, c->tcount,
                      c->ttype, w->win));
    /* nothing: zero counts (even with no buffer) and MPI_PROC_NULL */
    CHECK_MPI(MPI_Put(NULL, 0, c->otype, target, disp, 0, c->ttype, w->win));
    CHECK_MPI(MPI_Put(obuf, c->ocount, c->otype, MPI_PROC_NULL, 0,
                      c->tcount, c->ttype, w->win));
    close_epoch(w->win, e);

    const int *mem = (const int *)w->base;
    for (int o = 0; o < n; o++)
        check_slot(mem + o * SLOT, c, o, round, o == source, where);

    open_epoch(w->win, e);
    CHECK_MPI(MPI_Get(gbuf, c->ocount, c->otype, target, disp, c->tcount,
                      c->ttype, w->win));
    CHECK_MPI(MPI_Get(NULL, 0, c->otype, target, disp, 0, c->ttype, w->win));
    int untouched[SPAN];
    for (int i = 0; i < SPAN; i++)
        untouched[i] = FILL;
    CHECK_MPI(MPI_Get(untouched, c->ocount, c->otype, MPI_PROC_NULL, 0,
                      c->tcount, c->ttype, w->win));
    close_epoch(w->win, e);
    for (int i = 0; i < SPAN; i++) {
        CHECK(gbuf[i] == obuf[i], "%s, case %s: MPI_Get from %d: int %d is "
              "%d, expected %d", where, c->name, target, i, gbuf[i],
              obuf[i]);
        CHECK(untouched[i] == FILL, "%s: MPI_Get from MPI_PROC_NULL wrote",
              where);
    }

    /* back to the fill, for the next case (no RMA is under way) */
    memset(w->base + (size_t)source * SLOT * sizeof(int), 0xee,
           SLOT * sizeof(int));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static void run_flavor(enum twin_flavor f, struct tcase *cases, int ncases,
                       int disp_unit, void *stack)
{
    int n;
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    struct twin w;
    twin_open(&w, f, (MPI_Aint)n * SLOT * sizeof(int), disp_unit, stack);
    char where[128];
    for (int e = FENCE; e <= LOCK_ALL; e++)
        for (int shift = 0; shift <= (n > 1); shift++)
            for (int i = 0; i < ncases; i++) {
                snprintf(where, sizeof where, "%s, %s, %s",
                         twin_names[f], e == FENCE ? "fence" : "lock_all",
                         shift ? "neighbour" : "self");
                run_case(&w, &cases[i], i + 10 * shift, shift,
                         (enum epoch)e, where);
            }
    twin_close(&w);
}

/* A window over this function's stack frame. */
static void run_stack(struct tcase *cases, int ncases)
{
    int n;
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int mem[8 * SLOT]; /* up to np = 8 */
    CHECK(n <= 8, "the stack window is sized for 8 ranks");
    run_flavor(TW_CREATE_STACK, cases, ncases, sizeof(int), mem);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    struct tcase cases[8];
    int ncases = make_cases(cases);
    for (int f = 0; f < TW_FLAVORS; f++) {
        if (f == TW_CREATE_STACK)
            run_stack(cases, ncases);
        else /* byte displacements on malloc'd memory */
            run_flavor((enum twin_flavor)f, cases, ncases,
                       f == TW_CREATE_HEAP ? 1 : (int)sizeof(int), NULL);
    }
    free_cases(cases, ncases);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
