/* op_derived: predefined ops on derived datatypes made of one predefined type, through MPI_Reduce_local: contiguous, vector (also larger than one internal chunk), indexed_block, resized and dup types, MINLOC/MAXLOC on contiguous and strided pairs; the gaps between elements are left alone. */
/* shmpi-test: np=1 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: MPI allows this (5.9.2 defines ops on basic types; a derived type
 * of one basic type reduces elementwise) and MPICH does it, but Open MPI
 * 4.1 refuses predefined ops on every derived type with MPI_ERR_OP.
 */
#include "check.h"

#define GAP (-12345)

/* The reference: positions pos[0..n) of buf hold the type's elements. */
static void check_positions(const char *what, const double *got,
                            const double *in, const double *before,
                            int total, const int *pos, int n,
                            double (*op)(double, double))
{
    int k = 0;
    for (int i = 0; i < total; i++) {
        double want = before[i];
        if (k < n && pos[k] == i)
            want = op(in[pos[k++]], before[i]);
        CHECK(got[i] == want, "%s: element %d is %g, want %g", what, i,
              got[i], want);
    }
}

static double sum(double a, double b) { return a + b; }
static double max(double a, double b) { return a > b ? a : b; }

static void fill(double *in, double *io, double *copy, int n)
{
    for (int i = 0; i < n; i++) {
        in[i] = (i * 7) % 11 - 5;
        io[i] = copy[i] = (i * 5) % 13 - 6;
    }
}

static void check_contiguous(void)
{
    enum { N = 15 };
    double in[N], io[N], before[N];
    int pos[N];
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_DOUBLE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    fill(in, io, before, N);
    for (int i = 0; i < N; i++)
        pos[i] = i;
    CHECK_MPI(MPI_Reduce_local(in, io, 5, t, MPI_SUM));
    check_positions("contiguous SUM", io, in, before, N, pos, N, sum);
    CHECK_MPI(MPI_Type_free(&t));
}

/* vector(count, 2, 3): two of every three doubles, count 2 */
static void check_vector(void)
{
    enum { BLOCKS = 4, N = 2 * (BLOCKS * 3) };
    double in[N], io[N], before[N];
    int pos[N], n = 0;
    MPI_Datatype t, r;
    CHECK_MPI(MPI_Type_vector(BLOCKS, 2, 3, MPI_DOUBLE, &t));
    /* extent: a whole number of strides, so element 2 follows on */
    CHECK_MPI(MPI_Type_create_resized(t, 0, BLOCKS * 3 * sizeof(double),
                                      &r));
    CHECK_MPI(MPI_Type_commit(&r));
    fill(in, io, before, N);
    for (int i = 0; i < N; i++)
        if (i % 3 != 2)
            pos[n++] = i;
    CHECK_MPI(MPI_Reduce_local(in, io, 2, r, MPI_MAX));
    check_positions("vector MAX", io, in, before, N, pos, n, max);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&r));
}

/* More packed bytes than one internal chunk: every other int of 3 x 5000 */
static void check_big_vector(void)
{
    enum { BLOCKS = 5000, COUNT = 3, N = COUNT * BLOCKS * 2 };
    static int in[N], io[N];
    MPI_Datatype t, r;
    CHECK_MPI(MPI_Type_vector(BLOCKS, 1, 2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_resized(t, 0, 2 * BLOCKS * sizeof(int), &r));
    CHECK_MPI(MPI_Type_commit(&r));
    for (int i = 0; i < N; i++) {
        in[i] = i % 2 ? GAP : i;
        io[i] = i % 2 ? GAP : 3 * i;
    }
    CHECK_MPI(MPI_Reduce_local(in, io, COUNT, r, MPI_SUM));
    for (int i = 0; i < N; i++)
        CHECK(io[i] == (i % 2 ? GAP : 4 * i), "big vector: int %d is %d",
              i, io[i]);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&r));
}

/* indexed_block of longs, out of order, with BXOR; and a resized int
   (stride 2) with PROD; and a dup of MPI_FLOAT with MIN */
