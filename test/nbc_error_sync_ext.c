/* nbc_error_sync_ext: under MPI_ERRORS_RETURN, a nonblocking collective refused on one rank for a bad argument (MPI_Igather at the root, MPI_Iscatter at another rank, a NULL request) - where no other rank waits for a message of that rank - leaves the ranks' nonblocking collectives lined up: the MPI_Iallreduce, MPI_Ibcast and MPI_Igather that follow are right everywhere. */
/* shmpi-test: np=2,3,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: MPI-3.1 8.3 leaves the state after an error undefined.  Cases in
 * which another rank waits for a message of the refusing one are left
 * out: that rank's request never completes (coll/sched.h).
 */
#include "check.h"

#define N 3

static int rank, size;
static MPI_Comm comm;

/* What follows every case: each result checked on every rank. */
static void after(const char *name)
{
    MPI_Request r;
    int one = rank + 1, sum = -1;
    CHECK_MPI(MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(sum == size * (size + 1) / 2, "%s: the next Iallreduce gave %d",
          name, sum);
    int b[N];
    for (int k = 0; k < N; k++)
        b[k] = rank == size - 1 ? 5 * k + 1 : -1;
    CHECK_MPI(MPI_Ibcast(b, N, MPI_INT, size - 1, comm, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int k = 0; k < N; k++)
        CHECK(b[k] == 5 * k + 1, "%s: Ibcast element %d: %d", name, k, b[k]);
    int g[64];
    CHECK_MPI(MPI_Igather(&one, 1, MPI_INT, g, 1, MPI_INT, 0, comm, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int j = 0; j < size && rank == 0; j++)
        CHECK(g[j] == j + 1, "%s: Igather from %d: %d", name, j, g[j]);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size <= 64, "at most 64 ranks");
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    int send[64 * N], recv[64 * N];
    for (int i = 0; i < 64 * N; i++)
        send[i] = 100 * rank + i;
    MPI_Request r;

    /* the root's receive type is invalid; the others only send to it */
    if (rank == 0)
        CHECK_CLASS(MPI_Igather(send, N, MPI_INT, recv, N, MPI_DATATYPE_NULL,
                                0, comm, &r),
                    MPI_ERR_TYPE);
    else {
        CHECK_MPI(MPI_Igather(send, N, MPI_INT, recv, N, MPI_INT, 0, comm,
                              &r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    after("Igather refused at the root");

    /* the last rank's receive count is negative; only the root sends to
       it (not the root itself at np = 1) */
    if (size > 1) {
        if (rank == size - 1) {
            CHECK_CLASS(MPI_Iscatter(send, N, MPI_INT, recv, -1, MPI_INT, 0,
                                     comm, &r),
                        MPI_ERR_COUNT);
        } else {
            CHECK_MPI(MPI_Iscatter(send, N, MPI_INT, recv, N, MPI_INT, 0,
                                   comm, &r));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            for (int k = 0; k < N; k++)
                CHECK(recv[k] == rank * N + k, "Iscatter element %d: %d", k,
                      recv[k]);
        }
        after("Iscatter refused at a leaf");
    }

    /* the root gives no request */
    if (rank == 0)
        CHECK_CLASS(MPI_Igather(send, N, MPI_INT, recv, N, MPI_INT, 0, comm,
                                NULL),
                    MPI_ERR_ARG);
    else {
        CHECK_MPI(MPI_Igather(send, N, MPI_INT, recv, N, MPI_INT, 0, comm,
                              &r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    after("Igather without a request at the root");

    CHECK_MPI(MPI_Comm_free(&comm));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
