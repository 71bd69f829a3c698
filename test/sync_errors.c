/* sync_errors: the errors of sync counters under MPI_ERRORS_RETURN - a counter driven below zero (MPI_ERR_WIN_COUNTER when MPI_Start or a restart re-arm leaves it below 0; extra signals otherwise count toward the next round), freeing an armed counter, counters of another process or window or stale ones, bad sync_mode, count, target_rank, a request started twice or cancelled, MPI_Win_free with an active request, MPI_Start after the window was freed, the allocation limits - the program going on after each. */
/* shmpi-test: np=2 timeout=60 ext psync */
/* shmpi-test-nocheck: it sends sync counters more signals than counts armed on purpose and frees them so, which the check mode reports. */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, peer;
static MPI_Win win;
static int *mem;

/* Ranks in step between cases: no signal of one case reaches the next
   (each case uses fresh counters and requests as well). */
static void next_case(void)
{
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static MPI_Sync new_counter(void)
{
    MPI_Sync c = MPI_SYNC_NULL;
    CHECK_MPI(MPI_Win_alloc_sync_objects(1, &c, win, MPI_INFO_NULL));
    return c;
}

/* My counter c's handle at the peer, and its counter's here. */
static MPI_Sync swap(MPI_Sync c)
{
    MPI_Sync theirs = MPI_SYNC_NULL;
    CHECK_MPI(MPI_Sendrecv(&c, 1, MPI_HANDLE_SYNC, peer, 0, &theirs, 1,
                           MPI_HANDLE_SYNC, peer, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    return theirs;
}

static MPI_Request object_req(MPI_Sync c, int count)
{
    MPI_Request r;
    CHECK_MPI(MPI_Win_sync_object_init(c, count, win, MPI_INFO_NULL, &r));
    return r;
}

static MPI_Request ops_req(int target, int mode, MPI_Sync c)
{
    MPI_Request r;
    CHECK_MPI(MPI_Win_sync_ops_init(target, mode, c, win, MPI_INFO_NULL,
                                    &r));
    return r;
}

/* n signals to counter c of target, each a completed sync_mode 0
   request. */
static void signal_n(int target, MPI_Sync c, int n)
{
    MPI_Request r = ops_req(target, 0, c);
    for (int i = 0; i < n; i++) {
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Request_free(&r));
}

static void free_counter(MPI_Sync *c)
{
    CHECK_MPI(MPI_Win_free_sync_objects(1, c, win));
    CHECK(*c == MPI_SYNC_NULL, "freed entry not MPI_SYNC_NULL");
}

/* Rank 1's fresh counter with a count-1 request on it (started or not),
   which rank 0 signals n times in between two barriers. */
static MPI_Request signalled(MPI_Sync *c, int n, int start_first,
                             MPI_Info info)
{
    MPI_Request r;
    *c = new_counter();
    MPI_Sync theirs = swap(*c);
    CHECK_MPI(MPI_Win_sync_object_init(*c, 1, win, info, &r));
    if (rank == 1 && start_first)
        CHECK_MPI(MPI_Start(&r));
    next_case();
    if (rank == 0)
        signal_n(peer, theirs, n);
    next_case();
    return r;
}

static void end_case(MPI_Request *r, MPI_Sync *c)
{
    CHECK_MPI(MPI_Request_free(r));
    free_counter(c);
    next_case();
}

/*
 * A counter's value is (counts armed - signals received); a round
 * completes at 0 or below, signals beyond it count toward the next
 * round, and only an arming that leaves the counter below 0 (more than
 * a whole round came early) is MPI_ERR_WIN_COUNTER.
 */
static void negative_counter(void)
{
    MPI_Sync c;
    int flag = 0;

    /* two signals before MPI_Start of count 1 */
    MPI_Request r = signalled(&c, 2, 0, MPI_INFO_NULL);
    if (rank == 1) {
        CHECK_CLASS(MPI_Start(&r), MPI_ERR_WIN_COUNTER);
        CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        CHECK(flag, "a refused start left the request active");
    }
    end_case(&r, &c);

    /* armed with 1, three signals: the Wait completes, the next Start
       finds the counter still below 0 */
    r = signalled(&c, 3, 1, MPI_INFO_NULL);
    if (rank == 1) {
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_CLASS(MPI_Start(&r), MPI_ERR_WIN_COUNTER);
    }
    end_case(&r, &c);

    /* the same with info "restart": the re-arm inside MPI_Wait fails */
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "restart", "true"));
    r = signalled(&c, 3, 1, info);
    if (rank == 1)
        CHECK_CLASS(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_WIN_COUNTER);
    end_case(&r, &c);
    CHECK_MPI(MPI_Info_free(&info));

    /* armed with 1, two signals: the second counts for the next round,
       which is complete as soon as it starts; the one after is not */
    r = signalled(&c, 2, 1, MPI_INFO_NULL);
    if (rank == 1) {
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        CHECK(flag, "a signal beyond the round's count was lost");
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "a round completed with no signal");
        signal_n(rank, c, 1);
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    end_case(&r, &c);

    /* one early signal before MPI_Start: kept, the round is complete */
    r = signalled(&c, 1, 0, MPI_INFO_NULL);
    if (rank == 1) {
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        CHECK(flag, "an early signal was lost");
    }
    end_case(&r, &c);
}

static void error_class_text(void)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = -1, cls = -1, last = 0, flag = 0;
    CHECK_MPI(MPI_Error_string(MPI_ERR_WIN_COUNTER, text, &len));
    CHECK(len > 0 && (int)strlen(text) == len, "MPI_ERR_WIN_COUNTER has no "
          "text (len %d)", len);
    CHECK_MPI(MPI_Error_class(MPI_ERR_WIN_COUNTER, &cls));
    CHECK(cls == MPI_ERR_WIN_COUNTER, "class of MPI_ERR_WIN_COUNTER is %d",
          cls);
    int *lastp = NULL;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastp,
                                &flag));
    CHECK(flag && lastp, "MPI_LASTUSEDCODE");
    last = *lastp;
