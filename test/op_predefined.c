/* op_predefined: every predefined op on every predefined type it is defined for (MPI-3.1 5.9.2, 5.9.4), through MPI_Reduce_local at counts 0, 1, 7 and 1000, against a plain C loop: negatives, carries across bytes, zeros for the logical ops, ties for MINLOC/MAXLOC. */
/* shmpi-test: np=1 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Values are chosen so that the reference needs no care: integer sums
 * and products stay in range (the standard leaves overflow undefined),
 * and floating values are quarters, whose sums and products are exact.  The optional Fortran types Open MPI lacks
 * (MPI_INTEGER16, MPI_REAL2, MPI_COMPLEX4) are in op_predefined_ext.
 */
#include "op_groups.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

#define N 1000
static const int counts[] = {0, 1, 7, N};
#define NCOUNTS (int)(sizeof counts / sizeof counts[0])

/* -11 .. 11, a third of them 0; s picks the sequence. */
static int value(int i, int s)
{
    int r = (i * 37 + s * 11) % 23 - 11;
    return r % 3 == 0 ? 0 : r;
}

/* Spreads small values over every byte of a type of `size` bytes
   (low bits all set, so sums carry from byte to byte) while 22 times it
   still fits a signed one: no sum overflows. */
static intmax_t spread(size_t size)
{
    return size >= sizeof(intmax_t) ? (INTMAX_C(1) << 57) - 1
                                    : ((intmax_t)1 << (8 * size - 6)) - 1;
}

static void reduce(const void *in, void *io, int n, MPI_Datatype dt, int op)
{
    CHECK_MPI(MPI_Reduce_local(in, io, n, dt, op_handle(op)));
}

#define FAIL_AT(name, op, n, i)                                             \
    CHECK(0, "%s on %s, count %d: element %d is wrong", op_names[op],     \
          name, n, i)

/* Integers and booleans.  Nothing overflows: the standard leaves that
   undefined, and Open MPI's vector kernels saturate (open-mpi/ompi#8045).
   Types whose values are nonnegative get the magnitudes: the unsigned
   ones, and MPI_OFFSET, which Open MPI 4.1 compares as unsigned. */
#define INTEGER_CHECKER(id, T, nonneg)                                      \
    static T ref_##id(int op, T a, T b)                                     \
    {                                                                       \
        uintmax_t sum = (uintmax_t)a + (uintmax_t)b;                        \
        uintmax_t prod = (uintmax_t)a * (uintmax_t)b;                       \
        switch (op) {                                                       \
        case MAX: return a > b ? a : b;                                     \
        case MIN: return a < b ? a : b;                                     \
        case SUM: return (T)sum;                                            \
        case PROD: return (T)prod;                                          \
        case LAND: return a && b;                                           \
        case LOR: return a || b;                                            \
        case LXOR: return !a != !b;                                         \
        case BAND: return a & b;                                            \
        case BOR: return a | b;                                             \
        default: return a ^ b;                                              \
        }                                                                   \
    }                                                                       \
    static void check_##id(MPI_Datatype dt, const char *name, unsigned mask) \
    {                                                                       \
        static T in[N], io[N], want[N];                                     \
        for (int op = 0; op < NREDUCTIONS; op++)                                   \
            for (int c = 0; c < NCOUNTS && (mask & B(op)); c++) {           \
                int n = counts[c];                                          \
                intmax_t f = op == PROD ? 1 : spread(sizeof(T));            \
                for (int i = 0; i < N; i++) {                               \
                    intmax_t x = value(i, 1) * f, y = value(i, 2) * f;      \
                    in[i] = (T)(nonneg && x < 0 ? -x : x);                  \
                    io[i] = (T)(nonneg && y < 0 ? -y : y);                  \
                    want[i] = i < n ? ref_##id(op, in[i], io[i]) : io[i];   \
                }                                                           \
                reduce(in, io, n, dt, op);                                  \
                for (int i = 0; i < N; i++)                                 \
                    if (io[i] != want[i])                                   \
                        FAIL_AT(name, op, n, i);                            \
            }                                                               \
    }
#define ANY_SIGN 0
#define NONNEGATIVE 1

/* Quarters: exact sums and products.  MK builds a T from (re, im). */
#define ARITH_CHECKER(id, T, MK)                                            \
    static void check_##id(MPI_Datatype dt, const char *name, unsigned mask) \
    {                                                                       \
        static T in[N], io[N], want[N];                                     \
        for (int op = 0; op < NREDUCTIONS; op++)                                   \
            for (int c = 0; c < NCOUNTS && (mask & B(op)); c++) {           \
                int n = counts[c];                                          \
                for (int i = 0; i < N; i++) {                               \
                    T a = in[i] = MK(value(i, 1) / 4.0, value(i, 3) / 4.0); \
                    T b = io[i] = MK(value(i, 2) / 4.0, value(i, 4) / 4.0); \
                    want[i] = i >= n ? b : op == SUM ? a + b                \
                        : op == PROD ? a * b : arith_minmax(op, a, b);      \
                }                                                           \
                reduce(in, io, n, dt, op);                                  \
                for (int i = 0; i < N; i++)                                 \
                    if (io[i] != want[i])                                   \
                        FAIL_AT(name, op, n, i);                            \
            }                                                               \
    }
