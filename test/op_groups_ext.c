/* op_groups_ext: every predefined op on every predefined datatype of mpi.h through MPI_Reduce_local under MPI_ERRORS_RETURN: accepted exactly when MPI-3.1 5.9.2's groups (5.9.4's pair types for MINLOC/MAXLOC) allow the pair or Open MPI and MPICH both accept it (every elementwise op on MPI_CHAR as signed char and on MPI_CHARACTER, the logical ops on MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_INTEGER1/2/8), with the right result for one element; MPI_ERR_OP and inoutbuf untouched otherwise (MPI_ERR_TYPE for shmpi's MPI_HANDLE_SYNC); with count 0 every op but MPI_REPLACE and MPI_NO_OP is accepted on every type. */
/* shmpi-test: np=1 timeout=30 ext */
/* shmpi-test-nocheck: it uses, on purpose, op/type pairs outside MPI-3.1 5.9.2's groups (count 0 included), which the check mode reports as not portable. */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: Open MPI 4.1 accepts more pairs outside the groups (MPI_SUM on
 * MPI_BYTE, ...), MPICH others (MPI_LAND on MPI_FLOAT, ...), both check
 * the op at count 0, and Open MPI lacks some optional Fortran types; the
 * standard leaves the detection of such errors to the implementation.
 * The groups below are copied from the standard, the *_PEERS sets from
 * what both libraries were seen to accept; only the list of handles is
 * checked against mpi.h, so that a type added there without a row here
 * fails the test.
 */
#include "op_groups.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NO_GROUP 0u

/* How a value is stored: two's complement, unsigned, IEEE binary (size
   2, 4, 8) or long double (16), 0/1, a complex as two reals of half the
   size; NONE: no op takes it, no value is needed. */
enum kind { SINT, UINT, REAL, CPLX, BOOL, NONE };

struct dtype {
    MPI_Datatype t;
    const char *name;
    unsigned ops;              /* the ops 5.9.2 / 5.9.4 allow */
    unsigned also;             /* the ops both peers accept besides */
    enum kind kind;
    int size;                  /* of the value */
    enum kind ikind;           /* pair types: the index that follows, */
    int isize, ioff;           /* isize 0 for the others */
    int refusal;               /* the error class of the other ops */
};

#define ROW(t, ops, kind, size) ROW_(t, #t, ops, 0, kind, size)
#define PEER_ROW(t, ops, also, kind, size) ROW_(t, #t, ops, also, kind, size)
#define ROW_(t, name, ops, also, kind, size)                                \
    {t, name, ops, also, kind, size, NONE, 0, 0, MPI_ERR_OP}
/* a MINLOC/MAXLOC type: the C struct { V v; I i; } (5.9.4) */
#define PROW(t, V, I, vk, ik)                                               \
    {t, #t, PAIR, 0, vk, sizeof(V), ik, sizeof(I),                          \
     offsetof(struct { V v; I i; }, i), MPI_ERR_OP}

/* Fortran types as gfortran lays them out (INTEGER, REAL and LOGICAL 4
   bytes, LOGICAL true is 1); REAL16 as long double, like op_predefined. */
