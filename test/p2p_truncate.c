/* p2p_truncate: a message longer than the receive buffer gives MPI_ERR_TRUNCATE (Recv, Wait, Waitany, Test, Sendrecv; MPI_ERR_IN_STATUS from Waitall/Testall/Waitsome), never writes past the buffer, and leaves the library working. */
/* shmpi-test: np=2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Under MPI_ERRORS_RETURN.  Rank 0 sends, rank 1 receives into a buffer
 * followed by guard bytes, for sizes on both sides of the eager limit
 * and far into rendezvous territory (message / buffer): 100/50,
 * 16384/16383, 16385/16384, 40000/1, 1 MiB/100000, 1 MiB/0.  The sender
 * succeeds; the receiver gets the class MPI_ERR_TRUNCATE, its status
 * names the sender and tag, and the next message (same pair) arrives
 * intact.  Self-sends: p2p_truncate_self_ext (Open MPI 4.1 fails them).
 */
#include "check.h"

#define GUARD 4096
#define MAXN (1 << 20)

static const int cases[][2] = {
    {100, 50}, {16384, 16383}, {16385, 16384}, {40000, 1},
    {MAXN, 100000}, {MAXN, 0}, {MAXN, MAXN - 1},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static unsigned char *sbuf, *rbuf;

static void fill(unsigned char *b, int n, int k)
{
    for (int i = 0; i < n; i++)
        b[i] = (unsigned char)(i * 7 + k + 1);
}

static void prepare(int room)
{
    memset(rbuf, 0xA5, (size_t)room + GUARD);
}

static void guards(int room, const char *what, int k)
{
    for (int i = room; i < room + GUARD; i++)
        CHECK(rbuf[i] == 0xA5,
              "%s case %d (%d into %d): byte %d past the buffer written", what,
              k, cases[k][0], room, i - room);
}

/* what fits of a truncated message is not fixed by the standard; the
   follow-up message must be whole */
static void followup_recv(int src, int tag, int k)
{
    MPI_Status st;
    int count = -1;
    prepare(64);
    CHECK_MPI(MPI_Recv(rbuf, 64, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
    CHECK(count == 64, "follow-up after case %d: %d bytes", k, count);
    unsigned char want[64];
    fill(want, 64, 1000 + k);
    CHECK(memcmp(rbuf, want, 64) == 0, "follow-up after case %d: data", k);
    guards(64, "follow-up", k);
}

static void followup_send(int dst, int tag, int k)
{
    unsigned char b[64];
    fill(b, 64, 1000 + k);
    CHECK_MPI(MPI_Send(b, 64, MPI_BYTE, dst, tag, MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    int rank, size, rc;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2, "needs 2 ranks");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    sbuf = malloc(MAXN);
    rbuf = malloc(MAXN + GUARD);
    CHECK(sbuf && rbuf, "malloc");
    MPI_Status st;
    MPI_Request rq;

    if (rank == 0) {
        /* A: Recv;  B: Irecv + Wait;  C: wildcard Recv;  D: Sendrecv */
        for (int k = 0; k < NCASES; k++) {
            fill(sbuf, cases[k][0], k);
            for (int v = 0; v < 4; v++) {
                rc = MPI_Send(sbuf, cases[k][0], MPI_BYTE, 1, 10 * v + 1,
                              MPI_COMM_WORLD);
                CHECK(rc == MPI_SUCCESS,
                      "the sender of a truncated message got an error "
                      "(case %d variant %d): %d", k, v, rc);
                followup_send(1, 10 * v + 2, k);
            }
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        /* E: Waitall / Testall / Waitsome / Waitany / Test over two
           receives, one truncated */
        for (int v = 0; v < 5; v++)
            for (int k = 0; k < NCASES; k++) {
                fill(sbuf, cases[k][0], k);
                CHECK_MPI(MPI_Send(sbuf, 8, MPI_BYTE, 1, 50, MPI_COMM_WORLD));
                CHECK_MPI(MPI_Send(sbuf, cases[k][0], MPI_BYTE, 1, 51,
                                   MPI_COMM_WORLD));
                followup_send(1, 52, k);
            }
    } else if (rank == 1) {
        for (int k = 0; k < NCASES; k++) {
            int room = cases[k][1];
            /* A */
            prepare(room);
            st.MPI_SOURCE = st.MPI_TAG = -5;
            rc = MPI_Recv(rbuf, room, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &st);
            CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
            CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 1,
                  "truncated Recv: status source %d tag %d", st.MPI_SOURCE,
                  st.MPI_TAG);
            guards(room, "Recv", k);
            followup_recv(0, 2, k);
            /* B */
            prepare(room);
            CHECK_MPI(MPI_Irecv(rbuf, room, MPI_BYTE, 0, 11, MPI_COMM_WORLD,
                                &rq));
            rc = MPI_Wait(&rq, &st);
            CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
            CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 11,
                  "truncated Irecv+Wait: status source %d tag %d",
                  st.MPI_SOURCE, st.MPI_TAG);
            guards(room, "Irecv+Wait", k);
            followup_recv(0, 12, k);
            /* C */
            prepare(room);
            rc = MPI_Recv(rbuf, room, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                          MPI_COMM_WORLD, &st);
            CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
            CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 21,
                  "truncated wildcard Recv: status source %d tag %d",
                  st.MPI_SOURCE, st.MPI_TAG);
            guards(room, "wildcard Recv", k);
            followup_recv(0, 22, k);
            /* D: the send half goes to MPI_PROC_NULL */
            prepare(room);
            rc = MPI_Sendrecv(sbuf, 1, MPI_BYTE, MPI_PROC_NULL, 0, rbuf, room,
                              MPI_BYTE, 0, 31, MPI_COMM_WORLD, &st);
            CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
            guards(room, "Sendrecv", k);
            followup_recv(0, 32, k);
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        unsigned char small[8];
        for (int v = 0; v < 5; v++)
            for (int k = 0; k < NCASES; k++) {
                int room = cases[k][1], count = -1, flag = 0, idx = -1;
                MPI_Request rqs[2];
                MPI_Status sts[2];
                prepare(room);
                CHECK_MPI(MPI_Irecv(small, 8, MPI_BYTE, 0, 50, MPI_COMM_WORLD,
                                    &rqs[0]));
                CHECK_MPI(MPI_Irecv(rbuf, room, MPI_BYTE, 0, 51,
                                    MPI_COMM_WORLD, &rqs[1]));
                sts[0].MPI_ERROR = sts[1].MPI_ERROR = -1;
                const char *what = "?";
                switch (v) {
                case 0:
                    what = "Waitall";
                    rc = MPI_Waitall(2, rqs, sts);
                    break;
                case 1:
                    what = "Testall";
                    do
                        rc = MPI_Testall(2, rqs, &flag, sts);
                    while (rc == MPI_SUCCESS && !flag);
                    break;
                case 2: { /* Waitsome until both are done */
                    int n = 0, done = 0, ind[2];
                    MPI_Status tmp[2];
                    what = "Waitsome";
                    rc = MPI_SUCCESS;
                    while (done < 2) {
                        int r = MPI_Waitsome(2, rqs, &n, ind, tmp);
                        CHECK(r == MPI_SUCCESS || r == MPI_ERR_IN_STATUS,
                              "Waitsome returned %d", r);
                        CHECK(n >= 1 && n <= 2, "Waitsome outcount %d", n);
                        for (int i = 0; i < n; i++) {
                            sts[ind[i]] = tmp[i];
                            if (r == MPI_SUCCESS)
                                sts[ind[i]].MPI_ERROR = MPI_SUCCESS;
                        }
                        if (r != MPI_SUCCESS)
                            rc = r;
                        done += n;
                    }
                    break;
                }
                case 3: /* Waitany twice: the truncated one returns it */
                    what = "Waitany";
                    for (int i = 0; i < 2; i++) {
                        int r = MPI_Waitany(2, rqs, &idx, &st);
                        CHECK(idx == 0 || idx == 1, "Waitany index %d", idx);
                        if (idx == 1)
                            CHECK_CLASS(r, MPI_ERR_TRUNCATE);
                        else
                            CHECK(r == MPI_SUCCESS, "Waitany: %d", r);
                    }
                    rc = MPI_ERR_IN_STATUS; /* nothing more to check */
                    break;
                case 4: /* Test each */
                    what = "Test";
                    do
                        CHECK_MPI(MPI_Test(&rqs[0], &flag, &sts[0]));
                    while (!flag);
                    do
                        rc = MPI_Test(&rqs[1], &flag, &sts[1]);
                    while (rc == MPI_SUCCESS && !flag);
                    CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
                    rc = MPI_ERR_IN_STATUS;
                    break;
                }
                CHECK(rc == MPI_ERR_IN_STATUS,
                      "%s with a truncated receive returned %d, expected "
                      "MPI_ERR_IN_STATUS", what, rc);
                if (v <= 2) {
                    int cls = -1;
                    CHECK(sts[0].MPI_ERROR == MPI_SUCCESS,
                          "%s: MPI_ERROR of the good receive is %d", what,
                          sts[0].MPI_ERROR);
                    CHECK_MPI(MPI_Error_class(sts[1].MPI_ERROR, &cls));
                    CHECK(cls == MPI_ERR_TRUNCATE,
                          "%s: MPI_ERROR of the truncated receive has class "
                          "%d", what, cls);
                    CHECK(sts[1].MPI_SOURCE == 0 && sts[1].MPI_TAG == 51,
                          "%s: truncated status source %d tag %d", what,
                          sts[1].MPI_SOURCE, sts[1].MPI_TAG);
                    CHECK_MPI(MPI_Get_count(&sts[0], MPI_BYTE, &count));
                    CHECK(count == 8, "%s: good receive count %d", what,
                          count);
                }
                CHECK(rqs[0] == MPI_REQUEST_NULL && rqs[1] == MPI_REQUEST_NULL,
                      "%s: requests not freed", what);
                guards(room, what, k);
                followup_recv(0, 52, k);
            }
    }

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    free(sbuf);
    free(rbuf);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
