/* p2p_requests: Wait/Test and their any/all/some forms with MPI_REQUEST_NULL entries and empty arrays (MPI_UNDEFINED, empty statuses), incomplete requests left alone, Request_get_status does not free, Request_free of active requests. */
/* shmpi-test: np=2,3 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define N 5

/* An empty status (3.7.3): source MPI_ANY_SOURCE, tag MPI_ANY_TAG, error
   MPI_SUCCESS, count 0.  The error field is only checked where a call
   returns an array of statuses: 3.2.5 says the calls returning a single
   status do not touch it, and Open MPI leaves it alone there. */
static int single; /* the status comes from a single-status call */
static void check_empty(const MPI_Status *st, const char *what)
{
    int count = -1;
    MPI_Count cx = -1;
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE,
          "%s: empty status has source %d", what, st->MPI_SOURCE);
    CHECK(st->MPI_TAG == MPI_ANY_TAG, "%s: empty status has tag %d", what,
          st->MPI_TAG);
    CHECK(single || st->MPI_ERROR == MPI_SUCCESS,
          "%s: empty status has error %d", what, st->MPI_ERROR);
    CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
    CHECK(count == 0, "%s: empty status has count %d", what, count);
    CHECK_MPI(MPI_Get_elements_x(st, MPI_INT, &cx));
    CHECK(cx == 0, "%s: empty status has %lld elements", what,
          (long long)cx);
}

static void scribble(MPI_Status *st, int n)
{
    for (int i = 0; i < n; i++) {
        st[i].MPI_SOURCE = 4321;
        st[i].MPI_TAG = 4321;
        st[i].MPI_ERROR = 4321;
    }
}

static void all_null(void)
{
    MPI_Request rq[N];
    MPI_Status st[N];
    int idx, flag, out, ind[N];
    for (int i = 0; i < N; i++)
        rq[i] = MPI_REQUEST_NULL;

    scribble(st, 1);
    CHECK_MPI(MPI_Wait(&rq[0], &st[0]));
    single = 1;
    check_empty(&st[0], "Wait(MPI_REQUEST_NULL)");
    CHECK(rq[0] == MPI_REQUEST_NULL, "Wait changed a null request");

    scribble(st, 1);
    flag = 0;
    CHECK_MPI(MPI_Test(&rq[0], &flag, &st[0]));
    CHECK(flag, "Test(MPI_REQUEST_NULL): flag false");
    check_empty(&st[0], "Test(MPI_REQUEST_NULL)");

    scribble(st, 1);
    flag = 0;
    CHECK_MPI(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st[0]));
    CHECK(flag, "Request_get_status(MPI_REQUEST_NULL): flag false");
    check_empty(&st[0], "Request_get_status(MPI_REQUEST_NULL)");

    for (int n = 0; n <= N; n += N) { /* all null, and empty lists */
        char what[64];
        single = 1;
        idx = 77;
        scribble(st, 1);
        CHECK_MPI(MPI_Waitany(n, rq, &idx, &st[0]));
        CHECK(idx == MPI_UNDEFINED, "Waitany(%d null): index %d", n, idx);
        snprintf(what, sizeof what, "Waitany(%d null)", n);
        check_empty(&st[0], what);

        idx = 77;
        flag = 0;
        scribble(st, 1);
        CHECK_MPI(MPI_Testany(n, rq, &idx, &flag, &st[0]));
        CHECK(flag && idx == MPI_UNDEFINED,
              "Testany(%d null): flag %d index %d", n, flag, idx);
        snprintf(what, sizeof what, "Testany(%d null)", n);
        check_empty(&st[0], what);

        single = 0;
        scribble(st, N);
        CHECK_MPI(MPI_Waitall(n, rq, st));
        for (int i = 0; i < n; i++) {
            snprintf(what, sizeof what, "Waitall(%d null) status %d", n, i);
            check_empty(&st[i], what);
        }
        flag = 0;
        scribble(st, N);
        CHECK_MPI(MPI_Testall(n, rq, &flag, st));
        CHECK(flag, "Testall(%d null): flag false", n);
        for (int i = 0; i < n; i++) {
            snprintf(what, sizeof what, "Testall(%d null) status %d", n, i);
            check_empty(&st[i], what);
        }

        out = 77;
        CHECK_MPI(MPI_Waitsome(n, rq, &out, ind, st));
        CHECK(out == MPI_UNDEFINED, "Waitsome(%d null): outcount %d", n, out);
        out = 77;
        CHECK_MPI(MPI_Testsome(n, rq, &out, ind, st));
        CHECK(out == MPI_UNDEFINED, "Testsome(%d null): outcount %d", n, out);

        single = 1;
        /* the IGNORE forms */
        CHECK_MPI(MPI_Waitall(n, rq, MPI_STATUSES_IGNORE));
        CHECK_MPI(MPI_Waitany(n, rq, &idx, MPI_STATUS_IGNORE));
        CHECK(idx == MPI_UNDEFINED, "Waitany, STATUS_IGNORE: index %d", idx);
        CHECK_MPI(MPI_Waitsome(n, rq, &out, ind, MPI_STATUSES_IGNORE));
        CHECK(out == MPI_UNDEFINED, "Waitsome, IGNORE: outcount %d", out);
    }
    /* NULL may be passed for an empty array */
    CHECK_MPI(MPI_Waitall(0, NULL, MPI_STATUSES_IGNORE));
}

