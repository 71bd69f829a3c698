/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * acc.c - MPI_Accumulate and MPI_Get_accumulate (MPI-3.1 11.3.4): the
 * target data combined element-wise with the origin data by a
 * predefined op (target = origin op target; MPI_REPLACE stores,
 * MPI_NO_OP only reads), the old target data fetched first for
 * get_accumulate, all before the call returns.
 *
 * Atomicity (11.7.1) comes from the target's accumulate lock
 * (acclock.c): a one-element operation on a mapped window is one
 * hardware atomic instruction that only announces itself to the lock
 * (atomic.c); anything larger holds it exclusively and works a chunk at
 * a time - origin chunk and
 * target chunk packed side by side (or used in place when their type is
 * contiguous), the op's reduction kernel between them, the result
 * unpacked back into the target.  Process_vm targets stage through the
 * same chunks.  The kernels are shmpi_op_reduce's (reduce_kernels.c), so
 * RMA and the collectives compute exactly alike.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count), on the same checks and path.
 */
#include "core/check.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/watch.h"
#include "rma/xfer.h"

SHMPI_WEAK_ALIAS(Accumulate)
SHMPI_WEAK_ALIAS(Accumulate_c)
SHMPI_WEAK_ALIAS(Get_accumulate)
SHMPI_WEAK_ALIAS(Get_accumulate_c)

/* Packed bytes combined per round: two buffers of it on the stack. */
enum { CHUNK = 8192 };

struct acc {
    MPI_Win win;
    int target;
    const struct shmpi_rma_loc *loc;
    MPI_Datatype tt;
    MPI_Op op;
    shmpi_kernel *kernel;      /* NULL for MPI_REPLACE and MPI_NO_OP */
    const void *obuf;          /* unused by MPI_NO_OP */
    MPI_Datatype otype;
    void *rbuf;
    MPI_Datatype rtype;        /* NULL unless fetching */
    const char *fn;
};

/* Packed bytes [off, off + len) of the target range: in place when it
   is contiguous memory here, else staged in buf. */
static int target_chunk(const struct acc *a, uint64_t off, uint64_t len,
                        unsigned char *buf, unsigned char **at)
{
    if (a->loc->direct && a->tt->contig) {
        *at = (unsigned char *)(uintptr_t)a->loc->addr + off;
        return MPI_SUCCESS;
    }
    *at = buf;
    return shmpi_rma_pack(a->win, a->loc, a->tt, off, buf, len, a->fn);
}

static int combine_chunk(const struct acc *a, uint64_t off, uint64_t len)
{
    _Alignas(64) unsigned char obuf[CHUNK], tbuf[CHUNK];
    const unsigned char *in = NULL;
    unsigned char *t = NULL;
    int rc;
    if (a->op != MPI_NO_OP && a->otype->contig) {
        in = (const unsigned char *)a->obuf + off;
    } else if (a->op != MPI_NO_OP) {
        shmpi_dt_pack(a->obuf, a->otype, off, obuf, len);
        in = obuf;
    }
    if ((a->rtype || a->kernel) &&
        (rc = target_chunk(a, off, len, tbuf, &t)))
        return rc;
    if (a->rtype) /* the old contents, before we change them */
        shmpi_dt_unpack(a->rbuf, a->rtype, off, t, len);
    if (a->op == MPI_NO_OP)
        return MPI_SUCCESS;
    if (!a->kernel) /* MPI_REPLACE */
        return shmpi_rma_unpack(a->win, a->loc, a->tt, off, in, len, a->fn);
    a->kernel(in, t, len / (uint64_t)a->tt->basic->size);
    if (t == tbuf)
        return shmpi_rma_unpack(a->win, a->loc, a->tt, off, t, len, a->fn);
    return MPI_SUCCESS;
}

int shmpi_rma_apply(MPI_Win win, int target, const struct shmpi_rma_loc *loc,
                    MPI_Datatype tt, MPI_Op op, const void *obuf,
                    MPI_Datatype otype, void *rbuf, MPI_Datatype rtype,
                    uint64_t len, const char *fn)
{
    if (len == 0)
        return MPI_SUCCESS;
    MPI_Datatype basic = tt->basic;
    /* one element, where each side has it whole at its address */
    if (len == (uint64_t)basic->size && tt->contig &&
        (op == MPI_NO_OP || otype->contig) && (!rtype || rtype->contig) &&
        shmpi_rma_atomic(win, target, loc, op, basic, obuf,
                         rtype ? rbuf : NULL))
        return MPI_SUCCESS;
    struct acc a = {win, target, loc, tt, op,
                    op->code <= SHMPI_OP_LAST_KERNEL
                        ? shmpi_op_kernel_find(op->code, basic,
                                               SHMPI_OP_FOR_ACCUMULATE)
                        : NULL,
                    obuf, otype, rbuf, rtype, fn};
    uint64_t elem = (uint64_t)basic->size, chunk = CHUNK / elem * elem;
    int rc = MPI_SUCCESS;
    shmpi_rma_acc_lock(win, target, fn);
    for (uint64_t off = 0; off < len && rc == MPI_SUCCESS; off += chunk)
        rc = combine_chunk(&a, off, len - off < chunk ? len - off : chunk);
    shmpi_rma_acc_unlock(win, target);
    return rc;
}

