/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext32_convert.c - native values to and from external32 (MPI-3.1
 * 13.5.2): big-endian two's complement integers, big-endian IEEE floats,
 * every value byte aligned, with the sizes of table 13.2.
 *
 * Most basic types only change byte order.  The others:
 *   - MPI_LONG, MPI_UNSIGNED_LONG are 4 bytes and MPI_WCHAR 2 (a UCS-2
 *     code point) in external32, 8 and 4 natively: a value outside the
 *     smaller range cannot be represented and is MPI_ERR_CONVERSION
 *     (the standard's advice that "only the less significant bytes are
 *     moved" assumes the value fits; silently changing it is worse);
 *   - long double (x87 80-bit here) is IEEE binary128: the same sign,
 *     15-bit exponent and bias; the 63-bit fraction becomes the top of
 *     the 112-bit one, and back it rounds to nearest, ties to even;
 *   - C _Bool and C++ bool: 0 is false, anything else true (13.5.2
 *     "all bytes must be checked").
 * Complex types are two values of their part type, real first.
 */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "datatypes/ext32_convert.h"

enum kind {
    SWAP,       /* same size, big-endian byte order */
    SINT,       /* two's complement, external size <= native */
    UINT,       /* unsigned, external size <= native */
    BOOL,       /* 0 / 1 in one byte */
    QUAD,       /* long double as IEEE binary128 */
};

#define CONV(T, kind, parts, bytes) {MPI_##T, kind, parts, bytes}

/* The basic types of predefined.c; the common ones first (the lookup
   is a scan, and the caller remembers its last answer). */
static const struct shmpi_ext32_conv table[] = {
    CONV(INT, SWAP, 1, 4), CONV(DOUBLE, SWAP, 1, 8),
    CONV(FLOAT, SWAP, 1, 4), CONV(CHAR, SWAP, 1, 1),
    CONV(LONG, SINT, 1, 4), CONV(UNSIGNED_LONG, UINT, 1, 4),
    CONV(BYTE, SWAP, 1, 1), CONV(PACKED, SWAP, 1, 1),
    CONV(SHORT, SWAP, 1, 2), CONV(UNSIGNED, SWAP, 1, 4),
    CONV(LONG_LONG_INT, SWAP, 1, 8), CONV(UNSIGNED_LONG_LONG, SWAP, 1, 8),
    CONV(SIGNED_CHAR, SWAP, 1, 1), CONV(UNSIGNED_CHAR, SWAP, 1, 1),
    CONV(UNSIGNED_SHORT, SWAP, 1, 2), CONV(LONG_DOUBLE, QUAD, 1, 16),
    CONV(WCHAR, UINT, 1, 2), CONV(C_BOOL, BOOL, 1, 1),
    CONV(INT8_T, SWAP, 1, 1), CONV(INT16_T, SWAP, 1, 2),
    CONV(INT32_T, SWAP, 1, 4), CONV(INT64_T, SWAP, 1, 8),
    CONV(UINT8_T, SWAP, 1, 1), CONV(UINT16_T, SWAP, 1, 2),
    CONV(UINT32_T, SWAP, 1, 4), CONV(UINT64_T, SWAP, 1, 8),
    CONV(AINT, SWAP, 1, 8), CONV(COUNT, SWAP, 1, 8),
    CONV(OFFSET, SWAP, 1, 8),
    CONV(C_FLOAT_COMPLEX, SWAP, 2, 4), CONV(C_DOUBLE_COMPLEX, SWAP, 2, 8),
    CONV(C_LONG_DOUBLE_COMPLEX, QUAD, 2, 16),
    CONV(CXX_BOOL, BOOL, 1, 1),
    CONV(CXX_FLOAT_COMPLEX, SWAP, 2, 4),
    CONV(CXX_DOUBLE_COMPLEX, SWAP, 2, 8),
    CONV(CXX_LONG_DOUBLE_COMPLEX, QUAD, 2, 16),
    CONV(INTEGER, SWAP, 1, 4), CONV(REAL, SWAP, 1, 4),
    CONV(DOUBLE_PRECISION, SWAP, 1, 8), CONV(COMPLEX, SWAP, 2, 4),
    CONV(LOGICAL, SWAP, 1, 4), CONV(CHARACTER, SWAP, 1, 1),
    CONV(DOUBLE_COMPLEX, SWAP, 2, 8),
    CONV(INTEGER1, SWAP, 1, 1), CONV(INTEGER2, SWAP, 1, 2),
    CONV(INTEGER4, SWAP, 1, 4), CONV(INTEGER8, SWAP, 1, 8),
    CONV(INTEGER16, SWAP, 1, 16),
    CONV(REAL2, SWAP, 1, 2), CONV(REAL4, SWAP, 1, 4),
    CONV(REAL8, SWAP, 1, 8), CONV(REAL16, QUAD, 1, 16),
    CONV(COMPLEX4, SWAP, 2, 2), CONV(COMPLEX8, SWAP, 2, 4),
    CONV(COMPLEX16, SWAP, 2, 8), CONV(COMPLEX32, QUAD, 2, 16),
    CONV(HANDLE_SYNC, SWAP, 1, 4),  /* an int (shmpi_sync(7)) */
};

const struct shmpi_ext32_conv *shmpi_dt_ext32_conv_of(MPI_Datatype leaf)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].type == leaf)
            return &table[i];
    return NULL;
}

