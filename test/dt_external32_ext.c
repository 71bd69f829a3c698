/* dt_external32_ext: external32 where sizes differ from native ones (MPI_LONG 4, MPI_WCHAR 2, long double as IEEE binary128, table 13.2 for every predefined type), values that do not fit (MPI_ERR_CONVERSION), and shmpi's argument checks of MPI_Pack_external and friends. */
/* shmpi-test: np=1 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sizes and formats are the standard's (MPI-3.1 13.5.2, table
 * 13.2), but Open MPI 4.1 does not follow them (it packs long double
 * unconverted, and gives MPI_LONG 8 bytes in MPI_Pack_external_size
 * while packing 4), and the error classes for values out of range and
 * for a datarep other than "external32" are shmpi's choice; hence ext.
 */
#include "check.h"

#include <float.h>
#include <math.h>
#include <wchar.h>

static const char *const ext32 = "external32";

/* Table 13.2 (and the optional types), bytes of one element. */
static void sizes(void)
{
    static const struct {
        MPI_Datatype t;
        const char *name;
        MPI_Aint bytes;
    } table[] = {
#define T(name, n) {name, #name, n}
        T(MPI_PACKED, 1), T(MPI_BYTE, 1), T(MPI_CHAR, 1),
        T(MPI_UNSIGNED_CHAR, 1), T(MPI_SIGNED_CHAR, 1), T(MPI_WCHAR, 2),
        T(MPI_SHORT, 2), T(MPI_UNSIGNED_SHORT, 2), T(MPI_INT, 4),
        T(MPI_UNSIGNED, 4), T(MPI_LONG, 4), T(MPI_UNSIGNED_LONG, 4),
        T(MPI_LONG_LONG_INT, 8), T(MPI_UNSIGNED_LONG_LONG, 8),
        T(MPI_FLOAT, 4), T(MPI_DOUBLE, 8), T(MPI_LONG_DOUBLE, 16),
        T(MPI_C_BOOL, 1), T(MPI_INT8_T, 1), T(MPI_INT16_T, 2),
        T(MPI_INT32_T, 4), T(MPI_INT64_T, 8), T(MPI_UINT8_T, 1),
        T(MPI_UINT16_T, 2), T(MPI_UINT32_T, 4), T(MPI_UINT64_T, 8),
        T(MPI_AINT, 8), T(MPI_COUNT, 8), T(MPI_OFFSET, 8),
        T(MPI_C_FLOAT_COMPLEX, 8), T(MPI_C_DOUBLE_COMPLEX, 16),
        T(MPI_C_LONG_DOUBLE_COMPLEX, 32), T(MPI_CXX_BOOL, 1),
        T(MPI_CXX_FLOAT_COMPLEX, 8), T(MPI_CXX_DOUBLE_COMPLEX, 16),
        T(MPI_CXX_LONG_DOUBLE_COMPLEX, 32), T(MPI_CHARACTER, 1),
        T(MPI_LOGICAL, 4), T(MPI_INTEGER, 4), T(MPI_REAL, 4),
        T(MPI_DOUBLE_PRECISION, 8), T(MPI_COMPLEX, 8),
        T(MPI_DOUBLE_COMPLEX, 16), T(MPI_INTEGER1, 1), T(MPI_INTEGER2, 2),
        T(MPI_INTEGER4, 4), T(MPI_INTEGER8, 8), T(MPI_INTEGER16, 16),
        T(MPI_REAL2, 2), T(MPI_REAL4, 4), T(MPI_REAL8, 8),
        T(MPI_REAL16, 16), T(MPI_COMPLEX4, 4), T(MPI_COMPLEX8, 8),
        T(MPI_COMPLEX16, 16), T(MPI_COMPLEX32, 32),
        T(MPI_FLOAT_INT, 8), T(MPI_DOUBLE_INT, 12), T(MPI_LONG_INT, 8),
        T(MPI_2INT, 8), T(MPI_SHORT_INT, 6), T(MPI_LONG_DOUBLE_INT, 20),
        T(MPI_2REAL, 8), T(MPI_2DOUBLE_PRECISION, 16), T(MPI_2INTEGER, 8),
#undef T
    };
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
        MPI_Aint size = -1;
        CHECK_MPI(MPI_Pack_external_size(ext32, 3, table[k].t, &size));
        CHECK(size == 3 * table[k].bytes,
              "3 x %s: %ld external32 bytes, expected %ld", table[k].name,
              (long)size, (long)(3 * table[k].bytes));
    }
}

static void pack_image(const char *what, const void *in, int count,
                       MPI_Datatype t, const unsigned char *want, int n)
{
    unsigned char out[64];
    MPI_Aint pos = 0;
    memset(out, 0xee, sizeof out);
    CHECK_MPI(MPI_Pack_external(ext32, in, count, t, out, sizeof out, &pos));
    CHECK(pos == n, "%s: position %ld, expected %d", what, (long)pos, n);
    for (int i = 0; i < n; i++)
        CHECK(out[i] == want[i], "%s: byte %d is %02x, expected %02x", what,
              i, out[i], want[i]);
}

