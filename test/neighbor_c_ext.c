/* neighbor_c_ext: the MPI-4.0 large-count forms of the five neighborhood collectives, blocking (MPI_Neighbor_allgather_c ..), nonblocking (MPI_Ineighbor_allgather_c ..) and persistent (MPI_Neighbor_allgather_init_c ..), give element for element what their MPI-3.1 forms give on a periodic ring (coll_c.h).  ext: Open MPI 4.1 has no _c functions. */
/* shmpi-test: np=1,2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int how; /* 0 blocking, 1 nonblocking, 2 persistent */

#define GO_CALL(blk, nb, pers, args)                                       \
    do {                                                                   \
        MPI_Request req_ = MPI_REQUEST_NULL;                               \
        if (how == 0) {                                                    \
            CHECK_MPI(MPI_##blk args);                                     \
        } else if (how == 1) {                                             \
            CHECK_MPI(MPI_##nb(CC_UNPAREN args, &req_));                   \
            CHECK_MPI(MPI_Wait(&req_, MPI_STATUS_IGNORE));                 \
        } else {                                                           \
            CHECK_MPI(MPI_##pers(CC_UNPAREN args, MPI_INFO_NULL, &req_));  \
            CHECK_MPI(MPI_Start(&req_));                                   \
            CHECK_MPI(MPI_Wait(&req_, MPI_STATUS_IGNORE));                 \
            CHECK_MPI(MPI_Request_free(&req_));                            \
        }                                                                  \
    } while (0)

#include "coll_c.h"

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    int size, dims[1], periods[1] = {1};
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    dims[0] = size;
    MPI_Comm ring;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    cc_setup(ring);
    /* block 0 goes left and comes from the left neighbor's block 1:
       send 1 and 2 elements, receive 2 and 1 */
    cc_acnt2[0] = 2;
    cc_acnt2[1] = 1;
    cc_acnt2_c[0] = 2;
    cc_acnt2_c[1] = 1;
    const int *s = cc_sbuf;
    int B = CC_B;
    for (how = 0; how < 3; how++) {
        /* a ring: two neighbors, blocks 0 (left) and 1 (right) */
        CC_RUN("Neighbor_allgather", Neighbor_allgather,
               Ineighbor_allgather, Neighbor_allgather_init, (void)0,
               (s, B, MPI_INT, rbuf, B, MPI_INT, ring));
        CC_RUN("Neighbor_allgatherv", Neighbor_allgatherv,
               Ineighbor_allgatherv, Neighbor_allgatherv_init, (void)0,
               (s, 1, MPI_INT, rbuf, vcnt, vdsp, MPI_INT, ring));
        CC_RUN("Neighbor_alltoall", Neighbor_alltoall, Ineighbor_alltoall,
               Neighbor_alltoall_init, (void)0,
               (s, B, MPI_INT, rbuf, B, MPI_INT, ring));
        CC_RUN("Neighbor_alltoallv", Neighbor_alltoallv,
               Ineighbor_alltoallv, Neighbor_alltoallv_init, (void)0,
               (s, vcnt, adsp, MPI_INT, rbuf, acnt2, adsp2, MPI_INT, ring));
        /* the MPI-3.1 form's displacements are MPI_Aint too */
        CC_RUN("Neighbor_alltoallw", Neighbor_alltoallw,
               Ineighbor_alltoallw, Neighbor_alltoallw_init, (void)0,
               (s, vcnt, cc_bdsp_c, cc_types, rbuf, acnt2, cc_bdsp2_c,
                cc_types, ring));
    }
    cc_free();
    CHECK_MPI(MPI_Comm_free(&ring));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