static const struct dtype all[] = {
    ROW(MPI_INT, C_INTEGER, SINT, sizeof(int)),
    ROW(MPI_LONG, C_INTEGER, SINT, sizeof(long)),
    ROW(MPI_SHORT, C_INTEGER, SINT, sizeof(short)),
    ROW(MPI_UNSIGNED_SHORT, C_INTEGER, UINT, sizeof(short)),
    ROW(MPI_UNSIGNED, C_INTEGER, UINT, sizeof(unsigned)),
    ROW(MPI_UNSIGNED_LONG, C_INTEGER, UINT, sizeof(long)),
    ROW(MPI_LONG_LONG_INT, C_INTEGER, SINT, sizeof(long long)),
    ROW(MPI_LONG_LONG, C_INTEGER, SINT, sizeof(long long)),
    ROW(MPI_UNSIGNED_LONG_LONG, C_INTEGER, UINT, sizeof(long long)),
    ROW(MPI_SIGNED_CHAR, C_INTEGER, SINT, 1),
    ROW(MPI_UNSIGNED_CHAR, C_INTEGER, UINT, 1),
    ROW(MPI_INT8_T, C_INTEGER, SINT, 1),
    ROW(MPI_INT16_T, C_INTEGER, SINT, 2),
    ROW(MPI_INT32_T, C_INTEGER, SINT, 4),
    ROW(MPI_INT64_T, C_INTEGER, SINT, 8),
    ROW(MPI_UINT8_T, C_INTEGER, UINT, 1),
    ROW(MPI_UINT16_T, C_INTEGER, UINT, 2),
    ROW(MPI_UINT32_T, C_INTEGER, UINT, 4),
    ROW(MPI_UINT64_T, C_INTEGER, UINT, 8),
    ROW(MPI_INTEGER, F_INTEGER, SINT, 4),
    PEER_ROW(MPI_AINT, F_INTEGER, LOGICAL_PEERS, SINT, sizeof(MPI_Aint)),
    PEER_ROW(MPI_COUNT, F_INTEGER, LOGICAL_PEERS, SINT, sizeof(MPI_Count)),
    PEER_ROW(MPI_OFFSET, F_INTEGER, LOGICAL_PEERS, SINT, sizeof(MPI_Offset)),
    PEER_ROW(MPI_INTEGER1, F_INTEGER, LOGICAL_PEERS, SINT, 1),
    PEER_ROW(MPI_INTEGER2, F_INTEGER, LOGICAL_PEERS, SINT, 2),
    ROW(MPI_INTEGER4, F_INTEGER, SINT, 4),
    PEER_ROW(MPI_INTEGER8, F_INTEGER, LOGICAL_PEERS, SINT, 8),
    ROW(MPI_INTEGER16, F_INTEGER, SINT, 16),
    ROW(MPI_FLOAT, FLOATING, REAL, sizeof(float)),
    ROW(MPI_DOUBLE, FLOATING, REAL, sizeof(double)),
    ROW(MPI_REAL, FLOATING, REAL, 4),
    ROW(MPI_DOUBLE_PRECISION, FLOATING, REAL, 8),
    ROW(MPI_LONG_DOUBLE, FLOATING, REAL, sizeof(long double)),
    ROW(MPI_REAL2, FLOATING, REAL, 2),
    ROW(MPI_REAL4, FLOATING, REAL, 4),
    ROW(MPI_REAL8, FLOATING, REAL, 8),
    ROW(MPI_REAL16, FLOATING, REAL, 16),
    ROW(MPI_LOGICAL, LOGICAL, BOOL, 4),
    ROW(MPI_C_BOOL, LOGICAL, BOOL, sizeof(_Bool)),
    ROW(MPI_CXX_BOOL, LOGICAL, BOOL, sizeof(bool)),
    ROW(MPI_COMPLEX, COMPLEX, CPLX, 8),
    ROW(MPI_C_COMPLEX, COMPLEX, CPLX, sizeof(float _Complex)),
    ROW(MPI_C_FLOAT_COMPLEX, COMPLEX, CPLX, sizeof(float _Complex)),
    ROW(MPI_C_DOUBLE_COMPLEX, COMPLEX, CPLX, sizeof(double _Complex)),
    ROW(MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX, CPLX,
        sizeof(long double _Complex)),
    ROW(MPI_CXX_FLOAT_COMPLEX, COMPLEX, CPLX, sizeof(float _Complex)),
    ROW(MPI_CXX_DOUBLE_COMPLEX, COMPLEX, CPLX, sizeof(double _Complex)),
    ROW(MPI_CXX_LONG_DOUBLE_COMPLEX, COMPLEX, CPLX,
        sizeof(long double _Complex)),
    ROW(MPI_DOUBLE_COMPLEX, COMPLEX, CPLX, 16),
    ROW(MPI_COMPLEX4, COMPLEX, CPLX, 4),
    ROW(MPI_COMPLEX8, COMPLEX, CPLX, 8),
    ROW(MPI_COMPLEX16, COMPLEX, CPLX, 16),
    ROW(MPI_COMPLEX32, COMPLEX, CPLX, 32),
    ROW(MPI_BYTE, BYTE, UINT, 1),
    PROW(MPI_FLOAT_INT, float, int, REAL, SINT),
    PROW(MPI_DOUBLE_INT, double, int, REAL, SINT),
    PROW(MPI_LONG_INT, long, int, SINT, SINT),
    PROW(MPI_2INT, int, int, SINT, SINT),
    PROW(MPI_SHORT_INT, short, int, SINT, SINT),
    PROW(MPI_LONG_DOUBLE_INT, long double, int, REAL, SINT),
    PROW(MPI_2REAL, float, float, REAL, REAL),
    PROW(MPI_2DOUBLE_PRECISION, double, double, REAL, REAL),
    PROW(MPI_2INTEGER, int32_t, int32_t, SINT, SINT),
    /* in no group; MPI_CHARACTER compares unsigned, as in Open MPI
       (MPICH: signed) */
    PEER_ROW(MPI_CHAR, NO_GROUP, CHAR_PEERS, SINT, 1),
    PEER_ROW(MPI_CHARACTER, NO_GROUP, CHAR_PEERS, UINT, 1),
    ROW(MPI_WCHAR, NO_GROUP, NONE, 0),
    ROW(MPI_PACKED, NO_GROUP, NONE, 0),
#ifdef MPI_HANDLE_SYNC /* shmpi's extension: no type for reductions
                          (shmpi_datatypes(7)) */
    {MPI_HANDLE_SYNC, "MPI_HANDLE_SYNC", NO_GROUP, 0, NONE, 0, NONE, 0, 0,
     MPI_ERR_TYPE},
#endif
};
#define NTYPES (sizeof all / sizeof all[0])

