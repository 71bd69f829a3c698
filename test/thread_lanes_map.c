/* thread_lanes_map: under MPI_THREAD_MULTIPLE two threads per rank stream checked messages with their partner on MPI_COMM_WORLD and on a dup of it while two other threads make communicators at once (MPI_Comm_dup and MPI_Comm_idup of MPI_COMM_WORLD and of that dup), which land in lanes not used before, and exchange checked messages on each; every payload arrives intact. */
/* shmpi-test: np=2,4 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shmpi maps a lane's outboxes and rings when the process makes its
 * first communicator of that lane (pt2pt/conn.c): here that happens in
 * two threads at once, for successive contexts that land on successive
 * lanes, while messages keep flowing in the lanes of MPI_COMM_WORLD and
 * of the first dup, and while the partner may already send on a new
 * communicator that this rank has not finished making.  Pairs are ranks
 * r and r ^ 1.  A thread makes collectives on a parent that only
 * point-to-point traffic of another thread shares (MPI-3.1 5.13: no two
 * threads in collectives on one communicator at once).
 */
#include "check.h"
#include "thread_multiple.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define STREAM 600      /* messages each way per streaming thread */
#define ROUNDS 8        /* communicators per making thread */
#define BIG (64 * 1024) /* past the eager limit of a small ring */

static int rank, partner;
static MPI_Comm dup1;

struct job {
    int id;             /* 0, 1: stream; 2, 3: make communicators */
    MPI_Comm parent;
};

static unsigned char value(int id, int n, int from, size_t i)
{
    return (unsigned char)(i * 131 + (size_t)n * 7 + (size_t)id * 29 +
                           (size_t)from * 3);
}

/* n-th message of job id, from rank `from`: len bytes of value(). */
static void fill(unsigned char *b, size_t len, int id, int n, int from)
{
    for (size_t i = 0; i < len; i++)
        b[i] = value(id, n, from, i);
}

static void check(const unsigned char *b, size_t len, int id, int n,
                  int from)
{
    for (size_t i = 0; i < len; i++)
        CHECK(b[i] == value(id, n, from, i),
              "job %d message %d from %d: byte %zu is %u, expected %u", id,
              n, from, i, b[i], value(id, n, from, i));
}

static void swap(MPI_Comm c, int id, int n, size_t len, unsigned char *out,
                 unsigned char *in)
{
    fill(out, len, id, n, rank);
    memset(in, 0, len);
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(out, (int)len, MPI_BYTE, partner, id, in,
                           (int)len, MPI_BYTE, partner, id, c, &st));
    int got = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &got));
    CHECK(got == (int)len, "job %d message %d: %d bytes, expected %zu", id,
          n, got, len);
    check(in, len, id, n, partner);
}

static void stream(struct job *j, unsigned char *out, unsigned char *in)
{
    static const size_t sizes[] = {8, 200, 4096, BIG};
    for (int n = 0; n < STREAM; n++)
        swap(j->parent, j->id, n, sizes[n % 4], out, in);
}

static void make(struct job *j, unsigned char *out, unsigned char *in)
{
    MPI_Comm made[ROUNDS];
    for (int n = 0; n < ROUNDS; n++) {
        if (n % 2) {
            MPI_Request r;
            CHECK_MPI(MPI_Comm_idup(j->parent, &made[n], &r));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Comm_dup(j->parent, &made[n]));
        }
        swap(made[n], j->id, n, 8, out, in);
        swap(made[n], j->id, n + ROUNDS, BIG, out, in);
        int sum = 0, one = 1, size = 0;
        CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, made[n]));
        CHECK_MPI(MPI_Comm_size(made[n], &size));
        CHECK(sum == size, "job %d round %d: allreduce gave %d, expected %d",
              j->id, n, sum, size);
    }
    /* the earlier ones, still there, still work */
    for (int n = 0; n < ROUNDS; n++) {
        swap(made[n], j->id, 2 * ROUNDS + n, 200, out, in);
        CHECK_MPI(MPI_Comm_free(&made[n]));
    }
}

static void *run(void *arg)
{
    struct job *j = arg;
    unsigned char *out = malloc(BIG), *in = malloc(BIG);
    CHECK(out && in, "malloc");
    if (j->id < 2)
        stream(j, out, in);
    else
        make(j, out, in);
    free(out);
    free(in);
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size % 2 == 0, "needs an even number of ranks, not %d", size);
    partner = rank ^ 1;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup1));
    struct job jobs[4] = {{0, MPI_COMM_WORLD}, {1, dup1},
                          {2, MPI_COMM_WORLD}, {3, dup1}};
    mt_run(4, run, jobs, sizeof jobs[0]);
    CHECK_MPI(MPI_Comm_free(&dup1));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
