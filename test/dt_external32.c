/* dt_external32: MPI_Pack_external / MPI_Unpack_external / MPI_Pack_external_size: big-endian byte images of int, short, float, double, long long, complex and pair types; round trips of struct and vector types; several packing units in one buffer; MPI_BOTTOM; MPI_ERR_TRUNCATE. */
/* shmpi-test: np=1 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The images are those of MPI-3.1 13.5.2: two's complement and IEEE
 * values, big-endian, byte aligned, no padding.  Types whose external32
 * size differs from the native one (long, wchar_t, long double),
 * conversion errors and shmpi's argument checks: dt_external32_ext.
 */
#include "check.h"

#include <complex.h>
#include <stddef.h>
#include <stdint.h>

static const char *const ext32 = "external32";

static void dump(char *out, const unsigned char *b, MPI_Aint n)
{
    out[0] = '\0';
    for (MPI_Aint i = 0; i < n && i < 40; i++)
        sprintf(out + 3 * i, "%02x ", b[i]);
}

/* count values of t at `in` pack to exactly `image` (n bytes) and
   unpack to the same values (compared over `valsize` bytes). */
static void image(const char *what, const void *in, int count,
                  MPI_Datatype t, size_t valsize, const unsigned char *want,
                  MPI_Aint n)
{
    unsigned char out[64], back[64];
    char got_s[130], want_s[130];
    MPI_Aint size = -1, pos = 0;
    CHECK_MPI(MPI_Pack_external_size(ext32, count, t, &size));
    CHECK(size == n, "%s: MPI_Pack_external_size %ld, expected %ld", what,
          (long)size, (long)n);
    memset(out, 0xee, sizeof out);
    CHECK_MPI(MPI_Pack_external(ext32, in, count, t, out, sizeof out, &pos));
    CHECK(pos == n, "%s: position %ld after packing, expected %ld", what,
          (long)pos, (long)n);
    dump(got_s, out, n);
    dump(want_s, want, n);
    CHECK(memcmp(out, want, (size_t)n) == 0, "%s: packed %s, expected %s",
          what, got_s, want_s);
    CHECK(out[n] == 0xee, "%s: byte after the packed data written", what);
    memset(back, 0, sizeof back);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external(ext32, out, n, &pos, back, count, t));
    CHECK(pos == n, "%s: position %ld after unpacking", what, (long)pos);
    CHECK(memcmp(back, in, valsize) == 0, "%s: unpacked values differ",
          what);
}

static void basic_images(void)
{
    int i[2] = {0x01020304, -2};
    const unsigned char i_img[] = {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe};
    image("MPI_INT", i, 2, MPI_INT, sizeof i, i_img, 8);

    short s[2] = {0x0102, -3};
    const unsigned char s_img[] = {1, 2, 0xff, 0xfd};
    image("MPI_SHORT", s, 2, MPI_SHORT, sizeof s, s_img, 4);

    unsigned u = 0xdeadbeefu;
    const unsigned char u_img[] = {0xde, 0xad, 0xbe, 0xef};
    image("MPI_UNSIGNED", &u, 1, MPI_UNSIGNED, sizeof u, u_img, 4);

    float f[2] = {1.0f, -0.5f};
    const unsigned char f_img[] = {0x3f, 0x80, 0, 0, 0xbf, 0, 0, 0};
    image("MPI_FLOAT", f, 2, MPI_FLOAT, sizeof f, f_img, 8);

    double d[2] = {1.0, -2.5};
    const unsigned char d_img[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0,
                                   0xc0, 0x04, 0, 0, 0, 0, 0, 0};
    image("MPI_DOUBLE", d, 2, MPI_DOUBLE, sizeof d, d_img, 16);

    long long ll = 0x0102030405060708LL;
    const unsigned char ll_img[] = {1, 2, 3, 4, 5, 6, 7, 8};
    image("MPI_LONG_LONG", &ll, 1, MPI_LONG_LONG, sizeof ll, ll_img, 8);

    int64_t i64 = -256;
    const unsigned char i64_img[] = {0xff, 0xff, 0xff, 0xff,
                                     0xff, 0xff, 0xff, 0};
    image("MPI_INT64_T", &i64, 1, MPI_INT64_T, sizeof i64, i64_img, 8);

    char c[3] = {'a', 'b', 'c'};
    const unsigned char c_img[] = {'a', 'b', 'c'};
    image("MPI_CHAR", c, 3, MPI_CHAR, sizeof c, c_img, 3);

    double complex z = 1.0 + 2.0 * I;
    const unsigned char z_img[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0,
                                   0x40, 0, 0, 0, 0, 0, 0, 0};
    image("MPI_C_DOUBLE_COMPLEX", &z, 1, MPI_C_DOUBLE_COMPLEX, sizeof z,
          z_img, 16);
}

