/* comm_idup: MPI_Comm_idup of intra- and intercommunicators: several in flight at once on one and on two intracommunicators, mixed with point-to-point traffic and a nonblocking collective, completed by MPI_Wait, MPI_Waitall and MPI_Test loops; attributes copied as they were at the call; the results have the parent's groups and work. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "intercomm.h"

static int rank, size;

static int copies;

static int copy_fn(MPI_Comm old, int key, void *extra, void *in, void *out,
                   int *flag)
{
    (void)old, (void)key, (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* comm is a working copy of world: same order, its own messages, and
   its collectives. */
static void check_world_copy(MPI_Comm comm, const char *what)
{
    int r = -1, right = (rank + 1) % size, left = (rank + size - 1) % size;
    int got = -1, sum = -1;
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, comm, &r));
    CHECK(r == MPI_CONGRUENT, "%s: compare with world = %d", what, r);
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, right, 0, &got, 1, MPI_INT,
                           MPI_ANY_SOURCE, MPI_ANY_TAG, comm,
                           MPI_STATUS_IGNORE));
    CHECK(got == left, "%s: ring got %d", what, got);
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(sum == size * (size - 1) / 2, "%s: allreduce %d", what, sum);
}

/* Many idups in flight on world and on a dup of it, with a ring of
   messages on world and a nonblocking barrier on the dup among them.
   (Blocking collectives while they run: comm_idup_ext.c, as Open MPI 4.1
   hangs there.) */
static void many_in_flight(void)
{
    enum { N = 8 };
    MPI_Comm parent, out[N];
    MPI_Request req[N + 3];
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int token = rank, got = -1;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
    CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, left, 5, MPI_COMM_WORLD,
                        &req[N]));
    for (int i = 0; i < N; i++) {
        CHECK_MPI(MPI_Comm_idup(i % 2 ? parent : MPI_COMM_WORLD, &out[i],
                                &req[i]));
        if (i == N / 2)
            CHECK_MPI(MPI_Isend(&token, 1, MPI_INT, right, 5, MPI_COMM_WORLD,
                                &req[N + 1]));
    }
    CHECK_MPI(MPI_Ibarrier(parent, &req[N + 2]));
    CHECK_MPI(MPI_Waitall(N + 3, req, MPI_STATUSES_IGNORE));
    CHECK(got == left, "ring among idups: got %d", got);
    for (int i = N - 1; i >= 0; i--) /* used in another order */
        check_world_copy(out[i], "idup in flight");
    for (int i = 0; i < N; i++)
        CHECK_MPI(MPI_Comm_free(&out[i]));
    CHECK_MPI(MPI_Comm_free(&parent));
}

/* Attributes are copied as they are at the call; completion by polling
   MPI_Test. */
static void attributes(void)
{
    int key;
    static char cell[2];
    MPI_Comm parent, out;
    MPI_Request req;
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key,
                                     NULL));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
    CHECK_MPI(MPI_Comm_set_attr(parent, key, &cell[0]));
    copies = 0;
    CHECK_MPI(MPI_Comm_idup(parent, &out, &req));
    CHECK(copies == 1, "%d copy callbacks during MPI_Comm_idup", copies);
    CHECK_MPI(MPI_Comm_set_attr(parent, key, &cell[1])); /* not copied */
    int done = 0;
    while (!done)
        CHECK_MPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    void *v = NULL;
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(out, key, &v, &flag));
    CHECK(flag && v == &cell[0], "the idup's attribute is %p, expected %p",
          v, (void *)&cell[0]);
    check_world_copy(out, "idup with an attribute");
    CHECK_MPI(MPI_Comm_free(&out));
    CHECK_MPI(MPI_Comm_free(&parent));
    CHECK_MPI(MPI_Comm_free_keyval(&key));
}

/* An intercommunicator duplicated twice, with messages on it while each
   runs; then its local communicator.  (Several at once, and the local
   one among them: comm_idup_ext.c, as Open MPI 4.1 hangs there.) */
static void intercomm(void)
{
    if (size < 2)
        return;
    int even[64], odd[64], ne = 0, no = 0;
    for (int w = 0; w < size; w++) {
        if (w % 2)
            odd[no++] = w;
        else
            even[ne++] = w;
    }
    const int *mine = rank % 2 ? odd : even, *theirs = rank % 2 ? even : odd;
    int n = rank % 2 ? no : ne, rn = rank % 2 ? ne : no;
    MPI_Comm local, inter, dups[2], ldup;
    MPI_Request req[3];
    parity_intercomm(MPI_COMM_WORLD, 6, &local, &inter);
    for (int i = 0; i < 2; i++) {
        CHECK_MPI(MPI_Comm_idup(inter, &dups[i], &req[i]));
        check_traffic(inter, theirs, "inter while its idup runs");
        CHECK_MPI(MPI_Wait(&req[i], MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Comm_idup(local, &ldup, &req[2]));
    CHECK_MPI(MPI_Wait(&req[2], MPI_STATUS_IGNORE));
    for (int i = 0; i < 2; i++) {
        int r = -1;
        check_inter_groups(dups[i], n, mine, rn, theirs, "idup of inter");
        CHECK_MPI(MPI_Comm_compare(inter, dups[i], &r));
        CHECK(r == MPI_CONGRUENT, "compare(inter, idup) = %d", r);
    }
    for (int i = 1; i >= 0; i--)
        check_traffic(dups[i], theirs, "idup of inter");
    int r = -1, lsum = -1, want = 0;
    CHECK_MPI(MPI_Comm_compare(local, ldup, &r));
    CHECK(r == MPI_CONGRUENT, "compare(local, its idup) = %d", r);
    for (int i = 0; i < n; i++)
        want += mine[i];
    CHECK_MPI(MPI_Allreduce(&rank, &lsum, 1, MPI_INT, MPI_SUM, ldup));
    CHECK(lsum == want, "allreduce on the local idup: %d, expected %d", lsum,
          want);
    for (int i = 0; i < 2; i++)
        CHECK_MPI(MPI_Comm_free(&dups[i]));
    CHECK_MPI(MPI_Comm_free(&ldup));
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(size <= 64, "run with at most 64 ranks");
    many_in_flight();
    attributes();
    intercomm();
    /* MPI_COMM_SELF too */
    MPI_Comm self;
    MPI_Request req;
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_SELF, &self, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    int r = -1;
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_SELF, self, &r));
    CHECK(r == MPI_CONGRUENT, "compare(self, its idup) = %d", r);
    CHECK_MPI(MPI_Comm_free(&self));
    if (rank == 0)
        printf("comm_idup at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