/* shmpi's mpi.h lists its predefined types in one macro: each must have
   a row above. */
static void check_complete(void)
{
#ifdef SHMPI_DATATYPES
#define AS_ENTRY(name) {MPI_##name, "MPI_" #name},
    static const struct { MPI_Datatype t; const char *name; } header[] = {
        SHMPI_DATATYPES(AS_ENTRY)};
#undef AS_ENTRY
    for (size_t h = 0; h < sizeof header / sizeof header[0]; h++) {
        size_t i = 0;
        while (i < NTYPES && all[i].t != header[h].t)
            i++;
        CHECK(i < NTYPES, "%s of mpi.h has no row here", header[h].name);
    }
#endif
}

/* A value as the test thinks of it; im for complex types, idx for
   pairs. */
struct val {
    long double re, im, idx;
};

/* The operands of op: inbuf's (which 0) and inoutbuf's (1).  Each op
   changes inoutbuf; signed types get a negative operand where an
   unsigned comparison or a dropped sign would show, reals a fraction,
   complex values an imaginary part. */
static struct val operand(const struct dtype *d, int op, int which)
{
    static const int base[NOPS][2] = {
        [MAX] = {6, 3}, [MIN] = {3, 6}, [SUM] = {6, 3}, [PROD] = {6, 3},
        [LAND] = {0, 5}, [LOR] = {6, 0}, [LXOR] = {6, 3}, [BAND] = {6, 3},
        [BOR] = {6, 3}, [BXOR] = {6, 3}, [MAXLOC] = {6, 3},
        [MINLOC] = {3, 6}, [REPLACE] = {6, 3}, [NO_OP] = {6, 3}};
    long double x = base[op][which];
    int negate_io = op == MAX || op == SUM || op == PROD || op == MAXLOC;
    int negate_in = op == MIN || op == MINLOC;
    if (d->kind == SINT || d->kind == REAL || d->kind == CPLX)
        if ((which == 1 && negate_io) || (which == 0 && negate_in))
            x = -x;
    if (d->kind == REAL || d->kind == CPLX)
        x += which ? 0.25L : 0.5L;
    if (d->kind == BOOL)
        x = x != 0;
    return (struct val){x, d->kind == CPLX ? 1 + which : 0, 1 + which};
}