/* Pair types: the value, then the int, with no padding between. */
static void pair_images(void)
{
    struct { float v; int i; } fi = {1.0f, 7};
    const unsigned char fi_img[] = {0x3f, 0x80, 0, 0, 0, 0, 0, 7};
    image("MPI_FLOAT_INT", &fi, 1, MPI_FLOAT_INT, sizeof fi, fi_img, 8);

    struct { double v; int i; } di;
    memset(&di, 0, sizeof di);   /* the padding compares too */
    di.v = -2.5;
    di.i = 9;
    const unsigned char di_img[] = {0xc0, 0x04, 0, 0, 0, 0, 0, 0,
                                    0, 0, 0, 9};
    image("MPI_DOUBLE_INT", &di, 1, MPI_DOUBLE_INT, sizeof di, di_img, 12);

    struct { short v; int i; } si;
    memset(&si, 0, sizeof si);
    si.v = 0x0102;
    si.i = -1;
    const unsigned char si_img[] = {1, 2, 0xff, 0xff, 0xff, 0xff};
    image("MPI_SHORT_INT", &si, 1, MPI_SHORT_INT, sizeof si, si_img, 6);

    int two[2] = {1, 2};
    const unsigned char two_img[] = {0, 0, 0, 1, 0, 0, 0, 2};
    image("MPI_2INT", two, 1, MPI_2INT, sizeof two, two_img, 8);
}

struct rec {
    char c;
    double d;
    short s[3];
    int i;
};

static MPI_Datatype rec_type(void)
{
    int len[4] = {1, 1, 3, 1};
    MPI_Aint disp[4] = {offsetof(struct rec, c), offsetof(struct rec, d),
                        offsetof(struct rec, s), offsetof(struct rec, i)};
    MPI_Datatype types[4] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT, MPI_INT};
    MPI_Datatype t, r;
    CHECK_MPI(MPI_Type_create_struct(4, len, disp, types, &t));
    CHECK_MPI(MPI_Type_create_resized(t, 0, sizeof(struct rec), &r));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_commit(&r));
    return r;
}

static void fill_recs(struct rec *r, int n)
{
    memset(r, 0x5a, n * sizeof *r);   /* padding: left alone by unpack */
    for (int k = 0; k < n; k++) {
        r[k].c = (char)('A' + k);
        r[k].d = 0.25 + k;
        for (int j = 0; j < 3; j++)
            r[k].s[j] = (short)(-100 * k - j);
        r[k].i = 1000000 * k - 7;
    }
}

/* Three structs: 19 bytes each, fields in order, big-endian. */
static void struct_round_trip(MPI_Datatype rec)
{
    struct rec src[3], dst[3];
    unsigned char buf[3 * 19 + 1];
    MPI_Aint size = -1, pos = 0;
    fill_recs(src, 3);
    memset(dst, 0x5a, sizeof dst);
    CHECK_MPI(MPI_Pack_external_size(ext32, 3, rec, &size));
    CHECK(size == 3 * 19, "struct: external size %ld, expected 57",
          (long)size);
    CHECK_MPI(MPI_Pack_external(ext32, src, 3, rec, buf, sizeof buf, &pos));
    CHECK(pos == 57, "struct: position %ld after packing", (long)pos);
    /* the second element: 'B', 1.25, {-100, -101, -102}, 999993 */
    const unsigned char second[19] = {
        'B', 0x3f, 0xf4, 0, 0, 0, 0, 0, 0, 0xff, 0x9c, 0xff, 0x9b, 0xff,
        0x9a, 0x00, 0x0f, 0x42, 0x39};
    CHECK(memcmp(buf + 19, second, 19) == 0,
          "struct: image of the second element");
    pos = 0;
    CHECK_MPI(MPI_Unpack_external(ext32, buf, 57, &pos, dst, 3, rec));
    CHECK(pos == 57, "struct: position %ld after unpacking", (long)pos);
    CHECK(memcmp(src, dst, sizeof src) == 0,
          "struct: round trip differs (values or padding)");
}

/* A vector of 4 blocks of 2 doubles, stride 3: the gaps stay as they
   were on unpack. */
