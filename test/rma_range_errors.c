/* rma_range_errors: every origin-side check of the RMA communication calls under MPI_ERRORS_RETURN - MPI_ERR_RMA_RANGE past the end, before the start (negative true lb), for derived target types, absurd displacements and dynamic-window addresses outside, across or after attached regions; MPI_ERR_WIN, RANK, COUNT, TYPE (uncommitted, mismatched, mixed, derived where predefined is needed), TRUNCATE, OP, DISP, BUFFER, ARG, RMA_SYNC - on mapped, stack (process_vm) and dynamic windows; guard bytes around each window and its contents show nothing was written. */
/* shmpi-test: np=1,2,3 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The standard calls these programs erroneous and leaves what happens
 * open; shmpi checks every call at the origin (seed 000's advice made
 * the rule) and promises that nothing outside a window is written.
 * Open MPI checks few of them, hence ext.
 */
#include "check.h"

#include <stdint.h>

#define ELEMS 100                    /* doubles in each window */
#define WBYTES (ELEMS * 8)
#define GUARD 256                    /* bytes watched on each side */

static int me, np, right;

#define EXPECT(call, cls)                                                  \
    do {                                                                   \
        CHECK_CLASS(call, cls);                                            \
        check_untouched(#call);                                            \
    } while (0)

/* the memory of this rank's current window, with its guards */
static unsigned char *area;
static size_t area_bytes;

static void fill_area(void)
{
    memset(area, 0xab, GUARD);
    memset(area + GUARD, 0x5a, WBYTES);
    memset(area + GUARD + WBYTES, 0xab, GUARD);
}

/* Every rank's window and guards hold the fill: each failed call must
   have left them so (the target's is checked by the target, after a
   barrier: the calls complete at once or not at all). */
static void check_untouched(const char *what)
{
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (size_t i = 0; i < area_bytes; i++) {
        int in_window = i >= GUARD && i < GUARD + WBYTES;
        CHECK(area[i] == (in_window ? 0x5a : 0xab), "after %s: byte %zd "
              "of %s was written", what, (ssize_t)i - GUARD,
              in_window ? "the window" : "the guard zone");
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static void user_fn(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)in, (void)inout, (void)len, (void)t;
}

/* Range errors on win, whose target_disp for byte b of a target is
   disp(b) (units of 8 bytes on plain windows, addresses on dynamic). */
static void range_errors(MPI_Win win, MPI_Aint (*disp)(int, MPI_Aint))
{
    double two[2] = {1.5, 2.5}, res[2];
    long one = 1, got;
    MPI_Datatype wide, before;
    /* 2 doubles 50 apart: small data, long reach */
    CHECK_MPI(MPI_Type_vector(2, 1, 50, MPI_DOUBLE, &wide));
    CHECK_MPI(MPI_Type_commit(&wide));
    /* a double 8 bytes before the target buffer */
    int bl = 1;
    MPI_Aint bd = -8;
    MPI_Datatype dbl = MPI_DOUBLE;
    CHECK_MPI(MPI_Type_create_struct(1, &bl, &bd, &dbl, &before));
    CHECK_MPI(MPI_Type_commit(&before));

    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int k = 0; k < 2; k++) {
        int t = k ? right : me;
        EXPECT(MPI_Put(two, 2, MPI_DOUBLE, t, disp(t, 99 * 8), 2, MPI_DOUBLE,
                       win), MPI_ERR_RMA_RANGE);
        EXPECT(MPI_Put(two, 1, MPI_DOUBLE, t, disp(t, 100 * 8), 1,
                       MPI_DOUBLE, win), MPI_ERR_RMA_RANGE);
        EXPECT(MPI_Get(res, 2, MPI_DOUBLE, t, disp(t, 99 * 8), 2, MPI_DOUBLE,
                       win), MPI_ERR_RMA_RANGE);
        EXPECT(MPI_Accumulate(two, 2, MPI_DOUBLE, t, disp(t, 51 * 8), 1, wide,
                              MPI_SUM, win), MPI_ERR_RMA_RANGE);
        EXPECT(MPI_Get_accumulate(two, 2, MPI_DOUBLE, res, 2, MPI_DOUBLE, t,
                                  disp(t, 99 * 8), 2, MPI_DOUBLE, MPI_SUM,
                                  win), MPI_ERR_RMA_RANGE);
        EXPECT(MPI_Fetch_and_op(&one, &got, MPI_LONG, t, disp(t, 100 * 8),
                                MPI_SUM, win), MPI_ERR_RMA_RANGE);
        EXPECT(MPI_Compare_and_swap(&one, &one, &got, MPI_LONG, t,
                                    disp(t, 100 * 8), win),
               MPI_ERR_RMA_RANGE);
        EXPECT(MPI_Put(two, 1, MPI_DOUBLE, t, disp(t, 0), 1, before, win),
               MPI_ERR_RMA_RANGE);
        EXPECT(MPI_Put(two, 1, MPI_DOUBLE, t, disp(t, INTPTR_MAX / 4), 1,
                       MPI_DOUBLE, win), MPI_ERR_RMA_RANGE);
        /* disp x disp_unit overflows (on dynamic windows: an address) */
        EXPECT(MPI_Put(two, 1, MPI_DOUBLE, t, INTPTR_MAX / 2, 1, MPI_DOUBLE,
                       win), MPI_ERR_RMA_RANGE);
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Type_free(&wide));
    CHECK_MPI(MPI_Type_free(&before));
}

/* The last element is inside: written, and only it. */
static void edge_write(MPI_Win win, MPI_Aint (*disp)(int, MPI_Aint))
{
    double v;
    memset(&v, 0x5a, sizeof v); /* the fill, so the guard check holds */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_DOUBLE, right, disp(right, 99 * 8), 1,
                      MPI_DOUBLE, win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    check_untouched("a put to the last element");
}

/* The argument checks, on a window whose target_disp is disp(). */
static void argument_errors(MPI_Win win, MPI_Aint (*disp)(int, MPI_Aint),
                            int dynamic)
{
    int ints[4] = {1, 2, 3, 4}, res[4];
    double d = 1.0, dres;
    MPI_Datatype loose, mixed, vec;
    MPI_Op user;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &loose)); /* never committed */
    int bl[2] = {1, 1};
    MPI_Aint bd[2] = {0, 8};
    MPI_Datatype bt[2] = {MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(2, bl, bd, bt, &mixed));
    CHECK_MPI(MPI_Type_commit(&mixed));
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_FLOAT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    CHECK_MPI(MPI_Op_create(user_fn, 1, &user));
    MPI_Aint at = disp(right, 0);

    /* outside any epoch */
    EXPECT(MPI_Put(ints, 1, MPI_INT, right, at, 1, MPI_INT, win),
           MPI_ERR_RMA_SYNC);
    /* request forms in a fence epoch */
    CHECK_MPI(MPI_Win_fence(0, win));
    MPI_Request r;
    EXPECT(MPI_Rput(ints, 1, MPI_INT, right, at, 1, MPI_INT, win, &r),
           MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Rget(res, 1, MPI_INT, right, at, 1, MPI_INT, win, &r),
           MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Raccumulate(ints, 1, MPI_INT, right, at, 1, MPI_INT, MPI_SUM,
                           win, &r), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Rget_accumulate(ints, 1, MPI_INT, res, 1, MPI_INT, right, at,
                               1, MPI_INT, MPI_SUM, win, &r),
           MPI_ERR_RMA_SYNC);
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

    CHECK_MPI(MPI_Win_lock_all(0, win));
    EXPECT(MPI_Rput(ints, 1, MPI_INT, right, at, 1, MPI_INT, win, NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Put(ints, 1, MPI_INT, right, at, 1, MPI_INT, MPI_WIN_NULL),
           MPI_ERR_WIN);
    EXPECT(MPI_Put(ints, 1, MPI_INT, np, at, 1, MPI_INT, win), MPI_ERR_RANK);
    EXPECT(MPI_Get(res, 1, MPI_INT, -5, at, 1, MPI_INT, win), MPI_ERR_RANK);
    EXPECT(MPI_Put(ints, -1, MPI_INT, right, at, 1, MPI_INT, win),
           MPI_ERR_COUNT);
    EXPECT(MPI_Get(res, 1, MPI_INT, right, at, -1, MPI_INT, win),
           MPI_ERR_COUNT);
    EXPECT(MPI_Put(ints, 1, loose, right, at, 1, MPI_INT, win), MPI_ERR_TYPE);
    EXPECT(MPI_Put(ints, 1, MPI_INT, right, at, 1, MPI_DATATYPE_NULL, win),
           MPI_ERR_TYPE);
    EXPECT(MPI_Put(ints, 2, MPI_INT, right, at, 1, MPI_DOUBLE, win),
           MPI_ERR_TYPE);
    EXPECT(MPI_Accumulate(ints, 2, MPI_INT, right, at, 1, vec, MPI_SUM, win),
           MPI_ERR_TYPE);
    EXPECT(MPI_Accumulate(ints, 1, mixed, right, at, 1, mixed, MPI_REPLACE,
                          win), MPI_ERR_TYPE);
    EXPECT(MPI_Put(ints, 3, MPI_INT, right, at, 2, MPI_INT, win),
           MPI_ERR_TRUNCATE);
    EXPECT(MPI_Get(res, 2, MPI_INT, right, at, 3, MPI_INT, win),
           MPI_ERR_TRUNCATE);
    EXPECT(MPI_Accumulate(ints, 1, MPI_INT, right, at, 1, MPI_INT, user, win),
           MPI_ERR_OP);
    EXPECT(MPI_Accumulate(ints, 1, MPI_INT, right, at, 1, MPI_INT, MPI_NO_OP,
                          win), MPI_ERR_OP);
    EXPECT(MPI_Accumulate(&d, 1, MPI_DOUBLE, right, at, 1, MPI_DOUBLE,
                          MPI_LAND, win), MPI_ERR_OP);
    EXPECT(MPI_Accumulate(ints, 1, MPI_INT, right, at, 1, MPI_INT, MPI_OP_NULL,
                          win), MPI_ERR_OP);
    EXPECT(MPI_Fetch_and_op(ints, res, MPI_INT, right, at, MPI_MAXLOC, win),
           MPI_ERR_OP);
    EXPECT(MPI_Fetch_and_op(ints, res, vec, right, at, MPI_SUM, win),
           MPI_ERR_TYPE);
    EXPECT(MPI_Compare_and_swap(&d, &d, &dres, MPI_DOUBLE, right, at, win),
           MPI_ERR_TYPE);
    EXPECT(MPI_Put(NULL, 2, MPI_INT, right, at, 2, MPI_INT, win),
           MPI_ERR_BUFFER);
    EXPECT(MPI_Get_accumulate(ints, 1, MPI_INT, NULL, 1, MPI_INT, right, at,
                              1, MPI_INT, MPI_SUM, win), MPI_ERR_BUFFER);
    if (!dynamic)
        EXPECT(MPI_Put(ints, 1, MPI_INT, right, -1, 1, MPI_INT, win),
               MPI_ERR_DISP);
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Type_free(&loose));
    CHECK_MPI(MPI_Type_free(&mixed));
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Op_free(&user));
}

