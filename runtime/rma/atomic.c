/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * atomic.c - single-element accumulates done with one hardware atomic
 * instruction on the target's memory (MPI_Fetch_and_op,
 * MPI_Compare_and_swap, and one-element MPI_Accumulate /
 * MPI_Get_accumulate on a mapped window), and the two calls themselves
 * (MPI-3.1 11.3.4).
 *
 * An element of 1, 2, 4 or 8 bytes at its natural alignment is one C11
 * atomic object: MPI_REPLACE is an exchange, MPI_NO_OP a load, MPI_SUM
 * on integers a fetch_add, MPI_BAND/BOR/BXOR (integers only, by 5.9.2)
 * fetch_and/or/xor, and every other op - MAX, MIN, PROD, the logical
 * ops, floating-point sums - a compare-exchange loop around the op's own
 * reduction kernel, so the arithmetic is exactly shmpi_op_reduce's.  They
 * are atomic among themselves by the hardware, and announce themselves
 * to the target's accumulate lock (acclock.c) so that they never run
 * while an accumulate that works element by element holds it.  Everything else
 * (other sizes, pair types, process_vm targets) goes the exclusive way,
 * shmpi_rma_apply.
 *
 * Memory order: the RMWs are acq_rel, the load acquire: a fetched value
 * carries with it what its writer wrote before (11.7.1 asks only for
 * atomicity; the order is free and costs nothing more on x86).
 */
#include <stdatomic.h>

#include "core/check.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/acclock.h"
#include "rma/watch.h"
#include "rma/xfer.h"

SHMPI_WEAK_ALIAS(Fetch_and_op)
SHMPI_WEAK_ALIAS(Compare_and_swap)

enum how { NONE, LOAD, EXCHANGE, ADD, AND, OR, XOR, CAS_LOOP };

_Static_assert(SHMPI_OP_USER <= sizeof ((struct shmpi_datatype *)0)->atomic_how,
               "atomic_how has a place for every predefined op");
_Static_assert(SHMPI_OP_USER <= 16, "fop_checked has a bit for every op");

/* How op is done on one element of the basic type t, if at all. */
static enum how choose_fully(MPI_Op op, MPI_Datatype t)
{
    switch (op->code) {
    case SHMPI_OP_NO_OP: return LOAD;
    case SHMPI_OP_REPLACE: return EXCHANGE;
    case SHMPI_OP_BAND: return AND;
    case SHMPI_OP_BOR: return OR;
    case SHMPI_OP_BXOR: return XOR;
    case SHMPI_OP_SUM: /* two's complement: integers only, as BAND is */
        if (shmpi_op_kernel_find(SHMPI_OP_BAND, t, SHMPI_OP_FOR_ACCUMULATE))
            return ADD;
        break;
    default:
        break;
    }
    return shmpi_op_kernel_find(op->code, t, SHMPI_OP_FOR_ACCUMULATE)
               ? CAS_LOOP : NONE;
}

/* choose_fully, remembered in the predefined type t (op is a predefined
   op: user ops never reach an accumulate); kernel gets the op's kernel
   for CAS_LOOP. */
static inline enum how choose(MPI_Op op, MPI_Datatype t,
                              shmpi_kernel **kernel)
{
    _Atomic uint8_t *known = &t->atomic_how[op->code];
    uint8_t k = atomic_load_explicit(known, memory_order_relaxed);
    if (!k) { /* threads that race here store the same value */
        k = (uint8_t)(choose_fully(op, t) + 1);
        atomic_store_explicit(known, k, memory_order_relaxed);
    }
    enum how how = (enum how)(k - 1);
    if (how == CAS_LOOP)
        *kernel = shmpi_op_kernel_find(op->code, t, SHMPI_OP_FOR_ACCUMULATE);
    return how;
}

