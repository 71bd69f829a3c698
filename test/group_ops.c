/* group_ops: every MPI_Group operation (incl, excl, range_incl/excl with negative strides, union, intersection, difference, translate_ranks with MPI_PROC_NULL, compare, rank, size, free) against a simple reference; MPI_GROUP_EMPTY; groups outliving communicators; errors. */
/* shmpi-test: np=1,2,3,4,7 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size;
static MPI_Group world;

/* The reference form of a group: its members as world ranks, in order. */
struct ref {
    int n;
    int m[64];
};

static unsigned long long seed = 12345;
static int rnd(int n) /* 0 .. n-1 */
{
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (int)((seed >> 33) % (unsigned long long)n);
}

static int find(const struct ref *r, int w)
{
    for (int i = 0; i < r->n; i++)
        if (r->m[i] == w)
            return i;
    return -1;
}

/* g's members, as world ranks. */
static struct ref members(MPI_Group g)
{
    struct ref r;
    int idx[64];
    CHECK_MPI(MPI_Group_size(g, &r.n));
    CHECK(r.n >= 0 && r.n <= 64, "group size %d", r.n);
    for (int i = 0; i < r.n; i++)
        idx[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(g, r.n, idx, world, r.m));
    return r;
}

/* g is exactly ref, and MPI_Group_rank agrees. */
static void check_group(MPI_Group g, const struct ref *want, const char *what)
{
    struct ref have = members(g);
    CHECK(have.n == want->n, "%s: size %d, expected %d", what, have.n,
          want->n);
    for (int i = 0; i < want->n; i++)
        CHECK(have.m[i] == want->m[i],
              "%s: member %d is world rank %d, expected %d", what, i,
              have.m[i], want->m[i]);
    int r = -2, expect = find(want, rank);
    CHECK_MPI(MPI_Group_rank(g, &r));
    CHECK(r == (expect < 0 ? MPI_UNDEFINED : expect),
          "%s: MPI_Group_rank %d, expected %d", what, r,
          expect < 0 ? MPI_UNDEFINED : expect);
}

static MPI_Group make(const struct ref *r)
{
    MPI_Group g; /* world ranks are ranks of the world group */
    CHECK_MPI(MPI_Group_incl(world, r->n, r->m, &g));
    return g;
}

