/* dt_queries_errors: the datatype query calls (envelope and contents of every combiner, names, match_size, addresses, MPI_UNDEFINED sizes) and the error classes of bad arguments to them. */
/* shmpi-test: np=1,2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "dt_check.h"

#include <limits.h>

/* t's envelope and contents are exactly these; a derived type handed
   back must have the size and extent of the one given (and is freed). */
static void expect_contents(MPI_Datatype t, const char *what, int combiner,
                            int ni, const int *ints, int na,
                            const MPI_Aint *addrs, int nd,
                            const MPI_Datatype *types)
{
    int gi, ga, gd, gc, i_out[64];
    MPI_Aint a_out[16];
    MPI_Datatype d_out[16];
    CHECK_MPI(MPI_Type_get_envelope(t, &gi, &ga, &gd, &gc));
    CHECK(gi == ni && ga == na && gd == nd && gc == combiner,
          "%s: envelope %d %d %d %d, expected %d %d %d %d", what, gi, ga,
          gd, gc, ni, na, nd, combiner);
    /* exactly the envelope's sizes: Open MPI 4.1 crashes on larger ones */
    CHECK_MPI(MPI_Type_get_contents(t, ni, na, nd, i_out, a_out, d_out));
    for (int i = 0; i < ni; i++)
        CHECK(i_out[i] == ints[i], "%s: integer %d is %d, expected %d",
              what, i, i_out[i], ints[i]);
    for (int i = 0; i < na; i++)
        CHECK(a_out[i] == addrs[i], "%s: address %d is %ld, expected %ld",
              what, i, (long)a_out[i], (long)addrs[i]);
    for (int i = 0; i < nd; i++) {
        if (is_named(types[i])) {
            CHECK(d_out[i] == types[i], "%s: datatype %d differs", what, i);
            continue;
        }
        MPI_Count s1, s2;
        MPI_Aint lb1, lb2, e1, e2;
        CHECK_MPI(MPI_Type_size_x(types[i], &s1));
        CHECK_MPI(MPI_Type_size_x(d_out[i], &s2));
        CHECK_MPI(MPI_Type_get_extent(types[i], &lb1, &e1));
        CHECK_MPI(MPI_Type_get_extent(d_out[i], &lb2, &e2));
        CHECK(s1 == s2 && lb1 == lb2 && e1 == e2,
              "%s: datatype %d is not equivalent", what, i);
        CHECK_MPI(MPI_Type_free(&d_out[i]));
    }
}

