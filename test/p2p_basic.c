/* p2p_basic: blocking send/recv of every predefined datatype (values checked), pair types, zero-byte and MPI_PROC_NULL messages, Get_count/Get_elements, status fields, ready mode, self-sends. */
/* shmpi-test: np=1,2,4 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ranks pair up (0-1, 2-3, ...): the even rank sends, the odd one checks
 * and echoes back, the even one checks the echo.  Every rank also sends to
 * itself (Isend + Recv).  A rank without a partner (odd np) only does the
 * self and MPI_PROC_NULL parts.
 */
#include "check.h"

#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#define N 37 /* elements per message: odd, not a power of two */

enum kind {
    K_BYTES,   /* any bit pattern is a value: compare bytes */
    K_BOOL,    /* 0 or 1 per byte-sized element */
    K_FLOAT, K_DOUBLE, K_LDOUBLE,
    K_CFLOAT, K_CDOUBLE, K_CLDOUBLE,
    K_FLOAT_INT, K_DOUBLE_INT, K_LONG_INT, K_SHORT_INT, K_LDOUBLE_INT,
};

struct dtinfo {
    MPI_Datatype dt;
    const char *name;
    size_t extent;  /* bytes one element occupies in memory */
    enum kind kind;
    int elems;      /* basic elements per item (MPI_Get_elements) */
};

struct float_int { float v; int i; };
struct double_int { double v; int i; };
struct long_int { long v; int i; };
struct short_int { short v; int i; };
struct ldouble_int { long double v; int i; };

#define T(dt, sz, k, e) {dt, #dt, sz, k, e}
static const struct dtinfo types[] = {
    T(MPI_CHAR, sizeof(char), K_BYTES, 1),
    T(MPI_SHORT, sizeof(short), K_BYTES, 1),
    T(MPI_INT, sizeof(int), K_BYTES, 1),
    T(MPI_LONG, sizeof(long), K_BYTES, 1),
    T(MPI_LONG_LONG_INT, sizeof(long long), K_BYTES, 1),
    T(MPI_LONG_LONG, sizeof(long long), K_BYTES, 1),
    T(MPI_SIGNED_CHAR, sizeof(signed char), K_BYTES, 1),
    T(MPI_UNSIGNED_CHAR, sizeof(unsigned char), K_BYTES, 1),
    T(MPI_UNSIGNED_SHORT, sizeof(unsigned short), K_BYTES, 1),
    T(MPI_UNSIGNED, sizeof(unsigned), K_BYTES, 1),
    T(MPI_UNSIGNED_LONG, sizeof(unsigned long), K_BYTES, 1),
    T(MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long), K_BYTES, 1),
    T(MPI_FLOAT, sizeof(float), K_FLOAT, 1),
    T(MPI_DOUBLE, sizeof(double), K_DOUBLE, 1),
    T(MPI_LONG_DOUBLE, sizeof(long double), K_LDOUBLE, 1),
    T(MPI_WCHAR, sizeof(wchar_t), K_BYTES, 1),
    T(MPI_C_BOOL, sizeof(bool), K_BOOL, 1),
    T(MPI_INT8_T, 1, K_BYTES, 1),
    T(MPI_INT16_T, 2, K_BYTES, 1),
    T(MPI_INT32_T, 4, K_BYTES, 1),
    T(MPI_INT64_T, 8, K_BYTES, 1),
    T(MPI_UINT8_T, 1, K_BYTES, 1),
    T(MPI_UINT16_T, 2, K_BYTES, 1),
    T(MPI_UINT32_T, 4, K_BYTES, 1),
    T(MPI_UINT64_T, 8, K_BYTES, 1),
    T(MPI_AINT, sizeof(MPI_Aint), K_BYTES, 1),
    T(MPI_COUNT, sizeof(MPI_Count), K_BYTES, 1),
    T(MPI_OFFSET, sizeof(MPI_Offset), K_BYTES, 1),
    T(MPI_C_COMPLEX, sizeof(float _Complex), K_CFLOAT, 1),
    T(MPI_C_FLOAT_COMPLEX, sizeof(float _Complex), K_CFLOAT, 1),
    T(MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex), K_CDOUBLE, 1),
    T(MPI_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex), K_CLDOUBLE, 1),
    T(MPI_BYTE, 1, K_BYTES, 1),
    T(MPI_PACKED, 1, K_BYTES, 1),
    /* Fortran types with the sizes their names (or gfortran's defaults,
       which both shmpi and Debian's Open MPI use) give them */
    T(MPI_INTEGER, 4, K_BYTES, 1),
    T(MPI_REAL, 4, K_FLOAT, 1),
    T(MPI_DOUBLE_PRECISION, 8, K_DOUBLE, 1),
    T(MPI_LOGICAL, 4, K_BYTES, 1),
    T(MPI_CHARACTER, 1, K_BYTES, 1),
    T(MPI_COMPLEX, 8, K_CFLOAT, 1),
    T(MPI_DOUBLE_COMPLEX, 16, K_CDOUBLE, 1),
    T(MPI_INTEGER1, 1, K_BYTES, 1),
    T(MPI_INTEGER2, 2, K_BYTES, 1),
    T(MPI_INTEGER4, 4, K_BYTES, 1),
    T(MPI_INTEGER8, 8, K_BYTES, 1),
    T(MPI_REAL4, 4, K_FLOAT, 1),
    T(MPI_REAL8, 8, K_DOUBLE, 1),
    T(MPI_COMPLEX8, 8, K_CFLOAT, 1),
    T(MPI_COMPLEX16, 16, K_CDOUBLE, 1),
    /* pair types: value + int, padded to the C struct */
    T(MPI_FLOAT_INT, sizeof(struct float_int), K_FLOAT_INT, 2),
    T(MPI_DOUBLE_INT, sizeof(struct double_int), K_DOUBLE_INT, 2),
    T(MPI_LONG_INT, sizeof(struct long_int), K_LONG_INT, 2),
    T(MPI_SHORT_INT, sizeof(struct short_int), K_SHORT_INT, 2),
    T(MPI_LONG_DOUBLE_INT, sizeof(struct ldouble_int), K_LDOUBLE_INT, 2),
    T(MPI_2INT, 2 * sizeof(int), K_BYTES, 2),
    T(MPI_2REAL, 8, K_FLOAT, 2),
    T(MPI_2DOUBLE_PRECISION, 16, K_DOUBLE, 2),
    T(MPI_2INTEGER, 8, K_BYTES, 2),
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

