/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_kernels.c - the loops that apply the predefined reduction ops
 * (MPI-3.1 5.9.2, 5.9.4), generated from tables rather than written out:
 *
 *   - the element kinds, each with its C type (INTEGER_KINDS, ...);
 *   - per class of kind, the ops with the C expression that combines a,
 *     the element of in, with b, the element of inout (INTEGER_OPS, ...);
 *   - the predefined MPI types, each with its kind, its group of 5.9.2
 *     and the ops Open MPI and MPICH take on it beyond the group, which
 *     together decide the ops allowed on it (types[] below).
 *
 * Expanding the first two gives one static function per (op, kind) and
 * the dispatch table kernels[kind][op].
 *
 * Kinds go by width and representation, not by C type name: `long long`
 * data is reduced as int64_t, MPI_COMPLEX as two floats.  The element
 * types are may_alias, so that is no aliasing violation whatever type
 * the program stored.
 *
 * Vectorization: gcc -O2 vectorizes a loop only when its trip count is
 * known to be a multiple of the vector length (the "very cheap" cost
 * model), so each elementwise kernel runs fixed blocks of 64 bytes,
 * which gcc and clang turn into vector code, and then a scalar tail.
 * in and inout are restrict: MPI forbids them to overlap, which spares
 * the run-time overlap test vectorized code would otherwise need.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/check.h"
#include "datatypes/datatype.h"
#include "datatypes/ops.h"

/* ------------------------------------------------------------ kinds */

__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

/* (kind, C type, U): sums and products are computed in U, unsigned, so
   that they wrap instead of overflowing (undefined in C); 8- and 16-bit
   kinds in unsigned int, because promotion to int would make their
   products overflow again. */
#define INTEGER_KINDS(X)                                                    \
    X(i8, int8_t, unsigned) X(u8, uint8_t, unsigned)                        \
    X(i16, int16_t, unsigned) X(u16, uint16_t, unsigned)                    \
    X(i32, int32_t, uint32_t) X(u32, uint32_t, uint32_t)                    \
    X(i64, int64_t, uint64_t) X(u64, uint64_t, uint64_t)                    \
    X(i128, int128, uint128)

/* (kind, C type of the stored value).  f16 is MPI_REAL2, IEEE binary16
   kept as its bits: C has no arithmetic on it, so it is computed in
   float (see f16_wide below); the others compute in their own type. */
#define FLOAT_KINDS(X) X(f16, uint16_t) X(f32, float) X(f64, double) \
    X(f80, long double)

/* (kind, kind of its real and imaginary parts, type they compute in) */
#define COMPLEX_KINDS(X)                                                    \
    X(c16, f16, float) X(c32, f32, float) X(c64, f64, double)               \
    X(c80, f80, long double)

/* (kind, value type, index type) of the MINLOC/MAXLOC pairs, 5.9.4 */
#define PAIR_KINDS(X)                                                       \
    X(float_int, float, int) X(double_int, double, int)                     \
    X(long_int, long, int) X(int_int, int, int) X(short_int, short, int)    \
    X(long_double_int, long double, int) X(float_float, float, float)       \
    X(double_double, double, double)

#define KIND_ENUM(kind, ...) K_##kind,
enum kind {
    INTEGER_KINDS(KIND_ENUM) FLOAT_KINDS(KIND_ENUM) COMPLEX_KINDS(KIND_ENUM)
    PAIR_KINDS(KIND_ENUM) K_COUNT
};

#define ALIASING_TYPE(kind, T, ...) \
    typedef T __attribute__((may_alias)) kind##_t;
INTEGER_KINDS(ALIASING_TYPE)
FLOAT_KINDS(ALIASING_TYPE)

/* ------------------------------------------- floats: wide and narrow */

/* Each floating kind K has K_wide (stored value -> the type it computes
   in) and K_narrow (back).  For f16 that is float, which holds the
   product of two halves exactly and their sum to within one rounding;
   as float has 24 >= 2 * 11 + 2 bits, rounding to float and then to
   half gives the correctly rounded half (double rounding is innocuous).
   Complex products round twice, like any complex product does. */
#define NATIVE_FLOAT(kind, T)                                               \
    static inline T kind##_wide(kind##_t x) { return x; }                  \
    static inline kind##_t kind##_narrow(T x) { return x; }
