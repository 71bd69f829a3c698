/* comm_idup_ext: MPI_Comm_idup where shmpi goes beyond what Open MPI 4.1 manages (it hangs or crashes on each): blocking collectives on the communicator and on others while its idups run, idups completed in the reverse order, three idups of an intercommunicator and one of its local communicator at once, the parent freed while its idup runs (6.4.3); and *newcomm written when the request completes, not before (Open MPI and MPICH write it at the call). */
/* shmpi-test: np=1,2,5,16 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "intercomm.h"

static int rank, size;

static void check_copy(MPI_Comm comm, const char *what)
{
    int r = -1, sum = -1;
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, comm, &r));
    CHECK(r == MPI_CONGRUENT, "%s: compare(world, it) = %d", what, r);
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(sum == size * (size - 1) / 2, "%s: allreduce %d", what, sum);
}

/* Blocking collectives on world and on another communicator while idups
   of both run; completion in reverse order. */
static void with_blocking_collectives(void)
{
    enum { N = 6 };
    MPI_Comm other, out[N];
    MPI_Request req[N];
    int sum = -1;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &other));
    for (int i = 0; i < N; i++) {
        CHECK_MPI(MPI_Comm_idup(i % 2 ? other : MPI_COMM_WORLD, &out[i],
                                &req[i]));
        CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM,
                                i % 3 ? MPI_COMM_WORLD : other));
        CHECK(sum == size * (size - 1) / 2, "allreduce among idups: %d", sum);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = N - 1; i >= 0; i--)
        CHECK_MPI(MPI_Wait(&req[i], MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++) {
        check_copy(out[i], "idup among blocking collectives");
        CHECK_MPI(MPI_Comm_free(&out[i]));
    }
    CHECK_MPI(MPI_Comm_free(&other));
}

/* Three idups of an intercommunicator and one of its local communicator
   at once, the last one waited for first. */
static void intercomm_at_once(void)
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
    MPI_Comm local, inter, dups[3], ldup;
    MPI_Request req[4];
    parity_intercomm(MPI_COMM_WORLD, 0, &local, &inter);
    CHECK_MPI(MPI_Comm_idup(inter, &dups[0], &req[0]));
    CHECK_MPI(MPI_Comm_idup(local, &ldup, &req[1]));
    check_traffic(inter, theirs, "inter while idups run");
    CHECK_MPI(MPI_Comm_idup(inter, &dups[1], &req[2]));
    CHECK_MPI(MPI_Comm_idup(inter, &dups[2], &req[3]));
    CHECK_MPI(MPI_Wait(&req[3], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Waitall(3, req, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 3; i++) {
        check_inter_groups(dups[i], n, mine, rn, theirs, "idup of inter");
        check_traffic(dups[i], theirs, "idup of inter");
        CHECK_MPI(MPI_Comm_free(&dups[i]));
    }
    int r = -1;
    CHECK_MPI(MPI_Comm_compare(local, ldup, &r));
    CHECK(r == MPI_CONGRUENT, "compare(local, its idup) = %d", r);
    CHECK_MPI(MPI_Comm_free(&ldup));
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
}

/* *newcomm stays as it was until completion; the parent is freed before
   that. */
static void handle_at_completion(void)
{
    MPI_Comm parent, out = MPI_COMM_NULL;
    MPI_Request req;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
    /* rank 0 starts late: the others' idups cannot complete before */
    if (rank == 0)
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Comm_idup(parent, &out, &req));
    if (size > 1 && rank != 0) {
        int done = 0;
        CHECK_MPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
        CHECK(!done && out == MPI_COMM_NULL,
              "newcomm was set before the idup completed");
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Comm_free(&parent));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(out != MPI_COMM_NULL, "newcomm not set at completion");
    check_copy(out, "idup of a freed parent");
    CHECK_MPI(MPI_Comm_free(&out));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(size <= 64, "run with at most 64 ranks");
    with_blocking_collectives();
    intercomm_at_once();
    handle_at_completion();
    if (rank == 0)
        printf("comm_idup_ext at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
