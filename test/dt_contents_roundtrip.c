/* dt_contents_roundtrip: every combiner decoded with MPI_Type_get_envelope/get_contents (exact arguments, table 4.1 layout) and rebuilt recursively from what was decoded into a type with the same type map, contents and packing; named types report MPI_COMBINER_NAMED. */
/* shmpi-test: np=1 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * For each type: the envelope's counts follow table 4.1 from the decoded
 * arguments; for the hand-written cases the decoded arguments are
 * exactly the constructor's (derived children compared by decoding them
 * in turn); the type is rebuilt by calling the constructor its combiner
 * names on the decoded arguments, children rebuilt first, and the copy
 * must decode the same, have the same size, extent and true extent, and
 * pack a patterned buffer (two elements) to the same bytes.  Every
 * derived type get_contents returns is freed, and the original must
 * still work afterwards.  A few hundred random nested types go through
 * the same round trip.
 */
#include "dt_check.h"
#include "rng.h"

#include <stdint.h>

#define MAXARGS 256

struct contents {
    int ni, na, nd, combiner;
    int ints[MAXARGS];
    MPI_Aint addrs[MAXARGS];
    MPI_Datatype types[MAXARGS];
};

/* ------------------------------------------------------------ decoding */

static void envelope(MPI_Datatype t, struct contents *c)
{
    CHECK_MPI(MPI_Type_get_envelope(t, &c->ni, &c->na, &c->nd, &c->combiner));
    CHECK(c->ni <= MAXARGS && c->na <= MAXARGS && c->nd <= MAXARGS,
          "envelope %d %d %d too large for the test", c->ni, c->na, c->nd);
}

/* The (ni, na, nd) table 4.1 gives for c's combiner and arguments. */
static void check_envelope_counts(const struct contents *c)
{
    int n = c->ni > 0 ? c->ints[0] : 0, want[3] = {-1, -1, -1};
    switch (c->combiner) {
    case MPI_COMBINER_DUP:
        want[0] = 0, want[1] = 0, want[2] = 1;
        break;
    case MPI_COMBINER_CONTIGUOUS:
        want[0] = 1, want[1] = 0, want[2] = 1;
        break;
    case MPI_COMBINER_VECTOR:
        want[0] = 3, want[1] = 0, want[2] = 1;
        break;
    case MPI_COMBINER_HVECTOR:
        want[0] = 2, want[1] = 1, want[2] = 1;
        break;
    case MPI_COMBINER_INDEXED:
        want[0] = 2 * n + 1, want[1] = 0, want[2] = 1;
        break;
    case MPI_COMBINER_HINDEXED:
        want[0] = n + 1, want[1] = n, want[2] = 1;
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        want[0] = n + 2, want[1] = 0, want[2] = 1;
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        want[0] = 2, want[1] = n, want[2] = 1;
        break;
    case MPI_COMBINER_STRUCT:
        want[0] = n + 1, want[1] = n, want[2] = n;
        break;
    case MPI_COMBINER_SUBARRAY:
        want[0] = 3 * n + 2, want[1] = 0, want[2] = 1;
        break;
    case MPI_COMBINER_DARRAY:
        n = c->ni > 2 ? c->ints[2] : 0;
        want[0] = 4 * n + 4, want[1] = 0, want[2] = 1;
        break;
    case MPI_COMBINER_RESIZED:
        want[0] = 0, want[1] = 2, want[2] = 1;
        break;
    default:
        CHECK(0, "unexpected combiner %d", c->combiner);
    }
    CHECK(c->ni == want[0] && c->na == want[1] && c->nd == want[2],
          "combiner %d: envelope (%d, %d, %d), table 4.1 says (%d, %d, %d)",
          c->combiner, c->ni, c->na, c->nd, want[0], want[1], want[2]);
}

/* Decodes a derived type; the caller frees the types (release()). */
static void decode(MPI_Datatype t, struct contents *c)
{
    envelope(t, c);
    CHECK(c->combiner != MPI_COMBINER_NAMED, "decode of a named type");
    /* (larger maxima would do as well, but crash Open MPI 4.1 on a dup) */
    CHECK_MPI(MPI_Type_get_contents(t, c->ni, c->na, c->nd, c->ints,
                                    c->addrs, c->types));
    check_envelope_counts(c);
}