NATIVE_FLOAT(f32, float)
NATIVE_FLOAT(f64, double)
NATIVE_FLOAT(f80, long double)

static inline uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline float f16_wide(f16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    if (exp == 0) /* zero or subnormal: mant * 2^-24, exact in float */
        return bits_float(float_bits((float)mant * 0x1p-24f) | sign);
    if (exp == 31) /* infinity or NaN */
        return bits_float(sign | 0x7f800000u | mant << 13);
    return bits_float(sign | (exp + 112) << 23 | mant << 13);
}

/* Round to nearest, ties to even, as IEEE conversion does. */
static inline f16_t f16_narrow(float f)
{
    uint32_t x = float_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    x &= 0x7fffffffu;
    if (x > 0x7f800000u) /* NaN: keep it quiet */
        return sign | 0x7e00u;
    if (x >= 0x477ff000u) /* >= 65520 rounds to infinity */
        return sign | 0x7c00u;
    if (x < 0x38800000u) { /* below 2^-14: a subnormal half (or 0) */
        /* units of 2^-24, rounded by the FPU: adding 2^23 leaves no
           fraction bits */
        float units = bits_float(x) * 0x1p24f + 0x1p23f;
        return sign | (uint16_t)(float_bits(units) - float_bits(0x1p23f));
    }
    x += 0xfffu + ((x >> 13) & 1); /* ties to even on the 13 bits cut */
    return sign | (uint16_t)((x - (112u << 23)) >> 13);
}

