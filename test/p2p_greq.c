/* p2p_greq: generalized requests (12.2): Test and Request_get_status of an incomplete one call no callback; MPI_Cancel calls cancel_fn with complete false then true; after MPI_Grequest_complete, Request_get_status calls query_fn and keeps the request, Wait calls query_fn then free_fn once and hands out query_fn's status; a query_fn error is Wait's error and free_fn still runs; Request_free before completion calls free_fn at MPI_Grequest_complete and never query_fn; Waitall mixes them with point-to-point requests. */
/* shmpi-test: np=1,2 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

struct calls {
    int query, free, cancel, cancel_complete;
    int query_rc;              /* what query_fn returns */
};

static int query_fn(void *extra, MPI_Status *st)
{
    struct calls *c = extra;
    c->query++;
    MPI_Status_set_elements(st, MPI_INT, 5);
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = 3;
    st->MPI_TAG = 77;
    return c->query_rc;
}

static int free_fn(void *extra)
{
    ((struct calls *)extra)->free++;
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    struct calls *c = extra;
    c->cancel++;
    c->cancel_complete = complete;
    return MPI_SUCCESS;
}

static MPI_Request start(struct calls *c)
{
    MPI_Request r = MPI_REQUEST_NULL;
    *c = (struct calls){0};
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, c, &r));
    CHECK(r != MPI_REQUEST_NULL, "MPI_Grequest_start gave a null request");
    return r;
}

static void check_status(const MPI_Status *st, const char *what)
{
    int count = -1;
    CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
    CHECK(st->MPI_SOURCE == 3 && st->MPI_TAG == 77 && count == 5,
          "%s: status source %d tag %d count %d, query_fn set 3, 77, 5",
          what, st->MPI_SOURCE, st->MPI_TAG, count);
}

static void lifecycle(void)
{
    struct calls c;
    MPI_Request r = start(&c);
    MPI_Status st;
    int flag = 1;
    CHECK_MPI(MPI_Test(&r, &flag, &st));
    CHECK(!flag && r != MPI_REQUEST_NULL, "Test completed an incomplete "
          "generalized request");
    flag = 1;
    CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
    CHECK(!flag, "Request_get_status: incomplete request flagged complete");
    CHECK(c.query == 0 && c.free == 0, "callbacks before completion: query "
          "%d free %d", c.query, c.free);
    CHECK_MPI(MPI_Cancel(&r));
    CHECK(c.cancel == 1 && !c.cancel_complete, "cancel_fn: %d calls, "
          "complete %d (expected 1 call, false)", c.cancel,
          c.cancel_complete);

    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK(c.cancel == 2 && c.cancel_complete, "cancel_fn after "
          "MPI_Grequest_complete: %d calls, complete %d (expected 2, true)",
          c.cancel, c.cancel_complete);
    flag = 0;
    CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
    CHECK(flag && r != MPI_REQUEST_NULL, "Request_get_status: flag %d", flag);
    check_status(&st, "Request_get_status");
    CHECK(c.query == 1 && c.free == 0, "after Request_get_status: query %d "
          "free %d (expected 1, 0)", c.query, c.free);

    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL, "Wait left the request");
    check_status(&st, "Wait");
    CHECK(c.query == 2 && c.free == 1, "after Wait: query %d free %d "
          "(expected 2, 1)", c.query, c.free);
}

static void query_error(void)
{
    struct calls c;
    MPI_Request r = start(&c);
    c.query_rc = MPI_ERR_OTHER;
    CHECK_MPI(MPI_Grequest_complete(r));
    int rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK_CLASS(rc, MPI_ERR_OTHER);
    CHECK(c.query == 1 && c.free == 1, "failed query: query %d free %d "
          "(expected 1, 1)", c.query, c.free);
}

static void freed_early(void)
{
    struct calls c;
    MPI_Request r = start(&c), keep = r;
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL, "Request_free left the handle");
    CHECK(c.free == 0, "free_fn ran before MPI_Grequest_complete");
    CHECK_MPI(MPI_Grequest_complete(keep));
    CHECK(c.free == 1 && c.query == 0, "after MPI_Grequest_complete of a "
          "freed request: free %d query %d (expected 1, 0)", c.free, c.query);

    r = start(&c); /* freed complete: free_fn at once */
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(c.free == 1 && c.query == 0, "Request_free of a complete one: "
          "free %d query %d (expected 1, 0)", c.free, c.query);
}

static void mixed(int rank, int size)
{
    struct calls c[2];
    MPI_Request r[4];
    MPI_Status st[4];
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    int out = rank, in = -1;
    r[0] = start(&c[0]);
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, from, 5, MPI_COMM_WORLD, &r[1]));
    r[2] = start(&c[1]);
    CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, to, 5, MPI_COMM_WORLD, &r[3]));
    CHECK_MPI(MPI_Grequest_complete(r[2]));
    CHECK_MPI(MPI_Grequest_complete(r[0]));
    CHECK_MPI(MPI_Waitall(4, r, st));
    for (int i = 0; i < 4; i++)
        CHECK(r[i] == MPI_REQUEST_NULL, "Waitall left request %d", i);
    CHECK(in == from, "received %d, expected %d", in, from);
    check_status(&st[0], "Waitall [0]");
    check_status(&st[2], "Waitall [2]");
    CHECK(st[1].MPI_SOURCE == from && st[1].MPI_TAG == 5,
          "Waitall [1]: source %d tag %d", st[1].MPI_SOURCE, st[1].MPI_TAG);
    for (int i = 0; i < 2; i++)
        CHECK(c[i].query == 1 && c[i].free == 1, "Waitall: request %d: "
              "query %d free %d", i, c[i].query, c[i].free);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    lifecycle();
    query_error();
    freed_early();
    mixed(rank, size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
