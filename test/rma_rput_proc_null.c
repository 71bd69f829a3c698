/* rma_rput_proc_null: MPI_Rput, MPI_Rget, MPI_Raccumulate and MPI_Rget_accumulate (MPI_NO_OP too) to MPI_PROC_NULL inside MPI_Win_lock (of oneself, of another rank, with MPI_MODE_NOCHECK), MPI_Win_lock_all, MPI_Win_fence and MPI_Win_start (PSCW) epochs, on every window flavor: each succeeds like MPI_Put/MPI_Get to MPI_PROC_NULL, moves nothing, and gives a request that is complete at once (the first MPI_Test says so, MPI_Request_get_status too) with a status of no data (count 0, not cancelled), as Open MPI and MPICH do in every access epoch. Outside any epoch: rma_sync_errors. */
/* shmpi-test: np=1,2,3 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "rma_win.h"

#define N 4

static int me, np;

/* What a status of an RMA request to MPI_PROC_NULL says of the data:
   none moved, nothing cancelled.  Its source and tag the standard leaves
   open (shmpi's are MPI_ANY_SOURCE and MPI_ANY_TAG, an empty status;
   Open MPI's source is MPI_PROC_NULL). */
static void check_empty(const MPI_Status *st, const char *what)
{
    int count = -1, cancelled = -1;
    CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
    CHECK(count == 0, "%s: count %d", what, count);
    CHECK_MPI(MPI_Test_cancelled(st, &cancelled));
    CHECK(!cancelled, "%s: cancelled", what);
}

/* req was just returned: complete at the first look, status empty. */
static void check_done(MPI_Request *req, const char *what)
{
    MPI_Status st;
    int flag = 0;
    CHECK(*req != MPI_REQUEST_NULL, "%s gave MPI_REQUEST_NULL", what);
    CHECK_MPI(MPI_Request_get_status(*req, &flag, &st));
    CHECK(flag, "%s: MPI_Request_get_status says not complete", what);
    check_empty(&st, what);
    flag = 0;
    CHECK_MPI(MPI_Test(req, &flag, &st));
    CHECK(flag, "%s: the first MPI_Test says not complete", what);
    CHECK(*req == MPI_REQUEST_NULL, "%s: MPI_Test left the request", what);
    check_empty(&st, what);
}

/* The four request forms and the two plain ones to MPI_PROC_NULL, in
   whatever access epoch the caller opened. */
static void to_proc_null(MPI_Win win, const char *epoch)
{
    int data[N] = {1, 2, 3, 4}, got[N], old[N];
    for (int i = 0; i < N; i++)
        got[i] = old[i] = -7;
    MPI_Request req;
    char what[96];
    CHECK_MPI(MPI_Put(data, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT, win));
    CHECK_MPI(MPI_Get(got, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT, win));
    snprintf(what, sizeof what, "MPI_Rput in %s", epoch);
    CHECK_MPI(MPI_Rput(data, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT, win,
                       &req));
    check_done(&req, what);
    snprintf(what, sizeof what, "MPI_Rget in %s", epoch);
    CHECK_MPI(MPI_Rget(got, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT, win,
                       &req));
    check_done(&req, what);
    snprintf(what, sizeof what, "MPI_Raccumulate in %s", epoch);
    CHECK_MPI(MPI_Raccumulate(data, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT,
                              MPI_SUM, win, &req));
    check_done(&req, what);
    snprintf(what, sizeof what, "MPI_Rget_accumulate in %s", epoch);
    CHECK_MPI(MPI_Rget_accumulate(data, N, MPI_INT, old, N, MPI_INT,
                                  MPI_PROC_NULL, 0, N, MPI_INT, MPI_SUM, win,
                                  &req));
    check_done(&req, what);
    snprintf(what, sizeof what, "MPI_Rget_accumulate (MPI_NO_OP) in %s",
             epoch);
    CHECK_MPI(MPI_Rget_accumulate(NULL, 0, MPI_INT, old, N, MPI_INT,
                                  MPI_PROC_NULL, 0, N, MPI_INT, MPI_NO_OP,
                                  win, &req));
    check_done(&req, what);
    /* MPI_Wait on a fresh one returns too */
    CHECK_MPI(MPI_Rput(data, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT, win,
                       &req));
    MPI_Status st;
    CHECK_MPI(MPI_Wait(&req, &st));
    check_empty(&st, "MPI_Wait on MPI_Rput");
    for (int i = 0; i < N; i++)
        CHECK(got[i] == -7 && old[i] == -7, "%s: a get from MPI_PROC_NULL "
              "wrote the origin buffer", epoch);
}

/* The group of MPI_COMM_WORLD's rank r alone. */
static MPI_Group group_of(int r)
{
    MPI_Group all, g;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &all));
    CHECK_MPI(MPI_Group_incl(all, 1, &r, &g));
    CHECK_MPI(MPI_Group_free(&all));
    return g;
}

static void run(struct twin *w)
{
    int other = (me + 1) % np;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, w->win));
    to_proc_null(w->win, "MPI_Win_lock of oneself");
    CHECK_MPI(MPI_Win_unlock(me, w->win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, other, 0, w->win));
    to_proc_null(w->win, "MPI_Win_lock (exclusive) of a neighbour");
    CHECK_MPI(MPI_Win_unlock(other, w->win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, other, MPI_MODE_NOCHECK,
                           w->win));
    to_proc_null(w->win, "MPI_Win_lock with MPI_MODE_NOCHECK");
    CHECK_MPI(MPI_Win_unlock(other, w->win));
    CHECK_MPI(MPI_Win_lock_all(0, w->win));
    to_proc_null(w->win, "MPI_Win_lock_all");
    CHECK_MPI(MPI_Win_unlock_all(w->win));
    /* the active-target epochs: the standard keeps the request forms to
       passive target (11.3.5), but to MPI_PROC_NULL they are a no-op
       that shmpi, Open MPI and MPICH let through in any epoch */
    CHECK_MPI(MPI_Win_fence(0, w->win));
    to_proc_null(w->win, "a fence epoch");
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
    MPI_Group to = group_of(other), from = group_of((me + np - 1) % np);
    CHECK_MPI(MPI_Win_post(from, 0, w->win));
    CHECK_MPI(MPI_Win_start(to, 0, w->win));
    to_proc_null(w->win, "a PSCW epoch (MPI_Win_start)");
    CHECK_MPI(MPI_Win_complete(w->win));
    CHECK_MPI(MPI_Win_wait(w->win));
    CHECK_MPI(MPI_Group_free(&to));
    CHECK_MPI(MPI_Group_free(&from));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    /* nothing reached anyone's memory */
    for (MPI_Aint i = 0; i < w->bytes; i++)
        CHECK(w->base[i] == 0xee, "%s: byte %ld of the window changed",
              twin_names[w->flavor], (long)i);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
    int stack[N];
    for (int f = 0; f < TW_FLAVORS; f++) {
        struct twin w;
        twin_open(&w, (enum twin_flavor)f, sizeof stack, sizeof(int),
                  f == TW_CREATE_STACK ? stack : NULL);
        run(&w);
        twin_close(&w);
    }
    CHECK_MPI(MPI_Finalize());
    return 0;
}
