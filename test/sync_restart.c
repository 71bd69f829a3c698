/* sync_restart: info "restart" = "true" on both inits - a put-and-signal ping-pong of many iterations with one MPI_Start per request, the requests re-armed by each completion, ended by MPI_Request_free (which signals nothing more and closes the epoch) - "false" leaves them inactive, "maybe" is MPI_ERR_INFO_VALUE. */
/* shmpi-test: np=2,4 timeout=60 ext psync */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define ITERS 2000

static int rank, size, partner;
static MPI_Win win;
static int *mem;              /* [0]: where the partner puts */

static int ball(int from, int it)
{
    return from * 1000003 + it * 2 + 1;
}

static MPI_Info info_restart(const char *value)
{
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "restart", value));
    return info;
}

/*
 * Pairs (0,1), (2,3): the even rank puts ball(me, it) into its partner's
 * cell and signals (PUT mode), the odd one waits for its counter, checks
 * the ball and returns one the same way.  Each request is started once;
 * every completion re-arms it, so the ops request's epoch stays open
 * for the next put and the object request counts the next signal.
 */
static void ping_pong(void)
{
    MPI_Info yes = info_restart("true");
    MPI_Sync mine, theirs = MPI_SYNC_NULL;
    MPI_Request obj, ops;
    CHECK_MPI(MPI_Win_alloc_sync_objects(1, &mine, win, MPI_INFO_NULL));
    CHECK_MPI(MPI_Sendrecv(&mine, 1, MPI_HANDLE_SYNC, partner, 0, &theirs, 1,
                           MPI_HANDLE_SYNC, partner, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_sync_object_init(mine, 1, win, yes, &obj));
    CHECK_MPI(MPI_Win_sync_ops_init(partner, MPI_MODE_WIN_PUT, theirs, win,
                                    yes, &ops));
    CHECK_MPI(MPI_Info_free(&yes));
    CHECK_MPI(MPI_Start(&obj));
    CHECK_MPI(MPI_Start(&ops));

    int pinger = rank % 2 == 0;
    for (int it = 0; it < ITERS; it++) {
        int v;
        if (pinger) {
            v = ball(rank, it);
            CHECK_MPI(MPI_Put(&v, 1, MPI_INT, partner, 0, 1, MPI_INT, win));
            CHECK_MPI(MPI_Wait(&ops, MPI_STATUS_IGNORE));
        }
        CHECK_MPI(MPI_Wait(&obj, MPI_STATUS_IGNORE));
        CHECK(obj != MPI_REQUEST_NULL, "restarted request nulled");
        CHECK(mem[0] == ball(partner, it), "iteration %d: cell is %d, "
              "expected %d", it, mem[0], ball(partner, it));
        if (pinger) {
            /* re-armed, and the partner waits for my next ball: not
               complete (an inactive request would test complete) */
            int flag = 1;
            CHECK_MPI(MPI_Test(&obj, &flag, MPI_STATUS_IGNORE));
            CHECK(!flag, "iteration %d: restarted request is complete "
                  "with no signal", it);
            CHECK_MPI(MPI_Request_get_status(obj, &flag, MPI_STATUS_IGNORE));
            CHECK(!flag, "iteration %d: get_status says complete", it);
        } else {
            v = ball(rank, it);
            CHECK_MPI(MPI_Put(&v, 1, MPI_INT, partner, 0, 1, MPI_INT, win));
            CHECK_MPI(MPI_Wait(&ops, MPI_STATUS_IGNORE));
        }
    }

    /* Both requests are active again.  MPI_Request_free ends them: a
       restart sync_ops request freed does not signal (its rounds end;
       a non-restart one would signal its RMA calls first - sync_modes)
       and its epoch closes; the object request leaves its round armed
       and unfinished, and its counter free. */
    CHECK_MPI(MPI_Request_free(&ops));
    CHECK(ops == MPI_REQUEST_NULL, "freed request not nulled");
    int v = 0, flag = 1;
    CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, partner, 0, 1, MPI_INT, win),
                MPI_ERR_RMA_SYNC);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Test(&obj, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag, "the partner's freed restart request signalled");
    CHECK_MPI(MPI_Request_free(&obj));
    CHECK(mem[0] == ball(partner, ITERS - 1), "cell changed after the "
          "loop: %d", mem[0]);
    CHECK_MPI(MPI_Win_free_sync_objects(1, &mine, win));
    CHECK(mine == MPI_SYNC_NULL, "freed counter not nulled");
}

/* "false" (and no key) leave a completed request inactive: a Test of it
   says complete with nothing signalled; "true" re-arms it. */
static void restart_values(void)
{
    static const char *const values[] = {"false", NULL, "true"};
    MPI_Sync c;
    CHECK_MPI(MPI_Win_alloc_sync_objects(1, &c, win, MPI_INFO_NULL));
    for (int k = 0; k < 3; k++) {
        MPI_Info info = values[k] ? info_restart(values[k]) : MPI_INFO_NULL;
        MPI_Request obj, self;
        CHECK_MPI(MPI_Win_sync_object_init(c, 1, win, info, &obj));
        CHECK_MPI(MPI_Win_sync_ops_init(rank, 0, c, win, info, &self));
        if (info != MPI_INFO_NULL)
            CHECK_MPI(MPI_Info_free(&info));
        CHECK_MPI(MPI_Start(&obj));
        CHECK_MPI(MPI_Start(&self));
        CHECK_MPI(MPI_Wait(&self, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&obj, MPI_STATUS_IGNORE));
        int flag = -1, restarts = values[k] && !strcmp(values[k], "true");
        CHECK_MPI(MPI_Test(&obj, &flag, MPI_STATUS_IGNORE));
        CHECK(flag == !restarts, "restart=%s: Test after Wait gave %d",
              values[k] ? values[k] : "(unset)", flag);
        if (restarts) { /* both armed again: one more round, no Start */
            CHECK_MPI(MPI_Wait(&self, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Wait(&obj, MPI_STATUS_IGNORE));
        } else { /* inactive: it takes a Start to go again */
            CHECK_MPI(MPI_Start(&obj));
            CHECK_MPI(MPI_Start(&self));
            CHECK_MPI(MPI_Wait(&self, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Wait(&obj, MPI_STATUS_IGNORE));
        }
        CHECK_MPI(MPI_Request_free(&self));
        CHECK_MPI(MPI_Request_free(&obj));
    }
    CHECK_MPI(MPI_Win_free_sync_objects(1, &c, win));

    /* any other value is refused by both inits */
    MPI_Info maybe = info_restart("maybe");
    MPI_Request r = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Win_alloc_sync_objects(1, &c, win, MPI_INFO_NULL));
    CHECK_CLASS(MPI_Win_sync_object_init(c, 1, win, maybe, &r),
                MPI_ERR_INFO_VALUE);
    CHECK_CLASS(MPI_Win_sync_ops_init(rank, MPI_MODE_WIN_PUT, c, win, maybe,
                                      &r), MPI_ERR_INFO_VALUE);
    CHECK(r == MPI_REQUEST_NULL, "a refused init made a request");
    CHECK_MPI(MPI_Info_free(&maybe));
    CHECK_MPI(MPI_Win_free_sync_objects(1, &c, win));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size % 2 == 0, "needs an even number of ranks");
    partner = rank ^ 1;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    mem[0] = -1;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    ping_pong();
    restart_values();

    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
