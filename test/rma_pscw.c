/* rma_pscw: post/start/complete/wait - rings over many epochs; all-to-all put, get and accumulate with strided (derived) types at the origin, the target or both, on every window flavor (allocate, create over malloc, MPI_Alloc_mem and stack memory, allocate_shared, dynamic); start before post, MPI_MODE_NOCHECK, MPI_Win_test false then true, groups of a window over a sub-communicator. */
/* shmpi-test: np=1,2,3,4,8 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "rma_win.h"

#define EPOCHS 30
#define K 4                 /* ints an origin moves per operation */
#define SLOT (2 * K)        /* ints per origin in a window: K and gaps */
#define FILL ((int)0xeeeeeeee)
#define MAXNP 8             /* ranks the stack window has room for */

static int rank, size;

static void nap_ms(long ms)
{
    nanosleep(&(struct timespec){.tv_sec = ms / 1000,
                                 .tv_nsec = ms % 1000 * 1000000L},
              NULL);
}

/* The group of comm's ranks ranks[0..n-1]. */
static MPI_Group group_of(MPI_Comm comm, int n, const int *ranks)
{
    MPI_Group all, g;
    CHECK_MPI(MPI_Comm_group(comm, &all));
    CHECK_MPI(MPI_Group_incl(all, n, ranks, &g));
    CHECK_MPI(MPI_Group_free(&all));
    return g;
}

/* Each epoch: expose to the left neighbour, access the right one. */
static void ring(void)
{
    int *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Group from = group_of(MPI_COMM_WORLD, 1, &left);
    MPI_Group to = group_of(MPI_COMM_WORLD, 1, &right);
    for (int e = 0; e < EPOCHS; e++) {
        *mem = -1;
        CHECK_MPI(MPI_Win_post(from, 0, win));
        CHECK_MPI(MPI_Win_start(to, 0, win));
        int v = rank * 100 + e;
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Win_wait(win));
        CHECK(*mem == left * 100 + e, "epoch %d: %d, expected %d", e, *mem,
              left * 100 + e);
    }
    CHECK_MPI(MPI_Group_free(&from));
    CHECK_MPI(MPI_Group_free(&to));
    CHECK_MPI(MPI_Win_free(&win));
}

/* Everyone exposes to everyone and accesses everyone, on a window of
   flavor f: each rank puts K ints into the even ints of its slot at
   every target (a strided target type) and adds the even ints of a
   buffer (a strided origin type) into every target's K sums; then, in
   an MPI_MODE_NOPUT epoch, it gets its slot back from one target,
   strided at both sides. */
