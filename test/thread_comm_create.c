/* thread_comm_create: under MPI_THREAD_MULTIPLE four threads per rank each create communicators at once with MPI_Comm_dup, MPI_Comm_split and MPI_Comm_create from a parent of their own, then exchange messages on all of them with the same ranks and tag as every other thread; the new communicators have the right members and ranks, and no message crosses from one to another. */
/* shmpi-test: np=2,4 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "thread_multiple.h"

/* Creating a communicator is collective over its parent, so two threads
   of a rank may create at the same time only from different parents
   (MPI-3.1 12.4.2); each thread here has its own duplicate of
   MPI_COMM_WORLD as parent.  Every message below has the same tag and
   goes between the same ranks on some communicator made concurrently by
   some thread: if two of them got the same context, a receive could take
   another communicator's message, and the payload (thread, iteration,
   which communicator) says so. */
#define THREADS 4
#define ITERS 25

enum { DUP, SPLIT, CREATE, KINDS };
static const char *const kind_name[] = {"MPI_Comm_dup", "MPI_Comm_split",
                                        "MPI_Comm_create"};
static int rank, size;
static MPI_Comm parent[THREADS];

static void members(MPI_Comm c, int kind, int want_size, int want_rank)
{
    int s = -1, r = -1;
    CHECK_MPI(MPI_Comm_size(c, &s));
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK(s == want_size && r == want_rank,
          "%s: size %d rank %d, expected %d, %d", kind_name[kind], s, r,
          want_size, want_rank);
}

/* A ring shift on c: send (thread, iteration, kind, rank in c) to the
   right in c, receive from the left, same tag on every communicator. */
static void shift(MPI_Comm c, int kind, int t, int it)
{
    int s, r;
    CHECK_MPI(MPI_Comm_size(c, &s));
    CHECK_MPI(MPI_Comm_rank(c, &r));
    int right = (r + 1) % s, left = (r + s - 1) % s;
    int out[4] = {t, it, kind, r}, in[4] = {-1, -1, -1, -1};
    CHECK_MPI(MPI_Sendrecv(out, 4, MPI_INT, right, 0, in, 4, MPI_INT, left, 0,
                           c, MPI_STATUS_IGNORE));
    CHECK(in[0] == t && in[1] == it && in[2] == kind && in[3] == left,
          "thread %d iteration %d on its %s communicator: got (thread %d, "
          "iteration %d, %s, rank %d), expected rank %d's", t, it,
          kind_name[kind], in[0], in[1],
          in[2] >= 0 && in[2] < KINDS ? kind_name[in[2]] : "?", in[3], left);
}

static void *work(void *arg)
{
    int t = *(int *)arg;
    MPI_Comm p = parent[t];
    MPI_Group world_group, reversed;
    CHECK_MPI(MPI_Comm_group(p, &world_group));
    int range[1][3] = {{size - 1, 0, -1}};
    CHECK_MPI(MPI_Group_range_incl(world_group, 1, range, &reversed));
    for (int it = 0; it < ITERS; it++) {
        MPI_Comm c[KINDS];
        int result;
        CHECK_MPI(MPI_Comm_dup(p, &c[DUP]));
        CHECK_MPI(MPI_Comm_compare(p, c[DUP], &result));
        CHECK(result == MPI_CONGRUENT, "MPI_Comm_compare of a dup gave %d",
              result);
        members(c[DUP], DUP, size, rank);
        /* halves by parity, ranks reversed inside each */
        CHECK_MPI(MPI_Comm_split(p, rank % 2, size - rank, &c[SPLIT]));
        int half = size / 2 + (rank % 2 == 0 && size % 2);
        members(c[SPLIT], SPLIT, half, half - 1 - rank / 2);
        /* everyone, in reverse order */
        CHECK_MPI(MPI_Comm_create(p, reversed, &c[CREATE]));
        CHECK(c[CREATE] != MPI_COMM_NULL, "MPI_Comm_create gave MPI_COMM_NULL");
        members(c[CREATE], CREATE, size, size - 1 - rank);
        for (int k = 0; k < KINDS; k++)
            shift(c[k], k, t, it);
        for (int k = 0; k < KINDS; k++)
            CHECK_MPI(MPI_Comm_free(&c[k]));
    }
    CHECK_MPI(MPI_Group_free(&reversed));
    CHECK_MPI(MPI_Group_free(&world_group));
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    for (int i = 0; i < THREADS; i++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent[i]));
    int ids[THREADS];
    for (int i = 0; i < THREADS; i++)
        ids[i] = i;
    mt_run(THREADS, work, ids, sizeof ids[0]);
    for (int i = 0; i < THREADS; i++)
        CHECK_MPI(MPI_Comm_free(&parent[i]));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