#define ONE_ELEMENT(T)                                                     \
    static inline __attribute__((always_inline)) void T##_op(              \
        enum how how, shmpi_kernel *kernel,                                \
                       const void *origin, void *result, void *target)     \
    {                                                                      \
        _Atomic T *p = target;                                             \
        T o = 0, old, new;                                                 \
        if (how != LOAD)                                                   \
            memcpy(&o, origin, sizeof o);                                  \
        switch (how) {                                                     \
        case LOAD:                                                         \
            old = atomic_load_explicit(p, memory_order_acquire);          \
            break;                                                         \
        case EXCHANGE:                                                     \
            old = atomic_exchange_explicit(p, o, memory_order_acq_rel);   \
            break;                                                         \
        case ADD:                                                          \
            old = atomic_fetch_add_explicit(p, o, memory_order_acq_rel);  \
            break;                                                         \
        case AND:                                                          \
            old = atomic_fetch_and_explicit(p, o, memory_order_acq_rel);  \
            break;                                                         \
        case OR:                                                           \
            old = atomic_fetch_or_explicit(p, o, memory_order_acq_rel);   \
            break;                                                         \
        case XOR:                                                          \
            old = atomic_fetch_xor_explicit(p, o, memory_order_acq_rel);  \
            break;                                                         \
        default:                                                           \
            old = atomic_load_explicit(p, memory_order_relaxed);          \
            do {                                                           \
                new = old;                                                 \
                kernel(&o, &new, 1);                                       \
            } while (!atomic_compare_exchange_weak_explicit(               \
                p, &old, new, memory_order_acq_rel,                        \
                memory_order_relaxed));                                    \
            break;                                                         \
        }                                                                  \
        if (result)                                                        \
            memcpy(result, &old, sizeof old);                              \
    }                                                                      \
    static void T##_cas(const void *origin, const void *compare,           \
                        void *result, void *target)                        \
    {                                                                      \
        T o, old;                                                          \
        memcpy(&o, origin, sizeof o);                                      \
        memcpy(&old, compare, sizeof old);                                 \
        atomic_compare_exchange_strong_explicit(                           \
            (_Atomic T *)target, &old, o, memory_order_acq_rel,            \
            memory_order_acquire);                                         \
        memcpy(result, &old, sizeof old); /* the value found */            \
    }
ONE_ELEMENT(uint8_t)
ONE_ELEMENT(uint16_t)
ONE_ELEMENT(uint32_t)
ONE_ELEMENT(uint64_t)

/* An element of t at loc that one instruction can reach. */
static int reachable(const struct shmpi_rma_loc *loc, MPI_Datatype t)
{
    uint64_t size = (uint64_t)t->size; /* a leaf's is never 0 */
    return loc->direct && t->leaf && size <= 8 && !(size & (size - 1)) &&
           !(loc->addr & (size - 1));
}

/* shmpi_rma_atomic, inlined into MPI_Fetch_and_op: the branches and
   calls of the checks were a fifth of a fetch_and_op + flush, which
   went from 20.0 to 17.5 ns (2026-11-22, alternated runs of
   perf/rma's fop; commit b0acac8). */
static inline __attribute__((always_inline)) int
one_atomic(MPI_Win win, int target, const struct shmpi_rma_loc *loc,
           MPI_Op op, MPI_Datatype t, const void *origin, void *result)
{
    shmpi_kernel *kernel = NULL;
    enum how how;
    if (!reachable(loc, t) || (how = choose(op, t, &kernel)) == NONE)
        return 0;
    void *p = (void *)(uintptr_t)loc->addr;
    uint32_t token = shmpi_rma_atomic_enter(win, target);
    switch (t->size) {
    case 1: uint8_t_op(how, kernel, origin, result, p); break;
    case 2: uint16_t_op(how, kernel, origin, result, p); break;
    case 4: uint32_t_op(how, kernel, origin, result, p); break;
    default: uint64_t_op(how, kernel, origin, result, p); break;
    }
    shmpi_rma_atomic_leave(win, target, token);
    return 1;
}

int shmpi_rma_atomic(MPI_Win win, int target, const struct shmpi_rma_loc *loc,
                     MPI_Op op, MPI_Datatype t, const void *origin,
                     void *result)
{
    return one_atomic(win, target, loc, op, t, origin, result);
}

/* ---------------------------------------------------- the two calls */

/* A predefined type (both calls), of the groups compare_and_swap takes
   (11.3.4): C integer, Fortran integer, logical, multi-language, byte -
   the types MPI_BAND or MPI_LAND is defined on (5.9.2) - and, as Open
   MPI and MPICH do, MPI_CHAR and MPI_CHARACTER, on which shmpi takes
   MPI_BAND like them (reduce_kernels.c).  Open MPI takes any type;
   MPICH refuses the others with MPI_ERR_TYPE, as shmpi does. */
static int check_type(MPI_Win win, MPI_Datatype t, int for_cas,
                      const char *fn)
{
    int rc = shmpi_rma_check_side(win, NULL, 1, t, 0, fn, "element");
    if (rc)
        return rc;
    if (!t->predefined)
        return shmpi_win_raise(win, MPI_ERR_TYPE, fn,
                               "%s is a derived datatype; this call takes "
                               "one element of a predefined one",
                               t->name[0] ? t->name : "the datatype");
    if (for_cas &&
        shmpi_op_check(MPI_BAND, t, SHMPI_OP_FOR_REDUCTION, NULL) &&
        shmpi_op_check(MPI_LAND, t, SHMPI_OP_FOR_REDUCTION, NULL))
        return shmpi_win_raise(win, MPI_ERR_TYPE, fn,
                               "%s cannot be compared and swapped: the "
                               "type must be an integer, logical, byte or "
                               "character type (11.3.4)", t->name);
    return MPI_SUCCESS;
}

