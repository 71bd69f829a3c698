/* rma_win_dynamic_many_ext: 10,000 small regions attached per process to one dynamic window (malloc'd and MPI_Alloc_mem memory, attached in a shuffled order): random MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Rput and MPI_Rget into them from every rank, each result checked at the origin and every region's final contents at its owner; half of them detached - RMA to those fails with MPI_ERR_RMA_RANGE and changes nothing, the rest still work - then attached again and used again; first, a sliding window of 300 regions moved over 4096 longs one element at a time (the table as a queue), then reachable exactly where it ended. ext: Open MPI 4.1 refuses more than 64 attached regions (osc_rdma_max_attach), and RMA to detached memory is erroneous, which shmpi detects. */
/* shmpi-test: np=1,2,3,4 timeout=180 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

#define REGIONS 10000
#define OPS 4000

static int me, np;
static long **region;          /* [REGIONS]: this rank's, np longs each */
static MPI_Aint *addr;         /* [np * REGIONS]: everybody's addresses */
static long *expect;           /* [np * REGIONS]: my slot in each region */
static int *order;             /* [REGIONS]: a shuffled attach order */

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static long init_value(int owner, int k, int slot)
{
    return (long)owner * 100000000L + (long)k * 100 + slot;
}

/* Regions of k % 3 == 0 come from MPI_Alloc_mem, the others from malloc
   (of slightly varying sizes, so the heap layout is not regular). */
static void make_regions(void)
{
    region = malloc(REGIONS * sizeof *region);
    order = malloc(REGIONS * sizeof *order);
    CHECK(region && order, "malloc");
    for (int k = 0; k < REGIONS; k++) {
        size_t bytes = (size_t)np * sizeof(long);
        if (k % 3 == 0)
            CHECK_MPI(MPI_Alloc_mem((MPI_Aint)bytes, MPI_INFO_NULL,
                                    &region[k]));
        else
            region[k] = malloc(bytes + (size_t)(k % 5) * 8);
        CHECK(region[k], "malloc");
        for (int s = 0; s < np; s++)
            region[k][s] = init_value(me, k, s);
        order[k] = k;
    }
    for (int k = REGIONS - 1; k > 0; k--) {
        int j = (int)(next_rand() % (uint64_t)(k + 1)), t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
}

static void attach(MPI_Win win, int parity) /* -1: all */
{
    for (int i = 0; i < REGIONS; i++) {
        int k = order[i];
        if (parity < 0 || k % 2 == parity)
            CHECK_MPI(MPI_Win_attach(win, region[k],
                                     (MPI_Aint)np * (MPI_Aint)sizeof(long)));
    }
}

static void detach(MPI_Win win, int parity)
{
    for (int k = 0; k < REGIONS; k++)
        if (parity < 0 || k % 2 == parity)
            CHECK_MPI(MPI_Win_detach(win, region[k]));
}

/* target_disp of my slot in region k of t. */
static MPI_Aint my_slot(int t, int k)
{
    return MPI_Aint_add(addr[t * REGIONS + k], me * (MPI_Aint)sizeof(long));
}

/* One random operation on my slot of a random region of a random rank
   (of the usable ones: parity -1 all, else only k % 2 == parity),
   checked against what I expect there. */
static void one_op(MPI_Win win, int parity)
{
    int t = (int)(next_rand() % (uint64_t)np);
    int k = (int)(next_rand() % REGIONS);
    if (parity >= 0 && k % 2 != parity)
        k ^= 1;
    long *want = &expect[t * REGIONS + k];
    long v = (long)(next_rand() % 1000) - 500, got = -1, old = -1;
    MPI_Request req;
    switch (next_rand() % 7) {
    case 0:
        CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, t, my_slot(t, k), 1, MPI_LONG,
                          win));
        /* v is this call's, and a later operation of this rank may
           touch the same long: complete the put at the target (11.3;
           a flush_local would free v but leave the two in conflict,
           11.7.1) */
        CHECK_MPI(MPI_Win_flush(t, win));
        *want = v;
        break;
    case 1:
        CHECK_MPI(MPI_Get(&got, 1, MPI_LONG, t, my_slot(t, k), 1, MPI_LONG,
                          win));
        CHECK_MPI(MPI_Win_flush(t, win));
        CHECK(got == *want, "MPI_Get of region %d of rank %d: %ld, not %ld",
              k, t, got, *want);
        break;
    case 2:
        CHECK_MPI(MPI_Accumulate(&v, 1, MPI_LONG, t, my_slot(t, k), 1,
                                 MPI_LONG, MPI_SUM, win));
        CHECK_MPI(MPI_Win_flush(t, win));
        *want += v;
        break;
    case 3:
        CHECK_MPI(MPI_Get_accumulate(&v, 1, MPI_LONG, &old, 1, MPI_LONG, t,
                                     my_slot(t, k), 1, MPI_LONG, MPI_SUM,
                                     win));
        CHECK_MPI(MPI_Win_flush(t, win));
        CHECK(old == *want, "MPI_Get_accumulate of region %d of rank %d "
              "fetched %ld, not %ld", k, t, old, *want);
        *want += v;
        break;
    case 4:
        CHECK_MPI(MPI_Fetch_and_op(&v, &old, MPI_LONG, t, my_slot(t, k),
                                   MPI_MAX, win));
        CHECK_MPI(MPI_Win_flush(t, win));
        CHECK(old == *want, "MPI_Fetch_and_op of region %d of rank %d "
              "fetched %ld, not %ld", k, t, old, *want);
        *want = v > *want ? v : *want;
        break;
    case 5:
        CHECK_MPI(MPI_Rput(&v, 1, MPI_LONG, t, my_slot(t, k), 1, MPI_LONG,
                           win, &req));
        /* the request completes the put at the origin only (11.5.1) */
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Win_flush(t, win));
        *want = v;
        break;
    default:
        CHECK_MPI(MPI_Rget(&got, 1, MPI_LONG, t, my_slot(t, k), 1, MPI_LONG,
                           win, &req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Win_flush(t, win));
        CHECK(got == *want, "MPI_Rget of region %d of rank %d: %ld, not %ld",
              k, t, got, *want);
        break;
    }
}