int shmpi_rma_get_accumulate(const void *obuf, MPI_Count ocount,
                             MPI_Datatype otype, void *rbuf, MPI_Count rcount,
                             MPI_Datatype rtype, int target, MPI_Aint disp,
                             MPI_Count tcount, MPI_Datatype ttype, MPI_Op op,
                             MPI_Win win, int fetching, int request_form,
                             const char *fn)
{
    int reads_only = op == MPI_NO_OP; /* the origin is ignored */
    int rc;
    if ((rc = shmpi_rma_check_target(win, target, fn)) ||
        (!reads_only && (rc = shmpi_rma_check_side(win, obuf, ocount, otype, 1,
                                                   fn, "origin"))) ||
        (fetching && (rc = shmpi_rma_check_side(win, rbuf, rcount, rtype, 1,
                                                fn, "result"))) ||
        (rc = shmpi_rma_check_side(win, NULL, tcount, ttype, 0, fn,
                                   "target")) ||
        /* (an accumulate's lock outweighs these checks: both forms) */
        (!reads_only &&
         (rc = shmpi_rma_check_bytes(win, ocount, otype, fn, "origin"))) ||
        (fetching &&
         (rc = shmpi_rma_check_bytes(win, rcount, rtype, fn, "result"))) ||
        (rc = shmpi_rma_check_bytes(win, tcount, ttype, fn, "target")) ||
        (!reads_only &&
         (rc = shmpi_rma_check_fit(win, ocount, otype, tcount, ttype, 1, fn,
                                   "origin", "target"))) ||
        (fetching &&
         (rc = shmpi_rma_check_fit(win, tcount, ttype, rcount, rtype, 1, fn,
                                   "target", "result"))) ||
        (rc = shmpi_rma_check_op(win, op, ttype, ocount, fetching, fn)) ||
        (rc = shmpi_rma_admit_call(win, target, disp, request_form,
                                   MPI_MODE_WIN_ACCUMULATE, fn)) ||
        target == MPI_PROC_NULL)
        return rc;
    shmpi_rma_count(win, SHMPI_RMA_ACCS);
    struct shmpi_rma_loc loc;
    if ((rc = shmpi_rma_locate(win, target, disp, tcount, ttype, fn, &loc)))
        return rc;
    uint64_t len = reads_only ? shmpi_rma_bytes(tcount, ttype)
                              : shmpi_rma_bytes(ocount, otype);
    const void *src = obuf; /* where the library reads and writes them */
    void *res = rbuf;
    if (shmpi_core_checking()) {
        shmpi_rma_local_enter(win);
        shmpi_rma_conflict_note(win, target, disp, len, ttype,
                                MPI_MODE_WIN_ACCUMULATE, op, fn);
        if (!request_form && !reads_only)
            shmpi_rma_origin_record(win, target, disp, obuf, ocount, otype,
                                    fn);
        /* origin and result in watched window memory: through its
           unprotected mapping (local_check.c); the result elsewhere:
           the library's writes, let through */
        if (!reads_only)
            src = shmpi_rma_local_unwatched(obuf, ocount, otype, 0);
        if (fetching)
            res = shmpi_rma_local_unwatched(rbuf, rcount, rtype, 1);
        shmpi_rma_watch_quiet(1);
    }
    rc = shmpi_rma_apply(win, target, &loc, ttype, op, src, otype, res,
                         fetching ? rtype : NULL, len, fn);
    if (shmpi_core_checking()) {
        shmpi_rma_watch_quiet(0);
        if (fetching && !request_form && rc == MPI_SUCCESS)
            shmpi_rma_result_watch(win, target, disp, rbuf, rcount, rtype,
                                   fn);
        shmpi_rma_local_leave(win); /* what came meanwhile, armed */
    }
    return rc;
}

int PMPI_Accumulate(const void *origin_addr, int origin_count,
                    MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    SHMPI_REQUIRE_INIT("MPI_Accumulate");
    return shmpi_rma_get_accumulate(origin_addr, origin_count, origin_datatype,
                                    NULL, 0, NULL, target_rank, target_disp,
                                    target_count, target_datatype, op, win, 0,
                                    0, "MPI_Accumulate");
}

int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count,
                      MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Count target_count,
                      MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    SHMPI_REQUIRE_INIT("MPI_Accumulate_c");
    return shmpi_rma_get_accumulate(origin_addr, origin_count, origin_datatype,
                                    NULL, 0, NULL, target_rank, target_disp,
                                    target_count, target_datatype, op, win, 0,
                                    0, "MPI_Accumulate_c");
}

int PMPI_Get_accumulate(const void *origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, void *result_addr,
                        int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype,
                        MPI_Op op, MPI_Win win)
{
    SHMPI_REQUIRE_INIT("MPI_Get_accumulate");
    return shmpi_rma_get_accumulate(
        origin_addr, origin_count, origin_datatype, result_addr, result_count,
        result_datatype, target_rank, target_disp, target_count,
        target_datatype, op, win, 1, 0, "MPI_Get_accumulate");
}

int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, void *result_addr,
                          MPI_Count result_count, MPI_Datatype result_datatype,
                          int target_rank, MPI_Aint target_disp,
                          MPI_Count target_count, MPI_Datatype target_datatype,
                          MPI_Op op, MPI_Win win)
{
    SHMPI_REQUIRE_INIT("MPI_Get_accumulate_c");
    return shmpi_rma_get_accumulate(
        origin_addr, origin_count, origin_datatype, result_addr, result_count,
        result_datatype, target_rank, target_disp, target_count,
        target_datatype, op, win, 1, 0, "MPI_Get_accumulate_c");
}
