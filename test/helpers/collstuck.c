/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * collstuck - rank programs that deadlock in a collective against a
 * receive, or only look like they might (test/deadlock-coll.sh,
 * test/deadlock-none.sh).  The last rank waits in MPI_Recv from rank 0
 * while the others are in the collective, so every report names whom
 * the collective waits for.
 *
 *   collstuck bcast      MPI_Bcast, root the last rank, on a dup of
 *                        MPI_COMM_WORLD named "work"
 *   collstuck allreduce  MPI_Allreduce of one int on MPI_COMM_WORLD
 *   collstuck reduce     MPI_Reduce, root 0, on an unnamed
 *                        MPI_Comm_split of MPI_COMM_WORLD
 *   collstuck barrier    MPI_Barrier on MPI_COMM_WORLD
 *   collstuck ibarrier   MPI_Ibarrier on MPI_COMM_WORLD, then MPI_Wait
 *   collstuck pallreduce MPI_Allreduce_init of one int, MPI_Start,
 *                        MPI_Wait
 *   collstuck pdrain     the same started, then MPI_Barrier
 *   collstuck pbcast     MPI_Bcast_init, root the last rank, MPI_Start,
 *                        MPI_Wait
 *   collstuck intercomm  MPI_Barrier on an intercommunicator named
 *                        "bridge" between rank 0 and ranks 1.. (np >= 3;
 *                        the last rank receives instead)
 *   collstuck slow S     the last rank sleeps S s, then every rank runs
 *                        MPI_Bcast from it and MPI_Allreduce; exits 0
 *
 * The deadlocking ones never return: the launcher must end them.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size, last;

static int receiver(void)
{
    if (rank != last)
        return 0;
    int x;
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return 1;
}

static int stuck(const char *mode)
{
    int x = rank, y = 0;
    MPI_Comm c;
    if (!strcmp(mode, "bcast")) {
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Comm_set_name(c, "work");
        if (!receiver())
            MPI_Bcast(&x, 1, MPI_INT, last, c);
    } else if (!strcmp(mode, "allreduce")) {
        if (!receiver())
            MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else if (!strcmp(mode, "reduce")) {
        MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c);
        if (!receiver())
            MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, 0, c);
    } else if (!strcmp(mode, "barrier")) {
        if (!receiver())
            MPI_Barrier(MPI_COMM_WORLD);
    } else if (!strcmp(mode, "ibarrier")) {
        MPI_Request r;
        if (!receiver()) {
            MPI_Ibarrier(MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    } else if (!strcmp(mode, "pallreduce") || !strcmp(mode, "pdrain")) {
        MPI_Request r;
        MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &r);
        if (!receiver()) {
            MPI_Start(&r);
            if (mode[1] == 'd')
                MPI_Barrier(MPI_COMM_WORLD);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    } else if (!strcmp(mode, "pbcast")) {
        MPI_Request r;
        MPI_Bcast_init(&x, 1, MPI_INT, last, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &r);
        if (!receiver()) {
            MPI_Start(&r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    } else if (!strcmp(mode, "intercomm")) {
        MPI_Comm local, inter;
        MPI_Comm_split(MPI_COMM_WORLD, rank == 0, rank, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank == 0 ? 1 : 0, 9,
                             &inter);
        MPI_Comm_set_name(inter, "bridge");
        if (!receiver())
            MPI_Barrier(inter);
    } else {
        fprintf(stderr, "collstuck: unknown mode '%s'\n", mode);
        return 1;
    }
    return 0;
}

static int slow(double s)
{
    int x = rank == last ? 42 : 0, y = 0;
    if (rank == last)
        usleep((useconds_t)(s * 1e6));
    MPI_Bcast(&x, 1, MPI_INT, last, MPI_COMM_WORLD);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return x != 42 || y != 42 * size;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    last = size - 1;
    const char *mode = argc > 1 ? argv[1] : "";
    int bad = !strcmp(mode, "slow") ? slow(argc > 2 ? atof(argv[2]) : 1)
                                    : stuck(mode);
    MPI_Finalize();
    return bad;
}
