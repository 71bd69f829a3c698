/* pcoll_c_ext: the sixteen persistent collectives' MPI-4.0 large-count forms (MPI_Bcast_init_c .. MPI_Exscan_init_c), each planned once and started twice, give, element for element, what their MPI-3.1 forms give on an intracommunicator (coll_c.h).  ext: Open MPI 4.1 has no _c functions. */
/* shmpi-test: np=1,2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

/* Planned once, started twice: the second start must give the same. */
#define GO_CALL(blk, nb, pers, args)                                       \
    do {                                                                   \
        MPI_Request req_ = MPI_REQUEST_NULL;                               \
        CHECK_MPI(MPI_##pers(CC_UNPAREN args, MPI_INFO_NULL, &req_));      \
        for (int start_ = 0; start_ < 2; start_++) {                       \
            CHECK_MPI(MPI_Start(&req_));                                   \
            CHECK_MPI(MPI_Wait(&req_, MPI_STATUS_IGNORE));                 \
        }                                                                  \
        CHECK_MPI(MPI_Request_free(&req_));                                \
    } while (0)

#include "coll_c.h"

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    run_all(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
