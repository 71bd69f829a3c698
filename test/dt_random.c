/* dt_random: thousands of random nested datatypes checked against a reference type-map interpreter: size, extent, true extent, MPI_Pack/MPI_Unpack bytes, send/receive (to self, or between two ranks) with counts and prefixes. */
/* shmpi-test: np=1,2 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each root type is a random tree of constructors (contiguous, vector,
 * hvector, indexed, hindexed, indexed_block, hindexed_block, struct of
 * mixed basic and pair types, resized, dup, subarray in C and Fortran
 * order; depth up to 4; strides and displacements may be negative).  The
 * test builds, next to every MPI datatype, its type map
 * {(disp_j, basic_j)} straight from the constructor arguments (MPI-3.1
 * 4.1.1-4.1.6: lb/ub markers set by resized and subarray are sticky, the
 * epsilon of 4.1.6 rounds unmarked extents to the largest alignment),
 * and checks the library against it:
 *   - MPI_Type_size(_x), MPI_Type_get_extent(_x),
 *     MPI_Type_get_true_extent(_x) of every node, before commit;
 *   - MPI_Pack of count 1..3 elements (laid by extent) of a patterned
 *     buffer yields exactly the bytes the type map names, in order, at
 *     the given position and nowhere else;
 *   - MPI_Unpack writes exactly those bytes and nothing else (canary);
 *   - a send with the type and a receive as MPI_PACKED, and the
 *     reverse, move the same bytes; a receive of a prefix of m basic
 *     elements writes those and gives MPI_Get_elements == m and
 *     MPI_Get_count == m / n or MPI_UNDEFINED.  With one rank the
 *     messages go to self; with two, ranks 0 and 1 build the same types
 *     and exchange them (messages up to ~200 KB: eager and pipelined).
 * Types whose receive would write a byte twice (overlapping entries, an
 * erroneous receive buffer) get only the pack and send-side checks.
 *
 * Where the standard's extent (epsilon on the whole type map) and the
 * common implementation rule (epsilon on the children's bounds) disagree
 * -- only for children placed at misaligned offsets -- the node is not
 * used: the test checks the standard, not a reading of it.
 *
 * Failures print the seed and index of the root type and its constructor
 * tree; `dt_random SEED INDEX` rebuilds and checks that one type alone.
 */
#include "check.h"
#include "rng.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>

#define NROOTS 4000
#define MAX_ENTRIES 4096        /* type map entries of one element */
#define MAX_SPAN (64 * 1024)    /* bytes between bounds of one element */
#define GUARD 64                /* canary bytes either side of buffers */

/* ------------------------------------------------------------ basics */

struct basic {
    MPI_Datatype type;
    const char *name;
    int size, align;
};

/* (MPI_C_LONG_DOUBLE_COMPLEX is left out: Open MPI 4.1 overflows a
   buffer when a long message splits one of its 32-byte elements between
   two fragments of its pipeline.) */
#define BASIC(t, c) { t, #t, (int)sizeof(c), (int)_Alignof(c) }
static struct basic basics[] = {
    BASIC(MPI_CHAR, char),
    BASIC(MPI_SIGNED_CHAR, signed char),
    BASIC(MPI_UNSIGNED_CHAR, unsigned char),
    BASIC(MPI_BYTE, unsigned char),
    BASIC(MPI_SHORT, short),
    BASIC(MPI_UNSIGNED_SHORT, unsigned short),
    BASIC(MPI_INT, int),
    BASIC(MPI_UNSIGNED, unsigned),
    BASIC(MPI_LONG, long),
    BASIC(MPI_UNSIGNED_LONG, unsigned long),
    BASIC(MPI_LONG_LONG, long long),
    BASIC(MPI_UNSIGNED_LONG_LONG, unsigned long long),
    BASIC(MPI_FLOAT, float),
    BASIC(MPI_DOUBLE, double),
    BASIC(MPI_LONG_DOUBLE, long double),
    BASIC(MPI_WCHAR, wchar_t),
    BASIC(MPI_C_BOOL, _Bool),
    BASIC(MPI_INT8_T, int8_t),
    BASIC(MPI_INT16_T, int16_t),
    BASIC(MPI_INT32_T, int32_t),
    BASIC(MPI_INT64_T, int64_t),
    BASIC(MPI_UINT16_T, uint16_t),
    BASIC(MPI_UINT64_T, uint64_t),
    BASIC(MPI_C_FLOAT_COMPLEX, float _Complex),
    BASIC(MPI_C_DOUBLE_COMPLEX, double _Complex),
    BASIC(MPI_AINT, MPI_Aint),
    BASIC(MPI_OFFSET, MPI_Offset),
    BASIC(MPI_COUNT, MPI_Count),
};
#define NBASICS ((int)(sizeof basics / sizeof basics[0]))

static int basic_index(MPI_Datatype t)
{
    for (int i = 0; i < NBASICS; i++)
        if (basics[i].type == t)
            return i;
    CHECK(0, "no basic type %p", (void *)t);
}

static long round_up(long x, long a)
{
    return (x + a - 1) / a * a;
}

/* The pair types of MINLOC/MAXLOC: predefined, but two basic elements
   each, laid out as the C struct {first; int}. */
