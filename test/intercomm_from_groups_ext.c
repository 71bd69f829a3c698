/* intercomm_from_groups_ext: MPI_Intercomm_create_from_groups joins the two halves of mpi://WORLD: remote sizes, point-to-point across, an intercommunicator collective, and a merge. */
/* shmpi-test: np=2,3,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

int main(void)
{
    MPI_Session s;
    MPI_Group world, low, high;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &world));
    int rank, size;
    CHECK_MPI(MPI_Group_rank(world, &rank));
    CHECK_MPI(MPI_Group_size(world, &size));
    int half = size / 2;
    int lo[1][3] = {{0, half - 1, 1}}, hi[1][3] = {{half, size - 1, 1}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, lo, &low));
    CHECK_MPI(MPI_Group_range_incl(world, 1, hi, &high));
    int in_low = rank < half;
    /* the leaders: the last of low, the first of high */
    MPI_Comm inter;
    CHECK_MPI(MPI_Intercomm_create_from_groups(
        in_low ? low : high, in_low ? half - 1 : 0, in_low ? high : low,
        in_low ? 0 : half - 1, "halves", MPI_INFO_NULL, MPI_ERRORS_RETURN,
        &inter));
    int flag = 0, rsize, lrank;
    CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
    CHECK(flag, "not an intercommunicator");
    CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
    CHECK(rsize == (in_low ? size - half : half), "remote size %d", rsize);
    CHECK_MPI(MPI_Comm_rank(inter, &lrank));
    CHECK(lrank == (in_low ? rank : rank - half), "local rank %d", lrank);
    /* rank 0 of each side sends its world rank to rank 0 of the other */
    if (lrank == 0) {
        int mine = rank, theirs = -1;
        CHECK_MPI(MPI_Sendrecv(&mine, 1, MPI_INT, 0, 3, &theirs, 1, MPI_INT,
                               0, 3, inter, MPI_STATUS_IGNORE));
        CHECK(theirs == (in_low ? half : 0), "got %d", theirs);
    }
    /* the sum of the remote group's world ranks */
    int sum = -1, want = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, inter));
    for (int r = in_low ? half : 0; r < (in_low ? size : half); r++)
        want += r;
    CHECK(sum == want, "allreduce %d, want %d", sum, want);
    MPI_Comm merged;
    int mrank;
    CHECK_MPI(MPI_Intercomm_merge(inter, !in_low, &merged));
    CHECK_MPI(MPI_Comm_rank(merged, &mrank));
    CHECK(mrank == rank, "merged rank %d", mrank);
    /* bad leaders are refused */
    MPI_Comm bad;
    int rc = MPI_Intercomm_create_from_groups(
        in_low ? low : high, 99, in_low ? high : low, 0, "bad",
        MPI_INFO_NULL, MPI_ERRORS_RETURN, &bad);
    CHECK_CLASS(rc, MPI_ERR_RANK);
    rc = MPI_Intercomm_create_from_groups(world, 0, world, 0, "bad",
                                          MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                          &bad);
    CHECK_CLASS(rc, MPI_ERR_GROUP);
    CHECK_MPI(MPI_Comm_free(&merged));
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Group_free(&low));
    CHECK_MPI(MPI_Group_free(&high));
    CHECK_MPI(MPI_Group_free(&world));
    CHECK_MPI(MPI_Session_finalize(&s));
    return 0;
}