static void contents_of_every_combiner(void)
{
    MPI_Datatype vec, t;
    int gi, ga, gd, gc;
    CHECK_MPI(MPI_Type_get_envelope(MPI_FLOAT_INT, &gi, &ga, &gd, &gc));
    CHECK(gi == 0 && ga == 0 && gd == 0 && gc == MPI_COMBINER_NAMED,
          "MPI_FLOAT_INT is not named");

    CHECK_MPI(MPI_Type_vector(3, 2, -5, MPI_INT, &vec));
    expect_contents(vec, "vector", MPI_COMBINER_VECTOR, 3,
                    (int[]){3, 2, -5}, 0, NULL, 1, (MPI_Datatype[]){MPI_INT});
    CHECK_MPI(MPI_Type_dup(vec, &t));
    expect_contents(t, "dup", MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &vec);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_contiguous(4, vec, &t));
    expect_contents(t, "contiguous", MPI_COMBINER_CONTIGUOUS, 1,
                    (int[]){4}, 0, NULL, 1, &vec);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_hvector(2, 1, -100, vec, &t));
    expect_contents(t, "hvector", MPI_COMBINER_HVECTOR, 2, (int[]){2, 1},
                    1, (MPI_Aint[]){-100}, 1, &vec);
    CHECK_MPI(MPI_Type_free(&t));
    /* a zero-length block is still part of the contents */
    CHECK_MPI(MPI_Type_indexed(2, (int[]){0, 3}, (int[]){7, -1}, MPI_SHORT,
                               &t));
    expect_contents(t, "indexed", MPI_COMBINER_INDEXED, 5,
                    (int[]){2, 0, 3, 7, -1}, 0, NULL, 1,
                    (MPI_Datatype[]){MPI_SHORT});
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_hindexed(2, (int[]){1, 0},
                                       (MPI_Aint[]){8, -8}, vec, &t));
    expect_contents(t, "hindexed", MPI_COMBINER_HINDEXED, 3,
                    (int[]){2, 1, 0}, 2, (MPI_Aint[]){8, -8}, 1, &vec);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, (int[]){4, 0, 9},
                                            MPI_CHAR, &t));
    expect_contents(t, "indexed_block", MPI_COMBINER_INDEXED_BLOCK, 5,
                    (int[]){3, 2, 4, 0, 9}, 0, NULL, 1,
                    (MPI_Datatype[]){MPI_CHAR});
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_hindexed_block(2, 3, (MPI_Aint[]){16, 0},
                                             MPI_DOUBLE, &t));
    expect_contents(t, "hindexed_block", MPI_COMBINER_HINDEXED_BLOCK, 2,
                    (int[]){2, 3}, 2, (MPI_Aint[]){16, 0}, 1,
                    (MPI_Datatype[]){MPI_DOUBLE});
    CHECK_MPI(MPI_Type_free(&t));
    MPI_Datatype types[3] = {MPI_DOUBLE, vec, MPI_LONG_INT};
    CHECK_MPI(MPI_Type_create_struct(3, (int[]){1, 2, 0},
                                     (MPI_Aint[]){0, 64, 200}, types, &t));
    expect_contents(t, "struct", MPI_COMBINER_STRUCT, 4,
                    (int[]){3, 1, 2, 0}, 3, (MPI_Aint[]){0, 64, 200}, 3,
                    types);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_subarray(2, (int[]){6, 7}, (int[]){2, 3},
                                       (int[]){4, 1}, MPI_ORDER_FORTRAN,
                                       vec, &t));
    expect_contents(t, "subarray", MPI_COMBINER_SUBARRAY, 8,
                    (int[]){2, 6, 7, 2, 3, 4, 1, MPI_ORDER_FORTRAN}, 0,
                    NULL, 1, &vec);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_darray(
        6, 4, 2, (int[]){10, 9},
        (int[]){MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
        (int[]){MPI_DISTRIBUTE_DFLT_DARG, 2}, (int[]){2, 3}, MPI_ORDER_C,
        MPI_INT, &t));
    expect_contents(t, "darray", MPI_COMBINER_DARRAY, 12,
                    (int[]){6, 4, 2, 10, 9, MPI_DISTRIBUTE_BLOCK,
                            MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_DFLT_DARG,
                            2, 2, 3, MPI_ORDER_C},
                    0, NULL, 1, (MPI_Datatype[]){MPI_INT});
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_resized(vec, -16, 48, &t));
    expect_contents(t, "resized", MPI_COMBINER_RESIZED, 0, NULL, 2,
                    (MPI_Aint[]){-16, 48}, 1, &vec);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&vec));
}

static void names(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_get_name(MPI_INT, name, &len));
    CHECK(strcmp(name, "MPI_INT") == 0 && len == 7, "MPI_INT is '%s'", name);
    CHECK_MPI(MPI_Type_get_name(MPI_2DOUBLE_PRECISION, name, &len));
    CHECK(strcmp(name, "MPI_2DOUBLE_PRECISION") == 0, "'%s'", name);
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(len == 0 && name[0] == '\0', "a new type is named '%s'", name);
    CHECK_MPI(MPI_Type_set_name(t, "pair of ints"));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(strcmp(name, "pair of ints") == 0 && len == 12, "'%s'", name);
    char longer[MPI_MAX_OBJECT_NAME + 40];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    CHECK_MPI(MPI_Type_set_name(t, longer));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(len <= MPI_MAX_OBJECT_NAME - 1 && (int)strlen(name) == len,
          "a long name came back with length %d", len);
    CHECK_MPI(MPI_Type_free(&t));
}