static void unpack_image(const char *what, const unsigned char *in, int n,
                         void *out, int count, MPI_Datatype t)
{
    MPI_Aint pos = 0;
    CHECK_MPI(MPI_Unpack_external(ext32, in, n, &pos, out, count, t));
    CHECK(pos == n, "%s: position %ld, expected %d", what, (long)pos, n);
}

/* Narrower integers: the low bytes, sign- or zero-extended back. */
static void narrow_integers(void)
{
    long l[3] = {-2, 2147483647L, -2147483647L - 1}, l2[3];
    const unsigned char l_img[12] = {0xff, 0xff, 0xff, 0xfe, 0x7f, 0xff,
                                     0xff, 0xff, 0x80, 0, 0, 0};
    pack_image("MPI_LONG", l, 3, MPI_LONG, l_img, 12);
    unpack_image("MPI_LONG", l_img, 12, l2, 3, MPI_LONG);
    CHECK(l2[0] == -2 && l2[1] == 2147483647L && l2[2] == -2147483648L,
          "MPI_LONG: unpacked %ld %ld %ld", l2[0], l2[1], l2[2]);

    unsigned long ul = 4294967295UL, ul2 = 0;
    const unsigned char ul_img[4] = {0xff, 0xff, 0xff, 0xff};
    pack_image("MPI_UNSIGNED_LONG", &ul, 1, MPI_UNSIGNED_LONG, ul_img, 4);
    unpack_image("MPI_UNSIGNED_LONG", ul_img, 4, &ul2, 1, MPI_UNSIGNED_LONG);
    CHECK(ul2 == 4294967295UL, "MPI_UNSIGNED_LONG: unpacked %lu", ul2);

    wchar_t w[2] = {L'A', 0x20ac}, w2[2] = {0, 0};
    const unsigned char w_img[4] = {0, 'A', 0x20, 0xac};
    pack_image("MPI_WCHAR", w, 2, MPI_WCHAR, w_img, 4);
    unpack_image("MPI_WCHAR", w_img, 4, w2, 2, MPI_WCHAR);
    CHECK(w2[0] == L'A' && w2[1] == 0x20ac, "MPI_WCHAR: unpacked");

    struct { long v; int i; } li = {-2, 5}, li2;
    const unsigned char li_img[8] = {0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 5};
    pack_image("MPI_LONG_INT", &li, 1, MPI_LONG_INT, li_img, 8);
    unpack_image("MPI_LONG_INT", li_img, 8, &li2, 1, MPI_LONG_INT);
    CHECK(li2.v == -2 && li2.i == 5, "MPI_LONG_INT: unpacked");

    _Bool b[2] = {0, 1}, b2[3];
    const unsigned char b_img[3] = {0, 1, 0x40};   /* nonzero is true */
    pack_image("MPI_C_BOOL", b, 2, MPI_C_BOOL, b_img, 2);
    unpack_image("MPI_C_BOOL", b_img, 3, b2, 3, MPI_C_BOOL);
    CHECK(!b2[0] && b2[1] && b2[2], "MPI_C_BOOL: unpacked");
}

static void quad_round_trip(long double x)
{
    unsigned char buf[16];
    long double y = 0;
    MPI_Aint pos = 0;
    CHECK_MPI(MPI_Pack_external(ext32, &x, 1, MPI_LONG_DOUBLE, buf, 16,
                                &pos));
    pos = 0;
    CHECK_MPI(MPI_Unpack_external(ext32, buf, 16, &pos, &y, 1,
                                  MPI_LONG_DOUBLE));
    CHECK(isnan(x) ? isnan(y) : y == x && !signbit(y) == !signbit(x),
          "long double %La came back as %La", x, y);
}

/* long double is IEEE binary128: sign, 15-bit exponent (bias 16383),
   112-bit fraction, big-endian. */
