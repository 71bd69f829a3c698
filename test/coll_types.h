/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coll_types.h - the datatypes the collective tests (test/coll_*.c) move,
 * and how they fill and check buffers of them.
 *
 *   int, double           predefined
 *   vector                MPI_Type_vector(3, 1, 2, MPI_INT): three ints
 *                         with an int-sized gap after each of the first two
 *   struct                {char; double; int} as the C compiler lays it
 *                         out, padding included (a struct type with gaps)
 *
 * Element e of a buffer "from seed s" holds tval(s, e, k) in component k;
 * everything else (gaps, padding, the space around the elements) holds the
 * byte SENTINEL, so a collective that writes where it must not is caught
 * by tt_check as surely as one that writes the wrong data.
 * Standard MPI only.
 */
#ifndef COLL_TYPES_H
#define COLL_TYPES_H

#include "check.h"

#include <stddef.h>

#define SENTINEL 0xEE
#define NTYPES 4

struct tcomp {
    MPI_Aint off;
    char kind;                 /* 'c', 'i' or 'd' */
};

struct ttype {
    const char *name;
    MPI_Datatype t;
    MPI_Aint extent;
    int ncomp;
    struct tcomp comp[3];
};

struct tstruct {
    char c;
    double d;
    int i;
};

static struct ttype tt_all[NTYPES];

static void tt_init(void)
{
    MPI_Datatype vec, st;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    int bl[3] = {1, 1, 1};
    MPI_Aint disp[3] = {offsetof(struct tstruct, c),
                        offsetof(struct tstruct, d),
                        offsetof(struct tstruct, i)};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, tmp;
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &tmp));
    CHECK_MPI(MPI_Type_create_resized(tmp, 0, sizeof(struct tstruct), &st));
    CHECK_MPI(MPI_Type_free(&tmp));
    CHECK_MPI(MPI_Type_commit(&st));
    tt_all[0] = (struct ttype){"MPI_INT", MPI_INT, sizeof(int), 1,
                               {{0, 'i'}}};
    tt_all[1] = (struct ttype){"MPI_DOUBLE", MPI_DOUBLE, sizeof(double), 1,
                               {{0, 'd'}}};
    tt_all[2] = (struct ttype){"vector", vec, 5 * sizeof(int), 3,
                               {{0, 'i'}, {8, 'i'}, {16, 'i'}}};
    tt_all[3] = (struct ttype){"struct", st, sizeof(struct tstruct), 3,
                               {{disp[0], 'c'}, {disp[1], 'd'},
                                {disp[2], 'i'}}};
}

static void tt_free(void)
{
    CHECK_MPI(MPI_Type_free(&tt_all[2].t));
    CHECK_MPI(MPI_Type_free(&tt_all[3].t));
}

static int tval(int seed, long e, int k)
{
    return (int)((seed * 1000003L + e * 31 + k * 7) % 100003);
}

static size_t tcomp_size(char kind)
{
    return kind == 'c' ? 1 : kind == 'i' ? sizeof(int) : sizeof(double);
}

/* A buffer of count elements (at least one byte), all SENTINEL. */
static void *tt_alloc(const struct ttype *tt, long count)
{
    size_t bytes = (size_t)(count > 0 ? count : 1) * (size_t)tt->extent;
    void *p = malloc(bytes);
    CHECK(p, "out of memory (%zu bytes)", bytes);
    memset(p, SENTINEL, bytes);
    return p;
}

/* Elements [first, first + n) of buf get seed's elements 0 .. n - 1. */
static void tt_fill(const struct ttype *tt, void *buf, long first, long n,
                    int seed)
{
    for (long e = first; e < first + n; e++)
        for (int k = 0; k < tt->ncomp; k++) {
            char *at = (char *)buf + e * tt->extent + tt->comp[k].off;
            int v = tval(seed, e - first, k);
            if (tt->comp[k].kind == 'c') {
                *at = (char)(v & 0x7f);
            } else if (tt->comp[k].kind == 'i') {
                memcpy(at, &v, sizeof v);
            } else {
                double d = v;
                memcpy(at, &d, sizeof d);
            }
        }
}

/* Element e of buf holds seed's values for element src_e. */
static int tt_elem_is(const struct ttype *tt, const void *buf, long e,
                      int seed, long src_e)
{
    for (int k = 0; k < tt->ncomp; k++) {
        const char *at = (const char *)buf + e * tt->extent + tt->comp[k].off;
        int v = tval(seed, src_e, k);
        if (tt->comp[k].kind == 'c') {
            if (*at != (char)(v & 0x7f))
                return 0;
        } else if (tt->comp[k].kind == 'i') {
            int have;
            memcpy(&have, at, sizeof have);
            if (have != v)
                return 0;
        } else {
            double have;
            memcpy(&have, at, sizeof have);
            if (have != (double)v)
                return 0;
        }
    }
    return 1;
}

/* The bytes of element e that no component covers are still SENTINEL. */
static int tt_gaps_intact(const struct ttype *tt, const void *buf, long e)
{
    const unsigned char *el = (const unsigned char *)buf + e * tt->extent;
    for (MPI_Aint b = 0; b < tt->extent; b++) {
        int covered = 0;
        for (int k = 0; k < tt->ncomp; k++)
            covered |= b >= tt->comp[k].off &&
                       b < tt->comp[k].off +
                               (MPI_Aint)tcomp_size(tt->comp[k].kind);
        if (!covered && el[b] != SENTINEL)
            return 0;
    }
    return 1;
}

/* CHECK elements [first, first + n) of buf: element e holds seed's
   element src0 + (e - first), with its gaps untouched; ctx says which
   operation in the message. */
static void tt_expect(const struct ttype *tt, const void *buf, long first,
                      long n, int seed, long src0, const char *ctx)
{
    for (long e = first; e < first + n; e++)
        CHECK(tt_elem_is(tt, buf, e, seed, src0 + (e - first)) &&
                  tt_gaps_intact(tt, buf, e),
              "%s: %s element %ld is wrong", ctx, tt->name, e);
}

/* Elements [first, first + n) were not written at all. */
static int tt_untouched(const struct ttype *tt, const void *buf, long first,
                        long n)
{
    const unsigned char *p = (const unsigned char *)buf + first * tt->extent;
    for (long b = 0; b < n * tt->extent; b++)
        if (p[b] != SENTINEL)
            return 0;
    return 1;
}

/* CHECK n blocks of count elements from buf on: block b holds the
   elements of seed0 + b * step, and nothing is written after the last.
   (static inline: not every test that includes this uses it.) */
static inline void tt_expect_blocks(const struct ttype *tt, const void *buf,
                                    int n, long count, int seed0, int step,
                                    const char *ctx)
{
    for (int b = 0; b < n; b++)
        tt_expect(tt, buf, count * b, count, seed0 + b * step, 0, ctx);
    CHECK(tt_untouched(tt, buf, count * n, 1), "%s: written past the end",
          ctx);
}

/* The same for the blocks of a v-form call, each followed by a gap of
   `gap` elements that must stay unwritten. */
static inline void tt_expect_vblocks(const struct ttype *tt, const void *buf,
                                     int n, const int *counts,
                                     const int *displs, long gap, int seed0,
                                     int step, const char *ctx)
{
    for (int b = 0; b < n; b++) {
        tt_expect(tt, buf, displs[b], counts[b], seed0 + b * step, 0, ctx);
        CHECK(tt_untouched(tt, buf, displs[b] + counts[b], gap),
              "%s: gap after block %d written", ctx, b);
    }
}

#endif
