/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * group.c - process groups (MPI-3.1 6.3): MPI_GROUP_EMPTY, MPI_Comm_group,
 * the group accessors (size, rank, translate_ranks, compare), the
 * constructors (union, intersection, difference, incl, excl, range_incl,
 * range_excl) and MPI_Group_free.
 *
 * A group is an ordered list of MPI_COMM_WORLD ranks (objects.h); every
 * group operation is local.  Questions of the form "is world rank w in
 * group g, and where" are answered by g->index, a table over the world
 * ranks built the first time one is needed (a communicator builds its
 * group's at creation: the receive path reads it to fill MPI_SOURCE), or
 * by a scratch table of the same shape.  A table costs 4 bytes per world
 * rank; a job has at most a few thousand ranks on one machine.
 *
 * Every constructor whose result has no members returns MPI_GROUP_EMPTY
 * (6.3.2 says so for MPI_Group_incl with n = 0; the others follow), and
 * MPI_Group_free accepts it, as it must: programs free what they got.
 *
 * Errors go to MPI_COMM_WORLD's handler (a group call has no
 * communicator), MPI_Comm_group's to the communicator's.  The checks go
 * beyond what the standard obliges an implementation to find: ranks out
 * of range and ranks named twice in incl/excl/range_incl/range_excl
 * (MPI_ERR_RANK), triplets with a zero stride or a stride pointing away
 * from `last` (MPI_ERR_ARG).
 */
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "core/error.h"
#include "core/fint.h"
#include "core/pmpi.h"
#include "core/ref.h"

SHMPI_WEAK_ALIAS(Comm_group)
SHMPI_WEAK_ALIAS(Group_size)
SHMPI_WEAK_ALIAS(Group_rank)
SHMPI_WEAK_ALIAS(Group_translate_ranks)
SHMPI_WEAK_ALIAS(Group_compare)
SHMPI_WEAK_ALIAS(Group_union)
SHMPI_WEAK_ALIAS(Group_intersection)
SHMPI_WEAK_ALIAS(Group_difference)
SHMPI_WEAK_ALIAS(Group_incl)
SHMPI_WEAK_ALIAS(Group_excl)
SHMPI_WEAK_ALIAS(Group_range_incl)
SHMPI_WEAK_ALIAS(Group_range_excl)
SHMPI_WEAK_ALIAS(Group_free)

struct shmpi_group shmpi_group_empty = {
    .magic = SHMPI_MAGIC_GROUP, .refs = 1, .predefined = 1, .size = 0,
    .rank = MPI_UNDEFINED};

/* ------------------------------------------------------------------ */
/* The object                                                          */
/* ------------------------------------------------------------------ */

struct shmpi_group *shmpi_group_alloc(int n)
{
    struct shmpi_group *g = malloc(sizeof *g);
    int *ranks = malloc((n > 0 ? (size_t)n : 1) * sizeof *ranks);
    if (!g || !ranks) {
        free(g);
        free(ranks);
        return NULL;
    }
    *g = (struct shmpi_group){.magic = SHMPI_MAGIC_GROUP, .refs = 1,
                              .size = n, .rank = MPI_UNDEFINED,
                              .ranks = ranks};
    return g;
}

void shmpi_group_finish(struct shmpi_group *g)
{
    g->rank = MPI_UNDEFINED;
    for (int i = 0; i < g->size; i++)
        if (g->ranks[i] == shmpi_proc.rank)
            g->rank = i;
}

void shmpi_group_retain(struct shmpi_group *g)
{
    if (!g->predefined)
        shmpi_core_ref_inc(&g->refs);
}

void shmpi_group_release(struct shmpi_group *g)
{
    if (g->predefined || !shmpi_core_ref_dec(&g->refs))
        return;
    shmpi_fint_drop(SHMPI_FINT_GROUP, &g->fint);
    g->magic = 0;
    free(g->ranks);
    free(atomic_load_explicit(&g->index, memory_order_relaxed));
    free(g);
}

/* A table over the world ranks: MPI_UNDEFINED, or the position in g. */
static int *new_index(const struct shmpi_group *g)
{
    int n = shmpi_proc.size;
    int *t = malloc((size_t)n * sizeof *t);
    if (!t)
        return NULL;
    for (int w = 0; w < n; w++)
        t[w] = MPI_UNDEFINED;
    for (int i = 0; i < g->size; i++)
        t[g->ranks[i]] = i;
    return t;
}

