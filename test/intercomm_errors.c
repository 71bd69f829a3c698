/* intercomm_errors: under MPI_ERRORS_RETURN, the calls defined for intracommunicators only fail with MPI_ERR_COMM on an intercommunicator (the topology constructors, MPI_Intercomm_create's local_comm), MPI_Intercomm_merge on an intracommunicator, and bad ranks and colors get their classes; the intercommunicator still works afterwards. */
/* shmpi-test: np=2,3,4,7 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "intercomm.h"

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(size >= 2 && size <= 64, "run with 2 to 64 ranks");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Comm local, inter, c = MPI_COMM_NULL;
    parity_intercomm(MPI_COMM_WORLD, 0, &local, &inter);
    CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    int n, rn, flag = -1, dims[1], periods[1] = {0}, index[1] = {0};
    CHECK_MPI(MPI_Comm_size(inter, &n));
    CHECK_MPI(MPI_Comm_remote_size(inter, &rn));
    dims[0] = n;

    /* intracommunicators only: process topologies (7.2) */
    CHECK_CLASS(MPI_Cart_create(inter, 1, dims, periods, 0, &c),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Graph_create(inter, 1, index, NULL, 0, &c),
                MPI_ERR_COMM);
    int none[1] = {0}; /* no edges, weighted (MPI_UNWEIGHTED trips some
                          compilers' checks of Open MPI's mpi.h) */
    CHECK_CLASS(MPI_Dist_graph_create_adjacent(inter, 0, none, none, 0, none,
                                               none, MPI_INFO_NULL, 0, &c),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Dist_graph_create(inter, 0, none, none, none, none,
                                      MPI_INFO_NULL, 0, &c),
                MPI_ERR_COMM);
    CHECK(c == MPI_COMM_NULL, "a failed constructor set its output");
    /* ... and MPI_Intercomm_create's local_comm */
    CHECK_CLASS(MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD,
                                     rank % 2 ? 0 : 1, 1, &c),
                MPI_ERR_COMM);

    /* intercommunicators only */
    CHECK_MPI(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag));
    CHECK(flag == 0, "MPI_COMM_WORLD tests as an intercommunicator");
    CHECK_CLASS(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &c), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_test_inter(MPI_COMM_NULL, &flag), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_remote_size(MPI_COMM_NULL, &n), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Intercomm_merge(MPI_COMM_NULL, 0, &c), MPI_ERR_COMM);

    /* peers are remote ranks: rn is one too many */
    int v = 0;
    MPI_Request r;
    CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, rn, 0, inter), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Recv(&v, 1, MPI_INT, rn, 0, inter, MPI_STATUS_IGNORE),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Irecv(&v, 1, MPI_INT, -5, 0, inter, &r), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Iprobe(rn, 0, inter, &flag, MPI_STATUS_IGNORE),
                MPI_ERR_RANK);

    /* arguments every process of a group gets wrong together */
    CHECK_CLASS(MPI_Intercomm_create(MPI_COMM_NULL, 0, MPI_COMM_WORLD,
                                     rank % 2 ? 0 : 1, 1, &c),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_split(inter, -2, 0, &c), MPI_ERR_ARG);

    /* and the intercommunicator still works */
    int even[64], odd[64], ne = 0, no = 0;
    for (int w = 0; w < size; w++) {
        if (w % 2)
            odd[no++] = w;
        else
            even[ne++] = w;
    }
    check_traffic(inter, rank % 2 ? even : odd, "after the errors");
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
    if (rank == 0)
        printf("intercomm_errors at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
