/* dt_constructors: size, extent and true extent of every datatype constructor against hand-computed values, and the elements subarray and darray select. */
/* shmpi-test: np=1,2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each case gives the expected size, lb, extent, true lb and true extent
 * worked out by hand from the type map (MPI-3.1 4.1): negative strides
 * and displacements, zero counts and lengths, nested types.  subarray and
 * darray are also used in a self send whose receive buffer shows which
 * elements of a global array of indices the type selects, in which order;
 * darray is checked, for every rank of several process grids, against
 * the owner of each element computed straight from the distribution.
 */
#include "dt_check.h"

static void contiguous_vector_hvector(void)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
    expect_free(t, "contiguous(3, int)", (struct bounds){12, 0, 12, 0, 12});
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
    expect_free(t, "contiguous(0, int)", (struct bounds){0, 0, 0, 0, 0});
    /* ints 0,1 4,5 8,9 */
    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &t));
    expect_free(t, "vector(3,2,4,int)", (struct bounds){24, 0, 40, 0, 40});
    /* doubles at 0, -16, -32 */
    CHECK_MPI(MPI_Type_vector(3, 1, -2, MPI_DOUBLE, &t));
    expect_free(t, "vector(3,1,-2,double)",
                (struct bounds){24, -32, 40, -32, 40});
    CHECK_MPI(MPI_Type_vector(0, 5, 3, MPI_INT, &t));
    expect_free(t, "vector(0,5,3,int)", (struct bounds){0, 0, 0, 0, 0});
    CHECK_MPI(MPI_Type_vector(4, 0, 3, MPI_INT, &t));
    expect_free(t, "vector(4,0,3,int)", (struct bounds){0, 0, 0, 0, 0});
    /* shorts at 0,2,4 and 20,22,24: 26 bytes, a multiple of 2 */
    CHECK_MPI(MPI_Type_create_hvector(2, 3, 20, MPI_SHORT, &t));
    expect_free(t, "hvector(2,3,20,short)", (struct bounds){12, 0, 26, 0, 26});
    /* chars at 0, -7, -14 */
    CHECK_MPI(MPI_Type_create_hvector(3, 1, -7, MPI_CHAR, &t));
    expect_free(t, "hvector(3,1,-7,char)",
                (struct bounds){3, -14, 15, -14, 15});
    /* doubles at 0, 9, 18: 26 bytes, rounded up to 32 (epsilon) */
    CHECK_MPI(MPI_Type_create_hvector(3, 1, 9, MPI_DOUBLE, &t));
    expect_free(t, "hvector(3,1,9,double)", (struct bounds){24, 0, 32, 0, 26});
}

static void indexed_family(void)
{
    MPI_Datatype t;
    /* 2 ints at 16, none at 4, 1 int at -8 */
    CHECK_MPI(MPI_Type_indexed(3, (int[]){2, 0, 1}, (int[]){4, 1, -2},
                               MPI_INT, &t));
    expect_free(t, "indexed", (struct bounds){12, -8, 32, -8, 32});
    CHECK_MPI(MPI_Type_indexed(2, (int[]){0, 0}, (int[]){3, 5}, MPI_INT,
                               &t));
    expect_free(t, "indexed, all empty", (struct bounds){0, 0, 0, 0, 0});
    CHECK_MPI(MPI_Type_indexed(0, NULL, NULL, MPI_INT, &t));
    expect_free(t, "indexed(0)", (struct bounds){0, 0, 0, 0, 0});
    /* shorts at -4, 10, 12 */
    CHECK_MPI(MPI_Type_create_hindexed(2, (int[]){1, 2},
                                       (MPI_Aint[]){-4, 10}, MPI_SHORT, &t));
    expect_free(t, "hindexed", (struct bounds){6, -4, 18, -4, 18});
    /* float pairs at 20, 0 and -4 (overlapping) */
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, (int[]){5, 0, -1},
                                            MPI_FLOAT, &t));
    expect_free(t, "indexed_block", (struct bounds){24, -4, 32, -4, 32});
    /* chars at 7 and 1 */
    CHECK_MPI(MPI_Type_create_hindexed_block(2, 1, (MPI_Aint[]){7, 1},
                                             MPI_CHAR, &t));
    expect_free(t, "hindexed_block", (struct bounds){2, 1, 7, 1, 7});
    CHECK_MPI(MPI_Type_create_hindexed_block(3, 0, (MPI_Aint[]){7, 1, 3},
                                             MPI_CHAR, &t));
    expect_free(t, "hindexed_block, length 0", (struct bounds){0, 0, 0, 0, 0});
    /* equally spaced blocks, as a regular list inside */
    CHECK_MPI(MPI_Type_create_indexed_block(4, 1, (int[]){9, 6, 3, 0},
                                            MPI_INT, &t));
    expect_free(t, "indexed_block, equal steps",
                (struct bounds){16, 0, 40, 0, 40});
}

