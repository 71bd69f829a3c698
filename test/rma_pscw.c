/* rma_pscw: post/start/complete/wait - rings and all-to-all over many epochs, start before post, MPI_MODE_NOCHECK, MPI_Win_test false then true, groups of a window over a sub-communicator. */
/* shmpi-test: np=1,2,3,4,8 timeout=60 */
#include "check.h"

#define EPOCHS 30

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

/* Everyone exposes to everyone and accesses everyone: each puts its
   rank into its slot at every target, then reads a slot with a get. */
static void all_to_all(void)
{
    int *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate((MPI_Aint)size * sizeof(int), sizeof(int),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    MPI_Group all;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &all));
    for (int e = 0; e < EPOCHS / 3; e++) {
        for (int i = 0; i < size; i++)
            mem[i] = -1;
        CHECK_MPI(MPI_Win_post(all, 0, win));
        CHECK_MPI(MPI_Win_start(all, 0, win));
        int v = rank + 10 * e;
        for (int t = 0; t < size; t++)
            CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, rank, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Win_wait(win));
        for (int i = 0; i < size; i++)
            CHECK(mem[i] == i + 10 * e, "epoch %d: slot %d holds %d", e, i,
                  mem[i]);
        /* a get epoch over the same groups: read back my slot at t */
        CHECK_MPI(MPI_Win_post(all, MPI_MODE_NOPUT, win));
        CHECK_MPI(MPI_Win_start(all, 0, win));
        int t = (rank + e) % size, got = -1;
        CHECK_MPI(MPI_Get(&got, 1, MPI_INT, t, rank, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Win_wait(win));
        CHECK(got == v, "epoch %d: got %d back from %d, expected %d", e, got,
              t, v);
    }
    CHECK_MPI(MPI_Group_free(&all));
    CHECK_MPI(MPI_Win_free(&win));
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
    all_to_all();
    start_before_post();
    nocheck();
    test_false_then_true();
    sub_communicator();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
