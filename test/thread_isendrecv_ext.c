/* thread_isendrecv_ext: under MPI_THREAD_MULTIPLE four threads per rank each run MPI_Isendrecv and MPI_Isendrecv_replace ring shifts at once (a tag per thread; small, and large enough for the rendezvous), completed by Wait, Test, MPI_Request_get_status_all then Waitall, MPI_Request_get_status_some then Waitsome; every payload arrives from the right neighbour's same thread, in order. */
/* shmpi-test: np=2,4 timeout=120 threads ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "thread_multiple.h"

#define THREADS 4
#define ROUNDS 400
#define BIG 20000 /* ints: beyond the eager limit */

static int rank, size, left, right;

struct worker {
    int id;
    int *out, *in;
};

static void fill(int *buf, int n, int from, int t, int round)
{
    for (int i = 0; i < n; i++)
        buf[i] = ((from * THREADS + t) * ROUNDS + round) * 7 + i;
}

static void check_in(const int *buf, int n, int from, int t, int round,
                     const char *how)
{
    for (int i = 0; i < n; i += n > 16 ? 997 : 1)
        CHECK(buf[i] == ((from * THREADS + t) * ROUNDS + round) * 7 + i,
              "thread %d round %d (%s, %d ints): [%d] = %d", t, round, how, n,
              i, buf[i]);
}

/* Complete r one of four ways, by round. */
static void complete(MPI_Request *r, int round, MPI_Status *st)
{
    int flag = 0, outcount = 0, idx[1];
    switch (round % 4) {
    case 0:
        CHECK_MPI(MPI_Wait(r, st));
        break;
    case 1:
        while (!flag)
            CHECK_MPI(MPI_Test(r, &flag, st));
        break;
    case 2:
        while (!flag)
            CHECK_MPI(MPI_Request_get_status_all(1, r, &flag, st));
        CHECK(*r != MPI_REQUEST_NULL, "get_status_all freed the request");
        CHECK_MPI(MPI_Waitall(1, r, st));
        break;
    default:
        while (outcount < 1)
            CHECK_MPI(MPI_Request_get_status_some(1, r, &outcount, idx, st));
        CHECK(*r != MPI_REQUEST_NULL, "get_status_some freed the request");
        CHECK_MPI(MPI_Waitsome(1, r, &outcount, idx, st));
        CHECK(outcount == 1, "Waitsome: outcount %d", outcount);
    }
    CHECK(*r == MPI_REQUEST_NULL, "the completion left the request");
}

static void *worker(void *p)
{
    struct worker *w = p;
    int t = w->id;
    for (int round = 0; round < ROUNDS; round++) {
        int n = round % 8 == 7 ? BIG : 1 + round % 16;
        MPI_Request r;
        MPI_Status st;
        fill(w->out, n, rank, t, round);
        if (round % 2) {
            CHECK_MPI(MPI_Isendrecv(w->out, n, MPI_INT, right, t, w->in, n,
                                    MPI_INT, left, t, MPI_COMM_WORLD, &r));
            complete(&r, round / 2, &st);
            check_in(w->in, n, left, t, round, "Isendrecv");
        } else {
            CHECK_MPI(MPI_Isendrecv_replace(w->out, n, MPI_INT, right, t,
                                            left, t, MPI_COMM_WORLD, &r));
            complete(&r, round / 2, &st);
            check_in(w->out, n, left, t, round, "Isendrecv_replace");
        }
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == t,
              "thread %d round %d: status source %d tag %d", t, round,
              st.MPI_SOURCE, st.MPI_TAG);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    struct worker w[THREADS];
    for (int t = 0; t < THREADS; t++) {
        w[t].id = t;
        w[t].out = malloc(BIG * sizeof(int));
        w[t].in = malloc(BIG * sizeof(int));
        CHECK(w[t].out && w[t].in, "no memory");
    }
    mt_run(THREADS, worker, w, sizeof w[0]);
    for (int t = 0; t < THREADS; t++) {
        free(w[t].out);
        free(w[t].in);
    }
    CHECK_MPI(MPI_Finalize());
    return 0;
}
