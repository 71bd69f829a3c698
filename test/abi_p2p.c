/* abi_p2p: the rest of point to point through the standard ABI: buffered, ready and synchronous sends, the large-count (_c) forms, persistent, partitioned and generalized requests, any/some/all completions, matched probes with MPI_Message handles, cancel, statuses set and read. */
/* shmpi-test: np=1,2,3 timeout=60 ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built against include/abi/mpi.h: MPI_REQUEST_NULL is 0x180,
 * MPI_MESSAGE_NO_PROC 0x129, MPI_ANY_TAG -2, MPI_PROC_NULL -3; every check
 * on a handle, a status field or an index fails if shmpi's own value
 * comes through.
 */
#include "check.h"

#include <stdint.h>

#define HVAL(h) ((uintptr_t)(h))

static int rank, size, next, prev;

static void check_sends(void)
{
    int bufsize = 4 * (8 * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *buf = malloc((size_t)bufsize);
    CHECK(buf != NULL, "malloc");
    CHECK_MPI(MPI_Buffer_attach(buf, bufsize));
    int out[8], in[8];
    for (int i = 0; i < 8; i++)
        out[i] = rank * 100 + i;
    CHECK_MPI(MPI_Bsend(out, 8, MPI_INT, next, 1, MPI_COMM_WORLD));
    MPI_Status st;
    CHECK_MPI(MPI_Recv(in, 8, MPI_INT, prev, 1, MPI_COMM_WORLD, &st));
    CHECK(in[7] == prev * 100 + 7 && st.MPI_SOURCE == prev && st.MPI_TAG == 1,
          "Bsend payload %d from %d/%d", in[7], st.MPI_SOURCE, st.MPI_TAG);
    MPI_Request r;
    CHECK_MPI(MPI_Ibsend(out, 8, MPI_INT, next, 2, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Recv(in, 8, MPI_INT, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(r == MPI_REQUEST_NULL, "Ibsend request freed");
    CHECK_MPI(MPI_Buffer_flush());
    void *addr = NULL;
    int got = 0;
    CHECK_MPI(MPI_Buffer_detach(&addr, &got));
    CHECK(addr == buf && got == bufsize, "detached %p/%d", addr, got);
    free(buf);

    /* ready send: the receive is posted before the barrier */
    CHECK_MPI(MPI_Irecv(in, 8, MPI_INT, prev, 3, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Rsend(out, 8, MPI_INT, next, 3, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 3, "Rsend status");

    MPI_Request rs[3];
    CHECK_MPI(MPI_Irecv(in, 8, MPI_INT, prev, 4, MPI_COMM_WORLD, &rs[0]));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Irsend(out, 8, MPI_INT, next, 4, MPI_COMM_WORLD, &rs[1]));
    CHECK_MPI(MPI_Waitall(2, rs, MPI_STATUSES_IGNORE));
    CHECK(in[0] == prev * 100, "Irsend payload");

    /* Issend completes with Waitany, one request at a time */
    rs[0] = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Issend(out, 8, MPI_INT, next, 5, MPI_COMM_WORLD, &rs[1]));
    CHECK_MPI(MPI_Irecv(in, 8, MPI_INT, prev, 5, MPI_COMM_WORLD, &rs[2]));
    int seen = 0;
    for (int k = 0; k < 2; k++) {
        int idx = -1;
        st.MPI_TAG = -99;
        CHECK_MPI(MPI_Waitany(3, rs, &idx, &st));
        CHECK(idx == 1 || idx == 2, "Waitany index %d", idx);
        CHECK(rs[idx] == MPI_REQUEST_NULL, "Waitany freed its request");
        if (idx == 2)
            CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 5,
                  "Waitany status %d/%d", st.MPI_SOURCE, st.MPI_TAG);
        seen |= 1 << idx;
    }
    CHECK(seen == 6, "Waitany completed both");
    int idx = 0;
    CHECK_MPI(MPI_Waitany(3, rs, &idx, &st));
    CHECK(idx == MPI_UNDEFINED, "Waitany on null requests: %d", idx);
    CHECK(rs[0] == MPI_REQUEST_NULL, "a null request stays null");

    int x = rank, y = -1;
    CHECK_MPI(MPI_Sendrecv_replace(&x, 1, MPI_INT, next, 6, prev, 6,
                                   MPI_COMM_WORLD, &st));
    CHECK(x == prev && st.MPI_SOURCE == prev, "Sendrecv_replace %d", x);
    x = rank;
    CHECK_MPI(MPI_Isendrecv(&x, 1, MPI_INT, next, 7, &y, 1, MPI_INT,
                            MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(y == prev && st.MPI_TAG == 7, "Isendrecv %d tag %d", y, st.MPI_TAG);
    CHECK_MPI(MPI_Isendrecv_replace(&x, 1, MPI_INT, next, 8, prev, 8,
                                    MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(x == prev, "Isendrecv_replace %d", x);
}

static void check_persistent_and_some(void)
{
    int out = rank, in[4] = { -1, -1, -1, -1 };
    MPI_Request p[2];
    CHECK_MPI(MPI_Recv_init(&in[0], 1, MPI_INT, prev, 10, MPI_COMM_WORLD, &p[0]));
    CHECK_MPI(MPI_Send_init(&out, 1, MPI_INT, next, 10, MPI_COMM_WORLD, &p[1]));
    for (int round = 0; round < 3; round++) {
        out = rank * 10 + round;
        CHECK_MPI(MPI_Startall(2, p));
        MPI_Status sts[2];
        CHECK_MPI(MPI_Waitall(2, p, sts));
        CHECK(p[0] != MPI_REQUEST_NULL && p[1] != MPI_REQUEST_NULL,
              "persistent requests stay after completion");
        CHECK(in[0] == prev * 10 + round && sts[0].MPI_TAG == 10,
              "round %d got %d", round, in[0]);
    }
    CHECK_MPI(MPI_Start(&p[0]));
    out = 77;
    MPI_Request s1;
    CHECK_MPI(MPI_Ssend_init(&out, 1, MPI_INT, next, 10, MPI_COMM_WORLD, &s1));
    CHECK_MPI(MPI_Start(&s1));
    int flag = 0;
    MPI_Status st;
    while (!flag)
        CHECK_MPI(MPI_Test(&p[0], &flag, &st));
    CHECK(in[0] == 77 && st.MPI_SOURCE == prev, "Ssend_init payload");
    CHECK_MPI(MPI_Wait(&s1, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Request_free(&s1));
    CHECK_MPI(MPI_Request_free(&p[0]));
    CHECK_MPI(MPI_Request_free(&p[1]));
    CHECK(s1 == MPI_REQUEST_NULL && p[0] == MPI_REQUEST_NULL,
          "freed persistent requests");

    /* Testsome / Waitsome / Testall / Testany */
    MPI_Request r[4];
    int vals[2] = { rank, -rank };
    for (int i = 0; i < 2; i++)
        CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, prev, 20 + i, MPI_COMM_WORLD, &r[i]));
    for (int i = 0; i < 2; i++)
        CHECK_MPI(MPI_Isend(&vals[i], 1, MPI_INT, next, 20 + i, MPI_COMM_WORLD,
                            &r[2 + i]));
    int done = 0;
    while (done < 4) {
        int n = -1, ind[4];
        MPI_Status sts[4];
        CHECK_MPI(MPI_Testsome(4, r, &n, ind, sts));
        CHECK(n >= 0 && n <= 4 - done, "Testsome outcount %d", n);
        for (int i = 0; i < n; i++) {
            CHECK(r[ind[i]] == MPI_REQUEST_NULL, "Testsome freed %d", ind[i]);
            if (ind[i] < 2)
                CHECK(sts[i].MPI_TAG == 20 + ind[i] && sts[i].MPI_SOURCE == prev,
                      "Testsome status %d", i);
        }
        done += n;
    }
    CHECK(in[0] == prev && in[1] == -prev, "Testsome payloads");
    int n = 0, ind[4];
    CHECK_MPI(MPI_Waitsome(4, r, &n, ind, MPI_STATUSES_IGNORE));
    CHECK(n == MPI_UNDEFINED, "Waitsome on null requests %d", n);

    CHECK_MPI(MPI_Irecv(&in[2], 1, MPI_INT, prev, 30, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Isend(&vals[0], 1, MPI_INT, next, 30, MPI_COMM_WORLD, &r[1]));
    flag = 0;
    MPI_Status sts[2];
    while (!flag)
        CHECK_MPI(MPI_Testall(2, r, &flag, sts));
    CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL &&
          sts[0].MPI_TAG == 30 && in[2] == prev, "Testall");
    CHECK_MPI(MPI_Irecv(&in[3], 1, MPI_INT, prev, 31, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Send(&vals[1], 1, MPI_INT, next, 31, MPI_COMM_WORLD));
    flag = 0;
    int i1 = -1;
    while (!flag)
        CHECK_MPI(MPI_Testany(2, r, &i1, &flag, &st));
    CHECK(i1 == 0 && st.MPI_TAG == 31 && in[3] == -prev, "Testany %d", i1);
}

static void check_mprobe_cancel_status(void)
{
    int v = rank + 5, got = -1;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 40, MPI_COMM_SELF));
    MPI_Message m = MPI_MESSAGE_NULL;
    MPI_Status st;
    CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &m, &st));
    CHECK(m != MPI_MESSAGE_NULL && HVAL(m) >= 0x1000, "a matched message");
    CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 40, "Mprobe status");
    int i = MPI_Message_toint(m);
    CHECK(i >= 0x1000 && MPI_Message_fromint(i) == m, "Message toint/fromint");
    CHECK_MPI(MPI_Mrecv(&got, 1, MPI_INT, &m, &st));
    CHECK(got == rank + 5 && m == MPI_MESSAGE_NULL, "Mrecv");
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 41, MPI_COMM_SELF));
    int flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Improbe(0, 41, MPI_COMM_SELF, &flag, &m, &st));
    MPI_Request r;
    CHECK_MPI(MPI_Imrecv(&got, 1, MPI_INT, &m, &r));
    CHECK(m == MPI_MESSAGE_NULL, "Imrecv took the message");
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(st.MPI_TAG == 41, "Imrecv status");
    CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_SELF, &m, &st));
    CHECK(m == MPI_MESSAGE_NO_PROC && HVAL(m) == 0x129, "MPI_MESSAGE_NO_PROC");
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "status of MPI_PROC_NULL");
    CHECK_MPI(MPI_Mrecv(&got, 1, MPI_INT, &m, &st));
    CHECK(m == MPI_MESSAGE_NULL, "Mrecv of MPI_MESSAGE_NO_PROC");

    /* a receive nobody matches, cancelled */
    CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, 0, 99, MPI_COMM_SELF, &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK(r != MPI_REQUEST_NULL, "MPI_Cancel leaves the request");
    CHECK_MPI(MPI_Wait(&r, &st));
    flag = 0;
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(flag, "the receive was cancelled");

    MPI_Status s = { 0 };
    CHECK_MPI(MPI_Status_set_elements(&s, MPI_DOUBLE, 3));
    int count = -1;
    CHECK_MPI(MPI_Get_count(&s, MPI_DOUBLE, &count));
    CHECK(count == 3, "Status_set_elements then Get_count: %d", count);
    CHECK_MPI(MPI_Get_elements(&s, MPI_DOUBLE, &count));
    MPI_Count big = -1;
    CHECK_MPI(MPI_Status_set_elements_x(&s, MPI_INT, 5));
    CHECK_MPI(MPI_Get_elements_x(&s, MPI_INT, &big));
    CHECK(count == 3 && big == 5, "Get_elements %d, _x %lld", count, (long long)big);
    CHECK_MPI(MPI_Status_set_cancelled(&s, 1));
    CHECK_MPI(MPI_Test_cancelled(&s, &flag));
    CHECK(flag, "Status_set_cancelled");
    CHECK_MPI(MPI_Status_set_source(&s, MPI_PROC_NULL));
    CHECK_MPI(MPI_Status_set_tag(&s, MPI_ANY_TAG));
    CHECK_MPI(MPI_Status_set_error(&s, MPI_ERR_TRUNCATE));
    CHECK(s.MPI_SOURCE == MPI_PROC_NULL && s.MPI_TAG == MPI_ANY_TAG &&
          s.MPI_ERROR == MPI_ERR_TRUNCATE, "Status_set_ fields");
    int a = 0, b = 0, c = 0;
    CHECK_MPI(MPI_Status_get_source(&s, &a));
    CHECK_MPI(MPI_Status_get_tag(&s, &b));
    CHECK_MPI(MPI_Status_get_error(&s, &c));
    CHECK(a == MPI_PROC_NULL && b == MPI_ANY_TAG && c == MPI_ERR_TRUNCATE,
          "Status_get_ %d %d %d", a, b, c);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Status_set_tag(MPI_STATUS_IGNORE, 0), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Waitany(1, &r, NULL, &st), MPI_ERR_ARG);
    r = (MPI_Request)(uintptr_t)0x181;      /* no request of the ABI */
    CHECK_CLASS(MPI_Start(&r), MPI_ERR_REQUEST);
    CHECK(HVAL(r) == 0x181, "a rejected handle is left as it was");
}

