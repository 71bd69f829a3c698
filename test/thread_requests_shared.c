/* thread_requests_shared: under MPI_THREAD_MULTIPLE four threads per rank post MPI_Irecv and MPI_Isend into one shared request array, interleaved, then each completes a different contiguous quarter of it, mostly requests other threads posted, with MPI_Waitany, MPI_Waitsome or MPI_Testsome; each request is handed out exactly once and every received payload is right. */
/* shmpi-test: np=2,4 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "thread_multiple.h"

/* What the standard allows (MPI-3.1 12.4.2): a request may be completed
   by a thread other than the one that started it, but no request may be
   in two concurrent Wait/Test calls.  So each round has two phases,
   separated by a pthread barrier (which also publishes the handles the
   threads wrote): posting, where thread t fills the slots i with
   i % THREADS == t, and completing, where thread t owns the slots of
   quarter t alone - three quarters of which other threads posted.
   Messages carry (source, slot, round); a slot's tag is its index plus
   SLOTS times the round's parity, so no message can match a receive of
   the previous or the next round (a peer cannot be two rounds ahead:
   its next round needs this rank's sends of this one). */
#define THREADS 4
#define PER_PEER 32 /* receives (and as many sends) per peer and round */
#define ROUNDS 400
#define MAXP 8

enum how { WAITANY, WAITSOME, TESTSOME };
static const char *const how_name[] = {"MPI_Waitany", "MPI_Waitsome", "MPI_Testsome"};

static int rank, size, nslots;
static MPI_Request req[2 * PER_PEER * (MAXP - 1)];
static int inbox[2 * PER_PEER * (MAXP - 1)][3], outbox[2 * PER_PEER * (MAXP - 1)][3];
static int handed[2 * PER_PEER * (MAXP - 1)];  /* completions of this round */

/* Slot i: peer index i / (2 * PER_PEER); within a peer, even slots
   receive and odd ones send, pair j = (i % (2 * PER_PEER)) / 2. */
static int peer_of(int i)
{
    int p = i / (2 * PER_PEER);
    return (rank + 1 + p) % size;
}

static int tag_of(int i, int round)
{
    return (i % (2 * PER_PEER)) / 2 + PER_PEER * (round % 2);
}

static void post(int t, int round)
{
    for (int i = t; i < nslots; i += THREADS) {
        int q = peer_of(i), tag = tag_of(i, round);
        if (i % 2 == 0) {
            inbox[i][0] = inbox[i][1] = inbox[i][2] = -1;
            CHECK_MPI(MPI_Irecv(inbox[i], 3, MPI_INT, q, tag, MPI_COMM_WORLD,
                                &req[i]));
        } else {
            outbox[i][0] = rank;
            outbox[i][1] = tag;
            outbox[i][2] = round;
            CHECK_MPI(MPI_Isend(outbox[i], 3, MPI_INT, q, tag, MPI_COMM_WORLD,
                                &req[i]));
        }
    }
}

static void completed(int lo, int idx, const MPI_Status *st, int round)
{
    int i = lo + idx;
    handed[i]++;
    if (i % 2)
        return;
    int q = peer_of(i), tag = tag_of(i, round);
    CHECK(st->MPI_SOURCE == q && st->MPI_TAG == tag,
          "slot %d: status says source %d tag %d, expected %d, %d", i,
          st->MPI_SOURCE, st->MPI_TAG, q, tag);
    CHECK(inbox[i][0] == q && inbox[i][1] == tag && inbox[i][2] == round,
          "slot %d round %d: got (%d, %d, %d), expected (%d, %d, %d)", i,
          round, inbox[i][0], inbox[i][1], inbox[i][2], q, tag, round);
}

/* Completes slots [lo, hi) the way `how` says, until the call says none
   is active (MPI_UNDEFINED). */
static void complete(int lo, int hi, enum how how, int round)
{
    int n = hi - lo, idx[2 * PER_PEER * (MAXP - 1)];
    MPI_Status st[2 * PER_PEER * (MAXP - 1)];
    for (;;) {
        int out = 0;
        if (how == WAITANY) {
            CHECK_MPI(MPI_Waitany(n, &req[lo], &idx[0], &st[0]));
            out = idx[0] == MPI_UNDEFINED ? MPI_UNDEFINED : 1;
        } else if (how == WAITSOME) {
            CHECK_MPI(MPI_Waitsome(n, &req[lo], &out, idx, st));
        } else {
            CHECK_MPI(MPI_Testsome(n, &req[lo], &out, idx, st));
        }
        if (out == MPI_UNDEFINED)
            break;
        CHECK(out >= 0 && out <= n, "%s gave outcount %d of %d",
              how_name[how], out, n);
        for (int k = 0; k < out; k++) {
            CHECK(idx[k] >= 0 && idx[k] < n, "%s gave index %d of %d",
                  how_name[how], idx[k], n);
            CHECK(req[lo + idx[k]] == MPI_REQUEST_NULL,
                  "%s left slot %d's request active", how_name[how], lo + idx[k]);
            completed(lo, idx[k], &st[k], round);
        }
    }
}

static void *work(void *arg)
{
    int t = *(int *)arg;
    int quarter = (nslots + THREADS - 1) / THREADS;
    int lo = t * quarter < nslots ? t * quarter : nslots;
    int hi = lo + quarter < nslots ? lo + quarter : nslots;
    for (int round = 0; round < ROUNDS; round++) {
        post(t, round);
        mt_together();
        complete(lo, hi, (enum how)((t + round) % 3), round);
        mt_together();
        /* every slot handed out once, whichever thread posted it */
        for (int i = lo; i < hi; i++) {
            CHECK(handed[i] == 1, "round %d: slot %d handed out %d times",
                  round, i, handed[i]);
            handed[i] = 0;
        }
        mt_together();
    }
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2 && size <= MAXP, "needs 2 to %d ranks, not %d", MAXP, size);
    nslots = 2 * PER_PEER * (size - 1);
    int ids[THREADS];
    for (int i = 0; i < THREADS; i++)
        ids[i] = i;
    mt_run(THREADS, work, ids, sizeof ids[0]);
    for (int i = 0; i < nslots; i++)
        CHECK(req[i] == MPI_REQUEST_NULL, "slot %d still active", i);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
