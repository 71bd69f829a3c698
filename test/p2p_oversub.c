/* p2p_oversub: ring exchanges, a token passed around the ring and an all-pairs exchange, at 16 and 64 ranks on 2 cores (oversubscribed), hundreds of iterations, every value checked. */
/* shmpi-test: np=16,64 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Three patterns, each checked at every step:
 *   shift    every rank sends to rank+1 and receives from rank-1 at once
 *            (Sendrecv, Isend/Irecv/Waitall alternately), small messages
 *            and every 10th iteration one past the eager limit;
 *   token    one token goes round the ring, each rank adding its number:
 *            a chain of size blocking hops per round, where every hop
 *            has to wake a rank that is most likely asleep;
 *   replace  an array shifted round with MPI_Sendrecv_replace: after
 *            size steps every rank has its own data back;
 *   pairs    every rank sends to every rank: all size^2 channels in use.
 * Must stay fast (a few seconds at 64 ranks): a rank waiting in MPI must
 * not take the CPU from the rank it waits for.
 */
#include "check.h"

#define SHIFTS 500
#define TOKEN_ROUNDS 50
#define BIG 20000

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int *s = malloc(BIG * sizeof(int)), *r = malloc(BIG * sizeof(int));
    CHECK(s && r, "malloc");
    MPI_Status st;

    /* shift */
    for (int it = 0; it < SHIFTS; it++) {
        int n = it % 10 == 9 ? BIG : 1 + it % 7;
        for (int i = 0; i < n; i++)
            s[i] = rank * 1000003 + it * 31 + i;
        r[0] = r[n - 1] = -1;
        if (it % 2) {
            CHECK_MPI(MPI_Sendrecv(s, n, MPI_INT, next, it, r, n, MPI_INT,
                                   prev, it, MPI_COMM_WORLD, &st));
        } else {
            MPI_Request rq[2];
            CHECK_MPI(MPI_Irecv(r, n, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                                MPI_COMM_WORLD, &rq[0]));
            CHECK_MPI(MPI_Isend(s, n, MPI_INT, next, it, MPI_COMM_WORLD,
                                &rq[1]));
            MPI_Status sts[2];
            CHECK_MPI(MPI_Waitall(2, rq, sts));
            st = sts[0];
        }
        CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == it,
              "shift %d: from %d tag %d, expected %d %d", it, st.MPI_SOURCE,
              st.MPI_TAG, prev, it);
        for (int i = 0; i < n; i++)
            CHECK(r[i] == prev * 1000003 + it * 31 + i,
                  "shift %d: element %d is %d", it, i, r[i]);
    }

    /* token */
    for (int round = 0; round < TOKEN_ROUNDS; round++) {
        long tok[2] = {0, 0};
        if (rank == 0) {
            tok[0] = round;
            tok[1] = 0;
            CHECK_MPI(MPI_Send(tok, 2, MPI_LONG, next, 1000 + round,
                               MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(tok, 2, MPI_LONG, prev, 1000 + round,
                               MPI_COMM_WORLD, &st));
            long want = (long)size * (size - 1) / 2;
            CHECK(tok[0] == round && tok[1] == want,
                  "token round %d came back as (%ld, %ld), expected "
                  "(%d, %ld)", round, tok[0], tok[1], round, want);
        } else {
            CHECK_MPI(MPI_Recv(tok, 2, MPI_LONG, prev, 1000 + round,
                               MPI_COMM_WORLD, &st));
            CHECK(tok[0] == round, "token round %ld, expected %d", tok[0],
                  round);
            tok[1] += rank;
            CHECK_MPI(MPI_Send(tok, 2, MPI_LONG, next, 1000 + round,
                               MPI_COMM_WORLD));
        }
    }

    /* replace: size steps bring everyone's data home */
    for (int i = 0; i < 100; i++)
        r[i] = rank * 100 + i;
    for (int step = 0; step < size; step++) {
        CHECK_MPI(MPI_Sendrecv_replace(r, 100, MPI_INT, next, 7, prev, 7,
                                       MPI_COMM_WORLD, &st));
        int from = ((rank - step - 1) % size + size) % size;
        CHECK(r[0] == from * 100 && r[99] == from * 100 + 99,
              "replace step %d: holding %d's data? r[0]=%d", step, from,
              r[0]);
    }
    for (int i = 0; i < 100; i++)
        CHECK(r[i] == rank * 100 + i, "replace: element %d is %d", i, r[i]);

    /* all pairs: every rank sends one message to every rank (itself
       included), so every ring of the job gets used */
    for (int round = 0; round < 3; round++) {
        MPI_Request *rq = malloc(sizeof *rq * 2 * (size_t)size);
        int *out = malloc(sizeof *out * (size_t)size);
        int *in = malloc(sizeof *in * (size_t)size);
        CHECK(rq && out && in, "malloc");
        for (int p = 0; p < size; p++) {
            in[p] = -1;
            out[p] = rank * 65536 + p + round;
            CHECK_MPI(MPI_Irecv(&in[p], 1, MPI_INT, p, 2000 + round,
                                MPI_COMM_WORLD, &rq[p]));
        }
        for (int i = 0; i < size; i++) {
            int p = (rank + i) % size;
            CHECK_MPI(MPI_Isend(&out[p], 1, MPI_INT, p, 2000 + round,
                                MPI_COMM_WORLD, &rq[size + p]));
        }
        CHECK_MPI(MPI_Waitall(2 * size, rq, MPI_STATUSES_IGNORE));
        for (int p = 0; p < size; p++)
            CHECK(in[p] == p * 65536 + rank + round,
                  "all pairs round %d: from %d got %d", round, p, in[p]);
        free(rq);
        free(out);
        free(in);
    }

    free(s);
    free(r);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
