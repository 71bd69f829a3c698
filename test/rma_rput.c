/* rma_rput: the request-based RMA calls MPI_Rput, MPI_Rget, MPI_Raccumulate and MPI_Rget_accumulate in MPI_Win_lock_all and MPI_Win_lock epochs, completed with MPI_Wait, MPI_Waitall, MPI_Test and MPI_Request_free; data moved with derived datatypes; MPI_PROC_NULL targets give a request too; on every window flavor (allocate, create over malloc, MPI_Alloc_mem and stack memory, allocate_shared, dynamic). */
/* shmpi-test: np=1,2,3,4 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "rma_win.h"

#define N 16

static int me, np;

static void check_ints(const int *got, const int *want, int n,
                       const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK(got[i] == want[i], "%s: int %d is %d, expected %d", what, i,
              got[i], want[i]);
}

/* lock_all: every rank writes its neighbour's slot, reads it back,
   accumulates into it and fetches while accumulating. */
static void lock_all_round(struct twin *w)
{
    int right = (me + 1) % np, left = (me - 1 + np) % np;
    int data[N], back[N], old[N], twice[N];
    MPI_Request req[4];
    for (int i = 0; i < N; i++)
        data[i] = me * 100 + i;
    MPI_Datatype evens; /* N ints, every other one, in the target */
    CHECK_MPI(MPI_Type_vector(N, 1, 2, MPI_INT, &evens));
    CHECK_MPI(MPI_Type_commit(&evens));

    CHECK_MPI(MPI_Win_lock_all(0, w->win));
    CHECK_MPI(MPI_Rput(data, N, MPI_INT, right, twin_disp(w, right, 0), 1,
                       evens, w->win, &req[0]));
    CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    CHECK(req[0] == MPI_REQUEST_NULL, "MPI_Wait left the request");
    CHECK_MPI(MPI_Win_flush(right, w->win));
    CHECK_MPI(MPI_Rget(back, N, MPI_INT, right, twin_disp(w, right, 0), 1,
                       evens, w->win, &req[0]));
    int done = 0;
    while (!done)
        CHECK_MPI(MPI_Test(&req[0], &done, MPI_STATUS_IGNORE));
    check_ints(back, data, N, "MPI_Rget after MPI_Rput");

    int ones[N];
    for (int i = 0; i < N; i++)
        ones[i] = 1;
    CHECK_MPI(MPI_Raccumulate(ones, N, MPI_INT, right,
                              twin_disp(w, right, 0), 1, evens, MPI_SUM,
                              w->win, &req[0]));
    CHECK_MPI(MPI_Rget_accumulate(ones, N, MPI_INT, old, N, MPI_INT, right,
                                  twin_disp(w, right, 0), 1, evens, MPI_SUM,
                                  w->win, &req[1]));
    CHECK_MPI(MPI_Rput(data, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT,
                       w->win, &req[2]));
    CHECK_MPI(MPI_Rget(twice, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT,
                       w->win, &req[3]));
    CHECK_MPI(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
    for (int i = 0; i < N; i++)
        twice[i] = data[i] + 1;
    check_ints(old, twice, N, "MPI_Rget_accumulate's old values");
    CHECK_MPI(MPI_Win_unlock_all(w->win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, w->win));
    CHECK_MPI(MPI_Win_sync(w->win));
    const int *mem = (const int *)w->base;
    for (int i = 0; i < N; i++) {
        CHECK(mem[2 * i] == left * 100 + i + 2, "slot int %d is %d, "
              "expected %d", 2 * i, mem[2 * i], left * 100 + i + 2);
        CHECK(mem[2 * i + 1] == (int)0xeeeeeeee, "the gap after int %d was "
              "written", 2 * i);
    }
    CHECK_MPI(MPI_Win_unlock(me, w->win));
    CHECK_MPI(MPI_Type_free(&evens));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* MPI_Win_lock on one target at a time, requests freed unwaited: the
   unlock completes them all the same. */
static void lock_round(struct twin *w)
{
    int value = me + 1000;
    for (int t = 0; t < np; t++) {
        MPI_Request r;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, w->win));
        CHECK_MPI(MPI_Raccumulate(&value, 1, MPI_INT, t,
                                  twin_disp(w, t, 2 * N * sizeof(int)), 1,
                                  MPI_INT, MPI_MAX, w->win, &r));
        CHECK_MPI(MPI_Request_free(&r));
        CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free left the request");
        CHECK_MPI(MPI_Win_unlock(t, w->win));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, w->win));
    CHECK_MPI(MPI_Win_sync(w->win));
    int got = ((const int *)w->base)[2 * N];
    CHECK(got == np - 1 + 1000, "MPI_MAX of every rank left %d", got);
    CHECK_MPI(MPI_Win_unlock(me, w->win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
    int stack[2 * N + 1]; /* the window of TW_CREATE_STACK */
    for (int f = 0; f < TW_FLAVORS; f++) {
        struct twin w;
        twin_open(&w, (enum twin_flavor)f, sizeof stack, sizeof(int),
                  f == TW_CREATE_STACK ? stack : NULL);
        ((int *)w.base)[2 * N] = 0;
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        lock_all_round(&w);
        lock_round(&w);
        twin_close(&w);
    }
    CHECK_MPI(MPI_Finalize());
    return 0;
}
