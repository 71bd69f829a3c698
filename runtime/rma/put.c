/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * put.c - MPI_Put (MPI-3.1 11.3.1): the origin data written into the
 * target's window, through both datatypes, before the call returns.
 *
 * The path of an 8-byte put to a mapped window is 135 instructions
 * (2026-11-29: callgrind's inclusive count of PMPI_Put in a singleton
 * that puts one MPI_LONG 10000 times into its own MPI_Win_allocate
 * window under MPI_Win_lock_all; 128 in the same measurement before the
 * counts inside became MPI_Count for MPI_Put_c: the sign extensions and
 * the registers they take; 138 against 133 with the check mode's one
 * branch, 2026-11-30, the same loop with an MPI_Win_flush after each
 * put) - the init check, window and rank,
 * counts, types and buffers, fit, the epoch check, displacement and
 * range, and an inline copy (core/copy.h).  Nothing is queued: the
 * data is in the target's memory when MPI_Put returns, so flush and the
 * end of an epoch have nothing left to do but a fence.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count), on the same checks and path.
 */
#include "core/check.h"
#include "core/copy.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/xfer.h"

SHMPI_WEAK_ALIAS(Put)
SHMPI_WEAK_ALIAS(Put_c)

/* The origin data into the target, the arguments checked. */
static inline __attribute__((always_inline)) int
move(const void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
     MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win,
     const char *fn, uint64_t *len)
{
    shmpi_rma_count(win, SHMPI_RMA_PUTS);
    struct shmpi_rma_loc loc;
    int rc = shmpi_rma_locate(win, target, disp, tcount, ttype, fn, &loc);
    if (rc)
        return rc;
    *len = shmpi_rma_bytes(ocount, otype);
    if (SHMPI_LIKELY(loc.direct && otype->contig && ttype->contig)) {
        shmpi_copy_short((void *)(uintptr_t)loc.addr, obuf, *len);
        return MPI_SUCCESS;
    }
    return shmpi_rma_write(win, &loc, ttype, obuf, otype, *len, fn);
}

/* Check mode: the copy read from the origin through the unprotected
   mapping when the origin is window memory of this process (the edge
   cells of a stencil, on pages a neighbour's put protects:
   local_check.c), then the conflict check of the put's target bytes,
   and its origin's record for the call that completes it (not a
   request form's: its request completes it); the remote accesses to
   this process meanwhile armed as it leaves (local_check.c). */
static __attribute__((cold, noinline)) int
move_checked(const void *obuf, MPI_Count ocount, MPI_Datatype otype,
             int target, MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype,
             MPI_Win win, int request_form, const char *fn)
{
    uint64_t len;
    shmpi_rma_local_enter(win);
    int rc = move(shmpi_rma_local_unwatched(obuf, ocount, otype, 0), ocount,
                  otype, target, disp, tcount, ttype, win, fn, &len);
    if (rc == MPI_SUCCESS) {
        shmpi_rma_conflict_note(win, target, disp, len, ttype,
                                MPI_MODE_WIN_PUT, MPI_OP_NULL, fn);
        if (!request_form)
            shmpi_rma_origin_record(win, target, disp, obuf, ocount, otype,
                                    fn);
    }
    shmpi_rma_local_leave(win);
    return rc;
}

/* The body of both forms, inlined into MPI_Put itself: the good path
   is then one function, with no argument spilling. */
static inline __attribute__((always_inline)) int
put(const void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
    MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win,
    int request_form, int wide, const char *fn)
{
    int rc;
    if ((rc = shmpi_rma_check_target(win, target, fn)) ||
        (rc = shmpi_rma_check_side(win, obuf, ocount, otype, 1, fn,
                                   "origin")) ||
        (rc = shmpi_rma_check_side(win, NULL, tcount, ttype, 0, fn,
                                   "target")) ||
        (wide &&
         ((rc = shmpi_rma_check_bytes(win, ocount, otype, fn, "origin")) ||
          (rc = shmpi_rma_check_bytes(win, tcount, ttype, fn, "target")))) ||
        (rc = shmpi_rma_check_fit(win, ocount, otype, tcount, ttype, 0, fn,
                                  "origin", "target")) ||
        (rc = shmpi_rma_admit_call(win, target, disp, request_form,
                                   MPI_MODE_WIN_PUT, fn)) ||
        target == MPI_PROC_NULL)
        return rc;
    /* before the move: nothing is live across the test but the
       arguments */
    if (shmpi_core_checking())
        return move_checked(obuf, ocount, otype, target, disp, tcount, ttype,
                            win, request_form, fn);
    uint64_t len;
    return move(obuf, ocount, otype, target, disp, tcount, ttype, win, fn,
                &len);
}

int shmpi_rma_put(const void *obuf, MPI_Count ocount, MPI_Datatype otype,
                  int target, MPI_Aint disp, MPI_Count tcount,
                  MPI_Datatype ttype, MPI_Win win, int request_form, int wide,
                  const char *fn)
{
    return put(obuf, ocount, otype, target, disp, tcount, ttype, win,
               request_form, wide, fn);
}

int PMPI_Put(const void *origin_addr, int origin_count,
             MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win)
{
    SHMPI_REQUIRE_INIT("MPI_Put");
    return put(origin_addr, origin_count, origin_datatype, target_rank,
               target_disp, target_count, target_datatype, win, 0, 0,
               "MPI_Put");
}

int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count,
               MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win)
{
    SHMPI_REQUIRE_INIT("MPI_Put_c");
    return put(origin_addr, origin_count, origin_datatype, target_rank,
               target_disp, target_count, target_datatype, win, 0, 1,
               "MPI_Put_c");
}