/* Frees the derived types get_contents returned. */
static void release(struct contents *c)
{
    for (int i = 0; i < c->nd; i++)
        if (!is_named(c->types[i])) {
            CHECK_MPI(MPI_Type_free(&c->types[i]));
            CHECK(c->types[i] == MPI_DATATYPE_NULL,
                  "MPI_Type_free left a returned handle set");
        }
}

/* Same constructor, same arguments, all the way down? */
static int same_tree(MPI_Datatype a, MPI_Datatype b, int depth);

static int same_contents(const struct contents *x, const struct contents *y,
                         int depth)
{
    if (x->combiner != y->combiner || x->ni != y->ni || x->na != y->na ||
        x->nd != y->nd)
        return 0;
    if (memcmp(x->ints, y->ints, sizeof(int) * (size_t)x->ni) ||
        memcmp(x->addrs, y->addrs, sizeof(MPI_Aint) * (size_t)x->na))
        return 0;
    for (int i = 0; i < x->nd; i++)
        if (!same_tree(x->types[i], y->types[i], depth + 1))
            return 0;
    return 1;
}

static int same_tree(MPI_Datatype a, MPI_Datatype b, int depth)
{
    CHECK(depth < 32, "decoding does not end");
    int na = is_named(a), nb = is_named(b);
    if (na || nb)
        return na && nb && a == b;
    struct contents *x = malloc(sizeof *x), *y = malloc(sizeof *y);
    CHECK(x && y, "out of memory");
    decode(a, x);
    decode(b, y);
    int same = same_contents(x, y, depth);
    release(x);
    release(y);
    free(x);
    free(y);
    return same;
}

/* ------------------------------------------------------------ rebuilding */

/* Calls the constructor `combiner` names with arguments in the layout of
   table 4.1. */
static MPI_Datatype construct(int combiner, const int *i, const MPI_Aint *a,
                              const MPI_Datatype *d)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int n = i[0];
    switch (combiner) {
    case MPI_COMBINER_DUP:
        CHECK_MPI(MPI_Type_dup(d[0], &t));
        break;
    case MPI_COMBINER_CONTIGUOUS:
        CHECK_MPI(MPI_Type_contiguous(n, d[0], &t));
        break;
    case MPI_COMBINER_VECTOR:
        CHECK_MPI(MPI_Type_vector(n, i[1], i[2], d[0], &t));
        break;
    case MPI_COMBINER_HVECTOR:
        CHECK_MPI(MPI_Type_create_hvector(n, i[1], a[0], d[0], &t));
        break;
    case MPI_COMBINER_INDEXED:
        CHECK_MPI(MPI_Type_indexed(n, i + 1, i + 1 + n, d[0], &t));
        break;
    case MPI_COMBINER_HINDEXED:
        CHECK_MPI(MPI_Type_create_hindexed(n, i + 1, a, d[0], &t));
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        CHECK_MPI(MPI_Type_create_indexed_block(n, i[1], i + 2, d[0], &t));
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        CHECK_MPI(MPI_Type_create_hindexed_block(n, i[1], a, d[0], &t));
        break;
    case MPI_COMBINER_STRUCT:
        CHECK_MPI(MPI_Type_create_struct(n, i + 1, a, d, &t));
        break;
    case MPI_COMBINER_SUBARRAY:
        CHECK_MPI(MPI_Type_create_subarray(n, i + 1, i + 1 + n, i + 1 + 2 * n,
                                           i[1 + 3 * n], d[0], &t));
        break;
    case MPI_COMBINER_DARRAY: {
        int nd = i[2];
        CHECK_MPI(MPI_Type_create_darray(n, i[1], nd, i + 3, i + 3 + nd,
                                         i + 3 + 2 * nd, i + 3 + 3 * nd,
                                         i[3 + 4 * nd], d[0], &t));
        break;
    }
    case MPI_COMBINER_RESIZED:
        CHECK_MPI(MPI_Type_create_resized(d[0], a[0], a[1], &t));
        break;
    default:
        CHECK(0, "cannot rebuild combiner %d", combiner);
    }
    return t;
}