/* Did (op, t) pass check_type and shmpi_rma_check_op before?  Both
   depend on the pair alone, and only predefined ones pass (never freed),
   so a loop of calls checks its pair once. */
static int fop_checked(MPI_Op op, MPI_Datatype t)
{
    return shmpi_datatype_ok(t) && shmpi_op_ok(op) &&
           op->code < SHMPI_OP_USER &&
           (atomic_load_explicit(&t->fop_checked, memory_order_relaxed) >>
                op->code & 1);
}

/* The checked call's work: the range, then one instruction or the
   element-wise way. */
static inline __attribute__((always_inline)) int
fetch_and_op_at(const void *origin, void *result, MPI_Datatype t,
                int target, MPI_Aint disp, MPI_Op op, MPI_Win win,
                const char *fn)
{
    struct shmpi_rma_loc loc;
    int rc = shmpi_rma_locate(win, target, disp, 1, t, fn, &loc);
    if (rc)
        return rc;
    if (SHMPI_LIKELY(one_atomic(win, target, &loc, op, t, origin, result)))
        return MPI_SUCCESS;
    return shmpi_rma_apply(win, target, &loc, t, op, origin, t, result, t,
                           (uint64_t)t->size, fn);
}

/* Every check, each raising what it found wrong. */
static __attribute__((noinline)) int
fetch_and_op_fully(const void *origin_addr, void *result_addr,
                   MPI_Datatype datatype, int target_rank,
                   MPI_Aint target_disp, MPI_Op op, MPI_Win win,
                   const char *fn)
{
    int rc, reads_only = op == MPI_NO_OP; /* origin_addr is ignored */
    int checked = fop_checked(op, datatype);
    if ((rc = shmpi_rma_check_target(win, target_rank, fn)) ||
        (!checked && (rc = check_type(win, datatype, 0, fn))) ||
        (!reads_only && (rc = shmpi_rma_check_side(win, origin_addr, 1,
                                                   datatype, 1, fn,
                                                   "origin"))) ||
        (rc = shmpi_rma_check_side(win, result_addr, 1, datatype, 1, fn,
                                   "result")) ||
        (!checked && (rc = shmpi_rma_check_op(win, op, datatype, 1, 1, fn))) ||
        (rc = shmpi_rma_admit_call(win, target_rank, target_disp, 0,
                                   MPI_MODE_WIN_ACCUMULATE, fn)) ||
        target_rank == MPI_PROC_NULL)
        return rc;
    if (!checked) /* no store into the type on every call */
        atomic_fetch_or_explicit(&datatype->fop_checked,
                                 (uint16_t)(1u << op->code),
                                 memory_order_relaxed);
    return fetch_and_op_at(origin_addr, result_addr, datatype, target_rank,
                           target_disp, op, win, fn);
}

/* What the checks of fetch_and_op_fully find in a loop of calls: a pair
   checked before, a target of the window in a passive-target epoch that
   covers it, a displacement >= 0, buffers that can be memory.  Only the
   range is left to check.  In one line, for a fetch_and_op + flush costs
   as much as the checks' branches and calls. */
static inline int fetch_and_op_plain(const void *origin, const void *result,
                                     MPI_Datatype t, int target,
                                     MPI_Aint disp, MPI_Op op, MPI_Win win)
{
    return fop_checked(op, t) && shmpi_win_ok(win) && disp >= 0 &&
           shmpi_rma_epoch_covers(win, target) &&
           (op == MPI_NO_OP || shmpi_buffer_ok(origin, 1, t)) &&
           shmpi_buffer_ok(result, 1, t);
}

static inline __attribute__((always_inline)) int
fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
             int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win,
             const char *fn)
{
    if (SHMPI_LIKELY(fetch_and_op_plain(origin_addr, result_addr, datatype,
                                        target_rank, target_disp, op, win)))
        return fetch_and_op_at(origin_addr, result_addr, datatype,
                               target_rank, target_disp, op, win, fn);
    return fetch_and_op_fully(origin_addr, result_addr, datatype, target_rank,
                              target_disp, op, win, fn);
}

/* Check mode: the result written as the library's own (it may be the
   watched result of a pending get: watch.h), then watched itself until
   the call that completes the operation (result_check.c). */
