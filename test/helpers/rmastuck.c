/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rmastuck - rank programs that deadlock in an RMA synchronization
 * against a receive, or only look like they might (test/deadlock-rma.sh,
 * test/deadlock-none.sh).  Every rank makes a window of one int (named
 * "grid" when the mode ends in -named); then rank 1 waits in MPI_Recv
 * from rank 0 while rank 0 is in:
 *
 *   rmastuck fence[-named]  MPI_Win_fence
 *   rmastuck lock           MPI_Win_lock exclusive of rank 1's window,
 *                           which rank 1 locked exclusively first
 *   rmastuck lock-shared    the same, rank 1's lock shared
 *   rmastuck wait           MPI_Win_post to rank 1, then MPI_Win_wait
 *   rmastuck start          MPI_Win_start on rank 1, then
 *                           MPI_Win_complete (waiting for its post)
 *   rmastuck sync           MPI_Wait on a started sync_object request
 *                           of a counter of its own, count 1
 *   rmastuck lock-held      (np = 3) otherwise: rank 0 locks rank 2's
 *                           window exclusively, then waits in MPI_Recv
 *                           from rank 1, which waits in MPI_Win_lock
 *                           exclusive of the same; rank 2 waits in
 *                           MPI_Recv from rank 0
 *   rmastuck slow S         (any np) rank 1 sleeps S s, then every rank
 *                           fences twice around a put; exits 0
 *
 * The deadlocking ones never return: the launcher must end them.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;
static MPI_Win win;
static int mem;

static MPI_Group rank_group(int r)
{
    MPI_Group world, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &r, &g);
    MPI_Group_free(&world);
    return g;
}

static void rank0(const char *mode)
{
    if (!strncmp(mode, "fence", 5)) {
        MPI_Win_fence(0, win);
    } else if (!strcmp(mode, "lock") || !strcmp(mode, "lock-shared")) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    } else if (!strcmp(mode, "wait")) {
        MPI_Win_post(rank_group(1), 0, win);
        MPI_Win_wait(win);
    } else if (!strcmp(mode, "start")) {
        MPI_Win_start(rank_group(1), 0, win);
        MPI_Win_complete(win);
    } else if (!strcmp(mode, "sync")) {
        MPI_Sync s;
        MPI_Request r;
        MPI_Win_alloc_sync_objects(1, &s, win, MPI_INFO_NULL);
        MPI_Win_sync_object_init(s, 1, win, MPI_INFO_NULL, &r);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
}

/* lock-held, after the barrier (rank 0 holds rank 2's lock) */
static void lock_held(void)
{
    int x;
    if (rank == 1)
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
    else
        MPI_Recv(&x, 1, MPI_INT, rank == 0 ? 1 : 0, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
}

static int slow(double s)
{
    int x = rank + 1;
    MPI_Win_fence(0, win);
    if (rank == 1)
        usleep((useconds_t)(s * 1e6));
    MPI_Put(&x, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    return mem != (rank + size - 1) % size + 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "";
    MPI_Win_create(&mem, sizeof mem, sizeof mem, MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    size_t n = strlen(mode);
    if (n > 6 && !strcmp(mode + n - 6, "-named"))
        MPI_Win_set_name(win, "grid");
    if (!strcmp(mode, "slow")) {
        int bad = slow(argc > 2 ? atof(argv[2]) : 1);
        MPI_Win_free(&win);
        MPI_Finalize();
        return bad;
    }
    if (rank == 1 && !strcmp(mode, "lock"))
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    if (rank == 1 && !strcmp(mode, "lock-shared"))
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    if (rank == 0 && !strcmp(mode, "lock-held"))
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (!strcmp(mode, "lock-held")) {
        lock_held();
    } else if (rank == 0) {
        rank0(mode);
    } else if (rank == 1) {
        int x;
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    fprintf(stderr, "rmastuck: '%s' did not block\n", mode);
    MPI_Finalize();
    return 1;
}
