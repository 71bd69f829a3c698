/* p2p_pairs_ext: MPI_Get_elements counts the pair types (MPI_DOUBLE_INT, MPI_2INT, ...) as structs of two basic elements, as MPICH does (Open MPI counts one; open-mpi/ompi#2366). */
/* shmpi-test: np=2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MPI-3.1 5.9.4 defines the pair types "as if" built with
 * MPI_TYPE_CREATE_STRUCT / MPI_TYPE_CONTIGUOUS from two basic types, so a
 * pair holds two basic elements.  shmpi follows MPICH here; Open MPI
 * treats each pair as one basic element, which is why this is ext.
 */
#include "check.h"

struct double_int { double v; int i; };

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2, "needs 2 ranks");
    struct double_int di[3] = {{1.5, 1}, {2.5, 2}, {3.5, 3}};
    int ints[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    double d = 0.25;
    if (rank == 0) {
        CHECK_MPI(MPI_Send(di, 3, MPI_DOUBLE_INT, 1, 1, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(ints, 4, MPI_2INT, 1, 2, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(&d, 1, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(ints, 5, MPI_INT, 1, 4, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(di, 2, MPI_DOUBLE_INT, 1, 5, MPI_COMM_WORLD));
    } else if (rank == 1) {
        struct double_int r[4];
        int ri[10];
        MPI_Status st;
        int n = -1;
        MPI_Count nx = -1;
        CHECK_MPI(MPI_Recv(r, 4, MPI_DOUBLE_INT, 0, 1, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE_INT, &n));
        CHECK(n == 6, "3 x MPI_DOUBLE_INT: %d elements, expected 6", n);
        CHECK_MPI(MPI_Get_elements_x(&st, MPI_DOUBLE_INT, &nx));
        CHECK(nx == 6, "3 x MPI_DOUBLE_INT: %lld elements (_x)",
              (long long)nx);
        CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE_INT, &n));
        CHECK(n == 3, "3 x MPI_DOUBLE_INT: count %d", n);

        CHECK_MPI(MPI_Recv(ri, 5, MPI_2INT, 0, 2, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_elements(&st, MPI_2INT, &n));
        CHECK(n == 8, "4 x MPI_2INT: %d elements, expected 8", n);

        CHECK_MPI(MPI_Recv(r, 4, MPI_DOUBLE_INT, 0, 3, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE_INT, &n));
        CHECK(n == 1, "a double as MPI_DOUBLE_INT: %d elements, expected 1",
              n);

        CHECK_MPI(MPI_Recv(ri, 5, MPI_2INT, 0, 4, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_elements(&st, MPI_2INT, &n));
        CHECK(n == 5, "5 ints as MPI_2INT: %d elements, expected 5", n);
        CHECK_MPI(MPI_Get_count(&st, MPI_2INT, &n));
        CHECK(n == MPI_UNDEFINED, "5 ints as MPI_2INT: count %d", n);

        /* a pair and a half: the double of the second pair is there,
           its int is not (sent as 2 pairs, so nothing is partial; this
           is the full case again with an odd receive count) */
        CHECK_MPI(MPI_Recv(r, 3, MPI_DOUBLE_INT, 0, 5, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE_INT, &n));
        CHECK(n == 4, "2 x MPI_DOUBLE_INT: %d elements, expected 4", n);
    }
    CHECK_MPI(MPI_Finalize());
    return 0;
}
