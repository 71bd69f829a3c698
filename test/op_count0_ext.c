/* op_count0_ext: a count of 0 is never an error for the op: every reduction (MPI_Reduce_local, MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter_block, MPI_Reduce_scatter, MPI_Scan, MPI_Exscan, the I- forms) and every accumulate (MPI_Accumulate, MPI_Get_accumulate, MPI_Raccumulate, MPI_Rget_accumulate; MPI_BYTE with every op) accepts with count 0 an op the type does not take, and changes nothing; the same pairs are refused with count 1, and an op the call never takes (MPI_OP_NULL, MPI_REPLACE in a reduction, MPI_NO_OP in MPI_Accumulate, a user op in RMA) still is with count 0. */
/* shmpi-test: np=1,2,3 timeout=60 ext */
/* shmpi-test-nocheck: it uses, on purpose, op/type pairs outside MPI-3.1 5.9.2's groups (count 0 included), which the check mode reports as not portable. */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: Open MPI 4.1 checks the op against the type whatever the count;
 * MPICH 4.0 does in reductions, not in accumulates.
 */
#include "op_groups.h"

enum { LEN = 16 };

static int rank, size;
static unsigned char sbuf[LEN], rbuf[LEN];

/* A type and an op on it that no reduction takes (and no accumulate). */
static const struct {
    MPI_Datatype t;
    MPI_Op op;
    const char *what;
} odd[] = {
    {MPI_DOUBLE, MPI_BAND, "MPI_BAND on MPI_DOUBLE"},
    {MPI_C_BOOL, MPI_SUM, "MPI_SUM on MPI_C_BOOL"},
    {MPI_INT, MPI_MAXLOC, "MPI_MAXLOC on MPI_INT"},
    {MPI_FLOAT_INT, MPI_LAND, "MPI_LAND on MPI_FLOAT_INT"},
};
#define NODD (int)(sizeof odd / sizeof odd[0])

static void reset(void)
{
    memset(sbuf, 0x11, sizeof sbuf);
    memset(rbuf, 0x5a, sizeof rbuf);
}

static void untouched(const char *call, const char *what)
{
    for (int i = 0; i < LEN; i++)
        CHECK(rbuf[i] == 0x5a, "%s with %s, count 0, changed recvbuf",
              call, what);
}

static void done(MPI_Request *req)
{
    CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
}

static void check_reductions(MPI_Datatype t, MPI_Op op, const char *what)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Request req;
    int zeros[64] = {0};
    reset();
    CHECK_MPI(MPI_Reduce_local(sbuf, rbuf, 0, t, op));
    untouched("MPI_Reduce_local", what);
    CHECK_MPI(MPI_Reduce(sbuf, rbuf, 0, t, op, 0, comm));
    untouched("MPI_Reduce", what);
    CHECK_MPI(MPI_Allreduce(sbuf, rbuf, 0, t, op, comm));
    untouched("MPI_Allreduce", what);
    CHECK_MPI(MPI_Reduce_scatter_block(sbuf, rbuf, 0, t, op, comm));
    untouched("MPI_Reduce_scatter_block", what);
    CHECK_MPI(MPI_Reduce_scatter(sbuf, rbuf, zeros, t, op, comm));
    untouched("MPI_Reduce_scatter", what);
    CHECK_MPI(MPI_Scan(sbuf, rbuf, 0, t, op, comm));
    untouched("MPI_Scan", what);
    CHECK_MPI(MPI_Exscan(sbuf, rbuf, 0, t, op, comm));
    untouched("MPI_Exscan", what);
    CHECK_MPI(MPI_Ireduce(sbuf, rbuf, 0, t, op, 0, comm, &req));
    done(&req);
    untouched("MPI_Ireduce", what);
    CHECK_MPI(MPI_Iallreduce(sbuf, rbuf, 0, t, op, comm, &req));
    done(&req);
    untouched("MPI_Iallreduce", what);
    CHECK_MPI(MPI_Ireduce_scatter_block(sbuf, rbuf, 0, t, op, comm, &req));
    done(&req);
    untouched("MPI_Ireduce_scatter_block", what);
    CHECK_MPI(MPI_Ireduce_scatter(sbuf, rbuf, zeros, t, op, comm, &req));
    done(&req);
    untouched("MPI_Ireduce_scatter", what);
    CHECK_MPI(MPI_Iscan(sbuf, rbuf, 0, t, op, comm, &req));
    done(&req);
    untouched("MPI_Iscan", what);
    CHECK_MPI(MPI_Iexscan(sbuf, rbuf, 0, t, op, comm, &req));
    done(&req);
    untouched("MPI_Iexscan", what);
    /* with an element, the pair is wrong */
    CHECK_CLASS(MPI_Allreduce(sbuf, rbuf, 1, t, op, comm), MPI_ERR_OP);
    CHECK_CLASS(MPI_Iallreduce(sbuf, rbuf, 1, t, op, comm, &req),
                MPI_ERR_OP);
}

