/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * op_groups.h - the predefined ops as small indices, and the groups of
 * MPI-3.1 5.9.2 as the set of ops each allows (MINLOC and MAXLOC: the
 * pair types of 5.9.4), for the op tests.  Written from the standard,
 * not from any library: what a portable program may use.  MPI_REPLACE
 * and MPI_NO_OP are RMA's (11.3.4): no group takes them.
 *
 * The *_PEERS sets are what Open MPI 4.1 and MPICH 4.0 both accept
 * beyond the groups, and shmpi accepts as they do (shmpi_datatypes(7)):
 * measured by trying every pair under MPI_ERRORS_RETURN in both.
 */
#ifndef SHMPI_TEST_OP_GROUPS_H
#define SHMPI_TEST_OP_GROUPS_H

#include "check.h"

enum { MAX, MIN, SUM, PROD, LAND, LOR, LXOR, BAND, BOR, BXOR, MAXLOC,
       MINLOC, REPLACE, NO_OP, NOPS };
#define NREDUCTIONS (MINLOC + 1) /* the ops of 5.9.2 */

static const char *const op_names[NOPS] = {
    "MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD", "MPI_LAND", "MPI_LOR",
    "MPI_LXOR", "MPI_BAND", "MPI_BOR", "MPI_BXOR", "MPI_MAXLOC",
    "MPI_MINLOC", "MPI_REPLACE", "MPI_NO_OP"};

static inline MPI_Op op_handle(int op)
{
    switch (op) {
    case MAX: return MPI_MAX;
    case MIN: return MPI_MIN;
    case SUM: return MPI_SUM;
    case PROD: return MPI_PROD;
    case LAND: return MPI_LAND;
    case LOR: return MPI_LOR;
    case LXOR: return MPI_LXOR;
    case BAND: return MPI_BAND;
    case BOR: return MPI_BOR;
    case BXOR: return MPI_BXOR;
    case MAXLOC: return MPI_MAXLOC;
    case MINLOC: return MPI_MINLOC;
    case REPLACE: return MPI_REPLACE;
    default: return MPI_NO_OP;
    }
}

#define B(op) (1u << (op))
#define C_INTEGER (B(MAX) | B(MIN) | B(SUM) | B(PROD) | B(LAND) | B(LOR) | \
                   B(LXOR) | B(BAND) | B(BOR) | B(BXOR))
#define F_INTEGER (B(MAX) | B(MIN) | B(SUM) | B(PROD) | B(BAND) | B(BOR) | \
                   B(BXOR))
#define FLOATING (B(MAX) | B(MIN) | B(SUM) | B(PROD))
#define LOGICAL (B(LAND) | B(LOR) | B(LXOR))
#define COMPLEX (B(SUM) | B(PROD))
#define BYTE (B(BAND) | B(BOR) | B(BXOR))
#define PAIR (B(MAXLOC) | B(MINLOC))

/* MPI_CHAR (signed char) and MPI_CHARACTER, in reductions and
   accumulates */
#define CHAR_PEERS C_INTEGER
/* MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_INTEGER1, 2 and 8, likewise */
#define LOGICAL_PEERS LOGICAL
/* MPI_BYTE, in accumulates only (MPICH's reductions refuse these) */
#define BYTE_ACC_PEERS (B(MAX) | B(MIN) | B(SUM) | B(PROD) | LOGICAL)

/* v as an integer type of `size` bytes holds it: wrapped to its width,
   signed or not. */
static inline long long op_wrap(long long v, int size, int is_signed)
{
    if (size >= 8)
        return v;
    int bits = 8 * size;
    unsigned long long u = (unsigned long long)v & ((1ull << bits) - 1);
    if (is_signed && u >> (bits - 1))
        return (long long)u - (1ll << bits);
    return (long long)u;
}

/* a op b (a from in, b from inout) for the elementwise ops on integers
   of that type, wrapped like it. */
static inline long long op_ref_int(int op, long long a, long long b,
                                   int size, int is_signed)
{
    unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
    long long r;
    switch (op) {
    case MAX: r = a > b ? a : b; break;
    case MIN: r = a < b ? a : b; break;
    case SUM: r = (long long)(ua + ub); break;
    case PROD: r = (long long)(ua * ub); break;
    case LAND: r = a && b; break;
    case LOR: r = a || b; break;
    case LXOR: r = !a != !b; break;
    case BAND: r = a & b; break;
    case BOR: r = a | b; break;
    case BXOR: r = a ^ b; break;
    case REPLACE: r = a; break;
    default: r = b; break; /* MPI_NO_OP */
    }
    return op_wrap(r, size, is_signed);
}

#endif
