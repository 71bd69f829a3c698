/* comm_from_group_tags_ext: MPI_Comm_create_from_group with two tags at once on overlapping groups, one tag on disjoint groups at once, and one tag and group again: every communicator gets its own context. */
/* shmpi-test: np=1,2,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static MPI_Comm make(MPI_Group world, int lo, int hi, const char *tag)
{
    int range[1][3] = {{lo, hi, 1}};
    MPI_Group g;
    MPI_Comm c;
    CHECK_MPI(MPI_Group_range_incl(world, 1, range, &g));
    CHECK_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL,
                                         MPI_ERRORS_RETURN, &c));
    CHECK_MPI(MPI_Group_free(&g));
    return c;
}

/* Rank 0 of c sends its tag's first letter to every other member with
   MPI tag 0; each checks it gets that and nothing else is waiting. */
static void check_own(MPI_Comm c, char want)
{
    int rank, size;
    CHECK_MPI(MPI_Comm_rank(c, &rank));
    CHECK_MPI(MPI_Comm_size(c, &size));
    char x = want;
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            CHECK_MPI(MPI_Send(&x, 1, MPI_CHAR, r, 0, c));
    } else {
        x = 0;
        CHECK_MPI(MPI_Recv(&x, 1, MPI_CHAR, 0, 0, c, MPI_STATUS_IGNORE));
        CHECK(x == want, "got '%c' on the communicator of '%c'", x, want);
    }
    CHECK_MPI(MPI_Barrier(c));
}

int main(void)
{
    MPI_Session s;
    MPI_Group world;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &world));
    int rank, size;
    CHECK_MPI(MPI_Group_rank(world, &rank));
    CHECK_MPI(MPI_Group_size(world, &size));
    int mid = size / 2; /* groups a = [0, mid], b = [mid, size-1]: they
                           share mid */
    MPI_Comm a = MPI_COMM_NULL, b = MPI_COMM_NULL;
    /* the first and last ranks call one each, at the same time; mid (in
       both) calls a then b; the others their own */
    if (rank <= mid)
        a = make(world, 0, mid, "tag-a");
    if (rank >= mid)
        b = make(world, mid, size - 1, "tag-b");
    if (a != MPI_COMM_NULL)
        check_own(a, 'a');
    if (b != MPI_COMM_NULL)
        check_own(b, 'b');
    /* one tag, disjoint groups, at once: the pairs */
    int lo = rank - rank % 2, hi = lo + 1 < size ? lo + 1 : lo;
    MPI_Comm pair = make(world, lo, hi, "pair");
    int psize;
    CHECK_MPI(MPI_Comm_size(pair, &psize));
    CHECK(psize == hi - lo + 1, "pair of %d", psize);
    check_own(pair, 'p');
    /* the same tag and group again: a new communicator */
    MPI_Comm again = make(world, lo, hi, "pair");
    int prank;
    CHECK_MPI(MPI_Comm_rank(pair, &prank));
    int peer = psize == 1 ? 0 : 1 - prank;
    /* sent on again first: were the two one context, the first receive
       (on pair) would match it, messages of one context and pair not
       overtaking each other */
    char xa = 'A', xp = 'P', ya = 0, yp = 0;
    MPI_Request r[2];
    CHECK_MPI(MPI_Isend(&xa, 1, MPI_CHAR, peer, 1, again, &r[0]));
    CHECK_MPI(MPI_Isend(&xp, 1, MPI_CHAR, peer, 1, pair, &r[1]));
    CHECK_MPI(MPI_Recv(&yp, 1, MPI_CHAR, peer, 1, pair, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Recv(&ya, 1, MPI_CHAR, peer, 1, again, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK(yp == 'P' && ya == 'A', "the same tag and group twice gave one "
          "context: got '%c' on the first, '%c' on the second", yp, ya);
    CHECK_MPI(MPI_Comm_free(&again));
    CHECK_MPI(MPI_Comm_free(&pair));
    if (a != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_free(&a));
    if (b != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_free(&b));
    CHECK_MPI(MPI_Group_free(&world));
    CHECK_MPI(MPI_Session_finalize(&s));
    return 0;
}
