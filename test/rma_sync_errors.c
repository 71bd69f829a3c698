/* rma_sync_errors: every synchronization rule shmpi checks, broken under MPI_ERRORS_RETURN - MPI_ERR_RMA_SYNC for RMA calls outside epochs (MPI_PROC_NULL targets too), for the request forms to a rank outside passive-target epochs (to MPI_PROC_NULL only outside any epoch: in fence and PSCW epochs they succeed, as MPI_Put and MPI_Get to it do) and for wrongly nested or mixed epochs, MPI_ERR_LOCKTYPE, MPI_ERR_ASSERT, MPI_ERR_RANK, MPI_ERR_GROUP, MPI_ERR_WIN - and the window still usable after each. */
/* shmpi-test: np=1,2,3 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: the standard calls these programs erroneous but does not make an
 * implementation detect them; shmpi does (and Open MPI mostly does not).
 */
#include "check.h"

static int rank, size;
static MPI_Win win;
static int *mem;

#define SYNC_ERROR(call) CHECK_CLASS(call, MPI_ERR_RMA_SYNC)

static MPI_Group group_of(int n, const int *ranks)
{
    MPI_Group all, g;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &all));
    CHECK_MPI(MPI_Group_incl(all, n, ranks, &g));
    CHECK_MPI(MPI_Group_free(&all));
    return g;
}

