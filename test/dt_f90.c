/* dt_f90: MPI_Type_create_f90_integer/real/complex give, at every boundary of range and precision of gfortran's kinds, a type of the kind's size; MPI_UNDEFINED leaves p or r out; too much range or precision, or both left out, is MPI_ERR_ARG; the envelope and contents give the combiner and (p, r) back; the type cannot be freed and works in point-to-point and reductions. */
/* shmpi-test: np=1,2,3 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <complex.h>
#include <stdint.h>

#define U MPI_UNDEFINED

static int rank, size;

/* t was made by combiner from ints[0..ni-1], and is one element of `as`. */
static void check_type(MPI_Datatype t, int combiner, int ni, const int *ints,
                       MPI_Datatype as, const char *what)
{
    int nints = -1, naddrs = -1, ntypes = -1, comb = -1, got[2] = {-7, -7};
    CHECK_MPI(MPI_Type_get_envelope(t, &nints, &naddrs, &ntypes, &comb));
    CHECK(comb == combiner && nints == ni && naddrs == 0 && ntypes == 0,
          "%s: envelope (%d, %d, %d, combiner %d)", what, nints, naddrs,
          ntypes, comb);
    CHECK_MPI(MPI_Type_get_contents(t, 2, 0, 0, got, NULL, NULL));
    for (int i = 0; i < ni; i++)
        CHECK(got[i] == ints[i], "%s: contents[%d] is %d, expected %d", what,
              i, got[i], ints[i]);
    int sz = -1, want = -2;
    MPI_Aint lb = -1, ext = -1, wlb = -2, wext = -2;
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK_MPI(MPI_Type_size(as, &want));
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
    CHECK_MPI(MPI_Type_get_extent(as, &wlb, &wext));
    CHECK(sz == want && lb == wlb && ext == wext, "%s: size %d, extent %ld "
          "(lb %ld), expected %d, %ld (%ld)", what, sz, (long)ext, (long)lb,
          want, (long)wext, (long)wlb);
    /* predefined: the program may not free it */
    MPI_Datatype keep = t;
    CHECK_CLASS(MPI_Type_free(&keep), MPI_ERR_TYPE);
    CHECK(keep == t, "%s: a refused MPI_Type_free changed the handle", what);
}

