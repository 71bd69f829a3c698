/* intercomm_p2p: point-to-point on an intercommunicator (even against odd ranks): every send mode blocking, nonblocking and persistent, to every remote rank, received with MPI_ANY_SOURCE/MPI_ANY_TAG and checked by status (MPI_SOURCE is a remote rank); blocking receives, sendrecv(_replace), probe/iprobe, mprobe/improbe/mrecv/imrecv, MPI_PROC_NULL, a large message of a derived type; isolation from the local communicator, from world and from a second intercommunicator of the same groups. */
/* shmpi-test: np=2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "intercomm.h"

enum mode { STD, SYNC, READY, BUF, ISTD, ISYNC, IREADY, IBUF, PSTD, PSYNC,
            PREADY, PBUF, MODES };

static int rank, size, me, n, rn;
static int remote_world[64];  /* remote rank -> world rank */

static void send_one(enum mode m, int *buf, int dest, MPI_Comm c,
                     MPI_Request *req)
{
    int tag = m;
    *req = MPI_REQUEST_NULL;
    switch (m) {
    case STD: CHECK_MPI(MPI_Send(buf, 3, MPI_INT, dest, tag, c)); break;
    case SYNC: CHECK_MPI(MPI_Ssend(buf, 3, MPI_INT, dest, tag, c)); break;
    case READY: CHECK_MPI(MPI_Rsend(buf, 3, MPI_INT, dest, tag, c)); break;
    case BUF: CHECK_MPI(MPI_Bsend(buf, 3, MPI_INT, dest, tag, c)); break;
    case ISTD: CHECK_MPI(MPI_Isend(buf, 3, MPI_INT, dest, tag, c, req));
        break;
    case ISYNC: CHECK_MPI(MPI_Issend(buf, 3, MPI_INT, dest, tag, c, req));
        break;
    case IREADY: CHECK_MPI(MPI_Irsend(buf, 3, MPI_INT, dest, tag, c, req));
        break;
    case IBUF: CHECK_MPI(MPI_Ibsend(buf, 3, MPI_INT, dest, tag, c, req));
        break;
    case PSTD: CHECK_MPI(MPI_Send_init(buf, 3, MPI_INT, dest, tag, c, req));
        break;
    case PSYNC:
        CHECK_MPI(MPI_Ssend_init(buf, 3, MPI_INT, dest, tag, c, req));
        break;
    case PREADY:
        CHECK_MPI(MPI_Rsend_init(buf, 3, MPI_INT, dest, tag, c, req));
        break;
    case PBUF:
        CHECK_MPI(MPI_Bsend_init(buf, 3, MPI_INT, dest, tag, c, req));
        break;
    default: CHECK(0, "mode %d", m);
    }
    if (m >= PSTD)
        CHECK_MPI(MPI_Start(req));
}

/* A message (world rank of the sender, mode, remote rank it went to)
   came from remote rank st->MPI_SOURCE, once. */
static void check_msg(const int *v, const MPI_Status *st, int tag, int *seen,
                      const char *what)
{
    int src = st->MPI_SOURCE;
    CHECK(src >= 0 && src < rn, "%s: MPI_SOURCE %d is not a remote rank",
          what, src);
    CHECK(st->MPI_TAG == tag && v[0] == remote_world[src] && v[1] == tag &&
              v[2] == me,
          "%s: from remote rank %d (world %d) tag %d: (%d, %d, %d)", what,
          src, remote_world[src], st->MPI_TAG, v[0], v[1], v[2]);
    CHECK(seen[src]++ == 0, "%s: two messages from remote rank %d", what,
          src);
}

/* Each mode: receives from MPI_ANY_SOURCE, MPI_ANY_TAG posted first (for
   ready mode), then one message to every remote rank. */
