/* dt_bounds: lower/upper bounds and extents: the alignment epsilon of C structs, bounds set by MPI_Type_create_resized carried through later constructors (example 4.9), and the pair types. */
/* shmpi-test: np=1,2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MPI-3.1 4.1.6: without explicit bounds the extent is the span of the
 * data rounded up to the largest alignment of its basic types, which is
 * the size a C compiler gives the matching struct; the bounds set by
 * MPI_Type_create_resized replace that and stay with every type built
 * from it ("sticky"), while the true extent (4.1.8) ignores them.
 */
#include "dt_check.h"

#include <stddef.h>

/* A struct type from the members' offsets, as a program builds one. */
static MPI_Datatype two_members(MPI_Datatype a, MPI_Aint da, MPI_Datatype b,
                                MPI_Aint db)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){da, db},
                                     (MPI_Datatype[]){a, b}, &t));
    return t;
}

#define MEMBERS(S, TA, A, TB, B)                                         \
    two_members(TA, offsetof(struct S, A), TB, offsetof(struct S, B))

struct dc { double d; char c; };
struct cd { char c; double d; };
struct ic { int i; char c; };
struct sc { short s; char c; };
struct ldc { long double x; char c; };
struct cld { char c; long double x; };
struct outer { char c; struct dc in; char z; };

static void c_structs(void)
{
    MPI_Datatype t;
    t = MEMBERS(dc, MPI_DOUBLE, d, MPI_CHAR, c);
    expect_free(t, "{double; char}",
                (struct bounds){9, 0, sizeof(struct dc), 0, 9});
    t = MEMBERS(cd, MPI_CHAR, c, MPI_DOUBLE, d);
    expect_free(t, "{char; double}", (struct bounds){9, 0,
                sizeof(struct cd), 0, sizeof(struct cd)});
    t = MEMBERS(ic, MPI_INT, i, MPI_CHAR, c);
    expect_free(t, "{int; char}",
                (struct bounds){5, 0, sizeof(struct ic), 0, 5});
    t = MEMBERS(sc, MPI_SHORT, s, MPI_CHAR, c);
    expect_free(t, "{short; char}",
                (struct bounds){3, 0, sizeof(struct sc), 0, 3});
    t = MEMBERS(ldc, MPI_LONG_DOUBLE, x, MPI_CHAR, c);
    expect_free(t, "{long double; char}", (struct bounds){
                sizeof(long double) + 1, 0, sizeof(struct ldc), 0,
                sizeof(long double) + 1});
    t = MEMBERS(cld, MPI_CHAR, c, MPI_LONG_DOUBLE, x);
    expect_free(t, "{char; long double}", (struct bounds){
                sizeof(long double) + 1, 0, sizeof(struct cld), 0,
                sizeof(struct cld)});
    /* a double at -8 and a char at 0: 9 bytes, 16 with the epsilon */
    t = two_members(MPI_DOUBLE, -8, MPI_CHAR, 0);
    expect_free(t, "{double @-8; char @0}", (struct bounds){9, -8, 16, -8, 9});
}

static void nested_structs(void)
{
    MPI_Datatype in = MEMBERS(dc, MPI_DOUBLE, d, MPI_CHAR, c), t;
    CHECK_MPI(MPI_Type_create_struct(
        3, (int[]){1, 1, 1},
        (MPI_Aint[]){offsetof(struct outer, c), offsetof(struct outer, in),
                     offsetof(struct outer, z)},
        (MPI_Datatype[]){MPI_CHAR, in, MPI_CHAR}, &t));
    expect_free(t, "{char; {double; char}; char}", (struct bounds){11, 0,
                sizeof(struct outer), 0, offsetof(struct outer, z) + 1});
    /* an array of structs is laid by sizeof */
    CHECK_MPI(MPI_Type_contiguous(3, in, &t));
    expect_free(t, "{double; char}[3]", (struct bounds){27, 0,
                3 * sizeof(struct dc), 0, 2 * sizeof(struct dc) + 9});
    CHECK_MPI(MPI_Type_free(&in));
}

static void example_4_9(void)
{
    /* {(lb,-3), (int,0), (ub,6)}: extent 9 */
    MPI_Datatype type1, type2;
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -3, 9, &type1));
    expect(type1, "type1", (struct bounds){4, -3, 9, 0, 4});
    /* {(lb,-3), (int,0), (int,9), (ub,15)} */
    CHECK_MPI(MPI_Type_contiguous(2, type1, &type2));
    expect_free(type2, "type2", (struct bounds){8, -3, 18, 0, 13});
    CHECK_MPI(MPI_Type_free(&type1));
}

