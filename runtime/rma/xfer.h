/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xfer.h - what the communication calls share (put.c, get.c, acc.c,
 * atomic.c, rreq.c): the origin-side argument checks, where a checked
 * target range lies, and the moves of typed data to and from it.
 *
 * Every RMA call checks, in this order: the window (MPI_ERR_WIN), the
 * target rank (MPI_ERR_RANK), counts, datatypes and buffers
 * (MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_BUFFER), that the data has one
 * type signature (MPI_ERR_TYPE) and fits where it goes
 * (MPI_ERR_TRUNCATE), the op (MPI_ERR_OP), the displacement
 * (MPI_ERR_DISP), for the request forms the kind of epoch, the epoch
 * (MPI_ERR_RMA_SYNC, epoch.c), and last the target range
 * (MPI_ERR_RMA_RANGE, range.c).  The checks are inline and branch once
 * each on the good path; the cold functions of args.c find out what
 * exactly was wrong and say it.
 */
#ifndef SHMPI_RMA_XFER_H
#define SHMPI_RMA_XFER_H

#include <stdint.h>
#include <string.h>

#include "core/error.h"
#include "datatypes/datatype.h"
#include "datatypes/ops.h"
#include "rma/win.h"

#define SHMPI_LIKELY(x) __builtin_expect(!!(x), 1)

/* Where a checked target range starts: mapped here (direct), or in the
   target's address space, reached with process_vm_readv/writev. */
struct shmpi_rma_loc {
    uint64_t addr;
    int direct;
    pid_t pid;
};

/* ------------------------------------------------------ the checks */

/* args.c: the cold halves of the checks below; each raises what was
   wrong on win (or returns MPI_SUCCESS for an MPI_PROC_NULL target, or
   for an op on a type it is not defined on with nothing to combine). */
int shmpi_rma_bad_target(MPI_Win win, int target, const char *fn);
int shmpi_rma_bad_side(MPI_Win win, const void *buf, MPI_Count count,
                       MPI_Datatype t, int has_buf, const char *fn,
                       const char *what);
int shmpi_rma_bad_fit(MPI_Win win, MPI_Count from_count, MPI_Datatype from,
                      MPI_Count to_count, MPI_Datatype to, int same_basic,
                      const char *fn, const char *from_what,
                      const char *to_what);
int shmpi_rma_bad_op(MPI_Win win, MPI_Op op, MPI_Datatype t,
                     MPI_Count count, int fetching, const char *fn);
int shmpi_rma_bad_disp(MPI_Win win, MPI_Aint disp, const char *fn);
int shmpi_rma_bad_bytes(MPI_Win win, MPI_Count count, MPI_Datatype t,
                        const char *fn, const char *what);
int shmpi_rma_not_passive(MPI_Win win, const char *fn);

/* A valid window and a rank of its group, or MPI_PROC_NULL. */
static inline int shmpi_rma_check_target(MPI_Win win, int target,
                                         const char *fn)
{
    if (SHMPI_LIKELY(shmpi_win_ok(win) &&
                     (unsigned)target < (unsigned)win->comm->size))
        return MPI_SUCCESS;
    return shmpi_rma_bad_target(win, target, fn);
}

/* count >= 0 of a committed type, not MPI_HANDLE_SYNC (datatype.h; the
   two bits share a word, which gcc tests at once); a buffer that can be
   memory when there is data (origin and result sides: has_buf). */
static inline int shmpi_rma_check_side(MPI_Win win, const void *buf,
                                       MPI_Count count, MPI_Datatype t,
                                       int has_buf, const char *fn,
                                       const char *what)
{
    if (SHMPI_LIKELY(count >= 0 && shmpi_datatype_ok(t) && t->committed &&
                     !t->handle_sync &&
                     (!has_buf || shmpi_buffer_ok(buf, count, t))))
        return MPI_SUCCESS;
    return shmpi_rma_bad_side(win, buf, count, t, has_buf, fn, what);
}

