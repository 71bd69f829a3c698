/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hello.c - the smallest useful MPI program.
 *
 * Every rank says who it is and where it runs, then all ranks meet at a
 * barrier before rank 0 says goodbye.  Build and run it from the top of
 * the source tree:
 *
 *     make
 *     ./mpicc -o hello examples/hello.c
 *     ./mpirun -np 4 ./hello
 *
 * or let the program start its own ranks, without mpirun:
 *
 *     SHMPI_NP=4 ./hello
 *
 * The lines of the ranks may come out in any order: the ranks run at the
 * same time.  Nothing here is specific to shmpi; the same file builds
 * with Open MPI's or MPICH's mpicc.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    /* Join the job.  Before this call no other MPI function may be used
       (except a few inquiries such as MPI_Initialized). */
    MPI_Init(&argc, &argv);

    /* MPI_COMM_WORLD holds every rank of the job: how many are there,
       and which one am I (0 .. size-1)? */
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    /* The machine we run on; the buffer must hold
       MPI_MAX_PROCESSOR_NAME characters. */
    char name[MPI_MAX_PROCESSOR_NAME];
    int namelen;
    MPI_Get_processor_name(name, &namelen);

    printf("hello from rank %d of %d on %s\n", rank, size, name);

    /* Wait until every rank has printed its line.  (It orders the ranks'
       work, not their output: mpirun forwards each line as it comes.) */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("all %d ranks reached the barrier\n", size);

    /* Every rank must call MPI_Finalize before it exits; a rank that
       exits without it makes mpirun treat the job as failed. */
    MPI_Finalize();
    return 0;
}
