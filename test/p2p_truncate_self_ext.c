/* p2p_truncate_self_ext: a message a rank sends itself that is longer than the receive buffer gives MPI_ERR_TRUNCATE and writes nothing past the buffer. */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Standard behaviour (3.2.4: only the receive buffer is written; the
 * overflow is an error), but Open MPI 4.1's self path writes past the
 * buffer for messages of 16 KiB and more (16384 bytes into 16383 writes
 * one guard byte, 40000 into 1 writes them all), so this part of
 * p2p_truncate lives here, as ext, to keep make check-ref meaningful.
 */
#include "check.h"

#define GUARD 4096
#define MAXN (1 << 20)

int main(int argc, char **argv)
{
    static const int cases[][2] = {
        {100, 50}, {16384, 16383}, {16385, 16384}, {40000, 1},
        {MAXN, 100000}, {MAXN, 0}, {MAXN, MAXN - 1},
    };
    int rank, rc;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    unsigned char *s = malloc(MAXN), *r = malloc(MAXN + GUARD);
    CHECK(s && r, "malloc");
    for (int i = 0; i < MAXN; i++)
        s[i] = (unsigned char)(i * 7 + 1);
    for (int k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++) {
        for (int v = 0; v < 2; v++) {
            int n = cases[k][0], room = cases[k][1];
            MPI_Request sq, rq;
            MPI_Status st;
            memset(r, 0xA5, (size_t)room + GUARD);
            if (v == 0) { /* send first: the message waits unexpected */
                CHECK_MPI(MPI_Isend(s, n, MPI_BYTE, rank, 70 + k,
                                    MPI_COMM_WORLD, &sq));
                rc = MPI_Recv(r, room, MPI_BYTE, rank, 70 + k,
                              MPI_COMM_WORLD, &st);
            } else { /* receive first */
                CHECK_MPI(MPI_Irecv(r, room, MPI_BYTE, MPI_ANY_SOURCE,
                                    70 + k, MPI_COMM_WORLD, &rq));
                CHECK_MPI(MPI_Isend(s, n, MPI_BYTE, rank, 70 + k,
                                    MPI_COMM_WORLD, &sq));
                rc = MPI_Wait(&rq, &st);
            }
            CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
            CHECK(st.MPI_SOURCE == rank && st.MPI_TAG == 70 + k,
                  "status source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
            CHECK_MPI(MPI_Wait(&sq, MPI_STATUS_IGNORE));
            for (int i = room; i < room + GUARD; i++)
                CHECK(r[i] == 0xA5,
                      "%d bytes into %d (%s): byte %d past the buffer "
                      "written", n, room, v ? "receive first" : "send first",
                      i - room);
        }
    }
    free(s);
    free(r);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