/* A new type built from t's decoded arguments, its children rebuilt the
   same way; t itself when named. */
static MPI_Datatype rebuild(MPI_Datatype t)
{
    if (is_named(t))
        return t;
    struct contents *c = malloc(sizeof *c);
    CHECK(c, "out of memory");
    decode(t, c);
    MPI_Datatype kids[MAXARGS];
    for (int k = 0; k < c->nd; k++)
        kids[k] = rebuild(c->types[k]);
    MPI_Datatype r = construct(c->combiner, c->ints, c->addrs, kids);
    for (int k = 0; k < c->nd; k++)
        if (!is_named(kids[k]))
            CHECK_MPI(MPI_Type_free(&kids[k]));
    release(c);
    free(c);
    return r;
}

/* ------------------------------------------------------------ type maps */

static unsigned char pattern(long k)
{
    uint32_t v = (uint32_t)k * 2654435761u;
    return (unsigned char)(v >> 13 ^ v >> 24);
}

/* Packs 2 elements of t (committed copy) from a patterned buffer. */
static unsigned char *pack2(MPI_Datatype t, int *len)
{
    MPI_Aint lb, ext, tlb, text;
    int tsize;
    CHECK_MPI(MPI_Type_size(t, &tsize));
    *len = 0;
    if (tsize == 0)   /* no data, and no true extent to size a buffer */
        return malloc(1);
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
    CHECK_MPI(MPI_Type_get_true_extent(t, &tlb, &text));
    MPI_Aint lo = tlb < 0 ? tlb : 0, hi = tlb + text + (ext > 0 ? ext : 0);
    if (ext < 0)
        lo += ext;
    size_t span = (size_t)(hi - lo) + 1;
    unsigned char *mem = malloc(span);
    CHECK(mem, "no memory for %zu bytes: lb %ld extent %ld true lb %ld "
          "true extent %ld", span, (long)lb, (long)ext, (long)tlb, (long)text);
    for (size_t k = 0; k < span; k++)
        mem[k] = pattern((long)k);
    MPI_Datatype c;
    CHECK_MPI(MPI_Type_dup(t, &c));
    CHECK_MPI(MPI_Type_commit(&c));
    int size, pos = 0;
    CHECK_MPI(MPI_Pack_size(2, c, MPI_COMM_WORLD, &size));
    unsigned char *out = malloc((size_t)size + 1);
    CHECK(out, "out of memory");
    CHECK_MPI(MPI_Pack(mem - lo, 2, c, out, size, &pos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Type_free(&c));
    free(mem);
    *len = pos;
    return out;
}

static void same_map(MPI_Datatype a, MPI_Datatype b, const char *what)
{
    MPI_Count sa, sb, la, lb, ea, eb;
    CHECK_MPI(MPI_Type_size_x(a, &sa));
    CHECK_MPI(MPI_Type_size_x(b, &sb));
    CHECK(sa == sb, "%s: size %lld, rebuilt %lld", what, (long long)sa,
          (long long)sb);
    CHECK_MPI(MPI_Type_get_extent_x(a, &la, &ea));
    CHECK_MPI(MPI_Type_get_extent_x(b, &lb, &eb));
    CHECK(la == lb && ea == eb, "%s: lb/extent %lld/%lld, rebuilt %lld/%lld",
          what, (long long)la, (long long)ea, (long long)lb, (long long)eb);
    CHECK_MPI(MPI_Type_get_true_extent_x(a, &la, &ea));
    CHECK_MPI(MPI_Type_get_true_extent_x(b, &lb, &eb));
    /* an empty type map has no true bounds (4.1.8) */
    CHECK(sa == 0 || (la == lb && ea == eb),
          "%s: true lb/extent %lld/%lld, rebuilt %lld/%lld", what,
          (long long)la, (long long)ea, (long long)lb, (long long)eb);
    int na, nb;
    unsigned char *pa = pack2(a, &na), *pb = pack2(b, &nb);
    CHECK(na == nb && memcmp(pa, pb, (size_t)na) == 0,
          "%s: the rebuilt type packs differently (%d vs %d bytes)", what, na,
          nb);
    free(pa);
    free(pb);
}

/* The round trip of the top comment; consumes t. */
static void roundtrip(MPI_Datatype t, const char *what)
{
    int before_len, after_len;
    unsigned char *before = pack2(t, &before_len);
    MPI_Datatype r = rebuild(t);
    CHECK(same_tree(t, r, 0), "%s: the rebuilt type decodes differently",
          what);
    same_map(t, r, what);
    /* the returned types were freed: t must be intact */
    unsigned char *after = pack2(t, &after_len);
    CHECK(before_len == after_len &&
              memcmp(before, after, (size_t)before_len) == 0,
          "%s: decoding changed the type", what);
    free(before);
    free(after);
    CHECK_MPI(MPI_Type_free(&r));
    CHECK_MPI(MPI_Type_free(&t));
}

/* ------------------------------------------------------------ exact cases */

/* t decodes to exactly (combiner, ints, addrs, types); derived types in
   `types` are compared by their own decoding. */
static void expect_decoded(MPI_Datatype t, const char *what, int combiner,
                           int ni, const int *ints, int na,
                           const MPI_Aint *addrs, int nd,
                           const MPI_Datatype *types)
{
    struct contents *c = malloc(sizeof *c);
    CHECK(c, "out of memory");
    decode(t, c);
    CHECK(c->combiner == combiner, "%s: combiner %d, expected %d", what,
          c->combiner, combiner);
    CHECK(c->ni == ni && c->na == na && c->nd == nd,
          "%s: envelope (%d, %d, %d), expected (%d, %d, %d)", what, c->ni,
          c->na, c->nd, ni, na, nd);
    for (int k = 0; k < ni; k++)
        CHECK(c->ints[k] == ints[k], "%s: integer %d is %d, expected %d",
              what, k, c->ints[k], ints[k]);
    for (int k = 0; k < na; k++)
        CHECK(c->addrs[k] == addrs[k], "%s: address %d is %ld, expected %ld",
              what, k, (long)c->addrs[k], (long)addrs[k]);
    for (int k = 0; k < nd; k++) {
        if (is_named(types[k]))
            CHECK(c->types[k] == types[k],
                  "%s: datatype %d is not the predefined handle given", what,
                  k);
        else
            CHECK(!is_named(c->types[k]) && same_tree(c->types[k], types[k], 1),
                  "%s: datatype %d decodes differently from the one given",
                  what, k);
    }
    release(c);
    free(c);
}

#define N(...) (int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int)), (int[]){__VA_ARGS__}
#define A(...) (int)(sizeof((MPI_Aint[]){__VA_ARGS__}) / sizeof(MPI_Aint)), (MPI_Aint[]){__VA_ARGS__}
#define D(...) (int)(sizeof((MPI_Datatype[]){__VA_ARGS__}) / sizeof(MPI_Datatype)), (MPI_Datatype[]){__VA_ARGS__}
#define NONE 0, NULL

static void exact_cases(void)
{
    MPI_Datatype t, vec, con, st;

    CHECK_MPI(MPI_Type_dup(MPI_INT, &t));
    expect_decoded(t, "dup(MPI_INT)", MPI_COMBINER_DUP, NONE, NONE,
                   D(MPI_INT));
    roundtrip(t, "dup(MPI_INT)");

    CHECK_MPI(MPI_Type_contiguous(5, MPI_DOUBLE, &con));
    expect_decoded(con, "contiguous", MPI_COMBINER_CONTIGUOUS, N(5), NONE,
                   D(MPI_DOUBLE));

    CHECK_MPI(MPI_Type_vector(3, 2, -5, MPI_INT, &vec));
    expect_decoded(vec, "vector", MPI_COMBINER_VECTOR, N(3, 2, -5), NONE,
                   D(MPI_INT));

    CHECK_MPI(MPI_Type_dup(vec, &t));
    expect_decoded(t, "dup(vector)", MPI_COMBINER_DUP, NONE, NONE, D(vec));
    roundtrip(t, "dup(vector)");

    CHECK_MPI(MPI_Type_create_hvector(4, 3, -40, MPI_SHORT, &t));
    expect_decoded(t, "hvector", MPI_COMBINER_HVECTOR, N(4, 3), A(-40),
                   D(MPI_SHORT));
    roundtrip(t, "hvector");

    CHECK_MPI(MPI_Type_create_hvector(2, 1, 1000, con, &t));
    expect_decoded(t, "hvector(contiguous)", MPI_COMBINER_HVECTOR, N(2, 1),
                   A(1000), D(con));
    roundtrip(t, "hvector(contiguous)");

    CHECK_MPI(MPI_Type_indexed(3, (int[]){2, 0, 1}, (int[]){5, -3, 9},
                               MPI_FLOAT, &t));
    expect_decoded(t, "indexed", MPI_COMBINER_INDEXED, N(3, 2, 0, 1, 5, -3, 9),
                   NONE, D(MPI_FLOAT));
    roundtrip(t, "indexed");

    CHECK_MPI(MPI_Type_create_hindexed(3, (int[]){1, 2, 3},
                                       (MPI_Aint[]){24, -16, 100}, MPI_DOUBLE,
                                       &t));
    expect_decoded(t, "hindexed", MPI_COMBINER_HINDEXED, N(3, 1, 2, 3),
                   A(24, -16, 100), D(MPI_DOUBLE));
    roundtrip(t, "hindexed");

    CHECK_MPI(MPI_Type_create_indexed_block(4, 2, (int[]){7, -2, 3, 11},
                                            MPI_CHAR, &t));
    expect_decoded(t, "indexed_block", MPI_COMBINER_INDEXED_BLOCK,
                   N(4, 2, 7, -2, 3, 11), NONE, D(MPI_CHAR));
    roundtrip(t, "indexed_block");

    CHECK_MPI(MPI_Type_create_hindexed_block(3, 2, (MPI_Aint[]){0, 64, -32},
                                             vec, &t));
    expect_decoded(t, "hindexed_block", MPI_COMBINER_HINDEXED_BLOCK, N(3, 2),
                   A(0, 64, -32), D(vec));
    roundtrip(t, "hindexed_block");

    CHECK_MPI(MPI_Type_create_struct(
        5, (int[]){1, 3, 2, 1, 0}, (MPI_Aint[]){0, 8, 48, -24, 500},
        (MPI_Datatype[]){MPI_INT, MPI_DOUBLE_INT, vec, MPI_CHAR, con}, &st));
    expect_decoded(st, "struct", MPI_COMBINER_STRUCT, N(5, 1, 3, 2, 1, 0),
                   A(0, 8, 48, -24, 500),
                   D(MPI_INT, MPI_DOUBLE_INT, vec, MPI_CHAR, con));

    CHECK_MPI(MPI_Type_create_subarray(3, (int[]){4, 5, 6}, (int[]){2, 3, 4},
                                       (int[]){1, 0, 2}, MPI_ORDER_C, MPI_INT,
                                       &t));
    expect_decoded(t, "subarray C", MPI_COMBINER_SUBARRAY,
                   N(3, 4, 5, 6, 2, 3, 4, 1, 0, 2, MPI_ORDER_C), NONE,
                   D(MPI_INT));
    roundtrip(t, "subarray C");

    CHECK_MPI(MPI_Type_create_subarray(2, (int[]){7, 5}, (int[]){3, 5},
                                       (int[]){4, 0}, MPI_ORDER_FORTRAN, con,
                                       &t));
    expect_decoded(t, "subarray Fortran", MPI_COMBINER_SUBARRAY,
                   N(2, 7, 5, 3, 5, 4, 0, MPI_ORDER_FORTRAN), NONE, D(con));
    roundtrip(t, "subarray Fortran");

    CHECK_MPI(MPI_Type_create_darray(
        4, 1, 2, (int[]){8, 6}, (int[]){MPI_DISTRIBUTE_BLOCK,
                                        MPI_DISTRIBUTE_CYCLIC},
        (int[]){MPI_DISTRIBUTE_DFLT_DARG, 2}, (int[]){2, 2}, MPI_ORDER_C,
        MPI_INT, &t));
    expect_decoded(t, "darray C", MPI_COMBINER_DARRAY,
                   N(4, 1, 2, 8, 6, MPI_DISTRIBUTE_BLOCK,
                     MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_DFLT_DARG, 2, 2, 2,
                     MPI_ORDER_C),
                   NONE, D(MPI_INT));
    roundtrip(t, "darray C");

    CHECK_MPI(MPI_Type_create_darray(
        3, 2, 3, (int[]){5, 4, 3},
        (int[]){MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE,
                MPI_DISTRIBUTE_BLOCK},
        (int[]){1, MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG},
        (int[]){3, 1, 1}, MPI_ORDER_FORTRAN, MPI_DOUBLE, &t));
    expect_decoded(t, "darray Fortran", MPI_COMBINER_DARRAY,
                   N(3, 2, 3, 5, 4, 3, MPI_DISTRIBUTE_CYCLIC,
                     MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK, 1,
                     MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG, 3, 1,
                     1, MPI_ORDER_FORTRAN),
                   NONE, D(MPI_DOUBLE));
    roundtrip(t, "darray Fortran");

    CHECK_MPI(MPI_Type_create_resized(st, -8, 64, &t));
    expect_decoded(t, "resized", MPI_COMBINER_RESIZED, NONE, A(-8, 64), D(st));
    roundtrip(t, "resized");

    /* the arguments behave as if copied: free them, then decode */
    MPI_Datatype inner, outer;
    CHECK_MPI(MPI_Type_create_resized(vec, 4, 100, &inner));
    CHECK_MPI(MPI_Type_contiguous(3, inner, &outer));
    CHECK_MPI(MPI_Type_free(&inner));
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_vector(3, 2, -5, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_create_resized(vec, 4, 100, &inner));
    expect_decoded(outer, "contiguous of freed types", MPI_COMBINER_CONTIGUOUS,
                   N(3), NONE, D(inner));
    roundtrip(outer, "contiguous of freed types");
    CHECK_MPI(MPI_Type_free(&inner));

    /* deep: resized(subarray(hindexed(indexed_block(dup(struct))))) */
    MPI_Datatype a, b, c, d;
    CHECK_MPI(MPI_Type_dup(st, &a));
    CHECK_MPI(MPI_Type_create_indexed_block(2, 1, (int[]){0, 3}, a, &b));
    CHECK_MPI(MPI_Type_create_hindexed(2, (int[]){1, 2},
                                       (MPI_Aint[]){-100, 4000}, b, &c));
    CHECK_MPI(MPI_Type_create_subarray(1, (int[]){3}, (int[]){2}, (int[]){1},
                                       MPI_ORDER_C, c, &d));
    CHECK_MPI(MPI_Type_create_resized(d, 16, 8, &t));
    CHECK_MPI(MPI_Type_commit(&t));   /* committed or not, decoding works */
    MPI_Datatype *all[] = {&a, &b, &c, &d};
    for (int k = 0; k < 4; k++)
        CHECK_MPI(MPI_Type_free(all[k]));
    roundtrip(t, "deep nesting");

    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_free(&con));
    CHECK_MPI(MPI_Type_free(&st));
}

