/* p2p_persistent: MPI_Send_init, MPI_Bsend_init, MPI_Ssend_init, MPI_Rsend_init and MPI_Recv_init started again and again around a ring (MPI_Start, MPI_Startall; completed by MPI_Waitall, MPI_Testany, MPI_Waitsome) deliver each round's data with the right status and stay usable; an inactive persistent request is a null one to Wait, Test and Request_get_status (empty status, handle kept), and MPI_Request_free frees it. */
/* shmpi-test: np=1,2,3 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>

#include "check.h"

#define MODES 4
#define ROUNDS 40

static int rank, size, to, from;
static int out[MODES], in[MODES];
static MPI_Request sends[MODES], recvs[MODES];

static void make(void)
{
    int (*init[MODES])(const void *, int, MPI_Datatype, int, int, MPI_Comm,
                       MPI_Request *) = {MPI_Send_init, MPI_Bsend_init,
                                         MPI_Ssend_init, MPI_Rsend_init};
    for (int m = 0; m < MODES; m++) {
        CHECK_MPI(init[m](&out[m], 1, MPI_INT, to, m, MPI_COMM_WORLD,
                          &sends[m]));
        CHECK_MPI(MPI_Recv_init(&in[m], 1, MPI_INT, from, m, MPI_COMM_WORLD,
                                &recvs[m]));
    }
}

static void check_round(int round, MPI_Status *st)
{
    for (int m = 0; m < MODES; m++) {
        CHECK(in[m] == from * 1000 + round * MODES + m, "round %d mode %d: "
              "received %d", round, m, in[m]);
        CHECK(st[m].MPI_SOURCE == from && st[m].MPI_TAG == m,
              "round %d mode %d: source %d tag %d", round, m,
              st[m].MPI_SOURCE, st[m].MPI_TAG);
        in[m] = -1;
    }
}

/* Receives started first and a barrier: the ready send finds its
   receive posted. */
static void start_round(int round)
{
    for (int m = 0; m < MODES; m++)
        CHECK_MPI(MPI_Start(&recvs[m]));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int m = 0; m < MODES; m++)
        out[m] = rank * 1000 + round * MODES + m;
    CHECK_MPI(MPI_Startall(MODES, sends));
}

static void complete_round(int round)
{
    MPI_Status st[MODES];
    int done = 0, idx, flag;
    switch (round % 3) {
    case 0:
        CHECK_MPI(MPI_Waitall(MODES, recvs, st));
        break;
    case 1:
        while (done < MODES) {
            CHECK_MPI(MPI_Testany(MODES, recvs, &idx, &flag, MPI_STATUS_IGNORE));
            if (flag) {
                CHECK(idx != MPI_UNDEFINED, "Testany: all inactive after "
                      "%d of %d", done, MODES);
                st[idx] = (MPI_Status){.MPI_SOURCE = from, .MPI_TAG = idx};
                done++;
            }
        }
        break;
    default:
        while (done < MODES) {
            int n, ind[MODES];
            MPI_Status s[MODES];
            CHECK_MPI(MPI_Waitsome(MODES, recvs, &n, ind, s));
            CHECK(n != MPI_UNDEFINED && n > 0, "Waitsome: outcount %d", n);
            for (int i = 0; i < n; i++)
                st[ind[i]] = s[i];
            done += n;
        }
    }
    CHECK_MPI(MPI_Waitall(MODES, sends, MPI_STATUSES_IGNORE));
    for (int m = 0; m < MODES; m++)
        CHECK(sends[m] != MPI_REQUEST_NULL && recvs[m] != MPI_REQUEST_NULL,
              "round %d: a persistent request was freed by its completion",
              round);
    check_round(round, st);
}

static void inactive(MPI_Request r)
{
    MPI_Request keep = r;
    MPI_Status st;
    int flag = 0, count = -1;
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Test(&r, &flag, &st));
    CHECK(flag && r == keep, "Test of an inactive request: flag %d, handle "
          "%s", flag, r == keep ? "kept" : "changed");
    flag = 0;
    CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE &&
          st.MPI_TAG == MPI_ANY_TAG && count == 0,
          "Request_get_status of an inactive request: flag %d source %d "
          "tag %d count %d", flag, st.MPI_SOURCE, st.MPI_TAG, count);
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL, "Request_free left the handle");
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    to = (rank + 1) % size;
    from = (rank + size - 1) % size;
    int bsize = MPI_BSEND_OVERHEAD + (int)sizeof(int);
    void *buf = malloc((size_t)bsize);
    CHECK(buf, "no memory");
    CHECK_MPI(MPI_Buffer_attach(buf, bsize));
    make();
    for (int round = 0; round < ROUNDS; round++) {
        start_round(round);
        complete_round(round);
    }
    for (int m = 0; m < MODES; m++) {
        inactive(sends[m]);
        inactive(recvs[m]);
    }
    CHECK_MPI(MPI_Buffer_detach(&buf, &bsize));
    free(buf);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
