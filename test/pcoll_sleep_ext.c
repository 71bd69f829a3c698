/* pcoll_sleep_ext: each round one member (rotating) is late - it computes or sleeps for 0 to 400 us, 20 ms every 64th round - before it starts a persistent Allreduce that the others already wait for, asleep on their doorbells; each waiter then sends the late one a token it receives before the next round, so a lost wake-up hangs the job (the launcher's deadlock report) instead of being rescued by a later ring; 600 rounds, the result checked each time.  ext: Open MPI 4.1 has only the MPIX_ names. */
/* shmpi-test: np=2,3,6 timeout=180 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <time.h>

/* Late by us microseconds: a busy loop on odd rounds (the late member
   runs while the others fall asleep), a sleep on even ones (it is
   switched out). */
static void be_late(int round, long us)
{
    struct timespec t0, t;
    if (round & 1) {
        clock_gettime(CLOCK_MONOTONIC, &t0);
        do
            clock_gettime(CLOCK_MONOTONIC, &t);
        while ((t.tv_sec - t0.tv_sec) * 1000000L +
                   (t.tv_nsec - t0.tv_nsec) / 1000 <
               us);
    } else if (us > 0) {
        struct timespec ts = {us / 1000000, us % 1000000 * 1000};
        nanosleep(&ts, NULL);
    }
}

int main(int argc, char **argv)
{
    /* waits go to sleep at once (shmpi's tunables; other MPIs ignore
       them): every waiting member sleeps on its doorbell */
    setenv("SHMPI_SPIN_US", "0", 1);
    setenv("SHMPI_YIELDS", "0", 1);
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    long x, sum;
    MPI_Request r;
    CHECK_MPI(MPI_Allreduce_init(&x, &sum, 1, MPI_LONG, MPI_SUM,
                                 MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int i = 0; i < 600; i++) {
        int late = i % size, token;
        x = rank + i;
        long want = (long)size * (size - 1) / 2 + (long)size * i;
        if (rank == late) {
            be_late(i, i % 64 == 63 ? 20000 : (long)(i * 7919 % 401));
            CHECK_MPI(MPI_Start(&r));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            for (int j = 0; j < size; j++) {
                if (j == late)
                    continue;
                CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, j, 0, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
                CHECK(token == i, "round %d: token %d from %d", i, token, j);
            }
        } else {
            CHECK_MPI(MPI_Start(&r));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Send(&i, 1, MPI_INT, late, 0, MPI_COMM_WORLD));
        }
        CHECK(sum == want, "round %d: sum %ld, expected %ld", i, sum, want);
    }
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