/* Requests that cannot complete yet (receives of messages not sent) are
   left alone by the Test forms; then the messages come, with null
   entries mixed in. */
static void mixed(int rank, int size)
{
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    int vals[N], got[N];
    MPI_Request rq[N];
    MPI_Status st[N];
    int idx, flag, out, ind[N];
    single = 0; /* only Waitall/Testall statuses are checked below */
    for (int i = 0; i < N; i++) {
        rq[i] = MPI_REQUEST_NULL;
        got[i] = -1;
        vals[i] = 1000 * rank + i;
    }
    /* entries 1 and 3 active (receives), the rest null */
    CHECK_MPI(MPI_Irecv(&got[1], 1, MPI_INT, from, 1, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(MPI_Irecv(&got[3], 1, MPI_INT, from, 3, MPI_COMM_WORLD, &rq[3]));
    MPI_Request keep1 = rq[1], keep3 = rq[3];

    for (int rep = 0; rep < 100; rep++) {
        idx = 77;
        flag = 1;
        CHECK_MPI(MPI_Testany(N, rq, &idx, &flag, &st[0]));
        CHECK(!flag && idx == MPI_UNDEFINED,
              "Testany, nothing complete: flag %d index %d", flag, idx);
        out = 77;
        CHECK_MPI(MPI_Testsome(N, rq, &out, ind, st));
        CHECK(out == 0, "Testsome, nothing complete: outcount %d", out);
        flag = 1;
        CHECK_MPI(MPI_Testall(N, rq, &flag, st));
        CHECK(!flag, "Testall, nothing complete: flag true");
        flag = 1;
        CHECK_MPI(MPI_Test(&rq[1], &flag, &st[0]));
        CHECK(!flag, "Test, not complete: flag true");
        flag = 1;
        CHECK_MPI(MPI_Request_get_status(rq[3], &flag, &st[0]));
        CHECK(!flag, "Request_get_status, not complete: flag true");
        CHECK(rq[1] == keep1 && rq[3] == keep3,
              "an incomplete request's handle was changed");
    }

    /* every rank is done testing: send tag 1 (tag 3 only after the next
       barrier) */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(&vals[1], 1, MPI_INT, peer, 1, MPI_COMM_WORLD));

    /* Waitany: exactly request 1 can complete */
    scribble(st, 1);
    CHECK_MPI(MPI_Waitany(N, rq, &idx, &st[0]));
    CHECK(idx == 1, "Waitany: index %d, expected 1", idx);
    CHECK(rq[1] == MPI_REQUEST_NULL, "Waitany did not free the request");
    CHECK(rq[3] == keep3, "Waitany changed another request");
    CHECK(got[1] == 1000 * from + 1, "Waitany: value %d", got[1]);
    CHECK(st[0].MPI_SOURCE == from && st[0].MPI_TAG == 1,
          "Waitany status: source %d tag %d", st[0].MPI_SOURCE,
          st[0].MPI_TAG);

    /* request 3 still can't complete: Testsome 0, Testany false */
    out = 77;
    CHECK_MPI(MPI_Testsome(N, rq, &out, ind, st));
    CHECK(out == 0, "Testsome: outcount %d, expected 0", out);

    /* now send tag 3 and use Waitsome */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(&vals[3], 1, MPI_INT, peer, 3, MPI_COMM_WORLD));
    out = 0;
    scribble(st, N);
    CHECK_MPI(MPI_Waitsome(N, rq, &out, ind, st));
    CHECK(out == 1 && ind[0] == 3, "Waitsome: outcount %d index %d", out,
          ind[0]);
    CHECK(st[0].MPI_SOURCE == from && st[0].MPI_TAG == 3,
          "Waitsome status[0]: source %d tag %d", st[0].MPI_SOURCE,
          st[0].MPI_TAG);
    CHECK(got[3] == 1000 * from + 3, "Waitsome: value %d", got[3]);
    for (int i = 0; i < N; i++)
        CHECK(rq[i] == MPI_REQUEST_NULL, "request %d not null", i);

    /* Waitall with nulls and completed ones: statuses of the null ones
       are empty, the others describe their message */
    for (int i = 0; i < N; i++)
        got[i] = -1;
    CHECK_MPI(MPI_Irecv(&got[0], 1, MPI_INT, from, 20, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Irecv(&got[4], 1, MPI_INT, from, 24, MPI_COMM_WORLD, &rq[4]));
    CHECK_MPI(MPI_Isend(&vals[4], 1, MPI_INT, peer, 24, MPI_COMM_WORLD,
                        &rq[2]));
    CHECK_MPI(MPI_Send(&vals[0], 1, MPI_INT, peer, 20, MPI_COMM_WORLD));
    scribble(st, N);
    CHECK_MPI(MPI_Waitall(N, rq, st));
    CHECK(got[0] == 1000 * from && got[4] == 1000 * from + 4,
          "Waitall: values %d %d", got[0], got[4]);
    check_empty(&st[1], "Waitall status of a null request");
    check_empty(&st[3], "Waitall status of a null request");
    CHECK(st[0].MPI_SOURCE == from && st[0].MPI_TAG == 20 &&
              st[4].MPI_SOURCE == from && st[4].MPI_TAG == 24,
          "Waitall statuses: (%d,%d) (%d,%d)", st[0].MPI_SOURCE,
          st[0].MPI_TAG, st[4].MPI_SOURCE, st[4].MPI_TAG);
    for (int i = 0; i < N; i++)
        CHECK(rq[i] == MPI_REQUEST_NULL, "Waitall left request %d", i);

    /* Testany/Testall on completed requests */
    CHECK_MPI(MPI_Irecv(&got[2], 1, MPI_INT, from, 30, MPI_COMM_WORLD, &rq[2]));
    CHECK_MPI(MPI_Send(&vals[2], 1, MPI_INT, peer, 30, MPI_COMM_WORLD));
    flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Testany(N, rq, &idx, &flag, &st[0]));
    CHECK(idx == 2 && rq[2] == MPI_REQUEST_NULL && got[2] == 1000 * from + 2,
          "Testany: index %d value %d", idx, got[2]);
    CHECK_MPI(MPI_Irecv(&got[2], 1, MPI_INT, from, 31, MPI_COMM_WORLD, &rq[2]));
    CHECK_MPI(MPI_Send(&vals[2], 1, MPI_INT, peer, 31, MPI_COMM_WORLD));
    flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Testall(N, rq, &flag, st));
    CHECK(rq[2] == MPI_REQUEST_NULL && st[2].MPI_TAG == 31,
          "Testall: request not freed or tag %d", st[2].MPI_TAG);
    check_empty(&st[0], "Testall status of a null request");
}