/* Fill n items of type t with values that depend on seed. */
static void fill(const struct dtinfo *t, void *buf, int n, unsigned seed)
{
    unsigned char *b = buf;
    size_t bytes = (size_t)n * t->extent;
    switch (t->kind) {
    case K_BYTES:
        for (size_t i = 0; i < bytes; i++)
            b[i] = (unsigned char)(seed * 131u + i * 7u + (i >> 3));
        break;
    case K_BOOL:
        for (int i = 0; i < n; i++)
            ((bool *)buf)[i] = ((seed + (unsigned)i) % 3) == 0;
        break;
    case K_FLOAT: /* also 2REAL: two floats per item */
        for (size_t i = 0; i < bytes / sizeof(float); i++)
            ((float *)buf)[i] = (float)seed + (float)i * 0.5f - 7.25f;
        break;
    case K_DOUBLE:
        for (size_t i = 0; i < bytes / sizeof(double); i++)
            ((double *)buf)[i] = seed * 1e10 + (double)i / 4.0 - 3.0;
        break;
    case K_LDOUBLE:
        memset(buf, 0, bytes);
        for (int i = 0; i < n; i++)
            ((long double *)buf)[i] = seed * 1e20L + (long double)i / 8;
        break;
    case K_CFLOAT:
        for (size_t i = 0; i < bytes / sizeof(float); i++)
            ((float *)buf)[i] = (float)seed - (float)i * 1.5f;
        break;
    case K_CDOUBLE:
        for (size_t i = 0; i < bytes / sizeof(double); i++)
            ((double *)buf)[i] = (double)seed - (double)i * 2.5;
        break;
    case K_CLDOUBLE:
        memset(buf, 0, bytes);
        for (int i = 0; i < 2 * n; i++)
            ((long double *)buf)[i] = (long double)seed - (long double)i / 16;
        break;
#define PAIRFILL(S, VT)                                                    \
    for (int i = 0; i < n; i++) {                                          \
        ((struct S *)buf)[i].v = (VT)((int)seed * 3 + i);                  \
        ((struct S *)buf)[i].i = -(int)seed * 100000 - i;                  \
    }                                                                      \
    break;
    case K_FLOAT_INT: PAIRFILL(float_int, float)
    case K_DOUBLE_INT: PAIRFILL(double_int, double)
    case K_LONG_INT: PAIRFILL(long_int, long)
    case K_SHORT_INT: PAIRFILL(short_int, short)
    case K_LDOUBLE_INT: PAIRFILL(ldouble_int, long double)
    }
}