struct pair {
    MPI_Datatype type, first_type;
    const char *name;
    int first;          /* index into basics */
    int second_off;     /* offset of the int */
};

static struct pair pairs[] = {
    {MPI_FLOAT_INT, MPI_FLOAT, "MPI_FLOAT_INT", 0, 0},
    {MPI_DOUBLE_INT, MPI_DOUBLE, "MPI_DOUBLE_INT", 0, 0},
    {MPI_LONG_INT, MPI_LONG, "MPI_LONG_INT", 0, 0},
    {MPI_2INT, MPI_INT, "MPI_2INT", 0, 0},
    {MPI_SHORT_INT, MPI_SHORT, "MPI_SHORT_INT", 0, 0},
    {MPI_LONG_DOUBLE_INT, MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE_INT", 0, 0},
};
#define NPAIRS ((int)(sizeof pairs / sizeof pairs[0]))

static void init_pairs(void)
{
    for (int i = 0; i < NPAIRS; i++) {
        pairs[i].first = basic_index(pairs[i].first_type);
        pairs[i].second_off = (int)round_up(basics[pairs[i].first].size,
                                            (long)_Alignof(int));
    }
}

/* ------------------------------------------------------------ reference */

struct ent {
    long disp;
    int b;              /* index into basics */
};

enum kind {
    K_BASIC, K_PAIR, K_CONTIG, K_VECTOR, K_HVECTOR, K_INDEXED, K_HINDEXED,
    K_INDEXED_BLOCK, K_HINDEXED_BLOCK, K_STRUCT, K_RESIZED, K_DUP,
    K_SUBARRAY, NKINDS
};

static const char *kind_names[NKINDS] = {
    "basic", "pair", "MPI_Type_contiguous", "MPI_Type_vector",
    "MPI_Type_create_hvector", "MPI_Type_indexed",
    "MPI_Type_create_hindexed", "MPI_Type_create_indexed_block",
    "MPI_Type_create_hindexed_block", "MPI_Type_create_struct",
    "MPI_Type_create_resized", "MPI_Type_dup", "MPI_Type_create_subarray",
};

/* A constructor call, its children, its MPI handle, and the type map
   computed from its arguments alone. */
struct node {
    int kind;
    int leaf;                   /* K_BASIC / K_PAIR: table index */
    int count, blocklen;        /* blocklen: vector, *_block */
    long stride;                /* vector: elements; hvector: bytes */
    int *bls;                   /* per block (indexed, struct) */
    long *disps;                /* per block: elements or bytes */
    int ndims, order, sizes[3], subsizes[3], starts[3];
    long rlb, rext;             /* resized */
    int nkids;
    struct node **kids;         /* struct: count; others: 1 */
    MPI_Datatype type;          /* MPI_DATATYPE_NULL once freed */