/* What op gives for in = a, inout = b (5.9.2; 5.9.4 for the pairs: the
   operands never tie). */
static struct val ref(int op, struct val a, struct val b)
{
    int64_t x = (int64_t)a.re, y = (int64_t)b.re;
    switch (op) {
    case MAX: case MAXLOC: return a.re > b.re ? a : b;
    case MIN: case MINLOC: return a.re < b.re ? a : b;
    case SUM: return (struct val){a.re + b.re, a.im + b.im, 0};
    case PROD:
        return (struct val){a.re * b.re - a.im * b.im,
                            a.re * b.im + a.im * b.re, 0};
    case LAND: return (struct val){a.re != 0 && b.re != 0, 0, 0};
    case LOR: return (struct val){a.re != 0 || b.re != 0, 0, 0};
    case LXOR: return (struct val){(a.re != 0) != (b.re != 0), 0, 0};
    case BAND: return (struct val){(long double)(x & y), 0, 0};
    case BOR: return (struct val){(long double)(x | y), 0, 0};
    default: return (struct val){(long double)(x ^ y), 0, 0};
    }
}

/* MPI_REAL2 is IEEE binary16, stored little-endian.  Coded by hand,
   not as _Float16, which clang 14 refuses on x86-64 (make check-tsan
   builds the tests with clang).  The operands and results here are
   normal halves with few bits (6.5, -2.75, their sum and product), so
   the encoding is exact or the test is wrong: checked. */
static void put_half(unsigned char *p, long double v)
{
    uint16_t h = v < 0 ? 0x8000 : 0;
    long double m = v < 0 ? -v : v;
    int e = 0;
    if (m != 0) {
        while (m >= 2) { m /= 2; e++; }
        while (m < 1) { m *= 2; e--; }
        long double frac = (m - 1) * 1024;
        CHECK(e >= -14 && e <= 15 && frac == (long double)(uint16_t)frac,
              "%Lg is no normal binary16 value", v);
        h |= (uint16_t)((e + 15) << 10 | (uint16_t)frac);
    }
    p[0] = (unsigned char)h;
    p[1] = (unsigned char)(h >> 8);
}

/* NAN for infinities and NaNs, which the test never stores. */
static long double get_half(const unsigned char *p)
{
    unsigned h = p[0] | (unsigned)p[1] << 8, e = h >> 10 & 0x1f;
    if (e == 0x1f)
        return NAN;
    /* (1024 + fraction) * 2^(e - 25), or fraction * 2^-24 if subnormal */
    long double v = (e ? 1024 : 0) + (h & 0x3ff);
    for (int i = e ? (int)e - 25 : -24; i < 0; i++)
        v /= 2;
    for (int i = e ? (int)e - 25 : -24; i > 0; i--)
        v *= 2;
    return h & 0x8000 ? -v : v;
}

static void put_num(enum kind k, int size, unsigned char *p, long double v)
{
    if (k == REAL) {
        switch (size) {
        case 2: put_half(p, v); return;
        case 4: *(float *)p = (float)v; return;
        case 8: *(double *)p = (double)v; return;
        default: *(long double *)p = v; return;
        }
    }
    int64_t x = (int64_t)v; /* two's complement, little-endian */
    for (int i = 0; i < size; i++)
        p[i] = i < 8 ? (unsigned char)((uint64_t)x >> (8 * i))
                     : (x < 0 ? 0xff : 0);
}

/* NAN for bytes that hold no value the test could mean. */
static long double get_num(enum kind k, int size, const unsigned char *p)
{
    if (k == REAL) {
        switch (size) {
        case 2: return get_half(p);
        case 4: return *(const float *)p;
        case 8: return *(const double *)p;
        default: return *(const long double *)p;
        }
    }
    uint64_t u = 0;
    for (int i = 0; i < size && i < 8; i++)
        u |= (uint64_t)p[i] << (8 * i);
    if (k == SINT && size < 8 && (u >> (8 * size - 1)) & 1)
        u |= ~UINT64_C(0) << (8 * size);
    for (int i = 8; i < size; i++)
        if (p[i] != ((int64_t)u < 0 ? 0xff : 0))
            return NAN;
    return k == SINT ? (long double)(int64_t)u : (long double)u;
}