static void every_mode(MPI_Comm inter)
{
    for (int m = 0; m < MODES; m++) {
        int out[64][3], in[64][3], seen[64] = {0};
        MPI_Request rreq[64], sreq[64];
        MPI_Status st[64];
        for (int q = 0; q < rn; q++)
            CHECK_MPI(MPI_Irecv(in[q], 3, MPI_INT, MPI_ANY_SOURCE,
                                MPI_ANY_TAG, inter, &rreq[q]));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* all receives posted */
        for (int q = 0; q < rn; q++) {
            out[q][0] = rank;
            out[q][1] = m;
            out[q][2] = q;
            send_one(m, out[q], q, inter, &sreq[q]);
        }
        CHECK_MPI(MPI_Waitall(rn, rreq, st));
        for (int q = 0; q < rn; q++)
            check_msg(in[q], &st[q], m, seen, "every_mode");
        CHECK_MPI(MPI_Waitall(rn, sreq, MPI_STATUSES_IGNORE));
        if (m >= PSTD) { /* once more, then free */
            for (int q = 0; q < rn; q++)
                CHECK_MPI(MPI_Irecv(in[q], 3, MPI_INT, q, m, inter, &rreq[q]));
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            CHECK_MPI(MPI_Startall(rn, sreq));
            CHECK_MPI(MPI_Waitall(rn, rreq, st));
            CHECK_MPI(MPI_Waitall(rn, sreq, MPI_STATUSES_IGNORE));
            for (int q = 0; q < rn; q++) {
                CHECK_MPI(MPI_Request_free(&sreq[q]));
                CHECK(st[q].MPI_SOURCE == q && in[q][0] == remote_world[q],
                      "restarted persistent send: from %d: %d",
                      st[q].MPI_SOURCE, in[q][0]);
            }
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* buffered ones out */
    }
}

/* Blocking receives, from a named source and from any. */
static void blocking_receives(MPI_Comm inter)
{
    int out[64][3], v[3], seen[64] = {0};
    MPI_Request s[64];
    MPI_Status st;
    for (int q = 0; q < rn; q++) {
        out[q][0] = rank;
        out[q][1] = 20 + q % 2;
        out[q][2] = q;
        CHECK_MPI(MPI_Isend(out[q], 3, MPI_INT, q, 20 + q % 2, inter, &s[q]));
    }
    for (int q = rn - 1; q >= 0; q--) { /* named, against arrival order */
        CHECK_MPI(MPI_Recv(v, 3, MPI_INT, q, MPI_ANY_TAG, inter, &st));
        check_msg(v, &st, 20 + me % 2, seen, "named source");
    }
    CHECK_MPI(MPI_Waitall(rn, s, MPI_STATUSES_IGNORE));
    for (int q = 0; q < rn; q++)
        CHECK_MPI(MPI_Isend(out[q], 3, MPI_INT, q, 20 + q % 2, inter, &s[q]));
    memset(seen, 0, sizeof seen);
    for (int q = 0; q < rn; q++) {
        CHECK_MPI(MPI_Recv(v, 3, MPI_INT, MPI_ANY_SOURCE, 20 + me % 2, inter,
                           &st));
        check_msg(v, &st, 20 + me % 2, seen, "any source");
    }
    CHECK_MPI(MPI_Waitall(rn, s, MPI_STATUSES_IGNORE));
}

/* Pairs: local rank r with remote rank r, where both exist. */
static void sendrecv(MPI_Comm inter)
{
    if (me >= rn)
        return;
    int out = rank, in = -1, swap = rank;
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, me, 30, &in, 1, MPI_INT, me,
                           MPI_ANY_TAG, inter, &st));
    CHECK(in == remote_world[me] && st.MPI_SOURCE == me && st.MPI_TAG == 30,
          "sendrecv: %d from %d tag %d", in, st.MPI_SOURCE, st.MPI_TAG);
    CHECK_MPI(MPI_Sendrecv_replace(&swap, 1, MPI_INT, me, 31, me, 31, inter,
                                   &st));
    CHECK(swap == remote_world[me] && st.MPI_SOURCE == me,
          "sendrecv_replace: %d from %d", swap, st.MPI_SOURCE);
}

