/* rma_vm_runs: MPI_Put, MPI_Get and MPI_Accumulate (MPI_SUM) between a stack window (reached with process_vm_readv/writev in shmpi) and origin buffers whose datatypes have hundreds to thousands of runs each, with different run structures on the two sides (short vs long runs, blocks in reverse order, a resized type repeated by count, a vector of vectors); every int of the target window, of the origin buffers and of guards around both is checked. */
/* shmpi-test: np=1,2,4 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shmpi moves such data in batches of a few hundred iovec entries per
 * side, the longer list cut back to the bytes the shorter one covers, so
 * batches end in the middle of runs on either side; the pairs below put
 * the short-run side first and second.  Each rank targets its right
 * neighbour (itself at np=1).  Where each data int lives is known from how
 * the test builds each type, never asked of MPI.  MPI_Get_accumulate is
 * left out: Open MPI 4.1 (osc pt2pt) returns wrong data and corrupts its
 * heap with target types like these at np >= 2.
 */
#include "rma_win.h"
#include "rng.h"

#define DATA 3000          /* ints each type moves */
#define WIN 8192           /* ints in a window */
#define BASE 5             /* target_disp, in ints */
#define GUARD 64           /* ints of guard on each side */
#define FILL ((int)0xeeeeeeee)

struct layout {
    const char *name;
    MPI_Datatype t;
    int count;             /* elements passed with t */
    int off[DATA];         /* int offset of data int k, in type-map order */
    int span;              /* ints from offset 0 to the last one touched */
};

static void finish(struct layout *l, const char *name, MPI_Datatype t,
                   int count)
{
    l->name = name;
    l->t = t;
    l->count = count;
    CHECK_MPI(MPI_Type_commit(&l->t));
    l->span = 0;
    for (int k = 0; k < DATA; k++)
        if (l->off[k] + 1 > l->span)
            l->span = l->off[k] + 1;
    CHECK(BASE + l->span <= WIN, "%s spans %d ints", name, l->span);
}

/* Blocks of lmin..lmax ints with gaps of 1..gmax ints, random; listed
   in reverse memory order (as an hindexed type) when reverse. */
static void make_blocks(struct layout *l, const char *name, uint64_t seed,
                        int lmin, int lmax, int gmax, int reverse)
{
    struct rng r = {seed};
    int len[DATA], disp[DATA], n = 0, at = 0;
    for (int k = 0; k < DATA; n++) {
        len[n] = (int)range(&r, lmin, lmax);
        if (len[n] > DATA - k)
            len[n] = DATA - k;
        disp[n] = at;
        at += len[n] + (int)range(&r, 1, gmax);
        k += len[n];
    }
    for (int b = 0; reverse && b < n / 2; b++) {
        int l0 = len[b], d0 = disp[b];
        len[b] = len[n - 1 - b], disp[b] = disp[n - 1 - b];
        len[n - 1 - b] = l0, disp[n - 1 - b] = d0;
    }
    MPI_Datatype t;
    if (reverse) {
        MPI_Aint bytes[DATA];
        for (int b = 0; b < n; b++)
            bytes[b] = (MPI_Aint)disp[b] * (MPI_Aint)sizeof(int);
        CHECK_MPI(MPI_Type_create_hindexed(n, len, bytes, MPI_INT, &t));
    } else {
        CHECK_MPI(MPI_Type_indexed(n, len, disp, MPI_INT, &t));
    }
    for (int b = 0, k = 0; b < n; b++)
        for (int i = 0; i < len[b]; i++)
            l->off[k++] = disp[b] + i;
    finish(l, name, t, 1);
}

/* {1 int at 0, 2 at 2, 1 at 5} resized to 6 ints, DATA / 4 of them: the
   last run of one element touches the first of the next. */
static void make_triples(struct layout *l)
{
    int len[3] = {1, 2, 1}, disp[3] = {0, 2, 5};
    MPI_Datatype idx, t;
    CHECK_MPI(MPI_Type_indexed(3, len, disp, MPI_INT, &idx));
    CHECK_MPI(MPI_Type_create_resized(idx, 0, 6 * sizeof(int), &t));
    CHECK_MPI(MPI_Type_free(&idx));
    for (int k = 0; k < DATA; k++) {
        static const int in_elem[4] = {0, 2, 3, 5};
        l->off[k] = 6 * (k / 4) + in_elem[k % 4];
    }
    finish(l, "resized indexed x 750", t, DATA / 4);
}

/* 15 vectors of 100 blocks of 2 ints every 3, 310 ints apart. */
static void make_nested(struct layout *l)
{
    MPI_Datatype row, t;
    CHECK_MPI(MPI_Type_vector(100, 2, 3, MPI_INT, &row));
    CHECK_MPI(MPI_Type_create_hvector(15, 1, 310 * sizeof(int), row, &t));
    CHECK_MPI(MPI_Type_free(&row));
    for (int k = 0; k < DATA; k++)
        l->off[k] = 310 * (k / 200) + 3 * (k % 200 / 2) + k % 2;
    finish(l, "vector of vectors", t, 1);
}

