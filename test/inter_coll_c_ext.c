/* inter_coll_c_ext: the MPI-4.0 large-count forms of the collectives an intercommunicator allows (Bcast_c, Gatherv_c, Scatterv_c, Allgatherv_c, Alltoallv_c, Alltoallw_c, Reduce_c, Allreduce_c, Reduce_scatter_c, Reduce_scatter_block_c), blocking and nonblocking, give element for element what their MPI-3.1 forms give between the even and the odd ranks (coll_c.h).  ext: Open MPI 4.1 has no _c functions. */
/* shmpi-test: np=2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "intercomm.h"

static int nonblocking;

#define GO_CALL(blk, nb, pers, args)                                       \
    do {                                                                   \
        if (!nonblocking) {                                                \
            CHECK_MPI(MPI_##blk args);                                     \
        } else {                                                           \
            MPI_Request req_ = MPI_REQUEST_NULL;                           \
            CHECK_MPI(MPI_##nb(CC_UNPAREN args, &req_));                   \
            CHECK_MPI(MPI_Wait(&req_, MPI_STATUS_IGNORE));                 \
        }                                                                  \
    } while (0)

#include "coll_c.h"

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    int wrank;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
    MPI_Comm local, inter;
    parity_intercomm(MPI_COMM_WORLD, 7, &local, &inter);
    cc_setup(inter);
    const int *s = cc_sbuf;
    int B = CC_B, me = cc_rank;
    /* the even group's rank 0 is every rooted call's root */
    int root = wrank % 2 ? 0 : me == 0 ? MPI_ROOT : MPI_PROC_NULL;
    size_t whole = (size_t)cc_n * sizeof(int);
    for (nonblocking = 0; nonblocking < 2; nonblocking++) {
        CC_RUN("Bcast", Bcast, Ibcast, Bcast_init,
               if (root == MPI_ROOT) memcpy(rbuf, s, whole),
               (rbuf, 2 * B, MPI_INT, root, inter));
        CC_RUN("Gatherv", Gatherv, Igatherv, Gatherv_init, (void)0,
               (s, me + 1, MPI_INT, rbuf, vcnt, vdsp, MPI_INT, root, inter));
        CC_RUN("Scatterv", Scatterv, Iscatterv, Scatterv_init, (void)0,
               (s, vcnt, vdsp, MPI_INT, rbuf, me + 1, MPI_INT, root, inter));
        CC_RUN("Allgatherv", Allgatherv, Iallgatherv, Allgatherv_init,
               (void)0,
               (s, me + 1, MPI_INT, rbuf, vcnt, vdsp, MPI_INT, inter));
        CC_RUN("Alltoallv", Alltoallv, Ialltoallv, Alltoallv_init, (void)0,
               (s, acnt, adsp, MPI_INT, rbuf, acnt2, adsp2, MPI_INT, inter));
        CC_RUN("Alltoallw", Alltoallw, Ialltoallw, Alltoallw_init, (void)0,
               (s, acnt, wdsp, cc_types, rbuf, acnt2, wdsp2, cc_types,
                inter));
        CC_RUN("Reduce", Reduce, Ireduce, Reduce_init, (void)0,
               (s, rbuf, 2 * B, MPI_INT, MPI_SUM, root, inter));
        CC_RUN("Allreduce", Allreduce, Iallreduce, Allreduce_init, (void)0,
               (s, rbuf, 2 * B, MPI_INT, MPI_MAX, inter));
        CC_RUN("Reduce_scatter", Reduce_scatter, Ireduce_scatter,
               Reduce_scatter_init, (void)0,
               (s, rbuf, vcnt, MPI_INT, MPI_SUM, inter));
        CC_RUN("Reduce_scatter_block", Reduce_scatter_block,
               Ireduce_scatter_block, Reduce_scatter_block_init, (void)0,
               (s, rbuf, B, MPI_INT, MPI_SUM, inter));
    }
    cc_free();
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