static void integers(void)
{
    static const struct { int r; MPI_Datatype as; } cases[] = {
        {-5, MPI_INTEGER1}, {0, MPI_INTEGER1}, {1, MPI_INTEGER1},
        {2, MPI_INTEGER1}, {3, MPI_INTEGER2}, {4, MPI_INTEGER2},
        {5, MPI_INTEGER4}, {9, MPI_INTEGER4}, {10, MPI_INTEGER8},
        {18, MPI_INTEGER8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        char what[64];
        snprintf(what, sizeof what, "MPI_Type_create_f90_integer(%d)",
                 cases[i].r);
        CHECK_MPI(MPI_Type_create_f90_integer(cases[i].r, &t));
        check_type(t, MPI_COMBINER_F90_INTEGER, 1, &cases[i].r, cases[i].as,
                   what);
    }
    MPI_Datatype t;
    CHECK_CLASS(MPI_Type_create_f90_integer(39, &t), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_f90_integer(1000, &t), MPI_ERR_ARG);
}

/* precision p and range r of float, double and long double (gfortran's
   REAL(4), REAL(8), REAL(10)): 6/37, 15/307, 18/4931
   (Open MPI 4.1 hands out the type of (0, r) for (MPI_UNDEFINED, r) once
   (0, r) was asked for, contents included, so no pair here is both) */
static const struct { int p, r, kind; } real_cases[] = {
    {6, 37, 0}, {6, 38, 1}, {7, 1, 1}, {1, 38, 1}, {15, 307, 1},
    {15, 308, 2}, {16, 1, 2}, {1, 308, 2}, {18, 4931, 2}, {U, 37, 0},
    {U, 38, 1}, {6, U, 0}, {7, U, 1}, {16, U, 2}, {U, 4931, 2},
    {-3, -3, 0}, {0, 0, 0}, {1, 1, 0},
};
static const struct { int p, r; } bad_real_cases[] = {
    {18, 4932}, {19, 0}, {19, U}, {U, 4932}, {0, 4933}, {33, 4931},
    {1000, 1000}, {U, U},
};

static void reals_and_complexes(void)
{
    const MPI_Datatype real_of[] = {MPI_REAL4, MPI_REAL8, MPI_REAL16};
    const MPI_Datatype complex_of[] = {MPI_COMPLEX8, MPI_COMPLEX16,
                                       MPI_COMPLEX32};
    for (size_t i = 0; i < sizeof real_cases / sizeof real_cases[0]; i++) {
        int pr[2] = {real_cases[i].p, real_cases[i].r};
        MPI_Datatype t;
        char what[80];
        snprintf(what, sizeof what, "MPI_Type_create_f90_real(%d, %d)",
                 pr[0], pr[1]);
        CHECK_MPI(MPI_Type_create_f90_real(pr[0], pr[1], &t));
        check_type(t, MPI_COMBINER_F90_REAL, 2, pr,
                   real_of[real_cases[i].kind], what);
        snprintf(what, sizeof what, "MPI_Type_create_f90_complex(%d, %d)",
                 pr[0], pr[1]);
        CHECK_MPI(MPI_Type_create_f90_complex(pr[0], pr[1], &t));
        check_type(t, MPI_COMBINER_F90_COMPLEX, 2, pr,
                   complex_of[real_cases[i].kind], what);
    }
    for (size_t i = 0; i < sizeof bad_real_cases / sizeof bad_real_cases[0];
         i++) {
        MPI_Datatype t;
        int p = bad_real_cases[i].p, r = bad_real_cases[i].r;
        CHECK_CLASS(MPI_Type_create_f90_real(p, r, &t), MPI_ERR_ARG);
        CHECK_CLASS(MPI_Type_create_f90_complex(p, r, &t), MPI_ERR_ARG);
    }
}

/* The types in use: a ring of sends and a sum over all ranks. */
static void in_use(void)
{
    MPI_Datatype dbl, i4, cplx;
    CHECK_MPI(MPI_Type_create_f90_real(15, U, &dbl));
    CHECK_MPI(MPI_Type_create_f90_integer(9, &i4));
    CHECK_MPI(MPI_Type_create_f90_complex(6, 30, &cplx));
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double out[5], in[5];
    for (int i = 0; i < 5; i++)
        out[i] = rank * 10 + i + 0.5;
    CHECK_MPI(MPI_Sendrecv(out, 5, dbl, right, 1, in, 5, dbl, left, 1,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < 5; i++)
        CHECK(in[i] == left * 10 + i + 0.5, "in[%d] = %g", i, in[i]);
    /* a receive in the base type matches a send in the f90 type */
    CHECK_MPI(MPI_Sendrecv(out, 5, dbl, right, 2, in, 5, MPI_REAL8, left, 2,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(in[4] == left * 10 + 4.5, "received as MPI_REAL8: %g", in[4]);

    int32_t v[3] = {rank, 1, -rank}, sum[3];
    CHECK_MPI(MPI_Allreduce(v, sum, 3, i4, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum[0] == size * (size - 1) / 2 && sum[1] == size &&
          sum[2] == -sum[0], "integer sum: %d %d %d", sum[0], sum[1],
          sum[2]);
    double d = rank + 0.25, dmax = 0;
    CHECK_MPI(MPI_Allreduce(&d, &dmax, 1, dbl, MPI_MAX, MPI_COMM_WORLD));
    CHECK(dmax == size - 1 + 0.25, "real max: %g", dmax);
    float complex c = (float)rank + 2.0f * I, csum = 0;
    CHECK_MPI(MPI_Allreduce(&c, &csum, 1, cplx, MPI_SUM, MPI_COMM_WORLD));
    CHECK(crealf(csum) == (float)(size * (size - 1) / 2) &&
          cimagf(csum) == 2.0f * size, "complex sum: %g%+gi", crealf(csum),
          cimagf(csum));
    /* a derived type built on one */
    MPI_Datatype pair;
    CHECK_MPI(MPI_Type_contiguous(2, dbl, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    CHECK_MPI(MPI_Sendrecv(out, 2, pair, right, 3, in, 2, pair, left, 3,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(in[3] == left * 10 + 3.5, "through a contiguous of it: %g", in[3]);
    CHECK_MPI(MPI_Type_free(&pair));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    integers();
    reals_and_complexes();
    in_use();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
