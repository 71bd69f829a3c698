/* op_user: MPI_Op_create ops through MPI_Reduce_local: a non-commutative 2x2 matrix product on a derived type gets its arguments in the right order (inoutbuf = inbuf op inoutbuf), the user function sees the caller's datatype and count, MPI_Op_commutative reports the flag, MPI_Op_free resets the handle. */
/* shmpi-test: np=1 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

typedef struct { double m[2][2]; } mat;

static MPI_Datatype seen_type;
static int seen_len, calls;

/* inout[i] = in[i] x inout[i]: matrix product, which does not commute */
static void matmul(void *in_, void *inout_, int *len, MPI_Datatype *dt)
{
    mat *in = in_, *io = inout_;
    seen_type = *dt;
    seen_len = *len;
    calls++;
    for (int k = 0; k < *len; k++) {
        mat r;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                r.m[i][j] = in[k].m[i][0] * io[k].m[0][j] +
                            in[k].m[i][1] * io[k].m[1][j];
        io[k] = r;
    }
}

/* inout[i] = 2 * in[i] + inout[i] on ints */
static void twice_plus(void *in_, void *inout_, int *len, MPI_Datatype *dt)
{
    const int *in = in_;
    int *io = inout_;
    seen_type = *dt;
    calls++;
    for (int k = 0; k < *len; k++)
        io[k] += 2 * in[k];
}

static mat product(mat a, mat b)
{
    mat r;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j];
    return r;
}

static void check_matrices(void)
{
    enum { N = 5 };
    MPI_Datatype mtype;
    MPI_Op op;
    mat a[N], b[N], want[N];
    int commute = -1;

    CHECK_MPI(MPI_Type_contiguous(4, MPI_DOUBLE, &mtype));
    CHECK_MPI(MPI_Type_commit(&mtype));
    CHECK_MPI(MPI_Op_create(matmul, 0, &op));
    CHECK_MPI(MPI_Op_commutative(op, &commute));
    CHECK(commute == 0, "a non-commutative op reports commute=%d", commute);

    for (int k = 0; k < N; k++) {
        a[k] = (mat){{{1, k + 1}, {0, 1}}};
        b[k] = (mat){{{1, 0}, {k + 2, 1}}};
        want[k] = product(a[k], b[k]);
    }
    /* the two orders really differ */
    mat ba = product(b[0], a[0]);
    CHECK(ba.m[0][0] != want[0].m[0][0], "test matrices commute");

    calls = 0;
    CHECK_MPI(MPI_Reduce_local(a, b, N, mtype, op));
    CHECK(calls >= 1, "user function not called");
    CHECK(seen_type == mtype, "user function got another datatype");
    CHECK(seen_len == N || calls > 1, "user function got len %d for %d",
          seen_len, N);
    for (int k = 0; k < N; k++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                CHECK(b[k].m[i][j] == want[k].m[i][j],
                      "matrix %d [%d][%d] = %g, want %g (inbuf x "
                      "inoutbuf)", k, i, j, b[k].m[i][j],
                      want[k].m[i][j]);
    /* inbuf is left alone */
    CHECK(a[2].m[0][1] == 3 && a[2].m[1][0] == 0, "inbuf was changed");

    CHECK_MPI(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "MPI_Op_free did not reset the handle");
    CHECK_MPI(MPI_Type_free(&mtype));
}

static void check_ints(void)
{
    enum { N = 100 };
    MPI_Op op;
    int in[N], io[N], commute = -1;

    CHECK_MPI(MPI_Op_create(twice_plus, 1, &op));
    CHECK_MPI(MPI_Op_commutative(op, &commute));
    CHECK(commute, "a commutative op reports commute=0");
    for (int k = 0; k < N; k++) {
        in[k] = k - 50;
        io[k] = 3 * k;
    }
    calls = 0;
    CHECK_MPI(MPI_Reduce_local(in, io, N, MPI_INT, op));
    CHECK(calls >= 1 && seen_type == MPI_INT, "user function not called "
          "with MPI_INT");
    for (int k = 0; k < N; k++)
        CHECK(io[k] == 2 * (k - 50) + 3 * k, "element %d = %d", k, io[k]);

    /* count 0 changes nothing */
    io[0] = 7;
    CHECK_MPI(MPI_Reduce_local(in, io, 0, MPI_INT, op));
    CHECK(io[0] == 7, "count 0 changed inoutbuf");

    /* two ops are two objects */
    MPI_Op op2;
    CHECK_MPI(MPI_Op_create(twice_plus, 1, &op2));
    CHECK(op2 != op, "MPI_Op_create returned the same handle twice");
    CHECK_MPI(MPI_Op_free(&op2));
    CHECK_MPI(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "MPI_Op_free did not reset the handle");
}

static void check_predefined_commute(void)
{
    MPI_Op all[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND,
                    MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR,
                    MPI_MAXLOC, MPI_MINLOC};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        int commute = -1;
        CHECK_MPI(MPI_Op_commutative(all[i], &commute));
        CHECK(commute, "predefined op %zu is not commutative", i);
    }
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    check_matrices();
    check_ints();
    check_predefined_commute();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
