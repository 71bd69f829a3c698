/* comm_idup_with_info_ext: MPI_Comm_idup_with_info (MPI-4.0) makes a congruent communicator of its own when its request completes, and refuses a bad info with MPI_ERR_INFO while the others complete. */
/* shmpi-test: np=1,2,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank, size;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Request r;
    CHECK_MPI(MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &dup, &r));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    int res;
    CHECK_MPI(MPI_Comm_compare(dup, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_CONGRUENT, "compare %d", res);
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup));
    CHECK(sum == size * (size - 1) / 2, "sum %d", sum);
    /* a bad info: the error at the call, and the others are not left
       waiting (rank 0 alone passes a bad one) */
    MPI_Info bad = rank == 0 ? MPI_Info_f2c(12345) : MPI_INFO_NULL;
    MPI_Comm other = MPI_COMM_NULL;
    int rc = MPI_Comm_idup_with_info(dup, bad, &other, &r);
    if (rank == 0) {
        CHECK_CLASS(rc, MPI_ERR_INFO);
    } else {
        CHECK_MPI(rc);
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(other != MPI_COMM_NULL, "no communicator");
        CHECK_MPI(MPI_Comm_free(&other));
    }
    CHECK_MPI(MPI_Barrier(dup));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