/* Index of the first item of buf that differs from a fill(seed), or -1. */
static int compare(const struct dtinfo *t, const void *buf, int n,
                   unsigned seed)
{
    static unsigned char want[N * 64];
    fill(t, want, n, seed);
    for (int i = 0; i < n; i++) {
        const void *g = (const char *)buf + i * t->extent;
        const void *w = want + i * t->extent;
        int same;
        switch (t->kind) {
        case K_LDOUBLE:
            same = *(const long double *)g == *(const long double *)w;
            break;
        case K_CLDOUBLE:
            same = ((const long double *)g)[0] == ((const long double *)w)[0] &&
                   ((const long double *)g)[1] == ((const long double *)w)[1];
            break;
#define PAIRCMP(S)                                                         \
    same = ((const struct S *)g)->v == ((const struct S *)w)->v &&         \
           ((const struct S *)g)->i == ((const struct S *)w)->i;           \
    break;
        case K_FLOAT_INT: PAIRCMP(float_int)
        case K_DOUBLE_INT: PAIRCMP(double_int)
        case K_LONG_INT: PAIRCMP(long_int)
        case K_SHORT_INT: PAIRCMP(short_int)
        case K_LDOUBLE_INT: PAIRCMP(ldouble_int)
        default:
            same = memcmp(g, w, t->extent) == 0;
        }
        if (!same)
            return i;
    }
    return -1;
}

static void check_status(const MPI_Status *st, const struct dtinfo *t,
                         int src, int tag, int n, const char *what)
{
    int count = -1, elems = -1;
    MPI_Count elx = -1;
    CHECK(st->MPI_SOURCE == src, "%s %s: MPI_SOURCE %d, expected %d", what,
          t->name, st->MPI_SOURCE, src);
    CHECK(st->MPI_TAG == tag, "%s %s: MPI_TAG %d, expected %d", what,
          t->name, st->MPI_TAG, tag);
    CHECK_MPI(MPI_Get_count(st, t->dt, &count));
    CHECK(count == n, "%s %s: MPI_Get_count %d, expected %d", what, t->name,
          count, n);
    /* Pair types: the standard defines them "as if" by a struct of two
       basic elements (5.9.4), and MPICH (and shmpi) count 2 elements per
       pair; Open MPI counts them as basic types, 1 per pair
       (open-mpi/ompi#2366, open).  Either is accepted here. */
    CHECK_MPI(MPI_Get_elements(st, t->dt, &elems));
    CHECK(elems == n * t->elems || (t->elems == 2 && elems == n),
          "%s %s: MPI_Get_elements %d, expected %d", what, t->name, elems,
          n * t->elems);
    CHECK_MPI(MPI_Get_elements_x(st, t->dt, &elx));
    CHECK(elx == (MPI_Count)elems,
          "%s %s: MPI_Get_elements_x %lld, MPI_Get_elements %d", what,
          t->name, (long long)elx, elems);
}

static unsigned char sbuf[N * 64 + 64], rbuf[N * 64 + 64];

