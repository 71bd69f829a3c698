/* p2p_flowctl_bsend_ext: past the receiver's SHMPI_UNEXPECTED_MB a buffered send still completes at once and its data comes from the attached buffer, while a standard Isend of the same size waits for its receive. */
/* shmpi-test: np=2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bound is 0 (set here before MPI_Init): once rank 1 holds one
 * message it has not posted a receive for, its senders send everything
 * as an RTS (pt2pt/flow.c).  Rank 0 sends A eagerly, then a PING that
 * rank 1 answers: A is then held at rank 1.  Now a standard MPI_Isend C
 * stays incomplete through another PING/PONG (it waits for its receive,
 * flow control is on), while MPI_Bsend B returns at once (3.6: buffered
 * mode completes locally) and rank 0 overwrites B's buffer before rank 1
 * receives: rank 1 must still get B's original bytes, sent from the
 * attached buffer.  MPI_Buffer_detach then waits until B has left.
 */
#include "check.h"

#include <stdint.h>

#define LEN 64                 /* bytes: eager in size */
#define TAG_MSG 1
#define TAG_PING 2
#define TAG_PONG 3
#define TAG_GO 4

static void fill(unsigned char *b, int v)
{
    for (int i = 0; i < LEN; i++)
        b[i] = (unsigned char)(v * 31 + i);
}

static void ping(void)
{
    int x = 1;
    CHECK_MPI(MPI_Send(&x, 1, MPI_INT, 1, TAG_PING, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, 1, TAG_PONG, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
}

static void sender(void)
{
    unsigned char a[LEN], b[LEN], c[LEN];
    int size = 0, flag = 1;
    MPI_Request ra, rc;
    fill(a, 1);
    fill(b, 2);
    fill(c, 3);
    CHECK_MPI(MPI_Isend(a, LEN, MPI_BYTE, 1, TAG_MSG, MPI_COMM_WORLD, &ra));
    ping();
    CHECK_MPI(MPI_Isend(c, LEN, MPI_BYTE, 1, TAG_MSG, MPI_COMM_WORLD, &rc));
    ping();
    CHECK_MPI(MPI_Test(&rc, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag, "a standard send to a rank over its bound completed "
          "before its receive was posted");
    CHECK_MPI(MPI_Pack_size(LEN, MPI_BYTE, MPI_COMM_WORLD, &size));
    size += MPI_BSEND_OVERHEAD;
    void *attached = malloc((size_t)size);
    CHECK(attached, "malloc");
    CHECK_MPI(MPI_Buffer_attach(attached, size));
    CHECK_MPI(MPI_Bsend(b, LEN, MPI_BYTE, 1, TAG_MSG, MPI_COMM_WORLD));
    memset(b, 0xEE, LEN);      /* the copy in the attached buffer counts */
    int go = 1;
    CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD));
    void *back = NULL;
    CHECK_MPI(MPI_Buffer_detach(&back, &size));
    CHECK(back == attached, "detach gave back another buffer");
    CHECK_MPI(MPI_Wait(&ra, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&rc, MPI_STATUS_IGNORE));
    free(attached);
}

static void receiver(void)
{
    int x;
    for (int k = 0; k < 2; k++) {
        CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, 0, TAG_PING, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Send(&x, 1, MPI_INT, 0, TAG_PONG, MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    static const int order[] = {1, 3, 2}; /* A, C, B: as sent */
    for (int k = 0; k < 3; k++) {
        unsigned char got[LEN], want[LEN];
        fill(want, order[k]);
        CHECK_MPI(MPI_Recv(got, LEN, MPI_BYTE, 0, TAG_MSG, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        CHECK(memcmp(got, want, LEN) == 0, "message %d of 3 (%c) has wrong "
              "bytes", k + 1, "ACB"[k]);
    }
}

int main(int argc, char **argv)
{
    setenv("SHMPI_UNEXPECTED_MB", "0", 1);
    setenv("SHMPI_PULL_LIMIT_MB", "0", 1);
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size == 2, "needs 2 ranks");
    if (rank == 0)
        sender();
    else
        receiver();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
