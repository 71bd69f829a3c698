/* comm_dup: MPI_Comm_dup/free/compare; messages on world and on dups never cross-match (ANY_SOURCE/ANY_TAG, probe, unexpected); barrier on a dup; pending operations survive MPI_Comm_free; errors. */
/* shmpi-test: np=1,2,3,4,7 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <fcntl.h>

static int rank, size;

static int compare(MPI_Comm a, MPI_Comm b)
{
    int r = -1;
    CHECK_MPI(MPI_Comm_compare(a, b, &r));
    return r;
}

/*
 * Every rank sends to its right neighbour on `a`, then on `b`, with the
 * same tag; the neighbour receives on `b` first with MPI_ANY_SOURCE and
 * MPI_ANY_TAG, then on `a`.  If the two communicators shared matching,
 * the receive on b would take the message sent first, the one on a.
 * With `unexpected` the messages are known to have arrived before any
 * receive is posted (a probe on `a` and a barrier wait for them).
 */
static void isolation(MPI_Comm a, MPI_Comm b, int unexpected)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int va = 1000 + rank, vb = 2000 + rank, ga = -1, gb = -1;
    MPI_Request s[2], r[2];
    MPI_Status st[2];
    CHECK_MPI(MPI_Isend(&va, 1, MPI_INT, right, 7, a, &s[0]));
    CHECK_MPI(MPI_Isend(&vb, 1, MPI_INT, right, 7, b, &s[1]));
    if (unexpected) {
        MPI_Status pst;
        int flag = 1;
        /* the message on a has arrived; nothing may be seen on b but
           the message sent on b (sent after it: it may or may not be
           here yet, but if it is, it must be b's) */
        CHECK_MPI(MPI_Probe(left, 7, a, &pst));
        CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, b, &flag, &pst));
        if (flag) {
            int count = -1;
            CHECK_MPI(MPI_Get_count(&pst, MPI_INT, &count));
            CHECK(pst.MPI_SOURCE == left && pst.MPI_TAG == 7 && count == 1,
                  "Iprobe on b: source %d tag %d count %d", pst.MPI_SOURCE,
                  pst.MPI_TAG, count);
        }
    }
    CHECK_MPI(MPI_Irecv(&gb, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, b,
                        &r[1]));
    CHECK_MPI(MPI_Irecv(&ga, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, a,
                        &r[0]));
    CHECK_MPI(MPI_Waitall(2, r, st));
    CHECK_MPI(MPI_Waitall(2, s, MPI_STATUSES_IGNORE));
    CHECK(ga == 1000 + left && gb == 2000 + left,
          "received %d on a and %d on b, expected %d and %d (unexpected=%d)",
          ga, gb, 1000 + left, 2000 + left, unexpected);
    CHECK(st[0].MPI_SOURCE == left && st[1].MPI_SOURCE == left &&
              st[0].MPI_TAG == 7 && st[1].MPI_TAG == 7,
          "statuses: a (%d, %d), b (%d, %d)", st[0].MPI_SOURCE,
          st[0].MPI_TAG, st[1].MPI_SOURCE, st[1].MPI_TAG);
}

/* A probe on one communicator never sees a message of another. */
static void probe_isolation(MPI_Comm a, MPI_Comm b)
{
    int me, v = rank, got = -1, flag = 1;
    MPI_Request s;
    MPI_Status st;
    CHECK_MPI(MPI_Comm_rank(a, &me));
    CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, me, 3, a, &s));
    CHECK_MPI(MPI_Probe(me, 3, a, &st)); /* it is here */
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, b, &flag, &st));
    CHECK(!flag, "MPI_Iprobe on one communicator saw a message sent on "
                 "another (source %d, tag %d)", st.MPI_SOURCE, st.MPI_TAG);
    CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, me, 3, a, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK(got == rank, "self message: got %d", got);
}


