/* nbc_c_ext: the sixteen nonblocking collectives' MPI-4.0 large-count forms (MPI_Ibcast_c .. MPI_Iexscan_c) give, element for element, what their MPI-3.1 forms give on an intracommunicator (coll_c.h).  ext: Open MPI 4.1 has no _c functions. */
/* shmpi-test: np=1,2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define GO_CALL(blk, nb, pers, args)                                       \
    do {                                                                   \
        MPI_Request req_ = MPI_REQUEST_NULL;                               \
        CHECK_MPI(MPI_##nb(CC_UNPAREN args, &req_));                       \
        CHECK_MPI(MPI_Wait(&req_, MPI_STATUS_IGNORE));                     \
    } while (0)

#include "coll_c.h"

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    run_all(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