/* Probe, then matched probe, of one message from every remote rank. */
static void probes(MPI_Comm inter)
{
    int out[64][3], v[3], seen[64] = {0}, seen2[64] = {0};
    MPI_Request s[64];
    MPI_Status st, st2;
    for (int round = 0; round < 2; round++) {
        for (int q = 0; q < rn; q++) {
            out[q][0] = rank;
            out[q][1] = 40;
            out[q][2] = q;
            CHECK_MPI(MPI_Isend(out[q], 3, MPI_INT, q, 40, inter, &s[q]));
        }
        for (int i = 0; i < rn; i++) {
            if (round == 0) {
                int flag = 0;
                if (i % 2)
                    CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, inter,
                                        &st));
                else
                    while (!flag)
                        CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, 40, inter, &flag,
                                             &st));
                CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rn,
                      "probe: MPI_SOURCE %d", st.MPI_SOURCE);
                CHECK_MPI(MPI_Recv(v, 3, MPI_INT, st.MPI_SOURCE, st.MPI_TAG,
                                   inter, &st2));
                check_msg(v, &st2, 40, seen, "probe");
            } else {
                MPI_Message msg;
                int flag = 0;
                if (i % 2) {
                    CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, inter,
                                         &msg, &st));
                    CHECK_MPI(MPI_Mrecv(v, 3, MPI_INT, &msg, &st2));
                } else {
                    MPI_Request r;
                    while (!flag)
                        CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, 40, inter,
                                              &flag, &msg, &st));
                    CHECK_MPI(MPI_Imrecv(v, 3, MPI_INT, &msg, &r));
                    CHECK_MPI(MPI_Wait(&r, &st2));
                }
                CHECK(st.MPI_SOURCE == st2.MPI_SOURCE,
                      "mprobe said %d, mrecv %d", st.MPI_SOURCE,
                      st2.MPI_SOURCE);
                check_msg(v, &st2, 40, seen2, "mprobe");
            }
        }
        CHECK_MPI(MPI_Waitall(rn, s, MPI_STATUSES_IGNORE));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* rounds do not mix */
    }
}

static void proc_null(MPI_Comm inter)
{
    int v = 5;
    MPI_Status st;
    MPI_Request r;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, inter));
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, inter, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
          "receive from MPI_PROC_NULL: source %d tag %d", st.MPI_SOURCE,
          st.MPI_TAG);
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, inter, &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "Irecv from MPI_PROC_NULL");
}

/* A message far past the eager limit, of a strided type, between the
   pairs of sendrecv(). */
