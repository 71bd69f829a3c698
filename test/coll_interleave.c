/* coll_interleave: thousands of collectives of every kind, sizes and roots drawn from one random sequence, back to back on one communicator and interleaved on world, a duplicate and the parts of a split, then on 300 communicators alive at once (more than shmpi has areas for: message fallback) and on communicators made and freed in a loop; each result checked - a collective that reuses a buffer before everyone is done with it shows up as wrong data. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size;
static unsigned long long lcg = 12345;

/* The same sequence on every rank. */
static unsigned draw(unsigned n)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(lcg >> 33) % n;
}

static int val(int seed, int r, long e) { return seed * 7919 + r * 131 + (int)e; }

struct comm {
    MPI_Comm c;
    int rank, size;
};

static void check_block(const int *got, long n, int seed, int r, long e0,
                        const char *what, int i)
{
    for (long e = 0; e < n; e++)
        CHECK(got[e] == val(seed, r, e0 + e),
              "op %d (%s): element %ld from rank %d is %d, expected %d", i,
              what, e, r, got[e], val(seed, r, e0 + e));
}

static void one(const struct comm *m, int i)
{
    static const long sizes[] = {1, 3, 4, 5, 100, 3000, 20000};
    int kind = (int)draw(11), root = (int)draw((unsigned)m->size);
    long n = sizes[draw(sizeof sizes / sizeof *sizes)];
    int seed = i, me = m->rank, np = m->size;
    int *s = malloc((size_t)n * np * sizeof *s);
    int *d = malloc((size_t)n * np * sizeof *d);
    CHECK(s && d, "out of memory");
    for (long e = 0; e < n * np; e++)
        s[e] = val(seed, me, e);
    switch (kind) {
    case 0:
        CHECK_MPI(MPI_Barrier(m->c));
        break;
    case 1:
        CHECK_MPI(MPI_Bcast(me == root ? s : d, (int)n, MPI_INT, root, m->c));
        if (me != root)
            check_block(d, n, seed, root, 0, "bcast", i);
        break;
    case 2:
    case 3:
        if (kind == 2)
            CHECK_MPI(MPI_Reduce(s, d, (int)n, MPI_INT, MPI_SUM, root, m->c));
        else
            CHECK_MPI(MPI_Allreduce(s, d, (int)n, MPI_INT, MPI_SUM, m->c));
        if (kind == 3 || me == root)
            for (long e = 0; e < n; e++) {
                long want = 0;
                for (int r = 0; r < np; r++)
                    want += val(seed, r, e);
                CHECK(d[e] == want, "op %d (reduce): element %ld is %d, "
                      "expected %ld", i, e, d[e], want);
            }
        break;
    case 4:
        CHECK_MPI(MPI_Gather(s, (int)n, MPI_INT, d, (int)n, MPI_INT, root,
                             m->c));
        for (int r = 0; me == root && r < np; r++)
            check_block(d + n * r, n, seed, r, 0, "gather", i);
        break;
    case 5:
        CHECK_MPI(MPI_Scatter(s, (int)n, MPI_INT, d, (int)n, MPI_INT, root,
                              m->c));
        check_block(d, n, seed, root, n * me, "scatter", i);
        break;
    case 6:
        CHECK_MPI(MPI_Allgather(s, (int)n, MPI_INT, d, (int)n, MPI_INT,
                                m->c));
        for (int r = 0; r < np; r++)
            check_block(d + n * r, n, seed, r, 0, "allgather", i);
        break;
    case 7:
        CHECK_MPI(MPI_Alltoall(s, (int)n, MPI_INT, d, (int)n, MPI_INT,
                               m->c));
        for (int r = 0; r < np; r++)
            check_block(d + n * r, n, seed, r, n * me, "alltoall", i);
        break;
    case 8:
    case 9:
        if (kind == 8)
            CHECK_MPI(MPI_Scan(s, d, (int)n, MPI_INT, MPI_SUM, m->c));
        else
            CHECK_MPI(MPI_Exscan(s, d, (int)n, MPI_INT, MPI_SUM, m->c));
        for (long e = 0; (kind == 8 || me > 0) && e < n; e++) {
            long want = 0;
            for (int r = 0; r < me + (kind == 8); r++)
                want += val(seed, r, e);
            CHECK(d[e] == want, "op %d (scan): element %ld is %d, expected "
                  "%ld", i, e, d[e], want);
        }
        break;
    default:
        CHECK_MPI(MPI_Reduce_scatter_block(s, d, (int)n, MPI_INT, MPI_SUM,
                                           m->c));
        for (long e = 0; e < n; e++) {
            long want = 0;
            for (int r = 0; r < np; r++)
                want += val(seed, r, n * me + e);
            CHECK(d[e] == want, "op %d (reduce_scatter_block): element %ld "
                  "is %d, expected %ld", i, e, d[e], want);
        }
        break;
    }
    free(s);
    free(d);
}

static struct comm wrap(MPI_Comm c)
{
    struct comm m = {c, 0, 0};
    CHECK_MPI(MPI_Comm_rank(c, &m.rank));
    CHECK_MPI(MPI_Comm_size(c, &m.size));
    return m;
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int rounds = size > 4 ? 600 : 3000;

    /* back to back on world */
    struct comm world = wrap(MPI_COMM_WORLD);
    for (int i = 0; i < rounds; i++)
        one(&world, i);

    /* interleaved: world, a duplicate, and this rank's part of a split
       into thirds; a part's sequence differs from the others' only in
       what it draws, so each part draws from its own copy */
    MPI_Comm dup, part;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 3, rank, &part));
    struct comm d = wrap(dup), p = wrap(part);
    unsigned long long shared = lcg, own = lcg ^ (unsigned long long)(rank % 3);
    for (int i = 0; i < rounds; i++) {
        lcg = shared;
        one(i % 3 == 1 ? &d : &world, rounds + i);
        shared = lcg;
        if (i % 3 == 2) {
            lcg = own;
            one(&p, 2 * rounds + i);
            own = lcg;
        }
    }
    lcg = shared;
    CHECK_MPI(MPI_Comm_free(&part));
    CHECK_MPI(MPI_Comm_free(&dup));

    /* more communicators alive at once than shmpi has collective areas
       (256 by default): the last ones run their collectives on messages;
       the ops alternate between the first ten and the last ten */
    enum { MANY = 300 };
    MPI_Comm *many = malloc(MANY * sizeof *many);
    CHECK(many, "out of memory");
    for (int i = 0; i < MANY; i++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &many[i]));
    for (int i = 0; i < rounds / 4; i++) {
        struct comm t = wrap(many[i % 2 ? MANY - 1 - i % 10 : i % 10]);
        one(&t, 4000 + i);
    }
    for (int i = 0; i < MANY; i++)
        CHECK_MPI(MPI_Comm_free(&many[i]));
    free(many);

    /* communicators made and freed over and over: areas go back and are
       taken again, all zeros */
    for (int i = 0; i < (size > 4 ? 60 : 200); i++) {
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
        struct comm t = wrap(dup);
        one(&t, 5000 + i);
        CHECK_MPI(MPI_Comm_free(&dup));
    }
    CHECK_MPI(MPI_Finalize());
    return 0;
}
