/* dt_elements_pairs_ext: the MINLOC/MAXLOC pair types hold two basic elements each for MPI_Get_elements(_x) and MPI_Status_set_elements (MPI-3.1 5.9.4 defines them as a contiguous or struct type of two), also for partial receives. */
/* shmpi-test: np=2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Standard behaviour, but marked ext because Open MPI 4.1 counts a pair
 * as one basic element (4 ints received as MPI_2INT give 2 there, not
 * 4), so the --ref run could not pass.  Rank 0 sends, rank 1 receives
 * with a pair type; then MPI_Status_set_elements on a local status.
 */
#include "dt_check.h"

#define TAG 9

struct double_int {
    double d;
    int i;
};

/* The signature double, int, double: one MPI_DOUBLE_INT and a half. */
static MPI_Datatype double_int_double(void)
{
    int len[3] = {1, 1, 1};
    MPI_Aint disp[3] = {0, sizeof(double), 2 * sizeof(double)};
    MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_DOUBLE}, t;
    CHECK_MPI(MPI_Type_create_struct(3, len, disp, types, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static void send_side(void)
{
    int ints[5] = {1, 2, 3, 4, 5};
    struct double_int di[2] = {{1.5, 1}, {2.5, 2}};
    double src[3] = {1.5, 0, 2.5};
    int one = 1;
    memcpy(&src[1], &one, sizeof one);
    MPI_Datatype did = double_int_double();
    CHECK_MPI(MPI_Send(ints, 4, MPI_INT, 1, TAG, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(ints, 5, MPI_INT, 1, TAG, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(di, 2, MPI_DOUBLE_INT, 1, TAG, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(src, 1, did, 1, TAG, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Type_free(&did));
}

static void receive_side(void)
{
    int got[6];
    struct double_int di[3];
    MPI_Status st;
    CHECK_MPI(MPI_Recv(got, 3, MPI_2INT, 0, TAG, MPI_COMM_WORLD, &st));
    expect_counts(&st, MPI_2INT, 2, 4, "4 ints as MPI_2INT");
    CHECK_MPI(MPI_Recv(got, 3, MPI_2INT, 0, TAG, MPI_COMM_WORLD, &st));
    expect_counts(&st, MPI_2INT, MPI_UNDEFINED, 5, "5 ints as MPI_2INT");
    CHECK_MPI(MPI_Recv(di, 3, MPI_DOUBLE_INT, 0, TAG, MPI_COMM_WORLD, &st));
    expect_counts(&st, MPI_DOUBLE_INT, 2, 4, "2 MPI_DOUBLE_INT");
    CHECK_MPI(MPI_Recv(di, 3, MPI_DOUBLE_INT, 0, TAG, MPI_COMM_WORLD, &st));
    expect_counts(&st, MPI_DOUBLE_INT, MPI_UNDEFINED, 3,
                  "double, int, double as MPI_DOUBLE_INT");
    CHECK(di[0].d == 1.5 && di[0].i == 1 && di[1].d == 2.5,
          "MPI_DOUBLE_INT: data of the partial receive");
}

static void set_elements(void)
{
    MPI_Status st;
    CHECK_MPI(MPI_Status_set_elements(&st, MPI_DOUBLE_INT, 3));
    expect_counts(&st, MPI_DOUBLE_INT, MPI_UNDEFINED, 3,
                  "set 3 elements of MPI_DOUBLE_INT");
    CHECK_MPI(MPI_Status_set_elements(&st, MPI_SHORT_INT, 4));
    expect_counts(&st, MPI_SHORT_INT, 2, 4, "set 4 elements of MPI_SHORT_INT");
    CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_LONG_DOUBLE_INT, 5));
    expect_counts(&st, MPI_LONG_DOUBLE_INT, MPI_UNDEFINED, 5,
                  "set 5 elements of MPI_LONG_DOUBLE_INT");
    /* a vector of pairs: 2 blocks of 2 MPI_FLOAT_INT, 8 basic elements */
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(2, 2, 3, MPI_FLOAT_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    CHECK_MPI(MPI_Status_set_elements(&st, vec, 11));
    expect_counts(&st, vec, MPI_UNDEFINED, 11,
                  "set 11 elements of a pair vector");
    CHECK_MPI(MPI_Status_set_elements(&st, vec, 16));
    expect_counts(&st, vec, 2, 16, "set 16 elements of a pair vector");
    CHECK_MPI(MPI_Type_free(&vec));
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        send_side();
    else if (rank == 1)
        receive_side();
    set_elements();
    MPI_Finalize();
    return 0;
}
