/* comm_create: MPI_Comm_create (one subset, disjoint subsets at once, reordered, empty, of a sub-communicator), MPI_Comm_create_group (two disjoint groups at once, overlapping groups in turn, singletons, over a reordered parent with the largest tag), MPI_Comm_split_type(MPI_COMM_TYPE_SHARED); members and order checked, pt2pt, barrier and allreduce on the results, isolation between them and from the parent; errors. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "comm_members.h"

static int rank, size;
static MPI_Group world_group;

static int compare(MPI_Comm a, MPI_Comm b)
{
    int r = -1;
    CHECK_MPI(MPI_Comm_compare(a, b, &r));
    return r;
}

/* The group of these world ranks, in this order. */
static MPI_Group group_of(int n, const int *members)
{
    MPI_Group g;
    CHECK_MPI(MPI_Group_incl(world_group, n, members, &g));
    return g;
}

/* comm has exactly these members (world ranks), in this order, and this
   process among them. */
static void check_members(MPI_Comm comm, int n, const int *members,
                          const char *what)
{
    int csize = -1, crank = -1, me = -1;
    for (int i = 0; i < n; i++)
        if (members[i] == rank)
            me = i;
    CHECK(comm != MPI_COMM_NULL, "%s: MPI_COMM_NULL for a member", what);
    CHECK_MPI(MPI_Comm_size(comm, &csize));
    CHECK_MPI(MPI_Comm_rank(comm, &crank));
    CHECK(csize == n && crank == me, "%s: size %d rank %d, expected %d and %d",
          what, csize, crank, n, me);
    check_member_order(comm, world_group, n, members, what);
}

/* The members of `part` (a list of world ranks), or MPI_COMM_NULL. */
static void check_result(MPI_Comm c, int n, const int *part, const char *what)
{
    int in = 0;
    for (int i = 0; i < n; i++)
        in |= part[i] == rank;
    if (in)
        check_members(c, n, part, what);
    else
        CHECK(c == MPI_COMM_NULL, "%s: a non-member got a communicator",
              what);
}

/*
 * A ring in comm: each process sends its world rank to the next with
 * `tag` and receives from MPI_ANY_SOURCE and MPI_ANY_TAG: the message
 * must come from the previous rank in comm, whose world rank it carries.
 * Then an allreduce of the world ranks, checked against the members.
 */
static void traffic(MPI_Comm comm, int tag)
{
    int n, me;
    CHECK_MPI(MPI_Comm_size(comm, &n));
    CHECK_MPI(MPI_Comm_rank(comm, &me));
    int prev = (me + n - 1) % n, next = (me + 1) % n;
    MPI_Group g;
    int prev_world, got = -1;
    CHECK_MPI(MPI_Comm_group(comm, &g));
    CHECK_MPI(MPI_Group_translate_ranks(g, 1, &prev, world_group,
                                        &prev_world));
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, next, tag, &got, 1, MPI_INT,
                           MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st));
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == tag && got == prev_world,
          "ring: source %d tag %d value %d, expected %d, %d, %d",
          st.MPI_SOURCE, st.MPI_TAG, got, prev, tag, prev_world);
    long sum = 0, want = 0;
    for (int i = 0; i < n; i++) {
        int w;
        CHECK_MPI(MPI_Group_translate_ranks(g, 1, &i, world_group, &w));
        want += w;
    }
    long mine = rank;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, comm));
    CHECK(sum == want, "allreduce: %ld, expected %ld", sum, want);
    CHECK_MPI(MPI_Group_free(&g));
}

static void free_comm(MPI_Comm *c)
{
    if (*c != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_free(c));
}