static __attribute__((cold, noinline)) int
fetch_and_op_checked(const void *origin_addr, void *result_addr,
                     MPI_Datatype datatype, int target_rank,
                     MPI_Aint target_disp, MPI_Op op, MPI_Win win,
                     const char *fn)
{
    shmpi_rma_watch_quiet(1);
    int rc = fetch_and_op(origin_addr, result_addr, datatype, target_rank,
                          target_disp, op, win, fn);
    shmpi_rma_watch_quiet(0);
    if (rc == MPI_SUCCESS && target_rank != MPI_PROC_NULL)
        shmpi_rma_result_watch(win, target_rank, target_disp, result_addr, 1,
                               datatype, fn);
    return rc;
}

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr,
                      MPI_Datatype datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    static const char fn[] = "MPI_Fetch_and_op";
    SHMPI_REQUIRE_INIT(fn);
    if (shmpi_core_checking())
        return fetch_and_op_checked(origin_addr, result_addr, datatype,
                                    target_rank, target_disp, op, win, fn);
    return fetch_and_op(origin_addr, result_addr, datatype, target_rank,
                        target_disp, op, win, fn);
}

/* Not one instruction: under the exclusive lock, a read, a compare and
   maybe a write. */
static int cas_locked(MPI_Win win, int target, const struct shmpi_rma_loc *loc,
                      MPI_Datatype t, const void *origin, const void *compare,
                      void *result, const char *fn)
{
    _Alignas(16) unsigned char old[64]; /* the largest basic type is 32 */
    uint64_t size = (uint64_t)t->size;
    shmpi_rma_acc_lock(win, target, fn);
    int rc = shmpi_rma_pack(win, loc, t, 0, old, size, fn);
    if (rc == MPI_SUCCESS && memcmp(old, compare, size) == 0)
        rc = shmpi_rma_unpack(win, loc, t, 0, origin, size, fn);
    shmpi_rma_acc_unlock(win, target);
    if (rc == MPI_SUCCESS)
        memcpy(result, old, size);
    return rc;
}

/* The swap, the arguments checked. */
static inline __attribute__((always_inline)) int
swap(const void *origin_addr, const void *compare_addr, void *result_addr,
     MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
     MPI_Win win, const char *fn)
{
    struct shmpi_rma_loc loc;
    int rc = shmpi_rma_locate(win, target_rank, target_disp, 1, datatype, fn,
                              &loc);
    if (rc)
        return rc;
    if (!SHMPI_LIKELY(reachable(&loc, datatype)))
        return cas_locked(win, target_rank, &loc, datatype, origin_addr,
                          compare_addr, result_addr, fn);
    void *p = (void *)(uintptr_t)loc.addr;
    uint32_t token = shmpi_rma_atomic_enter(win, target_rank);
    switch (datatype->size) {
    case 1: uint8_t_cas(origin_addr, compare_addr, result_addr, p); break;
    case 2: uint16_t_cas(origin_addr, compare_addr, result_addr, p); break;
    case 4: uint32_t_cas(origin_addr, compare_addr, result_addr, p); break;
    default: uint64_t_cas(origin_addr, compare_addr, result_addr, p); break;
    }
    shmpi_rma_atomic_leave(win, target_rank, token);
    return MPI_SUCCESS;
}

/* Check mode: as fetch_and_op_checked. */
static __attribute__((cold, noinline)) int
swap_checked(const void *origin_addr, const void *compare_addr,
             void *result_addr, MPI_Datatype datatype, int target_rank,
             MPI_Aint target_disp, MPI_Win win, const char *fn)
{
    shmpi_rma_watch_quiet(1);
    int rc = swap(origin_addr, compare_addr, result_addr, datatype,
                  target_rank, target_disp, win, fn);
    shmpi_rma_watch_quiet(0);
    if (rc == MPI_SUCCESS)
        shmpi_rma_result_watch(win, target_rank, target_disp, result_addr, 1,
                               datatype, fn);
    return rc;
}

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
                          void *result_addr, MPI_Datatype datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    static const char fn[] = "MPI_Compare_and_swap";
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    if ((rc = shmpi_rma_check_target(win, target_rank, fn)) ||
        (rc = check_type(win, datatype, 1, fn)) ||
        (rc = shmpi_rma_check_side(win, origin_addr, 1, datatype, 1, fn,
                                   "origin")) ||
        (rc = shmpi_rma_check_side(win, compare_addr, 1, datatype, 1, fn,
                                   "compare")) ||
        (rc = shmpi_rma_check_side(win, result_addr, 1, datatype, 1, fn,
                                   "result")) ||
        (rc = shmpi_rma_admit_call(win, target_rank, target_disp, 0,
                                   MPI_MODE_WIN_ACCUMULATE, fn)) ||
        target_rank == MPI_PROC_NULL)
        return rc;
    if (shmpi_core_checking())
        return swap_checked(origin_addr, compare_addr, result_addr, datatype,
                            target_rank, target_disp, win, fn);
    return swap(origin_addr, compare_addr, result_addr, datatype,
                target_rank, target_disp, win, fn);
}
