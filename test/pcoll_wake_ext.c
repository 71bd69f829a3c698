/* pcoll_wake_ext: rank 0 starts a persistent Allreduce while the others already sleep in their MPI_Wait of it (no spinning, and rank 0 starts 200 us after they told it they were about to wait), then blocks in a receive that they answer only after that wait: its contribution must wake them although rank 0 never calls MPI_Wait before they answer; 500 rounds, the result checked each time.  ext: Open MPI 4.1 has only the MPIX_ names. */
/* shmpi-test: np=2,3,4 timeout=120 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <time.h>

int main(int argc, char **argv)
{
    /* waits go to sleep at once (shmpi's tunables; other MPIs ignore
       them): a waiting member sleeps on its doorbell in every round */
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
    for (int i = 0; i < 500; i++) {
        x = rank + i;
        long want = (long)size * (size - 1) / 2 + (long)size * i;
        int token;
        if (rank == 0) {
            for (int j = 1; j < size; j++)
                CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, j, 0, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
            struct timespec ts = {0, 200000}; /* the others fall asleep */
            nanosleep(&ts, NULL);
            CHECK_MPI(MPI_Start(&r));
            /* every other member sends once its wait is over */
            for (int j = 1; j < size; j++) {
                CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, j, i + 1, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
                CHECK(token == i, "round %d: token %d from %d", i, token, j);
            }
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Start(&r));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 0, i + 1, MPI_COMM_WORLD));
        }
        CHECK(sum == want, "round %d: sum %ld, expected %ld", i, sum, want);
    }
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
