/* op_errors_ext: argument checks of the reduction calls that the standard leaves open or where Open MPI answers differently, as shmpi does them: bad and uncommitted datatypes, NULL/MPI_IN_PLACE/aliased buffers, ops on types outside the groups of 5.9.2 that only one of Open MPI and MPICH accepts, mixed derived types, NULL pointers; MPI_BOTTOM with absolute addresses is fine. */
/* shmpi-test: np=1 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

static int calls, seen_code;
static MPI_Comm seen_comm;
static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    seen_comm = *comm;
    seen_code = *code;
}

static void noop_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)len, (void)dt;
}

static int a[16], b[16];

static void expect(int rc, int cls, const char *what)
{
    int got = -1;
    CHECK(rc != MPI_SUCCESS, "%s was accepted", what);
    CHECK_MPI(MPI_Error_class(rc, &got));
    CHECK(got == cls, "%s: class %d, expected %d", what, got, cls);
}

static void check_types(void)
{
    MPI_Datatype t, mixed;
    expect(MPI_Reduce_local(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM),
           MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    expect(MPI_Reduce_local(a, b, 1, t, MPI_SUM), MPI_ERR_TYPE,
           "an uncommitted type");
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Reduce_local(a, b, 1, t, MPI_SUM));
    expect(MPI_Reduce_local(a, b, 1, t, MPI_MINLOC), MPI_ERR_OP,
           "MPI_MINLOC on a contiguous of MPI_INT");
    CHECK_MPI(MPI_Type_free(&t));

    /* predefined ops need one basic type; user ops take anything */
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &mixed));
    CHECK_MPI(MPI_Type_commit(&mixed));
    expect(MPI_Reduce_local(a, b, 1, mixed, MPI_SUM), MPI_ERR_OP,
           "MPI_SUM on int+double");
    MPI_Op op;
    CHECK_MPI(MPI_Op_create(noop_fn, 1, &op));
    CHECK_MPI(MPI_Reduce_local(a, b, 1, mixed, op));
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Type_free(&mixed));
}

/* Beyond the groups of 5.9.2, Open MPI 4.1 accepts the first two and
   MPICH 4.0 the next two, but not both: a program using them is bound to
   one library.  (What both accept, shmpi does: op_groups_ext.)  The
   optional types are Open MPI's and MPICH's to lack. */
static void check_outside_groups(void)
{
    static const struct { MPI_Op op; MPI_Datatype t; const char *what; }
        bad[] = {
        {MPI_SUM, MPI_BYTE, "MPI_SUM on MPI_BYTE"},
        {MPI_MAX, MPI_BYTE, "MPI_MAX on MPI_BYTE"},
        {MPI_LAND, MPI_INTEGER, "MPI_LAND on MPI_INTEGER"},
        {MPI_LOR, MPI_DOUBLE, "MPI_LOR on MPI_DOUBLE"},
        {MPI_LOR, MPI_INTEGER16, "MPI_LOR on MPI_INTEGER16"},
        {MPI_MIN, MPI_COMPLEX4, "MPI_MIN on MPI_COMPLEX4"},
        {MPI_BOR, MPI_REAL2, "MPI_BOR on MPI_REAL2"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect(MPI_Reduce_local(a, b, 1, bad[i].t, bad[i].op), MPI_ERR_OP,
               bad[i].what);
}

static void check_buffers(void)
{
    expect(MPI_Reduce_local(NULL, b, 1, MPI_INT, MPI_SUM), MPI_ERR_BUFFER,
           "NULL inbuf");
    expect(MPI_Reduce_local(a, NULL, 1, MPI_INT, MPI_SUM), MPI_ERR_BUFFER,
           "NULL inoutbuf");
    expect(MPI_Reduce_local(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM),
           MPI_ERR_BUFFER, "MPI_IN_PLACE");
    expect(MPI_Reduce_local(a, a, 4, MPI_INT, MPI_SUM), MPI_ERR_BUFFER,
           "inbuf == inoutbuf");
    expect(MPI_Reduce_local(a, a + 2, 4, MPI_INT, MPI_SUM), MPI_ERR_BUFFER,
           "overlapping buffers");
    /* nothing to read: fine */
    CHECK_MPI(MPI_Reduce_local(NULL, NULL, 0, MPI_INT, MPI_SUM));
    CHECK_MPI(MPI_Reduce_local(a, a + 4, 4, MPI_INT, MPI_SUM));

    /* MPI_BOTTOM with a type whose displacement is b's address; inbuf
       is the base that puts that displacement on a */
    MPI_Datatype absolute;
    MPI_Aint where;
    int one = 1;
    a[0] = 5;
    b[0] = 7;
    CHECK_MPI(MPI_Get_address(&b[0], &where));
    CHECK_MPI(MPI_Type_create_hindexed(1, &one, &where, MPI_INT, &absolute));
    CHECK_MPI(MPI_Type_commit(&absolute));
    void *in_base = (void *)((uintptr_t)a - (uintptr_t)where);
    CHECK_MPI(MPI_Reduce_local(in_base, MPI_BOTTOM, 1, absolute, MPI_SUM));
    CHECK(b[0] == 12, "MPI_BOTTOM reduction gave %d", b[0]);
    CHECK_MPI(MPI_Type_free(&absolute));
}

static void check_op_calls(void)
{
    MPI_Op op;
    int commute;
    expect(MPI_Op_create(NULL, 1, &op), MPI_ERR_ARG, "NULL user_fn");
    expect(MPI_Op_create(noop_fn, 1, NULL), MPI_ERR_ARG, "NULL op");
    expect(MPI_Op_free(NULL), MPI_ERR_ARG, "MPI_Op_free(NULL)");
    expect(MPI_Op_commutative(MPI_SUM, NULL), MPI_ERR_ARG,
           "NULL commute");
    op = MPI_MAX;
    expect(MPI_Op_free(&op), MPI_ERR_OP, "freeing MPI_MAX");
    op = MPI_REPLACE;
    expect(MPI_Op_free(&op), MPI_ERR_OP, "freeing MPI_REPLACE");
    CHECK_MPI(MPI_Op_commutative(MPI_REPLACE, &commute));
    CHECK(commute, "MPI_REPLACE reports not commutative");
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    check_types();
    check_outside_groups();
    check_buffers();
    check_op_calls();

    /* the errors of these calls go to MPI_COMM_WORLD's handler */
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    int rc = MPI_Reduce_local(a, b, 1, MPI_FLOAT, MPI_BAND);
    CHECK(calls == 1 && seen_comm == MPI_COMM_WORLD && seen_code == rc,
          "handler called %d times", calls);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
