/* rma_cas_types_ext: MPI_Compare_and_swap on every type MPI-3.1 11.3.4 allows (C integer, Fortran integer, logical, multi-language, byte) and on MPI_CHAR and MPI_CHARACTER, on every window flavor: an equal compare swaps, a different one does not, the value found is returned; floating, complex, pair, wide-character, packed and derived types get MPI_ERR_TYPE and leave the target alone. */
/* shmpi-test: np=1,2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: Open MPI 4.1 (osc sm) swaps any type, MPI_FLOAT included; MPICH
 * 4.0 refuses the same types as shmpi, with MPI_ERR_TYPE.
 */
#include "rma_win.h"

#include <stdint.h>

#define T(t) {t, #t}
static const struct { MPI_Datatype t; const char *name; } good[] = {
    T(MPI_INT), T(MPI_LONG), T(MPI_SHORT), T(MPI_UNSIGNED_SHORT),
    T(MPI_UNSIGNED), T(MPI_UNSIGNED_LONG), T(MPI_LONG_LONG_INT),
    T(MPI_UNSIGNED_LONG_LONG), T(MPI_SIGNED_CHAR), T(MPI_UNSIGNED_CHAR),
    T(MPI_INT8_T), T(MPI_INT16_T), T(MPI_INT32_T), T(MPI_INT64_T),
    T(MPI_UINT8_T), T(MPI_UINT16_T), T(MPI_UINT32_T), T(MPI_UINT64_T),
    T(MPI_INTEGER), T(MPI_INTEGER1), T(MPI_INTEGER2), T(MPI_INTEGER4),
    T(MPI_INTEGER8),
#ifdef MPI_INTEGER16 /* optional; shmpi has it */
    T(MPI_INTEGER16),
#endif
    T(MPI_LOGICAL), T(MPI_C_BOOL), T(MPI_CXX_BOOL), T(MPI_AINT),
    T(MPI_OFFSET), T(MPI_COUNT), T(MPI_BYTE), T(MPI_CHAR),
    T(MPI_CHARACTER),
}, bad[] = {
    T(MPI_FLOAT), T(MPI_DOUBLE), T(MPI_LONG_DOUBLE), T(MPI_REAL),
    T(MPI_DOUBLE_PRECISION), T(MPI_C_FLOAT_COMPLEX),
    T(MPI_C_DOUBLE_COMPLEX), T(MPI_COMPLEX), T(MPI_FLOAT_INT), T(MPI_2INT),
    T(MPI_WCHAR), T(MPI_PACKED),
};
#define NGOOD (int)(sizeof good / sizeof good[0])
#define NBAD (int)(sizeof bad / sizeof bad[0])

enum { SLOT = 32 }; /* bytes: the largest type tried, MPI_INTEGER16, is 16 */

static int right;

static void set_slot(struct twin *w, const unsigned char *v)
{
    CHECK_MPI(MPI_Put(v, SLOT, MPI_BYTE, right, twin_disp(w, right, 0),
                      SLOT, MPI_BYTE, w->win));
    CHECK_MPI(MPI_Win_flush(right, w->win));
}

static void get_slot(struct twin *w, unsigned char *v)
{
    CHECK_MPI(MPI_Get(v, SLOT, MPI_BYTE, right, twin_disp(w, right, 0),
                      SLOT, MPI_BYTE, w->win));
    CHECK_MPI(MPI_Win_flush(right, w->win));
}

/* Values that every type holds, booleans too: one = 1, zero = 0; the
   bytes past the type must never change. */
static void check_good(struct twin *w, MPI_Datatype t, const char *name)
{
    int size;
    unsigned char init[SLOT], now[SLOT], zero[SLOT] = {0}, one[SLOT] = {1},
                  found[SLOT];
    CHECK_MPI(MPI_Type_size(t, &size));
    memset(init, 0x77, sizeof init);
    memcpy(init, one, (size_t)size);
    set_slot(w, init);
    MPI_Aint d = twin_disp(w, right, 0);
    memset(found, 0x5a, sizeof found);
    CHECK_MPI(MPI_Compare_and_swap(zero, one, found, t, right, d, w->win));
    CHECK_MPI(MPI_Win_flush(right, w->win));
    get_slot(w, now);
    CHECK(!memcmp(found, one, (size_t)size), "%s: an equal compare did not "
          "return the old value", name);
    CHECK(!memcmp(now, zero, (size_t)size) &&
          !memcmp(now + size, init + size, (size_t)(SLOT - size)),
          "%s: an equal compare did not swap (or wrote past the element)",
          name);
    CHECK_MPI(MPI_Compare_and_swap(one, one, found, t, right, d, w->win));
    CHECK_MPI(MPI_Win_flush(right, w->win));
    get_slot(w, now);
    CHECK(!memcmp(found, zero, (size_t)size), "%s: a different compare did "
          "not return the value found", name);
    CHECK(!memcmp(now, zero, (size_t)size), "%s: a different compare "
          "swapped", name);
}

static void check_bad(struct twin *w, MPI_Datatype t, const char *name)
{
    unsigned char init[SLOT], now[SLOT], a[SLOT] = {0}, found[SLOT];
    memset(init, 0, sizeof init);
    set_slot(w, init);
    int rc = MPI_Compare_and_swap(a, init, found, t, right,
                                  twin_disp(w, right, 0), w->win);
    CHECK_CLASS(rc, MPI_ERR_TYPE);
    CHECK_MPI(MPI_Win_flush(right, w->win));
    get_slot(w, now);
    CHECK(!memcmp(now, init, SLOT), "%s was refused but changed the target",
          name);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    right = (rank + 1) % size;
    MPI_Datatype pair;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    for (int f = 0; f < TW_FLAVORS; f++) {
        _Alignas(16) unsigned char stack[SLOT];
        struct twin w;
        twin_open(&w, (enum twin_flavor)f, SLOT, 1, stack);
        CHECK_MPI(MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN));
        CHECK_MPI(MPI_Win_lock_all(0, w.win));
        for (int i = 0; i < NGOOD; i++)
            if (good[i].t != MPI_DATATYPE_NULL)
                check_good(&w, good[i].t, good[i].name);
        for (int i = 0; i < NBAD; i++)
            check_bad(&w, bad[i].t, bad[i].name);
        check_bad(&w, pair, "a contiguous type of 2 MPI_INT");
        CHECK_MPI(MPI_Win_unlock_all(w.win));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        twin_close(&w);
    }
    CHECK_MPI(MPI_Type_free(&pair));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