static void check_accumulates(MPI_Win win, unsigned char *base,
                              MPI_Datatype t, MPI_Op op, const char *what)
{
    int right = (rank + 1) % size;
    MPI_Request req;
    reset();
    CHECK_MPI(MPI_Accumulate(sbuf, 0, t, right, 0, 0, t, op, win));
    CHECK_MPI(MPI_Get_accumulate(sbuf, 0, t, rbuf, 0, t, right, 0, 0, t, op,
                                 win));
    CHECK_MPI(MPI_Raccumulate(sbuf, 0, t, right, 0, 0, t, op, win, &req));
    done(&req);
    CHECK_MPI(MPI_Rget_accumulate(sbuf, 0, t, rbuf, 0, t, right, 0, 0, t,
                                  op, win, &req));
    done(&req);
    CHECK_MPI(MPI_Win_flush_all(win));
    untouched("MPI_Get_accumulate", what);
    CHECK_CLASS(MPI_Accumulate(sbuf, 1, t, right, 0, 1, t, op, win),
                MPI_ERR_OP);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < LEN; i++)
        CHECK(base[i] == 0x33, "%s, count 0, changed the window", what);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* MPI_BYTE with every predefined op, MPI_NO_OP included, in
   MPI_Get_accumulate. */
static void check_byte(MPI_Win win)
{
    int right = (rank + 1) % size;
    reset();
    for (int op = 0; op < NOPS; op++)
        CHECK_MPI(MPI_Get_accumulate(sbuf, 0, MPI_BYTE, rbuf, 0, MPI_BYTE,
                                     right, 0, 0, MPI_BYTE, op_handle(op),
                                     win));
    CHECK_MPI(MPI_Win_flush_all(win));
    untouched("MPI_Get_accumulate", "MPI_BYTE");
}

static void user_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)len, (void)dt;
}

/* What stays wrong with nothing to compute. */
static void check_refusals(MPI_Win win)
{
    int right = (rank + 1) % size;
    MPI_Op user;
    CHECK_MPI(MPI_Op_create(user_fn, 1, &user));
    CHECK_CLASS(MPI_Allreduce(sbuf, rbuf, 0, MPI_INT, MPI_OP_NULL,
                              MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_CLASS(MPI_Allreduce(sbuf, rbuf, 0, MPI_INT, MPI_REPLACE,
                              MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_CLASS(MPI_Reduce_local(sbuf, rbuf, 0, MPI_INT, MPI_NO_OP),
                MPI_ERR_OP);
    CHECK_CLASS(MPI_Accumulate(sbuf, 0, MPI_INT, right, 0, 0, MPI_INT,
                               MPI_OP_NULL, win), MPI_ERR_OP);
    CHECK_CLASS(MPI_Accumulate(sbuf, 0, MPI_INT, right, 0, 0, MPI_INT,
                               MPI_NO_OP, win), MPI_ERR_OP);
    CHECK_CLASS(MPI_Get_accumulate(sbuf, 0, MPI_INT, rbuf, 0, MPI_INT, right,
                                   0, 0, MPI_INT, user, win), MPI_ERR_OP);
    CHECK_MPI(MPI_Op_free(&user));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    unsigned char *base;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(LEN, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                               &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    memset(base, 0x33, LEN);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < NODD; i++) {
        check_reductions(odd[i].t, odd[i].op, odd[i].what);
        check_accumulates(win, base, odd[i].t, odd[i].op, odd[i].what);
    }
    check_byte(win);
    check_refusals(win);
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
