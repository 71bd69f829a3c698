/* inter_coll_reduce_ext: reduction checks where Open MPI 4.1.4 differs - MPI_Exscan and MPI_Iexscan on an intercommunicator are MPI_ERR_COMM (Open MPI crashes), MPI_IN_PLACE on an intercommunicator is MPI_ERR_BUFFER raised on the communicator (Open MPI raises it on MPI_COMM_WORLD), and a NULL request pointer to each nonblocking reduction is MPI_ERR_ARG (Open MPI does not check it). */
/* shmpi-test: np=2,3 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

int main(int argc, char **argv)
{
    int wrank, x[4] = {1, 2, 3, 4}, y[4], counts[16] = {1};
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
    int group = wrank % 3 != 0;
    MPI_Comm local, inter, world = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, group, wrank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, !group, 5,
                                   &inter));
    MPI_Request req = MPI_REQUEST_NULL;

    CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Exscan(x, y, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Iexscan(x, y, 1, MPI_INT, MPI_SUM, inter, &req),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Allreduce(MPI_IN_PLACE, y, 1, MPI_INT, MPI_SUM, inter),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Iallreduce(MPI_IN_PLACE, y, 1, MPI_INT, MPI_SUM, inter,
                               &req), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Reduce_scatter_block(MPI_IN_PLACE, y, 1, MPI_INT,
                                         MPI_SUM, inter), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Reduce(MPI_IN_PLACE, y, 1, MPI_INT, MPI_SUM, 0, inter),
                MPI_ERR_BUFFER);
    CHECK(req == MPI_REQUEST_NULL, "a failed call set the request");

    CHECK_MPI(MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Ireduce(x, y, 1, MPI_INT, MPI_SUM, 0, world, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Iallreduce(x, y, 1, MPI_INT, MPI_SUM, world, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Ireduce_scatter_block(x, y, 1, MPI_INT, MPI_SUM, world,
                                          NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Ireduce_scatter(x, y, counts, MPI_INT, MPI_SUM, world,
                                    NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Iscan(x, y, 1, MPI_INT, MPI_SUM, world, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Iexscan(x, y, 1, MPI_INT, MPI_SUM, world, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Iallreduce(x, y, 1, MPI_INT, MPI_SUM, inter, NULL),
                MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_set_errhandler(world, MPI_ERRORS_ARE_FATAL));

    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
