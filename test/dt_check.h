/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dt_check.h - what the datatype tests share:
 *   expect(t, what, bounds)   a type's size, bounds and true bounds,
 *                             through every query function (the plain and
 *                             the _x ones), against expected values;
 *   expect_free(...)          the same, then MPI_Type_free;
 *   expect_counts(st, t, count, elements, what)
 *                             MPI_Get_count, MPI_Get_elements(_x) of a
 *                             status against expected values;
 *   is_named(t)               whether t is a named (predefined) type;
 *   struct rec, rec_type()    a C struct {int; double; char[3]} and its
 *                             committed datatype, resized to the C size.
 */
#ifndef SHMPI_TEST_DT_CHECK_H
#define SHMPI_TEST_DT_CHECK_H

#include "check.h"

#include <stddef.h>

struct bounds {
    MPI_Count size;
    MPI_Aint lb, extent, true_lb, true_extent;
};

static inline void expect(MPI_Datatype t, const char *what,
                          struct bounds want)
{
    MPI_Count size_x, lb_x, extent_x, tlb_x, textent_x;
    MPI_Aint lb, extent, tlb, textent;
    int size;
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_MPI(MPI_Type_size_x(t, &size_x));
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    CHECK_MPI(MPI_Type_get_extent_x(t, &lb_x, &extent_x));
    CHECK_MPI(MPI_Type_get_true_extent(t, &tlb, &textent));
    CHECK_MPI(MPI_Type_get_true_extent_x(t, &tlb_x, &textent_x));
    CHECK(size == want.size && size_x == want.size, "%s: size %d/%lld, "
          "expected %lld", what, size, (long long)size_x,
          (long long)want.size);
    CHECK(lb == want.lb && lb_x == want.lb && extent == want.extent &&
          extent_x == want.extent, "%s: lb %ld extent %ld, expected "
          "%ld %ld", what, (long)lb, (long)extent, (long)want.lb,
          (long)want.extent);
    CHECK(tlb == want.true_lb && tlb_x == want.true_lb &&
          textent == want.true_extent && textent_x == want.true_extent,
          "%s: true lb %ld true extent %ld, expected %ld %ld", what,
          (long)tlb, (long)textent, (long)want.true_lb,
          (long)want.true_extent);
}

/* Checks t and frees it. */
static inline void expect_free(MPI_Datatype t, const char *what,
                               struct bounds want)
{
    expect(t, what, want);
    CHECK_MPI(MPI_Type_free(&t));
}

static inline void expect_counts(const MPI_Status *st, MPI_Datatype t,
                                 int count, int elements, const char *what)
{
    int c = -1, e = -1;
    MPI_Count ex = -1;
    CHECK_MPI(MPI_Get_count(st, t, &c));
    CHECK_MPI(MPI_Get_elements(st, t, &e));
    CHECK_MPI(MPI_Get_elements_x(st, t, &ex));
    CHECK(c == count, "%s: MPI_Get_count gave %d, expected %d", what, c,
          count);
    CHECK(e == elements, "%s: MPI_Get_elements gave %d, expected %d", what,
          e, elements);
    CHECK(ex == elements, "%s: MPI_Get_elements_x gave %lld, expected %d",
          what, (long long)ex, elements);
}

static inline int is_named(MPI_Datatype t)
{
    int ni, na, nd, combiner;
    CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
    return combiner == MPI_COMBINER_NAMED;
}

struct rec {
    int i;
    double d;
    char c[3];
};

static inline MPI_Datatype rec_type(void)
{
    int len[3] = {1, 1, 3};
    MPI_Aint disp[3] = {offsetof(struct rec, i), offsetof(struct rec, d),
                        offsetof(struct rec, c)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t, r;
    CHECK_MPI(MPI_Type_create_struct(3, len, disp, types, &t));
    CHECK_MPI(MPI_Type_create_resized(t, 0, sizeof(struct rec), &r));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_commit(&r));
    return r;
}

#endif