/* Request_get_status: reports completion without freeing; the status it
   gives is the one Wait then gives. */
static void get_status(int rank, int size)
{
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    int v = rank * 7 + 1, w = -1, flag = 0;
    MPI_Request rq;
    MPI_Status st, st2;
    CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, from, 40, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, 40, MPI_COMM_WORLD));
    MPI_Request keep = rq;
    while (!flag)
        CHECK_MPI(MPI_Request_get_status(rq, &flag, &st));
    CHECK(rq == keep, "Request_get_status changed the handle");
    CHECK(st.MPI_SOURCE == from && st.MPI_TAG == 40,
          "Request_get_status: source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    CHECK(w == from * 7 + 1, "value %d", w);
    /* again: still there, same answer */
    flag = 0;
    CHECK_MPI(MPI_Request_get_status(rq, &flag, &st2));
    CHECK(flag && st2.MPI_SOURCE == from && st2.MPI_TAG == 40,
          "second Request_get_status: flag %d source %d tag %d", flag,
          st2.MPI_SOURCE, st2.MPI_TAG);
    /* and it can still be waited for, once */
    CHECK_MPI(MPI_Wait(&rq, &st2));
    CHECK(rq == MPI_REQUEST_NULL, "Wait did not free the request");
    CHECK(st2.MPI_SOURCE == from && st2.MPI_TAG == 40,
          "Wait after Request_get_status: source %d tag %d", st2.MPI_SOURCE,
          st2.MPI_TAG);
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st2, MPI_INT, &count));
    CHECK(count == 1, "count %d", count);

    /* on a send request too */
    CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, peer, 41, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, from, 41, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Request_get_status(rq, &flag, MPI_STATUS_IGNORE));
    CHECK(rq != MPI_REQUEST_NULL, "Request_get_status freed a send request");
    flag = 0;
    CHECK_MPI(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
    CHECK(flag && rq == MPI_REQUEST_NULL, "Test after Request_get_status");
}