static void all_to_all(enum twin_flavor f, void *stack)
{
    struct twin w;
    twin_open(&w, f, (MPI_Aint)(size * SLOT + K) * sizeof(int), sizeof(int),
              stack);
    int *mem = (int *)w.base, *sums = mem + size * SLOT;
    MPI_Aint mine = (MPI_Aint)rank * SLOT * sizeof(int);
    MPI_Datatype evens; /* K ints, every other one */
    CHECK_MPI(MPI_Type_vector(K, 1, 2, MPI_INT, &evens));
    CHECK_MPI(MPI_Type_commit(&evens));
    MPI_Group all;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &all));
    for (int e = 0; e < EPOCHS / 6; e++) {
        int v[K], add[SLOT], got[SLOT];
        for (int i = 0; i < size * SLOT; i++)
            mem[i] = FILL;
        for (int j = 0; j < K; j++)
            sums[j] = e, v[j] = rank * 100 + e * 10 + j;
        for (int j = 0; j < SLOT; j++) /* odd ones: not in the type */
            add[j] = j % 2 ? 1000000 : rank + 1 + j / 2;
        CHECK_MPI(MPI_Win_post(all, 0, w.win));
        CHECK_MPI(MPI_Win_start(all, 0, w.win));
        for (int t = 0; t < size; t++) {
            CHECK_MPI(MPI_Put(v, K, MPI_INT, t, twin_disp(&w, t, mine), 1,
                              evens, w.win));
            CHECK_MPI(MPI_Accumulate(add, 1, evens, t,
                                     twin_disp(&w, t, size * SLOT *
                                               (MPI_Aint)sizeof(int)),
                                     K, MPI_INT, MPI_SUM, w.win));
        }
        CHECK_MPI(MPI_Win_complete(w.win));
        CHECK_MPI(MPI_Win_wait(w.win));
        for (int i = 0; i < size * SLOT; i++) {
            int want = i % 2 ? FILL : i / SLOT * 100 + e * 10 + i % SLOT / 2;
            CHECK(mem[i] == want, "%s, epoch %d: int %d of the slots is %d, "
                  "expected %d", twin_names[f], e, i, mem[i], want);
        }
        for (int j = 0; j < K; j++) {
            int want = e + size * (size + 1) / 2 + size * j;
            CHECK(sums[j] == want, "%s, epoch %d: sum %d is %d, expected %d",
                  twin_names[f], e, j, sums[j], want);
        }
        /* a get epoch over the same groups: my slot at t, into the even
           ints of got */
        for (int j = 0; j < SLOT; j++)
            got[j] = -1;
        CHECK_MPI(MPI_Win_post(all, MPI_MODE_NOPUT, w.win));
        CHECK_MPI(MPI_Win_start(all, 0, w.win));
        int t = (rank + e) % size;
        CHECK_MPI(MPI_Get(got, 1, evens, t, twin_disp(&w, t, mine), 1, evens,
                          w.win));
        CHECK_MPI(MPI_Win_complete(w.win));
        CHECK_MPI(MPI_Win_wait(w.win));
        for (int j = 0; j < SLOT; j++) {
            int want = j % 2 ? -1 : v[j / 2];
            CHECK(got[j] == want, "%s, epoch %d: int %d got back from %d is "
                  "%d, expected %d", twin_names[f], e, j, t, got[j], want);
        }
    }
    CHECK_MPI(MPI_Group_free(&all));
    CHECK_MPI(MPI_Type_free(&evens));
    twin_close(&w);
}

static void all_to_all_on_stack(void)
{
    int mem[MAXNP * SLOT + K];
    CHECK(size <= MAXNP, "the stack window is sized for %d ranks", MAXNP);
    all_to_all(TW_CREATE_STACK, mem);
}

/* Rank 0 posts late, after storing a sentinel; the others start at once
   and put.  A put that landed before the post would be overwritten by
   the sentinel. */
static void start_before_post(void)
{
    if (size < 2)
        return;
    int *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate((MPI_Aint)size * sizeof(int), sizeof(int),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    int zero = 0;
    if (rank == 0) {
        int n = size - 1, *others = malloc((size_t)n * sizeof *others);
        for (int i = 0; i < n; i++)
            others[i] = i + 1;
        MPI_Group g = group_of(MPI_COMM_WORLD, n, others);
        nap_ms(40);
        for (int i = 0; i < size; i++)
            mem[i] = -5;
        CHECK_MPI(MPI_Win_post(g, 0, win));
        CHECK_MPI(MPI_Win_wait(win));
        for (int i = 1; i < size; i++)
            CHECK(mem[i] == 500 + i, "slot %d holds %d, expected %d: a put "
                  "landed before the post", i, mem[i], 500 + i);
        CHECK_MPI(MPI_Group_free(&g));
        free(others);
    } else {
        MPI_Group g = group_of(MPI_COMM_WORLD, 1, &zero);
        CHECK_MPI(MPI_Win_start(g, 0, win));
        int v = 500 + rank;
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, rank, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Group_free(&g));
    }
    /* start before post, and complete before any access: the target's
       wait must still count this origin */
    if (rank == 0) {
        MPI_Group g;
        int n = size - 1, *others = malloc((size_t)n * sizeof *others);
        for (int i = 0; i < n; i++)
            others[i] = i + 1;
        g = group_of(MPI_COMM_WORLD, n, others);
        nap_ms(20);
        CHECK_MPI(MPI_Win_post(g, 0, win));
        CHECK_MPI(MPI_Win_wait(win));
        CHECK_MPI(MPI_Group_free(&g));
        free(others);
    } else {
        MPI_Group g = group_of(MPI_COMM_WORLD, 1, &zero);
        CHECK_MPI(MPI_Win_start(g, 0, win));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Group_free(&g));
    }
    CHECK_MPI(MPI_Win_free(&win));
}

