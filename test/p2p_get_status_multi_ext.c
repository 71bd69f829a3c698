/* p2p_get_status_multi_ext: MPI-4.1's MPI_Request_get_status_any, _all and _some report completed receives as Testany/Testall/Testsome would, yet leave every request active (asked again they answer the same; MPI_Waitall then hands them out); null requests, a generalized request's query and its error, and bad arguments. */
/* shmpi-test: np=1,2,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int queries;

static int query_fn(void *extra, MPI_Status *st)
{
    queries++;
    MPI_Status_set_elements(st, MPI_BYTE, 0);
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = 7;
    st->MPI_TAG = 8;
    return *(int *)extra;
}

static int free_fn(void *extra)
{
    (void)extra;
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}

static void check_recv(const MPI_Status *st, int src, int tag, const char *w)
{
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag,
          "%s: status source %d tag %d, expected %d %d", w, st->MPI_SOURCE,
          st->MPI_TAG, src, tag);
}

/* r[0] from left tag 1, r[1] from right tag 2 (both sent at once), r[2]
   from left tag 3 (sent after a barrier), r[3] null. */
static void receives(int rank, int size)
{
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int in[3] = {-1, -1, -1}, out[3] = {rank, rank + 100, rank + 200};
    MPI_Request r[4], s[3];
    MPI_Status st[4];
    CHECK_MPI(MPI_Irecv(&in[0], 1, MPI_INT, left, 1, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Irecv(&in[1], 1, MPI_INT, right, 2, MPI_COMM_WORLD, &r[1]));
    CHECK_MPI(MPI_Irecv(&in[2], 1, MPI_INT, left, 3, MPI_COMM_WORLD, &r[2]));
    r[3] = MPI_REQUEST_NULL;
    MPI_Request keep[4] = {r[0], r[1], r[2], r[3]};
    int flag = -1, index = -1, outcount = -1, idx[4];
    CHECK_MPI(MPI_Request_get_status_all(4, r, &flag, st));
    CHECK(!flag, "get_status_all: flag set before anything was sent");
    CHECK_MPI(MPI_Isend(&out[0], 1, MPI_INT, right, 1, MPI_COMM_WORLD, &s[0]));
    CHECK_MPI(MPI_Isend(&out[1], 1, MPI_INT, left, 2, MPI_COMM_WORLD, &s[1]));
    do
        CHECK_MPI(MPI_Request_get_status_any(4, r, &index, &flag, &st[0]));
    while (!flag);
    CHECK(index == 0 || index == 1, "get_status_any: index %d", index);
    check_recv(&st[0], index ? right : left, index + 1, "get_status_any");
    do
        CHECK_MPI(MPI_Request_get_status_some(4, r, &outcount, idx, st));
    while (outcount < 2);
    for (int round = 0; round < 2; round++) {
        CHECK(outcount == 2 && idx[0] == 0 && idx[1] == 1,
              "get_status_some: outcount %d, indices %d %d", outcount, idx[0],
              idx[1]);
        check_recv(&st[0], left, 1, "get_status_some[0]");
        check_recv(&st[1], right, 2, "get_status_some[1]");
        CHECK(st[0].MPI_ERROR == MPI_SUCCESS && st[1].MPI_ERROR ==
              MPI_SUCCESS, "get_status_some: MPI_ERROR set");
        for (int i = 0; i < 4; i++)
            CHECK(r[i] == keep[i], "request %d changed", i);
        /* asked again: the same answer, nothing was handed out */
        CHECK_MPI(MPI_Request_get_status_some(4, r, &outcount, idx, st));
    }
    CHECK_MPI(MPI_Request_get_status_all(4, r, &flag, st));
    CHECK(!flag, "get_status_all: flag set while r[2] cannot be complete");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Isend(&out[2], 1, MPI_INT, right, 3, MPI_COMM_WORLD, &s[2]));
    do
        CHECK_MPI(MPI_Request_get_status_all(4, r, &flag, st));
    while (!flag);
    check_recv(&st[0], left, 1, "get_status_all[0]");
    check_recv(&st[1], right, 2, "get_status_all[1]");
    check_recv(&st[2], left, 3, "get_status_all[2]");
    check_recv(&st[3], MPI_ANY_SOURCE, MPI_ANY_TAG, "get_status_all[null]");
    for (int i = 0; i < 4; i++)
        CHECK(r[i] == keep[i], "get_status_all changed request %d", i);
    CHECK_MPI(MPI_Waitall(4, r, st));
    check_recv(&st[2], left, 3, "Waitall after the looks");
    for (int i = 0; i < 4; i++)
        CHECK(r[i] == MPI_REQUEST_NULL, "Waitall left request %d", i);
    CHECK(in[0] == left && in[1] == right + 100 && in[2] == left + 200,
          "received %d %d %d", in[0], in[1], in[2]);
    CHECK_MPI(MPI_Waitall(3, s, MPI_STATUSES_IGNORE));
}

