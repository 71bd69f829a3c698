/* rma_atomic_leases: single-element MPI_Fetch_and_op and MPI_Compare_and_swap increments that run a while alone on a target (where shmpi lets them skip a fence) stay atomic when whole-array MPI_Accumulates to that target start in the middle of them, on fresh windows again and again, with the fetching ranks switching targets now and then. */
/* shmpi-test: np=2,3,4,8 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "rma_win.h"

#define WINDOWS 24  /* fresh windows: the first accumulate on each ends the leases */
#define ELEMS 16    /* longs accumulated into, on rank 0 */
#define ALONE 200   /* fetch_and_ops per rank before any accumulate */
#define ACCS 400    /* whole-array accumulates per accumulating rank */

static int me, np;

/* Every rank fetches in the first phase; in the second the odd ranks
   accumulate whole arrays (with two ranks: rank 1) while the even ones
   go on fetching until all accumulates are done.  Rank 0's window holds
   the ELEMS counters and, after them, how many ranks finished
   accumulating. */
/* Adds one to rank 0's long at `at` with compare_and_swap. */
static void cas_increment(struct twin *w, MPI_Aint at)
{
    long seen, want, found;
    CHECK_MPI(MPI_Fetch_and_op(NULL, &seen, MPI_LONG, 0, at, MPI_NO_OP,
                               w->win));
    for (;;) {
        want = seen + 1;
        CHECK_MPI(MPI_Compare_and_swap(&want, &seen, &found, MPI_LONG, 0, at,
                                       w->win));
        if (found == seen)
            return;
        seen = found;
    }
}

static void one_window(enum twin_flavor f, int round)
{
    struct twin w;
    twin_open(&w, f, (ELEMS + 1) * sizeof(long), sizeof(long), NULL);
    long *mem = (long *)w.base, one = 1, old, ones[ELEMS];
    for (int i = 0; i < ELEMS; i++)
        ones[i] = 1, mem[i] = 0;
    mem[ELEMS] = 0;
    int accumulates = me % 2 == 1, fops = 0;
    CHECK_MPI(MPI_Win_fence(0, w.win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win));
    CHECK_MPI(MPI_Win_lock_all(0, w.win));
    for (int k = 0; k < ALONE; k++, fops++)
        CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, 0,
                                   twin_disp(&w, 0, (size_t)(k % ELEMS) *
                                                        sizeof(long)),
                                   MPI_SUM, w.win));
    /* no barrier: the first accumulate lands among the fetches */
    MPI_Aint done_at = twin_disp(&w, 0, ELEMS * sizeof(long));
    if (accumulates) {
        for (int a = 0; a < ACCS; a++)
            CHECK_MPI(MPI_Accumulate(ones, ELEMS, MPI_LONG, 0,
                                     twin_disp(&w, 0, 0), ELEMS, MPI_LONG,
                                     MPI_SUM, w.win));
        CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, done_at, MPI_SUM,
                                   w.win));
    } else {
        long done = 0, zero = 0;
        for (int k = 0; done < np / 2; k++, fops++) {
            MPI_Aint at = twin_disp(&w, 0, (size_t)(k % ELEMS) *
                                               sizeof(long));
            if (k % 4 == 3)
                cas_increment(&w, at);
            else
                CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, at,
                                           MPI_SUM, w.win));
            if (k % 8 == 5) /* another target, and back */
                CHECK_MPI(MPI_Fetch_and_op(&zero, &old, MPI_LONG, me,
                                           twin_disp(&w, me, 0), MPI_SUM,
                                           w.win));
            if (k % 16 == 15)
                CHECK_MPI(MPI_Fetch_and_op(NULL, &done, MPI_LONG, 0, done_at,
                                           MPI_NO_OP, w.win));
        }
    }
    CHECK_MPI(MPI_Win_flush_all(w.win));
    CHECK_MPI(MPI_Win_unlock_all(w.win));
    int total_fops, accumulators;
    CHECK_MPI(MPI_Allreduce(&fops, &total_fops, 1, MPI_INT, MPI_SUM,
                            MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(&accumulates, &accumulators, 1, MPI_INT, MPI_SUM,
                            MPI_COMM_WORLD));
    if (me == 0) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w.win));
        long sum = 0;
        for (int i = 0; i < ELEMS; i++) {
            /* fetches hit elements 0, 1, ... in turn from each rank;
               every element gets every accumulate */
            CHECK(mem[i] >= (long)accumulators * ACCS,
                  "%s, window %d: element %d is %ld, below the %d "
                  "accumulates", twin_names[f], round, i, mem[i],
                  accumulators * ACCS);
            sum += mem[i];
        }
        long expect = (long)total_fops + (long)accumulators * ACCS * ELEMS;
        CHECK(sum == expect,
              "%s, window %d: the counters sum to %ld, expected %ld "
              "(%d fetch_and_ops, %d x %d accumulates of %d): an update "
              "was lost", twin_names[f], round, sum, expect, total_fops,
              accumulators, ACCS, ELEMS);
        CHECK_MPI(MPI_Win_unlock(0, w.win));
    }
    twin_close(&w);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
    for (int round = 0; round < WINDOWS; round++)
        one_window(round % 3 == 2 ? TW_SHARED : TW_ALLOCATE, round);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
