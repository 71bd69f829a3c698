/* p2p_c_forms_ext: every large-count (_c) point-to-point call of MPI-4.0 moves ordinary messages as its int form does (data, status, MPI_Get_count_c), refuses a negative count, or one whose bytes overflow an MPI_Count, with MPI_ERR_COUNT, and the buffer calls' _c forms attach and give back sizes beyond an int (the int detach says MPI_UNDEFINED). */
/* shmpi-test: np=2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: Open MPI 4.1 has no _c forms.  Rank 0 sends, rank 1 receives;
 * each message carries N ints that say which call sent them.
 */
#include "check.h"

#include <stdlib.h>

#define N 100

static void fill(int *b, int tag)
{
    for (int i = 0; i < N; i++)
        b[i] = tag * 1000 + i;
}

static void expect(const int *b, int tag, const MPI_Status *st,
                   const char *what)
{
    for (int i = 0; i < N; i++)
        CHECK(b[i] == tag * 1000 + i, "%s: element %d is %d", what, i, b[i]);
    MPI_Count c = -1;
    CHECK_MPI(MPI_Get_count_c(st, MPI_INT, &c));
    CHECK(c == N, "%s: MPI_Get_count_c says %lld", what, (long long)c);
    CHECK(st->MPI_TAG == tag, "%s: tag %d", what, st->MPI_TAG);
}

/* tags 1..: one per sending call */
enum { T_SEND = 1, T_SSEND, T_RSEND, T_BSEND, T_ISEND, T_ISSEND, T_IRSEND,
       T_IBSEND, T_SEND_INIT, T_SSEND_INIT, T_RSEND_INIT, T_BSEND_INIT,
       T_MRECV, T_IMRECV, T_LAST };

static void sender(void)
{
    int b[N];
    MPI_Request r;
    int bufsize = 4 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    void *bb = malloc((size_t)bufsize);
    CHECK_MPI(MPI_Buffer_attach_c(bb, bufsize));
    /* the receiver posts its ready-mode receives first */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    fill(b, T_SEND);
    CHECK_MPI(MPI_Send_c(b, N, MPI_INT, 1, T_SEND, MPI_COMM_WORLD));
    fill(b, T_SSEND);
    CHECK_MPI(MPI_Ssend_c(b, N, MPI_INT, 1, T_SSEND, MPI_COMM_WORLD));
    fill(b, T_RSEND);
    CHECK_MPI(MPI_Rsend_c(b, N, MPI_INT, 1, T_RSEND, MPI_COMM_WORLD));
    fill(b, T_BSEND);
    CHECK_MPI(MPI_Bsend_c(b, N, MPI_INT, 1, T_BSEND, MPI_COMM_WORLD));
    int (*isends[])(const void *, MPI_Count, MPI_Datatype, int, int,
                    MPI_Comm, MPI_Request *) = {MPI_Isend_c, MPI_Issend_c,
                                                MPI_Irsend_c, MPI_Ibsend_c};
    for (int k = 0; k < 4; k++) {
        fill(b, T_ISEND + k);
        CHECK_MPI(isends[k](b, N, MPI_INT, 1, T_ISEND + k, MPI_COMM_WORLD,
                            &r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    int (*inits[])(const void *, MPI_Count, MPI_Datatype, int, int,
                   MPI_Comm, MPI_Request *) = {MPI_Send_init_c,
                                               MPI_Ssend_init_c,
                                               MPI_Rsend_init_c,
                                               MPI_Bsend_init_c};
    for (int k = 0; k < 4; k++) {
        fill(b, T_SEND_INIT + k);
        CHECK_MPI(inits[k](b, N, MPI_INT, 1, T_SEND_INIT + k, MPI_COMM_WORLD,
                           &r));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Request_free(&r));
    }
    for (int t = T_MRECV; t <= T_IMRECV; t++) {
        fill(b, t);
        CHECK_MPI(MPI_Send_c(b, N, MPI_INT, 1, t, MPI_COMM_WORLD));
    }
    void *back;
    MPI_Count size;
    CHECK_MPI(MPI_Buffer_detach_c(&back, &size));
    CHECK(back == bb && size == bufsize, "MPI_Buffer_detach_c gave %p, %lld",
          back, (long long)size);
    free(bb);
}

static void receiver(void)
{
    int b[N], rb[N];
    MPI_Status st;
    MPI_Request rr;
    CHECK_MPI(MPI_Irecv_c(rb, N, MPI_INT, 0, T_RSEND, MPI_COMM_WORLD, &rr));
    MPI_Request pre[2];
    int pb[2][N];
    CHECK_MPI(MPI_Irecv_c(pb[0], N, MPI_INT, 0, T_IRSEND, MPI_COMM_WORLD,
                          &pre[0]));
    CHECK_MPI(MPI_Recv_init_c(pb[1], N, MPI_INT, 0, T_RSEND_INIT,
                              MPI_COMM_WORLD, &pre[1]));
    CHECK_MPI(MPI_Start(&pre[1]));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int t = T_SEND; t < T_MRECV; t++) {
        if (t == T_RSEND) {
            CHECK_MPI(MPI_Wait(&rr, &st));
            expect(rb, t, &st, "MPI_Rsend_c");
        } else if (t == T_IRSEND) {
            CHECK_MPI(MPI_Wait(&pre[0], &st));
            expect(pb[0], t, &st, "MPI_Irsend_c");
        } else if (t == T_RSEND_INIT) {
            CHECK_MPI(MPI_Wait(&pre[1], &st));
            expect(pb[1], t, &st, "MPI_Rsend_init_c");
            CHECK_MPI(MPI_Request_free(&pre[1]));
        } else {
            CHECK_MPI(MPI_Recv_c(b, N, MPI_INT, 0, t, MPI_COMM_WORLD, &st));
            expect(b, t, &st, "MPI_Recv_c");
        }
    }
    MPI_Message m;
    CHECK_MPI(MPI_Mprobe(0, T_MRECV, MPI_COMM_WORLD, &m, &st));
    CHECK_MPI(MPI_Mrecv_c(b, N, MPI_INT, &m, &st));
    expect(b, T_MRECV, &st, "MPI_Mrecv_c");
    CHECK_MPI(MPI_Mprobe(0, T_IMRECV, MPI_COMM_WORLD, &m, &st));
    CHECK_MPI(MPI_Imrecv_c(b, N, MPI_INT, &m, &rr));
    CHECK_MPI(MPI_Wait(&rr, &st));
    expect(b, T_IMRECV, &st, "MPI_Imrecv_c");
}

/* Both ranks: the send-receive calls, one ring exchange each. */
static void exchanges(int rank)
{
    int other = 1 - rank, s[N], r[N];
    MPI_Status st;
    MPI_Request q;
    fill(s, 20 + rank);
    CHECK_MPI(MPI_Sendrecv_c(s, N, MPI_INT, other, 20 + rank, r, N, MPI_INT,
                             other, 20 + other, MPI_COMM_WORLD, &st));
    expect(r, 20 + other, &st, "MPI_Sendrecv_c");
    fill(r, 30 + rank);
    CHECK_MPI(MPI_Sendrecv_replace_c(r, N, MPI_INT, other, 30 + rank, other,
                                     30 + other, MPI_COMM_WORLD, &st));
    expect(r, 30 + other, &st, "MPI_Sendrecv_replace_c");
    fill(s, 40 + rank);
    CHECK_MPI(MPI_Isendrecv_c(s, N, MPI_INT, other, 40 + rank, r, N, MPI_INT,
                              other, 40 + other, MPI_COMM_WORLD, &q));
    CHECK_MPI(MPI_Wait(&q, &st));
    expect(r, 40 + other, &st, "MPI_Isendrecv_c");
    fill(r, 50 + rank);
    CHECK_MPI(MPI_Isendrecv_replace_c(r, N, MPI_INT, other, 50 + rank, other,
                                      50 + other, MPI_COMM_WORLD, &q));
    CHECK_MPI(MPI_Wait(&q, &st));
    expect(r, 50 + other, &st, "MPI_Isendrecv_replace_c");
}

/* A negative count is MPI_ERR_COUNT in every form. */
static void negative_counts(void)
{
    int b[1];
    MPI_Request q;
    MPI_Status st;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Send_c(b, -1, MPI_INT, 0, 0, MPI_COMM_WORLD),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Recv_c(b, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &st),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Isend_c(b, -((MPI_Count)1 << 40), MPI_INT, 0, 0,
                            MPI_COMM_WORLD, &q),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Irecv_c(b, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &q),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Send_init_c(b, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &q),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Sendrecv_c(b, 1, MPI_INT, 0, 0, b, -1, MPI_INT, 0, 0,
                               MPI_COMM_WORLD, &st),
                MPI_ERR_COUNT);
    /* 2^62 ints are 2^64 bytes: no count of bytes holds that */
    CHECK_CLASS(MPI_Send_c(b, (MPI_Count)1 << 62, MPI_INT, 0, 0,
                           MPI_COMM_WORLD),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Irecv_c(b, (MPI_Count)1 << 62, MPI_INT, 0, 0,
                            MPI_COMM_WORLD, &q),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Buffer_attach_c(b, -1), MPI_ERR_ARG);
    MPI_Status fake;
    CHECK_CLASS(MPI_Status_set_elements_c(&fake, MPI_INT, -1), MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD,
                                      MPI_ERRORS_ARE_FATAL));
}

