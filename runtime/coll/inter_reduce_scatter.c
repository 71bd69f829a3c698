/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * inter_reduce_scatter.c - MPI_Reduce_scatter(_block) on an
 * intercommunicator (5.10.1, 5.10.2), blocking or not: the vector
 * reduced over one group is scattered over the other.  Both groups
 * contribute vectors of the same length, the sum of the receiving
 * group's counts (recvcount times the size of the group, for the block
 * form).
 *
 * Each group reduces its own vector, in rank order, to its local rank 0;
 * the two leaders swap the results (inter_reduce.c), and each scatters
 * the one it received over its group.
 */
#include "coll/reduction.h"

int shmpi_nbc_build_inter_scatter(struct shmpi_nbc *s, MPI_Comm comm,
                                  const struct shmpi_coll_red *x)
{
    void *full = NULL; /* the other group's vector, at the leader */
    if (shmpi_nbc_inter_swap(s, comm, x, NULL, &full))
        return MPI_ERR_NO_MEM;
    return shmpi_nbc_scatter_segments(s, comm->local, full, x);
}