#define REAL(re, im) (re)
/* A complex from its parts: laid out as an array of two reals (C11
   6.2.5) */
#define MAKE_COMPLEX(name, R)                                               \
    static R _Complex name(double re, double im)                            \
    {                                                                       \
        R parts[2] = {(R)re, (R)im};                                        \
        R _Complex z;                                                       \
        memcpy(&z, parts, sizeof z);                                        \
        return z;                                                           \
    }
MAKE_COMPLEX(complex_f, float)
MAKE_COMPLEX(complex_d, double)
MAKE_COMPLEX(complex_ld, long double)
/* MAX and MIN exist for real types only; for complex ones this branch
   is never taken but must still compile. */
#define arith_minmax(op, a, b) minmax_of(op, creall(a), creall(b), a, b)
#define minmax_of(op, ra, rb, a, b)                                         \
    ((op == MAX ? (ra) > (rb) : (ra) < (rb)) ? (a) : (b))

/* MINLOC/MAXLOC: values with many ties, indices that differ. */
#define PAIR_CHECKER(id, V, I)                                              \
    static void check_##id(MPI_Datatype dt, const char *name, unsigned mask) \
    {                                                                       \
        typedef struct { V v; I i; } P;                                     \
        static P in[N], io[N], want[N];                                     \
        for (int op = MAXLOC; op <= MINLOC; op++)                           \
            for (int c = 0; c < NCOUNTS && (mask & B(op)); c++) {           \
                int n = counts[c];                                          \
                for (int i = 0; i < N; i++) {                               \
                    P a = in[i] = (P){(V)(value(i, 1) % 4), (I)(i % 17)};   \
                    P b = io[i] = (P){(V)(value(i, 2) % 4), (I)(i % 13)};   \
                    int better = op == MAXLOC ? a.v > b.v : a.v < b.v;      \
                    want[i] = i >= n || (!better && a.v != b.v) ? b         \
                        : better ? a : (P){a.v, a.i < b.i ? a.i : b.i};     \
                }                                                           \
                reduce(in, io, n, dt, op);                                  \
                for (int i = 0; i < N; i++)                                 \
                    if (io[i].v != want[i].v || io[i].i != want[i].i)       \
                        FAIL_AT(name, op, n, i);                            \
            }                                                               \
    }

INTEGER_CHECKER(schar, signed char, ANY_SIGN)
INTEGER_CHECKER(uchar, unsigned char, NONNEGATIVE)
INTEGER_CHECKER(short, short, ANY_SIGN)
INTEGER_CHECKER(ushort, unsigned short, NONNEGATIVE)
INTEGER_CHECKER(int, int, ANY_SIGN)
INTEGER_CHECKER(uint, unsigned, NONNEGATIVE)
INTEGER_CHECKER(long, long, ANY_SIGN)
INTEGER_CHECKER(ulong, unsigned long, NONNEGATIVE)
INTEGER_CHECKER(llong, long long, ANY_SIGN)
INTEGER_CHECKER(ullong, unsigned long long, NONNEGATIVE)
INTEGER_CHECKER(i8, int8_t, ANY_SIGN)
INTEGER_CHECKER(i16, int16_t, ANY_SIGN)
INTEGER_CHECKER(i32, int32_t, ANY_SIGN)
INTEGER_CHECKER(i64, int64_t, ANY_SIGN)
INTEGER_CHECKER(u8, uint8_t, NONNEGATIVE)
INTEGER_CHECKER(u16, uint16_t, NONNEGATIVE)
INTEGER_CHECKER(u32, uint32_t, NONNEGATIVE)
INTEGER_CHECKER(u64, uint64_t, NONNEGATIVE)
INTEGER_CHECKER(aint, MPI_Aint, ANY_SIGN)
INTEGER_CHECKER(offset, MPI_Offset, NONNEGATIVE)
INTEGER_CHECKER(count, MPI_Count, ANY_SIGN)
INTEGER_CHECKER(bool, bool, NONNEGATIVE)
ARITH_CHECKER(float, float, REAL)
ARITH_CHECKER(double, double, REAL)
ARITH_CHECKER(ldouble, long double, REAL)
ARITH_CHECKER(cfloat, float _Complex, complex_f)
ARITH_CHECKER(cdouble, double _Complex, complex_d)
ARITH_CHECKER(cldouble, long double _Complex, complex_ld)
PAIR_CHECKER(float_int, float, int)
PAIR_CHECKER(double_int, double, int)
PAIR_CHECKER(long_int, long, int)
PAIR_CHECKER(int_int, int, int)
PAIR_CHECKER(short_int, short, int)
PAIR_CHECKER(ldouble_int, long double, int)
PAIR_CHECKER(float_float, float, float)
PAIR_CHECKER(double_double, double, double)