static void large(MPI_Comm inter)
{
    if (me >= rn)
        return;
    enum { COUNT = 1 << 18 };
    int *out = malloc(2 * COUNT * sizeof *out);
    int *in = malloc(2 * COUNT * sizeof *in);
    CHECK(out && in, "out of memory");
    for (int i = 0; i < 2 * COUNT; i++) {
        out[i] = rank * 7 + i;
        in[i] = -1;
    }
    MPI_Datatype every_other;
    CHECK_MPI(MPI_Type_vector(COUNT, 1, 2, MPI_INT, &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    MPI_Request r[2];
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(in, 1, every_other, me, 50, inter, &r[0]));
    CHECK_MPI(MPI_Isend(out, 1, every_other, me, 50, inter, &r[1]));
    CHECK_MPI(MPI_Wait(&r[0], &st));
    CHECK_MPI(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
    CHECK(st.MPI_SOURCE == me, "large: source %d", st.MPI_SOURCE);
    for (int i = 0; i < 2 * COUNT; i++)
        CHECK(in[i] == (i % 2 ? -1 : remote_world[me] * 7 + i),
              "large: element %d is %d", i, in[i]);
    CHECK_MPI(MPI_Type_free(&every_other));
    free(out);
    free(in);
}

/*
 * The same tag on four communicators of the same processes: the local
 * one, world, and two intercommunicators of the same groups.  Receives
 * with MPI_ANY_SOURCE and MPI_ANY_TAG on each take only its own message,
 * whether they find it waiting (unexpected) or wait for it (posted).
 */
static void isolation(MPI_Comm x, MPI_Comm y, MPI_Comm local, int posted)
{
    int lsize, lrank;
    CHECK_MPI(MPI_Comm_size(local, &lsize));
    CHECK_MPI(MPI_Comm_rank(local, &lrank));
    MPI_Comm comms[4] = {x, y, local, MPI_COMM_WORLD};
    int dest[4] = {me % rn, me % rn, (lrank + 1) % lsize, (rank + 1) % size};
    int nexpect[4] = {0, 0, 1, 1};
    for (int q = me; q < rn; q += n)
        nexpect[0] = ++nexpect[1];
    int out[4], in[4][64];
    MPI_Request s[4], r[4][64];
    for (int c = 0; c < 4; c++)
        out[c] = 1000 * c + rank;
    if (posted)
        for (int c = 3; c >= 0; c--)
            for (int i = 0; i < nexpect[c]; i++)
                CHECK_MPI(MPI_Irecv(&in[c][i], 1, MPI_INT, MPI_ANY_SOURCE,
                                    MPI_ANY_TAG, comms[c], &r[c][i]));
    for (int c = 0; c < 4; c++)
        CHECK_MPI(MPI_Isend(&out[c], 1, MPI_INT, dest[c], 9, comms[c], &s[c]));
    if (!posted) {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* all sent */
        for (int c = 3; c >= 0; c--)
            for (int i = 0; i < nexpect[c]; i++)
                CHECK_MPI(MPI_Irecv(&in[c][i], 1, MPI_INT, MPI_ANY_SOURCE,
                                    MPI_ANY_TAG, comms[c], &r[c][i]));
    }
    for (int c = 0; c < 4; c++) {
        for (int i = 0; i < nexpect[c]; i++) {
            MPI_Status st;
            CHECK_MPI(MPI_Wait(&r[c][i], &st));
            int v = in[c][i];
            CHECK(v / 1000 == c && st.MPI_TAG == 9,
                  "isolation (posted %d): communicator %d got %d tag %d",
                  posted, c, v, st.MPI_TAG);
            if (c < 2)
                CHECK(v % 1000 == remote_world[st.MPI_SOURCE] &&
                          st.MPI_SOURCE % n == me,
                      "isolation: %d from remote rank %d", v, st.MPI_SOURCE);
        }
    }
    CHECK_MPI(MPI_Waitall(4, s, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(size >= 2 && size <= 64, "run with 2 to 64 ranks");
    MPI_Comm local, x, y;
    parity_intercomm(MPI_COMM_WORLD, 1, &local, &x);
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD,
                                   rank % 2 ? 0 : 1, 2, &y));
    CHECK_MPI(MPI_Comm_rank(x, &me));
    CHECK_MPI(MPI_Comm_size(x, &n));
    CHECK_MPI(MPI_Comm_remote_size(x, &rn));
    for (int q = 0; q < rn; q++)
        remote_world[q] = 2 * q + (rank % 2 ? 0 : 1);

    int bufsize = 64 * (3 * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    void *bsend = malloc(bufsize);
    CHECK(bsend, "out of memory");
    CHECK_MPI(MPI_Buffer_attach(bsend, bufsize));

    /* one phase at a time: wildcard receives take only their phase's */
    void (*phases[])(MPI_Comm) = {every_mode, blocking_receives, sendrecv,
                                  probes, proc_null, large};
    for (size_t i = 0; i < sizeof phases / sizeof *phases; i++) {
        phases[i](x);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    for (int i = 0; i < 4; i++) {
        isolation(x, y, local, i % 2);
        isolation(y, x, local, i % 2);
    }
    every_mode(y);

    CHECK_MPI(MPI_Buffer_detach(&bsend, &bufsize));
    free(bsend);
    CHECK_MPI(MPI_Comm_free(&y));
    CHECK_MPI(MPI_Comm_free(&x));
    CHECK_MPI(MPI_Comm_free(&local));
    if (rank == 0)
        printf("intercomm_p2p at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
