/* rma_lock_passive: passive target really is passive - the others lock, get, put and accumulate at rank 0 while it is blocked in MPI_Recv (allocated, malloc'd and stack windows) or computing without MPI calls. */
/* shmpi-test: np=2,3,4,8 timeout=90 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <sched.h>

#define ROUNDS 40

static int rank, size;
static MPI_Comm origins; /* ranks 1 .. size-1 */

/* What each origin does to target 0: ROUNDS read-modify-writes of the
   counter in slot 0 under an exclusive lock, its rank into its slot
   under a shared one, then one accumulate into slot size + 1. */
static void work_on_target(MPI_Win win)
{
    for (int i = 0; i < ROUNDS; i++) {
        int v = -1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_MPI(MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        v++;
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, 0, rank, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(0, win));
    int one = 1;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, size + 1, 1, MPI_INT,
                             MPI_SUM, win));
    CHECK_MPI(MPI_Win_unlock_all(win));
}

static void check_target(const int *mem, const char *what)
{
    CHECK(mem[0] == (size - 1) * ROUNDS, "%s: counter %d, expected %d",
          what, mem[0], (size - 1) * ROUNDS);
    for (int i = 1; i < size; i++)
        CHECK(mem[i] == i, "%s: slot %d holds %d", what, i, mem[i]);
    CHECK(mem[size + 1] == size - 1, "%s: accumulated %d, expected %d",
          what, mem[size + 1], size - 1);
}

/* Rank 0 sits in MPI_Recv until the last origin is done. */
static void target_in_recv(int *mem, MPI_Win win, const char *what)
{
    int done = 0;
    if (rank == 0) {
        CHECK_MPI(MPI_Recv(&done, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        check_target(mem, what);
        CHECK_MPI(MPI_Win_unlock(0, win));
    } else {
        work_on_target(win);
        CHECK_MPI(MPI_Barrier(origins));
        if (rank == size - 1)
            CHECK_MPI(MPI_Send(&done, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
    }
}

static void zero(int *mem)
{
    for (int i = 0; i < size + 2; i++)
        mem[i] = 0;
}

static void blocked_in_recv(void)
{
    MPI_Aint bytes = (MPI_Aint)(size + 2) * sizeof(int);
    MPI_Win win;
    int *mem;

    CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    zero(mem);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    target_in_recv(mem, win, "MPI_Win_allocate");
    CHECK_MPI(MPI_Win_free(&win));

    mem = malloc((size_t)bytes);
    zero(mem);
    CHECK_MPI(MPI_Win_create(mem, bytes, sizeof(int), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    target_in_recv(mem, win, "MPI_Win_create on malloc'd memory");
    CHECK_MPI(MPI_Win_free(&win));
    free(mem);

    int stack[64 + 2];
    CHECK(size + 2 <= 66, "np too large for the stack window");
    zero(stack);
    CHECK_MPI(MPI_Win_create(stack, bytes, sizeof(int), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    target_in_recv(stack, win, "MPI_Win_create on stack memory");
    CHECK_MPI(MPI_Win_free(&win));
}

/* Rank 0 computes - polls its own memory, no MPI call - until the last
   origin's accumulate has landed. */
static void computing(void)
{
    MPI_Aint bytes = (MPI_Aint)(size + 2) * sizeof(int);
    MPI_Win win;
    int *mem;
    CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    zero(mem);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        volatile int *acc = &mem[size + 1];
        unsigned long spins = 0;
        while (*acc != size - 1)
            if (++spins % 1024 == 0)
                sched_yield(); /* oversubscribed runs: let origins run */
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        check_target(mem, "computing target");
        CHECK_MPI(MPI_Win_unlock(0, win));
    } else {
        work_on_target(win);
    }
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1,
                             rank, &origins));
    blocked_in_recv();
    computing();
    if (origins != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_free(&origins));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
