/* op_errors: the error classes of MPI_Reduce_local, MPI_Op_free and MPI_Op_commutative that the standard fixes, under MPI_ERRORS_RETURN: a negative count, MPI_OP_NULL, MPI_REPLACE/MPI_NO_OP (RMA only), an op on a type outside its groups (5.9.2, 5.9.4), freeing a predefined op; nothing is changed on error. */
/* shmpi-test: np=1 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Left to op_errors_ext, because Open MPI 4.1 answers differently:
 * an invalid or uncommitted datatype (Open MPI: MPI_ERR_OP), NULL or
 * aliased buffers (Open MPI crashes or reduces anyway), and the pairs
 * beyond the standard's groups that Open MPI or MPICH accepts (MPI_SUM on
 * MPI_BYTE; MPI_SUM on MPI_CHAR, which shmpi accepts as both do).
 */
#include "check.h"

static void noop_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)len, (void)dt;
}

/* inoutbuf is filled with 0x5a before each call that must fail, and must
   still be after it */
static unsigned char in[64], io[64];

static void expect_op_error(MPI_Op op, MPI_Datatype dt, const char *what)
{
    memset(io, 0x5a, sizeof io);
    int rc = MPI_Reduce_local(in, io, 1, dt, op);
    int cls = -1;
    CHECK(rc != MPI_SUCCESS, "%s was accepted", what);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_OP, "%s gave class %d, expected MPI_ERR_OP", what,
          cls);
    for (size_t i = 0; i < sizeof io; i++)
        CHECK(io[i] == 0x5a, "%s changed inoutbuf", what);
}

int main(int argc, char **argv)
{
    int commute;
    MPI_Op op;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    CHECK_CLASS(MPI_Reduce_local(in, io, -1, MPI_INT, MPI_SUM),
                MPI_ERR_COUNT);
    expect_op_error(MPI_OP_NULL, MPI_INT, "MPI_OP_NULL");
    expect_op_error(MPI_REPLACE, MPI_INT, "MPI_REPLACE");
    expect_op_error(MPI_NO_OP, MPI_INT, "MPI_NO_OP");

    /* outside the groups of 5.9.2 */
    expect_op_error(MPI_LAND, MPI_FLOAT, "MPI_LAND on MPI_FLOAT");
    expect_op_error(MPI_LOR, MPI_DOUBLE, "MPI_LOR on MPI_DOUBLE");
    expect_op_error(MPI_BXOR, MPI_FLOAT, "MPI_BXOR on MPI_FLOAT");
    expect_op_error(MPI_LAND, MPI_INTEGER, "MPI_LAND on MPI_INTEGER");
    expect_op_error(MPI_SUM, MPI_LOGICAL, "MPI_SUM on MPI_LOGICAL");
    expect_op_error(MPI_SUM, MPI_C_BOOL, "MPI_SUM on MPI_C_BOOL");
    expect_op_error(MPI_BAND, MPI_C_BOOL, "MPI_BAND on MPI_C_BOOL");
    expect_op_error(MPI_MAX, MPI_C_FLOAT_COMPLEX,
                    "MPI_MAX on MPI_C_FLOAT_COMPLEX");
    expect_op_error(MPI_SUM, MPI_WCHAR, "MPI_SUM on MPI_WCHAR");
    expect_op_error(MPI_SUM, MPI_PACKED, "MPI_SUM on MPI_PACKED");
    /* MINLOC/MAXLOC take the pair types, and only they (5.9.4) */
    expect_op_error(MPI_MAXLOC, MPI_INT, "MPI_MAXLOC on MPI_INT");
    expect_op_error(MPI_MINLOC, MPI_DOUBLE, "MPI_MINLOC on MPI_DOUBLE");
    expect_op_error(MPI_SUM, MPI_2INT, "MPI_SUM on MPI_2INT");
    expect_op_error(MPI_MAX, MPI_DOUBLE_INT, "MPI_MAX on MPI_DOUBLE_INT");

    /* predefined ops cannot be freed; MPI_OP_NULL is no op */
    op = MPI_SUM;
    CHECK_CLASS(MPI_Op_free(&op), MPI_ERR_OP);
    CHECK(op == MPI_SUM, "a failed MPI_Op_free changed the handle");
    op = MPI_OP_NULL;
    CHECK_CLASS(MPI_Op_free(&op), MPI_ERR_OP);
    CHECK_CLASS(MPI_Op_commutative(MPI_OP_NULL, &commute), MPI_ERR_OP);

    /* a freed op's handle is MPI_OP_NULL, and freeing that fails */
    CHECK_MPI(MPI_Op_create(noop_fn, 1, &op));
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_CLASS(MPI_Op_free(&op), MPI_ERR_OP);

    CHECK_MPI(MPI_Finalize());
    return 0;
}
