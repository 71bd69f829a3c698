/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hello.c - the smallest MPI program, for the launch-cost benchmark
 * (perf/launch.sh).  Built unchanged with shmpi, Open MPI and MPICH.
 * Init, rank and size, one line from rank 0, Finalize.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        printf("hello from rank 0 of %d\n", size);
    MPI_Finalize();
    return 0;
}
