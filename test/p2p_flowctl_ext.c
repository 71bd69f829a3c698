/* p2p_flowctl_ext: a receiver flooded past SHMPI_UNEXPECTED_MB before it posts receives makes the flood's later sends wait for their receives (MPI_Testall says not all completed; the first held back can be cancelled), then gets every other message in order, payloads checked; np=4: three senders, MPI_ANY_SOURCE. */
/* shmpi-test: np=2,4 timeout=120 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rank 0 receives, every other rank sends it N small messages with
 * MPI_Isend, then MPI_Send's a PING and waits for rank 0's PONG.  Rank 0
 * waits for the PINGs before it posts any receive for the flood, so by
 * the time it answers a sender, all of that sender's flood is at rank 0
 * (the PING entered the sender's ring after the flood's envelopes and
 * rank 0 matched it, so it had taken everything before it).  With the
 * bound at 256 KiB (set here before MPI_Init) and an 8-byte message
 * costing ~150 bytes of rank 0's memory, at most ~1,700 messages plus
 * one ring's worth per sender (4,096 records of 64 bytes with the
 * default 256 KiB ring) can have gone eagerly (pt2pt/flow.c); the rest
 * went as RTS and cannot complete before their receive: the sender's
 * MPI_Testall must say "not all".  Without flow control every send is
 * eager and complete once rank 0 holds it, and the check fails.
 * The first send still incomplete, a small message waiting at rank 0 as
 * an RTS, must be cancellable there (3.8.4: the MPI_Wait after MPI_Cancel
 * is local): each sender cancels it and tells rank 0 which it was (GO),
 * and rank 0 skips it.  SHMPI_PULL_LIMIT_MB=0 keeps rank 0's stalled
 * waits from pulling any of the held messages in (pt2pt/pull.c), which
 * would match it first.
 * Then rank 0 receives everything - from rank 1 by name when it is the
 * only sender, else from MPI_ANY_SOURCE - in windows of W receives
 * (each held RTS costs a round trip; a window lets a sender answer many
 * at one wake-up), and checks that each sender's messages come in the
 * order sent (3.5: of two receives that match messages of one sender,
 * the one posted first gets the message sent first), with their payloads.
 */
#include "check.h"

#include <stdint.h>

#define N 8000                 /* per sender: well past 1,700 + 4,096 */
#define W 256                  /* receives posted at once */
#define TAG_FLOOD 1
#define TAG_PING 2
#define TAG_PONG 3
#define TAG_GO 4

static uint64_t payload(int sender, int i)
{
    return ((uint64_t)sender << 32) ^ (uint64_t)i ^ 0x5a5a000000000000ull;
}

static void sender(int rank)
{
    uint64_t *data = malloc(N * sizeof *data);
    MPI_Request *req = malloc(N * sizeof *req);
    CHECK(data && req, "malloc");
    for (int i = 0; i < N; i++) {
        data[i] = payload(rank, i);
        CHECK_MPI(MPI_Isend(&data[i], 1, MPI_UINT64_T, 0, TAG_FLOOD,
                            MPI_COMM_WORLD, &req[i]));
    }
    int ping = rank, pong = -1, all = 1;
    CHECK_MPI(MPI_Send(&ping, 1, MPI_INT, 0, TAG_PING, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(&pong, 1, MPI_INT, 0, TAG_PONG, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    CHECK(pong == rank, "pong %d, expected %d", pong, rank);
    CHECK_MPI(MPI_Testall(N, req, &all, MPI_STATUSES_IGNORE));
    CHECK(!all, "all %d sends completed before any receive was posted, "
          "past a 256 KiB bound on the receiver's unexpected messages", N);
    int first = 0, done = 1, cancelled = 0;
    while (done)
        CHECK_MPI(MPI_Test(&req[first++], &done, MPI_STATUS_IGNORE));
    first--;
    MPI_Status st;
    CHECK_MPI(MPI_Cancel(&req[first]));
    CHECK_MPI(MPI_Wait(&req[first], &st));
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    CHECK(cancelled, "send %d, held back as an RTS, was not cancelled", first);
    CHECK_MPI(MPI_Send(&first, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Waitall(N, req, MPI_STATUSES_IGNORE));
    free(data);
    free(req);
}

static void receiver(int size)
{
    int senders = size - 1;
    for (int k = 0; k < senders; k++) {
        int ping = -1;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&ping, 1, MPI_INT, MPI_ANY_SOURCE, TAG_PING,
                           MPI_COMM_WORLD, &st));
        CHECK(ping == st.MPI_SOURCE, "ping %d from %d", ping, st.MPI_SOURCE);
        CHECK_MPI(MPI_Send(&ping, 1, MPI_INT, st.MPI_SOURCE, TAG_PONG,
                           MPI_COMM_WORLD));
    }
    int *next = calloc((size_t)size, sizeof *next);
    int *skip = calloc((size_t)size, sizeof *skip);
    CHECK(next && skip, "malloc");
    for (int s = 1; s < size; s++)
        CHECK_MPI(MPI_Recv(&skip[s], 1, MPI_INT, s, TAG_GO, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    int from = senders == 1 ? 1 : MPI_ANY_SOURCE;
    long total = (long)senders * (N - 1);
    uint64_t got[W];
    MPI_Request req[W];
    MPI_Status st[W];
    for (long m = 0; m < total; m += W) {
        int w = total - m < W ? (int)(total - m) : W;
        for (int j = 0; j < w; j++)
            CHECK_MPI(MPI_Irecv(&got[j], 1, MPI_UINT64_T, from, TAG_FLOOD,
                                MPI_COMM_WORLD, &req[j]));
        CHECK_MPI(MPI_Waitall(w, req, st));
        for (int j = 0; j < w; j++) {
            int count = -1, s = st[j].MPI_SOURCE;
            CHECK_MPI(MPI_Get_count(&st[j], MPI_UINT64_T, &count));
            CHECK(s >= 1 && s < size && count == 1, "message %ld: source %d, "
                  "count %d", m + j, s, count);
            if (next[s] == skip[s])
                next[s]++;     /* cancelled */
            CHECK(next[s] < N, "more than %d messages from %d", N - 1, s);
            CHECK(got[j] == payload(s, next[s]), "message %d of rank %d: "
                  "payload %#llx, expected %#llx (out of order or corrupt)",
                  next[s], s, (unsigned long long)got[j],
                  (unsigned long long)payload(s, next[s]));
            next[s]++;
        }
    }
    for (int s = 1; s < size; s++)
        CHECK(next[s] == N || (next[s] == N - 1 && skip[s] == N - 1),
              "%d messages from %d, expected %d", next[s], s, N);
    free(next);
    free(skip);
}

int main(int argc, char **argv)
{
    setenv("SHMPI_UNEXPECTED_MB", "256k", 1);
    setenv("SHMPI_PULL_LIMIT_MB", "0", 1);
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2, "needs 2 ranks or more");
    if (rank == 0)
        receiver(size);
    else
        sender(rank);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