/* Every type, each count 1 and N; the partner echoes. */
static void all_types(int rank, int partner)
{
    int sender = rank % 2 == 0;
    for (int k = 0; k < NTYPES; k++) {
        const struct dtinfo *t = &types[k];
        CHECK(t->extent * N <= sizeof sbuf, "buffer too small for %s",
              t->name);
        for (int n = 1; n <= N; n += N - 1) {
            int tag = 100 + k;
            unsigned seed = (unsigned)(k * 17 + n);
            MPI_Status st;
            memset(rbuf, 0xEE, sizeof rbuf);
            if (sender) {
                fill(t, sbuf, n, seed);
                CHECK_MPI(MPI_Send(sbuf, n, t->dt, partner, tag,
                                   MPI_COMM_WORLD));
                CHECK_MPI(MPI_Recv(rbuf, N, t->dt, partner, tag + 1000,
                                   MPI_COMM_WORLD, &st));
                check_status(&st, t, partner, tag + 1000, n, "echo");
                int bad = compare(t, rbuf, n, seed + 1);
                CHECK(bad < 0, "echo of %d x %s: item %d wrong", n, t->name,
                      bad);
            } else {
                CHECK_MPI(MPI_Recv(rbuf, N, t->dt, partner, tag,
                                   MPI_COMM_WORLD, &st));
                check_status(&st, t, partner, tag, n, "recv");
                int bad = compare(t, rbuf, n, seed);
                CHECK(bad < 0, "%d x %s: item %d wrong", n, t->name, bad);
                fill(t, sbuf, n, seed + 1);
                CHECK_MPI(MPI_Send(sbuf, n, t->dt, partner, tag + 1000,
                                   MPI_COMM_WORLD));
            }
            /* nothing written past the message */
            for (size_t i = (size_t)n * t->extent; i < sizeof rbuf; i++)
                CHECK(rbuf[i] == 0xEE,
                      "%d x %s: byte %zu past the message was written", n,
                      t->name, i);
        }
    }
}

/* Zero-byte messages: count 0 of several types, NULL and non-NULL
   buffers; status and counts say 0. */
static void zero_bytes(int rank, int partner)
{
    MPI_Datatype dts[] = {MPI_BYTE, MPI_INT, MPI_DOUBLE_INT};
    for (int k = 0; k < 3; k++) {
        MPI_Status st;
        int count = -1, elems = -1;
        if (rank % 2 == 0) {
            CHECK_MPI(MPI_Send(NULL, 0, dts[k], partner, 7 + k,
                               MPI_COMM_WORLD));
            CHECK_MPI(MPI_Send(sbuf, 0, dts[k], partner, 7 + k,
                               MPI_COMM_WORLD));
        } else {
            for (int j = 0; j < 2; j++) {
                memset(rbuf, 0xEE, sizeof rbuf);
                st.MPI_SOURCE = st.MPI_TAG = -99;
                /* a zero-byte message fits any receive buffer */
                CHECK_MPI(MPI_Recv(j ? rbuf : NULL, j ? 5 : 0, dts[k],
                                   partner, MPI_ANY_TAG, MPI_COMM_WORLD,
                                   &st));
                CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == 7 + k,
                      "zero-byte message: source %d tag %d", st.MPI_SOURCE,
                      st.MPI_TAG);
                CHECK_MPI(MPI_Get_count(&st, dts[k], &count));
                CHECK_MPI(MPI_Get_elements(&st, dts[k], &elems));
                CHECK(count == 0 && elems == 0,
                      "zero-byte message: count %d elements %d", count,
                      elems);
                CHECK(rbuf[0] == 0xEE, "zero-byte message wrote the buffer");
            }
        }
    }
}

/* MPI_PROC_NULL: sends succeed at once, receives too, with source
   MPI_PROC_NULL, tag MPI_ANY_TAG, count 0, buffer untouched (3.11). */