/* RMA calls and flushes with no epoch, or the wrong one. */
static void outside_epochs(void)
{
    int v = 1, right = (rank + 1) % size;
    SYNC_ERROR(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    SYNC_ERROR(MPI_Get(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    SYNC_ERROR(MPI_Accumulate(&v, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM,
                              win));
    SYNC_ERROR(MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    SYNC_ERROR(MPI_Win_flush(right, win));
    SYNC_ERROR(MPI_Win_flush_all(win));
    SYNC_ERROR(MPI_Win_flush_local(right, win));
    SYNC_ERROR(MPI_Win_flush_local_all(win));
    SYNC_ERROR(MPI_Win_sync(win));
    SYNC_ERROR(MPI_Win_unlock(right, win));
    SYNC_ERROR(MPI_Win_unlock_all(win));
    SYNC_ERROR(MPI_Win_complete(win));
    SYNC_ERROR(MPI_Win_wait(win));
    int flag = 0;
    SYNC_ERROR(MPI_Win_test(win, &flag));

    /* a fence with NOSUCCEED starts no epoch */
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    SYNC_ERROR(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));

    /* a lock epoch covers only the targets locked; flushes too */
    if (size > 1) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
        SYNC_ERROR(MPI_Put(&v, 1, MPI_INT, rank, 0, 1, MPI_INT, win));
        SYNC_ERROR(MPI_Win_flush(rank, win));
        SYNC_ERROR(MPI_Win_unlock(rank, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush_all(win));
        CHECK_MPI(MPI_Win_sync(win));
        CHECK_MPI(MPI_Win_unlock(right, win));
    }
}

/* Outside any epoch the request forms to MPI_PROC_NULL fail as
   MPI_Put to it does, and return no request. */
static void proc_null_refused(int *v)
{
    MPI_Request req = MPI_REQUEST_NULL;
    SYNC_ERROR(MPI_Rput(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win,
                        &req));
    SYNC_ERROR(MPI_Rget(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win,
                        &req));
    SYNC_ERROR(MPI_Raccumulate(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT,
                               MPI_SUM, win, &req));
    SYNC_ERROR(MPI_Rget_accumulate(v, 1, MPI_INT, v + 1, 1, MPI_INT,
                                   MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM,
                                   win, &req));
    CHECK(req == MPI_REQUEST_NULL, "a failed request-based call to "
          "MPI_PROC_NULL returned a request");
}

/* req, just returned by `what` to MPI_PROC_NULL in an active-target
   epoch, is complete at once. */
static void check_complete(MPI_Request *req, const char *what,
                           const char *epoch)
{
    int flag = 0;
    CHECK(*req != MPI_REQUEST_NULL, "%s to MPI_PROC_NULL in %s gave no "
          "request", what, epoch);
    CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
    CHECK(flag && *req == MPI_REQUEST_NULL, "%s to MPI_PROC_NULL in %s: "
          "the first MPI_Test found the request not complete", what, epoch);
}

/* In a fence or PSCW epoch they succeed (the values moved and the
   request statuses: rma_rput_proc_null). */
static void proc_null_accepted(int *v, const char *epoch)
{
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Rput(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win,
                       &req));
    check_complete(&req, "MPI_Rput", epoch);
    CHECK_MPI(MPI_Rget(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win,
                       &req));
    check_complete(&req, "MPI_Rget", epoch);
    CHECK_MPI(MPI_Raccumulate(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT,
                              MPI_SUM, win, &req));
    check_complete(&req, "MPI_Raccumulate", epoch);
    CHECK_MPI(MPI_Rget_accumulate(v, 1, MPI_INT, v + 1, 1, MPI_INT,
                                  MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM, win,
                                  &req));
    check_complete(&req, "MPI_Rget_accumulate", epoch);
}

/* The request forms are for passive-target epochs only (11.3.5): in a
   fence or PSCW epoch, or none, MPI_Rput and the others to a rank fail
   and return no request.  To MPI_PROC_NULL they are a no-op, let through
   wherever MPI_Put to MPI_PROC_NULL is: in the fence and PSCW epochs
   (with a request complete at once), and refused outside any epoch. */
static void request_forms(void)
{
    int v[2] = {1, 1}, right = (rank + 1) % size;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Group me = group_of(1, &rank);
    for (int epoch = 0; epoch < 3; epoch++) { /* none, fence, PSCW */
        if (epoch == 1)
            CHECK_MPI(MPI_Win_fence(0, win));
        if (epoch == 2) {
            CHECK_MPI(MPI_Win_post(me, 0, win));
            CHECK_MPI(MPI_Win_start(me, 0, win));
        }
        if (epoch == 0) {
            SYNC_ERROR(MPI_Get(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT,
                               win));
        } else {
            CHECK_MPI(MPI_Put(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT,
                              win));
            CHECK_MPI(MPI_Get(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT,
                              win));
        }
        int target = epoch == 2 ? rank : right;
        SYNC_ERROR(MPI_Rput(v, 1, MPI_INT, target, 0, 1, MPI_INT, win,
                            &req));
        SYNC_ERROR(MPI_Rget(v, 1, MPI_INT, target, 0, 1, MPI_INT, win,
                            &req));
        SYNC_ERROR(MPI_Raccumulate(v, 1, MPI_INT, target, 0, 1, MPI_INT,
                                   MPI_SUM, win, &req));
        SYNC_ERROR(MPI_Rget_accumulate(v, 1, MPI_INT, v + 1, 1, MPI_INT,
                                       target, 0, 1, MPI_INT, MPI_SUM, win,
                                       &req));
        CHECK(req == MPI_REQUEST_NULL, "a failed request-based call "
              "returned a request");
        if (epoch == 0)
            proc_null_refused(v);
        else
            proc_null_accepted(v, epoch == 1 ? "a fence epoch"
                                             : "a PSCW epoch");
        if (epoch == 1)
            CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
        if (epoch == 2) {
            CHECK_MPI(MPI_Win_complete(win));
            CHECK_MPI(MPI_Win_wait(win));
        }
    }
    CHECK_MPI(MPI_Group_free(&me));
}

/* Access epochs may not overlap, and fences may not come inside any. */
static void nesting(void)
{
    int v = 1, right = (rank + 1) % size;
    /* fence epoch with RMA calls in it: no lock, lock_all, start */
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    SYNC_ERROR(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    SYNC_ERROR(MPI_Win_lock_all(0, win));
    MPI_Group me = group_of(1, &rank);
    SYNC_ERROR(MPI_Win_start(me, 0, win));
    SYNC_ERROR(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    /* an unused fence epoch may give way to a lock epoch */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    SYNC_ERROR(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    SYNC_ERROR(MPI_Win_lock_all(0, win));
    SYNC_ERROR(MPI_Win_start(me, 0, win));
    SYNC_ERROR(MPI_Win_fence(0, win));
    SYNC_ERROR(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    SYNC_ERROR(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));

    CHECK_MPI(MPI_Win_lock_all(0, win));
    SYNC_ERROR(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    SYNC_ERROR(MPI_Win_lock_all(0, win));
    SYNC_ERROR(MPI_Win_unlock(right, win));
    SYNC_ERROR(MPI_Win_fence(0, win));
    SYNC_ERROR(MPI_Win_start(me, 0, win));
    SYNC_ERROR(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    /* nobody's lock_all may still cover my window when I post */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* PSCW on oneself: access and exposure epochs may overlap, but not
       two of a kind, and no fence or lock inside */
    CHECK_MPI(MPI_Win_post(me, 0, win));
    SYNC_ERROR(MPI_Win_post(me, 0, win));
    SYNC_ERROR(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Win_start(me, 0, win));
    SYNC_ERROR(MPI_Win_start(me, 0, win));
    SYNC_ERROR(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    SYNC_ERROR(MPI_Win_unlock(rank, win));
    SYNC_ERROR(MPI_Win_flush(rank, win));
    if (size > 1)
        SYNC_ERROR(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, rank, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    SYNC_ERROR(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    SYNC_ERROR(MPI_Win_wait(win));
    CHECK_MPI(MPI_Group_free(&me));
}

/* A window may not be locked and exposed at once (11.5.3), seen from
   both sides: rank 1 posts, then rank 0 tries to lock it; rank 0 locks
   rank 1, then rank 1 tries to post. */
static void locked_and_exposed(void)
{
    if (size < 2 || rank > 1) {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        return;
    }
    int other = 1 - rank;
    MPI_Group g = group_of(1, &other);
    if (rank == 1)
        CHECK_MPI(MPI_Win_post(g, 0, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        SYNC_ERROR(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win));
        SYNC_ERROR(MPI_Win_lock_all(0, win));
        CHECK_MPI(MPI_Win_start(g, 0, win));
        CHECK_MPI(MPI_Win_complete(win));
    } else {
        CHECK_MPI(MPI_Win_wait(win));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 1)
        SYNC_ERROR(MPI_Win_post(g, 0, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        CHECK_MPI(MPI_Win_unlock(1, win));
    CHECK_MPI(MPI_Group_free(&g));
}

/* Wrong arguments: lock type, assert bits, ranks, groups, handles. */
static void bad_arguments(void)
{
    CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED + MPI_LOCK_EXCLUSIVE + 7, 0, 0,
                             win), MPI_ERR_LOCKTYPE);
    CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, -5, 0, win), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Win_unlock(size, win), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOPUT, win),
                MPI_ERR_ASSERT);
    CHECK_CLASS(MPI_Win_lock_all(MPI_MODE_NOSUCCEED, win), MPI_ERR_ASSERT);
    CHECK_CLASS(MPI_Win_fence(MPI_MODE_NOCHECK, win), MPI_ERR_ASSERT);
    CHECK_CLASS(MPI_Win_fence(1 << 20, win), MPI_ERR_ASSERT);
    MPI_Group me = group_of(1, &rank);
    CHECK_CLASS(MPI_Win_start(me, MPI_MODE_NOSTORE, win), MPI_ERR_ASSERT);
    CHECK_CLASS(MPI_Win_post(me, MPI_MODE_NOPRECEDE, win), MPI_ERR_ASSERT);
    CHECK_CLASS(MPI_Win_start(MPI_GROUP_NULL, 0, win), MPI_ERR_GROUP);
    CHECK_CLASS(MPI_Win_post(MPI_GROUP_NULL, 0, win), MPI_ERR_GROUP);
    CHECK_MPI(MPI_Group_free(&me));
    /* nothing above may have opened an epoch */
    int v = 0;
    SYNC_ERROR(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
    SYNC_ERROR(MPI_Win_wait(win));
    SYNC_ERROR(MPI_Win_complete(win));

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
    CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, MPI_WIN_NULL),
                MPI_ERR_WIN);
    CHECK_CLASS(MPI_Win_flush_all(MPI_WIN_NULL), MPI_ERR_WIN);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* A group naming a process outside the window's group. */
static void foreign_group(void)
{
    if (size < 2)
        return;
    MPI_Win self_win;
    int *m;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_SELF, &m, &self_win));
    CHECK_MPI(MPI_Win_set_errhandler(self_win, MPI_ERRORS_RETURN));
    int other = (rank + 1) % size;
    MPI_Group g = group_of(1, &other);
    CHECK_CLASS(MPI_Win_start(g, 0, self_win), MPI_ERR_GROUP);
    CHECK_CLASS(MPI_Win_post(g, 0, self_win), MPI_ERR_GROUP);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Win_free(&self_win));
}

/* info no_locks = true: passive target refused. */
static void no_locks(void)
{
    MPI_Info info;
    MPI_Win nl;
    int *m;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "no_locks", "true"));
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), info,
                               MPI_COMM_WORLD, &m, &nl));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Win_set_errhandler(nl, MPI_ERRORS_RETURN));
    SYNC_ERROR(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, nl));
    SYNC_ERROR(MPI_Win_lock_all(0, nl));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED, nl));
    CHECK_MPI(MPI_Win_free(&nl));
}

/* MPI_Win_free inside an epoch. */
static void free_inside_epoch(void)
{
    MPI_Win w;
    int *m;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_SELF, &m, &w));
    CHECK_MPI(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w));
    SYNC_ERROR(MPI_Win_free(&w));
    CHECK(w != MPI_WIN_NULL, "the window was freed inside its lock epoch");
    CHECK_MPI(MPI_Win_unlock(0, w));
    CHECK_MPI(MPI_Win_fence(0, w));
    CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, w));
    SYNC_ERROR(MPI_Win_free(&w));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w));
    CHECK(*m == rank, "the put gave %d", *m);
    CHECK_MPI(MPI_Win_free(&w));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    outside_epochs();
    request_forms();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    nesting();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    locked_and_exposed();
    bad_arguments();
    foreign_group();
    no_locks();
    free_inside_epoch();
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