static void structs(void)
{
    MPI_Datatype t;
    /* char at 0, 2 ints at 4, double at 16 */
    CHECK_MPI(MPI_Type_create_struct(
        3, (int[]){1, 2, 1}, (MPI_Aint[]){0, 4, 16},
        (MPI_Datatype[]){MPI_CHAR, MPI_INT, MPI_DOUBLE}, &t));
    expect_free(t, "struct{char; int[2]; double}",
                (struct bounds){17, 0, 24, 0, 24});
    /* double at -8, int at 4 */
    CHECK_MPI(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){-8, 4},
                                     (MPI_Datatype[]){MPI_DOUBLE, MPI_INT},
                                     &t));
    expect_free(t, "struct, negative displacement",
                (struct bounds){12, -8, 16, -8, 16});
    CHECK_MPI(MPI_Type_create_struct(0, NULL, NULL, NULL, &t));
    expect_free(t, "struct(0)", (struct bounds){0, 0, 0, 0, 0});
    /* the zero-length double does not count, not even for alignment */
    CHECK_MPI(MPI_Type_create_struct(2, (int[]){3, 0}, (MPI_Aint[]){0, 8},
                                     (MPI_Datatype[]){MPI_CHAR, MPI_DOUBLE},
                                     &t));
    expect_free(t, "struct, zero-length block",
                (struct bounds){3, 0, 3, 0, 3});
}

static void nested(void)
{
    MPI_Datatype pair, vec, t;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
    /* pairs at 0 and 24 */
    CHECK_MPI(MPI_Type_vector(2, 1, 3, pair, &t));
    expect_free(t, "vector(2,1,3,contiguous(2,int))",
                (struct bounds){16, 0, 32, 0, 32});
    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &vec));
    /* blocks of two vec (extent 40) at 0 and -40: copies at -40 .. 40 */
    CHECK_MPI(MPI_Type_create_hvector(2, 2, -40, vec, &t));
    /* the parts may be freed first: the new type keeps what it needs */
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK(vec == MPI_DATATYPE_NULL, "MPI_Type_free did not reset handle");
    expect_free(t, "hvector(2,2,-40,vector)",
                (struct bounds){96, -40, 120, -40, 120});
    CHECK_MPI(MPI_Type_dup(pair, &t));
    expect_free(t, "dup", (struct bounds){8, 0, 8, 0, 8});
    CHECK_MPI(MPI_Type_create_resized(pair, -4, 12, &t));
    expect_free(t, "resized", (struct bounds){8, -4, 12, 0, 8});
    CHECK_MPI(MPI_Type_free(&pair));
    CHECK_MPI(MPI_Type_dup(MPI_DOUBLE_INT, &t));
    expect_free(t, "dup(MPI_DOUBLE_INT)", (struct bounds){12, 0, 16, 0, 12});
}

/* The ints of `global` (each holding its own index) that one element of
   t selects, in order, received from a self send: want[0..n). */
static void expect_elements(MPI_Datatype t, const char *what,
                            const int *global, const int *want, int n)
{
    int got[256];
    MPI_Status st;
    int count;
    CHECK(n <= 256, "test too big");
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Sendrecv(global, 1, t, 0, 7, got, 256, MPI_INT, 0, 7,
                           MPI_COMM_SELF, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == n, "%s: %d elements, expected %d", what, count, n);
    for (int i = 0; i < n; i++)
        CHECK(got[i] == want[i], "%s: element %d is %d, expected %d", what,
              i, got[i], want[i]);
}

static int global[256];

static void subarrays(void)
{
    MPI_Datatype t;
    int want[8], n = 0;
    /* rows 1..2, columns 2..4 of int[4][5]: indices 7..9, 12..14 */
    CHECK_MPI(MPI_Type_create_subarray(2, (int[]){4, 5}, (int[]){2, 3},
                                       (int[]){1, 2}, MPI_ORDER_C, MPI_INT,
                                       &t));
    expect(t, "subarray C", (struct bounds){24, 0, 80, 28, 32});
    for (int i = 1; i < 3; i++)
        for (int j = 2; j < 5; j++)
            want[n++] = i * 5 + j;
    expect_elements(t, "subarray C", global, want, n);
    CHECK_MPI(MPI_Type_free(&t));
    /* the same in Fortran order: (i, j) is at i + 4 j, 9..10, 13..14, 17..18 */
    CHECK_MPI(MPI_Type_create_subarray(2, (int[]){4, 5}, (int[]){2, 3},
                                       (int[]){1, 2}, MPI_ORDER_FORTRAN,
                                       MPI_INT, &t));
    expect(t, "subarray Fortran", (struct bounds){24, 0, 80, 36, 40});
    n = 0;
    for (int j = 2; j < 5; j++)
        for (int i = 1; i < 3; i++)
            want[n++] = i + 4 * j;
    expect_elements(t, "subarray Fortran", global, want, n);
    CHECK_MPI(MPI_Type_free(&t));
    /* three dimensions, all of one */
    CHECK_MPI(MPI_Type_create_subarray(3, (int[]){2, 3, 4},
                                       (int[]){2, 3, 4}, (int[]){0, 0, 0},
                                       MPI_ORDER_C, MPI_SHORT, &t));
    expect_free(t, "subarray whole", (struct bounds){48, 0, 48, 0, 48});
}