int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));

    /* the dup: same group, same order, a new context */
    MPI_Comm dup, dup2;
    int n = -1, r = -1;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(dup != MPI_COMM_NULL && dup != MPI_COMM_WORLD, "dup is a new handle");
    CHECK_MPI(MPI_Comm_size(dup, &n));
    CHECK_MPI(MPI_Comm_rank(dup, &r));
    CHECK(n == size && r == rank, "dup: size %d rank %d", n, r);
    CHECK(compare(dup, dup) == MPI_IDENT, "compare(dup, dup)");
    CHECK(compare(MPI_COMM_WORLD, dup) == MPI_CONGRUENT, "compare(world, dup)");
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    CHECK(compare(dup, dup2) == MPI_CONGRUENT, "compare(dup, dup of dup)");
    CHECK(compare(MPI_COMM_WORLD, MPI_COMM_SELF) ==
              (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL),
          "compare(world, self) = %d", compare(MPI_COMM_WORLD, MPI_COMM_SELF));

    /* isolation, both orders of arrival, world vs dup and dup vs dup */
    for (int i = 0; i < 20; i++) {
        isolation(MPI_COMM_WORLD, dup, i % 2);
        isolation(dup, MPI_COMM_WORLD, i % 2);
        isolation(dup, dup2, i % 2);
    }
    probe_isolation(MPI_COMM_WORLD, dup);
    probe_isolation(dup, MPI_COMM_WORLD);
    probe_isolation(dup, dup2);

    /* MPI_COMM_SELF and its dup */
    MPI_Comm self2;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &self2));
    CHECK_MPI(MPI_Comm_size(self2, &n));
    CHECK_MPI(MPI_Comm_rank(self2, &r));
    CHECK(n == 1 && r == 0, "dup of self: size %d rank %d", n, r);
    CHECK(compare(MPI_COMM_SELF, self2) == MPI_CONGRUENT, "compare(self, dup)");
    CHECK_MPI(MPI_Barrier(self2));
    probe_isolation(MPI_COMM_SELF, self2);
    CHECK_MPI(MPI_Comm_free(&self2));
    CHECK(self2 == MPI_COMM_NULL, "MPI_Comm_free sets MPI_COMM_NULL");

    /* barrier on a communicator other than world */
    check_barrier_on(dup, "comm_dup.barrier", 100);

    /* the error handler is inherited */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Comm dup3;
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup3));
    CHECK_MPI(MPI_Comm_get_errhandler(dup3, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "the dup did not inherit MPI_ERRORS_RETURN");
    CHECK_MPI(MPI_Errhandler_free(&eh));
    int bad = size; /* not a rank of dup3: the error comes back */
    CHECK_CLASS(MPI_Send(&bad, 1, MPI_INT, size, 0, dup3), MPI_ERR_RANK);
    CHECK_MPI(MPI_Comm_free(&dup3));

    /* many dups, each used, then freed (contexts are not confused) */
    MPI_Comm many[40];
    for (int i = 0; i < 40; i++)
        CHECK_MPI(MPI_Comm_dup(i % 2 ? many[i - 1] : MPI_COMM_WORLD,
                               &many[i]));
    for (int i = 39; i >= 0; i--) {
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        int out = i * 1000 + rank, in = -1;
        CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, right, 0, &in, 1, MPI_INT,
                               MPI_ANY_SOURCE, MPI_ANY_TAG, many[i],
                               MPI_STATUS_IGNORE));
        CHECK(in == i * 1000 + left, "dup %d: got %d", i, in);
    }
    for (int i = 0; i < 40; i++)
        CHECK_MPI(MPI_Comm_free(&many[i]));
    for (int i = 0; i < 500; i++) {
        MPI_Comm t;
        CHECK_MPI(MPI_Comm_dup(dup, &t));
        CHECK_MPI(MPI_Comm_free(&t));
    }

    /* operations pending on a communicator complete after MPI_Comm_free */
    {
        MPI_Comm t;
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        int out = 42 + rank, in = -1;
        MPI_Request req[2];
        MPI_Status st[2];
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &t));
        CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 9, t, &req[0]));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* all receives posted */
        CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, right, 9, t, &req[1]));
        CHECK_MPI(MPI_Comm_free(&t));
        CHECK_MPI(MPI_Waitall(2, req, st));
        CHECK(in == 42 + left && st[0].MPI_SOURCE == left,
              "receive pending across MPI_Comm_free: got %d from %d", in,
              st[0].MPI_SOURCE);
        /* and a receive posted before the message was sent, freed first */
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &t));
        CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, left, 10, t, &req[0]));
        MPI_Comm keep;
        CHECK_MPI(MPI_Comm_dup(t, &keep)); /* a collective on t */
        CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, right, 10, t, &req[1]));
        CHECK_MPI(MPI_Comm_free(&t));
        CHECK_MPI(MPI_Barrier(keep));
        CHECK_MPI(MPI_Waitall(2, req, st));
        CHECK(in == 42 + left && st[0].MPI_SOURCE == left,
              "second pending receive: got %d from %d", in, st[0].MPI_SOURCE);
        CHECK_MPI(MPI_Comm_free(&keep));
    }

    /* errors (MPI_ERRORS_RETURN on world and self) */
    MPI_Comm w = MPI_COMM_WORLD, s = MPI_COMM_SELF, null = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Comm_free(&w), MPI_ERR_COMM);
    CHECK(w == MPI_COMM_WORLD, "a failed free changed the handle");
    CHECK_CLASS(MPI_Comm_free(&s), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_free(&null), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_dup(MPI_COMM_NULL, &dup3), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_compare(MPI_COMM_NULL, dup, &r), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_compare(dup, MPI_COMM_NULL, &r), MPI_ERR_COMM);

    CHECK_MPI(MPI_Comm_free(&dup2));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK(dup == MPI_COMM_NULL, "MPI_Comm_free sets MPI_COMM_NULL");
    if (rank == 0)
        printf("comm_dup at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
