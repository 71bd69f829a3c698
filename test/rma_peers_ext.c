/* rma_peers_ext: the op/type pairs outside MPI-3.1 5.9.2's groups that Open MPI and MPICH both accept in one-sided accumulates, on every window flavor: every elementwise op on MPI_CHAR (signed char) and MPI_CHARACTER, MPI_LAND/LOR/LXOR on MPI_AINT, MPI_OFFSET and MPI_COUNT, MPI_MAX/MIN/SUM/PROD/LAND/LOR/LXOR on MPI_BYTE (compared unsigned), through MPI_Accumulate (one element and several), MPI_Get_accumulate and MPI_Fetch_and_op, and MPI_Compare_and_swap on MPI_CHAR and MPI_CHARACTER: fetched and resulting values checked. */
/* shmpi-test: np=1,2,4 timeout=60 ext */
/* shmpi-test-nocheck: it calls the accumulates with op/type pairs outside MPI-3.1 5.9.2's groups on purpose, which the check mode reports as not portable. */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: the pairs are outside the standard's groups.  Open MPI 4.1 (osc
 * sm) and MPICH 4.0 both accept them; MPICH compares MPI_BYTE and
 * MPI_CHARACTER signed under MPI_MAX and MPI_MIN.
 *
 * Each rank works on slots of its right neighbour's window (of its own
 * at np = 1), which no other rank touches, in one passive epoch.
 */
#include "op_groups.h"
#include "rma_win.h"

#include <stdint.h>

enum { SLOT = 8, RUN = 5 }; /* bytes per slot; elements of a long run */

struct ty {
    MPI_Datatype t;
    const char *name;
    int size, is_signed;
};

static const struct ty t_char = {MPI_CHAR, "MPI_CHAR", 1, 1};
static const struct ty t_character = {MPI_CHARACTER, "MPI_CHARACTER", 1, 0};
static const struct ty t_byte = {MPI_BYTE, "MPI_BYTE", 1, 0};
static const struct ty t_aint = {MPI_AINT, "MPI_AINT", sizeof(MPI_Aint), 1};
static const struct ty t_offset = {MPI_OFFSET, "MPI_OFFSET",
                                   sizeof(MPI_Offset), 1};
static const struct ty t_count = {MPI_COUNT, "MPI_COUNT", sizeof(MPI_Count),
                                  1};

/* (op, what the target holds, what the origin brings) */
struct pair {
    int op;
    long long init, operand;
};

/* Signed: negatives on both sides where a signed order matters. */
static const struct pair signed_pairs[] = {
    {SUM, -5, 3}, {PROD, -5, -7}, {MAX, -5, -3}, {MIN, -3, -100},
    {LAND, -7, 5}, {LOR, 0, -7}, {LXOR, 5, -7}, {BAND, -5, 6},
    {BOR, -8, 3}, {BXOR, -1, 85},
};
/* Unsigned: bytes above 127 where an unsigned order matters; no sum or
   product leaves the range (overflow is undefined). */
static const struct pair unsigned_pairs[] = {
    {SUM, 100, 27}, {PROD, 7, 9}, {MAX, 5, 200}, {MIN, 200, 5},
    {LAND, 0, 200}, {LOR, 0, 200}, {LXOR, 5, 200}, {BAND, 200, 77},
    {BOR, 200, 7}, {BXOR, 255, 85},
};
static const struct pair logical_pairs[] = {
    {LAND, 5, 0}, {LAND, -7, 5}, {LOR, 0, -7}, {LOR, 0, 0}, {LXOR, 5, -7},
    {LXOR, 0, 5},
};

static int rank, right;

static void store(const struct ty *ty, void *p, long long v)
{
    memcpy(p, &v, (size_t)ty->size); /* little-endian */
}

static long long load(const struct ty *ty, const void *p)
{
    long long v = 0;
    memcpy(&v, p, (size_t)ty->size);
    return op_wrap(v, ty->size, ty->is_signed);
}

/* Put init into the slot and complete it. */
static void set_slot(struct twin *w, const struct ty *ty, long long init)
{
    unsigned char b[SLOT] = {0};
    store(ty, b, init);
    CHECK_MPI(MPI_Put(b, ty->size, MPI_BYTE, right, twin_disp(w, right, 0),
                      ty->size, MPI_BYTE, w->win));
    CHECK_MPI(MPI_Win_flush(right, w->win));
}

static long long get_slot(struct twin *w, const struct ty *ty)
{
    unsigned char b[SLOT] = {0};
    CHECK_MPI(MPI_Get(b, ty->size, MPI_BYTE, right, twin_disp(w, right, 0),
                      ty->size, MPI_BYTE, w->win));
    CHECK_MPI(MPI_Win_flush(right, w->win));
    return load(ty, b);
}

enum call { ACCUMULATE, GET_ACCUMULATE, FETCH_AND_OP, NCALLS };
static const char *const call_names[NCALLS] = {
    "MPI_Accumulate", "MPI_Get_accumulate", "MPI_Fetch_and_op"};