/* --- darray: the owner of index x of a dimension, by its distribution */
static int owner(int x, int g, int dist, int darg, int p)
{
    if (dist == MPI_DISTRIBUTE_NONE)
        return 0;
    if (dist == MPI_DISTRIBUTE_BLOCK) {
        int blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        return x / blk;
    }
    int blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return x / blk % p;
}

struct grid {
    int ndims, gsizes[3], distribs[3], dargs[3], psizes[3];
};

/* Every element (in storage order) whose owner in each dimension is this
   rank's coordinate in the row-major process grid. */
static int owned(const struct grid *g, int rank, int order, int *want)
{
    int coord[3], total = 1, n = 0;
    for (int d = g->ndims - 1; d >= 0; d--) {
        coord[d] = rank % g->psizes[d];
        rank /= g->psizes[d];
        total *= g->gsizes[d];
    }
    for (int lin = 0; lin < total; lin++) {
        int rest = lin, mine = 1;
        for (int k = 0; k < g->ndims; k++) {
            int d = order == MPI_ORDER_C ? g->ndims - 1 - k : k;
            int x = rest % g->gsizes[d];
            rest /= g->gsizes[d];
            mine &= owner(x, g->gsizes[d], g->distribs[d], g->dargs[d],
                          g->psizes[d]) == coord[d];
        }
        if (mine)
            want[n++] = lin;
    }
    return n;
}

static void darray_grid(const struct grid *g, const char *what)
{
    int size = 1, total = 1, want[256];
    for (int d = 0; d < g->ndims; d++) {
        size *= g->psizes[d];
        total *= g->gsizes[d];
    }
    for (int order = 0; order < 2; order++) {
        int mpi_order = order ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
        for (int rank = 0; rank < size; rank++) {
            char name[128];
            snprintf(name, sizeof name, "darray %s, %s order, rank %d", what,
                     order ? "Fortran" : "C", rank);
            MPI_Datatype t;
            CHECK_MPI(MPI_Type_create_darray(size, rank, g->ndims, g->gsizes,
                                             g->distribs, g->dargs,
                                             g->psizes, mpi_order, MPI_INT,
                                             &t));
            int n = owned(g, rank, mpi_order, want);
            MPI_Aint lb, extent;
            MPI_Count tsize;
            CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
            CHECK_MPI(MPI_Type_size_x(t, &tsize));
            CHECK(lb == 0 && extent == total * 4 && tsize == n * 4,
                  "%s: lb %ld extent %ld size %lld, expected 0 %d %d", name,
                  (long)lb, (long)extent, tsize, total * 4, n * 4);
            expect_elements(t, name, global, want, n);
            CHECK_MPI(MPI_Type_free(&t));
        }
    }
}

static void darrays(void)
{
    enum { B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC,
           N = MPI_DISTRIBUTE_NONE, D = MPI_DISTRIBUTE_DFLT_DARG };
    static const struct grid grids[] = {
        {2, {7, 5}, {B, B}, {D, D}, {2, 3}},
        {2, {7, 5}, {C, C}, {D, 2}, {2, 3}},
        {2, {9, 4}, {B, C}, {5, D}, {2, 2}},
        {2, {5, 11}, {N, C}, {D, 3}, {1, 6}},
        {2, {5, 11}, {C, B}, {2, 3}, {3, 4}},
        {3, {3, 4, 5}, {B, N, C}, {D, D, 2}, {2, 1, 2}},
        {1, {10}, {B}, {D}, {4}},       /* the last process owns nothing */
        {1, {10}, {C}, {3}, {3}},
    };
    for (size_t i = 0; i < sizeof grids / sizeof *grids; i++) {
        char what[16];
        snprintf(what, sizeof what, "grid %zu", i);
        darray_grid(&grids[i], what);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int i = 0; i < 256; i++)
        global[i] = i;
    contiguous_vector_hvector();
    indexed_family();
    structs();
    nested();
    subarrays();
    darrays();
    MPI_Finalize();
    return 0;
}