/* A random group: a random subset of the world, in random order. */
static struct ref random_ref(void)
{
    struct ref r = {0, {0}};
    int perm[64];
    for (int i = 0; i < size; i++)
        perm[i] = i;
    for (int i = size - 1; i > 0; i--) {
        int j = rnd(i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    int n = rnd(size + 1);
    for (int i = 0; i < n; i++)
        r.m[r.n++] = perm[i];
    return r;
}

static int ref_compare(const struct ref *a, const struct ref *b)
{
    if (a->n != b->n)
        return MPI_UNEQUAL;
    int ident = 1;
    for (int i = 0; i < a->n; i++) {
        ident &= a->m[i] == b->m[i];
        if (find(b, a->m[i]) < 0)
            return MPI_UNEQUAL;
    }
    return ident ? MPI_IDENT : MPI_SIMILAR;
}

static void set_ops(const struct ref *a, const struct ref *b)
{
    MPI_Group ga = make(a), gb = make(b), gu, gi, gd;
    struct ref u = *a, in = {0, {0}}, d = {0, {0}};
    for (int i = 0; i < b->n; i++)
        if (find(a, b->m[i]) < 0)
            u.m[u.n++] = b->m[i];
    for (int i = 0; i < a->n; i++) {
        if (find(b, a->m[i]) >= 0)
            in.m[in.n++] = a->m[i];
        else
            d.m[d.n++] = a->m[i];
    }
    CHECK_MPI(MPI_Group_union(ga, gb, &gu));
    CHECK_MPI(MPI_Group_intersection(ga, gb, &gi));
    CHECK_MPI(MPI_Group_difference(ga, gb, &gd));
    check_group(gu, &u, "union");
    check_group(gi, &in, "intersection");
    check_group(gd, &d, "difference");

    int c = -1;
    CHECK_MPI(MPI_Group_compare(ga, gb, &c));
    CHECK(c == ref_compare(a, b), "compare: %d, expected %d", c,
          ref_compare(a, b));
    CHECK_MPI(MPI_Group_compare(ga, ga, &c));
    CHECK(c == MPI_IDENT, "compare(g, g) = %d", c);

    /* translate every rank of a, plus MPI_PROC_NULL, into b (Open MPI
       4.1 answers MPI_UNDEFINED for MPI_PROC_NULL when a group is empty;
       group_ext.c checks that case) */
    int r1[66], r2[66], nr = a->n;
    for (int i = 0; i < a->n; i++)
        r1[i] = i;
    if (a->n && b->n) {
        r1[nr++] = MPI_PROC_NULL;
        r1[nr++] = a->n - 1;
    }
    CHECK_MPI(MPI_Group_translate_ranks(ga, nr, r1, gb, r2));
    for (int i = 0; i < nr; i++) {
        int want = MPI_PROC_NULL;
        if (r1[i] != MPI_PROC_NULL) {
            want = find(b, a->m[r1[i]]);
            if (want < 0)
                want = MPI_UNDEFINED;
        }
        CHECK(r2[i] == want, "translate_ranks: rank %d -> %d, expected %d",
              r1[i], r2[i], want);
    }

    MPI_Group *all[] = {&ga, &gb, &gu, &gi, &gd};
    for (int i = 0; i < 5; i++) {
        CHECK_MPI(MPI_Group_free(all[i]));
        CHECK(*all[i] == MPI_GROUP_NULL, "MPI_Group_free sets MPI_GROUP_NULL");
    }
}

static void incl_excl(const struct ref *a)
{
    MPI_Group ga = make(a), g;
    /* a random selection of a's ranks, in random order */
    struct ref sel = random_ref(), want = {0, {0}}, rest = {0, {0}};
    int ranks[64], n = 0;
    for (int i = 0; i < sel.n; i++)
        if (sel.m[i] < a->n)
            ranks[n++] = sel.m[i];
    for (int i = 0; i < n; i++)
        want.m[want.n++] = a->m[ranks[i]];
    CHECK_MPI(MPI_Group_incl(ga, n, ranks, &g));
    check_group(g, &want, "incl");
    CHECK_MPI(MPI_Group_free(&g));
    for (int i = 0; i < a->n; i++) {
        int out = 0;
        for (int j = 0; j < n; j++)
            out |= ranks[j] == i;
        if (!out)
            rest.m[rest.n++] = a->m[i];
    }
    CHECK_MPI(MPI_Group_excl(ga, n, ranks, &g));
    check_group(g, &rest, "excl");
    CHECK_MPI(MPI_Group_free(&g));

    /* random valid triplets, positive and negative strides */
    if (a->n > 0) {
        int ranges[8][3], nt = 0;
        char used[64] = {0};
        struct ref rin = {0, {0}}, rex = {0, {0}};
        for (int t = 0; t < 8; t++) {
            int first = rnd(a->n), last = rnd(a->n);
            int stride = 1 + rnd(a->n + 1);
            if (last < first || (last == first && rnd(2)))
                stride = -stride;
            int ok = 1, steps = (last - first) / stride;
            for (int s = 0; s <= steps; s++)
                ok &= !used[first + s * stride];
            if (!ok)
                continue; /* would name a rank twice: erroneous */
            for (int s = 0; s <= steps; s++) {
                used[first + s * stride] = 1;
                rin.m[rin.n++] = a->m[first + s * stride];
            }
            ranges[nt][0] = first;
            ranges[nt][1] = last;
            ranges[nt][2] = stride;
            nt++;
        }
        for (int i = 0; i < a->n; i++)
            if (!used[i])
                rex.m[rex.n++] = a->m[i];
        CHECK_MPI(MPI_Group_range_incl(ga, nt, ranges, &g));
        check_group(g, &rin, "range_incl");
        CHECK_MPI(MPI_Group_free(&g));
        CHECK_MPI(MPI_Group_range_excl(ga, nt, ranges, &g));
        check_group(g, &rex, "range_excl");
        CHECK_MPI(MPI_Group_free(&g));
    }
    CHECK_MPI(MPI_Group_free(&ga));
}

static void fixed_cases(void)
{
    MPI_Group g;
    int c;
    /* the whole world backwards, with one negative-stride triplet, and
       every other rank from the top */
    int all_back[1][3] = {{size - 1, 0, -1}}, odd_back[1][3] = {{size - 1, 0, -2}};
    struct ref back = {0, {0}}, alt = {0, {0}};
    for (int i = size - 1; i >= 0; i--)
        back.m[back.n++] = i;
    for (int i = size - 1; i >= 0; i -= 2)
        alt.m[alt.n++] = i;
    CHECK_MPI(MPI_Group_range_incl(world, 1, all_back, &g));
    check_group(g, &back, "range_incl (size-1, 0, -1)");
    CHECK_MPI(MPI_Group_compare(g, world, &c));
    CHECK(c == (size == 1 ? MPI_IDENT : MPI_SIMILAR), "reversed vs world: %d",
          c);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_range_incl(world, 1, odd_back, &g));
    check_group(g, &alt, "range_incl (size-1, 0, -2)");
    CHECK_MPI(MPI_Group_free(&g));
    /* a stride longer than the range: just `first` */
    int big[1][3] = {{0, size - 1, size + 5}};
    struct ref first = {1, {0}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, big, &g));
    check_group(g, &first, "range_incl (0, size-1, size+5)");
    CHECK_MPI(MPI_Group_free(&g));