static void proc_null(void)
{
    MPI_Status st;
    MPI_Request rq;
    int count = -1, flag = 0;
    CHECK_MPI(MPI_Send(sbuf, 10, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Ssend(sbuf, 10, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Rsend(sbuf, 10, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));

    memset(rbuf, 0xEE, sizeof rbuf);
    st.MPI_SOURCE = st.MPI_TAG = 12345;
    CHECK_MPI(MPI_Recv(rbuf, 10, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD,
                       &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "PROC_NULL recv: source %d",
          st.MPI_SOURCE);
    CHECK(st.MPI_TAG == MPI_ANY_TAG, "PROC_NULL recv: tag %d", st.MPI_TAG);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 0, "PROC_NULL recv: count %d", count);
    CHECK(rbuf[0] == 0xEE, "PROC_NULL recv wrote the buffer");

    /* nonblocking forms */
    CHECK_MPI(MPI_Isend(sbuf, 3, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD,
                        &rq));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(rq == MPI_REQUEST_NULL, "Wait left the request non-null");
    CHECK_MPI(MPI_Issend(sbuf, 3, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD,
                         &rq));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    st.MPI_SOURCE = st.MPI_TAG = 12345;
    CHECK_MPI(MPI_Irecv(rbuf, 3, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG,
                        MPI_COMM_WORLD, &rq));
    for (int i = 0; i < 1000000 && !flag; i++)
        CHECK_MPI(MPI_Test(&rq, &flag, &st));
    CHECK(flag, "Irecv from MPI_PROC_NULL never completes under MPI_Test");
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
          "PROC_NULL Irecv: source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    count = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 0, "PROC_NULL Irecv: count %d", count);

    /* Sendrecv with both ends MPI_PROC_NULL */
    st.MPI_SOURCE = st.MPI_TAG = 12345;
    CHECK_MPI(MPI_Sendrecv(sbuf, 4, MPI_INT, MPI_PROC_NULL, 3, rbuf, 4,
                           MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
          "PROC_NULL Sendrecv: source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    CHECK(rbuf[0] == 0xEE, "PROC_NULL Sendrecv wrote the buffer");

    /* Sendrecv_replace: nothing comes in, so the buffer keeps its data */
    int keep[4] = {1, 2, 3, 4};
    st.MPI_SOURCE = st.MPI_TAG = 12345;
    CHECK_MPI(MPI_Sendrecv_replace(keep, 4, MPI_INT, MPI_PROC_NULL, 3,
                                   MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st));
    CHECK(keep[0] == 1 && keep[3] == 4, "PROC_NULL Sendrecv_replace: %d %d",
          keep[0], keep[3]);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
          "PROC_NULL Sendrecv_replace: source %d tag %d", st.MPI_SOURCE,
          st.MPI_TAG);
    count = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 0, "PROC_NULL Sendrecv_replace: count %d", count);
}

/* A message shorter than the receive buffer, whose byte count is not a
   whole number of receive-type items: Get_count is MPI_UNDEFINED,
   Get_elements counts the basic elements that did arrive (3.2.5, 4.1.11).
   The message's type signature is a prefix of the receive's, so the
   receive is correct. */
static void partial_counts(int rank, int partner)
{
    if (rank % 2 == 0) {
        double d = 2.5;
        int three[3] = {4, 5, 6};
        CHECK_MPI(MPI_Send(&d, 1, MPI_DOUBLE, partner, 40, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(three, 3, MPI_INT, partner, 41, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(three, 3, MPI_INT, partner, 42, MPI_COMM_WORLD));
        return;
    }
    MPI_Status st;
    int count = 0, elems = 0;
    MPI_Count elx = 0;
    struct double_int di[2] = {{0, -1}, {0, -1}};
    CHECK_MPI(MPI_Recv(di, 2, MPI_DOUBLE_INT, partner, 40, MPI_COMM_WORLD,
                       &st));
    CHECK(di[0].v == 2.5 && di[0].i == -1, "DOUBLE_INT prefix: %g %d",
          di[0].v, di[0].i);
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE_INT, &count));
    CHECK(count == MPI_UNDEFINED,
          "Get_count of one double as MPI_DOUBLE_INT: %d, expected "
          "MPI_UNDEFINED", count);
    /* as a struct {double, int} one element arrived; Open MPI treats the
       pair as one basic type and says MPI_UNDEFINED (see check_status) */
    CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE_INT, &elems));
    CHECK(elems == 1 || elems == MPI_UNDEFINED,
          "Get_elements of one double as MPI_DOUBLE_INT: %d", elems);
    CHECK_MPI(MPI_Get_elements_x(&st, MPI_DOUBLE_INT, &elx));
    CHECK(elx == elems, "Get_elements_x %lld, Get_elements %d",
          (long long)elx, elems);

    int two[4] = {0, 0, 0, -1};
    CHECK_MPI(MPI_Recv(two, 2, MPI_2INT, partner, 41, MPI_COMM_WORLD, &st));
    CHECK(two[0] == 4 && two[1] == 5 && two[2] == 6 && two[3] == -1,
          "2INT prefix: %d %d %d %d", two[0], two[1], two[2], two[3]);
    CHECK_MPI(MPI_Get_count(&st, MPI_2INT, &count));
    CHECK(count == MPI_UNDEFINED, "Get_count of 3 ints as MPI_2INT: %d",
          count);
    CHECK_MPI(MPI_Get_elements(&st, MPI_2INT, &elems));
    CHECK(elems == 3 || elems == MPI_UNDEFINED,
          "Get_elements of 3 ints as MPI_2INT: %d", elems);

    /* and the exact case with the matching type */
    CHECK_MPI(MPI_Recv(two, 4, MPI_INT, partner, 42, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 3, "Get_count of 3 ints: %d", count);
}

/* Wildcard receives report the real source and tag.  The MPI_ERROR
   field: "message-passing calls do not modify the value of the error
   code field of status variables" (3.2.5), except the calls returning
   several statuses; so Recv, Wait, Test, Waitany and Probe leave it. */
static void wildcards(int rank, int partner)
{
    if (rank % 2 == 0) {
        for (int k = 0; k < 5; k++) {
            int v = 77 + k;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, partner, 1234 + k,
                               MPI_COMM_WORLD));
        }
        return;
    }
    int v = 0, flag = 0, idx = -1;
    MPI_Status st;
    MPI_Request rq;
    st.MPI_ERROR = 4242;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                       MPI_COMM_WORLD, &st));
    CHECK(v == 77 && st.MPI_SOURCE == partner && st.MPI_TAG == 1234,
          "wildcard recv: value %d source %d tag %d", v, st.MPI_SOURCE,
          st.MPI_TAG);
    CHECK(st.MPI_ERROR == 4242, "MPI_Recv changed MPI_ERROR to %d",
          st.MPI_ERROR);
    st.MPI_ERROR = 4242;
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, partner, MPI_ANY_TAG, MPI_COMM_WORLD,
                        &rq));
    CHECK_MPI(MPI_Wait(&rq, &st));
    CHECK(v == 78 && st.MPI_TAG == 1235 && st.MPI_ERROR == 4242,
          "Wait: value %d tag %d MPI_ERROR %d", v, st.MPI_TAG, st.MPI_ERROR);
    st.MPI_ERROR = 4242;
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1236, MPI_COMM_WORLD,
                        &rq));
    while (!flag)
        CHECK_MPI(MPI_Test(&rq, &flag, &st));
    CHECK(v == 79 && st.MPI_SOURCE == partner && st.MPI_ERROR == 4242,
          "Test: value %d source %d MPI_ERROR %d", v, st.MPI_SOURCE,
          st.MPI_ERROR);
    st.MPI_ERROR = 4242;
    CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_TAG == 1237 && st.MPI_ERROR == 4242,
          "Probe: tag %d MPI_ERROR %d", st.MPI_TAG, st.MPI_ERROR);
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, partner, 1237, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    st.MPI_ERROR = 4242;
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, partner, 1238, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Waitany(1, &rq, &idx, &st));
    CHECK(idx == 0 && v == 81 && st.MPI_ERROR == 4242,
          "Waitany: index %d value %d MPI_ERROR %d", idx, v, st.MPI_ERROR);
}

