/* dt_elements: MPI_Get_count, MPI_Get_elements(_x) and MPI_Status_set_elements(_x) with derived types: example 4.12, partial receives of vector and struct types, MPI_UNDEFINED cases, a million-block vector, a probe. */
/* shmpi-test: np=2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rank 0 sends, rank 1 receives with a derived type and checks what the
 * status says (4.1.11): Get_count counts whole elements of the type or
 * is MPI_UNDEFINED; Get_elements counts basic elements, or is
 * MPI_UNDEFINED when the data ends inside a basic element.
 * Messages that end inside a basic element are sent as MPI_PACKED, which
 * a receive of any type may match (4.2).  Then MPI_Status_set_elements
 * on a local status, read back with the same queries.  Pair types:
 * dt_elements_pairs_ext.
 */
#include "dt_check.h"

#include <limits.h>

#define TAG 7

/* Example 4.12: Type2 is two floats (REAL in the standard's Fortran). */
static void example_4_12(int rank)
{
    float a[4] = {1, 2, 3, 4};
    MPI_Datatype type2;
    MPI_Status st;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_FLOAT, &type2));
    CHECK_MPI(MPI_Type_commit(&type2));
    if (rank == 0) {
        CHECK_MPI(MPI_Send(a, 2, MPI_FLOAT, 1, TAG, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(a, 3, MPI_FLOAT, 1, TAG, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Recv(a, 2, type2, 0, TAG, MPI_COMM_WORLD, &st));
        expect_counts(&st, type2, 1, 2, "example 4.12, first receive");
        CHECK_MPI(MPI_Recv(a, 2, type2, 0, TAG, MPI_COMM_WORLD, &st));
        expect_counts(&st, type2, MPI_UNDEFINED, 3,
                      "example 4.12, second receive");
    }
    CHECK_MPI(MPI_Type_free(&type2));
}

/* A vector of 3 blocks of 2 ints, stride 4: 6 basic elements per
   element; messages of 5, 6 and 11 ints. */
static void vector_prefixes(int rank)
{
    int buf[24] = {0};
    MPI_Datatype vec;
    MPI_Status st;
    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    const int sizes[3] = {5, 6, 11}, counts[3] = {MPI_UNDEFINED, 1,
                                                  MPI_UNDEFINED};
    for (int k = 0; k < 3; k++) {
        if (rank == 0) {
            CHECK_MPI(MPI_Send(buf, sizes[k], MPI_INT, 1, TAG,
                               MPI_COMM_WORLD));
        } else {
            CHECK_MPI(MPI_Recv(buf, 2, vec, 0, TAG, MPI_COMM_WORLD, &st));
            expect_counts(&st, vec, counts[k], sizes[k], "vector of 2x3 ints");
        }
    }
    CHECK_MPI(MPI_Type_free(&vec));
}

/* The struct {int, double, char[3]}: prefixes that end after a basic
   element, and one that ends inside the double. */
static void struct_prefixes(int rank, MPI_Datatype rec)
{
    struct rec r[2] = {{1, 2.0, "ab"}, {3, 4.0, "cd"}};
    unsigned char packed[64];
    MPI_Status st;
    if (rank == 0) {
        /* int + double + 2 chars; int + double + 3 chars + int; and an
           int + a float: 8 bytes, half of the double */
        int pos = 0;
        CHECK_MPI(MPI_Pack(&r[0], 1, MPI_INT, packed, 64, &pos,
                           MPI_COMM_WORLD));
        CHECK_MPI(MPI_Pack(&r[0].d, 1, MPI_DOUBLE, packed, 64, &pos,
                           MPI_COMM_WORLD));
        CHECK_MPI(MPI_Pack(r[0].c, 2, MPI_CHAR, packed, 64, &pos,
                           MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(packed, pos, MPI_PACKED, 1, TAG, MPI_COMM_WORLD));
        pos = 0;
        CHECK_MPI(MPI_Pack(r, 1, rec, packed, 64, &pos, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Pack(&r[1].i, 1, MPI_INT, packed, 64, &pos,
                           MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(packed, pos, MPI_PACKED, 1, TAG, MPI_COMM_WORLD));
        float f = 1.0f;
        pos = 0;
        CHECK_MPI(MPI_Pack(&r[0].i, 1, MPI_INT, packed, 64, &pos,
                           MPI_COMM_WORLD));
        CHECK_MPI(MPI_Pack(&f, 1, MPI_FLOAT, packed, 64, &pos,
                           MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(packed, pos, MPI_PACKED, 1, TAG, MPI_COMM_WORLD));
    } else {
        struct rec got[2];
        CHECK_MPI(MPI_Recv(got, 2, rec, 0, TAG, MPI_COMM_WORLD, &st));
        expect_counts(&st, rec, MPI_UNDEFINED, 4,
                      "struct: int, double, 2 chars");
        CHECK(got[0].i == 1 && got[0].d == 2.0 && got[0].c[1] == 'b',
              "struct: data of the partial receive");
        CHECK_MPI(MPI_Recv(got, 2, rec, 0, TAG, MPI_COMM_WORLD, &st));
        expect_counts(&st, rec, MPI_UNDEFINED, 6,
                      "struct: one element and an int");
        CHECK(got[1].i == 3, "struct: the int of the second element");
        CHECK_MPI(MPI_Recv(got, 2, rec, 0, TAG, MPI_COMM_WORLD, &st));
        expect_counts(&st, rec, MPI_UNDEFINED, MPI_UNDEFINED,
                      "struct: ends inside the double");
    }
}

/* A vector of a million blocks, received short by one int, and probed
   first: the counts come from the tree, not from expanding it. */
static void big_vector(int rank)
{
    enum { N = 1000000 };
    int *buf = calloc(2 * (size_t)N, sizeof(int));
    CHECK(buf != NULL, "out of memory");
    MPI_Datatype vec;
    MPI_Status st;
    CHECK_MPI(MPI_Type_vector(N, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    if (rank == 0) {
        CHECK_MPI(MPI_Send(buf, N - 1, MPI_INT, 1, TAG, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Probe(0, TAG, MPI_COMM_WORLD, &st));
        expect_counts(&st, vec, MPI_UNDEFINED, N - 1,
                      "probe of N-1 ints as vector");
        CHECK_MPI(MPI_Recv(buf, 1, vec, 0, TAG, MPI_COMM_WORLD, &st));
        expect_counts(&st, vec, MPI_UNDEFINED, N - 1, "N-1 ints as vector");
    }
    CHECK_MPI(MPI_Type_free(&vec));
    free(buf);
}

/* MPI_Status_set_elements(_x) with derived types, read back. */
static void set_elements(MPI_Datatype rec)
{
    MPI_Status st;
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    CHECK_MPI(MPI_Status_set_elements(&st, vec, 5));
    expect_counts(&st, vec, MPI_UNDEFINED, 5, "set 5 elements of the vector");
    CHECK_MPI(MPI_Status_set_elements(&st, vec, 12));
    expect_counts(&st, vec, 2, 12, "set 12 elements of the vector");
    CHECK_MPI(MPI_Status_set_elements_x(&st, rec, 7));
    expect_counts(&st, rec, MPI_UNDEFINED, 7, "set 7 elements of the struct");
    CHECK_MPI(MPI_Status_set_elements(&st, rec, 10));
    expect_counts(&st, rec, 2, 10, "set 10 elements of the struct");
    CHECK_MPI(MPI_Status_set_elements(&st, rec, 0));
    expect_counts(&st, rec, 0, 0, "set 0 elements");
    /* more than an int holds: only the _x query can say it */
    MPI_Count big = (MPI_Count)INT_MAX + 10, ex = -1;
    int e = -1;
    CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_BYTE, big));
    CHECK_MPI(MPI_Get_elements(&st, MPI_BYTE, &e));
    CHECK_MPI(MPI_Get_elements_x(&st, MPI_BYTE, &ex));
    CHECK(e == MPI_UNDEFINED, "INT_MAX + 10 elements: Get_elements gave %d",
          e);
    CHECK(ex == big, "INT_MAX + 10 elements: Get_elements_x gave %lld",
          (long long)ex);
    CHECK_MPI(MPI_Type_free(&vec));
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Datatype rec = rec_type();
    if (rank < 2) {
        example_4_12(rank);
        vector_prefixes(rank);
        struct_prefixes(rank, rec);
        big_vector(rank);
        set_elements(rec);
    }
    CHECK_MPI(MPI_Type_free(&rec));
    MPI_Finalize();
    return 0;
}