/* ---- byte order ---------------------------------------------------- */

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
static void swap_units(unsigned char *out, const unsigned char *in,
                       MPI_Count units, size_t size)
{
    memcpy(out, in, (size_t)units * size);
}
#else
/* Reverses each of `units` units of `size` bytes: both directions. */
static void swap_units(unsigned char *out, const unsigned char *in,
                       MPI_Count units, size_t size)
{
    size_t total = (size_t)units * size;
    switch (size) {
    case 1:
        memcpy(out, in, total);
        return;
    case 2:
        for (size_t i = 0; i < total; i += 2) {
            uint16_t v;
            memcpy(&v, in + i, 2);
            v = __builtin_bswap16(v);
            memcpy(out + i, &v, 2);
        }
        return;
    case 4:
        for (size_t i = 0; i < total; i += 4) {
            uint32_t v;
            memcpy(&v, in + i, 4);
            v = __builtin_bswap32(v);
            memcpy(out + i, &v, 4);
        }
        return;
    case 8:
        for (size_t i = 0; i < total; i += 8) {
            uint64_t v;
            memcpy(&v, in + i, 8);
            v = __builtin_bswap64(v);
            memcpy(out + i, &v, 8);
        }
        return;
    default:
        for (size_t i = 0; i < total; i += size)
            for (size_t j = 0; j < size; j++)
                out[i + j] = in[i + size - 1 - j];
    }
}
#endif

/* An integer of n = 1, 2, 4 or 8 bytes in host order, zero-extended. */
static uint64_t load_native(const unsigned char *p, size_t n)
{
    uint8_t v8;
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    switch (n) {
    case 1: memcpy(&v8, p, 1); return v8;
    case 2: memcpy(&v16, p, 2); return v16;
    case 4: memcpy(&v32, p, 4); return v32;
    default: memcpy(&v64, p, 8); return v64;
    }
}

/* The low n bytes of v in host order. */
static void store_native(unsigned char *p, uint64_t v, size_t n)
{
    uint8_t v8 = (uint8_t)v;
    uint16_t v16 = (uint16_t)v;
    uint32_t v32 = (uint32_t)v;
    switch (n) {
    case 1: memcpy(p, &v8, 1); return;
    case 2: memcpy(p, &v16, 2); return;
    case 4: memcpy(p, &v32, 4); return;
    default: memcpy(p, &v, 8); return;
    }
}

static void store_be(unsigned char *out, uint64_t v, size_t m)
{
    for (size_t i = 0; i < m; i++)
        out[i] = (unsigned char)(v >> (8 * (m - 1 - i)));
}

static uint64_t load_be(const unsigned char *in, size_t m)
{
    uint64_t v = 0;
    for (size_t i = 0; i < m; i++)
        v = v << 8 | in[i];
    return v;
}

/* ---- integers narrower in external32 ------------------------------- */

/* n native bytes to m external bytes (m <= n <= 8). */
static int encode_int(const struct shmpi_ext32_conv *c, size_t n,
                      const unsigned char *in, MPI_Count count,
                      unsigned char *out, char *why, size_t whylen)
{
    size_t m = c->bytes;
    unsigned bits = 8 * (unsigned)m;
    for (MPI_Count i = 0; i < count; i++, in += n, out += m) {
        uint64_t u = load_native(in, n);
        int fits;
        if (c->kind == SINT) {
            /* sign-extend, then check it survives the narrowing */
            if (n < 8 && u >> (8 * n - 1))
                u |= ~(uint64_t)0 << (8 * n);
            int64_t v = (int64_t)u;
            fits = bits >= 64 || (v >= -((int64_t)1 << (bits - 1)) &&
                                  v < (int64_t)1 << (bits - 1));
            if (!fits)
                snprintf(why, whylen, "%s value %lld", c->type->name,
                         (long long)v);
        } else {
            fits = bits >= 64 || u >> bits == 0;
            if (!fits)
                snprintf(why, whylen, "%s value %llu", c->type->name,
                         (unsigned long long)u);
        }
        if (!fits)
            return MPI_ERR_CONVERSION;
        store_be(out, u, m);
    }
    return MPI_SUCCESS;
}

static void decode_int(const struct shmpi_ext32_conv *c, size_t n,
                       const unsigned char *in, MPI_Count count,
                       unsigned char *out)
{
    size_t m = c->bytes;
    for (MPI_Count i = 0; i < count; i++, in += m, out += n) {
        uint64_t u = load_be(in, m);
        if (c->kind == SINT && m < 8 && u >> (8 * m - 1))
            u |= ~(uint64_t)0 << (8 * m);
        store_native(out, u, n);
    }
}

/* ---- bool ---------------------------------------------------------- */

static int nonzero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 1;
    return 0;
}