/* ------------------------------------------------------------ named */

static void named_types(void)
{
    MPI_Datatype named[] = {
        MPI_CHAR, MPI_SHORT, MPI_INT, MPI_LONG, MPI_LONG_LONG_INT,
        MPI_LONG_LONG, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_UNSIGNED_SHORT,
        MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_UNSIGNED_LONG_LONG, MPI_FLOAT,
        MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_WCHAR, MPI_C_BOOL, MPI_INT8_T,
        MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T,
        MPI_UINT32_T, MPI_UINT64_T, MPI_AINT, MPI_COUNT, MPI_OFFSET,
        MPI_C_COMPLEX, MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
        MPI_C_LONG_DOUBLE_COMPLEX, MPI_BYTE, MPI_PACKED, MPI_INTEGER,
        MPI_REAL, MPI_DOUBLE_PRECISION, MPI_COMPLEX, MPI_LOGICAL,
        MPI_CHARACTER, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT,
        MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, MPI_2REAL, MPI_2DOUBLE_PRECISION,
        MPI_2INTEGER,
    };
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
        int ni = -1, na = -1, nd = -1, combiner = -1;
        CHECK_MPI(MPI_Type_get_envelope(named[k], &ni, &na, &nd, &combiner));
        CHECK(combiner == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0,
              "named type #%zu: combiner %d, envelope (%d, %d, %d)", k,
              combiner, ni, na, nd);
    }
}

