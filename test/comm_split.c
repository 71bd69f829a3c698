/* comm_split: MPI_Comm_split by parity, reversed and equal keys, MPI_UNDEFINED, nested splits; members checked against a reference; pt2pt and barrier on the parts, MPI_SOURCE in sub-communicator ranks; isolation between parts and parents; compare; errors. */
/* shmpi-test: np=1,2,3,4,7 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "comm_members.h"

#include <fcntl.h>

static int rank, size;
static MPI_Group world_group;

static int compare(MPI_Comm a, MPI_Comm b)
{
    int r = -1;
    CHECK_MPI(MPI_Comm_compare(a, b, &r));
    return r;
}

/*
 * The reference: the members of this process's part when world rank i
 * gives (color[i], key[i]), as world ranks ordered by (key, world rank).
 * Returns the count; *me gets this process's place (-1 if not a member).
 */
static int reference(const int *color, const int *key, int *members, int *me)
{
    int n = 0;
    *me = -1;
    if (color[rank] == MPI_UNDEFINED)
        return 0;
    for (int i = 0; i < size; i++)
        if (color[i] == color[rank])
            members[n++] = i;
    for (int i = 1; i < n; i++) /* insertion sort: stable, by key */
        for (int j = i; j > 0 && key[members[j - 1]] > key[members[j]]; j--) {
            int t = members[j];
            members[j] = members[j - 1];
            members[j - 1] = t;
        }
    for (int i = 0; i < n; i++)
        if (members[i] == rank)
            *me = i;
    return n;
}

/* comm has exactly these members (world ranks), in this order. */
static void check_members(MPI_Comm comm, int n, const int *members, int me,
                          const char *what)
{
    int csize = -1, crank = -1;
    CHECK_MPI(MPI_Comm_size(comm, &csize));
    CHECK_MPI(MPI_Comm_rank(comm, &crank));
    CHECK(csize == n && crank == me, "%s: size %d rank %d, expected %d and %d",
          what, csize, crank, n, me);
    check_member_order(comm, world_group, n, members, what);
}

/* Split world with these colors and keys, and check the result. */
static MPI_Comm split_checked(const int *color, const int *key,
                              const char *what)
{
    MPI_Comm c;
    int *members = malloc(sizeof(int) * size), me;
    CHECK(members, "out of memory");
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color[rank], key[rank], &c));
    int n = reference(color, key, members, &me);
    if (color[rank] == MPI_UNDEFINED)
        CHECK(c == MPI_COMM_NULL, "%s: MPI_UNDEFINED did not give "
              "MPI_COMM_NULL", what);
    else
        check_members(c, n, members, me, what);
    free(members);
    return c;
}

/*
 * A ring in comm: each process sends its world rank to the next, tagged
 * with `tag`, and receives from MPI_ANY_SOURCE; MPI_SOURCE must be the
 * previous rank in comm, and the value that process's world rank.
 */
