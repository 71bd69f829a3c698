/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_coll - collectives the members of a communicator call
 * differently (MPI-3.1 5.1, 5.12), for mpirun --check to report
 * (test/check-coll.sh), np = 2; "ok" runs correct twins that must pass
 * without a word.
 *
 *   check_coll call      rank 0 MPI_Bcast, rank 1 MPI_Reduce
 *   check_coll root      MPI_Bcast with root 0 on rank 0, root 1 on 1
 *   check_coll op        MPI_Allreduce with MPI_SUM, MPI_MAX
 *   check_coll count     MPI_Allreduce of 4 MPI_INT, 2 MPI_INT
 *   check_coll gather    MPI_Gather: rank 1 sends 2 MPI_INT, root 0
 *                        receives 4 from each
 *   check_coll nb        after 10 MPI_Iallreduce, MPI_Ibcast on rank 0,
 *                        MPI_Iallreduce on rank 1
 *   check_coll mixed     MPI_Ibarrier on rank 0, MPI_Barrier on rank 1,
 *                        which do not match: the job then deadlocks
 *   check_coll ok        every form right: blocking, 300 nonblocking in
 *                        flight, persistent, MPI_Bcast_c against
 *                        MPI_Bcast, gather in place, on MPI_COMM_WORLD
 *                        and on communicators of MPI_Comm_split and
 *                        MPI_Comm_dup
 */
#include <stdio.h>
#include <string.h>

#include "mpi.h"

#define NB 300

static void right(MPI_Comm comm)
{
    int rank, v[4] = {1, 2, 3, 4}, w[4], all[16];
    MPI_Comm_rank(comm, &rank);
    MPI_Barrier(comm);
    if (rank == 0)
        MPI_Bcast_c(v, 4, MPI_INT, 0, comm);
    else
        MPI_Bcast(v, 4, MPI_INT, 0, comm);
    MPI_Reduce(v, w, 4, MPI_INT, MPI_SUM, 0, comm);
    MPI_Allreduce(v, w, 2, MPI_INT, MPI_MAX, comm);
    MPI_Gather(rank ? v : MPI_IN_PLACE, 4, MPI_INT, all, 4, MPI_INT, 0, comm);
    /* 4 MPI_INT against one contiguous type of 4: the same bytes */
    MPI_Datatype four;
    MPI_Type_contiguous(4, MPI_INT, &four);
    MPI_Type_commit(&four);
    MPI_Bcast(v, rank ? 4 : 1, rank ? MPI_INT : four, 0, comm);
    MPI_Type_free(&four);
    static int in[NB], out[NB];
    MPI_Request r[NB];
    for (int i = 0; i < NB; i++)
        MPI_Iallreduce(&in[i], &out[i], 1, MPI_INT, MPI_SUM, comm, &r[i]);
    MPI_Waitall(NB, r, MPI_STATUSES_IGNORE);
    MPI_Request p;
    MPI_Allreduce_init(v, w, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &p);
    for (int i = 0; i < 3; i++) {
        MPI_Start(&p);
        MPI_Wait(&p, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&p);
    MPI_Ibarrier(comm, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
}

static void wrong(const char *form, int rank)
{
    int v[4] = {1, 2, 3, 4}, w[4], all[8];
    if (strcmp(form, "call") == 0) {
        if (rank == 0)
            MPI_Bcast(v, 4, MPI_INT, 0, MPI_COMM_WORLD);
        else
            MPI_Reduce(v, w, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    } else if (strcmp(form, "root") == 0) {
        MPI_Bcast(v, 4, MPI_INT, rank, MPI_COMM_WORLD);
    } else if (strcmp(form, "op") == 0) {
        MPI_Allreduce(v, w, 4, MPI_INT, rank ? MPI_MAX : MPI_SUM,
                      MPI_COMM_WORLD);
    } else if (strcmp(form, "count") == 0) {
        MPI_Allreduce(v, w, rank ? 2 : 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else if (strcmp(form, "gather") == 0) {
        MPI_Gather(rank ? v : MPI_IN_PLACE, 2, MPI_INT, all, 4, MPI_INT, 0,
                   MPI_COMM_WORLD);
    } else if (strcmp(form, "mixed") == 0) {
        MPI_Request r;
        if (rank == 0)
            MPI_Ibarrier(MPI_COMM_WORLD, &r);
        else
            MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (strcmp(form, "nb") == 0) {
        MPI_Request r[11];
        for (int i = 0; i < 10; i++)
            MPI_Iallreduce(&v[0], &w[0], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                           &r[i]);
        if (rank == 0)
            MPI_Ibcast(v, 4, MPI_INT, 0, MPI_COMM_WORLD, &r[10]);
        else
            MPI_Iallreduce(v, w, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[10]);
        MPI_Waitall(11, r, MPI_STATUSES_IGNORE);
    }
}

int main(int argc, char **argv)
{
    const char *form = argc > 1 ? argv[1] : "ok";
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (strcmp(form, "ok") == 0) {
        right(MPI_COMM_WORLD);
        MPI_Comm split, dup;
        MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &split);
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        right(split);
        right(dup);
        right(MPI_COMM_WORLD);
        MPI_Comm_free(&split);
        MPI_Comm_free(&dup);
    } else {
        wrong(form, rank);
    }
    MPI_Finalize();
    return 0;
}
