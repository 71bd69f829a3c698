/* p2p_ssend: MPI_Issend/MPI_Ssend do not complete before the matching receive has started (arrival or a probe is not enough), for eager and rendezvous sizes and to oneself; they do complete once it has. */
/* shmpi-test: np=2,3 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Issend, rank 0 to rank 1, for each size:
 *   0: Issend(A); then, while testing it, waits for rank 1's "probed"
 *      message C, which rank 1 sends after MPI_Probe saw A: A has arrived
 *      and been looked at, but no receive matched it, so every MPI_Test
 *      (and MPI_Request_get_status) of the Issend must say "not yet".
 *      Then 1000 more tests, then a zero-byte "go" (tag B).
 *   1: Probe(A), send C, Recv(go), and only then Recv(A).
 *   0: Wait(Issend): now it completes.
 * A correct library cannot hang here (rank 1 posts its receive once it
 * has the go, which rank 0 sends unconditionally); one that completes
 * an Issend when its data is buffered, arrives or is probed fails.
 *
 * Blocking Ssend: rank 1 creates a file just before it posts its
 * receive, after a pause; rank 0 checks, right after MPI_Ssend returned,
 * that the file exists.  The pause only makes a wrong library fail
 * reliably; a correct one passes whatever the timing.
 *
 * Then: an Issend to oneself stays incomplete until the receive is
 * posted; an Issend whose receive was posted first (rank 1, or with
 * np >= 3 a wildcard receive on rank 2) completes.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, also under -std=c11 */
#include "check.h"

#include <time.h>

static const int sizes[] = {0, 8, 16384, 16385, 100000, 1 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void not_complete(MPI_Request *rq, const char *what, int n)
{
    int flag = 1;
    MPI_Status st;
    CHECK_MPI(MPI_Request_get_status(*rq, &flag, &st));
    CHECK(!flag,
          "%s of %d bytes: MPI_Request_get_status says complete before the "
          "receive was posted", what, n);
    flag = 1;
    CHECK_MPI(MPI_Test(rq, &flag, &st));
    CHECK(!flag,
          "%s of %d bytes completed (MPI_Test) before the receive was "
          "posted", what, n);
    CHECK(*rq != MPI_REQUEST_NULL, "%s: request freed by a false Test",
          what);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2, "needs 2 ranks");
    unsigned char *buf = malloc(1 << 20), *rbuf = malloc(1 << 20);
    CHECK(buf && rbuf, "malloc");
    for (int i = 0; i < 1 << 20; i++)
        buf[i] = (unsigned char)(i * 5 + 3);
    MPI_Status st;
    MPI_Request rq;

    /* 1. Issend: not complete after arrival and probe */
    for (int k = 0; k < NSIZES; k++) {
        int n = sizes[k], tA = 10 * k + 1, tB = tA + 1, tC = tA + 2;
        if (rank == 0) {
            CHECK_MPI(MPI_Issend(buf, n, MPI_BYTE, 1, tA, MPI_COMM_WORLD,
                                 &rq));
            int probed = 0;
            while (!probed) {
                not_complete(&rq, "Issend", n);
                CHECK_MPI(MPI_Iprobe(1, tC, MPI_COMM_WORLD, &probed,
                                     MPI_STATUS_IGNORE));
            }
            CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, 1, tC, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
            for (int i = 0; i < 1000; i++)
                not_complete(&rq, "Issend", n);
            CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, 1, tB, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            CHECK(rq == MPI_REQUEST_NULL, "Wait did not free the request");
        } else if (rank == 1) {
            int count = -1;
            CHECK_MPI(MPI_Probe(0, tA, MPI_COMM_WORLD, &st));
            CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
            CHECK(count == n, "probe of the Issend: %d bytes", count);
            CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, 0, tC, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, 0, tB, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
            memset(rbuf, 0, (size_t)n);
            CHECK_MPI(MPI_Recv(rbuf, n, MPI_BYTE, 0, tA, MPI_COMM_WORLD,
                               &st));
            CHECK(memcmp(rbuf, buf, (size_t)n) == 0,
                  "Issend of %d bytes: data differ", n);
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 2. blocking Ssend returns only after the receive was posted */
    char dir[4096], path[4200];
    test_dir(dir, sizeof dir);
    for (int k = 0; k < NSIZES; k += 2) {
        int n = sizes[k], tag = 100 + k;
        snprintf(path, sizeof path, "%s/p2p_ssend.posted.%d", dir, k);
        if (rank == 1)
            unlink(path);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == 0) {
            CHECK_MPI(MPI_Ssend(buf, n, MPI_BYTE, 1, tag, MPI_COMM_WORLD));
            CHECK(access(path, F_OK) == 0,
                  "MPI_Ssend of %d bytes returned before the receive was "
                  "posted (%s does not exist yet)", n, path);
        } else if (rank == 1) {
            sleep_ms(200);
            FILE *f = fopen(path, "w");
            CHECK(f, "cannot create %s", path);
            fclose(f);
            CHECK_MPI(MPI_Recv(rbuf, n, MPI_BYTE, 0, tag, MPI_COMM_WORLD,
                               &st));
            CHECK(memcmp(rbuf, buf, (size_t)n) == 0,
                  "Ssend of %d bytes: data differ", n);
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == 1)
            unlink(path);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0 && !getenv("TEST_TMPDIR"))
        rmdir(dir); /* test_dir's fallback; fails harmlessly if shared */

    /* 3. Issend to oneself */
    for (int k = 0; k < NSIZES; k++) {
        int n = sizes[k];
        CHECK_MPI(MPI_Issend(buf, n, MPI_BYTE, rank, 200 + k, MPI_COMM_WORLD,
                             &rq));
        for (int i = 0; i < 1000; i++)
            not_complete(&rq, "Issend to oneself", n);
        int flag = 0;
        CHECK_MPI(MPI_Iprobe(rank, 200 + k, MPI_COMM_WORLD, &flag, &st));
        for (int i = 0; i < 100; i++)
            not_complete(&rq, "Issend to oneself (after Iprobe)", n);
        memset(rbuf, 0, (size_t)n);
        CHECK_MPI(MPI_Recv(rbuf, n, MPI_BYTE, rank, 200 + k, MPI_COMM_WORLD,
                           &st));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK(memcmp(rbuf, buf, (size_t)n) == 0,
              "Issend to oneself of %d bytes: data differ", n);
    }

    /* 4. receive posted first: Issend / Ssend complete (a wildcard
       receive on the last rank) */
    int last = size - 1;
    for (int k = 0; k < NSIZES; k++) {
        int n = sizes[k], tag = 300 + k;
        if (rank == last) {
            CHECK_MPI(MPI_Irecv(rbuf, n, MPI_BYTE, MPI_ANY_SOURCE,
                                MPI_ANY_TAG, MPI_COMM_WORLD, &rq));
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            CHECK_MPI(MPI_Wait(&rq, &st));
            CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == tag,
                  "pre-posted receive: source %d tag %d", st.MPI_SOURCE,
                  st.MPI_TAG);
            CHECK(memcmp(rbuf, buf, (size_t)n) == 0,
                  "pre-posted receive of %d bytes: data differ", n);
        } else {
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            if (rank == 0) {
                if (k % 2)
                    CHECK_MPI(MPI_Ssend(buf, n, MPI_BYTE, last, tag,
                                        MPI_COMM_WORLD));
                else {
                    CHECK_MPI(MPI_Issend(buf, n, MPI_BYTE, last, tag,
                                         MPI_COMM_WORLD, &rq));
                    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
                }
            }
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }

    free(buf);
    free(rbuf);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