enum { SHORT, LONG, REVERSE, TRIPLES, NESTED, NLAYOUTS };

/* Origin and target layouts: short runs against long ones each way
   round, and the other structures against each other. */
static const int pairs[][2] = {
    {SHORT, LONG}, {LONG, SHORT}, {REVERSE, TRIPLES}, {TRIPLES, NESTED},
    {NESTED, REVERSE}, {LONG, NESTED},
};

static int v1(int origin, int k) { return origin * 100000 + k + 1; }
static int v2(int origin, int k) { return 7 * k + 3 + origin; }

/* A buffer with GUARD ints on each side of WIN usable ones. */
#define REGION (GUARD + WIN + GUARD)

static void fill(int *region)
{
    for (int i = 0; i < REGION; i++)
        region[i] = FILL;
}

/* region holds vals[k] (k < DATA) at GUARD + base + l->off[k] and FILL
   everywhere else, guards included. */
static void expect_region(const int *region, const struct layout *l,
                          int base, const int *vals, const char *what)
{
    static int want[REGION];
    fill(want);
    for (int k = 0; k < DATA; k++)
        want[GUARD + base + l->off[k]] = vals[k];
    for (int i = 0; i < REGION; i++)
        CHECK(region[i] == want[i], "%s (%s): int %d of the usable part "
              "is %d, expected %d", what, l->name, i - GUARD, region[i],
              want[i]);
}

/* data[k] = v1(who, k), plus v2(who, k) once summed */
static void values(int *data, int who, int summed)
{
    for (int k = 0; k < DATA; k++)
        data[k] = v1(who, k) + (summed ? v2(who, k) : 0);
}

static void fence(MPI_Win win)
{
    CHECK_MPI(MPI_Win_fence(0, win));
}

/* Everybody has read its window before the next update to it starts:
   after a fence the next epoch's operations may begin at once. */
static void read_done(void)
{
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static void run_pair(struct twin *w, int *mem, const struct layout *o,
                     const struct layout *t)
{
    int me, n;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int target = (me + 1) % n, source = (me + n - 1) % n;
    static int obuf[REGION], abuf[REGION], gbuf[REGION];
    int data[DATA];
    fill(obuf), fill(abuf), fill(gbuf);
    for (int k = 0; k < DATA; k++) {
        obuf[GUARD + o->off[k]] = v1(me, k);
        abuf[GUARD + o->off[k]] = v2(me, k);
    }
    MPI_Aint disp = twin_disp(w, target, BASE * sizeof(int));
    int *ob = obuf + GUARD, *ab = abuf + GUARD;

    fence(w->win);
    CHECK_MPI(MPI_Put(ob, o->count, o->t, target, disp, t->count, t->t,
                      w->win));
    fence(w->win);
    values(data, source, 0);
    expect_region(mem, t, BASE, data, "window after MPI_Put");
    read_done();

    CHECK_MPI(MPI_Get(gbuf + GUARD, o->count, o->t, target, disp, t->count,
                      t->t, w->win));
    fence(w->win);
    values(data, me, 0);
    expect_region(gbuf, o, 0, data, "origin buffer after MPI_Get");

    CHECK_MPI(MPI_Accumulate(ab, o->count, o->t, target, disp, t->count,
                             t->t, MPI_SUM, w->win));
    fence(w->win);
    values(data, source, 1);
    expect_region(mem, t, BASE, data, "window after MPI_Accumulate");

    /* back to the fill for the next pair: no RMA is under way */
    fill(mem);
    read_done();
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    static struct layout l[NLAYOUTS];
    make_blocks(&l[SHORT], "indexed, runs of 1-2 ints", 11, 1, 2, 2, 0);
    make_blocks(&l[LONG], "indexed, runs of 4-12 ints", 12, 4, 12, 3, 0);
    make_blocks(&l[REVERSE], "hindexed, runs of 1-3 ints backwards", 13,
                1, 3, 2, 1);
    make_triples(&l[TRIPLES]);
    make_nested(&l[NESTED]);

    int mem[REGION]; /* the window, with guards, on this stack frame */
    fill(mem);
    struct twin w;
    twin_open(&w, TW_CREATE_STACK, WIN * sizeof(int), sizeof(int),
              mem + GUARD);
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
        run_pair(&w, mem, &l[pairs[p][0]], &l[pairs[p][1]]);
    twin_close(&w);
    for (int i = 0; i < NLAYOUTS; i++)
        CHECK_MPI(MPI_Type_free(&l[i].t));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
