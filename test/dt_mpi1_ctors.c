/* dt_mpi1_ctors: the MPI-1 datatype calls removed in MPI-3.0 (deprecated names in shmpi): MPI_Address as MPI_Get_address, a struct of absolute addresses sent from MPI_BOTTOM, MPI_Type_hvector and MPI_Type_hindexed as their MPI_Type_create_ twins (bounds, combiner and contents, the bytes they select), MPI_Type_extent/lb/ub, and the error classes of bad arguments. */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MPI-2.2 2.6.1: in C the MPI-1 calls are equivalent to the MPI-2 ones;
 * 4.1.13: the C calls give the combiners MPI_COMBINER_HVECTOR, _HINDEXED
 * and _STRUCT (what Open MPI and MPICH return), never the _INTEGER ones.
 */
/* The calls under test are deprecated: their warnings are expected. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include "dt_check.h"

#include <string.h>

static void addresses(void)
{
    double a[4];
    MPI_Aint x = 0, y = 0;
    CHECK_MPI(MPI_Address(&a[3], &x));
    CHECK_MPI(MPI_Get_address(&a[3], &y));
    CHECK(x == y, "MPI_Address %ld, MPI_Get_address %ld", (long)x, (long)y);
    CHECK_MPI(MPI_Address(&a[0], &y));
    CHECK(x - y == 3 * (MPI_Aint)sizeof(double), "addresses of a[0], a[3] "
          "are %ld apart", (long)(x - y));
}

/* Both the MPI-1 and the MPI-2 type: the same bounds, the same bytes. */
static void same_type(MPI_Datatype old, MPI_Datatype twin, const char *what)
{
    MPI_Count s1, s2;
    MPI_Aint lb1, e1, lb2, e2, t1, te1, t2, te2, lb, ub, extent;
    CHECK_MPI(MPI_Type_size_x(old, &s1));
    CHECK_MPI(MPI_Type_size_x(twin, &s2));
    CHECK_MPI(MPI_Type_get_extent(old, &lb1, &e1));
    CHECK_MPI(MPI_Type_get_extent(twin, &lb2, &e2));
    CHECK_MPI(MPI_Type_get_true_extent(old, &t1, &te1));
    CHECK_MPI(MPI_Type_get_true_extent(twin, &t2, &te2));
    CHECK(s1 == s2 && lb1 == lb2 && e1 == e2 && t1 == t2 && te1 == te2,
          "%s: size %lld lb %ld extent %ld true %ld %ld, the MPI-2 twin "
          "%lld %ld %ld %ld %ld", what, s1, (long)lb1, (long)e1, (long)t1,
          (long)te1, s2, (long)lb2, (long)e2, (long)t2, (long)te2);
    CHECK_MPI(MPI_Type_lb(old, &lb));
    CHECK_MPI(MPI_Type_ub(old, &ub));
    CHECK_MPI(MPI_Type_extent(old, &extent));
    CHECK(lb == lb1 && extent == e1 && ub == lb1 + e1,
          "%s: MPI_Type_lb/ub/extent %ld %ld %ld, get_extent %ld %ld", what,
          (long)lb, (long)ub, (long)extent, (long)lb1, (long)e1);

    int src[64], p1[64], p2[64], pos1 = 0, pos2 = 0;
    for (int i = 0; i < 64; i++)
        src[i] = i * 7 + 1;
    CHECK_MPI(MPI_Type_commit(&old));
    CHECK_MPI(MPI_Type_commit(&twin));
    CHECK_MPI(MPI_Pack(src, 1, old, p1, sizeof p1, &pos1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack(src, 1, twin, p2, sizeof p2, &pos2, MPI_COMM_WORLD));
    CHECK(pos1 == pos2 && memcmp(p1, p2, (size_t)pos1) == 0,
          "%s: packs other bytes than its MPI-2 twin", what);
    CHECK_MPI(MPI_Type_free(&old));
    CHECK_MPI(MPI_Type_free(&twin));
}

static void expect_envelope(MPI_Datatype t, int combiner, int ni, int na,
                            int nd, const char *what)
{
    int i, a, d, c;
    CHECK_MPI(MPI_Type_get_envelope(t, &i, &a, &d, &c));
    CHECK(c == combiner && i == ni && a == na && d == nd,
          "%s: combiner %d, %d ints, %d addresses, %d types; expected %d "
          "%d %d %d", what, c, i, a, d, combiner, ni, na, nd);
}

static void hvector(void)
{
    MPI_Datatype t, twin, got;
    int ints[2];
    MPI_Aint stride;
    CHECK_MPI(MPI_Type_hvector(3, 2, 20, MPI_INT, &t));
    expect_envelope(t, MPI_COMBINER_HVECTOR, 2, 1, 1, "MPI_Type_hvector");
    CHECK_MPI(MPI_Type_get_contents(t, 2, 1, 1, ints, &stride, &got));
    CHECK(ints[0] == 3 && ints[1] == 2 && stride == 20 && got == MPI_INT,
          "MPI_Type_hvector's contents: %d %d %ld", ints[0], ints[1],
          (long)stride);
    CHECK_MPI(MPI_Type_create_hvector(3, 2, 20, MPI_INT, &twin));
    same_type(t, twin, "hvector(3, 2, 20 bytes, int)");
    /* a negative stride in bytes: doubles at 0 and -12, 20 bytes
       rounded up to the alignment of a double */
    CHECK_MPI(MPI_Type_hvector(2, 1, -12, MPI_DOUBLE, &t));
    expect(t, "hvector(2, 1, -12, double)", (struct bounds){16, -12, 24,
                                                           -12, 20});
    CHECK_MPI(MPI_Type_free(&t));
}

static void hindexed(void)
{
    MPI_Datatype t, twin, got;
    int lens[3] = {2, 0, 3}, ints[4];
    MPI_Aint disps[3] = {40, 4, 0}, addrs[3];
    CHECK_MPI(MPI_Type_hindexed(3, lens, disps, MPI_INT, &t));
    expect_envelope(t, MPI_COMBINER_HINDEXED, 4, 3, 1, "MPI_Type_hindexed");
    CHECK_MPI(MPI_Type_get_contents(t, 4, 3, 1, ints, addrs, &got));
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 0 && ints[3] == 3 &&
          addrs[0] == 40 && addrs[1] == 4 && addrs[2] == 0 &&
          got == MPI_INT, "MPI_Type_hindexed's contents");
    CHECK_MPI(MPI_Type_create_hindexed(3, lens, disps, MPI_INT, &twin));
    same_type(t, twin, "hindexed({2@40, 0@4, 3@0}, int)");
}

