/* mpit_pvar_wait_ext: shmpi_wait_time, a timer of the time this process is blocked - started, an MPI_Wait for a message sent 300 ms later adds at least 250 ms and no more than the wall time around it; MPI_Wait on requests already complete adds nothing; stopped, a blocking receive adds nothing; readreset gives the time and starts from 0. */
/* shmpi-test: np=2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include <time.h>

#include "check.h"

#define MS 1000000ull

static MPI_T_pvar_session s;
static MPI_T_pvar_handle h;

static unsigned long long get(void)
{
    unsigned long long v = 0;
    T_RC(MPI_T_pvar_read(s, h, &v), MPI_SUCCESS);
    return v;
}

static unsigned long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000000000ull +
           (unsigned long long)t.tv_nsec;
}

/* Rank 1 sends rank 0 one int, 300 ms after the barrier. */
static void late_message(int rank, int tag, int waited)
{
    int x = 0;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 1) {
        struct timespec d = {0, 300 * 1000000L};
        nanosleep(&d, NULL);
        CHECK_MPI(MPI_Send(&x, 1, MPI_INT, 0, tag, MPI_COMM_WORLD));
        return;
    }
    unsigned long long before = get(), t0 = now_ns();
    if (waited) {
        MPI_Request r;
        CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, 1, tag, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    }
    unsigned long long wall = now_ns() - t0, added = get() - before;
    if (waited)
        CHECK(added >= 250 * MS && added <= wall,
              "waited %llu ns of %llu ns of wall time", added, wall);
    else
        CHECK(added == 0, "stopped, yet %llu ns counted", added);
}

int main(int argc, char **argv)
{
    int provided, rank, i = -1, count, cls, dt_ok, cont;
    MPI_Datatype dt;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    T_RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    T_RC(MPI_T_pvar_get_index("shmpi_wait_time", MPI_T_PVAR_CLASS_TIMER, &i),
         MPI_SUCCESS);
    T_RC(MPI_T_pvar_get_info(i, NULL, NULL, NULL, &cls, &dt, NULL, NULL,
                             NULL, NULL, NULL, &cont, NULL),
         MPI_SUCCESS);
    dt_ok = dt == MPI_UNSIGNED_LONG_LONG;
    CHECK(cls == MPI_T_PVAR_CLASS_TIMER && dt_ok && !cont, "info");
    T_RC(MPI_T_pvar_handle_alloc(s, i, NULL, &h, &count), MPI_SUCCESS);

    late_message(rank, 1, 0); /* not started */
    CHECK(get() == 0, "never started, yet %llu", get());
    T_RC(MPI_T_pvar_start(s, h), MPI_SUCCESS);
    late_message(rank, 2, 1);

    /* requests complete before their wait: no time */
    int a = 1, b = 0;
    MPI_Request r[2];
    CHECK_MPI(MPI_Irecv(&b, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &r[1]));
    unsigned long long before = get();
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK(get() == before, "complete requests waited %llu ns",
          get() - before);

    T_RC(MPI_T_pvar_stop(s, h), MPI_SUCCESS);
    late_message(rank, 4, 0);
    unsigned long long v = 0;
    T_RC(MPI_T_pvar_readreset(s, h, &v), MPI_SUCCESS);
    CHECK(rank != 0 || v >= 250 * MS, "readreset %llu", v);
    CHECK(get() == 0, "after readreset %llu", get());
    T_RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    MPI_Finalize();
    return 0;
}