/* MPI_Comm_create: every process of the parent calls it. */
static void create(void)
{
    int *evens = malloc(sizeof(int) * size), *odds = malloc(sizeof(int) * size);
    int *all = malloc(sizeof(int) * size);
    CHECK(evens && odds && all, "out of memory");
    int ne = 0, no = 0;
    for (int i = 0; i < size; i += 2)
        evens[ne++] = i;
    for (int i = size - 1; i >= 0; i--) /* the odd ranks, reversed */
        if (i % 2)
            odds[no++] = i;
    for (int i = 0; i < size; i++)
        all[i] = size - 1 - i;
    MPI_Group ge = group_of(ne, evens), go = group_of(no, odds),
              ga = group_of(size, all);

    /* one subset: the others get MPI_COMM_NULL */
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, ge, &c));
    check_result(c, ne, evens, "create(evens)");
    if (c != MPI_COMM_NULL)
        traffic(c, 1);
    free_comm(&c);

    /* disjoint subsets in one call: each process passes its own */
    MPI_Comm half;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, rank % 2 ? go : ge, &half));
    if (rank % 2)
        check_result(half, no, odds, "create(odds reversed | evens)");
    else
        check_result(half, ne, evens, "create(evens | odds reversed)");

    /* both halves at once, same tags, wildcards: nothing crosses, and a
       message on world with the same tag stays on world */
    {
        int hr, hn, wv = -1 - rank, hv = rank, wgot = 0, hgot = -1;
        CHECK_MPI(MPI_Comm_rank(half, &hr));
        CHECK_MPI(MPI_Comm_size(half, &hn));
        int wright = (rank + 1) % size, wleft = (rank + size - 1) % size;
        MPI_Request rq[4];
        MPI_Status st[2];
        CHECK_MPI(MPI_Isend(&wv, 1, MPI_INT, wright, 6, MPI_COMM_WORLD,
                            &rq[0]));
        CHECK_MPI(MPI_Isend(&hv, 1, MPI_INT, (hr + 1) % hn, 6, half, &rq[1]));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* both are on their way */
        CHECK_MPI(MPI_Irecv(&hgot, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                            half, &rq[2]));
        CHECK_MPI(MPI_Irecv(&wgot, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                            MPI_COMM_WORLD, &rq[3]));
        CHECK_MPI(MPI_Waitall(2, rq + 2, st));
        CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        CHECK(hgot >= 0 && hgot % 2 == rank % 2,
              "the half received world rank %d's message", hgot);
        CHECK(st[0].MPI_SOURCE == (hr + hn - 1) % hn,
              "half: MPI_SOURCE %d", st[0].MPI_SOURCE);
        CHECK(wgot == -1 - wleft && st[1].MPI_SOURCE == wleft,
              "world: got %d from %d", wgot, st[1].MPI_SOURCE);
    }
    traffic(half, 2);
    {
        char name[64];
        snprintf(name, sizeof name, "comm_create.half%d", rank % 2);
        check_barrier_on(half, name, 20);
    }

    /* of a sub-communicator: the half without its rank 0 */
    {
        MPI_Group hg, rest;
        int zero = 0, hn;
        CHECK_MPI(MPI_Comm_size(half, &hn));
        CHECK_MPI(MPI_Comm_group(half, &hg));
        CHECK_MPI(MPI_Group_excl(hg, 1, &zero, &rest));
        CHECK_MPI(MPI_Comm_create(half, rest, &c));
        const int *members = rank % 2 ? odds : evens;
        check_result(c, hn - 1, members + 1, "create(half without rank 0)");
        if (c != MPI_COMM_NULL)
            traffic(c, 3);
        free_comm(&c);
        CHECK_MPI(MPI_Group_free(&rest));
        CHECK_MPI(MPI_Group_free(&hg));
    }
    CHECK_MPI(MPI_Comm_free(&half));

    /* everybody, reversed */
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, ga, &c));
    check_members(c, size, all, "create(all reversed)");
    CHECK(compare(c, MPI_COMM_WORLD) ==
              (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR),
          "compare(reversed, world) = %d", compare(c, MPI_COMM_WORLD));
    traffic(c, 4);
    CHECK_MPI(MPI_Comm_free(&c));

    /* nobody */
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c));
    CHECK(c == MPI_COMM_NULL, "create(MPI_GROUP_EMPTY) gave a communicator");

    CHECK_MPI(MPI_Group_free(&ge));
    CHECK_MPI(MPI_Group_free(&go));
    CHECK_MPI(MPI_Group_free(&ga));
    free(evens);
    free(odds);
    free(all);
}