/* Request_free of an active send: the message is still delivered (3.7.3).
   The sender learns that its buffer is free from the receiver's reply. */
static void free_active(int rank, int size)
{
    static const int sizes[] = {4, 16384, 16385, 1 << 20};
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    for (int k = 0; k < 4; k++) {
        int n = sizes[k];
        unsigned char *s = malloc((size_t)n), *r = malloc((size_t)n);
        CHECK(s && r, "malloc");
        for (int i = 0; i < n; i++)
            s[i] = (unsigned char)(i + rank + k);
        MPI_Request rq;
        for (int mode = 0; mode < 2; mode++) {
            if (mode == 0)
                CHECK_MPI(MPI_Isend(s, n, MPI_BYTE, peer, 50 + k,
                                    MPI_COMM_WORLD, &rq));
            else
                CHECK_MPI(MPI_Issend(s, n, MPI_BYTE, peer, 50 + k,
                                     MPI_COMM_WORLD, &rq));
            CHECK_MPI(MPI_Request_free(&rq));
            CHECK(rq == MPI_REQUEST_NULL, "Request_free: handle not null");
            memset(r, 0, (size_t)n);
            MPI_Status st;
            CHECK_MPI(MPI_Recv(r, n, MPI_BYTE, from, 50 + k, MPI_COMM_WORLD,
                               &st));
            for (int i = 0; i < n; i++)
                CHECK(r[i] == (unsigned char)(i + from + k),
                      "freed send of %d bytes: byte %d wrong", n, i);
            /* reply: "your buffer is free"; wait for ours */
            CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_BYTE, from, 60, NULL, 0,
                                   MPI_BYTE, peer, 60, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
        }
        free(s);
        free(r);
    }
    /* a freed receive still takes its message: the next message of the
       same pair (non-overtaking) is the one after it */
    int v[2] = {rank * 10 + 1, rank * 10 + 2}, w = -1, flag = 1;
    MPI_Request rq;
    static int sink;
    CHECK_MPI(MPI_Irecv(&sink, 1, MPI_INT, from, 70, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Request_free(&rq));
    CHECK(rq == MPI_REQUEST_NULL, "Request_free of a receive");
    CHECK_MPI(MPI_Send(&v[0], 1, MPI_INT, peer, 70, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(&v[1], 1, MPI_INT, peer, 70, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, from, 70, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    CHECK(w == from * 10 + 2,
          "after a freed receive: got %d, expected the second message %d", w,
          from * 10 + 2);
    CHECK_MPI(MPI_Iprobe(from, 70, MPI_COMM_WORLD, &flag,
                         MPI_STATUS_IGNORE));
    CHECK(!flag, "the message of the freed receive is still there");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    all_null();
    if (size >= 2) {
        mixed(rank, size);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        get_status(rank, size);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        free_active(rank, size);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
