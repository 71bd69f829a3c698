/* p2p_part_errors_ext: wrong uses of partitioned requests get the right error classes under MPI_ERRORS_RETURN: MPI_Pready (and _range, _list) on an inactive request (MPI_ERR_REQUEST), a partition out of range or readied twice (MPI_ERR_ARG), MPI_Pready on a receive and MPI_Parrived on a send (MPI_ERR_REQUEST), MPI_Request_free and MPI_Cancel of an active one (MPI_ERR_REQUEST), bad init arguments (no partitions, count, rank, tag, MPI_ANY_SOURCE); a send and a receive of different sizes both fail with MPI_ERR_TRUNCATE; after the errors the pair still communicates. */
/* shmpi-test: np=2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define PARTS 4

static int rank;
static int buf[PARTS];

static void init_errors(void)
{
    MPI_Request r;
    CHECK_CLASS(MPI_Psend_init(buf, 0, 1, MPI_INT, 1 - rank, 0,
                               MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Psend_init(buf, PARTS, -1, MPI_INT, 1 - rank, 0,
                               MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Psend_init(buf, PARTS, 1, MPI_INT, 2, 0, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &r),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Psend_init(buf, PARTS, 1, MPI_INT, 1 - rank, -3,
                               MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                MPI_ERR_TAG);
    CHECK_CLASS(MPI_Precv_init(buf, PARTS, 1, MPI_INT, MPI_ANY_SOURCE, 0,
                               MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Precv_init(buf, PARTS, 1, MPI_INT, 1 - rank, MPI_ANY_TAG,
                               MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                MPI_ERR_TAG);
    CHECK_CLASS(MPI_Precv_init(buf, PARTS, 1, MPI_DATATYPE_NULL, 1 - rank, 0,
                               MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Precv_init(buf, PARTS, 1, MPI_INT, 1 - rank, 0,
                               MPI_COMM_NULL, MPI_INFO_NULL, &r),
                MPI_ERR_COMM);
}

static void sender(void)
{
    MPI_Request r;
    int list[2] = {0, PARTS};
    CHECK_MPI(MPI_Psend_init(buf, PARTS, 1, MPI_INT, 1, 0, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &r));
    CHECK_CLASS(MPI_Pready(0, r), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Pready_range(0, 1, r), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Pready_list(1, list, r), MPI_ERR_REQUEST);
    int flag;
    CHECK_MPI(MPI_Start(&r));
    for (int p = 0; p < PARTS; p++)
        buf[p] = 10 + p;
    CHECK_CLASS(MPI_Start(&r), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Parrived(r, 0, &flag), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Pready(PARTS, r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pready(-1, r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pready_range(2, 1, r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pready_range(PARTS - 1, PARTS, r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pready_list(2, list, r), MPI_ERR_ARG); /* PARTS */
    /* those readied 0 and PARTS - 1 before failing */
    CHECK_CLASS(MPI_Pready(0, r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Request_free(&r), MPI_ERR_REQUEST);
    CHECK(r != MPI_REQUEST_NULL, "a refused free nulled the handle");
    CHECK_CLASS(MPI_Cancel(&r), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Pready_range(1, PARTS - 2, r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Request_free(&r));
}

static void receiver(void)
{
    MPI_Request r;
    CHECK_MPI(MPI_Precv_init(buf, PARTS, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Start(&r));
    CHECK_CLASS(MPI_Pready(0, r), MPI_ERR_REQUEST);
    int flag;
    CHECK_CLASS(MPI_Parrived(r, PARTS, &flag), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Parrived(r, -1, &flag), MPI_ERR_ARG);
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int p = 0; p < PARTS; p++)
        CHECK(buf[p] == 10 + p, "buf[%d] = %d", p, buf[p]);
    CHECK_MPI(MPI_Request_free(&r));
}

/* 4 ints sent, 5 expected: the round fails at both ends. */
static void size_mismatch(void)
{
    int b[5] = {0};
    MPI_Request r;
    if (rank == 0) {
        CHECK_MPI(MPI_Psend_init(b, 2, 2, MPI_INT, 1, 9, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &r));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Pready_range(0, 1, r));
    } else {
        CHECK_MPI(MPI_Precv_init(b, 5, 1, MPI_INT, 0, 9, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &r));
        CHECK_MPI(MPI_Start(&r));
    }
    CHECK_CLASS(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE);
    CHECK_MPI(MPI_Request_free(&r));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    init_errors();
    size_mismatch();
    if (rank == 0)
        sender();
    else
        receiver();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