static void nulls(void)
{
    MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st;
    int flag = 0, index = 0, outcount = 0, idx[2];
    CHECK_MPI(MPI_Request_get_status_any(2, r, &index, &flag, &st));
    CHECK(flag && index == MPI_UNDEFINED, "any of nulls: flag %d index %d",
          flag, index);
    check_recv(&st, MPI_ANY_SOURCE, MPI_ANY_TAG, "any of nulls");
    CHECK_MPI(MPI_Request_get_status_some(2, r, &outcount, idx,
                                          MPI_STATUSES_IGNORE));
    CHECK(outcount == MPI_UNDEFINED, "some of nulls: outcount %d", outcount);
    flag = 0;
    CHECK_MPI(MPI_Request_get_status_all(2, r, &flag, MPI_STATUSES_IGNORE));
    CHECK(flag, "all of nulls: flag 0");
    CHECK_MPI(MPI_Request_get_status_any(0, NULL, &index, &flag, &st));
    CHECK(flag && index == MPI_UNDEFINED, "any of none: flag %d index %d",
          flag, index);
}

/* A completed generalized request: its query runs for each look that
   wants a status; its error shows in the statuses of _all and _some. */
static void generalized(void)
{
    int err = MPI_SUCCESS;
    MPI_Request r[1];
    MPI_Status st[1];
    int flag = 0, index, outcount, idx[1];
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &err, &r[0]));
    CHECK_MPI(MPI_Request_get_status_any(1, r, &index, &flag, st));
    CHECK(!flag, "an incomplete generalized request looks complete");
    CHECK_MPI(MPI_Grequest_complete(r[0]));
    queries = 0;
    CHECK_MPI(MPI_Request_get_status_any(1, r, &index, &flag, st));
    CHECK(flag && index == 0, "any: flag %d index %d", flag, index);
    check_recv(&st[0], 7, 8, "generalized, any");
    CHECK_MPI(MPI_Request_get_status_all(1, r, &flag, st));
    CHECK(flag && queries == 2, "all: flag %d after %d queries", flag, queries);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    err = MPI_ERR_OTHER;
    int rc = MPI_Request_get_status_some(1, r, &outcount, idx, st);
    CHECK_CLASS(rc, MPI_ERR_IN_STATUS);
    CHECK(outcount == 1 && st[0].MPI_ERROR == MPI_ERR_OTHER,
          "some: outcount %d, MPI_ERROR %d", outcount, st[0].MPI_ERROR);
    CHECK(r[0] != MPI_REQUEST_NULL, "get_status_some freed the request");
    err = MPI_SUCCESS;
    CHECK_MPI(MPI_Wait(&r[0], st));
    CHECK(r[0] == MPI_REQUEST_NULL, "Wait left the generalized request");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

static void bad_arguments(void)
{
    MPI_Request r[1] = {MPI_REQUEST_NULL};
    int flag, index, outcount, idx[1];
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Request_get_status_any(-1, r, &index, &flag,
                                           MPI_STATUS_IGNORE), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Request_get_status_any(1, r, NULL, &flag,
                                           MPI_STATUS_IGNORE), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Request_get_status_all(1, r, NULL, MPI_STATUSES_IGNORE),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Request_get_status_all(1, NULL, &flag,
                                           MPI_STATUSES_IGNORE),
                MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Request_get_status_some(-2, r, &outcount, idx,
                                            MPI_STATUSES_IGNORE),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Request_get_status_some(1, r, NULL, idx,
                                            MPI_STATUSES_IGNORE), MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    receives(rank, size);
    nulls();
    generalized();
    bad_arguments();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
