/* p2p_anysource_ext: MPI_ANY_SOURCE receives do not starve a sender: with every other rank's messages queued at once, rank 0's wildcard receives take from all of them in turn. */
/* shmpi-test: np=2,4,8 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The standard promises no fairness (3.5: "MPI makes no guarantee of
 * fairness in the handling of communication"), so this checks shmpi's own
 * promise (pt2pt/progress.c drains the rings round robin): ext.
 *
 * No timing: every sender queues all its BURST messages (Isend) before a
 * barrier; only after it does rank 0 start receiving with MPI_ANY_SOURCE.
 * Every message is then already waiting, so the order rank 0 sees is the
 * library's choice alone.  Rank 0 checks that each sender shows up within
 * the first WINDOW receives and then at least once in every WINDOW
 * consecutive receives while it still has messages left (WINDOW is far
 * below BURST: a library that serves one sender until it is exhausted
 * fails).  Each sender's messages also arrive in order (3.5).
 *
 * Every message is waiting at rank 0 only if rank 0's side of each pair
 * can hold a whole burst: shmpi sizes a pair's ring to its traffic
 * (pt2pt/conn.c: a pair of small messages starts with a small ring, and
 * moves to one that holds them when more sends wait than it holds), so
 * a warm-up round of the same shape, not checked, first gives every pair
 * the ring its burst needs.  (A warm-up received as it came did not
 * always: when rank 0 kept up, a ring never filled, and a sender
 * descheduled after the barrier then still held most of its burst,
 * 2026-11-29.)
 *
 * Then a second round where the senders keep sending while rank 0
 * receives, as a flood of blocking sends of growing bursts; only
 * completeness and order are checked there (scheduling decides who runs).
 */
#include "check.h"

#define BURST 1500
#define WINDOW_PER_SENDER 200

/* Every sender queues a burst of Isends before a barrier; rank 0
   receives them after it (tag `tag`), checking each sender's order and,
   if `check`, that no sender with messages left is starved. */
static void burst(int rank, int size, int tag, int check)
{
    int nsend = size - 1;
    int window = WINDOW_PER_SENDER * nsend;
    if (rank != 0) {
        int *v = malloc(sizeof *v * BURST);
        MPI_Request *rq = malloc(sizeof *rq * BURST);
        CHECK(v && rq, "malloc");
        for (int i = 0; i < BURST; i++) {
            v[i] = i;
            CHECK_MPI(MPI_Isend(&v[i], 1, MPI_INT, 0, tag, MPI_COMM_WORLD,
                                &rq[i]));
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Waitall(BURST, rq, MPI_STATUSES_IGNORE));
        free(v);
        free(rq);
        return;
    }
    int *next = calloc((size_t)size, sizeof *next);
    long *last = malloc(sizeof *last * (size_t)size);
    CHECK(next && last, "malloc");
    for (int s = 0; s < size; s++)
        last[s] = -1;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    long total = (long)nsend * BURST;
    for (long k = 0; k < total; k++) {
        int v = -1;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, tag,
                           MPI_COMM_WORLD, &st));
        int s = st.MPI_SOURCE;
        CHECK(s > 0 && s < size, "source %d", s);
        CHECK(v == next[s], "from %d: message %d arrived as number %d", s, v,
              next[s]);
        next[s]++;
        last[s] = k;
        for (int o = 1; check && o < size; o++)
            CHECK(next[o] == BURST || k - last[o] < window,
                  "sender %d starved: not seen in receives %ld..%ld "
                  "(it still has %d of %d messages queued; window %d)",
                  o, last[o] + 1, k, BURST - next[o], BURST, window);
    }
    free(next);
    free(last);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    burst(rank, size, 4, 0); /* warm-up: the rings grow to a burst */
    burst(rank, size, 5, 1);

    /* round 2: a live flood, checked for completeness and order only */
    const int rounds = 20;
    if (rank != 0) {
        int v = 0;
        for (int r = 0; r < rounds; r++)
            for (int i = 0; i < 10 * (r + 1); i++, v++)
                CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD));
    } else {
        int per = 0;
        for (int r = 0; r < rounds; r++)
            per += 10 * (r + 1);
        int *next = calloc((size_t)size, sizeof *next);
        CHECK(next, "malloc");
        for (long k = 0; k < (long)(size - 1) * per; k++) {
            int v = -1;
            MPI_Status st;
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 6,
                               MPI_COMM_WORLD, &st));
            int s = st.MPI_SOURCE;
            CHECK(s > 0 && s < size && v == next[s],
                  "round 2: from %d got %d, expected %d", s, v,
                  s > 0 && s < size ? next[s] : -1);
            next[s]++;
        }
        free(next);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
