/* p2p_flowctl_rss_ext: a rank flooded with small messages it has not posted receives for keeps its resident memory within SHMPI_UNEXPECTED_MB plus a margin (getrusage maxrss), then receives them all in order. */
/* shmpi-test: np=2 timeout=120 ext */
/* shmpi-test-skip tsan: the bound is on the rank's resident size, to which ThreadSanitizer adds the shadow of every byte the rank touches and its allocator's metadata: 8.5 to 9 MiB grown where the bound plus margin is 6 MiB (make check-tsan, 2026-11-29). */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rank 0 sends rank 1 batches of B 8-byte messages with MPI_Isend.  After
 * each batch it sends a PING (MPI_Send) and waits for rank 1's PONG: the
 * PING entered the ring behind the batch, so when rank 1 has matched it,
 * rank 1 has taken in the whole batch, and every send of it that is
 * still incomplete went as an RTS that waits for its receive
 * (pt2pt/flow.c).  Rank 0 stops flooding at the first such batch, or
 * after MAX messages.  Then it tells rank 1 how many it sent; rank 1,
 * which has posted no receive for any of them yet, reads its peak
 * resident size and checks that it grew by no more than the bound (2 MiB,
 * set here before MPI_Init) plus MARGIN, then receives them all, in order,
 * payloads checked.
 *
 * The margin covers what may be held beyond the bound: one ring's worth of
 * records written before rank 0 saw the word (4,096 of 64 bytes with the
 * default 256 KiB ring, ~160 bytes of heap each: 640 KiB), the entries of
 * the last batch's RTS messages (B of them), one pulled message, and
 * malloc's own overhead.  Without flow control rank 0 never sees an
 * incomplete send and floods all MAX messages eagerly: ~160 bytes each,
 * 32 MB held, and the check fails.
 *
 * Peak resident size, not a timing: ru_maxrss only grows, so memory held
 * and freed again is still seen.
 */
#include "check.h"

#include <stdint.h>
#include <sys/resource.h>

#define B 1000                 /* messages per batch */
#define MAX 200000             /* rank 0 stops here without flow control */
#define BOUND_KB 2048
#define MARGIN_KB 4096
#define TAG_FLOOD 1
#define TAG_CTL 2              /* payload: 1 = PING, 0 = done */
#define TAG_PONG 3
#define TAG_COUNT 4

static uint64_t payload(int i)
{
    return (uint64_t)i * 0x9e3779b97f4a7c15ull;
}

static long maxrss_kb(void)
{
    struct rusage ru;
    CHECK(getrusage(RUSAGE_SELF, &ru) == 0, "getrusage: %s", strerror(errno));
    return ru.ru_maxrss;
}

static int batch_held(MPI_Request *req, int n)
{
    int all = 1;
    CHECK_MPI(MPI_Testall(n, req, &all, MPI_STATUSES_IGNORE));
    return !all;
}

static void sender(void)
{
    uint64_t *data = malloc(MAX * sizeof *data);
    MPI_Request *req = malloc(MAX * sizeof *req);
    CHECK(data && req, "malloc");
    int sent = 0, held = 0;
    while (sent < MAX && !held) {
        for (int i = sent; i < sent + B; i++) {
            data[i] = payload(i);
            CHECK_MPI(MPI_Isend(&data[i], 1, MPI_UINT64_T, 1, TAG_FLOOD,
                                MPI_COMM_WORLD, &req[i]));
        }
        int ping = 1;
        CHECK_MPI(MPI_Send(&ping, 1, MPI_INT, 1, TAG_CTL, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(&ping, 1, MPI_INT, 1, TAG_PONG, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        held = batch_held(req + sent, B);
        sent += B;
    }
    int done = 0;
    CHECK_MPI(MPI_Send(&done, 1, MPI_INT, 1, TAG_CTL, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(&sent, 1, MPI_INT, 1, TAG_COUNT, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Waitall(sent, req, MPI_STATUSES_IGNORE));
    free(data);
    free(req);
}

static void receiver(long base_kb)
{
    int ctl = 1, sent = 0;
    while (ctl) {
        CHECK_MPI(MPI_Recv(&ctl, 1, MPI_INT, 0, TAG_CTL, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        if (ctl)
            CHECK_MPI(MPI_Send(&ctl, 1, MPI_INT, 0, TAG_PONG,
                               MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Recv(&sent, 1, MPI_INT, 0, TAG_COUNT, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    long grew = maxrss_kb() - base_kb;
    CHECK(grew <= BOUND_KB + MARGIN_KB, "%d messages held before their "
          "receives: resident size grew by %ld KiB, more than the %d KiB "
          "bound plus %d KiB", sent, grew, BOUND_KB, MARGIN_KB);
    for (int i = 0; i < sent; i++) {
        uint64_t got = 0;
        CHECK_MPI(MPI_Recv(&got, 1, MPI_UINT64_T, 0, TAG_FLOOD,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(got == payload(i), "message %d: %#llx, expected %#llx", i,
              (unsigned long long)got, (unsigned long long)payload(i));
    }
}

int main(int argc, char **argv)
{
    setenv("SHMPI_UNEXPECTED_MB", "2", 1);
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size == 2, "needs 2 ranks");
    long base_kb = maxrss_kb();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        sender();
    else
        receiver(base_kb);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