    struct ent *e;              /* the type map, in order */
    long n;
    long lb, ub, tlb, tub, size;
    int marked;                 /* lb/ub from explicit markers */
    int pairs;                  /* a pair type is somewhere inside */
    int align;                  /* largest alignment of its entries */
};

/* Builds a type map by placing copies of children at byte
   displacements, in type map order. */
struct builder {
    struct ent *e;
    long n, cap;
    int any_marked, pairs;
    long mlb, mub;              /* over marked copies: their markers */
    long *starts;               /* unmarked copies: where each starts */
    int *aligns;                /* and its child's alignment */
    long ncopies, copies_cap;
    int align;
};

static void place(struct builder *b, const struct node *c, long disp)
{
    if (b->n + c->n > b->cap) {
        b->cap = 2 * (b->n + c->n);
        b->e = realloc(b->e, (size_t)b->cap * sizeof *b->e);
        CHECK(b->e, "out of memory");
    }
    for (long j = 0; j < c->n; j++) {
        b->e[b->n + j].disp = c->e[j].disp + disp;
        b->e[b->n + j].b = c->e[j].b;
    }
    b->n += c->n;
    b->pairs |= c->pairs;
    if (c->marked) {
        if (!b->any_marked || disp + c->lb < b->mlb)
            b->mlb = disp + c->lb;
        if (!b->any_marked || disp + c->ub > b->mub)
            b->mub = disp + c->ub;
        b->any_marked = 1;
    } else {
        if (b->ncopies == b->copies_cap) {
            b->copies_cap = 2 * b->copies_cap + 16;
            b->starts = realloc(b->starts,
                                (size_t)b->copies_cap * sizeof *b->starts);
            b->aligns = realloc(b->aligns,
                                (size_t)b->copies_cap * sizeof *b->aligns);
            CHECK(b->starts && b->aligns, "out of memory");
        }
        b->starts[b->ncopies] = disp + c->lb;
        b->aligns[b->ncopies++] = c->align;
    }
    if (c->align > b->align)
        b->align = c->align;
}

/* x mod a, in [0, a) */
static long modulo(long x, long a)
{
    return (x % a + a) % a;
}

/* Does every reading of epsilon give this unmarked map the extent of
   4.1.6?  Open MPI 4.1 rounds each child's bounds (not only the whole
   map's) and rounds again as each block is added; that agrees with the
   standard when each copy starts at its child's alignment from the lower
   bound, and either the first copy sets the lower bound or all copies
   start at the map's alignment from it. */
static int epsilon_unambiguous(const struct builder *b, long lb)
{
    int all_aligned = 1;
    for (long i = 0; i < b->ncopies; i++) {
        if (modulo(b->starts[i] - lb, b->aligns[i]))
            return 0;
        if (modulo(b->starts[i] - lb, b->align))
            all_aligned = 0;
    }
    return all_aligned || b->starts[0] == lb;
}

/* Moves the builder's map into x and computes its bounds (4.1.6, 4.1.8).
   Returns 0 when the map is empty, too large, or when its extent depends
   on which reading of epsilon one takes (see the top comment). */
static int finish(struct builder *b, struct node *x, long budget)
{
    x->e = b->e;
    x->n = b->n;
    x->align = b->align;
    x->pairs = b->pairs;
    int ok = b->n > 0 && b->n <= budget;
    for (long j = 0; ok && j < x->n; j++) {
        long d = x->e[j].disp, s = basics[x->e[j].b].size;
        x->size += s;
        if (j == 0 || d < x->tlb)
            x->tlb = d;
        if (j == 0 || d + s > x->tub)
            x->tub = d + s;
    }
    if (ok && b->any_marked) {
        x->marked = 1;
        x->lb = b->mlb;
        x->ub = b->mub;
    } else if (ok) {
        x->lb = x->tlb;
        x->ub = x->lb + round_up(x->tub - x->tlb, x->align);
        ok = epsilon_unambiguous(b, x->lb);
    }
    free(b->starts);
    free(b->aligns);
    return ok && x->ub - x->lb > 0 && x->ub - x->lb <= MAX_SPAN &&
           x->tub - x->tlb <= MAX_SPAN;
}

static long extent(const struct node *x)
{
    return x->ub - x->lb;
}

/* ------------------------------------------------------------ nodes */

static struct node *new_node(int kind)
{
    struct node *x = calloc(1, sizeof *x);
    CHECK(x, "out of memory");
    x->kind = kind;
    x->type = MPI_DATATYPE_NULL;
    return x;
}

static void free_tree(struct node *x)
{
    if (!x)
        return;
    for (int i = 0; i < x->nkids; i++)
        free_tree(x->kids[i]);
    if (x->type != MPI_DATATYPE_NULL && x->kind != K_BASIC &&
        x->kind != K_PAIR)
        CHECK_MPI(MPI_Type_free(&x->type));
    free(x->kids);
    free(x->bls);
    free(x->disps);
    free(x->e);
    free(x);
}

static struct node *leaf(struct rng *r)
{
    struct node *x;
    if (rnd(r, 8) == 0) {
        int p = (int)rnd(r, NPAIRS);
        int f = pairs[p].first, i = basic_index(MPI_INT);
        x = new_node(K_PAIR);
        x->leaf = p;
        x->pairs = 1;
        x->type = pairs[p].type;
        x->n = 2;
        x->e = malloc(2 * sizeof *x->e);
        CHECK(x->e, "out of memory");
        x->e[0] = (struct ent){0, f};
        x->e[1] = (struct ent){pairs[p].second_off, i};
        x->align = basics[f].align > basics[i].align ? basics[f].align
                                                     : basics[i].align;
        x->size = basics[f].size + basics[i].size;
        x->tlb = x->lb = 0;
        x->tub = pairs[p].second_off + basics[i].size;
        x->ub = round_up(x->tub, x->align);
        return x;
    }
    int b = (int)rnd(r, NBASICS);
    x = new_node(K_BASIC);
    x->leaf = b;
    x->type = basics[b].type;
    x->n = 1;
    x->e = malloc(sizeof *x->e);
    CHECK(x->e, "out of memory");
    x->e[0] = (struct ent){0, b};
    x->align = basics[b].align;
    x->size = basics[b].size;
    x->lb = x->tlb = 0;
    x->ub = x->tub = basics[b].size;
    return x;
}

/* A byte displacement near `elems` elements of child c: mostly a
   multiple of c's alignment, sometimes any byte. */
static long byte_disp(struct rng *r, const struct node *c, long elems)
{
    long d = elems * extent(c) + range(r, -2, 2) * c->align;
    if (rnd(r, 6) == 0)
        d += range(r, -3, 3);
    return d;
}

static void set_kids(struct node *x, int n)
{
    x->nkids = n;
    x->kids = calloc((size_t)n, sizeof *x->kids);
    CHECK(x->kids, "out of memory");
}

/* per-block arrays, with at least one non-empty block */
static void random_blocks(struct rng *r, struct node *x, int maxbl)
{
    x->bls = malloc((size_t)x->count * sizeof *x->bls);
    x->disps = malloc((size_t)x->count * sizeof *x->disps);
    CHECK(x->bls && x->disps, "out of memory");
    for (int i = 0; i < x->count; i++)
        x->bls[i] = (int)(rnd(r, 5) == 0 ? 0 : range(r, 1, maxbl));
    x->bls[rnd(r, x->count)] = (int)range(r, 1, maxbl);
}

static struct node *gen(struct rng *r, int depth, long budget);

/* Chooses the arguments of a node of kind k over freshly generated
   children and computes its type map; NULL when that is unusable. */
/* Each gen_* fills in x's arguments at random and places its copies of
   the child c (struct: of new children) in b. */
static void gen_contig(struct rng *r, struct node *x, const struct node *c,
                       struct builder *b)
{
    x->count = (int)range(r, 1, 8);
    for (int i = 0; i < x->count; i++)
        place(b, c, i * extent(c));
}

static void gen_vector(struct rng *r, struct node *x, const struct node *c,
                       struct builder *b)
{
    long ext = extent(c);
    x->count = (int)range(r, 1, 8);
    x->blocklen = (int)range(r, 1, 5);
    x->stride = range(r, -2 * x->blocklen - 2, 2 * x->blocklen + 2);
    if (x->kind == K_HVECTOR)
        x->stride = byte_disp(r, c, x->stride);
    long stride_bytes = x->kind == K_VECTOR ? x->stride * ext : x->stride;
    /* Open MPI 4.1 gets the bounds of a stride of exactly -1 byte
       wrong (it takes the blocks as ascending) */
    if (stride_bytes == -1)
        x->stride = stride_bytes = 0;
    for (int i = 0; i < x->count; i++)
        for (int j = 0; j < x->blocklen; j++)
            place(b, c, i * stride_bytes + j * ext);
}

static void gen_indexed(struct rng *r, struct node *x, const struct node *c,
                        struct builder *b)
{
    int k = x->kind;
    int block = k == K_INDEXED_BLOCK || k == K_HINDEXED_BLOCK;
    int bytes = k == K_HINDEXED || k == K_HINDEXED_BLOCK;
    long ext = extent(c);
    x->count = (int)range(r, 1, 10);
    random_blocks(r, x, 5);
    x->blocklen = (int)range(r, 1, 3);
    for (int i = 0; i < x->count; i++) {
        long d = range(r, -8, 16);
        x->disps[i] = bytes ? byte_disp(r, c, d) : d;
        int bl = block ? x->blocklen : x->bls[i];
        for (int j = 0; j < bl; j++)
            place(b, c, (bytes ? x->disps[i] : x->disps[i] * ext) + j * ext);
    }
}

static void gen_struct(struct rng *r, struct node *x, int depth,
                       long budget, struct builder *b)
{
    x->count = (int)range(r, 1, 4);
    set_kids(x, x->count);
    random_blocks(r, x, 3);
    for (int i = 0; i < x->count; i++) {
        struct node *kid = x->kids[i] =
            gen(r, depth - 1, budget / (2 * x->count));
        x->disps[i] = byte_disp(r, kid, range(r, -4, 12));
        for (int j = 0; j < x->bls[i]; j++)
            place(b, kid, x->disps[i] + j * extent(kid));
    }
}

/* The elements of the subarray in memory order: the fastest dimension
   is the last (C) or the first (Fortran). */
static void place_subarray(const struct node *x, const struct node *c,
                           struct builder *b)
{
    int idx[3] = {0, 0, 0}, nsub = 1;
    for (int d = 0; d < x->ndims; d++)
        nsub *= x->subsizes[d];
    for (int s = 0; s < nsub; s++) {
        long lin = 0;
        for (int d = 0; d < x->ndims; d++) {
            int dd = x->order == MPI_ORDER_C ? d : x->ndims - 1 - d;
            lin = lin * x->sizes[dd] + x->starts[dd] + idx[dd];
        }
        place(b, c, lin * extent(c));
        for (int d = x->ndims - 1; d >= 0; d--) {
            int dd = x->order == MPI_ORDER_C ? d : x->ndims - 1 - d;
            if (++idx[dd] < x->subsizes[dd])
                break;
            idx[dd] = 0;
        }
    }
}

static void gen_subarray(struct rng *r, struct node *x, const struct node *c,
                         struct builder *b)
{
    x->ndims = (int)range(r, 1, 3);
    x->order = rnd(r, 2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
    long total = 1;
    for (int d = 0; d < x->ndims; d++) {
        x->sizes[d] = (int)range(r, 1, 6);
        x->subsizes[d] = (int)range(r, 1, x->sizes[d]);
        x->starts[d] = (int)range(r, 0, x->sizes[d] - x->subsizes[d]);
        total *= x->sizes[d];
    }
    place_subarray(x, c, b);
    /* subarray is resized to the whole array (4.1.3) */
    b->any_marked = 1;
    b->mlb = 0;
    b->mub = total * extent(c);
}

static struct node *try_kind(struct rng *r, int k, int depth, long budget)
{
    struct node *x = new_node(k);
    struct builder b = {0};
    struct node *c = NULL;
    if (k != K_STRUCT) {
        set_kids(x, 1);
        c = x->kids[0] = gen(r, depth - 1, budget / 2);
    }
    switch (k) {
    case K_CONTIG:
        gen_contig(r, x, c, &b);
        break;
    case K_VECTOR:
    case K_HVECTOR:
        gen_vector(r, x, c, &b);
        break;
    case K_INDEXED:
    case K_HINDEXED:
    case K_INDEXED_BLOCK:
    case K_HINDEXED_BLOCK:
        gen_indexed(r, x, c, &b);
        break;
    case K_STRUCT:
        gen_struct(r, x, depth, budget, &b);
        break;
    case K_RESIZED:
        x->rlb = c->lb + range(r, -24, 24);
        x->rext = extent(c) + range(r, -extent(c) + 1, 24);
        place(&b, c, 0);
        break;
    case K_DUP:
        place(&b, c, 0);
        break;
    case K_SUBARRAY:
        gen_subarray(r, x, c, &b);
        break;
    default:
        CHECK(0, "kind %d", k);
    }
    int ok = finish(&b, x, budget);
    if (ok && k == K_RESIZED) {
        x->marked = 1;
        x->lb = x->rlb;
        x->ub = x->rlb + x->rext;
    }
    if (!ok) {
        free_tree(x);
        return NULL;
    }
    return x;
}

/* ------------------------------------------------------------ MPI side */

static MPI_Aint *aints(const long *v, int n)
{
    MPI_Aint *a = malloc((size_t)(n ? n : 1) * sizeof *a);
    CHECK(a, "out of memory");
    for (int i = 0; i < n; i++)
        a[i] = (MPI_Aint)v[i];
    return a;
}

static int *ints(const long *v, int n)
{
    int *a = malloc((size_t)(n ? n : 1) * sizeof *a);
    CHECK(a, "out of memory");
    for (int i = 0; i < n; i++)
        a[i] = (int)v[i];
    return a;
}

/* Calls x's constructor on its children's handles. */
static void construct(struct node *x)
{
    MPI_Datatype c = x->nkids ? x->kids[0]->type : MPI_DATATYPE_NULL;
    MPI_Datatype *t = &x->type;
    switch (x->kind) {
    case K_CONTIG:
        CHECK_MPI(MPI_Type_contiguous(x->count, c, t));
        break;
    case K_VECTOR:
        CHECK_MPI(MPI_Type_vector(x->count, x->blocklen, (int)x->stride, c,
                                  t));
        break;
    case K_HVECTOR:
        CHECK_MPI(MPI_Type_create_hvector(x->count, x->blocklen,
                                          (MPI_Aint)x->stride, c, t));
        break;
    case K_INDEXED: {
        int *d = ints(x->disps, x->count);
        CHECK_MPI(MPI_Type_indexed(x->count, x->bls, d, c, t));
        free(d);
        break;
    }
    case K_HINDEXED: {
        MPI_Aint *d = aints(x->disps, x->count);
        CHECK_MPI(MPI_Type_create_hindexed(x->count, x->bls, d, c, t));
        free(d);
        break;
    }
    case K_INDEXED_BLOCK: {
        int *d = ints(x->disps, x->count);
        CHECK_MPI(MPI_Type_create_indexed_block(x->count, x->blocklen, d, c,
                                                t));
        free(d);
        break;
    }
    case K_HINDEXED_BLOCK: {
        MPI_Aint *d = aints(x->disps, x->count);
        CHECK_MPI(MPI_Type_create_hindexed_block(x->count, x->blocklen, d,
                                                 c, t));
        free(d);
        break;
    }
    case K_STRUCT: {
        MPI_Aint *d = aints(x->disps, x->count);
        MPI_Datatype types[4];
        for (int i = 0; i < x->count; i++)
            types[i] = x->kids[i]->type;
        CHECK_MPI(MPI_Type_create_struct(x->count, x->bls, d, types, t));
        free(d);
        break;
    }
    case K_RESIZED:
        CHECK_MPI(MPI_Type_create_resized(c, (MPI_Aint)x->rlb,
                                          (MPI_Aint)x->rext, t));
        break;
    case K_DUP:
        CHECK_MPI(MPI_Type_dup(c, t));
        break;
    case K_SUBARRAY:
        CHECK_MPI(MPI_Type_create_subarray(x->ndims, x->sizes, x->subsizes,
                                           x->starts, x->order, c, t));
        break;
    default:
        CHECK(0, "kind %d", x->kind);
    }
}

/* ------------------------------------------------------------ failures */

static uint64_t cur_seed;
static long cur_index = -1;
static const struct node *cur_node;     /* the node being checked */

static void print_longs(const char *what, const long *v, int n)
{
    fprintf(stderr, " %s={", what);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s%ld", i ? "," : "", v[i]);
    fprintf(stderr, "}");
}

static void print_ints(const char *what, const int *v, int n)
{
    fprintf(stderr, " %s={", what);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s%d", i ? "," : "", v[i]);
    fprintf(stderr, "}");
}

static void print_tree(const struct node *x, int indent)
{
    fprintf(stderr, "%*s", indent, "");
    if (x->kind == K_BASIC || x->kind == K_PAIR) {
        fprintf(stderr, "%s\n", x->kind == K_BASIC ? basics[x->leaf].name
                                                   : pairs[x->leaf].name);
        return;
    }
    fprintf(stderr, "%s(", kind_names[x->kind]);
    switch (x->kind) {
    case K_CONTIG:
        fprintf(stderr, "count=%d", x->count);
        break;
    case K_VECTOR:
    case K_HVECTOR:
        fprintf(stderr, "count=%d blocklen=%d stride=%ld", x->count,
                x->blocklen, x->stride);
        break;
    case K_INDEXED:
    case K_HINDEXED:
    case K_STRUCT:
        fprintf(stderr, "count=%d", x->count);
        print_ints("blocklens", x->bls, x->count);
        print_longs("disps", x->disps, x->count);
        break;
    case K_INDEXED_BLOCK:
    case K_HINDEXED_BLOCK:
        fprintf(stderr, "count=%d blocklen=%d", x->count, x->blocklen);
        print_longs("disps", x->disps, x->count);
        break;
    case K_RESIZED:
        fprintf(stderr, "lb=%ld extent=%ld", x->rlb, x->rext);
        break;
    case K_SUBARRAY:
        fprintf(stderr, "ndims=%d", x->ndims);
        print_ints("sizes", x->sizes, x->ndims);
        print_ints("subsizes", x->subsizes, x->ndims);
        print_ints("starts", x->starts, x->ndims);
        fprintf(stderr, " order=%s",
                x->order == MPI_ORDER_C ? "C" : "FORTRAN");
        break;
    default:
        break;
    }
    fprintf(stderr, ")  [entries %ld size %ld lb %ld ub %ld true %ld..%ld]\n",
            x->n, x->size, x->lb, x->ub, x->tlb, x->tub);
    for (int i = 0; i < x->nkids; i++)
        print_tree(x->kids[i], indent + 2);
}

static void describe_failure(void)
{
    fprintf(stderr, "dt_random: root type #%ld of seed %" PRIu64
            " failed; rerun it alone with: dt_random %" PRIu64 " %ld\n",
            cur_index, cur_seed, cur_seed, cur_index);
    if (cur_node) {
        fprintf(stderr, "the type that failed%s:\n",
                cur_node->kind == K_BASIC || cur_node->kind == K_PAIR
                    ? "" : " (its children are printed below it)");
        print_tree(cur_node, 2);
    }
}

#define TCHECK(cond, ...)                                                  \
    do {                                                                   \
        if (!(cond)) {                                                     \
            describe_failure();                                            \
            CHECK(cond, __VA_ARGS__);                                      \
        }                                                                  \
    } while (0)

/* ------------------------------------------------------------ checks */

static void check_bounds(const struct node *x)
{
    cur_node = x;
    int size;
    MPI_Count size_x, lb_x, ext_x;
    MPI_Aint lb, ext;
    CHECK_MPI(MPI_Type_size(x->type, &size));
    TCHECK(size == x->size, "MPI_Type_size %d, type map says %ld", size,
           x->size);
    CHECK_MPI(MPI_Type_size_x(x->type, &size_x));
    TCHECK(size_x == x->size, "MPI_Type_size_x %lld, type map says %ld",
           (long long)size_x, x->size);
    CHECK_MPI(MPI_Type_get_extent(x->type, &lb, &ext));
    TCHECK(lb == x->lb && ext == x->ub - x->lb,
           "MPI_Type_get_extent lb %ld extent %ld, type map says %ld %ld",
           (long)lb, (long)ext, x->lb, x->ub - x->lb);
    CHECK_MPI(MPI_Type_get_extent_x(x->type, &lb_x, &ext_x));
    TCHECK(lb_x == x->lb && ext_x == x->ub - x->lb,
           "MPI_Type_get_extent_x lb %lld extent %lld, type map says %ld %ld",
           (long long)lb_x, (long long)ext_x, x->lb, x->ub - x->lb);
    CHECK_MPI(MPI_Type_get_true_extent(x->type, &lb, &ext));
    TCHECK(lb == x->tlb && ext == x->tub - x->tlb,
           "MPI_Type_get_true_extent %ld %ld, type map says %ld %ld",
           (long)lb, (long)ext, x->tlb, x->tub - x->tlb);
    CHECK_MPI(MPI_Type_get_true_extent_x(x->type, &lb_x, &ext_x));
    TCHECK(lb_x == x->tlb && ext_x == x->tub - x->tlb,
           "MPI_Type_get_true_extent_x %lld %lld, type map says %ld %ld",
           (long long)lb_x, (long long)ext_x, x->tlb, x->tub - x->tlb);
}

/* count elements of x laid by extent in a buffer with GUARD bytes of
   canary either side; base is where the elements start */
struct area {
    unsigned char *mem, *base;
    long len;
};

static void area_init(struct area *a, const struct node *x, int count)
{
    long ext = extent(x);
    long lo = x->tlb < 0 ? x->tlb : 0;
    long hi = x->tub + (count - 1) * ext;
    if (hi < 1)
        hi = 1;
    a->len = hi - lo + 2 * GUARD;
    a->mem = malloc((size_t)a->len);
    CHECK(a->mem, "out of memory");
    a->base = a->mem + GUARD - lo;
}

/* distinct bytes, so that a byte copied from the wrong place shows */
static unsigned char pattern(long k, unsigned salt)
{
    uint32_t v = (uint32_t)k * 2654435761u + salt * 40503u;
    return (unsigned char)(v >> 13 ^ v >> 24);
}

static void fill(unsigned char *p, long len, unsigned salt)
{
    for (long k = 0; k < len; k++)
        p[k] = pattern(k, salt);
}

/* the expected packed form of count elements at a.base */
static unsigned char *expected_pack(const struct node *x, int count,
                                    const struct area *a)
{
    unsigned char *out = malloc((size_t)(count * x->size) + 1);
    CHECK(out, "out of memory");
    long pos = 0, ext = extent(x);
    for (int i = 0; i < count; i++)
        for (long j = 0; j < x->n; j++) {
            int s = basics[x->e[j].b].size;
            memcpy(out + pos, a->base + i * ext + x->e[j].disp, (size_t)s);
            pos += s;
        }
    return out;
}

/* The first `elems` entries of count elements written from `in` over a
   copy of the canary memory: what a receive/unpack must leave. */
static unsigned char *expected_unpack(const struct node *x, long elems,
                                      const struct area *a,
                                      const unsigned char *canary,
                                      const unsigned char *in)
{
    unsigned char *want = malloc((size_t)a->len);
    CHECK(want, "out of memory");
    memcpy(want, canary, (size_t)a->len);
    long pos = 0, ext = extent(x);
    for (long k = 0; k < elems; k++) {
        const struct ent *e = &x->e[k % x->n];
        int s = basics[e->b].size;
        long off = (a->base - a->mem) + (k / x->n) * ext + e->disp;
        memcpy(want + off, in + pos, (size_t)s);
        pos += s;
    }
    return want;
}

/* Does a receive of count elements write some byte twice? */
static int overlaps(const struct node *x, int count, const struct area *a)
{
    unsigned char *seen = calloc((size_t)a->len, 1);
    CHECK(seen, "out of memory");
    int dup = 0;
    long ext = extent(x);
    for (int i = 0; i < count && !dup; i++)
        for (long j = 0; j < x->n && !dup; j++) {
            long off = (a->base - a->mem) + i * ext + x->e[j].disp;
            for (int k = 0; k < basics[x->e[j].b].size; k++)
                if (seen[off + k]++)
                    dup = 1;
        }
    free(seen);
    return dup;
}

static void compare(const unsigned char *have, const unsigned char *want,
                    long len, const char *what, int count)
{
    for (long k = 0; k < len; k++)
        TCHECK(have[k] == want[k],
               "%s, count %d: byte %ld of %ld is 0x%02x, expected 0x%02x",
               what, count, k, len, have[k], want[k]);
}

static void check_pack(const struct node *x, int count, struct area *a,
                       const unsigned char *want)
{
    long packed = count * x->size;
    int lead = 5, outsize = (int)packed + lead + 16, pos = lead, ps;
    unsigned char *out = malloc((size_t)outsize), *ref = malloc((size_t)outsize);
    CHECK(out && ref, "out of memory");
    fill(out, outsize, 7);
    memcpy(ref, out, (size_t)outsize);
    memcpy(ref + lead, want, (size_t)packed);
    CHECK_MPI(MPI_Pack_size(count, x->type, MPI_COMM_WORLD, &ps));
    TCHECK(ps >= packed, "MPI_Pack_size %d < %ld", ps, packed);
    CHECK_MPI(MPI_Pack(a->base, count, x->type, out, outsize, &pos,
                       MPI_COMM_WORLD));
    TCHECK(pos == lead + packed, "MPI_Pack moved position %d -> %d, not by %ld",
           lead, pos, packed);
    compare(out, ref, outsize, "MPI_Pack output", count);

    /* the same in one call per element, from a running position */
    fill(out, outsize, 7);
    pos = lead;
    for (int i = 0; i < count; i++)
        CHECK_MPI(MPI_Pack(a->base + i * extent(x), 1, x->type, out,
                           outsize, &pos, MPI_COMM_WORLD));
    TCHECK(pos == lead + packed, "element-wise MPI_Pack ended at %d", pos);
    compare(out, ref, outsize, "element-wise MPI_Pack output", count);
    free(out);
    free(ref);
}

static void check_unpack(const struct node *x, int count, struct area *a,
                         const unsigned char *canary)
{
    long packed = count * x->size;
    int lead = 3, pos = lead;
    unsigned char *in = malloc((size_t)packed + (size_t)lead + 1);
    CHECK(in, "out of memory");
    fill(in, packed + lead, 11);
    unsigned char *want = expected_unpack(x, count * x->n, a, canary,
                                          in + lead);
    memcpy(a->mem, canary, (size_t)a->len);
    CHECK_MPI(MPI_Unpack(in, (int)packed + lead, &pos, a->base, count,
                         x->type, MPI_COMM_WORLD));
    TCHECK(pos == lead + packed, "MPI_Unpack moved position %d -> %d", lead,
           pos);
    compare(a->mem, want, a->len, "MPI_Unpack result", count);
    free(want);
    free(in);
}

/* Where the send/receive checks send to: this rank on MPI_COMM_SELF in a
   job of one, the other of ranks 0 and 1 on MPI_COMM_WORLD in a job of
   two (which build the same types and buffers, so a message from the
   peer carries what one to self would). */
static MPI_Comm pcomm;
static int peer;

/* Sends count elements to the peer with the type, received as
   MPI_PACKED. */
static void check_send_packed(const struct node *x, int count,
                              struct area *a, const unsigned char *want)
{
    long packed = count * x->size;
    unsigned char *rbuf = malloc((size_t)packed + 8);
    CHECK(rbuf, "out of memory");
    fill(rbuf, packed + 8, 5);
    unsigned char tail[8];
    memcpy(tail, rbuf + packed, 8);
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(a->base, count, x->type, peer, 1, rbuf,
                           (int)packed + 8, MPI_PACKED, peer, 1, pcomm, &st));
    int n;
    CHECK_MPI(MPI_Get_count(&st, MPI_PACKED, &n));
    TCHECK(n == packed, "received %d packed bytes, expected %ld", n, packed);
    compare(rbuf, want, packed, "send with the type, receive MPI_PACKED",
            count);
    compare(rbuf + packed, tail, 8, "bytes after the MPI_PACKED message",
            count);
    free(rbuf);
}

/* Sends the packed form of `elems` basic elements to the peer, received
   with count elements of the type. */
static void check_recv_typed(const struct node *x, int count, long elems,
                             struct area *a, const unsigned char *canary)
{
    long bytes = 0;
    for (long k = 0; k < elems; k++)
        bytes += basics[x->e[k % x->n].b].size;
    unsigned char *in = malloc((size_t)bytes + 1);
    CHECK(in, "out of memory");
    fill(in, bytes, 13);
    unsigned char *want = expected_unpack(x, elems, a, canary, in);
    memcpy(a->mem, canary, (size_t)a->len);
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(in, (int)bytes, MPI_PACKED, peer, 2, a->base,
                           count, x->type, peer, 2, pcomm, &st));
    compare(a->mem, want, a->len, "send MPI_PACKED, receive with the type",
            count);
    free(want);
    free(in);
    /* Open MPI counts a pair type as one element, not as the two basic
       elements of the struct the standard defines it to be (4.1.2) */
    if (x->pairs)
        return;
    int n;
    MPI_Count nx;
    CHECK_MPI(MPI_Get_elements(&st, x->type, &n));
    TCHECK(n == elems, "MPI_Get_elements %d after %ld basic elements", n,
           elems);
    CHECK_MPI(MPI_Get_elements_x(&st, x->type, &nx));
    TCHECK(nx == elems, "MPI_Get_elements_x %lld after %ld basic elements",
           (long long)nx, elems);
    CHECK_MPI(MPI_Get_count(&st, x->type, &n));
    long whole = elems % x->n ? MPI_UNDEFINED : elems / x->n;
    TCHECK(n == whole, "MPI_Get_count %d after %ld basic elements of %ld",
           n, elems, x->n);
}