#ifdef MPI_SYNC_PORTABLE
    /* portable/sync adds the class at run time (MPI_Add_error_class):
       above MPI_ERR_LASTCODE, within MPI_LASTUSEDCODE (MPI-3.1 8.5) */
    CHECK(MPI_ERR_WIN_COUNTER > MPI_ERR_LASTCODE &&
          MPI_ERR_WIN_COUNTER <= last, "MPI_ERR_WIN_COUNTER %d not above "
          "MPI_ERR_LASTCODE %d and within MPI_LASTUSEDCODE %d",
          MPI_ERR_WIN_COUNTER, MPI_ERR_LASTCODE, last);
#else
    CHECK(MPI_ERR_WIN_COUNTER <= MPI_ERR_LASTCODE &&
          MPI_ERR_WIN_COUNTER <= last, "MPI_ERR_WIN_COUNTER %d above "
          "MPI_ERR_LASTCODE %d / MPI_LASTUSEDCODE %d", MPI_ERR_WIN_COUNTER,
          MPI_ERR_LASTCODE, last);
#endif
}

/* Free rules: armed counters, counters not mine, not on this window,
   MPI_SYNC_NULL, dead handles - each refused with nothing freed. */
static void free_errors(MPI_Win other_win)
{
    MPI_Sync c[2], theirs, elsewhere;
    CHECK_MPI(MPI_Win_alloc_sync_objects(2, c, win, MPI_INFO_NULL));
    theirs = swap(c[0]);
    CHECK_MPI(MPI_Win_alloc_sync_objects(1, &elsewhere, other_win,
                                         MPI_INFO_NULL));
    MPI_Sync keep[2] = {c[0], c[1]};

    /* armed: MPI_ERR_RMA_SYNC, neither entry freed */
    MPI_Request r = object_req(c[1], 1);
    CHECK_MPI(MPI_Start(&r));
    CHECK_CLASS(MPI_Win_free_sync_objects(2, c, win), MPI_ERR_RMA_SYNC);
    CHECK(c[0] == keep[0] && c[1] == keep[1], "a refused free changed the "
          "entries");
    signal_n(rank, c[1], 1); /* to myself: completes it */
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Request_free(&r));

    MPI_Sync bad[2] = {c[0], theirs};
    CHECK_CLASS(MPI_Win_free_sync_objects(2, bad, win), MPI_ERR_ARG);
    bad[1] = elsewhere;
    CHECK_CLASS(MPI_Win_free_sync_objects(2, bad, win), MPI_ERR_ARG);
    bad[1] = MPI_SYNC_NULL;
    CHECK_CLASS(MPI_Win_free_sync_objects(2, bad, win), MPI_ERR_ARG);
    bad[1] = 12345;
    CHECK_CLASS(MPI_Win_free_sync_objects(2, bad, win), MPI_ERR_ARG);
    CHECK(bad[0] == c[0], "a refused free changed the entries");
    CHECK_CLASS(MPI_Win_free_sync_objects(-1, c, win), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Win_free_sync_objects(1, NULL, win), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_free_sync_objects(1, c, MPI_WIN_NULL), MPI_ERR_WIN);

    /* c[0] was freed by none of these: it still works */
    r = object_req(c[0], 1);
    CHECK_MPI(MPI_Start(&r));
    signal_n(rank, c[0], 1);
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Request_free(&r));
    next_case(); /* the peer is done with my c[0] before it dies */
    CHECK_MPI(MPI_Win_free_sync_objects(2, c, win));
    CHECK_MPI(MPI_Win_free_sync_objects(1, &elsewhere, other_win));
    CHECK(c[0] == MPI_SYNC_NULL && c[1] == MPI_SYNC_NULL &&
          elsewhere == MPI_SYNC_NULL, "freed entries not nulled");
    /* a second free of the same handle: dead */
    CHECK_CLASS(MPI_Win_free_sync_objects(1, keep, win), MPI_ERR_ARG);
    next_case();
}