/* Two threads may ask for the index of one group at once (both derive
   groups from it under MPI_THREAD_MULTIPLE): each builds a table of its
   own, and a compare-exchange NULL -> table publishes the first.  Release
   on success: the table's entries are written before the pointer can be
   seen; acquire on failure and in the load: whoever reads the pointer
   reads the entries the publisher wrote.  The loser frees its table and
   uses the winner's.  Below MULTIPLE the same code runs with one caller,
   and a table is built once, as before. */
const int *shmpi_group_index(struct shmpi_group *g)
{
    int *t = atomic_load_explicit(&g->index, memory_order_acquire);
    if (t || g->predefined)
        return t;
    int *mine = new_index(g);
    if (!mine)
        return NULL;
    if (atomic_compare_exchange_strong_explicit(&g->index, &t, mine,
                                                memory_order_release,
                                                memory_order_acquire))
        return mine;
    free(mine);
    return t;
}

/* MPI_COMM_WORLD and MPI_COMM_SELF make their group when first asked,
   and two threads may ask at once: the group is published as the index
   is above (build privately, compare-exchange NULL -> g with release,
   acquire on reading; the loser frees its own). */
struct shmpi_group *shmpi_comm_get_group(MPI_Comm comm)
{
    struct shmpi_group *g =
        atomic_load_explicit(&comm->group, memory_order_acquire);
    if (!g) {
        struct shmpi_group *mine = shmpi_group_alloc(comm->size);
        if (!mine)
            return NULL;
        for (int i = 0; i < comm->size; i++)
            mine->ranks[i] = shmpi_comm_to_world(comm, i);
        mine->rank = comm->rank;
        /* on success, mine is the communicator's reference */
        if (atomic_compare_exchange_strong_explicit(&comm->group, &g, mine,
                                                    memory_order_release,
                                                    memory_order_acquire))
            g = mine;
        else
            shmpi_group_release(mine);
    }
    shmpi_group_retain(g);
    return g;
}

/* A new group of the n world ranks in `world` (copied), or
   MPI_GROUP_EMPTY when n is 0. */
static int make_group(const char *fn, int n, const int *world,
                      MPI_Group *out)
{
    if (n == 0) {
        *out = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    struct shmpi_group *g = shmpi_group_alloc(n);
    if (!g)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "no memory for a group of %d", n);
    memcpy(g->ranks, world, (size_t)n * sizeof *world);
    shmpi_group_finish(g);
    *out = g;
    shmpi_group_handed(g, fn);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Argument checks                                                     */
/* ------------------------------------------------------------------ */

static int bad_group(const char *fn, MPI_Group g, const char *what)
{
    return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_GROUP, fn, "%s is %s", what,
                       g == MPI_GROUP_NULL ? "MPI_GROUP_NULL"
                                           : "not a valid group");
}

#define CHECK_GROUP(fn, g, what)                                          \
    do {                                                                  \
        if (!shmpi_group_ok(g))                                           \
            return bad_group(fn, g, what);                                \
    } while (0)

#define CHECK_OUT(fn, p, what)                                            \
    do {                                                                  \
        if (!(p))                                                         \
            return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,           \
                               "%s is NULL", what);                       \
    } while (0)

static int check_count(const char *fn, int n, const void *array,
                       const char *what)
{
    if (n < 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, fn,
                           "n is %d, must be >= 0", n);
    if (n > 0 && !array)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "%s is NULL but n is %d", what, n);
    return MPI_SUCCESS;
}

/* A scratch flag per member of g, all clear; NULL raised as NO_MEM. */
static unsigned char *member_flags(const char *fn, const struct shmpi_group *g)
{
    unsigned char *f = calloc(g->size > 0 ? (size_t)g->size : 1, 1);
    if (!f)
        shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                    "no memory for %d flags", g->size);
    return f;
}

/* ------------------------------------------------------------------ */
/* Accessors                                                           */
/* ------------------------------------------------------------------ */

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    static const char *fn = "MPI_Comm_group";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (!group)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "group is NULL");
    struct shmpi_group *g = shmpi_comm_get_group(comm);
    if (!g)
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for a group of %d", comm->size);
    *group = g;
    if (comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF)
        shmpi_group_handed(g, fn);
    return MPI_SUCCESS;
}