static void match_size(void)
{
    static const struct { int typeclass, size; } cases[] = {
        {MPI_TYPECLASS_REAL, 4}, {MPI_TYPECLASS_REAL, 8},
        {MPI_TYPECLASS_INTEGER, 1}, {MPI_TYPECLASS_INTEGER, 4},
        {MPI_TYPECLASS_INTEGER, 8}, {MPI_TYPECLASS_COMPLEX, 8},
        {MPI_TYPECLASS_COMPLEX, 16}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        MPI_Datatype t;
        int size;
        CHECK_MPI(MPI_Type_match_size(cases[i].typeclass, cases[i].size,
                                      &t));
        CHECK_MPI(MPI_Type_size(t, &size));
        CHECK(size == cases[i].size && is_named(t),
              "match_size(%d, %d) gave a type of size %d",
              cases[i].typeclass, cases[i].size, size);
    }
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t));
    MPI_Datatype u;
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &u));
    CHECK(t == u, "match_size is not a function of its arguments");
}

static void addresses_and_sizes(void)
{
    double a[100] = {0};
    MPI_Aint a0, a9;
    CHECK_MPI(MPI_Get_address(&a[0], &a0));
    CHECK_MPI(MPI_Get_address(&a[9], &a9));
    CHECK(MPI_Aint_diff(a9, a0) == 9 * (MPI_Aint)sizeof(double),
          "MPI_Aint_diff");
    CHECK(MPI_Aint_add(a0, 9 * sizeof(double)) == a9, "MPI_Aint_add");

    /* 4 GiB of data: MPI_Type_size cannot say it (4.1.5) */
    MPI_Datatype kib64, big;
    int size;
    MPI_Count size_x;
    CHECK_MPI(MPI_Type_contiguous(65536, MPI_CHAR, &kib64));
    CHECK_MPI(MPI_Type_contiguous(65536, kib64, &big));
    CHECK_MPI(MPI_Type_size(big, &size));
    CHECK_MPI(MPI_Type_size_x(big, &size_x));
    CHECK(size == MPI_UNDEFINED && size_x == 65536LL * 65536,
          "size of 4 GiB: %d / %lld", size, size_x);
    CHECK_MPI(MPI_Type_free(&big));
    CHECK_MPI(MPI_Type_free(&kib64));
}

/* dt_errors has the bad arguments of the constructors and of
   communication; these are the queries'. */
static void bad_types(void)
{
    MPI_Datatype t;
    MPI_Aint lb, extent;
    CHECK_CLASS(MPI_Type_set_name(MPI_DATATYPE_NULL, "x"), MPI_ERR_TYPE);
    /* a freed type: its handle is MPI_DATATYPE_NULL */
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK(t == MPI_DATATYPE_NULL, "MPI_Type_free left the handle");
    CHECK_CLASS(MPI_Type_free(&t), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_get_extent(t, &lb, &extent), MPI_ERR_TYPE);
    /* a failed free of a predefined type leaves the handle alone */
    t = MPI_INT;
    CHECK_CLASS(MPI_Type_free(&t), MPI_ERR_TYPE);
    CHECK(t == MPI_INT, "a failed MPI_Type_free changed the handle");
}

static void bad_arguments(void)
{
    MPI_Datatype t;
    int size;
    MPI_Aint lb;
    CHECK_CLASS(MPI_Type_size(MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_get_extent(MPI_INT, &lb, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Get_address(&size, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_get_name(MPI_INT, NULL, &size), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_indexed(2, NULL, NULL, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    contents_of_every_combiner();
    names();
    match_size();
    addresses_and_sizes();
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    bad_types();
    bad_arguments();
    MPI_Finalize();
    return 0;
}
