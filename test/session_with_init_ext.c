/* session_with_init_ext: a session and MPI_Init in one program: the session starts first, MPI_Finalize ends the World Model while the session's communicator still works, and the session ends last. */
/* shmpi-test: np=1,2,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Session s;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    int flag = 1;
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(!flag, "initialized before MPI_Init");
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(flag, "not initialized after MPI_Init");
    MPI_Group g;
    MPI_Comm comm;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_MPI(MPI_Comm_create_from_group(g, "with-init", MPI_INFO_NULL,
                                         MPI_ERRORS_RETURN, &comm));
    CHECK_MPI(MPI_Group_free(&g));
    int res;
    CHECK_MPI(MPI_Comm_compare(comm, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_CONGRUENT, "compare gives %d, want congruent", res);
    int rank, size;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    /* the two communicators do not share messages: the same tag and
       peer on both, received in the other order */
    int a = 100 + rank, b = 200 + rank, ga = -1, gb = -1;
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Request rq[4];
    CHECK_MPI(MPI_Irecv(&gb, 1, MPI_INT, from, 5, comm, &rq[0]));
    CHECK_MPI(MPI_Irecv(&ga, 1, MPI_INT, from, 5, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, to, 5, MPI_COMM_WORLD, &rq[2]));
    CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, to, 5, comm, &rq[3]));
    CHECK_MPI(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
    CHECK(ga == 100 + from && gb == 200 + from, "crossed: %d %d", ga, gb);
    CHECK_MPI(MPI_Finalize());
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(flag, "not finalized after MPI_Finalize");
    /* the session's communicator still works */
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(sum == size * (size - 1) / 2, "sum %d", sum);
    CHECK_MPI(MPI_Comm_free(&comm));
    CHECK_MPI(MPI_Session_finalize(&s));
    return 0;
}
