/* pcoll_startall_ext: MPI_Startall over persistent collectives on four communicators at once (MPI_COMM_WORLD, a duplicate, a split half, an intercommunicator), mixed with a nonblocking and a blocking collective on the same communicators while they run, five rounds with new data, completed by MPI_Waitall and by MPI_Waitany; a request freed without ever being started.  ext: Open MPI 4.1 has only the MPIX_ names. */
/* shmpi-test: np=1,2,3,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "intercomm.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Comm dup, half, inter = MPI_COMM_NULL, ihalf;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    if (size > 1)
        parity_intercomm(MPI_COMM_WORLD, 5, &ihalf, &inter);
    int hsize, rsize = 0;
    CHECK_MPI(MPI_Comm_size(half, &hsize));
    if (inter != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));

    int x, sum, bc, mine, *all = malloc((size_t)(rsize + 1) * sizeof *all);
    CHECK(all, "out of memory");
    MPI_Request r[4], never;
    CHECK_MPI(MPI_Allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM,
                                 MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    CHECK_MPI(MPI_Barrier_init(dup, MPI_INFO_NULL, &r[1]));
    CHECK_MPI(MPI_Bcast_init(&bc, 1, MPI_INT, hsize - 1, half,
                             MPI_INFO_NULL, &r[2]));
    CHECK_MPI(MPI_Barrier_init(dup, MPI_INFO_NULL, &never));
    int n = 3;
    if (inter != MPI_COMM_NULL)
        CHECK_MPI(MPI_Allgather_init(&mine, 1, MPI_INT, all, 1, MPI_INT,
                                     inter, MPI_INFO_NULL, &r[n++]));
    CHECK_MPI(MPI_Request_free(&never));
    CHECK(never == MPI_REQUEST_NULL, "Request_free left the handle");

    int hrank;
    CHECK_MPI(MPI_Comm_rank(half, &hrank));
    for (int round = 0; round < 5; round++) {
        x = rank + round;
        bc = hrank == hsize - 1 ? 7 * round + rank % 2 : -1;
        mine = 10 * rank + round;
        for (int i = 0; i < rsize; i++)
            all[i] = -1;
        CHECK_MPI(MPI_Startall(n, r));
        /* other collectives on the same communicators meanwhile */
        MPI_Request ib;
        int s2 = 0;
        CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &ib));
        CHECK_MPI(MPI_Allreduce(&x, &s2, 1, MPI_INT, MPI_MAX, dup));
        CHECK_MPI(MPI_Wait(&ib, MPI_STATUS_IGNORE));
        CHECK(s2 == size - 1 + round, "blocking allreduce %d", s2);
        if (round % 2) {
            CHECK_MPI(MPI_Waitall(n, r, MPI_STATUSES_IGNORE));
        } else {
            for (int k = 0; k < n; k++) {
                int idx;
                CHECK_MPI(MPI_Waitany(n, r, &idx, MPI_STATUS_IGNORE));
                CHECK(idx >= 0 && idx < n, "Waitany index %d", idx);
            }
            int idx;
            CHECK_MPI(MPI_Waitany(n, r, &idx, MPI_STATUS_IGNORE));
            CHECK(idx == MPI_UNDEFINED, "Waitany over inactive requests "
                  "gave index %d", idx);
        }
        CHECK(sum == size * (size - 1) / 2 + size * round, "sum %d", sum);
        CHECK(bc == 7 * round + rank % 2, "bcast %d", bc);
        for (int i = 0; i < rsize; i++) {
            int w = rank % 2 ? 2 * i : 2 * i + 1;
            CHECK(all[i] == 10 * w + round, "allgather from %d: %d", i,
                  all[i]);
        }
    }
    for (int k = 0; k < n; k++)
        CHECK_MPI(MPI_Request_free(&r[k]));
    free(all);
    if (inter != MPI_COMM_NULL) {
        CHECK_MPI(MPI_Comm_free(&inter));
        CHECK_MPI(MPI_Comm_free(&ihalf));
    }
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