int PMPI_Group_size(MPI_Group group, int *size)
{
    static const char *fn = "MPI_Group_size";
    SHMPI_REQUIRE_INIT(fn);
    CHECK_GROUP(fn, group, "group");
    CHECK_OUT(fn, size, "size");
    *size = group->size;
    return MPI_SUCCESS;
}

int PMPI_Group_rank(MPI_Group group, int *rank)
{
    static const char *fn = "MPI_Group_rank";
    SHMPI_REQUIRE_INIT(fn);
    CHECK_GROUP(fn, group, "group");
    CHECK_OUT(fn, rank, "rank");
    *rank = group->rank;
    return MPI_SUCCESS;
}

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
                               MPI_Group group2, int ranks2[])
{
    static const char *fn = "MPI_Group_translate_ranks";
    SHMPI_REQUIRE_INIT(fn);
    CHECK_GROUP(fn, group1, "group1");
    CHECK_GROUP(fn, group2, "group2");
    int rc = check_count(fn, n, ranks1, "ranks1");
    if (rc == MPI_SUCCESS)
        rc = check_count(fn, n, ranks2, "ranks2");
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL &&
            (ranks1[i] < 0 || ranks1[i] >= group1->size))
            return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_RANK, fn,
                               "ranks1[%d] = %d is not a rank of group1 "
                               "(size %d) nor MPI_PROC_NULL",
                               i, ranks1[i], group1->size);
    const int *index = NULL;
    if (n > 0 && group2->size > 0 && !(index = shmpi_group_index(group2)))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "no memory for a rank table");
    for (int i = 0; i < n; i++) {
        int r = ranks1[i];
        if (r == MPI_PROC_NULL)
            ranks2[i] = MPI_PROC_NULL;
        else
            ranks2[i] = index ? index[group1->ranks[r]] : MPI_UNDEFINED;
    }
    return MPI_SUCCESS;
}

int shmpi_comm_compare_members(int n, const int *a, const int *b)
{
    if (n == 0 || !memcmp(a, b, (size_t)n * sizeof *a))
        return MPI_IDENT;
    unsigned char *seen = calloc((size_t)shmpi_proc.size, 1);
    if (!seen) {
        /* quadratic, but needs no memory */
        for (int i = 0; i < n; i++) {
            int found = 0;
            for (int j = 0; j < n && !found; j++)
                found = a[i] == b[j];
            if (!found)
                return MPI_UNEQUAL;
        }
        return MPI_SIMILAR;
    }
    for (int i = 0; i < n; i++)
        seen[a[i]] = 1;
    int result = MPI_SIMILAR;
    for (int i = 0; i < n && result == MPI_SIMILAR; i++)
        if (!seen[b[i]])
            result = MPI_UNEQUAL;
    free(seen);
    return result;
}

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    static const char *fn = "MPI_Group_compare";
    SHMPI_REQUIRE_INIT(fn);
    CHECK_GROUP(fn, group1, "group1");
    CHECK_GROUP(fn, group2, "group2");
    CHECK_OUT(fn, result, "result");
    *result = group1->size != group2->size
                  ? MPI_UNEQUAL
                  : shmpi_comm_compare_members(group1->size, group1->ranks,
                                               group2->ranks);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Set-like constructors (6.3.2): the order is group1's, then group2's */
/* ------------------------------------------------------------------ */

enum set_op { SET_UNION, SET_INTERSECTION, SET_DIFFERENCE };

