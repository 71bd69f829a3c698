/* nbc_errors_ext: shmpi's argument checks of the nonblocking data collectives where MPI leaves the class to the implementation: a NULL request pointer (MPI_ERR_ARG, the request untouched, no collective started), MPI_IN_PLACE on an intercommunicator (MPI_ERR_BUFFER), blocking and nonblocking alike; MPI_ERR_TRUNCATE from the call that completes a collective; MPI_Cancel of one (erroneous, 5.12) is MPI_ERR_REQUEST and the collective completes, not cancelled. */
/* shmpi-test: np=2,3 timeout=60 ext */
/* shmpi-test-nocheck: its members pass different amounts to one collective on purpose, to get MPI_ERR_TRUNCATE, which the check mode reports as collectives that do not match (5.1). */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size;

static void null_requests(MPI_Comm comm)
{
    int x[64] = {0}, y[64], c[64] = {0}, d[64] = {0};
    MPI_Datatype t[64];
    for (int i = 0; i < 64; i++)
        t[i] = MPI_INT;
    CHECK_CLASS(MPI_Ibarrier(comm, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Ibcast(x, 1, MPI_INT, 0, comm, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Igather(x, 1, MPI_INT, y, 1, MPI_INT, 0, comm, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Igatherv(x, 0, MPI_INT, y, c, d, MPI_INT, 0, comm, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Iscatter(x, 1, MPI_INT, y, 1, MPI_INT, 0, comm, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Iscatterv(x, c, d, MPI_INT, y, 0, MPI_INT, 0, comm,
                              NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Iallgather(x, 1, MPI_INT, y, 1, MPI_INT, comm, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Iallgatherv(x, 0, MPI_INT, y, c, d, MPI_INT, comm, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Ialltoall(x, 1, MPI_INT, y, 1, MPI_INT, comm, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Ialltoallv(x, c, d, MPI_INT, y, c, d, MPI_INT, comm,
                               NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Ialltoallw(x, c, d, t, y, c, d, t, comm, NULL),
                MPI_ERR_ARG);
}

/* Intercommunicators have no MPI_IN_PLACE (5.2.2): every call refuses
   it, in the group that would use it. */
static void in_place_on_inter(MPI_Comm inter, int color)
{
    int x[64] = {0}, c[64] = {0}, d[64] = {0};
    MPI_Request req = MPI_REQUEST_NULL;
    int root = color ? 0 : MPI_ROOT; /* group 0's rank 0 is the root */
    if (color) { /* the non-root group sends or receives */
        CHECK_CLASS(MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, x, 1, MPI_INT, root,
                               inter),
                    MPI_ERR_BUFFER);
        CHECK_CLASS(MPI_Igather(MPI_IN_PLACE, 1, MPI_INT, x, 1, MPI_INT,
                                root, inter, &req),
                    MPI_ERR_BUFFER);
        CHECK_CLASS(MPI_Scatter(x, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, root,
                                inter),
                    MPI_ERR_BUFFER);
        CHECK_CLASS(MPI_Iscatterv(x, c, d, MPI_INT, MPI_IN_PLACE, 1, MPI_INT,
                                  root, inter, &req),
                    MPI_ERR_BUFFER);
        CHECK_CLASS(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, root, inter),
                    MPI_ERR_BUFFER);
    }
    CHECK_CLASS(MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, x, 1, MPI_INT, inter),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Iallgatherv(MPI_IN_PLACE, 1, MPI_INT, x, c, d, MPI_INT,
                                inter, &req),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Alltoall(MPI_IN_PLACE, 1, MPI_INT, x, 1, MPI_INT, inter),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Ialltoallv(MPI_IN_PLACE, c, d, MPI_INT, x, c, d, MPI_INT,
                               inter, &req),
                MPI_ERR_BUFFER);
    CHECK(req == MPI_REQUEST_NULL, "a failed call set the request");
}

/* A receiver with less room than the sender sends: MPI_ERR_TRUNCATE from
   the call that completes the request (or from the blocking call), at
   the receivers only; the collective still completes everywhere. */
static void truncation(MPI_Comm inter, int color)
{
    int x[4] = {1, 2, 3, 4}, got[4] = {0};
    MPI_Request req;
    CHECK_MPI(MPI_Ibcast(x, rank == 0 ? 4 : 3, MPI_INT, 0, MPI_COMM_WORLD,
                         &req));
    int rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == 0)
        CHECK_MPI(rc);
    else
        CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
    /* group 0's rank 0 sends 4 ints to each process of group 1, which
       has room for 2 */
    int root = color ? 0 : rank == 0 ? MPI_ROOT : MPI_PROC_NULL;
    rc = MPI_Scatter(x, 2 * (1 + (root == MPI_ROOT)), MPI_INT, got, 2,
                     MPI_INT, root, inter);
    if (color)
        CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
    else
        CHECK_MPI(rc);
    CHECK(!color || (got[0] == 1 && got[1] == 2), "what fits is stored");
}

/* The communicator's handler gets the refusal; the request lives on. */
static void cancel_refused(MPI_Comm comm)
{
    MPI_Request r;
    MPI_Status st;
    int flag = 1;
    CHECK_MPI(MPI_Ibarrier(comm, &r));
    CHECK_CLASS(MPI_Cancel(&r), MPI_ERR_REQUEST);
    CHECK(r != MPI_REQUEST_NULL, "a refused MPI_Cancel freed the request");
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(!flag, "the collective whose cancel was refused is cancelled");
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    null_requests(MPI_COMM_WORLD);
    cancel_refused(MPI_COMM_WORLD);

    int color = rank % 2;
    MPI_Comm local, inter;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, !color, 5,
                                   &inter));
    CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    null_requests(inter);
    /* some of those calls are made in one group only, and a refused call
       still takes its collective's number in its group (coll/sched.h):
       a communicator of their own */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(inter, &dup));
    in_place_on_inter(dup, color);
    CHECK_MPI(MPI_Comm_free(&dup));
    truncation(inter, color);

    /* nothing was started: the communicators still work */
    int v = rank, sum = 0;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == size * (size - 1) / 2, "allreduce after the errors: %d",
          sum);
    CHECK_MPI(MPI_Barrier(inter));
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
