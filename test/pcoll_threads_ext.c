/* pcoll_threads_ext: under MPI_THREAD_MULTIPLE two threads per process each plan MPI_Allreduce_init, MPI_Bcast_init and MPI_Alltoall_init on their own duplicate of MPI_COMM_WORLD and start them a hundred times at once with the other thread's, by MPI_Start and by MPI_Startall, completed by MPI_Wait and by polling MPI_Test; every result checked exactly, then the requests freed inactive.  ext: Open MPI 4.1 has only the MPIX_ names. */
/* shmpi-test: np=1,2,3,4 timeout=120 ext threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "thread_multiple.h"

#include <stdlib.h>

#define ROUNDS 100
#define B 2

static int rank, size;

struct thread {
    int id;
    MPI_Comm comm;
};

static int val(int id, int r, int round, int j)
{
    return 100000 * id + 1000 * r + 10 * round + j;
}

static void complete(MPI_Request *r, int poll)
{
    int flag = 0;
    if (!poll) {
        CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
        return;
    }
    while (!flag)
        CHECK_MPI(MPI_Test(r, &flag, MPI_STATUS_IGNORE));
    CHECK(*r != MPI_REQUEST_NULL, "MPI_Test freed a persistent request");
}

static void *work(void *p)
{
    struct thread *t = p;
    int x[B] = {0}, sum[B], bc[B];
    int *out = malloc((size_t)size * B * sizeof *out);
    int *in = malloc((size_t)size * B * sizeof *in);
    CHECK(out && in, "out of memory");
    MPI_Request r[3];
    int root = t->id % size;
    CHECK_MPI(MPI_Allreduce_init(x, sum, B, MPI_INT, MPI_SUM, t->comm,
                                 MPI_INFO_NULL, &r[0]));
    CHECK_MPI(MPI_Bcast_init(bc, B, MPI_INT, root, t->comm, MPI_INFO_NULL,
                             &r[1]));
    CHECK_MPI(MPI_Alltoall_init(out, B, MPI_INT, in, B, MPI_INT, t->comm,
                                MPI_INFO_NULL, &r[2]));
    for (int round = 0; round < ROUNDS; round++) {
        for (int j = 0; j < B; j++) {
            x[j] = val(t->id, rank, round, j);
            bc[j] = rank == root ? val(t->id, root, round, j) : -1;
        }
        for (int k = 0; k < size * B; k++) {
            out[k] = val(t->id, rank, round, k);
            in[k] = -1;
        }
        if (round % 2) {
            CHECK_MPI(MPI_Startall(3, r));
        } else {
            for (int i = 0; i < 3; i++)
                CHECK_MPI(MPI_Start(&r[i]));
        }
        for (int i = 0; i < 3; i++)
            complete(&r[i], round % 3 == 0);
        for (int j = 0; j < B; j++) {
            int want = 0;
            for (int q = 0; q < size; q++)
                want += val(t->id, q, round, j);
            CHECK(sum[j] == want, "thread %d round %d: sum[%d] %d, expected "
                  "%d", t->id, round, j, sum[j], want);
            CHECK(bc[j] == val(t->id, root, round, j), "thread %d round %d: "
                  "bcast[%d] %d", t->id, round, j, bc[j]);
        }
        for (int q = 0; q < size; q++)
            for (int j = 0; j < B; j++)
                CHECK(in[q * B + j] == val(t->id, q, round, rank * B + j),
                      "thread %d round %d: alltoall from %d element %d is %d",
                      t->id, round, q, j, in[q * B + j]);
    }
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Request_free(&r[i]));
    free(out);
    free(in);
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    struct thread t[2];
    for (int i = 0; i < 2; i++) {
        t[i].id = i;
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &t[i].comm));
    }
    mt_run(2, work, t, sizeof t[0]);
    for (int i = 0; i < 2; i++)
        CHECK_MPI(MPI_Comm_free(&t[i].comm));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