static void vector_round_trip(void)
{
    double src[12], dst[12];
    unsigned char buf[64];
    MPI_Datatype vec;
    MPI_Aint size = -1, pos = 0;
    CHECK_MPI(MPI_Type_vector(4, 2, 3, MPI_DOUBLE, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    for (int k = 0; k < 12; k++) {
        src[k] = k + 0.5;
        dst[k] = -1.0;
    }
    CHECK_MPI(MPI_Pack_external_size(ext32, 1, vec, &size));
    CHECK(size == 64, "vector: external size %ld, expected 64", (long)size);
    CHECK_MPI(MPI_Pack_external(ext32, src, 1, vec, buf, sizeof buf, &pos));
    /* the third double of the packed form is src[3] = 3.5 */
    const unsigned char third[8] = {0x40, 0x0c, 0, 0, 0, 0, 0, 0};
    CHECK(memcmp(buf + 16, third, 8) == 0, "vector: image of src[3]");
    pos = 0;
    CHECK_MPI(MPI_Unpack_external(ext32, buf, 64, &pos, dst, 1, vec));
    for (int k = 0; k < 12; k++) {
        double want = k % 3 == 2 ? -1.0 : k + 0.5;
        CHECK(dst[k] == want, "vector: dst[%d] = %g, expected %g", k, dst[k],
              want);
    }
    CHECK_MPI(MPI_Type_free(&vec));
}

/* A count, some doubles and two structs, one after another in one
   buffer, each call continuing at the position the last one left. */
static void packing_units(MPI_Datatype rec)
{
    int n = 3, n2 = 0;
    double d[3] = {1.5, -2.0, 1e300}, d2[3] = {0};
    struct rec r[2], r2[2];
    unsigned char buf[128];
    MPI_Aint sizes[3], pos = 0;
    fill_recs(r, 2);
    memset(r2, 0x5a, sizeof r2);
    CHECK_MPI(MPI_Pack_external_size(ext32, 1, MPI_INT, &sizes[0]));
    CHECK_MPI(MPI_Pack_external_size(ext32, 3, MPI_DOUBLE, &sizes[1]));
    CHECK_MPI(MPI_Pack_external_size(ext32, 2, rec, &sizes[2]));
    MPI_Aint total = sizes[0] + sizes[1] + sizes[2];
    CHECK(total == 4 + 24 + 38, "units: sizes add to %ld", (long)total);
    CHECK_MPI(MPI_Pack_external(ext32, &n, 1, MPI_INT, buf, total, &pos));
    CHECK_MPI(MPI_Pack_external(ext32, d, 3, MPI_DOUBLE, buf, total, &pos));
    CHECK_MPI(MPI_Pack_external(ext32, r, 2, rec, buf, total, &pos));
    CHECK(pos == total, "units: position %ld after packing, expected %ld",
          (long)pos, (long)total);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external(ext32, buf, total, &pos, &n2, 1,
                                  MPI_INT));
    CHECK(n2 == 3, "units: count unpacked as %d", n2);
    CHECK_MPI(MPI_Unpack_external(ext32, buf, total, &pos, d2, n2,
                                  MPI_DOUBLE));
    CHECK_MPI(MPI_Unpack_external(ext32, buf, total, &pos, r2, 2, rec));
    CHECK(pos == total, "units: position %ld after unpacking", (long)pos);
    CHECK(memcmp(d, d2, sizeof d) == 0, "units: doubles differ");
    CHECK(memcmp(r, r2, sizeof r) == 0, "units: structs differ");
}

/* Absolute addresses from MPI_Get_address, buffer MPI_BOTTOM. */
static void bottom(void)
{
    static int a = 0x01020304;
    static double b = 1.0;
    int len[2] = {1, 1};
    MPI_Aint disp[2];
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;
    unsigned char buf[12];
    MPI_Aint pos = 0;
    CHECK_MPI(MPI_Get_address(&a, &disp[0]));
    CHECK_MPI(MPI_Get_address(&b, &disp[1]));
    CHECK_MPI(MPI_Type_create_struct(2, len, disp, types, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Pack_external(ext32, MPI_BOTTOM, 1, t, buf, 12, &pos));
    const unsigned char want[12] = {1, 2, 3, 4, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
    CHECK(pos == 12 && memcmp(buf, want, 12) == 0, "MPI_BOTTOM: image");
    a = 0;
    b = 0;
    pos = 0;
    CHECK_MPI(MPI_Unpack_external(ext32, buf, 12, &pos, MPI_BOTTOM, 1, t));
    CHECK(a == 0x01020304 && b == 1.0, "MPI_BOTTOM: unpacked %d %g", a, b);
    CHECK_MPI(MPI_Type_free(&t));
}

/* Too small a buffer: MPI_ERR_TRUNCATE, position unchanged. */
static void truncation(MPI_Datatype rec)
{
    int v[2] = {1, 2};
    struct rec r[2];
    unsigned char buf[64];
    MPI_Aint pos = 4;
    fill_recs(r, 2);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Pack_external(ext32, v, 2, MPI_INT, buf, 11, &pos),
                MPI_ERR_TRUNCATE);
    CHECK(pos == 4, "pack truncate: position moved to %ld", (long)pos);
    CHECK_CLASS(MPI_Pack_external(ext32, r, 2, rec, buf, 4 + 37, &pos),
                MPI_ERR_TRUNCATE);
    pos = 0;
    CHECK_MPI(MPI_Pack_external(ext32, r, 2, rec, buf, sizeof buf, &pos));
    pos = 0;
    CHECK_CLASS(MPI_Unpack_external(ext32, buf, 37, &pos, r, 2, rec),
                MPI_ERR_TRUNCATE);
    CHECK(pos == 0, "unpack truncate: position moved to %ld", (long)pos);
    /* nothing to pack fits anywhere */
    CHECK_MPI(MPI_Pack_external(ext32, v, 0, MPI_INT, buf, 0, &pos));
    CHECK(pos == 0, "count 0: position moved to %ld", (long)pos);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD,
                                      MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Datatype rec = rec_type();
    basic_images();
    pair_images();
    struct_round_trip(rec);
    vector_round_trip();
    packing_units(rec);
    bottom();
    truncation(rec);
    CHECK_MPI(MPI_Type_free(&rec));
    MPI_Finalize();
    return 0;
}