static inline uint64_t shmpi_rma_bytes(MPI_Count count, MPI_Datatype t)
{
    return (uint64_t)count * (uint64_t)t->size;
}

/* After shmpi_rma_check_side, for the large-count (_c) forms: the data
   of count elements of t is less than 2^63 bytes (MPI_ERR_COUNT), so
   that shmpi_rma_bytes cannot wrap around to a small number that the
   range check would let through.  The MPI-3.1 forms skip it, so that
   their good path stays as it was: an int count times a type's size
   gets there only with a type of 2^32 bytes or more. */
static inline int shmpi_rma_check_bytes(MPI_Win win, MPI_Count count,
                                        MPI_Datatype t, const char *fn,
                                        const char *what)
{
    uint64_t bytes;
    if (SHMPI_LIKELY(!__builtin_mul_overflow((uint64_t)count,
                                             (uint64_t)t->size, &bytes) &&
                     bytes <= (uint64_t)INT64_MAX))
        return MPI_SUCCESS;
    return shmpi_rma_bad_bytes(win, count, t, fn, what);
}

/* The data of (from_count, from) fits in (to_count, to), as a message
   must fit its receive buffer (11.3.1), and the two have one basic type
   where both are made of one; same_basic: they must be (accumulates,
   11.3.4).  MPI_BYTE and MPI_PACKED go with anything in put and get. */
static inline int shmpi_rma_check_fit(MPI_Win win, MPI_Count from_count,
                                      MPI_Datatype from, MPI_Count to_count,
                                      MPI_Datatype to, int same_basic,
                                      const char *fn, const char *from_what,
                                      const char *to_what)
{
    if (SHMPI_LIKELY(from->basic == to->basic &&
                     (from->basic || !same_basic) &&
                     shmpi_rma_bytes(from_count, from) <=
                         shmpi_rma_bytes(to_count, to)))
        return MPI_SUCCESS;
    return shmpi_rma_bad_fit(win, from_count, from, to_count, to, same_basic,
                             fn, from_what, to_what);
}

/* An op an accumulate may apply to count elements of t (11.3.4): a
   predefined op defined on t's basic type (or any, for count 0),
   MPI_REPLACE, or - fetching calls only - MPI_NO_OP.  count is the
   origin's: the elements an op with a kernel combines (MPI_REPLACE and
   MPI_NO_OP take any type). */
static inline int shmpi_rma_check_op(MPI_Win win, MPI_Op op, MPI_Datatype t,
                                     MPI_Count count, int fetching,
                                     const char *fn)
{
    if (SHMPI_LIKELY(shmpi_op_check(op, t, SHMPI_OP_FOR_ACCUMULATE, fn) ==
                         MPI_SUCCESS &&
                     op->code != SHMPI_OP_USER &&
                     (fetching || op != MPI_NO_OP)))
        return MPI_SUCCESS;
    return shmpi_rma_bad_op(win, op, t, count, fetching, fn);
}

/* Non-negative, except on dynamic windows, where it is an address. */
static inline int shmpi_rma_check_disp(MPI_Win win, MPI_Aint disp,
                                       const char *fn)
{
    if (SHMPI_LIKELY(disp >= 0 || win->flavor == MPI_WIN_FLAVOR_DYNAMIC))
        return MPI_SUCCESS;
    return shmpi_rma_bad_disp(win, disp, fn);
}

/* Request-based calls: only in passive-target epochs (11.3.5), and in
   the sync_ops epochs of sync counters (shmpi_sync(7)). */
static inline int shmpi_rma_check_passive(MPI_Win win, const char *fn)
{
    if (SHMPI_LIKELY(win->access == SHMPI_EPOCH_LOCK ||
                     win->access == SHMPI_EPOCH_LOCK_ALL ||
                     win->access == SHMPI_EPOCH_SYNC_OPS))
        return MPI_SUCCESS;
    return shmpi_rma_not_passive(win, fn);
}