static void long_double(void)
{
    long double one_half = 1.5L, minus_two = -2.0L;
    const unsigned char one_half_img[16] = {0x3f, 0xff, 0x80};
    const unsigned char minus_two_img[16] = {0xc0, 0x00};
    pack_image("1.5L", &one_half, 1, MPI_LONG_DOUBLE, one_half_img, 16);
    pack_image("-2.0L", &minus_two, 1, MPI_LONG_DOUBLE, minus_two_img, 16);
    const long double values[] = {
        0.0L, -0.0L, 1.0L, 0.1L, -1e300L * 1e300L, LDBL_MAX, -LDBL_MAX,
        LDBL_MIN, LDBL_MIN / 3, LDBL_TRUE_MIN, INFINITY, -INFINITY, NAN};
    for (size_t k = 0; k < sizeof values / sizeof values[0]; k++)
        quad_round_trip(values[k]);
    /* binary128's 1/3 has more fraction bits than long double holds:
       unpacking rounds to the nearest long double */
    unsigned char third[16];
    memset(third, 0x55, sizeof third);
    third[0] = 0x3f;
    third[1] = 0xfd;
    long double y = 0;
    unpack_image("binary128 1/3", third, 16, &y, 1, MPI_LONG_DOUBLE);
    CHECK(y == 1.0L / 3, "binary128 1/3 unpacked as %La, expected %La", y,
          1.0L / 3);
    /* complex and pair forms */
    struct { long double v; int i; } ldi = {1.5L, 3}, ldi2;
    unsigned char ldi_img[20] = {0x3f, 0xff, 0x80};
    ldi_img[19] = 3;
    pack_image("MPI_LONG_DOUBLE_INT", &ldi, 1, MPI_LONG_DOUBLE_INT, ldi_img,
               20);
    unpack_image("MPI_LONG_DOUBLE_INT", ldi_img, 20, &ldi2, 1,
                 MPI_LONG_DOUBLE_INT);
    CHECK(ldi2.v == 1.5L && ldi2.i == 3, "MPI_LONG_DOUBLE_INT: unpacked");
    long double z[2] = {1.5L, -2.0L};
    unsigned char z_img[32] = {0x3f, 0xff, 0x80};
    z_img[16] = 0xc0;
    pack_image("MPI_C_LONG_DOUBLE_COMPLEX", z, 1, MPI_C_LONG_DOUBLE_COMPLEX,
               z_img, 32);
}

/* A value outside its external32 range: MPI_ERR_CONVERSION, and the
   position stays where it was. */
static void conversion_errors(void)
{
    unsigned char buf[64];
    MPI_Aint pos = 8;
    long l[2] = {1, 1L << 40};
    unsigned long ul = 4294967296UL;
    wchar_t w = 0x10348;   /* outside the 16 bits of UCS-2 */
    struct { long v; int i; } li = {-2147483647L - 2, 0};
    CHECK_CLASS(MPI_Pack_external(ext32, l, 2, MPI_LONG, buf, 64, &pos),
                MPI_ERR_CONVERSION);
    CHECK(pos == 8, "conversion error: position moved to %ld", (long)pos);
    CHECK_CLASS(MPI_Pack_external(ext32, &ul, 1, MPI_UNSIGNED_LONG, buf, 64,
                                  &pos), MPI_ERR_CONVERSION);
    CHECK_CLASS(MPI_Pack_external(ext32, &w, 1, MPI_WCHAR, buf, 64, &pos),
                MPI_ERR_CONVERSION);
    CHECK_CLASS(MPI_Pack_external(ext32, &li, 1, MPI_LONG_INT, buf, 64,
                                  &pos), MPI_ERR_CONVERSION);
    CHECK(pos == 8, "conversion error: position moved to %ld", (long)pos);
}

static void argument_checks(void)
{
    int v = 1;
    unsigned char buf[16];
    MPI_Aint pos = 0, size;
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));
    CHECK_CLASS(MPI_Pack_external("native", &v, 1, MPI_INT, buf, 16, &pos),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Unpack_external("EXTERNAL32", buf, 16, &pos, &v, 1,
                                    MPI_INT), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pack_external_size("internal", 1, MPI_INT, &size),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pack_external(NULL, &v, 1, MPI_INT, buf, 16, &pos),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pack_external(ext32, &v, -1, MPI_INT, buf, 16, &pos),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Pack_external_size(ext32, -1, MPI_INT, &size),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Pack_external(ext32, &v, 1, MPI_DATATYPE_NULL, buf, 16,
                                  &pos), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Pack_external(ext32, &v, 1, vec, buf, 16, &pos),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Unpack_external(ext32, buf, 16, &pos, &v, 1, vec),
                MPI_ERR_TYPE);
    /* a size needs no commit */
    CHECK_MPI(MPI_Pack_external_size(ext32, 2, vec, &size));
    CHECK(size == 16, "uncommitted vector: %ld bytes", (long)size);
    CHECK_CLASS(MPI_Pack_external_size(ext32, 1, MPI_INT, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pack_external(ext32, &v, 1, MPI_INT, buf, 16, NULL),
                MPI_ERR_ARG);
    pos = 17;
    CHECK_CLASS(MPI_Pack_external(ext32, &v, 1, MPI_INT, buf, 16, &pos),
                MPI_ERR_ARG);
    pos = -1;
    CHECK_CLASS(MPI_Unpack_external(ext32, buf, 16, &pos, &v, 1, MPI_INT),
                MPI_ERR_ARG);
    pos = 0;
    CHECK_CLASS(MPI_Pack_external(ext32, &v, 1, MPI_INT, NULL, 16, &pos),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Pack_external(ext32, NULL, 1, MPI_INT, buf, 16, &pos),
                MPI_ERR_BUFFER);
    CHECK(pos == 0, "failed calls moved the position to %ld", (long)pos);
    CHECK_MPI(MPI_Type_free(&vec));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    sizes();
    narrow_integers();
    long_double();
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    conversion_errors();
    argument_checks();
    MPI_Finalize();
    return 0;
}