/* OPS random operations from every rank, then every owner checks every
   slot of every region against what its origin expects. */
static void round_of_ops(MPI_Win win, int parity)
{
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < OPS; i++)
        one_op(win, parity);
    CHECK_MPI(MPI_Win_unlock_all(win));
    long *theirs = malloc((size_t)np * REGIONS * sizeof *theirs);
    CHECK(theirs, "malloc");
    CHECK_MPI(MPI_Alltoall(expect, REGIONS, MPI_LONG, theirs, REGIONS,
                           MPI_LONG, MPI_COMM_WORLD));
    for (int o = 0; o < np; o++)
        for (int k = 0; k < REGIONS; k++)
            CHECK(region[k][o] == theirs[o * REGIONS + k], "region %d, "
                  "slot of rank %d: %ld, not %ld", k, o, region[k][o],
                  theirs[o * REGIONS + k]);
    free(theirs);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* Every call into a detached (odd) region fails and changes nothing. */
static void into_detached(MPI_Win win)
{
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < 200; i++) {
        int t = (int)(next_rand() % (uint64_t)np);
        int k = (int)(next_rand() % REGIONS) | 1;
        long v = 7, got = -1;
        MPI_Request req;
        CHECK_CLASS(MPI_Put(&v, 1, MPI_LONG, t, my_slot(t, k), 1, MPI_LONG,
                            win), MPI_ERR_RMA_RANGE);
        CHECK_CLASS(MPI_Get(&got, 1, MPI_LONG, t, my_slot(t, k), 1,
                            MPI_LONG, win), MPI_ERR_RMA_RANGE);
        CHECK_CLASS(MPI_Accumulate(&v, 1, MPI_LONG, t, my_slot(t, k), 1,
                                   MPI_LONG, MPI_SUM, win),
                    MPI_ERR_RMA_RANGE);
        CHECK_CLASS(MPI_Rput(&v, 1, MPI_LONG, t, my_slot(t, k), 1, MPI_LONG,
                             win, &req), MPI_ERR_RMA_RANGE);
        CHECK(got == -1, "a failed MPI_Get wrote %ld", got);
        /* its even neighbour is still attached */
        CHECK_MPI(MPI_Get(&got, 1, MPI_LONG, t, my_slot(t, k - 1), 1,
                          MPI_LONG, win));
        CHECK_MPI(MPI_Win_flush(t, win));
        CHECK(got == expect[t * REGIONS + k - 1], "region %d of rank %d: "
              "%ld after the detach of its neighbour", k - 1, t, got);
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* A sliding window of SLIDE_WIDTH regions over an array, moved one
   element at a time (detach the lowest, attach the next above): the
   table is used as a queue, its entries drifting up through the reserve
   and moved down again; then every rank's regions are where the last
   position says, and nowhere else. */
#define SLIDE 4096
#define SLIDE_WIDTH 300
static long slide[SLIDE];

static void sliding(MPI_Win win)
{
    for (int i = 0; i < SLIDE; i++)
        slide[i] = (long)i * 3 + me;
    for (int i = 0; i < SLIDE_WIDTH; i++)
        CHECK_MPI(MPI_Win_attach(win, &slide[i], sizeof(long)));
    for (int i = 0; i + SLIDE_WIDTH < SLIDE; i++) {
        CHECK_MPI(MPI_Win_detach(win, &slide[i]));
        CHECK_MPI(MPI_Win_attach(win, &slide[i + SLIDE_WIDTH],
                                 sizeof(long)));
    }
    MPI_Aint mine, *at = malloc((size_t)np * sizeof *at);
    CHECK(at, "malloc");
    CHECK_MPI(MPI_Get_address(slide, &mine));
    CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, at, 1, MPI_AINT,
                            MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int n = 0; n < 2000; n++) {
        int t = (int)(next_rand() % (uint64_t)np);
        int i = (int)(next_rand() % SLIDE);
        long got = -1;
        int rc = MPI_Get(&got, 1, MPI_LONG, t,
                         MPI_Aint_add(at[t], i * (MPI_Aint)sizeof(long)), 1,
                         MPI_LONG, win);
        if (i >= SLIDE - SLIDE_WIDTH) {
            CHECK(rc == MPI_SUCCESS, "slide %d of rank %d: not attached",
                  i, t);
            CHECK_MPI(MPI_Win_flush(t, win));
            CHECK(got == (long)i * 3 + t, "slide %d of rank %d: %ld", i, t,
                  got);
        } else {
            CHECK_CLASS(rc, MPI_ERR_RMA_RANGE);
        }
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = SLIDE - SLIDE_WIDTH; i < SLIDE; i++)
        CHECK_MPI(MPI_Win_detach(win, &slide[i]));
    free(at);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
    rng += (uint64_t)me * 7919;
    make_regions();
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    sliding(win);
    attach(win, -1);
    MPI_Aint *mine = malloc(REGIONS * sizeof *mine);
    addr = malloc((size_t)np * REGIONS * sizeof *addr);
    expect = malloc((size_t)np * REGIONS * sizeof *expect);
    CHECK(mine && addr && expect, "malloc");
    for (int k = 0; k < REGIONS; k++)
        CHECK_MPI(MPI_Get_address(region[k], &mine[k]));
    CHECK_MPI(MPI_Allgather(mine, REGIONS, MPI_AINT, addr, REGIONS,
                            MPI_AINT, MPI_COMM_WORLD));
    for (int t = 0; t < np; t++)
        for (int k = 0; k < REGIONS; k++)
            expect[t * REGIONS + k] = init_value(t, k, me);

    round_of_ops(win, -1);
    detach(win, 1);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every detach has returned */
    into_detached(win);
    round_of_ops(win, 0); /* checks the detached ones are unchanged too */
    attach(win, 1);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    round_of_ops(win, -1);

    detach(win, -1);
    CHECK_MPI(MPI_Win_free(&win));
    for (int k = 0; k < REGIONS; k++) {
        if (k % 3 == 0)
            CHECK_MPI(MPI_Free_mem(region[k]));
        else
            free(region[k]);
    }
    free(region);
    free(order);
    free(mine);
    free(addr);
    free(expect);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