/* four partitions of two ints to the next rank, made ready out of order */
static void check_partitioned(void)
{
    int out[8], in[8];
    for (int i = 0; i < 8; i++) {
        out[i] = rank * 100 + i;
        in[i] = -1;
    }
    MPI_Request s, r;
    CHECK_MPI(MPI_Psend_init(out, 4, 2, MPI_INT, next, 50, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Precv_init(in, 4, 2, MPI_INT, prev, 50, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Start(&s));
    int parts[2] = { 3, 1 };
    CHECK_MPI(MPI_Pready_list(2, parts, s));
    CHECK_MPI(MPI_Pready(0, s));
    CHECK_MPI(MPI_Pready_range(2, 2, s));
    int flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Parrived(r, 3, &flag));
    MPI_Request both[2] = { s, r };
    MPI_Status st[2];
    CHECK_MPI(MPI_Waitall(2, both, st));
    CHECK(both[0] == s && both[1] == r, "partitioned requests stay");
    CHECK(in[0] == prev * 100 && in[7] == prev * 100 + 7 &&
          st[1].MPI_SOURCE == prev && st[1].MPI_TAG == 50,
          "partitioned payload %d %d", in[0], in[7]);
    CHECK_MPI(MPI_Request_free(&s));
    CHECK_MPI(MPI_Request_free(&r));
}

/* the _c forms: MPI_Count counts, the same ABI handles and statuses */
static void check_large_count(void)
{
    double out[4] = { rank, rank + 0.5, 0, 0 }, in[4] = { -1, -1, -1, -1 };
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv_c(out, (MPI_Count)2, MPI_DOUBLE, next, 60, in,
                             (MPI_Count)4, MPI_DOUBLE, MPI_ANY_SOURCE,
                             MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    MPI_Count c = -1, e = -1;
    CHECK_MPI(MPI_Get_count_c(&st, MPI_DOUBLE, &c));
    CHECK_MPI(MPI_Get_elements_c(&st, MPI_DOUBLE, &e));
    CHECK(c == 2 && e == 2 && in[1] == prev + 0.5 && st.MPI_TAG == 60 &&
          st.MPI_SOURCE == prev, "Sendrecv_c %lld from %d", (long long)c,
          st.MPI_SOURCE);
    MPI_Request r[2];
    CHECK_MPI(MPI_Irecv_c(in, (MPI_Count)4, MPI_DOUBLE, prev, 61,
                          MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Isend_c(out, (MPI_Count)3, MPI_DOUBLE, next, 61,
                          MPI_COMM_WORLD, &r[1]));
    MPI_Status sts[2];
    CHECK_MPI(MPI_Waitall(2, r, sts));
    CHECK_MPI(MPI_Get_count_c(&sts[0], MPI_DOUBLE, &c));
    CHECK(c == 3, "Isend_c/Irecv_c %lld", (long long)c);
    CHECK_MPI(MPI_Send_c(out, (MPI_Count)1, MPI_DOUBLE, 0, 62, MPI_COMM_SELF));
    MPI_Message m;
    CHECK_MPI(MPI_Mprobe(0, 62, MPI_COMM_SELF, &m, &st));
    CHECK_MPI(MPI_Mrecv_c(in, (MPI_Count)1, MPI_DOUBLE, &m, &st));
    CHECK(m == MPI_MESSAGE_NULL && in[0] == rank, "Mrecv_c");
    char *bbuf = malloc(1024);
    CHECK(bbuf != NULL, "malloc");
    CHECK_MPI(MPI_Buffer_attach_c(bbuf, (MPI_Count)1024));
    CHECK_MPI(MPI_Bsend_c(out, (MPI_Count)1, MPI_DOUBLE, 0, 63, MPI_COMM_SELF));
    CHECK_MPI(MPI_Recv_c(in, (MPI_Count)1, MPI_DOUBLE, 0, 63, MPI_COMM_SELF,
                         MPI_STATUS_IGNORE));
    void *baddr = NULL;
    MPI_Count bsize = -1;
    CHECK_MPI(MPI_Buffer_detach_c(&baddr, &bsize));
    CHECK(baddr == bbuf && bsize == 1024 && in[0] == rank, "Buffer_*_c");
    free(bbuf);
    MPI_Status z = { 0 };
    CHECK_MPI(MPI_Status_set_elements_c(&z, MPI_INT, (MPI_Count)7));
    CHECK_MPI(MPI_Get_count_c(&z, MPI_INT, &c));
    CHECK(c == 7, "Status_set_elements_c %lld", (long long)c);
}

static int queries, frees, cancels;

static int greq_query(void *extra, MPI_Status *status)
{
    queries++;
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_TAG = MPI_ANY_TAG;
    MPI_Status_set_elements(status, MPI_DOUBLE, *(int *)extra);
    MPI_Status_set_cancelled(status, 0);
    return MPI_SUCCESS;
}

static int greq_free(void *extra)
{
    (void)extra;
    frees++;
    return MPI_SUCCESS;
}

static int greq_cancel(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    cancels++;
    return MPI_SUCCESS;
}

static void check_generalized(void)
{
    int n = 3;
    MPI_Request r;
    CHECK_MPI(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &n, &r));
    CHECK(r != MPI_REQUEST_NULL, "a generalized request");
    int flag = 1;
    CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag && r != MPI_REQUEST_NULL, "not complete yet");
    CHECK_MPI(MPI_Grequest_complete(r));
    MPI_Status st;
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL && queries >= 1 && frees == 1,
          "completed: %d queries, %d frees", queries, frees);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
          "the query's status %d/%d", st.MPI_SOURCE, st.MPI_TAG);
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
    CHECK(count == 3, "the query's count %d", count);
    CHECK_MPI(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &n, &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK(cancels == 1, "cancel callback");
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(frees == 2, "freed both");
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    check_sends();
    check_persistent_and_some();
    check_partitioned();
    check_large_count();
    check_generalized();
    check_mprobe_cancel_status();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
