/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_recv_sig - receives whose type signature differs from their
 * message's (MPI-3.1 3.3.1), one form per run, or, with "ok", the
 * forms whose signatures agree however they are laid out: mistakes for
 * mpirun --check to report (test/check-sig.sh), np = 2.  Every
 * mismatched pair has equal sizes, so that the program runs here.
 *
 *   int-float   MPI_Send 4 MPI_INT, MPI_Recv 4 MPI_FLOAT (the message
 *               arrives before the receive)
 *   struct      MPI_Send 1 struct {int, int, double}, MPI_Irecv 2
 *               MPI_DOUBLE (the receive posted before the message)
 *   large       MPI_Send 100000 MPI_INT, MPI_Recv 100000 MPI_FLOAT
 *               (past the eager limit: rendezvous)
 *   ssend       MPI_Ssend 4 MPI_DOUBLE, MPI_Recv 8 MPI_INT
 *   bsend       MPI_Bsend 4 MPI_INT, MPI_Recv 4 MPI_UNSIGNED
 *   int32       MPI_Send 4 MPI_INT, MPI_Recv 4 MPI_INT32_T: two names
 *   prefix      MPI_Send 3 MPI_INT, MPI_Recv 8 MPI_FLOAT (longer)
 *   mrecv       MPI_Send 3 MPI_FLOAT, MPI_Mprobe + MPI_Mrecv 3 MPI_INT
 *   self        rank 0: MPI_Isend 2 MPI_LONG to itself, MPI_Recv 2
 *               MPI_DOUBLE
 *   ok          none of these: every pair matches
 * Each mismatched form is one report on the receiving rank.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

static MPI_Comm w;
static int rank;

/* {int, int, double}: 16 bytes, the size of 2 doubles */
static MPI_Datatype pair_type(void)
{
    MPI_Datatype t;
    int len[2] = {2, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, len, disp, types, &t);
    MPI_Type_commit(&t);
    return t;
}

/* rank 0 sends (buf, n, st) with tag; rank 1 receives (rbuf, rn, rt) */
static void pass(const void *buf, int n, MPI_Datatype st, void *rbuf,
                 int rn, MPI_Datatype rt, int tag)
{
    if (rank == 0)
        MPI_Send(buf, n, st, 1, tag, w);
    else
        MPI_Recv(rbuf, rn, rt, 0, tag, w, MPI_STATUS_IGNORE);
}

static void int_float(void)
{
    int a[4] = {1, 2, 3, 4};
    float f[4];
    if (rank == 0)
        MPI_Send(a, 4, MPI_INT, 1, 1, w);
    MPI_Barrier(w);
    if (rank == 1)
        MPI_Recv(f, 4, MPI_FLOAT, 0, 1, w, MPI_STATUS_IGNORE);
}

static void structure(void)
{
    double d[2];
    struct { int i[2]; double d; } s = {{1, 2}, 3.0};
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Datatype t = pair_type();
    if (rank == 1)
        MPI_Irecv(d, 2, MPI_DOUBLE, 0, 2, w, &r);
    MPI_Barrier(w);
    if (rank == 0)
        MPI_Send(&s, 1, t, 1, 2, w);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Type_free(&t);
}

static void large(void)
{
    enum { N = 100000 };
    void *b = calloc(N, 4);
    pass(b, N, MPI_INT, b, N, MPI_FLOAT, 3);
    free(b);
}

static void ssend(void)
{
    double d[4] = {0};
    int a[8];
    if (rank == 0)
        MPI_Ssend(d, 4, MPI_DOUBLE, 1, 4, w);
    else
        MPI_Recv(a, 8, MPI_INT, 0, 4, w, MPI_STATUS_IGNORE);
}

static void bsend(void)
{
    static char space[1024];
    int a[4] = {0}, size;
    unsigned u[4];
    void *was;
    if (rank == 0) {
        MPI_Buffer_attach(space, sizeof space);
        MPI_Bsend(a, 4, MPI_INT, 1, 5, w);
        MPI_Buffer_detach(&was, &size);
    } else {
        MPI_Recv(u, 4, MPI_UNSIGNED, 0, 5, w, MPI_STATUS_IGNORE);
    }
}

static void int32(void)
{
    int a[4] = {0};
    int32_t b[4];
    pass(a, 4, MPI_INT, b, 4, MPI_INT32_T, 6);
}

static void prefix(void)
{
    int a[3] = {0};
    float f[8];
    pass(a, 3, MPI_INT, f, 8, MPI_FLOAT, 7);
}

static void mrecv(void)
{
    float f[3] = {0};
    int a[3];
    MPI_Message m;
    if (rank == 0) {
        MPI_Send(f, 3, MPI_FLOAT, 1, 8, w);
    } else {
        MPI_Mprobe(0, 8, w, &m, MPI_STATUS_IGNORE);
        MPI_Mrecv(a, 3, MPI_INT, &m, MPI_STATUS_IGNORE);
    }
}

