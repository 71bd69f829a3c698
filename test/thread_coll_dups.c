/* thread_coll_dups: under MPI_THREAD_MULTIPLE four threads per rank each run loops of MPI_Bcast, MPI_Allreduce, MPI_Barrier, MPI_Alltoall and MPI_Ibarrier at once, each thread on its own duplicate of MPI_COMM_WORLD; every result is checked, and that each thread's MPI_Barrier waits. */
/* shmpi-test: np=2,4 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "thread_multiple.h"

/* Collectives on one communicator must be called in the same order by
   all its members, so two threads of a rank may not share one (MPI-3.1
   12.4.2 / 5.13); on different communicators they may run at the same
   time, which is what this test does.  The values depend on the thread,
   the iteration and the ranks, so a collective that took another
   thread's data, or another communicator's, shows. */
#define THREADS 4
#define ITERS 200
#define COUNT 16
#define MAXP 8

static int rank, size;
static MPI_Comm comm[THREADS];

static int value(int t, int it, int from, int k)
{
    return ((t * ITERS + it) * MAXP + from) * COUNT + k;
}

static void bcast(MPI_Comm c, int t, int it)
{
    int root = it % size, buf[COUNT];
    for (int k = 0; k < COUNT; k++)
        buf[k] = rank == root ? value(t, it, root, k) : -1;
    CHECK_MPI(MPI_Bcast(buf, COUNT, MPI_INT, root, c));
    for (int k = 0; k < COUNT; k++)
        CHECK(buf[k] == value(t, it, root, k),
              "thread %d iteration %d: MPI_Bcast word %d is %d, expected %d",
              t, it, k, buf[k], value(t, it, root, k));
}

static void allreduce(MPI_Comm c, int t, int it)
{
    long in[COUNT], out[COUNT];
    for (int k = 0; k < COUNT; k++)
        in[k] = value(t, it, rank, k);
    CHECK_MPI(MPI_Allreduce(in, out, COUNT, MPI_LONG, MPI_SUM, c));
    for (int k = 0; k < COUNT; k++) {
        long want = 0;
        for (int r = 0; r < size; r++)
            want += value(t, it, r, k);
        CHECK(out[k] == want,
              "thread %d iteration %d: MPI_Allreduce word %d is %ld, "
              "expected %ld", t, it, k, out[k], want);
    }
}

static void alltoall(MPI_Comm c, int t, int it)
{
    int out[MAXP][2], in[MAXP][2];
    for (int r = 0; r < size; r++) {
        out[r][0] = value(t, it, rank, r);
        out[r][1] = r;
        in[r][0] = in[r][1] = -1;
    }
    CHECK_MPI(MPI_Alltoall(out, 2, MPI_INT, in, 2, MPI_INT, c));
    for (int r = 0; r < size; r++)
        CHECK(in[r][0] == value(t, it, r, rank) && in[r][1] == rank,
              "thread %d iteration %d: MPI_Alltoall block from %d is "
              "(%d, %d), expected (%d, %d)", t, it, r, in[r][0], in[r][1],
              value(t, it, r, rank), rank);
}

static void ibarrier(MPI_Comm c)
{
    MPI_Request r;
    int flag = 0;
    CHECK_MPI(MPI_Ibarrier(c, &r));
    while (!flag)
        CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    CHECK(r == MPI_REQUEST_NULL, "MPI_Test left the MPI_Ibarrier active");
}

static void *work(void *arg)
{
    int t = *(int *)arg;
    MPI_Comm c = comm[t];
    for (int it = 0; it < ITERS; it++) {
        bcast(c, t, it);
        allreduce(c, t, it);
        CHECK_MPI(MPI_Barrier(c));
        alltoall(c, t, it);
        ibarrier(c);
    }
    /* that MPI_Barrier waits (check.h: a shared file counts the arrivals),
       every thread on its communicator at once */
    char name[32];
    snprintf(name, sizeof name, "thread_coll_dups.%d", t);
    check_barrier_on(c, name, 20);
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size <= MAXP, "needs at most %d ranks, not %d", MAXP, size);
    for (int i = 0; i < THREADS; i++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm[i]));
    int ids[THREADS];
    for (int i = 0; i < THREADS; i++)
        ids[i] = i;
    mt_run(THREADS, work, ids, sizeof ids[0]);
    for (int i = 0; i < THREADS; i++)
        CHECK_MPI(MPI_Comm_free(&comm[i]));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