/* Sends to oneself: Isend then Recv, eager and large sizes, a zero-byte
   one, and a Recv posted (Irecv) before the Isend. */
static void self_sends(int rank)
{
    size_t sizes[] = {0, 1, 8, 16384, 16385, 100000, 1 << 20};
    for (int k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); k++) {
        size_t n = sizes[k];
        unsigned char *s = malloc(n + 1), *r = malloc(n + 16);
        CHECK(s && r, "malloc");
        for (size_t i = 0; i < n; i++)
            s[i] = (unsigned char)(i * 13 + k + rank);
        memset(r, 0xEE, n + 16);
        MPI_Request rq;
        MPI_Status st;
        int count = -1;
        CHECK_MPI(MPI_Isend(s, (int)n, MPI_BYTE, rank, 50 + k, MPI_COMM_WORLD,
                            &rq));
        CHECK_MPI(MPI_Recv(r, (int)n + 16, MPI_BYTE, rank, 50 + k,
                           MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK(st.MPI_SOURCE == rank && st.MPI_TAG == 50 + k,
              "self-send: source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        CHECK(count == (int)n, "self-send of %zu bytes: count %d", n, count);
        CHECK(memcmp(s, r, n) == 0, "self-send of %zu bytes: data differ",
              n);
        CHECK(r[n] == 0xEE, "self-send of %zu bytes wrote past the message",
              n);

        /* receive first, then send (also with MPI_ANY_SOURCE) */
        memset(r, 0xEE, n + 16);
        MPI_Request rr;
        CHECK_MPI(MPI_Irecv(r, (int)n, MPI_BYTE, k % 2 ? MPI_ANY_SOURCE : rank,
                            MPI_ANY_TAG, MPI_COMM_WORLD, &rr));
        CHECK_MPI(MPI_Isend(s, (int)n, MPI_BYTE, rank, 60 + k, MPI_COMM_WORLD,
                            &rq));
        CHECK_MPI(MPI_Wait(&rr, &st));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK(st.MPI_SOURCE == rank && st.MPI_TAG == 60 + k,
              "self-send (recv first): source %d tag %d", st.MPI_SOURCE,
              st.MPI_TAG);
        CHECK(memcmp(s, r, n) == 0,
              "self-send of %zu bytes (recv first): data differ", n);
        free(s);
        free(r);
    }
    /* every type to oneself, through a typed Isend/Recv */
    for (int k = 0; k < NTYPES; k++) {
        const struct dtinfo *t = &types[k];
        MPI_Request rq;
        MPI_Status st;
        fill(t, sbuf, N, (unsigned)k + 999);
        memset(rbuf, 0, sizeof rbuf);
        CHECK_MPI(MPI_Isend(sbuf, N, t->dt, rank, k, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Recv(rbuf, N, t->dt, rank, k, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        check_status(&st, t, rank, k, N, "self");
        int bad = compare(t, rbuf, N, (unsigned)k + 999);
        CHECK(bad < 0, "self-send of %s: item %d wrong", t->name, bad);
    }
}

/* Ready mode: the receive is posted (and a barrier passed) before
   MPI_Rsend / MPI_Irsend start, as the standard requires (3.4). */
static void ready_mode(int rank, int partner, int paired)
{
    static const int sizes[] = {0, 4, 16384, 16385, 200000};
    for (int k = 0; k < 5; k++) {
        int n = sizes[k];
        unsigned char *b = malloc((size_t)n + 1);
        CHECK(b, "malloc");
        MPI_Request rq = MPI_REQUEST_NULL;
        MPI_Status st;
        if (paired && rank % 2) {
            memset(b, 0, (size_t)n + 1);
            CHECK_MPI(MPI_Irecv(b, n, MPI_BYTE, partner, 80 + k,
                                MPI_COMM_WORLD, &rq));
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (paired && rank % 2 == 0) {
            for (int i = 0; i < n; i++)
                b[i] = (unsigned char)(i ^ k);
            if (k % 2)
                CHECK_MPI(MPI_Rsend(b, n, MPI_BYTE, partner, 80 + k,
                                    MPI_COMM_WORLD));
            else {
                CHECK_MPI(MPI_Irsend(b, n, MPI_BYTE, partner, 80 + k,
                                     MPI_COMM_WORLD, &rq));
                CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            }
        } else if (paired) {
            int count = -1;
            CHECK_MPI(MPI_Wait(&rq, &st));
            CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
            CHECK(count == n, "ready send of %d bytes: count %d", n, count);
            for (int i = 0; i < n; i++)
                CHECK(b[i] == (unsigned char)(i ^ k),
                      "ready send of %d bytes: byte %d wrong", n, i);
        }
        free(b);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int partner = rank ^ 1;
    int paired = partner < size;

    if (paired) {
        all_types(rank, partner);
        zero_bytes(rank, partner);
        partial_counts(rank, partner);
        wildcards(rank, partner);
    }
    ready_mode(rank, partner, paired);
    proc_null();
    self_sends(rank);

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