/* The textbook use of MPI_Address: a struct of absolute addresses,
   sent and received from MPI_BOTTOM. */
static void absolute_struct(int rank, int size)
{
    struct { int n; char pad[20]; double x[2]; } in, out;
    MPI_Aint a[2];
    CHECK_MPI(MPI_Address(&in.n, &a[0]));
    CHECK_MPI(MPI_Address(in.x, &a[1]));
    MPI_Datatype tin, tout;
    CHECK_MPI(MPI_Type_struct(2, (int[]){1, 2}, a,
                              (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &tin));
    expect_envelope(tin, MPI_COMBINER_STRUCT, 3, 2, 2, "MPI_Type_struct");
    CHECK_MPI(MPI_Address(&out.n, &a[0]));
    CHECK_MPI(MPI_Address(out.x, &a[1]));
    CHECK_MPI(MPI_Type_struct(2, (int[]){1, 2}, a,
                              (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &tout));
    CHECK_MPI(MPI_Type_commit(&tin));
    CHECK_MPI(MPI_Type_commit(&tout));
    in.n = 1000 + rank;
    in.x[0] = rank + 0.25;
    in.x[1] = rank - 0.5;
    memset(&out, 0, sizeof out);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    CHECK_MPI(MPI_Sendrecv(MPI_BOTTOM, 1, tin, to, 3, MPI_BOTTOM, 1, tout,
                           from, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(out.n == 1000 + from && out.x[0] == from + 0.25 &&
          out.x[1] == from - 0.5, "received %d %g %g from rank %d", out.n,
          out.x[0], out.x[1], from);
    CHECK_MPI(MPI_Type_free(&tin));
    CHECK_MPI(MPI_Type_free(&tout));
}

/* Bad arguments: the classes of the MPI-2 calls, handler on
   MPI_COMM_WORLD (set to return by main). */
static void errors(void)
{
    MPI_Datatype t;
    MPI_Aint x;
    CHECK_CLASS(MPI_Type_hvector(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Type_hvector(1, 1, 8, MPI_DATATYPE_NULL, &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_hindexed(1, (int[]){-2}, (MPI_Aint[]){0}, MPI_INT,
                                  &t), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                                (MPI_Datatype[]){MPI_INT, MPI_DATATYPE_NULL},
                                &t), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_struct(1, (int[]){1}, (MPI_Aint[]){0},
                                (MPI_Datatype[]){MPI_INT}, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_extent(MPI_DATATYPE_NULL, &x), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_lb(MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_ub(MPI_DATATYPE_NULL, &x), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Address(&x, NULL), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    addresses();
    hvector();
    hindexed();
    absolute_struct(rank, size);
    errors();
    MPI_Finalize();
    return 0;
}