/* What comes after the arguments: for a rank, the displacement and -
   request forms - the kind of epoch; then entering the epoch
   (shmpi_rma_enter_epoch: may mark a fence epoch used or wait for a
   post), which MPI_PROC_NULL needs too (11.3).  The standard keeps the request forms to
   passive-target epochs (11.3.5) whatever the target, but a call to
   MPI_PROC_NULL is a no-op, and shmpi, like Open MPI and MPICH, lets it
   through in any access epoch, fence and PSCW too: a program that
   relies on this is not portable under the letter of 11.3.5.  kind:
   MPI_MODE_WIN_PUT, _GET or _ACCUMULATE (sync_ops epochs cover kinds). */
static inline int shmpi_rma_admit_call(MPI_Win win, int target,
                                       MPI_Aint disp, int request_form,
                                       int kind, const char *fn)
{
    int rc;
    if ((target != MPI_PROC_NULL &&
         ((rc = shmpi_rma_check_disp(win, disp, fn)) ||
          (request_form && (rc = shmpi_rma_check_passive(win, fn))))) ||
        (rc = shmpi_rma_enter_epoch(win, target, kind, fn)))
        return rc;
    return MPI_SUCCESS;
}

/* conflict_check.c, check mode only (core/check.h): an access of len
   bytes at disp of target (kind: MPI_MODE_WIN_PUT, _GET or _ACCUMULATE;
   op: an accumulate's), compared with every origin's accesses of the
   window at that target that no flush or epoch end has completed there,
   a conflict of 11.7.1 reported (shmpi_rma_conflict_end, win.h, forgets
   them). */
void shmpi_rma_conflict_note(MPI_Win win, int target, MPI_Aint disp,
                             uint64_t len, MPI_Datatype ttype, int kind,
                             MPI_Op op, const char *fn) __attribute__((cold));

/* local_check.c, check mode only: where the library reads (write: 0)
   or writes count elements of dt at buf without the watch of this
   process's window memory seeing it - through a second mapping of a
   watched window's pages that is never protected, when the elements lie
   in one, having compared them with the window's live notes as a fault
   would (a conflict reported, the copy taken for a load or store of
   this process); else buf itself.  For the library's own copies from
   and into the program's buffers (an origin sent from window memory, a
   result fetched into it), which then neither fault nor are stepped. */
void *shmpi_rma_local_unwatched(const void *buf, MPI_Count count,
                                MPI_Datatype dt, int write)
    __attribute__((cold));

/* ------------------------------------------------------- the range */

/* range.c: the whole check of shmpi_rma_locate (below), with where the
   range is.  Called on the fast path's misses only. */
int shmpi_rma_locate_slow(MPI_Win win, int target, MPI_Aint disp,
                          MPI_Count count, MPI_Datatype t, const char *fn,
                          struct shmpi_rma_loc *loc);

/* The target range of (disp, count, t) inside target's window, and where
   it is.  The good path of a mapped window: one multiplication and two
   comparisons (a contiguous type starts at its buffer and spans count *
   size bytes); everything else - derived types, process_vm targets,
   dynamic windows, errors - goes to range.c. */
static inline int shmpi_rma_locate(MPI_Win win, int target, MPI_Aint disp,
                                   MPI_Count count, MPI_Datatype t,
                                   const char *fn, struct shmpi_rma_loc *loc)
{
    const struct shmpi_win_target *w = &win->targets[target];
    uint64_t bytes = shmpi_rma_bytes(count, t);
    MPI_Aint off;
    if (SHMPI_LIKELY(t->contig && w->direct &&
                     !__builtin_mul_overflow(disp, (MPI_Aint)w->disp_unit,
                                             &off) &&
                     (uint64_t)off <= (uint64_t)w->size &&
                     bytes <= (uint64_t)(w->size - off))) {
        loc->addr = (uint64_t)(uintptr_t)w->base + (uint64_t)off;
        loc->direct = 1;
        return MPI_SUCCESS;
    }
    return shmpi_rma_locate_slow(win, target, disp, count, t, fn, loc);
}