static void put(const struct dtype *d, unsigned char *p, struct val v)
{
    int half = d->size / 2;
    if (d->kind == CPLX) {
        put_num(REAL, half, p, v.re);
        put_num(REAL, half, p + half, v.im);
        return;
    }
    put_num(d->kind, d->size, p, v.re);
    if (d->isize)
        put_num(d->ikind, d->isize, p + d->ioff, v.idx);
}

static struct val get(const struct dtype *d, const unsigned char *p)
{
    int half = d->size / 2;
    if (d->kind == CPLX)
        return (struct val){get_num(REAL, half, p),
                            get_num(REAL, half, p + half), 0};
    return (struct val){get_num(d->kind, d->size, p), 0,
                        d->isize ? get_num(d->ikind, d->isize, p + d->ioff)
                                 : 0};
}

static void check_pair(const struct dtype *d, int op)
{
    _Alignas(64) unsigned char in[64], io[64], before[64];
    memset(in, 0x11, sizeof in);
    memset(io, 0x5a, sizeof io);
    struct val a = operand(d, op, 0), b = operand(d, op, 1);
    if (d->kind != NONE) {
        put(d, in, a);
        put(d, io, b);
    }
    memcpy(before, io, sizeof io);
    int rc = MPI_Reduce_local(in, io, 1, d->t, op_handle(op)), cls = -1;
    if (!((d->ops | d->also) & B(op))) {
        /* an op no reduction takes is refused as such, whatever the
           type */
        int want = op == REPLACE || op == NO_OP ? MPI_ERR_OP : d->refusal;
        CHECK(rc != MPI_SUCCESS, "%s on %s was accepted", op_names[op],
              d->name);
        CHECK_MPI(MPI_Error_class(rc, &cls));
        CHECK(cls == want, "%s on %s gave class %d, expected %d",
              op_names[op], d->name, cls, want);
        CHECK(!memcmp(io, before, sizeof io), "%s on %s was refused but "
              "changed inoutbuf", op_names[op], d->name);
        return;
    }
    char text[MPI_MAX_ERROR_STRING];
    CHECK(rc == MPI_SUCCESS, "%s on %s was refused: %s", op_names[op],
          d->name, check_err_text_(rc, text));
    struct val got = get(d, io), want = ref(op, a, b);
    CHECK(got.re == want.re && got.im == want.im &&
          (!d->isize || got.idx == want.idx), "%s on %s: (%Lg, %Lg, %Lg), "
          "expected (%Lg, %Lg, %Lg)", op_names[op], d->name, got.re, got.im,
          got.idx, want.re, want.im, want.idx);
}

/* Count 0: nothing for the op to be wrong on.  Only an op no reduction
   takes, or a type none does, is refused. */
static void check_empty(const struct dtype *d, int op)
{
    unsigned char in[16], io[16], before[16];
    memset(in, 0x11, sizeof in);
    memset(io, 0x5a, sizeof io);
    memcpy(before, io, sizeof io);
    int rc = MPI_Reduce_local(in, io, 0, d->t, op_handle(op)), cls = -1;
    int want = op == REPLACE || op == NO_OP ? MPI_ERR_OP
               : d->refusal == MPI_ERR_TYPE ? MPI_ERR_TYPE : MPI_SUCCESS;
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == want, "%s on %s, count 0: class %d, expected %d",
          op_names[op], d->name, cls, want);
    CHECK(!memcmp(io, before, sizeof io), "%s on %s, count 0, changed "
          "inoutbuf", op_names[op], d->name);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    check_complete();
    for (size_t i = 0; i < NTYPES; i++)
        for (int op = 0; op < NOPS; op++) {
            check_pair(&all[i], op);
            check_empty(&all[i], op);
        }
    CHECK_MPI(MPI_Finalize());
    return 0;
}