static void encode_bool(size_t n, const unsigned char *in, MPI_Count count,
                        unsigned char *out)
{
    for (MPI_Count i = 0; i < count; i++, in += n)
        out[i] = (unsigned char)nonzero(in, n);
}

static void decode_bool(size_t n, const unsigned char *in, MPI_Count count,
                        unsigned char *out)
{
    for (MPI_Count i = 0; i < count; i++, out += n)
        store_native(out, in[i] != 0, n);
}

/* ---- long double <-> binary128 -------------------------------------- */

#if LDBL_MANT_DIG == 113
/* long double is binary128 already */
static void encode_quad(size_t n, const unsigned char *in, MPI_Count units,
                        unsigned char *out)
{
    (void)n;
    swap_units(out, in, units, 16);
}

static void decode_quad(size_t n, const unsigned char *in, MPI_Count units,
                        unsigned char *out)
{
    (void)n;
    swap_units(out, in, units, 16);
}
#elif LDBL_MANT_DIG == 64
/* x87 extended: a 64-bit significand with an explicit integer bit, then
   sign and 15-bit exponent, then padding up to sizeof(long double).
   binary128 as two halves: sign, exponent and the top 48 fraction bits
   in hi; the low 64 fraction bits in lo. */
#define FRAC63 ((UINT64_C(1) << 63) - 1)

static void encode_quad(size_t n, const unsigned char *in, MPI_Count units,
                        unsigned char *out)
{
    for (MPI_Count i = 0; i < units; i++, in += n, out += 16) {
        uint64_t sig, hi, lo;
        uint16_t sign_exp;
        memcpy(&sig, in, 8);
        memcpy(&sign_exp, in + 8, 2);
        /* exponent fields agree; the integer bit is implicit in
           binary128 (1 for normals, 0 for denormals and zero) */
        uint64_t frac = sig & FRAC63;
        hi = (uint64_t)sign_exp << 48 | frac >> 15;
        lo = frac << 49;
        store_be(out, hi, 8);
        store_be(out + 8, lo, 8);
    }
}

/* The 112-bit fraction to 63 bits, rounded to nearest, ties to even;
   a carry out of the fraction moves to the exponent (which makes the
   largest denormal the smallest normal and the largest finite value
   infinity, as IEEE rounding does). */
static void round_fraction(uint64_t *frac, unsigned *exp, uint64_t dropped)
{
    const uint64_t half = UINT64_C(1) << 48;
    if (dropped > half || (dropped == half && (*frac & 1))) {
        if (++*frac > FRAC63) {
            *frac = 0;
            ++*exp;
        }
    }
}

static void decode_quad(size_t n, const unsigned char *in, MPI_Count units,
                        unsigned char *out)
{
    for (MPI_Count i = 0; i < units; i++, in += 16, out += n) {
        uint64_t hi = load_be(in, 8), lo = load_be(in + 8, 8);
        unsigned sign = (unsigned)(hi >> 63);
        unsigned exp = (unsigned)(hi >> 48) & 0x7fff;
        uint64_t frac = (hi & ((UINT64_C(1) << 48) - 1)) << 15 | lo >> 49;
        uint64_t dropped = lo & ((UINT64_C(1) << 49) - 1);
        if (exp != 0x7fff)
            round_fraction(&frac, &exp, dropped);
        else if (frac == 0 && dropped != 0)
            frac = UINT64_C(1) << 62;   /* a NaN stays a (quiet) NaN */
        uint64_t sig = frac | (uint64_t)(exp != 0) << 63;
        uint16_t sign_exp = (uint16_t)(sign << 15 | exp);
        memcpy(out, &sig, 8);
        memcpy(out + 8, &sign_exp, 2);
        memset(out + 10, 0, n - 10);
    }
}
#else
#error "external32: unsupported long double format"
#endif

/* ---- one run of a basic type ---------------------------------------- */

int shmpi_dt_ext32_encode(const struct shmpi_ext32_conv *c, const void *native,
                          MPI_Count n, void *out, char *why, size_t whylen)
{
    size_t part = (size_t)c->type->size / c->parts;
    MPI_Count units = n * c->parts;
    switch (c->kind) {
    case SWAP:
        swap_units(out, native, units, part);
        return MPI_SUCCESS;
    case SINT:
    case UINT:
        return encode_int(c, part, native, units, out, why, whylen);
    case BOOL:
        encode_bool(part, native, units, out);
        return MPI_SUCCESS;
    default:
        encode_quad(part, native, units, out);
        return MPI_SUCCESS;
    }
}

void shmpi_dt_ext32_decode(const struct shmpi_ext32_conv *c, const void *in,
                           MPI_Count n, void *native)
{
    size_t part = (size_t)c->type->size / c->parts;
    MPI_Count units = n * c->parts;
    switch (c->kind) {
    case SWAP:
        swap_units(native, in, units, part);
        return;
    case SINT:
    case UINT:
        decode_int(c, part, in, units, native);
        return;
    case BOOL:
        decode_bool(part, in, units, native);
        return;
    default:
        decode_quad(part, in, units, native);
        return;
    }
}