static void self(void)
{
    long l[2] = {0};
    double d[2];
    MPI_Request r;
    if (rank != 0)
        return;
    MPI_Isend(l, 2, MPI_LONG, 0, 9, w, &r);
    MPI_Recv(d, 2, MPI_DOUBLE, 0, 9, w, MPI_STATUS_IGNORE);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* one signature, three layouts; a longer receive; pair types */
static void ok_layouts(void)
{
    int a[8] = {0}, b[8];
    MPI_Datatype c4, v4, c2;
    MPI_Type_contiguous(4, MPI_INT, &c4);
    MPI_Type_vector(4, 1, 2, MPI_INT, &v4);
    MPI_Type_contiguous(2, MPI_2INT, &c2);
    MPI_Type_commit(&c4);
    MPI_Type_commit(&v4);
    MPI_Type_commit(&c2);
    pass(a, 1, c4, b, 4, MPI_INT, 20);
    pass(a, 4, MPI_INT, b, 1, v4, 21);
    pass(a, 1, v4, b, 1, c4, 22);
    pass(a, 2, MPI_INT, b, 8, MPI_INT, 23);  /* receive longer */
    pass(a, 1, c2, b, 1, c4, 24);            /* 2 x MPI_2INT = 4 ints */
    pass(a, 2, MPI_LONG_LONG, b, 2, MPI_LONG_LONG_INT, 25); /* one type */
    MPI_Type_free(&c4);
    MPI_Type_free(&v4);
    MPI_Type_free(&c2);
}

/* {int, int, double} as struct and as three blocks of a struct */
static void ok_struct(void)
{
    struct { int i[2]; double d; } s = {{1, 2}, 3.0}, r;
    MPI_Datatype t = pair_type(), u;
    int len[3] = {1, 1, 1};
    MPI_Aint disp[3] = {0, 4, 8};
    MPI_Datatype types[3] = {MPI_INT, MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(3, len, disp, types, &u);
    MPI_Type_commit(&u);
    pass(&s, 1, t, &r, 1, u, 26);
    MPI_Type_free(&t);
    MPI_Type_free(&u);
}

/* untyped: MPI_BYTE on either side, MPI_PACKED with MPI_Pack/Unpack */
static void ok_untyped(void)
{
    int a[4] = {0}, b[4];
    char raw[64];
    pass(a, 4, MPI_INT, raw, 16, MPI_BYTE, 30);
    pass(raw, 16, MPI_BYTE, b, 4, MPI_INT, 31);
    int pos = 0, x = 7;
    double y = 2.5;
    if (rank == 0) {
        MPI_Pack(&x, 1, MPI_INT, raw, sizeof raw, &pos, w);
        MPI_Pack(&y, 1, MPI_DOUBLE, raw, sizeof raw, &pos, w);
        MPI_Send(raw, pos, MPI_PACKED, 1, 32, w);
    } else {
        MPI_Recv(raw, sizeof raw, MPI_PACKED, 0, 32, w, MPI_STATUS_IGNORE);
        MPI_Unpack(raw, sizeof raw, &pos, &x, 1, MPI_INT, w);
        MPI_Unpack(raw, sizeof raw, &pos, &y, 1, MPI_DOUBLE, w);
    }
    pass(a, 0, MPI_INT, b, 4, MPI_FLOAT, 33); /* empty: no types */
}

/* the other calls that send and receive, each matching */
static void ok_calls(void)
{
    int a[4] = {0}, b[4], flag;
    MPI_Request r[2];
    MPI_Message m;
    int peer = 1 - rank;
    MPI_Sendrecv(a, 4, MPI_INT, peer, 40, b, 4, MPI_INT, peer, 40, w,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv_replace(a, 4, MPI_INT, peer, 41, peer, 41, w,
                         MPI_STATUS_IGNORE);
    MPI_Irecv(b, 4, MPI_INT, peer, 42, w, &r[0]);
    MPI_Issend(a, 4, MPI_INT, peer, 42, w, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    MPI_Recv_init(b, 4, MPI_INT, peer, 43, w, &r[0]);
    MPI_Send_init(a, 4, MPI_INT, peer, 43, w, &r[1]);
    for (int i = 0; i < 2; i++) {
        MPI_Startall(2, r);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
    MPI_Isend(a, 4, MPI_INT, peer, 44, w, &r[0]);
    MPI_Improbe(peer, 44, w, &flag, &m, MPI_STATUS_IGNORE);
    if (!flag)
        MPI_Mprobe(peer, 44, w, &m, MPI_STATUS_IGNORE);
    MPI_Mrecv(b, 4, MPI_INT, &m, MPI_STATUS_IGNORE);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Isendrecv(a, 4, MPI_INT, peer, 45, b, 4, MPI_INT, peer, 45, w,
                  &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
}

static void ok_big_and_buffered(void)
{
    enum { N = 100000 };
    int *b = calloc(N, sizeof *b);
    static char space[1024];
    void *was;
    int size;
    pass(b, N, MPI_INT, b, N, MPI_INT, 50);
    if (rank == 0) {
        MPI_Buffer_attach(space, sizeof space);
        MPI_Bsend(b, 4, MPI_FLOAT, 1, 51, w);
        MPI_Buffer_detach(&was, &size);
        MPI_Send(b, 4, MPI_INT, 0, 52, MPI_COMM_SELF);
        MPI_Recv(b + 4, 4, MPI_INT, 0, 52, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(b, 4, MPI_FLOAT, 0, 51, w, MPI_STATUS_IGNORE);
    }
    free(b);
}

static const struct { const char *name; void (*run)(void); } forms[] = {
    {"int-float", int_float}, {"struct", structure}, {"large", large},
    {"ssend", ssend}, {"bsend", bsend}, {"int32", int32},
    {"prefix", prefix}, {"mrecv", mrecv}, {"self", self},
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    w = MPI_COMM_WORLD;
    MPI_Comm_rank(w, &rank);
    const char *form = argc > 1 ? argv[1] : "ok";
    if (strcmp(form, "ok") == 0) {
        ok_layouts();
        ok_struct();
        ok_untyped();
        ok_calls();
        ok_big_and_buffered();
    } else {
        size_t i = 0, n = sizeof forms / sizeof forms[0];
        while (i < n && strcmp(forms[i].name, form) != 0)
            i++;
        if (i == n)
            MPI_Abort(w, 2);
        forms[i].run();
    }
    MPI_Finalize();
    return 0;
}