/* Fortran types as gfortran lays them out: INTEGER and LOGICAL are
   4-byte ints, REAL float, COMPLEX two floats (as float _Complex). */
#define TYPES(X)                                                            \
    X(int, MPI_INT, C_INTEGER) X(long, MPI_LONG, C_INTEGER)                 \
    X(short, MPI_SHORT, C_INTEGER) X(ushort, MPI_UNSIGNED_SHORT, C_INTEGER) \
    X(uint, MPI_UNSIGNED, C_INTEGER) X(ulong, MPI_UNSIGNED_LONG, C_INTEGER) \
    X(llong, MPI_LONG_LONG_INT, C_INTEGER)                                  \
    X(llong, MPI_LONG_LONG, C_INTEGER)                                      \
    X(ullong, MPI_UNSIGNED_LONG_LONG, C_INTEGER)                            \
    X(schar, MPI_SIGNED_CHAR, C_INTEGER)                                    \
    X(uchar, MPI_UNSIGNED_CHAR, C_INTEGER)                                  \
    X(i8, MPI_INT8_T, C_INTEGER) X(i16, MPI_INT16_T, C_INTEGER)             \
    X(i32, MPI_INT32_T, C_INTEGER) X(i64, MPI_INT64_T, C_INTEGER)           \
    X(u8, MPI_UINT8_T, C_INTEGER) X(u16, MPI_UINT16_T, C_INTEGER)           \
    X(u32, MPI_UINT32_T, C_INTEGER) X(u64, MPI_UINT64_T, C_INTEGER)         \
    X(i32, MPI_INTEGER, F_INTEGER) X(i8, MPI_INTEGER1, F_INTEGER)           \
    X(i16, MPI_INTEGER2, F_INTEGER) X(i32, MPI_INTEGER4, F_INTEGER)         \
    X(i64, MPI_INTEGER8, F_INTEGER)                                         \
    X(aint, MPI_AINT, F_INTEGER) X(offset, MPI_OFFSET, F_INTEGER)           \
    X(count, MPI_COUNT, F_INTEGER)                                          \
    X(float, MPI_FLOAT, FLOATING) X(double, MPI_DOUBLE, FLOATING)           \
    X(ldouble, MPI_LONG_DOUBLE, FLOATING) X(float, MPI_REAL, FLOATING)      \
    X(double, MPI_DOUBLE_PRECISION, FLOATING)                               \
    X(float, MPI_REAL4, FLOATING) X(double, MPI_REAL8, FLOATING)            \
    X(ldouble, MPI_REAL16, FLOATING) X(cldouble, MPI_COMPLEX32, COMPLEX)     \
    X(i32, MPI_LOGICAL, LOGICAL) X(bool, MPI_C_BOOL, LOGICAL)               \
    X(bool, MPI_CXX_BOOL, LOGICAL)                                          \
    X(cfloat, MPI_C_COMPLEX, COMPLEX) X(cfloat, MPI_C_FLOAT_COMPLEX, COMPLEX) \
    X(cdouble, MPI_C_DOUBLE_COMPLEX, COMPLEX)                               \
    X(cldouble, MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX)                         \
    X(cfloat, MPI_CXX_FLOAT_COMPLEX, COMPLEX)                               \
    X(cdouble, MPI_CXX_DOUBLE_COMPLEX, COMPLEX)                             \
    X(cldouble, MPI_CXX_LONG_DOUBLE_COMPLEX, COMPLEX)                       \
    X(cfloat, MPI_COMPLEX, COMPLEX) X(cdouble, MPI_DOUBLE_COMPLEX, COMPLEX) \
    X(cfloat, MPI_COMPLEX8, COMPLEX) X(cdouble, MPI_COMPLEX16, COMPLEX)     \
    X(uchar, MPI_BYTE, BYTE)                                                \
    X(float_int, MPI_FLOAT_INT, PAIR) X(double_int, MPI_DOUBLE_INT, PAIR)   \
    X(long_int, MPI_LONG_INT, PAIR) X(int_int, MPI_2INT, PAIR)              \
    X(short_int, MPI_SHORT_INT, PAIR)                                       \
    X(ldouble_int, MPI_LONG_DOUBLE_INT, PAIR)                               \
    X(float_float, MPI_2REAL, PAIR)                                         \
    X(double_double, MPI_2DOUBLE_PRECISION, PAIR)                           \
    X(int_int, MPI_2INTEGER, PAIR)

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
#define RUN(id, dt, group) check_##id(dt, #dt, group);
    TYPES(RUN)
    CHECK_MPI(MPI_Finalize());
    return 0;
}
