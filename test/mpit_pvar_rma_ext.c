/* mpit_pvar_rma_ext: shmpi's per-window counters shmpi_rma_puts, shmpi_rma_gets and shmpi_rma_accumulates, bound to a window - started, they count exactly the puts, gets and accumulates (request forms and MPI_Get_accumulate too) this process issued on that window, not those to MPI_PROC_NULL, not those on another window, nothing while stopped; MPI_Win_change_comm keeps them; after MPI_Win_free the handles still read their counts; a freed or null window is not an object to bind to. */
/* shmpi-test: np=1,2,3 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static const char *names[3] = {"shmpi_rma_puts", "shmpi_rma_gets",
                               "shmpi_rma_accumulates"};
static MPI_T_pvar_session s;

static unsigned long long get(MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    T_RC(MPI_T_pvar_read(s, h, &v), MPI_SUCCESS);
    return v;
}

/* On win, to every rank: 3 puts (one MPI_Rput), 2 gets (one MPI_Rget),
   2 accumulates and 1 MPI_Get_accumulate; and one of each to
   MPI_PROC_NULL. */
static void issue(MPI_Win win, int size)
{
    int x = 1, y[4], rank, mine;
    MPI_Request r;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine = 4 + 2 * rank; /* two ints only this rank puts to (11.7.1) */
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int t = 0; t < size; t++) {
        CHECK_MPI(MPI_Put(&x, 1, MPI_INT, t, mine, 1, MPI_INT, win));
        CHECK_MPI(MPI_Put(&x, 1, MPI_INT, t, mine + 1, 1, MPI_INT, win));
        CHECK_MPI(MPI_Get(&y[0], 1, MPI_INT, t, 2, 1, MPI_INT, win));
        CHECK_MPI(MPI_Accumulate(&x, 1, MPI_INT, t, 3, 1, MPI_INT, MPI_SUM,
                                 win));
        CHECK_MPI(MPI_Accumulate(&x, 1, MPI_INT, t, 3, 1, MPI_INT, MPI_SUM,
                                 win));
        CHECK_MPI(MPI_Get_accumulate(&x, 1, MPI_INT, &y[1], 1, MPI_INT, t, 3,
                                     1, MPI_INT, MPI_SUM, win));
    }
    CHECK_MPI(MPI_Put(&x, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Get(&y[0], 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Accumulate(&x, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT,
                             MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int t = 0; t < size; t++) {
        CHECK_MPI(MPI_Rput(&x, 1, MPI_INT, t, mine, 1, MPI_INT, win, &r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Rget(&y[2], 1, MPI_INT, t, 2, 1, MPI_INT, win, &r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
}

int main(int argc, char **argv)
{
    int provided, size, count;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    T_RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    int *mem, *mem2;
    MPI_Win win, other;
    MPI_Aint bytes = (MPI_Aint)(4 + 2 * size) * (MPI_Aint)sizeof(int);
    CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem2, &other));
    MPI_T_pvar_handle h[3];
    for (int k = 0; k < 3; k++) {
        int i = -1, bind;
        T_RC(MPI_T_pvar_get_index(names[k], MPI_T_PVAR_CLASS_COUNTER, &i),
             MPI_SUCCESS);
        T_RC(MPI_T_pvar_get_info(i, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                 NULL, &bind, NULL, NULL, NULL),
             MPI_SUCCESS);
        CHECK(bind == MPI_T_BIND_MPI_WIN, "%s: bind %d", names[k], bind);
        T_RC(MPI_T_pvar_handle_alloc(s, i, &win, &h[k], &count),
             MPI_SUCCESS);
        CHECK(count == 1, "count %d", count);
        MPI_Win null = MPI_WIN_NULL;
        MPI_T_pvar_handle bad;
        T_RC(MPI_T_pvar_handle_alloc(s, i, &null, &bad, &count),
             MPI_T_ERR_INVALID_HANDLE);
    }
    unsigned long long want[3] = {3ull * size, 2ull * size, 3ull * size};

    issue(win, size); /* not started */
    for (int k = 0; k < 3; k++)
        CHECK(get(h[k]) == 0, "%s not started: %llu", names[k], get(h[k]));
    T_RC(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    issue(win, size);
    issue(other, size); /* another window */
    for (int k = 0; k < 3; k++)
        CHECK(get(h[k]) == want[k], "%s: %llu, expected %llu", names[k],
              get(h[k]), want[k]);
    T_RC(MPI_T_pvar_stop(s, h[0]), MPI_SUCCESS);
    issue(win, size);
    CHECK(get(h[0]) == want[0], "stopped puts: %llu", get(h[0]));
    CHECK(get(h[1]) == 2 * want[1], "gets: %llu", get(h[1]));

    /* the window keeps its counts through MPI_Win_change_comm (shmpi's
       extension), and goes on counting */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Win_change_comm(dup, 0, win));
    CHECK(get(h[1]) == 2 * want[1], "after MPI_Win_change_comm: gets %llu",
          get(h[1]));
    issue(win, size);
    CHECK(get(h[1]) == 3 * want[1] && get(h[2]) == 3 * want[2],
          "after MPI_Win_change_comm and more calls: gets %llu, "
          "accumulates %llu",
          get(h[1]), get(h[2]));

    CHECK_MPI(MPI_Win_free(&win)); /* the handles keep their counts */
    CHECK(get(h[0]) == want[0], "freed: puts %llu", get(h[0]));
    CHECK(get(h[2]) == 3 * want[2], "freed: accumulates %llu", get(h[2]));
    T_RC(MPI_T_pvar_start(s, h[0]), MPI_SUCCESS);
    CHECK(get(h[0]) == want[0], "freed, started: puts %llu", get(h[0]));
    CHECK_MPI(MPI_Win_free(&other));
    CHECK_MPI(MPI_Comm_free(&dup));
    T_RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    MPI_Finalize();
    return 0;
}