static void check_data(const struct node *x, struct rng *r)
{
    cur_node = x;
    for (int count = 1; count <= 3; count++) {
        struct area a;
        area_init(&a, x, count);
        fill(a.mem, a.len, (unsigned)count);
        unsigned char *want = expected_pack(x, count, &a);
        check_pack(x, count, &a, want);
        check_send_packed(x, count, &a, want);
        free(want);
        if (!overlaps(x, count, &a)) {
            unsigned char *canary = malloc((size_t)a.len);
            CHECK(canary, "out of memory");
            fill(canary, a.len, 17);
            check_unpack(x, count, &a, canary);
            check_recv_typed(x, count, count * x->n, &a, canary);
            check_recv_typed(x, count, rnd(r, count * x->n), &a, canary);
            free(canary);
        }
        free(a.mem);
    }
}

/* ------------------------------------------------------------ driver */

/* Builds a random node over random children; checks its bounds before
   commit and sometimes commits it, as users may commit building blocks. */
static struct node *gen(struct rng *r, int depth, long budget)
{
    struct node *x = NULL;
    if (depth > 0 && budget >= 2 && rnd(r, 6) != 0)
        for (int tries = 0; tries < 6 && !x; tries++)
            x = try_kind(r, (int)range(r, K_CONTIG, NKINDS - 1), depth,
                         budget);
    if (!x)
        return leaf(r);
    construct(x);
    check_bounds(x);
    if (rnd(r, 3) == 0)
        CHECK_MPI(MPI_Type_commit(&x->type));
    return x;
}

