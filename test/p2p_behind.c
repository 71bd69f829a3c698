/* p2p_behind: receives posted while their messages already wait (a receiver behind its sender): matched in order, by tag, with MPI_ANY_TAG, truncated, synchronous, with the right status. */
/* shmpi-test: np=2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <time.h>

#define WARM 300 /* enough messages for a pair to get its own ring */
#define N 16
#define READY 1000

/* the receiver lets the sender's messages arrive before it posts */
static void lag(void)
{
    struct timespec t = {0, 30 * 1000 * 1000};
    nanosleep(&t, NULL);
}

static void check_status(const MPI_Status *st, int tag, int count,
                         const char *what)
{
    int n = -1;
    CHECK_MPI(MPI_Get_count(st, MPI_INT, &n));
    CHECK(st->MPI_SOURCE == 0 && st->MPI_TAG == tag && n == count,
          "%s: status source %d tag %d count %d, not 0, %d, %d", what,
          st->MPI_SOURCE, st->MPI_TAG, n, tag, count);
}

static void sender(void)
{
    int v[N][8], ready;
    MPI_Request reqs[N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 8; j++)
            v[i][j] = 100 * i + j;
    for (int round = 0; round < 5; round++) {
        CHECK_MPI(MPI_Recv(&ready, 1, MPI_INT, 1, READY, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        int n = round == 3 ? 1 : round == 2 ? 2 : N;
        for (int i = 0; i < n; i++) {
            int count = round == 3 ? 8 : 1 + i % 3;
            if (round == 4 && i % 2)
                CHECK_MPI(MPI_Issend(v[i], count, MPI_INT, 1, i,
                                     MPI_COMM_WORLD, &reqs[i]));
            else
                CHECK_MPI(MPI_Isend(v[i], count, MPI_INT, 1, i,
                                    MPI_COMM_WORLD, &reqs[i]));
        }
        CHECK_MPI(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
    }
}

static void receiver(void)
{
    int got[N][8];
    MPI_Request reqs[N];
    MPI_Status st[N];
    char what[64];
    for (int round = 0; round < 5; round++) {
        memset(got, -1, sizeof got);
        CHECK_MPI(MPI_Send(&round, 1, MPI_INT, 0, READY, MPI_COMM_WORLD));
        lag();
        if (round == 2) { /* tag 1 posted before tag 0, which came first */
            CHECK_MPI(MPI_Irecv(got[1], 8, MPI_INT, 0, 1, MPI_COMM_WORLD,
                                &reqs[1]));
            CHECK_MPI(MPI_Irecv(got[0], 8, MPI_INT, 0, 0, MPI_COMM_WORLD,
                                &reqs[0]));
            CHECK_MPI(MPI_Waitall(2, reqs, st));
            for (int i = 0; i < 2; i++) {
                snprintf(what, sizeof what, "round 2, message %d", i);
                check_status(&st[i], i, 1 + i, what);
                CHECK(got[i][0] == 100 * i, "%s reads %d", what, got[i][0]);
            }
            continue;
        }
        if (round == 3) { /* 8 ints into a buffer of 4 */
            MPI_Status s;
            CHECK_MPI(MPI_Irecv(got[0], 4, MPI_INT, 0, 0, MPI_COMM_WORLD,
                                &reqs[0]));
            int rc = MPI_Wait(&reqs[0], &s);
            CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
            CHECK(got[0][3] == 3 && got[0][4] == -1,
                  "truncated receive wrote %d, %d", got[0][3], got[0][4]);
            continue;
        }
        for (int i = 0; i < N; i++)
            CHECK_MPI(MPI_Irecv(got[i], 8, MPI_INT, 0,
                                round == 1 ? MPI_ANY_TAG : i, MPI_COMM_WORLD,
                                &reqs[i]));
        CHECK_MPI(MPI_Waitall(N, reqs, st));
        for (int i = 0; i < N; i++) {
            int count = 1 + i % 3;
            snprintf(what, sizeof what, "round %d, message %d", round, i);
            check_status(&st[i], i, count, what);
            for (int j = 0; j < count; j++)
                CHECK(got[i][j] == 100 * i + j, "%s: int %d reads %d", what,
                      j, got[i][j]);
            CHECK(got[i][count] == -1, "%s: wrote past its count", what);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < WARM; i++) {
        if (rank == 0)
            CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
        else
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
    }
    if (rank == 0)
        sender();
    else
        receiver();
    MPI_Finalize();
    return 0;
}
