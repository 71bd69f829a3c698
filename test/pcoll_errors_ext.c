/* pcoll_errors_ext: the argument errors of the persistent collectives' init calls (MPI-4.0 6.13), raised through the communicator's error handler with the classes of the blocking forms (bad root, negative count, Scan_init on an intercommunicator) and shmpi's for the rest (an invalid info: MPI_ERR_INFO; a NULL request pointer: MPI_ERR_ARG); a refused init leaves the processes agreeing on the next collective; MPI_Start of an active request and MPI_Cancel of one are MPI_ERR_REQUEST, and the request still completes with the right result; MPI_Request_free of an active one lets it complete unobserved. */
/* shmpi-test: np=2,3 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "intercomm.h"

static int calls;
static MPI_Comm seen;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)code;
    calls++;
    seen = *comm;
}

int main(int argc, char **argv)
{
    int rank, size, rc;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Comm comm;
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    CHECK_MPI(MPI_Comm_create_errhandler(count_errors, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(comm, eh));
    CHECK_MPI(MPI_Errhandler_free(&eh));

    int x = rank + 1, sum = -1;
    MPI_Request r = MPI_REQUEST_NULL;
    rc = MPI_Bcast_init(&x, 1, MPI_INT, size, comm, MPI_INFO_NULL, &r);
    CHECK_CLASS(rc, MPI_ERR_ROOT);
    CHECK(calls == 1 && seen == comm, "the error went through comm's "
          "handler (%d calls)", calls);
    CHECK(r == MPI_REQUEST_NULL, "a refused init set the request");
    rc = MPI_Allreduce_init(&x, &sum, -1, MPI_INT, MPI_SUM, comm,
                            MPI_INFO_NULL, &r);
    CHECK_CLASS(rc, MPI_ERR_COUNT);
    rc = MPI_Allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, comm,
                            MPI_Info_f2c(12345), &r);
    CHECK_CLASS(rc, MPI_ERR_INFO);
    rc = MPI_Barrier_init(comm, MPI_INFO_NULL, NULL);
    CHECK_CLASS(rc, MPI_ERR_ARG);
    CHECK(calls == 4, "%d calls of the handler, expected 4", calls);

    /* the processes still agree: a good one after the refused ones */
    CHECK_MPI(MPI_Allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, comm,
                                 MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Start(&r));
    CHECK_CLASS(MPI_Start(&r), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Cancel(&r), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(sum == size * (size + 1) / 2, "sum %d", sum);
    x = 10;
    CHECK_MPI(MPI_Startall(1, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(sum == 10 * size, "sum %d after a restart", sum);
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(calls == 6, "%d calls of the handler, expected 6", calls);

    /* MPI_Request_free of an active one: it still completes, unobserved;
       the last rank frees it before the root has even started */
    volatile int got = -1;
    CHECK_MPI(MPI_Bcast_init((void *)&got, 1, MPI_INT, 0, comm,
                             MPI_INFO_NULL, &r));
    if (rank == 0)
        got = 42;
    if (rank == size - 1 && rank != 0) {
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Request_free(&r));
        CHECK(r == MPI_REQUEST_NULL, "Request_free left the handle");
        CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, 0, 9, MPI_COMM_WORLD));
        int flag;
        while (got != 42) /* progress until the freed bcast lands */
            CHECK_MPI(MPI_Iprobe(0, 99, MPI_COMM_WORLD, &flag,
                                 MPI_STATUS_IGNORE));
    } else {
        if (rank == 0 && size > 1)
            CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, size - 1, 9, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Request_free(&r));
    }
    CHECK(got == 42, "bcast gave %d", got);
    CHECK_MPI(MPI_Barrier(comm));

    /* Scan is not defined on an intercommunicator (5.11) */
    MPI_Comm half, inter;
    if (size >= 2) {
        parity_intercomm(MPI_COMM_WORLD, 7, &half, &inter);
        CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
        rc = MPI_Scan_init(&x, &sum, 1, MPI_INT, MPI_SUM, inter,
                           MPI_INFO_NULL, &r);
        CHECK_CLASS(rc, MPI_ERR_COMM);
        rc = MPI_Exscan_init(&x, &sum, 1, MPI_INT, MPI_SUM, inter,
                             MPI_INFO_NULL, &r);
        CHECK_CLASS(rc, MPI_ERR_COMM);
        CHECK_MPI(MPI_Comm_free(&inter));
        CHECK_MPI(MPI_Comm_free(&half));
    }
    CHECK_MPI(MPI_Comm_free(&comm));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