static MPI_Aint plain_disp(int target, MPI_Aint byte)
{
    (void)target;
    return byte / 8;
}

static void plain_window(unsigned char *mem, size_t bytes)
{
    area = mem, area_bytes = bytes;
    fill_area();
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(area + GUARD, WBYTES, 8, MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_set_name(win, "halo"));
    range_errors(win, plain_disp);
    argument_errors(win, plain_disp, 0);
    edge_write(win, plain_disp);
    CHECK_MPI(MPI_Win_free(&win));
}

static void stack_window(void)
{
    unsigned char mem[GUARD + WBYTES + GUARD];
    plain_window(mem, sizeof mem);
}

static MPI_Aint *region; /* each rank's attached address */

static MPI_Aint dynamic_disp(int target, MPI_Aint byte)
{
    return region[target] + byte;
}

static void dynamic_window(void)
{
    area_bytes = GUARD + WBYTES + GUARD;
    area = malloc(area_bytes);
    region = malloc((size_t)np * sizeof *region);
    CHECK(area && region, "malloc");
    fill_area();
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    double v = 0;
    MPI_Aint mine;
    CHECK_MPI(MPI_Get_address(area + GUARD, &mine));
    CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, region, 1, MPI_AINT,
                            MPI_COMM_WORLD));
    /* nothing attached yet */
    CHECK_MPI(MPI_Win_lock_all(0, win));
    EXPECT(MPI_Put(&v, 1, MPI_DOUBLE, right, region[right], 1, MPI_DOUBLE,
                   win), MPI_ERR_RMA_RANGE);
    CHECK_MPI(MPI_Win_unlock_all(win));

    CHECK_MPI(MPI_Win_attach(win, area + GUARD, WBYTES));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    range_errors(win, dynamic_disp);
    argument_errors(win, dynamic_disp, 1);
    CHECK_MPI(MPI_Win_lock_all(0, win));
    /* just before the region */
    EXPECT(MPI_Put(&v, 1, MPI_DOUBLE, right, region[right] - 8, 1,
                   MPI_DOUBLE, win), MPI_ERR_RMA_RANGE);
    CHECK_MPI(MPI_Win_unlock_all(win));
    edge_write(win, dynamic_disp);

    /* detached: gone for RMA */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_detach(win, area + GUARD));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    EXPECT(MPI_Put(&v, 1, MPI_DOUBLE, right, region[right], 1, MPI_DOUBLE,
                   win), MPI_ERR_RMA_RANGE);
    CHECK_MPI(MPI_Win_unlock_all(win));

    /* two regions side by side are still two: no range may span both */
    CHECK_MPI(MPI_Win_attach(win, area + GUARD, WBYTES / 2));
    CHECK_MPI(MPI_Win_attach(win, area + GUARD + WBYTES / 2, WBYTES / 2));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    double pair[2];
    memset(pair, 0x5a, sizeof pair);
    CHECK_MPI(MPI_Win_lock_all(0, win));
    EXPECT(MPI_Put(pair, 2, MPI_DOUBLE, right,
                   region[right] + WBYTES / 2 - 8, 2, MPI_DOUBLE, win),
           MPI_ERR_RMA_RANGE);
    CHECK_MPI(MPI_Put(pair, 1, MPI_DOUBLE, right,
                      region[right] + WBYTES / 2 - 8, 1, MPI_DOUBLE, win));
    CHECK_MPI(MPI_Put(pair, 1, MPI_DOUBLE, right, region[right] + WBYTES / 2,
                      1, MPI_DOUBLE, win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    check_untouched("puts on both sides of two adjacent regions");
    CHECK_MPI(MPI_Win_detach(win, area + GUARD));
    CHECK_MPI(MPI_Win_detach(win, area + GUARD + WBYTES / 2));
    CHECK_MPI(MPI_Win_free(&win));
    free(area);
    free(region);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
    right = (me + 1) % np;

    size_t bytes = GUARD + WBYTES + GUARD;
    unsigned char *heap = malloc(bytes);
    CHECK(heap, "malloc");
    plain_window(heap, bytes);
    free(heap);
    stack_window();
    dynamic_window();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