/* MPI_Comm_create_group: only the members of the group call it. */
static void create_group(void)
{
    int *part = malloc(sizeof(int) * size);
    CHECK(part, "out of memory");
    MPI_Comm c;

    /* two disjoint groups at once: the evens in order (tag 1), the odds
       reversed (tag 2) */
    int n = 0;
    if (rank % 2 == 0) {
        for (int i = 0; i < size; i += 2)
            part[n++] = i;
    } else {
        for (int i = size - 1; i >= 0; i--)
            if (i % 2)
                part[n++] = i;
    }
    MPI_Group g = group_of(n, part);
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 1 + rank % 2, &c));
    check_members(c, n, part, "create_group(my half)");
    traffic(c, 5);
    {
        char name[64];
        snprintf(name, sizeof name, "comm_create.group%d", rank % 2);
        check_barrier_on(c, name, 20);
    }
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Group_free(&g));

    /* a non-member: a local call */
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, 3, &c));
    CHECK(c == MPI_COMM_NULL, "create_group(MPI_GROUP_EMPTY)");

    /* overlapping groups in turn: all but the last, then all but the
       first (the same tag for both) */
    if (size > 1) {
        for (int i = 0; i < size - 1; i++)
            part[i] = i;
        g = group_of(size - 1, part);
        if (rank < size - 1) {
            CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 7, &c));
            check_members(c, size - 1, part, "create_group(all but last)");
            traffic(c, 6);
            CHECK_MPI(MPI_Comm_free(&c));
        }
        CHECK_MPI(MPI_Group_free(&g));
        for (int i = 0; i < size - 1; i++)
            part[i] = i + 1;
        g = group_of(size - 1, part);
        if (rank > 0) {
            CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 7, &c));
            check_members(c, size - 1, part, "create_group(all but first)");
            traffic(c, 7);
            CHECK_MPI(MPI_Comm_free(&c));
        }
        CHECK_MPI(MPI_Group_free(&g));
    }

    /* every process alone, all at once */
    g = group_of(1, &rank);
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 0, &c));
    check_members(c, 1, &rank, "create_group(myself)");
    traffic(c, 8);
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Group_free(&g));

    /* over a reordered parent, with the largest tag: the first half of
       the parent's ranks, the parent's rank 0 last */
    {
        MPI_Comm rev;
        int *tag_ub, flag, prank;
        CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub,
                                    &flag));
        CHECK(flag, "no MPI_TAG_UB");
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
        CHECK_MPI(MPI_Comm_rank(rev, &prank));
        int h = (size + 1) / 2;
        /* parent rank p is world rank size - 1 - p */
        for (int i = 0; i < h; i++)
            part[i] = size - 1 - (i + 1) % h;
        g = group_of(h, part);
        if (prank < h) {
            CHECK_MPI(MPI_Comm_create_group(rev, g, *tag_ub, &c));
            check_members(c, h, part, "create_group(over reversed parent)");
            traffic(c, 9);
            CHECK_MPI(MPI_Comm_free(&c));
        }
        CHECK_MPI(MPI_Group_free(&g));
        CHECK_MPI(MPI_Comm_free(&rev));
    }
    free(part);
}

static void split_type(void)
{
    int *part = malloc(sizeof(int) * size);
    CHECK(part, "out of memory");
    MPI_Comm c;
    /* every process shares memory with every other: all of them, by key */
    for (int i = 0; i < size; i++)
        part[i] = size - 1 - i;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED,
                                  -rank, MPI_INFO_NULL, &c));
    check_members(c, size, part, "split_type(shared, reversed)");
    traffic(c, 10);
    CHECK_MPI(MPI_Comm_free(&c));

    /* some say MPI_UNDEFINED; equal keys keep the parent's order */
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "no_such_hint", "1"));
    int n = 0;
    for (int i = 0; i < size; i++)
        if (i % 3 != 1)
            part[n++] = i;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD,
                                  rank % 3 == 1 ? MPI_UNDEFINED
                                                : MPI_COMM_TYPE_SHARED,
                                  0, info, &c));
    check_result(c, n, part, "split_type(shared | MPI_UNDEFINED)");
    if (c != MPI_COMM_NULL)
        traffic(c, 11);
    free_comm(&c);
    CHECK_MPI(MPI_Info_free(&info));
    free(part);
}

/* Errors every implementation reports with the same class; the others
   are in comm_create_ext.c. */
static void errors(void)
{
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c),
                MPI_ERR_GROUP);
    CHECK_CLASS(MPI_Comm_create_group(MPI_COMM_WORLD, world_group,
                                      MPI_ANY_TAG, &c), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL,
                                    &c), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_create(MPI_COMM_NULL, world_group, &c),
                MPI_ERR_COMM);
    CHECK(c == MPI_COMM_NULL, "a failed call set newcomm");
    /* still fine afterwards */
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, world_group, &c));
    CHECK(compare(c, MPI_COMM_WORLD) == MPI_CONGRUENT, "create after errors");
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    create();
    create_group();
    split_type();
    errors();
    CHECK_MPI(MPI_Group_free(&world_group));
    if (rank == 0)
        printf("comm_create at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