/* A buffer's size beyond an int: attached by a _c form (never touched:
   nothing is sent), given back whole by the _c detach and as
   MPI_UNDEFINED by the int one. */
static void big_buffers(void)
{
    MPI_Count big = ((MPI_Count)1 << 31) + 4096;
    char *mem = malloc((size_t)big);
    CHECK(mem != NULL, "no memory");
    void *back;
    MPI_Count csize;
    int isize;
    CHECK_MPI(MPI_Buffer_attach_c(mem, big));
    CHECK_MPI(MPI_Buffer_detach(&back, &isize));
    CHECK(back == mem && isize == MPI_UNDEFINED,
          "MPI_Buffer_detach: %p, size %d", back, isize);
    CHECK_MPI(MPI_Comm_attach_buffer_c(MPI_COMM_SELF, mem, big));
    CHECK_MPI(MPI_Comm_detach_buffer_c(MPI_COMM_SELF, &back, &csize));
    CHECK(back == mem && csize == big, "MPI_Comm_detach_buffer_c: %p, %lld",
          back, (long long)csize);
    CHECK_MPI(MPI_Comm_attach_buffer_c(MPI_COMM_SELF, mem, big));
    CHECK_MPI(MPI_Comm_detach_buffer(MPI_COMM_SELF, &back, &isize));
    CHECK(isize == MPI_UNDEFINED, "MPI_Comm_detach_buffer: size %d", isize);
    free(mem);
    /* MPI_Status_set_elements_c beyond an int */
    MPI_Status st;
    MPI_Count e = -1;
    int ie = 0;
    CHECK_MPI(MPI_Status_set_elements_c(&st, MPI_INT, big));
    CHECK_MPI(MPI_Get_elements_c(&st, MPI_INT, &e));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &ie));
    CHECK(e == big && ie == MPI_UNDEFINED,
          "MPI_Status_set_elements_c: %lld elements, count %d", (long long)e,
          ie);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        sender();
    else
        receiver();
    exchanges(rank);
    negative_counts();
    big_buffers();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return 0;
}
