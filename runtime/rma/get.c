/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * get.c - MPI_Get (MPI-3.1 11.3.2): the target data read into the origin
 * buffer, through both datatypes, before the call returns.  The checks
 * are put's with the roles turned: the target data must fit the origin
 * buffer.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count), on the same checks and path.
 */
#include "core/check.h"
#include "core/copy.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/watch.h"
#include "rma/xfer.h"

SHMPI_WEAK_ALIAS(Get)
SHMPI_WEAK_ALIAS(Get_c)

/* The target data into the origin buffer, the arguments checked. */
static inline __attribute__((always_inline)) int
move(void *obuf, MPI_Datatype otype, int target, MPI_Aint disp,
     MPI_Count tcount, MPI_Datatype ttype, MPI_Win win, const char *fn)
{
    shmpi_rma_count(win, SHMPI_RMA_GETS);
    struct shmpi_rma_loc loc;
    int rc = shmpi_rma_locate(win, target, disp, tcount, ttype, fn, &loc);
    if (rc)
        return rc;
    uint64_t len = shmpi_rma_bytes(tcount, ttype);
    if (SHMPI_LIKELY(loc.direct && otype->contig && ttype->contig)) {
        shmpi_copy_short(obuf, (const void *)(uintptr_t)loc.addr, len);
        return MPI_SUCCESS;
    }
    return shmpi_rma_read(win, &loc, ttype, obuf, otype, len, fn);
}

/* Check mode: the copy as the library's own (it may overwrite the
   watched result of a pending get: watch.h; a result in watched window
   memory is written through its unprotected mapping, local_check.c),
   then the access noted (conflict_check.c) and its result watched
   (result_check.c); the remote accesses to this process meanwhile
   armed as it leaves (local_check.c). */
static __attribute__((cold, noinline)) int
move_checked(void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
             MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype,
             MPI_Win win, int request_form, const char *fn)
{
    shmpi_rma_local_enter(win);
    shmpi_rma_watch_quiet(1);
    int rc = move(shmpi_rma_local_unwatched(obuf, ocount, otype, 1), otype,
                  target, disp, tcount, ttype, win, fn);
    shmpi_rma_watch_quiet(0);
    if (rc == MPI_SUCCESS) {
        shmpi_rma_conflict_note(win, target, disp,
                                shmpi_rma_bytes(tcount, ttype), ttype,
                                MPI_MODE_WIN_GET, MPI_OP_NULL, fn);
        if (!request_form)
            shmpi_rma_result_watch(win, target, disp, obuf, ocount, otype,
                                   fn);
    }
    shmpi_rma_local_leave(win);
    return rc;
}

/* The body of both forms, inlined into MPI_Get itself: the good path
   is then one function, with no argument spilling. */
static inline __attribute__((always_inline)) int
get(void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
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
        (rc = shmpi_rma_check_fit(win, tcount, ttype, ocount, otype, 0, fn,
                                  "target", "origin")) ||
        (rc = shmpi_rma_admit_call(win, target, disp, request_form,
                                   MPI_MODE_WIN_GET, fn)) ||
        target == MPI_PROC_NULL)
        return rc;
    /* before the move: nothing is live across the test but the
       arguments */
    if (shmpi_core_checking())
        return move_checked(obuf, ocount, otype, target, disp, tcount, ttype,
                            win, request_form, fn);
    return move(obuf, otype, target, disp, tcount, ttype, win, fn);
}

int shmpi_rma_get(void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
                  MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype,
                  MPI_Win win, int request_form, int wide, const char *fn)
{
    return get(obuf, ocount, otype, target, disp, tcount, ttype, win,
               request_form, wide, fn);
}

int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win)
{
    SHMPI_REQUIRE_INIT("MPI_Get");
    return get(origin_addr, origin_count, origin_datatype, target_rank,
               target_disp, target_count, target_datatype, win, 0, 0,
               "MPI_Get");
}

int PMPI_Get_c(void *origin_addr, MPI_Count origin_count,
               MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win)
{
    SHMPI_REQUIRE_INIT("MPI_Get_c");
    return get(origin_addr, origin_count, origin_datatype, target_rank,
               target_disp, target_count, target_datatype, win, 0, 1,
               "MPI_Get_c");
}