/* -------------------------------------------------------- the moves */

/* xfer.c: len packed bytes from (buf, bt) into the target range at loc
   with type tt (a put), or back (a get).  MPI_SUCCESS, or an error
   raised on win when process_vm_* failed. */
int shmpi_rma_write(MPI_Win win, const struct shmpi_rma_loc *loc,
                    MPI_Datatype tt, const void *buf, MPI_Datatype bt,
                    uint64_t len, const char *fn);
int shmpi_rma_read(MPI_Win win, const struct shmpi_rma_loc *loc,
                   MPI_Datatype tt, void *buf, MPI_Datatype bt, uint64_t len,
                   const char *fn);
/* Packed bytes [off, off + len) of the target range, to or from a
   contiguous buffer (accumulates stage target data this way). */
int shmpi_rma_pack(MPI_Win win, const struct shmpi_rma_loc *loc,
                   MPI_Datatype tt, uint64_t off, void *out, uint64_t len,
                   const char *fn);
int shmpi_rma_unpack(MPI_Win win, const struct shmpi_rma_loc *loc,
                     MPI_Datatype tt, uint64_t off, const void *in,
                     uint64_t len, const char *fn);

/* ----------------------------------------------- the calls, unwrapped */

/* put.c, get.c, acc.c: each call's whole work, shared by its blocking
   and request forms (rreq.c); `request_form` adds the passive-target
   rule of 11.3.5, `wide` the check of a large-count (_c) form's counts
   (shmpi_rma_check_bytes; get_accumulate always checks), `fetching`
   tells MPI_Get_accumulate from MPI_Accumulate. */
int shmpi_rma_put(const void *obuf, MPI_Count ocount, MPI_Datatype otype,
                  int target, MPI_Aint disp, MPI_Count tcount,
                  MPI_Datatype ttype, MPI_Win win, int request_form, int wide,
                  const char *fn);
int shmpi_rma_get(void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
                  MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype,
                  MPI_Win win, int request_form, int wide, const char *fn);
int shmpi_rma_get_accumulate(const void *obuf, MPI_Count ocount,
                             MPI_Datatype otype, void *rbuf, MPI_Count rcount,
                             MPI_Datatype rtype, int target, MPI_Aint disp,
                             MPI_Count tcount, MPI_Datatype ttype, MPI_Op op,
                             MPI_Win win, int fetching, int request_form,
                             const char *fn);

/* acc.c: apply op element-wise to the target range at loc (type tt) with
   len packed bytes of (obuf, otype) - unused by MPI_NO_OP - first
   copying the range's old contents to (rbuf, rtype) unless rtype is
   NULL; atomic per element (the target's accumulate lock, acclock.c,
   held exclusively; one-element cases go to atomic.c).  Checked
   arguments only. */
int shmpi_rma_apply(MPI_Win win, int target, const struct shmpi_rma_loc *loc,
                    MPI_Datatype tt, MPI_Op op, const void *obuf,
                    MPI_Datatype otype, void *rbuf, MPI_Datatype rtype,
                    uint64_t len, const char *fn);

/* atomic.c: one element of the basic type t at loc with one hardware
   atomic instruction, announced to the target's accumulate lock:
   result (if not NULL) gets the old value, the target origin op old.
   Returns 0, having done nothing, when that cannot be (not mapped here,
   size not 1, 2, 4 or 8, misaligned, no such op on t). */
int shmpi_rma_atomic(MPI_Win win, int target, const struct shmpi_rma_loc *loc,
                     MPI_Op op, MPI_Datatype t, const void *origin,
                     void *result);

#endif