/* Frees the handles below the root: the root must not change. */
static void free_handles_below(struct node *x)
{
    for (int i = 0; i < x->nkids; i++) {
        struct node *k = x->kids[i];
        free_handles_below(k);
        if (k->kind != K_BASIC && k->kind != K_PAIR) {
            CHECK_MPI(MPI_Type_free(&k->type));
            CHECK(k->type == MPI_DATATYPE_NULL,
                  "MPI_Type_free left the handle set");
        }
    }
}

static void run_one(uint64_t seed, long index)
{
    struct rng r = {seed ^ (uint64_t)index * 0xd1b54a32d192ed03ull};
    rng_next(&r);
    cur_index = index;
    struct node *x = gen(&r, (int)range(&r, 1, 4), MAX_ENTRIES);
    if (x->kind == K_BASIC || x->kind == K_PAIR) {
        /* predefined: never freed, already committed */
        check_bounds(x);
        check_data(x, &r);
        free_tree(x);
        return;
    }
    if (rnd(&r, 2))
        free_handles_below(x);
    CHECK_MPI(MPI_Type_commit(&x->type));
    check_bounds(x);
    check_data(x, &r);
    free_tree(x);
    cur_node = NULL;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pcomm = size == 1 ? MPI_COMM_SELF : MPI_COMM_WORLD;
    peer = size == 1 ? 0 : 1 - rank;
    init_pairs();
    cur_seed = 20240611;
    long first = 0, last = NROOTS;
    if (argc > 1)
        cur_seed = strtoull(argv[1], NULL, 0);
    if (argc > 2) {
        first = strtol(argv[2], NULL, 0);
        last = first + 1;
    }
    for (long i = first; i < last && rank < 2; i++)
        run_one(cur_seed, i);
    MPI_Finalize();
    return 0;
}
