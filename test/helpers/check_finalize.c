/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_finalize - point-to-point communication and objects left at
 * MPI_Finalize (MPI-3.1 8.7), or, with "ok", the same program corrected:
 * a mistake for mpirun --check to report (test/check.sh), np = 2.
 *
 *   check_finalize      rank 0 sends two messages of tag 5 and one MPI_Isend
 *                       of tag 7 it never waits for; rank 1 receives none
 *                       and posts an MPI_Irecv of tag 6 nobody sends:
 *                       3 problems (unreceived, unmatched, unfinished);
 *                       both allocate a window (rank 0 names it "halo")
 *                       and make a persistent request (rank 0 by
 *                       MPI_Send_init, rank 1 by MPI_Recv_init), and free
 *                       neither: 4 problems more; both make three
 *                       communicators (two MPI_Comm_dup, rank 0 names the
 *                       first "left", one MPI_Comm_split), two datatypes
 *                       (MPI_Type_vector, rank 0 names it "column", and
 *                       MPI_Type_contiguous) and two groups (MPI_Comm_group
 *                       of the split one, MPI_Group_incl of one rank of
 *                       it) and free none, and start a generalized
 *                       request they never complete: 8 problems more.  Not
 *                       reported: MPI_COMM_WORLD's group, never freed,
 *                       and the communicator the window made for itself
 *   check_finalize ok   rank 1 receives all three, rank 0 sends the
 *                       tag 6 message, every request is waited for, the
 *                       window, the persistent requests, communicators,
 *                       datatypes and groups are freed, the generalized
 *                       request completed and waited for: a type freed
 *                       while an MPI_Isend of it is pending, a
 *                       communicator while an MPI_Irecv on it is
 *                       (MPI-3.1 4.1.9, 6.4.3: both allowed)
 */
#include <string.h>

#include "mpi.h"

/* a global: the request never waited for stays reachable, so that the
   sanitizer build's leak check does not end the program */
static MPI_Request r, p;
static MPI_Win w;
static int *base;
static MPI_Comm c[3];
static MPI_Datatype t[2];
static MPI_Group g[3];
static MPI_Request gr;

static int query(void *extra, MPI_Status *status)
{
    (void)extra;
    MPI_Status_set_elements(status, MPI_BYTE, 0);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}

static int nothing(void *extra)
{
    (void)extra;
    return MPI_SUCCESS;
}

static int no_cancel(void *extra, int complete)
{
    (void)extra, (void)complete;
    return MPI_SUCCESS;
}

/* communicators, datatypes and groups, made and, with ok, freed */
static void objects(int rank, int ok)
{
    MPI_Comm_dup(MPI_COMM_WORLD, &c[0]);
    MPI_Comm_dup(MPI_COMM_WORLD, &c[1]);
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c[2]);
    MPI_Type_vector(2, 1, 2, MPI_INT, &t[0]);
    MPI_Type_commit(&t[0]);
    MPI_Type_contiguous(2, MPI_INT, &t[1]);
    MPI_Comm_group(MPI_COMM_WORLD, &g[0]);
    MPI_Comm_group(c[2], &g[1]);
    MPI_Group_incl(g[1], 1, &rank, &g[2]);
    MPI_Grequest_start(query, nothing, no_cancel, NULL, &gr);
    if (rank == 0) {
        MPI_Comm_set_name(c[0], "left");
        MPI_Type_set_name(t[0], "column");
    }
    if (!ok)
        return;
    static int v[2] = {4, 5}, u[2];
    MPI_Request q;
    MPI_Type_commit(&t[1]);
    if (rank == 0) {
        MPI_Isend(v, 1, t[1], 1, 9, c[0], &q);
        MPI_Type_free(&t[1]); /* the pending send keeps it */
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
        MPI_Irecv(u, 2, MPI_INT, 0, 9, c[0], &q);
        MPI_Comm_free(&c[0]); /* the pending receive keeps it */
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        MPI_Type_free(&t[1]);
    }
    if (rank == 0)
        MPI_Comm_free(&c[0]);
    MPI_Comm_free(&c[1]);
    MPI_Comm_free(&c[2]);
    MPI_Type_free(&t[0]);
    for (int i = 0; i < 3; i++)
        MPI_Group_free(&g[i]);
    MPI_Grequest_complete(gr);
    MPI_Wait(&gr, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int rank, ok = argc > 1 && strcmp(argv[1], "ok") == 0;
    static int x[3] = {1, 2, 3}, y[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &base, &w);
    objects(rank, ok);
    if (rank == 0) {
        MPI_Win_set_name(w, "halo");
        MPI_Send_init(&x[0], 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &p);
    } else {
        MPI_Recv_init(&y[0], 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &p);
    }
    if (ok) {
        MPI_Request_free(&p);
        MPI_Win_free(&w);
    }
    if (rank == 0) {
        MPI_Send(&x[0], 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Send(&x[1], 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Isend(&x[2], 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &r);
        if (ok) {
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            MPI_Send(&x[0], 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
        }
    } else if (rank == 1) {
        MPI_Irecv(&y[2], 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &r);
        if (ok) {
            MPI_Recv(&y[0], 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&y[1], 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&y[0], 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    }
    MPI_Finalize();
    return 0;
}