/* MPI_MODE_NOCHECK on both sides: the post is known to be done (a
   barrier) before the start.  One such epoch, first on a fresh window,
   then ordinary ones: Open MPI 4.1's osc sm resets its count of
   completes only in a post without NOCHECK, so any later NOCHECK epoch
   would make its MPI_Win_wait return early or never (a bug of its own;
   shmpi's counters only grow, whatever the asserts). */
static void nocheck(void)
{
    int *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Group from = group_of(MPI_COMM_WORLD, 1, &left);
    MPI_Group to = group_of(MPI_COMM_WORLD, 1, &right);
    *mem = -1;
    CHECK_MPI(MPI_Win_post(from, MPI_MODE_NOCHECK, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_start(to, MPI_MODE_NOCHECK, win));
    int v = rank * 100;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    CHECK(*mem == left * 100, "nocheck epoch: %d, expected %d", *mem,
          left * 100);
    /* ordinary epochs after it still pair every start with its post */
    for (int e = 1; e < EPOCHS / 3; e++) {
        CHECK_MPI(MPI_Win_post(from, 0, win));
        CHECK_MPI(MPI_Win_start(to, 0, win));
        v = rank * 100 + e;
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Win_wait(win));
        CHECK(*mem == left * 100 + e, "epoch %d after nocheck: %d, "
              "expected %d", e, *mem, left * 100 + e);
    }
    CHECK_MPI(MPI_Group_free(&from));
    CHECK_MPI(MPI_Group_free(&to));
    CHECK_MPI(MPI_Win_free(&win));
}

/* Rank 0's MPI_Win_test says false while rank 1 holds its complete back
   (rank 1 waits for a message sent after that test), then true. */
static void test_false_then_true(void)
{
    if (size < 2)
        return;
    int *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    int zero = 0, one = 1, flag = -1, go = 1;
    if (rank == 0) {
        MPI_Group g = group_of(MPI_COMM_WORLD, 1, &one);
        *mem = 0;
        CHECK_MPI(MPI_Win_post(g, 0, win));
        CHECK_MPI(MPI_Win_test(win, &flag));
        CHECK(flag == 0, "MPI_Win_test returned true before the complete");
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
        do
            CHECK_MPI(MPI_Win_test(win, &flag));
        while (!flag);
        CHECK(*mem == 77, "after the test: %d, expected 77", *mem);
        CHECK_MPI(MPI_Group_free(&g));
    } else if (rank == 1) {
        MPI_Group g = group_of(MPI_COMM_WORLD, 1, &zero);
        int v = 77;
        CHECK_MPI(MPI_Win_start(g, 0, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
        CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Group_free(&g));
    }
    CHECK_MPI(MPI_Win_free(&win));
}

/* A window over the odd (or even) ranks of MPI_COMM_WORLD: groups name
   processes, which the window translates to its own ranks. */
static void sub_communicator(void)
{
    MPI_Comm sub;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &sub));
    int srank, ssize, *mem;
    CHECK_MPI(MPI_Comm_rank(sub, &srank));
    CHECK_MPI(MPI_Comm_size(sub, &ssize));
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, sub,
                               &mem, &win));
    int right = (srank + 1) % ssize, left = (srank + ssize - 1) % ssize;
    MPI_Group wg, from, to;
    CHECK_MPI(MPI_Win_get_group(win, &wg));
    CHECK_MPI(MPI_Group_incl(wg, 1, &left, &from));
    CHECK_MPI(MPI_Group_incl(wg, 1, &right, &to));
    *mem = -1;
    CHECK_MPI(MPI_Win_post(from, 0, win));
    CHECK_MPI(MPI_Win_start(to, 0, win));
    int v = 900 + rank;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    int first = 0, lw;
    MPI_Group world;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Group_translate_ranks(from, 1, &first, world, &lw));
    CHECK(*mem == 900 + lw, "sub-window: %d, expected %d", *mem, 900 + lw);
    CHECK_MPI(MPI_Group_free(&world));
    CHECK_MPI(MPI_Group_free(&wg));
    CHECK_MPI(MPI_Group_free(&from));
    CHECK_MPI(MPI_Group_free(&to));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Comm_free(&sub));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    ring();
    for (int f = 0; f < TW_FLAVORS; f++) {
        if (f == TW_CREATE_STACK)
            all_to_all_on_stack();
        else
            all_to_all((enum twin_flavor)f, NULL);
    }
    start_before_post();
    nocheck();
    test_false_then_true();
    sub_communicator();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