static int set_op(const char *fn, enum set_op op, MPI_Group g1, MPI_Group g2,
                  MPI_Group *newgroup)
{
    SHMPI_REQUIRE_INIT(fn);
    CHECK_GROUP(fn, g1, "group1");
    CHECK_GROUP(fn, g2, "group2");
    CHECK_OUT(fn, newgroup, "newgroup");
    unsigned char *in2 = calloc((size_t)shmpi_proc.size, 1);
    int *out = malloc(((size_t)g1->size + (size_t)g2->size + 1) *
                      sizeof *out);
    if (!in2 || !out) {
        free(in2);
        free(out);
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "no memory for scratch tables");
    }
    for (int i = 0; i < g2->size; i++)
        in2[g2->ranks[i]] = 1;
    int n = 0;
    /* group1's members, in group1's order: all of them (union), those
       in group2 (intersection), those not in group2 (difference) */
    for (int i = 0; i < g1->size; i++) {
        int w = g1->ranks[i];
        if (op == SET_UNION || (op == SET_INTERSECTION) == in2[w])
            out[n++] = w;
    }
    if (op == SET_UNION) {
        /* then group2's members not in group1, in group2's order */
        for (int i = 0; i < g2->size; i++)
            in2[g2->ranks[i]] = 2;
        for (int i = 0; i < g1->size; i++)
            in2[g1->ranks[i]] = 1;
        for (int i = 0; i < g2->size; i++)
            if (in2[g2->ranks[i]] == 2)
                out[n++] = g2->ranks[i];
    }
    int rc = make_group(fn, n, out, newgroup);
    free(in2);
    free(out);
    return rc;
}

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op("MPI_Group_union", SET_UNION, group1, group2, newgroup);
}

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2,
                            MPI_Group *newgroup)
{
    return set_op("MPI_Group_intersection", SET_INTERSECTION, group1, group2,
                  newgroup);
}

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2,
                          MPI_Group *newgroup)
{
    return set_op("MPI_Group_difference", SET_DIFFERENCE, group1, group2,
                  newgroup);
}

/* ------------------------------------------------------------------ */
/* Constructors from lists of ranks                                    */
/* ------------------------------------------------------------------ */

/* Check that ranks[0..n) are ranks of g, none twice; flags[r] is set for
   each (flags: member_flags of g). */
static int check_rank_list(const char *fn, const struct shmpi_group *g,
                           int n, const int ranks[], unsigned char *flags)
{
    for (int i = 0; i < n; i++) {
        int r = ranks[i];
        if (r < 0 || r >= g->size)
            return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_RANK, fn,
                               "ranks[%d] = %d is not a rank of the group "
                               "(size %d)", i, r, g->size);
        if (flags[r])
            return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_RANK, fn,
                               "ranks[%d] = %d appears twice in ranks", i, r);
        flags[r] = 1;
    }
    return MPI_SUCCESS;
}

/* The members of g whose flag is clear, in g's order. */
static int excluded(const char *fn, const struct shmpi_group *g,
                    const unsigned char *flags, MPI_Group *newgroup)
{
    int *out = malloc(((size_t)g->size + 1) * sizeof *out);
    if (!out)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "no memory for %d ranks", g->size);
    int n = 0;
    for (int i = 0; i < g->size; i++)
        if (!flags[i])
            out[n++] = g->ranks[i];
    int rc = make_group(fn, n, out, newgroup);
    free(out);
    return rc;
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[],
                    MPI_Group *newgroup)
{
    static const char *fn = "MPI_Group_incl";
    SHMPI_REQUIRE_INIT(fn);
    CHECK_GROUP(fn, group, "group");
    CHECK_OUT(fn, newgroup, "newgroup");
    int rc = check_count(fn, n, ranks, "ranks");
    if (rc != MPI_SUCCESS)
        return rc;
    unsigned char *flags = member_flags(fn, group);
    if (!flags)
        return MPI_ERR_NO_MEM;
    rc = check_rank_list(fn, group, n, ranks, flags);
    free(flags);
    if (rc != MPI_SUCCESS)
        return rc;
    /* n <= size now: ranks are distinct ranks of the group */
    int *out = malloc(((size_t)n + 1) * sizeof *out);
    if (!out)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "no memory for %d ranks", n);
    for (int i = 0; i < n; i++)
        out[i] = group->ranks[ranks[i]];
    rc = make_group(fn, n, out, newgroup);
    free(out);
    return rc;
}

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[],
                    MPI_Group *newgroup)
{
    static const char *fn = "MPI_Group_excl";
    SHMPI_REQUIRE_INIT(fn);
    CHECK_GROUP(fn, group, "group");
    CHECK_OUT(fn, newgroup, "newgroup");
    int rc = check_count(fn, n, ranks, "ranks");
    if (rc != MPI_SUCCESS)
        return rc;
    unsigned char *flags = member_flags(fn, group);
    if (!flags)
        return MPI_ERR_NO_MEM;
    rc = check_rank_list(fn, group, n, ranks, flags);
    if (rc == MPI_SUCCESS)
        rc = excluded(fn, group, flags, newgroup);
    free(flags);
    return rc;
}

