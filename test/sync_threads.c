/* sync_threads: under MPI_THREAD_MULTIPLE, several threads of a rank put into the right neighbour and signal one counter of it, each through its own sync_ops request, while another thread waits on the counter's sync_object request; every value checked every round. */
/* shmpi-test: np=2,3 timeout=90 ext psync threads */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each rank runs SIGNALLERS + 1 threads.  Signaller t owns a sync_ops
 * request (MPI_MODE_WIN_PUT) to the right neighbour on that neighbour's
 * counter; each round it starts it, puts value(rank, round, t) into the
 * neighbour's cell t and completes the request (the signal).  The
 * receiver thread starts the rank's own sync_object request with count
 * SIGNALLERS each round, waits for it - while its process's signallers
 * are inside the library too - and checks that every cell holds what
 * the left neighbour's thread of that cell put in this round.  A lost or
 * doubled signal, a signal counted before its put landed, or library
 * state torn between threads makes a cell wrong, a request complete
 * early or the run hang.  Under portable/sync this is the library's
 * mutex at work (mpi_sync.c, "Threads"); under shmpi the counters' own.
 *
 * A round ends with the threads together and an MPI_Barrier by the
 * receiver (every rank has checked its cells before anyone puts again);
 * a signal of the next round may come before the receiver's next
 * MPI_Start, which the counter keeps (MPI_Start adds the count).
 */
#include "check.h"
#include "thread_multiple.h"

enum { SIGNALLERS = 3, PUTS = 4, CELLS = SIGNALLERS * PUTS, ROUNDS = 300 };

static int rank, size, right, left;
static int *mem;
static MPI_Win win;
static MPI_Request ops[SIGNALLERS], obj;

static int value(int r, int round, int t)
{
    return 1000000 * r + 1000 * round + t + 1;
}

struct role {
    int t;     /* signaller index, or SIGNALLERS for the receiver */
};

static void signaller(int t)
{
    for (int round = 0; round < ROUNDS; round++) {
        mt_together(); /* the receiver has started obj */
        for (int k = 0; k < PUTS; k++) {
            int c = t * PUTS + k, v = value(rank, round, c);
            CHECK_MPI(MPI_Start(&ops[t]));
            CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, c, 1, MPI_INT, win));
            CHECK_MPI(MPI_Wait(&ops[t], MPI_STATUS_IGNORE));
            CHECK(ops[t] != MPI_REQUEST_NULL, "persistent request nulled");
        }
        mt_together(); /* round done here */
        mt_together(); /* and everywhere */
    }
}

static void receiver(void)
{
    for (int round = 0; round < ROUNDS; round++) {
        CHECK_MPI(MPI_Start(&obj));
        mt_together();
        CHECK_MPI(MPI_Wait(&obj, MPI_STATUS_IGNORE));
        for (int c = 0; c < CELLS; c++)
            CHECK(mem[c] == value(left, round, c), "round %d: cell %d is "
                  "%d, expected %d", round, c, mem[c], value(left, round, c));
        mt_together();
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        mt_together();
    }
}

static void *run(void *p)
{
    struct role *r = p;
    if (r->t == SIGNALLERS)
        receiver();
    else
        signaller(r->t);
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    CHECK_MPI(MPI_Win_allocate(CELLS * (MPI_Aint)sizeof(int),
                               sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &mem, &win));
    MPI_Sync mine, theirs;
    CHECK_MPI(MPI_Win_alloc_sync_objects(1, &mine, win, MPI_INFO_NULL));
    CHECK_MPI(MPI_Sendrecv(&mine, 1, MPI_HANDLE_SYNC, left, 0, &theirs, 1,
                           MPI_HANDLE_SYNC, right, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_sync_object_init(mine, CELLS, win, MPI_INFO_NULL,
                                       &obj));
    for (int t = 0; t < SIGNALLERS; t++)
        CHECK_MPI(MPI_Win_sync_ops_init(right, MPI_MODE_WIN_PUT, theirs, win,
                                        MPI_INFO_NULL, &ops[t]));
    /* every rank's requests exist before anyone signals */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    struct role roles[SIGNALLERS + 1];
    for (int t = 0; t <= SIGNALLERS; t++)
        roles[t].t = t;
    mt_run(SIGNALLERS + 1, run, roles, sizeof roles[0]);

    for (int t = 0; t < SIGNALLERS; t++)
        CHECK_MPI(MPI_Request_free(&ops[t]));
    CHECK_MPI(MPI_Request_free(&obj));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_free_sync_objects(1, &mine, win));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