/* Argument errors of the two inits and of allocation. */
static void init_errors(MPI_Win other_win)
{
    MPI_Sync c = new_counter(), theirs = swap(c), elsewhere, dead;
    CHECK_MPI(MPI_Win_alloc_sync_objects(1, &elsewhere, other_win,
                                         MPI_INFO_NULL));
    dead = new_counter();
    MPI_Sync dead_handle = dead;
    free_counter(&dead);
    MPI_Request r = MPI_REQUEST_NULL;

    CHECK_CLASS(MPI_Win_sync_object_init(theirs, 1, win, MPI_INFO_NULL, &r),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_sync_object_init(elsewhere, 1, win, MPI_INFO_NULL,
                                         &r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_sync_object_init(dead_handle, 1, win, MPI_INFO_NULL,
                                         &r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_sync_object_init(MPI_SYNC_NULL, 1, win,
                                         MPI_INFO_NULL, &r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_sync_object_init(c, -1, win, MPI_INFO_NULL, &r),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Win_sync_object_init(c, 1, MPI_WIN_NULL, MPI_INFO_NULL,
                                         &r), MPI_ERR_WIN);

    /* the counter must be target_rank's, on this window, alive */
    CHECK_CLASS(MPI_Win_sync_ops_init(peer, MPI_MODE_WIN_PUT, c, win,
                                      MPI_INFO_NULL, &r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_sync_ops_init(rank, MPI_MODE_WIN_PUT, theirs, win,
                                      MPI_INFO_NULL, &r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_sync_ops_init(rank, 0, elsewhere, win,
                                      MPI_INFO_NULL, &r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_sync_ops_init(rank, 0, dead_handle, win,
                                      MPI_INFO_NULL, &r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_sync_ops_init(peer, 0, MPI_SYNC_NULL, win,
                                      MPI_INFO_NULL, &r), MPI_ERR_ARG);
    static const int bad_modes[] = {8, 16, -1, MPI_MODE_WIN_PUT | 64};
    for (int i = 0; i < 4; i++)
        CHECK_CLASS(MPI_Win_sync_ops_init(peer, bad_modes[i], theirs, win,
                                          MPI_INFO_NULL, &r), MPI_ERR_ARG);
    static const int bad_ranks[] = {2, 3, -5, MPI_ANY_SOURCE};
    for (int i = 0; i < 4; i++)
        CHECK_CLASS(MPI_Win_sync_ops_init(bad_ranks[i], MPI_MODE_WIN_PUT,
                                          theirs, win, MPI_INFO_NULL, &r),
                    MPI_ERR_RANK);
    CHECK_CLASS(MPI_Win_sync_ops_init(peer, 0, theirs, MPI_WIN_NULL,
                                      MPI_INFO_NULL, &r), MPI_ERR_WIN);
    CHECK(r == MPI_REQUEST_NULL, "a refused init made a request");

    /* allocation: the count, the array, the window, the limit */
    MPI_Sync x[1];
    CHECK_CLASS(MPI_Win_alloc_sync_objects(-1, x, win, MPI_INFO_NULL),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Win_alloc_sync_objects(1, NULL, win, MPI_INFO_NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Win_alloc_sync_objects(1, x, MPI_WIN_NULL,
                                           MPI_INFO_NULL), MPI_ERR_WIN);

    /* the counters of this rank: c and elsewhere; the table holds 256
       (SHMPI_SYNC_COUNTERS unset): 255 fail, nothing allocated, 254 fit */
    if (!getenv("SHMPI_SYNC_COUNTERS")) {
        MPI_Sync *many = malloc(256 * sizeof *many);
        CHECK(many, "malloc");
        CHECK_CLASS(MPI_Win_alloc_sync_objects(255, many, win,
                                               MPI_INFO_NULL),
                    MPI_ERR_NO_MEM);
        CHECK_MPI(MPI_Win_alloc_sync_objects(254, many, win, MPI_INFO_NULL));
        CHECK_CLASS(MPI_Win_alloc_sync_objects(1, x, win, MPI_INFO_NULL),
                    MPI_ERR_NO_MEM);
        CHECK_MPI(MPI_Win_free_sync_objects(254, many, win));
        free(many);
    }

    next_case(); /* the peer is done with c */
    free_counter(&c);
    CHECK_MPI(MPI_Win_free_sync_objects(1, &elsewhere, other_win));
    next_case();
}

/* Requests: started twice, two on one counter, cancelled; a counter
   freed under a peer's request. */
static void request_errors(void)
{
    MPI_Sync c = new_counter(), theirs = swap(c);
    MPI_Request obj = object_req(c, 1), obj2 = object_req(c, 1);
    MPI_Request ops = ops_req(peer, MPI_MODE_WIN_PUT, theirs);

    CHECK_MPI(MPI_Start(&obj));
    CHECK_CLASS(MPI_Start(&obj), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Start(&obj2), MPI_ERR_REQUEST); /* c is armed */
    CHECK_CLASS(MPI_Cancel(&obj), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Start(&ops));
    CHECK_CLASS(MPI_Start(&ops), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Startall(1, &ops), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Cancel(&ops), MPI_ERR_REQUEST);
    int v = rank + 40;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Wait(&ops, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&obj, MPI_STATUS_IGNORE));
    CHECK(mem[0] == peer + 40, "cell is %d, expected %d", mem[0], peer + 40);
    /* the second request may arm c now that the first is done */
    CHECK_MPI(MPI_Start(&obj2));
    signal_n(rank, c, 1);
    CHECK_MPI(MPI_Wait(&obj2, MPI_STATUS_IGNORE));
    next_case();

    /* rank 1 frees c; rank 0's request on it then fails, MPI_ERR_ARG */
    if (rank == 1)
        free_counter(&c);
    next_case();
    if (rank == 0) {
        MPI_Request late = MPI_REQUEST_NULL;
        CHECK_CLASS(MPI_Win_sync_ops_init(peer, 0, theirs, win,
                                          MPI_INFO_NULL, &late),
                    MPI_ERR_ARG);
        int rc = MPI_Start(&ops);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&ops, MPI_STATUS_IGNORE);
        CHECK_CLASS(rc, MPI_ERR_ARG);
    }
    next_case();
    CHECK_MPI(MPI_Request_free(&obj));
    CHECK_MPI(MPI_Request_free(&obj2));
    CHECK_MPI(MPI_Request_free(&ops));
    if (rank == 0)
        free_counter(&c);
    next_case();
}

/* MPI_Win_free refuses while a sync request on the window is active;
   inactive ones outlive it as dead handles. */
static void win_free_errors(void)
{
    MPI_Win w;
    int *wmem;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &wmem, &w));
    CHECK_MPI(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    MPI_Sync c;
    CHECK_MPI(MPI_Win_alloc_sync_objects(1, &c, w, MPI_INFO_NULL));
    MPI_Request obj, self;
    CHECK_MPI(MPI_Win_sync_object_init(c, 1, w, MPI_INFO_NULL, &obj));
    CHECK_MPI(MPI_Win_sync_ops_init(rank, 0, c, w, MPI_INFO_NULL, &self));

    /* both ranks have an active request, so both refuse at once */
    CHECK_MPI(MPI_Start(&obj));
    CHECK_CLASS(MPI_Win_free(&w), MPI_ERR_RMA_SYNC);
    CHECK(w != MPI_WIN_NULL, "a refused MPI_Win_free nulled the window");
    CHECK_MPI(MPI_Start(&self)); /* and a sync_ops one, complete but not
                                    yet waited for */
    CHECK_CLASS(MPI_Win_free(&w), MPI_ERR_RMA_SYNC);
    CHECK_MPI(MPI_Wait(&self, MPI_STATUS_IGNORE));
    CHECK_CLASS(MPI_Win_free(&w), MPI_ERR_RMA_SYNC); /* obj still is */
    CHECK_MPI(MPI_Wait(&obj, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_free(&w));

    /* inactive requests survive as handles that cannot start (the
       error goes to MPI_COMM_WORLD's handler: the window is gone) */
    CHECK_CLASS(MPI_Start(&obj), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Start(&self), MPI_ERR_REQUEST);
    int flag = 0;
    CHECK_MPI(MPI_Test(&obj, &flag, MPI_STATUS_IGNORE));
    CHECK(flag, "an inactive request tests incomplete");
    CHECK_MPI(MPI_Request_free(&obj));
    CHECK_MPI(MPI_Request_free(&self));
    next_case();
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    peer = 1 - rank;
    MPI_Win other_win;
    int *other_mem;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &other_mem, &other_win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_set_errhandler(other_win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    mem[0] = -1;
    next_case();

    negative_counter();
    error_class_text();
    free_errors(other_win);
    init_errors(other_win);
    request_errors();
    win_free_errors();

    CHECK_MPI(MPI_Win_free(&other_win));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