/*
 * Expand n triplets (first, last, stride) into the ranks
 * first, first + stride, ..., first + floor((last - first) / stride) *
 * stride (6.3.2), checking each triplet, each computed rank, and that no
 * rank comes twice.  Sets flags[r] for each; *out (if out is not NULL)
 * gets them in order, *count their number.
 */
static int expand_ranges(const char *fn, const struct shmpi_group *g, int n,
                         int ranges[][3], unsigned char *flags, int *out,
                         int *count)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        long long first = ranges[i][0], last = ranges[i][1],
                  stride = ranges[i][2];
        if (stride == 0)
            return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                               "triplet %d (%lld, %lld, %lld): the stride "
                               "is 0", i, first, last, stride);
        if ((last > first && stride < 0) || (last < first && stride > 0))
            return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                               "triplet %d (%lld, %lld, %lld): the stride "
                               "leads away from last", i, first, last,
                               stride);
        long long steps = (last - first) / stride; /* >= 0, rounded down */
        long long end = first + steps * stride;    /* last computed rank */
        if (first < 0 || first >= g->size || end < 0 || end >= g->size)
            return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_RANK, fn,
                               "triplet %d (%lld, %lld, %lld) computes rank "
                               "%lld, not a rank of the group (size %d)",
                               i, first, last, stride,
                               first < 0 || first >= g->size ? first : end,
                               g->size);
        /* every computed rank lies between first and end: all valid */
        for (long long r = first, s = 0; s <= steps; s++, r += stride) {
            if (flags[r])
                return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_RANK, fn,
                                   "triplet %d (%lld, %lld, %lld) computes "
                                   "rank %lld, which an earlier part of "
                                   "ranges computed already",
                                   i, first, last, stride, r);
            flags[r] = 1;
            if (out)
                out[k] = (int)r;
            k++; /* at most size: a rank never comes twice */
        }
    }
    *count = k;
    return MPI_SUCCESS;
}

static int check_ranges(const char *fn, MPI_Group group, int n,
                        int ranges[][3], MPI_Group *newgroup)
{
    CHECK_GROUP(fn, group, "group");
    CHECK_OUT(fn, newgroup, "newgroup");
    return check_count(fn, n, ranges, "ranges");
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
                          MPI_Group *newgroup)
{
    static const char *fn = "MPI_Group_range_incl";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_ranges(fn, group, n, ranges, newgroup);
    if (rc != MPI_SUCCESS)
        return rc;
    unsigned char *flags = member_flags(fn, group);
    if (!flags)
        return MPI_ERR_NO_MEM;
    int *picked = malloc(((size_t)group->size + 1) * sizeof *picked);
    if (!picked) {
        free(flags);
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "no memory for %d ranks", group->size);
    }
    int count = 0;
    rc = expand_ranges(fn, group, n, ranges, flags, picked, &count);
    if (rc == MPI_SUCCESS) {
        for (int i = 0; i < count; i++)
            picked[i] = group->ranks[picked[i]];
        rc = make_group(fn, count, picked, newgroup);
    }
    free(flags);
    free(picked);
    return rc;
}

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
                          MPI_Group *newgroup)
{
    static const char *fn = "MPI_Group_range_excl";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_ranges(fn, group, n, ranges, newgroup);
    if (rc != MPI_SUCCESS)
        return rc;
    unsigned char *flags = member_flags(fn, group);
    if (!flags)
        return MPI_ERR_NO_MEM;
    int count = 0;
    rc = expand_ranges(fn, group, n, ranges, flags, NULL, &count);
    if (rc == MPI_SUCCESS)
        rc = excluded(fn, group, flags, newgroup);
    free(flags);
    return rc;
}

int PMPI_Group_free(MPI_Group *group)
{
    static const char *fn = "MPI_Group_free";
    SHMPI_REQUIRE_INIT(fn);
    CHECK_OUT(fn, group, "group");
    CHECK_GROUP(fn, *group, "*group");
    if (__builtin_expect(shmpi_core_checking(), 0))
        shmpi_core_live_freed(SHMPI_LIVE_GROUP, *group);
    shmpi_group_release(*group);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
