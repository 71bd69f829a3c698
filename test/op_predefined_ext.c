/* op_predefined_ext: what shmpi adds to op_predefined: the optional Fortran types Open MPI lacks (MPI_INTEGER16 with carries across 64 bits, MPI_REAL2 and MPI_COMPLEX4 as IEEE halves, correctly rounded) and integer sums and products that wrap around instead of saturating. */
/* shmpi-test: np=1 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>

__extension__ typedef __int128 i128;
#define TWO64 ((i128)1 << 64)

#define N 1000
static const int counts[] = {0, 1, 7, N};

static void check_integer16(void)
{
    static i128 in[N], io[N], want[N];
    MPI_Op ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_BAND, MPI_BOR,
                    MPI_BXOR};
    for (int o = 0; o < 7; o++)
        for (int c = 0; c < 4; c++) {
            int n = counts[c];
            for (int i = 0; i < N; i++) {
                /* around +-2^64 and +-2^65: sums carry between halves */
                i128 a = in[i] = (i % 5 - 2) * TWO64 + (uint64_t)-i;
                i128 b = io[i] = (i % 3 - 1) * TWO64 + (uint64_t)i;
                i128 pa = i % 7 - 3, pb = ((i128)1 << 62) + i;
                if (ops[o] == MPI_PROD) {
                    a = in[i] = pa;
                    b = io[i] = pb;
                }
                want[i] = i >= n ? b
                          : o == 0 ? (a > b ? a : b)
                          : o == 1 ? (a < b ? a : b)
                          : o == 2 ? a + b
                          : o == 3 ? a * b
                          : o == 4 ? (a & b)
                          : o == 5 ? (a | b) : (a ^ b);
            }
            CHECK_MPI(MPI_Reduce_local(in, io, n, MPI_INTEGER16, ops[o]));
            for (int i = 0; i < N; i++)
                CHECK(io[i] == want[i], "MPI_INTEGER16 op %d count %d: "
                      "element %d", o, n, i);
        }
}

/* The half of an exactly representable normal value or 0. */
static uint16_t half(double v)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    int e = 15;
    if (v == 0)
        return sign;
    v = v < 0 ? -v : v;
    for (; v >= 2; v /= 2)
        e++;
    for (; v < 1; v *= 2)
        e--;
    return sign | (uint16_t)(e << 10) | (uint16_t)((v - 1) * 1024);
}

static void check_real2(void)
{
    /* quarters, whose sums and products are exact halves */
    static uint16_t in[N], io[N], want[N];
    MPI_Op ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD};
    for (int o = 0; o < 4; o++)
        for (int c = 0; c < 4; c++) {
            int n = counts[c];
            for (int i = 0; i < N; i++) {
                double a = (i * 37 % 23 - 11) / 4.0;
                double b = (i * 29 % 19 - 9) / 4.0;
                double r = o == 0 ? (a > b ? a : b) : o == 1 ? (a < b ? a : b)
                           : o == 2 ? a + b : a * b;
                in[i] = half(a);
                io[i] = half(b);
                want[i] = i < n ? half(r) : half(b);
            }
            CHECK_MPI(MPI_Reduce_local(in, io, n, MPI_REAL2, ops[o]));
            for (int i = 0; i < N; i++)
                CHECK(io[i] == want[i], "MPI_REAL2 op %d count %d: element "
                      "%d is %#x, want %#x", o, n, i, io[i], want[i]);
        }

    /* rounding: to nearest, ties to even; overflow; subnormals */
    static const struct { MPI_Op op; uint16_t a, b, want; } cases[] = {
        {MPI_SUM, 0x3c00, 0x1000, 0x3c00},  /* 1 + 2^-11: tie, to 1 */
        {MPI_SUM, 0x3c01, 0x1000, 0x3c02},  /* tie, up to even */
        {MPI_SUM, 0x3c00, 0x1001, 0x3c01},  /* just above the tie */
        {MPI_SUM, 0x7bff, 0x7bff, 0x7c00},  /* 65504 * 2: infinity */
        {MPI_SUM, 0x0001, 0x0001, 0x0002},  /* subnormals */
        {MPI_SUM, 0x03ff, 0x0001, 0x0400},  /* into the normals */
        {MPI_PROD, 0x0c00, 0x0c00, 0x0001}, /* 2^-12 * 2^-12 = 2^-24 */
        {MPI_PROD, 0x0800, 0x0c00, 0x0000}, /* 2^-25: tie, to 0 */
        {MPI_PROD, 0xc000, 0x3e00, 0xc200}, /* -2 * 1.5 = -3 */
        {MPI_MAX, 0xbc00, 0x3c00, 0x3c00},  /* -1 vs 1 */
        {MPI_MIN, 0x8000, 0x0001, 0x8000},  /* -0 vs 2^-24 */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint16_t a = cases[k].a, b = cases[k].b;
        CHECK_MPI(MPI_Reduce_local(&a, &b, 1, MPI_REAL2, cases[k].op));
        CHECK(b == cases[k].want, "MPI_REAL2 case %zu: %#x, want %#x", k, b,
              cases[k].want);
    }
}

static void check_complex4(void)
{
    /* (1 + 2i)(3 - 0.5i) = 4 + 5.5i; sum 4 + 1.5i */
    uint16_t a[2] = {half(1), half(2)}, b[2] = {half(3), half(-0.5)};
    CHECK_MPI(MPI_Reduce_local(a, b, 1, MPI_COMPLEX4, MPI_PROD));
    CHECK(b[0] == half(4) && b[1] == half(5.5), "MPI_COMPLEX4 PROD: "
          "%#x %#x", b[0], b[1]);
    b[0] = half(3);
    b[1] = half(-0.5);
    CHECK_MPI(MPI_Reduce_local(a, b, 1, MPI_COMPLEX4, MPI_SUM));
    CHECK(b[0] == half(4) && b[1] == half(1.5), "MPI_COMPLEX4 SUM: %#x %#x",
          b[0], b[1]);
}

/* shmpi's integer arithmetic is modular, like C's unsigned types */
static void check_wraparound(void)
{
    int ia[9], ib[9];
    unsigned short ua[9], ub[9];
    long long la[9], lb[9];
    for (int i = 0; i < 9; i++) {
        ia[i] = INT_MAX - i;
        ib[i] = 2 * i + 1;
        ua[i] = (unsigned short)(65535 - i);
        ub[i] = (unsigned short)(2 * i + 1);
        la[i] = LLONG_MAX / 2 + i;
        lb[i] = 4;
    }
    CHECK_MPI(MPI_Reduce_local(ia, ib, 9, MPI_INT, MPI_SUM));
    CHECK_MPI(MPI_Reduce_local(ua, ub, 9, MPI_UNSIGNED_SHORT, MPI_SUM));
    CHECK_MPI(MPI_Reduce_local(la, lb, 9, MPI_LONG_LONG, MPI_PROD));
    for (int i = 0; i < 9; i++) {
        CHECK(ib[i] == (int)((unsigned)INT_MAX - i + 2 * i + 1),
              "MPI_INT SUM %d does not wrap: %d", i, ib[i]);
        CHECK(ub[i] == (unsigned short)(65535 - i + 2 * i + 1),
              "MPI_UNSIGNED_SHORT SUM %d does not wrap: %u", i, ub[i]);
        CHECK(lb[i] == (long long)(4 * (unsigned long long)la[i]),
              "MPI_LONG_LONG PROD %d does not wrap", i);
    }
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    check_integer16();
    check_real2();
    check_complex4();
    check_wraparound();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