#define COMPLEX_TYPE(kind, part, W)                                         \
    typedef struct {                                                        \
        part##_t re, im;                                                    \
    } __attribute__((may_alias)) kind##_t;                                  \
    static inline kind##_t kind##_add(kind##_t a, kind##_t b)               \
    {                                                                       \
        W re = part##_wide(a.re) + part##_wide(b.re);                       \
        W im = part##_wide(a.im) + part##_wide(b.im);                       \
        return (kind##_t){part##_narrow(re), part##_narrow(im)};            \
    }                                                                       \
    static inline kind##_t kind##_mul(kind##_t a, kind##_t b)               \
    {                                                                       \
        W ar = part##_wide(a.re), ai = part##_wide(a.im);                   \
        W br = part##_wide(b.re), bi = part##_wide(b.im);                   \
        return (kind##_t){part##_narrow(ar * br - ai * bi),                 \
                          part##_narrow(ar * bi + ai * br)};                \
    }
COMPLEX_KINDS(COMPLEX_TYPE)

/* -------------------------------------------------------------- ops */

/* (OP, kind, element type, what a OP b is) */
#define INTEGER_OPS(X, kind, T, U)                                          \
    X(MAX, kind, T, a > b ? a : b)                                          \
    X(MIN, kind, T, a < b ? a : b)                                          \
    X(SUM, kind, T, (T)((U)a + (U)b))                                       \
    X(PROD, kind, T, (T)((U)a * (U)b))                                      \
    X(LAND, kind, T, a && b)                                                \
    X(LOR, kind, T, a || b)                                                 \
    X(LXOR, kind, T, !a != !b)                                              \
    X(BAND, kind, T, a & b)                                                 \
    X(BOR, kind, T, a | b)                                                  \
    X(BXOR, kind, T, a ^ b)

#define FLOAT_OPS(X, kind, T)                                               \
    X(MAX, kind, T, kind##_wide(a) > kind##_wide(b) ? a : b)                \
    X(MIN, kind, T, kind##_wide(a) < kind##_wide(b) ? a : b)                \
    X(SUM, kind, T, kind##_narrow(kind##_wide(a) + kind##_wide(b)))         \
    X(PROD, kind, T, kind##_narrow(kind##_wide(a) * kind##_wide(b)))

#define COMPLEX_OPS(X, kind, T)                                             \
    X(SUM, kind, T, kind##_add(a, b))                                       \
    X(PROD, kind, T, kind##_mul(a, b))

/* 5.9.4: the better value wins with its index; on a tie, the lower
   index. */
#define PAIR_OPS(X, kind, V, I)                                             \
    X(MAXLOC, kind, V, I, >)                                                \
    X(MINLOC, kind, V, I, <)

/* ---------------------------------------------------------- kernels */

#define BLOCK(T) (sizeof(T) < 64 ? 64 / sizeof(T) : 1)

#define ELEMENTWISE_KERNEL(OP, kind, T, expr)                               \
    static inline T OP##_##kind##_one(T a, T b) { return expr; }            \
    static void OP##_##kind(const void *restrict in_, void *restrict io_,   \
                            size_t n)                                       \
    {                                                                       \
        const T *restrict in = in_;                                         \
        T *restrict io = io_;                                               \
        size_t i = 0;                                                       \
        for (; n - i >= BLOCK(T); i += BLOCK(T))                            \
            for (size_t j = 0; j < BLOCK(T); j++)                           \
                io[i + j] = OP##_##kind##_one(in[i + j], io[i + j]);        \
        for (; i < n; i++)                                                  \
            io[i] = OP##_##kind##_one(in[i], io[i]);                        \
    }

/* Packed pairs: the index follows the value with no padding, so it may
   sit unaligned; memcpy reads and writes it. */
#define PAIR_KERNEL(OP, kind, V, I, better)                                 \
    static void OP##_##kind(const void *restrict in_, void *restrict io_,   \
                            size_t n)                                       \
    {                                                                       \
        const unsigned char *in = in_;                                      \
        unsigned char *io = io_;                                            \
        for (size_t k = 0; k < n; k++) {                                    \
            const unsigned char *p = in + k * (sizeof(V) + sizeof(I));      \
            unsigned char *q = io + k * (sizeof(V) + sizeof(I));            \
            V a, b;                                                         \
            I ia, ib;                                                       \
            memcpy(&a, p, sizeof a);                                        \
            memcpy(&b, q, sizeof b);                                        \
            memcpy(&ia, p + sizeof a, sizeof ia);                           \
            memcpy(&ib, q + sizeof b, sizeof ib);                           \
            if (a better b)                                                 \
                memcpy(q, p, sizeof a + sizeof ia);                         \
            else if (a == b && ia < ib)                                     \
                memcpy(q + sizeof b, &ia, sizeof ia);                       \
        }                                                                   \
    }

#define INTEGER_KERNELS(kind, T, U) INTEGER_OPS(ELEMENTWISE_KERNEL, kind, \
                                                kind##_t, U)
#define FLOAT_KERNELS(kind, T) FLOAT_OPS(ELEMENTWISE_KERNEL, kind, kind##_t)
#define COMPLEX_KERNELS(kind, part, W) COMPLEX_OPS(ELEMENTWISE_KERNEL, \
                                                   kind, kind##_t)
#define PAIR_KERNELS(kind, V, I) PAIR_OPS(PAIR_KERNEL, kind, V, I)
INTEGER_KINDS(INTEGER_KERNELS)
FLOAT_KINDS(FLOAT_KERNELS)
COMPLEX_KINDS(COMPLEX_KERNELS)
PAIR_KINDS(PAIR_KERNELS)

#define ENTRY(OP, kind, ...) [SHMPI_OP_##OP] = OP##_##kind,
#define INTEGER_ROW(kind, T, U) [K_##kind] = {INTEGER_OPS(ENTRY, kind, T, U)},
#define FLOAT_ROW(kind, T) [K_##kind] = {FLOAT_OPS(ENTRY, kind, T)},
#define COMPLEX_ROW(kind, ...) [K_##kind] = {COMPLEX_OPS(ENTRY, kind, kind##_t)},
#define PAIR_ROW(kind, V, I) [K_##kind] = {PAIR_OPS(ENTRY, kind, V, I)},

static shmpi_kernel *const kernels[K_COUNT][SHMPI_OP_LAST_KERNEL + 1] = {
    INTEGER_KINDS(INTEGER_ROW) FLOAT_KINDS(FLOAT_ROW)
    COMPLEX_KINDS(COMPLEX_ROW) PAIR_KINDS(PAIR_ROW)
};

/* ------------------------------------------------------------ types */

/* The groups of 5.9.2 (and the pairs of 5.9.4), with the ops each
   allows: what the standard guarantees, so what a portable program may
   use.  A type in no group (MPI_CHAR, MPI_WCHAR, MPI_CHARACTER,
   MPI_PACKED) allows none. */
enum group {
    C_INTEGER, FORTRAN_INTEGER, FLOATING, LOGICAL, COMPLEX, BYTE,
    MULTI_LANGUAGE, PAIR, NO_GROUP
};

#define B(op) (1u << SHMPI_OP_##op)
#define MINMAX (B(MAX) | B(MIN))
#define SUMPROD (B(SUM) | B(PROD))
#define LOGICALS (B(LAND) | B(LOR) | B(LXOR))
#define BITWISE (B(BAND) | B(BOR) | B(BXOR))

/* The table of 5.9.2, read by group. */
static const unsigned allowed[] = {
    [C_INTEGER] = MINMAX | SUMPROD | LOGICALS | BITWISE,
    [FORTRAN_INTEGER] = MINMAX | SUMPROD | BITWISE,
    [FLOATING] = MINMAX | SUMPROD,
    [LOGICAL] = LOGICALS,
    [COMPLEX] = SUMPROD,
    [BYTE] = BITWISE,
    [MULTI_LANGUAGE] = MINMAX | SUMPROD | BITWISE,
    [PAIR] = B(MAXLOC) | B(MINLOC),
    [NO_GROUP] = 0,
};

/* What shmpi accepts beyond the groups: the pairs Open MPI 4.1 and
   MPICH 4.0 both accept, so that programs written for them run
   unchanged (the OSU benchmarks reduce and accumulate MPI_CHAR).
   Measured 2026-11-28 by a program that tries every predefined op on
   every predefined type under MPI_ERRORS_RETURN, in MPI_Reduce_local,
   MPI_Allreduce, MPI_Reduce, MPI_Accumulate, MPI_Get_accumulate and
   MPI_Fetch_and_op (mpirun.openmpi -np 1 with OMPI_MCA_osc=sm,pt2pt;
   mpirun.mpich -np 1 and -np 2).  The reductions of both agree with
   each other; MPICH's accumulates take more than its reductions, so
   the accumulates' intersection is larger.  Classes of types: */
enum peer {
    P_NONE,
    P_CHAR,     /* MPI_CHAR, MPI_CHARACTER: every elementwise op */
    P_LOGICALS, /* MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_INTEGER1, 2, 8:
                   LAND, LOR, LXOR too */
    P_BYTE,     /* MPI_BYTE: in accumulates, MAX ... LXOR too */
    P_COUNT
};

static const unsigned peers[][P_COUNT] = {
    [SHMPI_OP_FOR_REDUCTION] = {
        [P_CHAR] = MINMAX | SUMPROD | LOGICALS | BITWISE,
        [P_LOGICALS] = LOGICALS,
    },
    [SHMPI_OP_FOR_ACCUMULATE] = {
        [P_CHAR] = MINMAX | SUMPROD | LOGICALS | BITWISE,
        [P_LOGICALS] = LOGICALS,
        [P_BYTE] = MINMAX | SUMPROD | LOGICALS,
    },
};

/* The integer kind of C integer type T */
#define INT_KIND(T)                                                         \
    (K_i8 + ((T)-1 > 0) +                                                   \
     2 * (sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2     \
          : sizeof(T) == 8 ? 3 : 4))

/* Every reducible predefined type (shmpi_op_kernel_rows gives each its
   row once, at MPI_Init).  Fortran types have the C types of predefined.c.  MPI_CHAR
   is signed char, as in both peers; MPI_CHARACTER and MPI_BYTE compare
   unsigned, as in Open MPI (MPICH compares them signed: MPI_MAX and
   MPI_MIN on them are the one place the peers' results differ). */
static const struct {
    MPI_Datatype type;
    unsigned char group, kind, peer;
} types[] = {
    {MPI_DOUBLE, FLOATING, K_f64, P_NONE},
    {MPI_INT, C_INTEGER, INT_KIND(int), P_NONE},
    {MPI_FLOAT, FLOATING, K_f32, P_NONE},
    {MPI_LONG, C_INTEGER, INT_KIND(long), P_NONE},
    {MPI_UNSIGNED, C_INTEGER, INT_KIND(unsigned), P_NONE},
    {MPI_LONG_LONG_INT, C_INTEGER, INT_KIND(long long), P_NONE},
    {MPI_UNSIGNED_LONG, C_INTEGER, INT_KIND(unsigned long), P_NONE},
    {MPI_UNSIGNED_LONG_LONG, C_INTEGER, INT_KIND(unsigned long long), P_NONE},
    {MPI_INT64_T, C_INTEGER, INT_KIND(int64_t), P_NONE},
    {MPI_UINT64_T, C_INTEGER, INT_KIND(uint64_t), P_NONE},
    {MPI_INT32_T, C_INTEGER, INT_KIND(int32_t), P_NONE},
    {MPI_UINT32_T, C_INTEGER, INT_KIND(uint32_t), P_NONE},
    {MPI_DOUBLE_INT, PAIR, K_double_int, P_NONE},
    {MPI_2INT, PAIR, K_int_int, P_NONE},
    {MPI_C_DOUBLE_COMPLEX, COMPLEX, K_c64, P_NONE},
    {MPI_SHORT, C_INTEGER, INT_KIND(short), P_NONE},
    {MPI_UNSIGNED_SHORT, C_INTEGER, INT_KIND(unsigned short), P_NONE},
    {MPI_SIGNED_CHAR, C_INTEGER, INT_KIND(signed char), P_NONE},
    {MPI_UNSIGNED_CHAR, C_INTEGER, INT_KIND(unsigned char), P_NONE},
    {MPI_INT8_T, C_INTEGER, INT_KIND(int8_t), P_NONE},
    {MPI_INT16_T, C_INTEGER, INT_KIND(int16_t), P_NONE},
    {MPI_UINT8_T, C_INTEGER, INT_KIND(uint8_t), P_NONE},
    {MPI_UINT16_T, C_INTEGER, INT_KIND(uint16_t), P_NONE},
    {MPI_LONG_DOUBLE, FLOATING, K_f80, P_NONE},
    {MPI_C_BOOL, LOGICAL, INT_KIND(uint8_t), P_NONE},
    {MPI_CXX_BOOL, LOGICAL, INT_KIND(uint8_t), P_NONE},
    {MPI_BYTE, BYTE, K_u8, P_BYTE},
    {MPI_AINT, MULTI_LANGUAGE, INT_KIND(MPI_Aint), P_LOGICALS},
    {MPI_OFFSET, MULTI_LANGUAGE, INT_KIND(MPI_Offset), P_LOGICALS},
    {MPI_COUNT, MULTI_LANGUAGE, INT_KIND(MPI_Count), P_LOGICALS},
    {MPI_C_FLOAT_COMPLEX, COMPLEX, K_c32, P_NONE},
    {MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX, K_c80, P_NONE},
    {MPI_CXX_FLOAT_COMPLEX, COMPLEX, K_c32, P_NONE},
    {MPI_CXX_DOUBLE_COMPLEX, COMPLEX, K_c64, P_NONE},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, COMPLEX, K_c80, P_NONE},
    {MPI_FLOAT_INT, PAIR, K_float_int, P_NONE},
    {MPI_LONG_INT, PAIR, K_long_int, P_NONE},
    {MPI_SHORT_INT, PAIR, K_short_int, P_NONE},
    {MPI_LONG_DOUBLE_INT, PAIR, K_long_double_int, P_NONE},
    {MPI_INTEGER, FORTRAN_INTEGER, K_i32, P_NONE},
    {MPI_REAL, FLOATING, K_f32, P_NONE},
    {MPI_DOUBLE_PRECISION, FLOATING, K_f64, P_NONE},
    {MPI_LOGICAL, LOGICAL, K_i32, P_NONE},
    {MPI_COMPLEX, COMPLEX, K_c32, P_NONE},
    {MPI_DOUBLE_COMPLEX, COMPLEX, K_c64, P_NONE},
    {MPI_INTEGER1, FORTRAN_INTEGER, K_i8, P_LOGICALS},
    {MPI_INTEGER2, FORTRAN_INTEGER, K_i16, P_LOGICALS},
    {MPI_INTEGER4, FORTRAN_INTEGER, K_i32, P_NONE},
    {MPI_INTEGER8, FORTRAN_INTEGER, K_i64, P_LOGICALS},
    {MPI_INTEGER16, FORTRAN_INTEGER, K_i128, P_NONE},
    {MPI_REAL2, FLOATING, K_f16, P_NONE},
    {MPI_REAL4, FLOATING, K_f32, P_NONE},
    {MPI_REAL8, FLOATING, K_f64, P_NONE},
    {MPI_REAL16, FLOATING, K_f80, P_NONE},
    {MPI_COMPLEX4, COMPLEX, K_c16, P_NONE},
    {MPI_COMPLEX8, COMPLEX, K_c32, P_NONE},
    {MPI_COMPLEX16, COMPLEX, K_c64, P_NONE},
    {MPI_COMPLEX32, COMPLEX, K_c80, P_NONE},
    {MPI_2REAL, PAIR, K_float_float, P_NONE},
    {MPI_2DOUBLE_PRECISION, PAIR, K_double_double, P_NONE},
    {MPI_2INTEGER, PAIR, K_int_int, P_NONE},
    {MPI_CHAR, NO_GROUP, K_i8, P_CHAR},
    {MPI_CHARACTER, NO_GROUP, K_u8, P_CHAR},
};

/* Each type's row, kept in the type with the ops it takes per use:
   RMA and the reductions look kernels up on every call (one load of the
   mask instead of two tables: measured 2026-11-28 with callgrind,
   MPI_Accumulate of one MPI_LONG + flush cost 445 instructions with the
   tables, 432 before the peers' table existed).  Written once, by
   MPI_Init (shmpi_dt_compile_predefined), before any other thread may
   call MPI, and only read after: found on first use instead, the rows
   of the predefined types (shared by every thread) would be written by
   whichever threads reduced first.  A type of no row (derived ones)
   keeps 0.  A type listed twice gets its last row, as the search that
   came before did. */
void shmpi_op_kernel_rows(void)
{
    for (size_t row = 0; row < sizeof types / sizeof types[0]; row++) {
        MPI_Datatype type = types[row].type;
        for (int use = 0; use < 2; use++)
            type->op_masks[use] = (uint16_t)(allowed[types[row].group] |
                                             peers[use][types[row].peer]);
        type->kernel_row = (int)row + 1;
    }
}

static int row_of(MPI_Datatype type)
{
    return type->kernel_row - 1;
}

/* ------------------------------------------------------ check mode */

enum { ROWS = sizeof types / sizeof types[0] };

/* Bit op of reported[use][row]: that pair was reported (fetch_or,
   relaxed: two threads that race both see one of them set it). */
static _Atomic uint32_t reported[2][ROWS];

static const char *const group_name[] = {
    [C_INTEGER] = "C integer", [FORTRAN_INTEGER] = "Fortran integer",
    [FLOATING] = "floating point", [LOGICAL] = "logical",
    [COMPLEX] = "complex", [BYTE] = "byte",
    [MULTI_LANGUAGE] = "multi-language",
    [PAIR] = "the pair types of 5.9.4 (MPI_2INT, MPI_DOUBLE_INT, ...)"};

/* The groups 5.9.2 defines op on, in words. */
static void groups_of(enum shmpi_op_code op, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int g = 0; g < NO_GROUP && at < len; g++)
        if (allowed[g] >> op & 1)
            at += (size_t)snprintf(buf + at, len - at, "%s%s",
                                   at ? ", " : "", group_name[g]);
}

void shmpi_op_check_portable(MPI_Op o, MPI_Datatype basic,
                             enum shmpi_op_use use, const char *fn)
{
    enum shmpi_op_code op = o->code;
    int i = row_of(basic);
    if (i < 0 || allowed[types[i].group] >> op & 1 ||
        atomic_fetch_or_explicit(&reported[use][i], 1u << op,
                                 memory_order_relaxed) >> op & 1)
        return;
    char groups[200], fix[300];
    groups_of(op, groups, sizeof groups);
    snprintf(fix, sizeof fix, "use a type of %s's groups (%s); an MPI "
             "that accepts only what the standard defines refuses this "
             "with MPI_ERR_OP", o->name, groups);
    shmpi_core_check_report(
        use == SHMPI_OP_FOR_ACCUMULATE
            ? "accumulate op on a type outside the op's groups"
            : "reduction op on a type outside the op's groups",
        "5.9.2", fix, "%s(..., %s, %s, ...) (reported once per op and "
        "type)", fn, basic->name, o->name);
}

shmpi_kernel *shmpi_op_kernel_find(enum shmpi_op_code op, MPI_Datatype type,
                               enum shmpi_op_use use)
{
    int i = op > SHMPI_OP_LAST_KERNEL ? -1 : row_of(type);
    if (i < 0 || !(type->op_masks[use] >> op & 1))
        return NULL;
    return kernels[types[i].kind][op];
}
