/* rma_pscw_nocheck_ext: many PSCW epochs with MPI_MODE_NOCHECK, alternating with ordinary ones, on one window - every MPI_Win_wait still waits for exactly its epoch's completes. */
/* shmpi-test: np=1,2,3,8 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: standard MPI, but Open MPI 4.1 (osc sm) fails it - a post with
 * MPI_MODE_NOCHECK does not reset its count of completes, so the wait of
 * any NOCHECK epoch after the first returns early or never.  rma_pscw
 * has the part Open MPI gets right.
 */
#include "check.h"

#define EPOCHS 40

int main(int argc, char **argv)
{
    int rank, size, *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mem, &win));
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Group all, from, to;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &all));
    CHECK_MPI(MPI_Group_incl(all, 1, &left, &from));
    CHECK_MPI(MPI_Group_incl(all, 1, &right, &to));
    for (int e = 0; e < EPOCHS; e++) {
        int mode = e % 3 ? MPI_MODE_NOCHECK : 0;
        *mem = -1;
        CHECK_MPI(MPI_Win_post(from, mode, win));
        if (mode) /* NOCHECK: the post is done before the start */
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Win_start(to, mode, win));
        int v = rank * 1000 + e;
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Win_wait(win));
        CHECK(*mem == left * 1000 + e, "epoch %d (%s): %d, expected %d", e,
              mode ? "NOCHECK" : "checked", *mem, left * 1000 + e);
    }
    CHECK_MPI(MPI_Group_free(&all));
    CHECK_MPI(MPI_Group_free(&from));
    CHECK_MPI(MPI_Group_free(&to));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