/* ------------------------------------------------------------ random */

/* Small random types: the library, not a reference, is the judge here,
   so any valid arguments do. */
static MPI_Datatype random_type(struct rng *r, int depth)
{
    static MPI_Datatype leaves[] = {MPI_CHAR, MPI_INT, MPI_DOUBLE,
                                    MPI_SHORT_INT, MPI_FLOAT, MPI_UINT64_T};
    if (depth == 0 || rnd(r, 4) == 0)
        return leaves[rnd(r, 6)];
    static const int combiners[] = {
        MPI_COMBINER_DUP, MPI_COMBINER_CONTIGUOUS, MPI_COMBINER_VECTOR,
        MPI_COMBINER_HVECTOR, MPI_COMBINER_INDEXED, MPI_COMBINER_HINDEXED,
        MPI_COMBINER_INDEXED_BLOCK, MPI_COMBINER_HINDEXED_BLOCK,
        MPI_COMBINER_STRUCT, MPI_COMBINER_SUBARRAY, MPI_COMBINER_RESIZED,
    };
    int ints[3 * 8 + 2], n = (int)range(r, 1, 3);
    MPI_Aint addrs[8];
    MPI_Datatype kids[8];
    int combiner = combiners[rnd(r, sizeof combiners / sizeof combiners[0])];
    int nkids = combiner == MPI_COMBINER_STRUCT ? n : 1;
    for (int k = 0; k < nkids; k++)
        kids[k] = random_type(r, depth - 1);
    ints[0] = n;
    for (int k = 1; k < 3 * 8 + 2; k++)
        ints[k] = (int)range(r, -4, 4);
    for (int k = 0; k < 8; k++)
        addrs[k] = range(r, -256, 256);
    switch (combiner) {
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
        ints[1] = (int)range(r, 0, 3);
        break;
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_STRUCT:
        for (int k = 1; k <= n; k++)
            ints[k] = (int)range(r, 0, 3);
        break;
    case MPI_COMBINER_SUBARRAY:
        n = ints[0] = (int)range(r, 1, 2);
        for (int k = 0; k < n; k++) {
            ints[1 + k] = (int)range(r, 1, 3);
            ints[1 + n + k] = (int)range(r, 1, ints[1 + k]);
            ints[1 + 2 * n + k] =
                (int)range(r, 0, ints[1 + k] - ints[1 + n + k]);
        }
        ints[1 + 3 * n] = rnd(r, 2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
        break;
    case MPI_COMBINER_RESIZED:
        addrs[1] = range(r, 1, 64);
        break;
    default:
        break;
    }
    MPI_Datatype t = construct(combiner, ints, addrs, kids);
    for (int k = 0; k < nkids; k++)
        if (!is_named(kids[k]))
            CHECK_MPI(MPI_Type_free(&kids[k]));
    return t;
}

static void random_cases(void)
{
    struct rng r = {12345};
    for (int k = 0; k < 300; k++) {
        MPI_Datatype t = random_type(&r, 4);
        if (is_named(t))
            continue;
        char what[32];
        snprintf(what, sizeof what, "random type #%d", k);
        roundtrip(t, what);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    named_types();
    exact_cases();
    random_cases();
    MPI_Finalize();
    return 0;
}