static void check_pair(struct twin *w, const struct ty *ty,
                       const struct pair *p, enum call call)
{
    unsigned char o[SLOT] = {0}, r[SLOT];
    MPI_Op op = op_handle(p->op);
    MPI_Aint d = twin_disp(w, right, 0);
    memset(r, 0x5a, sizeof r);
    set_slot(w, ty, p->init);
    store(ty, o, p->operand);
    if (call == ACCUMULATE)
        CHECK_MPI(MPI_Accumulate(o, 1, ty->t, right, d, 1, ty->t, op,
                                 w->win));
    else if (call == GET_ACCUMULATE)
        CHECK_MPI(MPI_Get_accumulate(o, 1, ty->t, r, 1, ty->t, right, d, 1,
                                     ty->t, op, w->win));
    else
        CHECK_MPI(MPI_Fetch_and_op(o, r, ty->t, right, d, op, w->win));
    CHECK_MPI(MPI_Win_flush(right, w->win));
    long long want = op_ref_int(p->op, op_wrap(p->operand, ty->size,
                                               ty->is_signed),
                                op_wrap(p->init, ty->size, ty->is_signed),
                                ty->size, ty->is_signed);
    long long got = get_slot(w, ty);
    CHECK(got == want, "%s: %s on %s, %lld op %lld: target holds %lld, "
          "expected %lld", call_names[call], op_names[p->op], ty->name,
          p->operand, p->init, got, want);
    if (call != ACCUMULATE)
        CHECK(load(ty, r) == op_wrap(p->init, ty->size, ty->is_signed),
              "%s: %s on %s fetched %lld, expected %lld", call_names[call],
              op_names[p->op], ty->name, load(ty, r), p->init);
}

static void check_pairs(struct twin *w, const struct ty *ty,
                        const struct pair *pairs, int n, unsigned ops)
{
    for (int i = 0; i < n; i++)
        if (ops & B(pairs[i].op))
            for (int c = 0; c < NCALLS; c++)
                check_pair(w, ty, &pairs[i], (enum call)c);
}

/* Several MPI_CHAR at once: the element-wise way, not one instruction. */
static void check_run(struct twin *w)
{
    signed char init[RUN] = {-100, -1, 0, 1, 100}, add[RUN] = {-27, -2, -3,
                                                               4, 27};
    signed char got[RUN], old[RUN];
    MPI_Aint d = twin_disp(w, right, 0);
    CHECK_MPI(MPI_Put(init, RUN, MPI_CHAR, right, d, RUN, MPI_CHAR, w->win));
    CHECK_MPI(MPI_Win_flush(right, w->win));
    CHECK_MPI(MPI_Get_accumulate(add, RUN, MPI_CHAR, old, RUN, MPI_CHAR,
                                 right, d, RUN, MPI_CHAR, MPI_SUM, w->win));
    CHECK_MPI(MPI_Accumulate(add, RUN, MPI_CHAR, right, d, RUN, MPI_CHAR,
                             MPI_MAX, w->win));
    CHECK_MPI(MPI_Get(got, RUN, MPI_CHAR, right, d, RUN, MPI_CHAR, w->win));
    CHECK_MPI(MPI_Win_flush(right, w->win));
    for (int i = 0; i < RUN; i++) {
        int sum = init[i] + add[i];
        int want = sum > add[i] ? sum : add[i];
        CHECK(old[i] == init[i], "MPI_Get_accumulate of %d MPI_CHAR: "
              "element %d fetched %d, expected %d", RUN, i, old[i], init[i]);
        CHECK(got[i] == want, "MPI_SUM then MPI_MAX on %d MPI_CHAR: element "
              "%d is %d, expected %d", RUN, i, got[i], want);
    }
}

static void check_cas(struct twin *w, const struct ty *ty, long long init,
                      long long other)
{
    unsigned char o[SLOT] = {0}, c[SLOT] = {0}, r[SLOT] = {0};
    MPI_Aint d = twin_disp(w, right, 0);
    set_slot(w, ty, init);
    store(ty, o, other);
    store(ty, c, init);
    CHECK_MPI(MPI_Compare_and_swap(o, c, r, ty->t, right, d, w->win));
    CHECK_MPI(MPI_Win_flush(right, w->win));
    CHECK(load(ty, r) == init && get_slot(w, ty) == other,
          "MPI_Compare_and_swap on %s: an equal compare found %lld and left "
          "%lld, expected %lld and %lld", ty->name, load(ty, r),
          get_slot(w, ty), init, other);
    store(ty, o, init);
    CHECK_MPI(MPI_Compare_and_swap(o, c, r, ty->t, right, d, w->win));
    CHECK_MPI(MPI_Win_flush(right, w->win));
    CHECK(load(ty, r) == other && get_slot(w, ty) == other,
          "MPI_Compare_and_swap on %s: a different compare found %lld and "
          "left %lld, expected %lld twice", ty->name, load(ty, r),
          get_slot(w, ty), other);
}

int main(int argc, char **argv)
{
    int size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    right = (rank + 1) % size;
    for (int f = 0; f < TW_FLAVORS; f++) {
        _Alignas(16) unsigned char stack[64];
        struct twin w;
        twin_open(&w, (enum twin_flavor)f, sizeof stack, 1, stack);
        CHECK_MPI(MPI_Win_lock_all(0, w.win));
        check_pairs(&w, &t_char, signed_pairs, 10, CHAR_PEERS);
        check_pairs(&w, &t_character, unsigned_pairs, 10, CHAR_PEERS);
        check_pairs(&w, &t_byte, unsigned_pairs, 10, BYTE_ACC_PEERS);
        check_pairs(&w, &t_aint, logical_pairs, 6, LOGICAL_PEERS);
        check_pairs(&w, &t_offset, logical_pairs, 6, LOGICAL_PEERS);
        check_pairs(&w, &t_count, logical_pairs, 6, LOGICAL_PEERS);
        check_run(&w);
        check_cas(&w, &t_char, -7, 42);
        check_cas(&w, &t_character, 200, 9);
        CHECK_MPI(MPI_Win_unlock_all(w.win));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        twin_close(&w);
    }
    CHECK_MPI(MPI_Finalize());
    return 0;
}
