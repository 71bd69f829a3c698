/* intercomm_errors_ext: shmpi's own answers where MPI-3.1 leaves it to the implementation: MPI_ERR_COMM for MPI_Comm_create_group on an intercommunicator and MPI_Comm_remote_size/group on an intracommunicator, MPI_ERR_RANK for a bad local_leader, a leader's bad argument returned by its whole group, overlapping groups refused (MPI_ERR_COMM), and MPI_Comm_split_type of an intercommunicator (an intercommunicator, as in MPI-4.0). */
/* shmpi-test: np=2,3,4,7 timeout=60 ext */
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
    CHECK_MPI(MPI_Comm_set_errhandler(local, MPI_ERRORS_RETURN));
    int n, lsize, other = rank % 2 ? 0 : 1;
    MPI_Group g;

    CHECK_MPI(MPI_Comm_group(inter, &g));
    CHECK_CLASS(MPI_Comm_create_group(inter, g, 0, &c), MPI_ERR_COMM);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_CLASS(MPI_Comm_remote_size(MPI_COMM_WORLD, &n), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_remote_group(local, &g), MPI_ERR_COMM);

    /* local_leader is the same everywhere in the group: all fail */
    CHECK_MPI(MPI_Comm_size(local, &lsize));
    CHECK_CLASS(MPI_Intercomm_create(local, lsize, MPI_COMM_WORLD, other, 1,
                                     &c),
                MPI_ERR_RANK);
    /* a bad tag matters at the leaders only; their groups hear of it */
    CHECK_CLASS(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, other, -3,
                                     &c),
                MPI_ERR_TAG);
    /* a leader that names itself as the remote leader: one group on both
       sides */
    CHECK_CLASS(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 0, 2,
                                     &c),
                MPI_ERR_COMM);
    CHECK(c == MPI_COMM_NULL, "a failed MPI_Intercomm_create set its output");

    /* MPI_Comm_split_type: everyone shares memory, but world rank 1 asks
       for no part; the others make one intercommunicator */
    CHECK_MPI(MPI_Comm_split_type(inter, rank == 1 ? MPI_UNDEFINED
                                                   : MPI_COMM_TYPE_SHARED,
                                  0, MPI_INFO_NULL, &c));
    int mine[64], theirs[64], nm = 0, nt = 0;
    for (int w = 0; w < size; w++)
        if (w != 1) {
            if (w % 2 == rank % 2)
                mine[nm++] = w;
            else
                theirs[nt++] = w;
        }
    if (rank == 1 || nt == 0 || nm == 0) {
        CHECK(c == MPI_COMM_NULL, "split_type: expected MPI_COMM_NULL");
    } else {
        check_inter_groups(c, nm, mine, nt, theirs, "split_type");
        check_traffic(c, theirs, "split_type");
        CHECK_MPI(MPI_Comm_free(&c));
    }

    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
    if (rank == 0)
        printf("intercomm_errors_ext at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