static void check_other_shapes(void)
{
    long lin[10], lio[10];
    int disp[3] = {7, 1, 4};
    MPI_Datatype ib, rs, dup;
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, disp, MPI_LONG, &ib));
    CHECK_MPI(MPI_Type_commit(&ib));
    for (int i = 0; i < 10; i++) {
        lin[i] = 0x0f0f0f0f0f0fL * (i + 1);
        lio[i] = 0x00ff00ff00ffL * (i + 3);
    }
    CHECK_MPI(MPI_Reduce_local(lin, lio, 1, ib, MPI_BXOR));
    for (int i = 0; i < 10; i++) {
        int in_type = i == 1 || i == 2 || i == 4 || i == 5 || i == 7 ||
                      i == 8;
        long want = 0x00ff00ff00ffL * (i + 3);
        if (in_type)
            want ^= 0x0f0f0f0f0f0fL * (i + 1);
        CHECK(lio[i] == want, "indexed_block BXOR: long %d", i);
    }
    CHECK_MPI(MPI_Type_free(&ib));

    int iin[8], iio[8];
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &rs));
    CHECK_MPI(MPI_Type_commit(&rs));
    for (int i = 0; i < 8; i++) {
        iin[i] = i - 3;
        iio[i] = 2 * i + 1;
    }
    CHECK_MPI(MPI_Reduce_local(iin, iio, 4, rs, MPI_PROD));
    for (int i = 0; i < 8; i++)
        CHECK(iio[i] == (i % 2 ? 2 * i + 1 : (i - 3) * (2 * i + 1)),
              "resized PROD: int %d is %d", i, iio[i]);
    CHECK_MPI(MPI_Type_free(&rs));

    float fin[5] = {1, -2, 3, -4, 5}, fio[5] = {0, 0, 0, 0, 0};
    CHECK_MPI(MPI_Type_dup(MPI_FLOAT, &dup));
    CHECK_MPI(MPI_Reduce_local(fin, fio, 5, dup, MPI_MIN));
    for (int i = 0; i < 5; i++)
        CHECK(fio[i] == (fin[i] < 0 ? fin[i] : 0), "dup MIN: float %d", i);
    CHECK_MPI(MPI_Type_free(&dup));
}

/* 5.9.4: the better value with its index; on a tie the lower index */
#define LOC_REF(T, a, b, better)                                            \
    ((a).v better (b).v ? (a)                                               \
     : (a).v == (b).v && (a).i < (b).i ? (T){(b).v, (a).i} : (b))

/* MINLOC on contiguous 2INT pairs; MAXLOC on every other DOUBLE_INT */
static void check_pairs(void)
{
    struct ii { int v, i; } ia[6], ib[6], iw[6];
    MPI_Datatype c;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_2INT, &c));
    CHECK_MPI(MPI_Type_commit(&c));
    for (int k = 0; k < 6; k++) {
        ia[k] = (struct ii){k % 3, 10 + k};
        ib[k] = (struct ii){1, 20 - k};
        iw[k] = LOC_REF(struct ii, ia[k], ib[k], <);
    }
    CHECK_MPI(MPI_Reduce_local(ia, ib, 2, c, MPI_MINLOC));
    for (int k = 0; k < 6; k++)
        CHECK(ib[k].v == iw[k].v && ib[k].i == iw[k].i, "2INT MINLOC pair "
              "%d: (%d,%d), want (%d,%d)", k, ib[k].v, ib[k].i, iw[k].v,
              iw[k].i);
    CHECK_MPI(MPI_Type_free(&c));

    struct di { double v; int i; } da[8], db[8], dw[8];
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_DOUBLE_INT, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    for (int k = 0; k < 8; k++) {
        da[k] = (struct di){k == 2 ? 1.0 : (k % 4) * 0.75, k};
        db[k] = (struct di){1.0, 8 - k};
        dw[k] = k % 2 ? db[k] : LOC_REF(struct di, da[k], db[k], >);
    }
    CHECK_MPI(MPI_Reduce_local(da, db, 1, v, MPI_MAXLOC));
    for (int k = 0; k < 8; k++)
        CHECK(db[k].v == dw[k].v && db[k].i == dw[k].i, "DOUBLE_INT MAXLOC "
              "pair %d: (%g,%d), want (%g,%d)", k, db[k].v, db[k].i,
              dw[k].v, dw[k].i);
    CHECK_MPI(MPI_Type_free(&v));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    check_contiguous();
    check_vector();
    check_big_vector();
    check_other_shapes();
    check_pairs();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
