/* coll_c_ext: the sixteen blocking collectives' MPI-4.0 large-count forms (MPI_Bcast_c .. MPI_Exscan_c, MPI_Allreduce_c also in place) give, element for element, what their MPI-3.1 forms give on an intracommunicator (coll_c.h).  ext: Open MPI 4.1 has no _c functions. */
/* shmpi-test: np=1,2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define GO_CALL(blk, nb, pers, args) CHECK_MPI(MPI_##blk args)

#include "coll_c.h"

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    run_all(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
