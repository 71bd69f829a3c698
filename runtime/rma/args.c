/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * args.c - the cold halves of the RMA argument checks of xfer.h: once
 * the inline check saw that something is wrong, find out what, and say
 * it with the class MPI-3.1 names for it.
 */
#include <inttypes.h>

#include "rma/sync.h"
#include "rma/xfer.h"

/* An invalid window or rank (epoch.c words them for every RMA call);
   MPI_PROC_NULL is neither. */
int shmpi_rma_bad_target(MPI_Win win, int target, const char *fn)
{
    int rc = shmpi_rma_check_win(win, fn);
    return rc ? rc : shmpi_rma_check_rank(win, target, fn);
}

int shmpi_rma_bad_side(MPI_Win win, const void *buf, MPI_Count count,
                       MPI_Datatype t, int has_buf, const char *fn,
                       const char *what)
{
    if (count < 0)
        return shmpi_win_raise(win, MPI_ERR_COUNT, fn,
                               "the %s count is negative (%lld)", what,
                               (long long)count);
    if (!shmpi_datatype_ok(t))
        return shmpi_win_raise(win, MPI_ERR_TYPE, fn,
                               "the %s datatype is not a datatype%s", what,
                               t == MPI_DATATYPE_NULL
                                   ? " (MPI_DATATYPE_NULL)" : "");
    if (!t->committed)
        return shmpi_win_raise(win, MPI_ERR_TYPE, fn,
                               "the %s datatype is not committed "
                               "(MPI_Type_commit)", what);
    if (t->handle_sync)
        return shmpi_win_raise(win, MPI_ERR_TYPE, fn,
                               "the %s datatype is " SHMPI_HANDLE_SYNC_RULE,
                               what);
    if (buf == MPI_IN_PLACE)
        return shmpi_win_raise(win, MPI_ERR_BUFFER, fn,
                               "the %s buffer is MPI_IN_PLACE, which RMA "
                               "calls do not take", what);
    return shmpi_win_raise(win, MPI_ERR_BUFFER, fn,
                           "the %s buffer is %s but has data", what,
                           buf ? "not a valid address" : "NULL");
}

/* 3.3.1: MPI_BYTE and MPI_PACKED match any byte of storage. */
static int untyped(MPI_Datatype basic)
{
    return basic == MPI_BYTE || basic == MPI_PACKED;
}

int shmpi_rma_bad_fit(MPI_Win win, MPI_Count from_count, MPI_Datatype from,
                      MPI_Count to_count, MPI_Datatype to, int same_basic,
                      const char *fn, const char *from_what,
                      const char *to_what)
{
    uint64_t have = shmpi_rma_bytes(from_count, from);
    uint64_t room = shmpi_rma_bytes(to_count, to);
    int one_each = from->basic && to->basic;
    if (have && room && same_basic && !one_each)
        return shmpi_win_raise(win, MPI_ERR_TYPE, fn,
                               "the %s or the %s datatype mixes several "
                               "basic types: accumulates need one "
                               "predefined type on both sides (11.3.4)",
                               from_what, to_what);
    if (have && room && one_each && from->basic != to->basic &&
        (same_basic || (!untyped(from->basic) && !untyped(to->basic))))
        return shmpi_win_raise(win, MPI_ERR_TYPE, fn,
                               "the %s data is %s but the %s buffer holds "
                               "%s: %s", from_what, from->basic->name,
                               to_what, to->basic->name,
                               same_basic
                                   ? "accumulates need one predefined type "
                                     "on both sides (11.3.4)"
                                   : "the type signatures must match, as "
                                     "in a send and its receive (11.3.1)");
    if (have <= room)
        return MPI_SUCCESS;
    return shmpi_win_raise(win, MPI_ERR_TRUNCATE, fn,
                           "the %s data is %" PRIu64 " bytes (%lld x %s) but "
                           "the %s buffer holds %" PRIu64 " (%lld x %s): the "
                           "data must fit, as a message must fit its "
                           "receive buffer",
                           from_what, have, (long long)from_count,
                           from->name[0] ? from->name : "a derived datatype",
                           to_what, room, (long long)to_count,
                           to->name[0] ? to->name : "a derived datatype");
}

int shmpi_rma_bad_op(MPI_Win win, MPI_Op op, MPI_Datatype t,
                     MPI_Count count, int fetching, const char *fn)
{
    if (!shmpi_op_ok(op))
        return shmpi_win_raise(win, MPI_ERR_OP, fn, "not an op%s",
                               op == MPI_OP_NULL ? " (MPI_OP_NULL)" : "");
    if (op->code == SHMPI_OP_USER)
        return shmpi_win_raise(win, MPI_ERR_OP, fn,
                               "user-defined ops cannot accumulate: RMA "
                               "takes the predefined ops and MPI_REPLACE "
                               "(11.3.4)");
    if (op == MPI_NO_OP && !fetching)
        return shmpi_win_raise(win, MPI_ERR_OP, fn,
                               "MPI_NO_OP only reads, so it is for "
                               "MPI_Get_accumulate and MPI_Fetch_and_op, "
                               "not accumulates (11.3.4)");
    if (shmpi_op_refusal(shmpi_op_check(op, t, SHMPI_OP_FOR_ACCUMULATE, fn), op,
                         count) == MPI_SUCCESS)
        return MPI_SUCCESS;
    return shmpi_win_raise(win, MPI_ERR_OP, fn,
                           "%s is not defined on %s (5.9.2; "
                           "shmpi_datatypes(7))", op->name,
                           t->basic ? t->basic->name
                                    : "a type of several basic types");
}

int shmpi_rma_bad_bytes(MPI_Win win, MPI_Count count, MPI_Datatype t,
                        const char *fn, const char *what)
{
    return shmpi_win_raise(win, MPI_ERR_COUNT, fn,
                           "the %s data, %lld elements of %lld bytes, is "
                           "2^63 bytes or more, which no memory holds",
                           what, (long long)count, (long long)t->size);
}

int shmpi_rma_bad_disp(MPI_Win win, MPI_Aint disp, const char *fn)
{
    return shmpi_win_raise(win, MPI_ERR_DISP, fn,
                           "target_disp %" PRId64 " is negative: it counts "
                           "disp_units from the start of the target's "
                           "window", (int64_t)disp);
}

int shmpi_rma_not_passive(MPI_Win win, const char *fn)
{
    return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                           "request-based RMA calls are valid only in "
                           "passive-target epochs (MPI_Win_lock, "
                           "MPI_Win_lock_all; 11.3.5), and this window is "
                           "in %s", shmpi_rma_epoch_name(win));
}
