/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_op_type - reductions and accumulates on types outside their op's
 * groups (MPI-3.1 5.9.2), which shmpi accepts as Open MPI and MPICH do,
 * or, with "ok", the same with types of the groups: a mistake for
 * mpirun --check to report (test/check.sh), np = 2.
 *
 *   check_op_type      MPI_SUM on MPI_CHAR in MPI_Allreduce, twice (one
 *                      report), MPI_LAND on MPI_AINT in MPI_Reduce_local,
 *                      MPI_SUM on MPI_CHAR in MPI_Accumulate: 3 problems
 *                      a rank
 *   check_op_type ok   MPI_SIGNED_CHAR, MPI_INT and MPI_SIGNED_CHAR instead
 */
#include <string.h>

#include "mpi.h"

int main(int argc, char **argv)
{
    int ok = argc > 1 && strcmp(argv[1], "ok") == 0;
    MPI_Init(&argc, &argv);
    MPI_Datatype small = ok ? MPI_SIGNED_CHAR : MPI_CHAR;
    char c = 1, sum = 0;
    MPI_Allreduce(&c, &sum, 1, small, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&c, &sum, 1, small, MPI_SUM, MPI_COMM_WORLD);
    MPI_Aint a = 1, b = 1;
    int i = 1, j = 1;
    if (ok)
        MPI_Reduce_local(&i, &j, 1, MPI_INT, MPI_LAND);
    else
        MPI_Reduce_local(&a, &b, 1, MPI_AINT, MPI_LAND);
    char *base;
    MPI_Win win;
    MPI_Win_allocate(1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    *base = 0;
    MPI_Win_fence(0, win);
    MPI_Accumulate(&c, 1, small, 0, 0, 1, small, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