    /* MPI_GROUP_EMPTY and empty results */
    struct ref none = {0, {0}};
    int n = -1, r = -1;
    CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &n));
    CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &r));
    CHECK(n == 0 && r == MPI_UNDEFINED, "MPI_GROUP_EMPTY: size %d rank %d", n,
          r);
    CHECK_MPI(MPI_Group_incl(world, 0, NULL, &g));
    CHECK_MPI(MPI_Group_compare(g, MPI_GROUP_EMPTY, &c));
    CHECK(c == MPI_IDENT, "incl of nothing vs MPI_GROUP_EMPTY: %d", c);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_difference(world, world, &g));
    check_group(g, &none, "world minus world");
    CHECK_MPI(MPI_Group_compare(g, MPI_GROUP_EMPTY, &c));
    CHECK(c == MPI_IDENT, "world minus world vs MPI_GROUP_EMPTY: %d", c);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_union(MPI_GROUP_EMPTY, world, &g));
    CHECK_MPI(MPI_Group_compare(g, world, &c));
    CHECK(c == MPI_IDENT, "empty union world vs world: %d", c);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_intersection(world, MPI_GROUP_EMPTY, &g));
    check_group(g, &none, "world and empty");
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_excl(world, 0, NULL, &g));
    CHECK_MPI(MPI_Group_compare(g, world, &c));
    CHECK(c == MPI_IDENT, "excl of nothing vs world: %d", c);
    CHECK_MPI(MPI_Group_free(&g));
    int zero = 0, undef = -1;
    CHECK_MPI(MPI_Group_translate_ranks(world, 1, &zero, MPI_GROUP_EMPTY,
                                        &undef));
    CHECK(undef == MPI_UNDEFINED, "translate into the empty group: %d", undef);

    /* the group of a communicator outlives it, and vice versa */
    MPI_Comm dup;
    MPI_Group dg, dg2;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_group(dup, &dg));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Group_compare(dg, world, &c));
    CHECK(c == MPI_IDENT, "group of a freed dup vs world: %d", c);
    CHECK_MPI(MPI_Group_free(&dg));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_group(dup, &dg));
    CHECK_MPI(MPI_Group_free(&dg));
    CHECK_MPI(MPI_Comm_group(dup, &dg2));
    CHECK_MPI(MPI_Group_size(dg2, &n));
    CHECK(n == size, "group of dup: size %d", n);
    CHECK_MPI(MPI_Barrier(dup));
    CHECK_MPI(MPI_Group_free(&dg2));
    CHECK_MPI(MPI_Comm_free(&dup));

    /* the group of MPI_COMM_SELF */
    CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &g));
    struct ref me = {1, {rank}};
    check_group(g, &me, "group of MPI_COMM_SELF");
    CHECK_MPI(MPI_Group_free(&g));
}

static void errors(void)
{
    MPI_Group g = MPI_GROUP_NULL, null = MPI_GROUP_NULL;
    int n, cls;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
    CHECK_CLASS(MPI_Group_rank(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
    CHECK_CLASS(MPI_Group_free(&null), MPI_ERR_GROUP);
    CHECK_CLASS(MPI_Group_union(world, MPI_GROUP_NULL, &g), MPI_ERR_GROUP);
    CHECK_CLASS(MPI_Group_compare(MPI_GROUP_NULL, world, &n), MPI_ERR_GROUP);
    /* (errors the standard leaves undetected - ranks named twice, bad
       ranks in excl and translate_ranks - are in group_ext.c) */
    int bad[2] = {0, size};
    CHECK_CLASS(MPI_Group_incl(world, 2, bad, &g), MPI_ERR_RANK);
    int neg = -3;
    CHECK_CLASS(MPI_Group_incl(world, 1, &neg, &g), MPI_ERR_RANK);
    /* a zero stride: the class is the implementation's choice between an
       invalid argument and an invalid rank */
    int zero[1][3] = {{0, 0, 0}};
    int rc = MPI_Group_range_incl(world, 1, zero, &g);
    CHECK(rc != MPI_SUCCESS, "a zero stride was accepted");
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_ARG || cls == MPI_ERR_RANK, "zero stride: class %d",
          cls);
    CHECK_CLASS(MPI_Comm_group(MPI_COMM_NULL, &g), MPI_ERR_COMM);
    CHECK(g == MPI_GROUP_NULL, "a failed call set its output");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(size <= 64, "this test handles up to 64 ranks");
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    struct ref w = {0, {0}};
    for (int i = 0; i < size; i++)
        w.m[w.n++] = i;
    check_group(world, &w, "group of MPI_COMM_WORLD");

    fixed_cases();
    for (int i = 0; i < 300; i++) {
        struct ref a = random_ref(), b = random_ref();
        if (i % 5 == 0)
            b = a; /* identical */
        else if (i % 5 == 1) {
            b = a; /* similar: same members, rotated */
            for (int j = 0; j < a.n; j++)
                b.m[j] = a.m[(j + 1) % a.n];
        }
        set_ops(&a, &b);
        incl_excl(&a);
    }
    errors();

    CHECK_MPI(MPI_Group_free(&world));
    CHECK(world == MPI_GROUP_NULL, "MPI_Group_free sets MPI_GROUP_NULL");
    if (rank == 0)
        printf("group_ops at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