static void ring(MPI_Comm comm, int tag)
{
    int n, me;
    CHECK_MPI(MPI_Comm_size(comm, &n));
    CHECK_MPI(MPI_Comm_rank(comm, &me));
    int prev = (me + n - 1) % n, next = (me + 1) % n;
    MPI_Group g;
    int prev_world;
    CHECK_MPI(MPI_Comm_group(comm, &g));
    CHECK_MPI(MPI_Group_translate_ranks(g, 1, &prev, world_group,
                                        &prev_world));
    CHECK_MPI(MPI_Group_free(&g));
    int got = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, next, tag, &got, 1, MPI_INT,
                           MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st));
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == tag && got == prev_world,
          "ring: source %d tag %d value %d, expected %d, %d, %d",
          st.MPI_SOURCE, st.MPI_TAG, got, prev, tag, prev_world);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    int *color = malloc(sizeof(int) * size), *key = malloc(sizeof(int) * size);
    CHECK(color && key, "out of memory");

    /* parity, keys in rank order: rank r becomes r / 2 */
    for (int i = 0; i < size; i++)
        color[i] = i % 2, key[i] = i;
    MPI_Comm parity = split_checked(color, key, "parity split");

    /* one color, keys reversing the order */
    for (int i = 0; i < size; i++)
        color[i] = 5, key[i] = size - i;
    MPI_Comm reversed = split_checked(color, key, "reversed split");
    CHECK(compare(reversed, MPI_COMM_WORLD) ==
              (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR),
          "compare(reversed, world) = %d", compare(reversed, MPI_COMM_WORLD));

    /* equal keys: the parent's order */
    for (int i = 0; i < size; i++)
        color[i] = 0, key[i] = 0;
    MPI_Comm same = split_checked(color, key, "equal-key split");
    CHECK(compare(same, MPI_COMM_WORLD) == MPI_CONGRUENT,
          "compare(same, world) = %d", compare(same, MPI_COMM_WORLD));

    /* keys with ties and big values: by key, then by parent rank */
    for (int i = 0; i < size; i++)
        color[i] = i % 3, key[i] = (i * 7) % 4 - 2 + (i == size - 1 ? 2000000000 : 0);
    MPI_Comm ties = split_checked(color, key, "split with tied keys");

    /* MPI_UNDEFINED: every third rank is left out */
    for (int i = 0; i < size; i++)
        color[i] = i % 3 == 0 ? MPI_UNDEFINED : 1, key[i] = -i;
    MPI_Comm holes = split_checked(color, key, "split with MPI_UNDEFINED");

    /* all MPI_UNDEFINED */
    MPI_Comm none;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, rank, &none));
    CHECK(none == MPI_COMM_NULL, "all-MPI_UNDEFINED split gave a communicator");

    /* compare */
    if (size > 1)
        CHECK(compare(parity, MPI_COMM_WORLD) == MPI_UNEQUAL,
              "compare(parity, world)");
    MPI_Comm parity_dup;
    CHECK_MPI(MPI_Comm_dup(parity, &parity_dup));
    CHECK(compare(parity, parity_dup) == MPI_CONGRUENT, "compare(parity, dup)");
    CHECK(compare(parity, parity) == MPI_IDENT, "compare(parity, parity)");

    /* nested: split the parity halves again, by parity of the half rank,
       keys reversed; then once more, every process alone */
    {
        int prank, psize;
        CHECK_MPI(MPI_Comm_rank(parity, &prank));
        CHECK_MPI(MPI_Comm_size(parity, &psize));
        MPI_Comm quarter, alone;
        CHECK_MPI(MPI_Comm_split(parity, prank % 2, -prank, &quarter));
        /* reference: world ranks with the same parity and the same parity
           of (world rank / 2), in decreasing order */
        int *members = malloc(sizeof(int) * size), n = 0, me = -1;
        CHECK(members, "out of memory");
        for (int i = size - 1; i >= 0; i--)
            if (i % 2 == rank % 2 && (i / 2) % 2 == (rank / 2) % 2) {
                if (i == rank)
                    me = n;
                members[n++] = i;
            }
        check_members(quarter, n, members, me, "nested split");
        ring(quarter, 11);
        CHECK_MPI(MPI_Comm_split(quarter, rank, 0, &alone));
        int one = -1;
        CHECK_MPI(MPI_Comm_size(alone, &one));
        CHECK(one == 1, "a split with a color per process has size %d", one);
        ring(alone, 12);
        CHECK_MPI(MPI_Barrier(alone));
        free(members);
        CHECK_MPI(MPI_Comm_free(&alone));
        CHECK_MPI(MPI_Comm_free(&quarter));
    }

    /* pt2pt on every part, MPI_SOURCE in the part's ranks */
    for (int i = 0; i < 3; i++) {
        ring(parity, 1);
        ring(reversed, 2);
        ring(same, 3);
        ring(ties, 4);
        if (holes != MPI_COMM_NULL)
            ring(holes, 5);
    }

    /*
     * The two parity halves share the parent and run the same exchange
     * at once with the same tags and MPI_ANY_SOURCE: a message that
     * crossed between the halves would carry a world rank of the other
     * parity.  And a message on world with the same tag, sent first to
     * the same process, must not be taken by the half's receive.
     */
    {
        int prank, psize;
        CHECK_MPI(MPI_Comm_rank(parity, &prank));
        CHECK_MPI(MPI_Comm_size(parity, &psize));
        int wright = (rank + 1) % size, wleft = (rank + size - 1) % size;
        int pright = (prank + 1) % psize;
        int wv = -1 - rank, pv = rank, wgot = 0, pgot = -1;
        MPI_Request rq[4];
        MPI_Status st[2];
        CHECK_MPI(MPI_Isend(&wv, 1, MPI_INT, wright, 6, MPI_COMM_WORLD, &rq[0]));
        CHECK_MPI(MPI_Isend(&pv, 1, MPI_INT, pright, 6, parity, &rq[1]));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* both are on their way */
        CHECK_MPI(MPI_Irecv(&pgot, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                            parity, &rq[2]));
        CHECK_MPI(MPI_Irecv(&wgot, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                            MPI_COMM_WORLD, &rq[3]));
        CHECK_MPI(MPI_Waitall(2, rq + 2, st));
        CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        CHECK(pgot >= 0 && pgot % 2 == rank % 2,
              "the parity half received world rank %d's message", pgot);
        CHECK(st[0].MPI_SOURCE == (prank + psize - 1) % psize,
              "parity half: MPI_SOURCE %d", st[0].MPI_SOURCE);
        CHECK(wgot == -1 - wleft && st[1].MPI_SOURCE == wleft,
              "world: got %d from %d", wgot, st[1].MPI_SOURCE);
    }

    /* barriers on the parts (the halves at the same time) */
    {
        char name[64];
        snprintf(name, sizeof name, "comm_split.parity%d", rank % 2);
        check_barrier_on(parity, name, 60);
        check_barrier_on(reversed, "comm_split.reversed", 30);
        if (holes != MPI_COMM_NULL)
            check_barrier_on(holes, "comm_split.holes", 30);
    }

    /* a split of MPI_COMM_SELF */
    {
        MPI_Comm s;
        int n = -1, r = -1;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_SELF, 3, 3, &s));
        CHECK_MPI(MPI_Comm_size(s, &n));
        CHECK_MPI(MPI_Comm_rank(s, &r));
        CHECK(n == 1 && r == 0, "split of self: size %d rank %d", n, r);
        CHECK(compare(s, MPI_COMM_SELF) == MPI_CONGRUENT, "compare(split of "
              "self, self)");
        CHECK_MPI(MPI_Comm_free(&s));
    }

    /* errors, under MPI_ERRORS_RETURN (a negative color is in
       group_ext.c: the standard does not oblige an implementation to
       detect it, and MPICH does not) */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Comm bad = MPI_COMM_NULL;
    CHECK_CLASS(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &bad), MPI_ERR_COMM);
    CHECK(bad == MPI_COMM_NULL, "a failed split set newcomm");
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &bad)); /* still fine */
    CHECK(compare(bad, MPI_COMM_WORLD) == MPI_CONGRUENT, "split after error");
    CHECK_MPI(MPI_Comm_free(&bad));

    CHECK_MPI(MPI_Comm_free(&parity_dup));
    CHECK_MPI(MPI_Comm_free(&parity));
    CHECK_MPI(MPI_Comm_free(&reversed));
    CHECK_MPI(MPI_Comm_free(&same));
    CHECK_MPI(MPI_Comm_free(&ties));
    if (holes != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_free(&holes));
    CHECK_MPI(MPI_Group_free(&world_group));
    free(color);
    free(key);
    if (rank == 0)
        printf("comm_split at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