static void sticky_bounds(void)
{
    MPI_Datatype r, r2, t;
    /* an int every 8 bytes, then 3 of them 16 bytes apart */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &r));
    CHECK_MPI(MPI_Type_vector(3, 1, 2, r, &t));
    expect_free(t, "vector of resized", (struct bounds){12, 0, 40, 0, 36});
    /* the bounds of the marked member win over the data of the other */
    t = two_members(r, 0, MPI_CHAR, 100);
    expect_free(t, "struct{resized; char @100}",
                (struct bounds){5, 0, 8, 0, 101});
    /* with markers there is no epsilon: 2 x 9 bytes */
    MPI_Datatype dc = MEMBERS(dc, MPI_DOUBLE, d, MPI_CHAR, c);
    CHECK_MPI(MPI_Type_create_resized(dc, 0, 9, &r2));
    CHECK_MPI(MPI_Type_contiguous(2, r2, &t));
    expect_free(t, "packed {double; char}[2]",
                (struct bounds){18, 0, 18, 0, 18});
    CHECK_MPI(MPI_Type_free(&r2));
    CHECK_MPI(MPI_Type_free(&dc));
    /* two marked members: lb from one, ub from the other */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -3, 9, &r2));
    t = two_members(r2, 0, r, 20);
    expect_free(t, "struct of two resized", (struct bounds){8, -3, 31, 0, 24});
    CHECK_MPI(MPI_Type_free(&r2));
    /* resizing again erases the old markers */
    CHECK_MPI(MPI_Type_create_resized(r, -16, 64, &r2));
    CHECK_MPI(MPI_Type_create_resized(r2, 0, 4, &t));
    expect_free(t, "resized twice", (struct bounds){4, 0, 4, 0, 4});
    /* a dup has the same bounds */
    CHECK_MPI(MPI_Type_dup(r2, &t));
    expect_free(t, "dup of resized", (struct bounds){4, -16, 64, 0, 4});
    CHECK_MPI(MPI_Type_free(&r2));
    CHECK_MPI(MPI_Type_free(&r));
}

static void column_type(void)
{
    /* a column of double a[3][4], resized to one element so that
       consecutive columns follow each other */
    MPI_Datatype col, cols, t;
    CHECK_MPI(MPI_Type_vector(3, 1, 4, MPI_DOUBLE, &col));
    expect(col, "column", (struct bounds){24, 0, 72, 0, 72});
    CHECK_MPI(MPI_Type_create_resized(col, 0, sizeof(double), &cols));
    CHECK_MPI(MPI_Type_contiguous(4, cols, &t));
    expect_free(t, "4 columns", (struct bounds){96, 0, 32, 0, 96});
    CHECK_MPI(MPI_Type_free(&cols));
    CHECK_MPI(MPI_Type_free(&col));
}

#define PAIR(T) struct { T v; int i; }

static void pair_types(void)
{
    expect(MPI_FLOAT_INT, "MPI_FLOAT_INT", (struct bounds){8, 0,
           sizeof(PAIR(float)), 0, 8});
    expect(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", (struct bounds){12, 0,
           sizeof(PAIR(double)), 0, 12});
    expect(MPI_LONG_INT, "MPI_LONG_INT", (struct bounds){
           sizeof(long) + 4, 0, sizeof(PAIR(long)), 0, sizeof(long) + 4});
    expect(MPI_SHORT_INT, "MPI_SHORT_INT", (struct bounds){
           sizeof(short) + 4, 0, sizeof(PAIR(short)), 0,
           sizeof(PAIR(short))});
    expect(MPI_2INT, "MPI_2INT", (struct bounds){8, 0, 8, 0, 8});
    expect(MPI_INT, "MPI_INT", (struct bounds){4, 0, 4, 0, 4});
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE_INT, &t));
    expect_free(t, "2 x MPI_DOUBLE_INT", (struct bounds){24, 0,
                2 * sizeof(PAIR(double)), 0, sizeof(PAIR(double)) + 12});
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    c_structs();
    nested_structs();
    example_4_9();
    sticky_bounds();
    column_type();
    pair_types();
    MPI_Finalize();
    return 0;
}
