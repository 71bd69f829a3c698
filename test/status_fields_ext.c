/* status_fields_ext: MPI_Status_get/set_source, _tag, _error (MPI-4.1) read and write exactly the public fields, on a status a receive filled too, work outside MPI_Init..MPI_Finalize, and refuse NULL; Open MPI 4.1 lacks them. */
/* shmpi-test: np=1,2,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

/* Set each field through the calls and read it back both ways. */
static void set_and_get(MPI_Status *st, int src, int tag, int err)
{
    int v;
    CHECK_MPI(MPI_Status_set_source(st, src));
    CHECK_MPI(MPI_Status_set_tag(st, tag));
    CHECK_MPI(MPI_Status_set_error(st, err));
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag && st->MPI_ERROR == err,
          "fields %d %d %d, set %d %d %d", st->MPI_SOURCE, st->MPI_TAG,
          st->MPI_ERROR, src, tag, err);
    CHECK_MPI(MPI_Status_get_source(st, &v));
    CHECK(v == src, "get_source %d, set %d", v, src);
    CHECK_MPI(MPI_Status_get_tag(st, &v));
    CHECK(v == tag, "get_tag %d, set %d", v, tag);
    CHECK_MPI(MPI_Status_get_error(st, &v));
    CHECK(v == err, "get_error %d, set %d", v, err);
}

/* A receive's status read through the calls; setting the source and
   tag leaves the count alone. */
static void after_receive(int rank, int size)
{
    int out = rank * 10, in = -1, v, count;
    MPI_Status st;
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, to, 40 + rank, &in, 1, MPI_INT,
                           MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Status_get_source(&st, &v));
    CHECK(v == from, "source %d, expected %d", v, from);
    CHECK_MPI(MPI_Status_get_tag(&st, &v));
    CHECK(v == 40 + from, "tag %d, expected %d", v, 40 + from);
    set_and_get(&st, MPI_PROC_NULL, MPI_ANY_TAG, MPI_ERR_TRUNCATE);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 1 && in == from * 10, "count %d, data %d", count, in);
}

static void null_args(void)
{
    MPI_Status st;
    int v;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Status_get_source(MPI_STATUS_IGNORE, &v), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_get_source(&st, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_set_source(MPI_STATUS_IGNORE, 0), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_get_tag(MPI_STATUS_IGNORE, &v), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_get_tag(&st, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_set_tag(MPI_STATUS_IGNORE, 0), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_get_error(MPI_STATUS_IGNORE, &v), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_get_error(&st, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_set_error(MPI_STATUS_IGNORE, 0), MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    MPI_Status early;
    set_and_get(&early, 3, 7, MPI_ERR_OTHER); /* before MPI_Init */
    CHECK_MPI(MPI_Init(&argc, &argv));
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    set_and_get(&early, rank, 32767, MPI_SUCCESS);
    set_and_get(&early, -5, -6, 99999); /* no value is checked */
    after_receive(rank, size);
    null_args();
    CHECK_MPI(MPI_Finalize());
    set_and_get(&early, 1, 2, 3); /* after MPI_Finalize */
    return 0;
}
