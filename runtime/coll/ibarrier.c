/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibarrier.c - MPI_Ibarrier, and the barrier schedule that MPI_Barrier
 * runs on an intercommunicator (data.h).
 *
 * Dissemination: in round k each process sends a zero-byte message to
 * rank + 2^k and receives one from rank - 2^k; after round k it has
 * heard, directly or through others, from the 2^(k+1) - 1 ranks below
 * it.  As 2^k < size in every round, no process sends to another twice
 * in one barrier, so the rounds' messages (one tag per schedule) cannot
 * be mistaken for each other.
 */
#include "coll/check.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "coll/data.h"
#include "coll/reduction.h"

SHMPI_WEAK_ALIAS(Ibarrier)

int shmpi_nbc_add_barrier(struct shmpi_nbc *s, MPI_Comm comm)
{
    int n = comm->size, r = comm->rank;
    for (int d = 1; d < n; d <<= 1)
        if (shmpi_nbc_recv(s, NULL, 0, MPI_BYTE, (r - d + n) % n) ||
            shmpi_nbc_send(s, NULL, 0, MPI_BYTE, (r + d) % n) ||
            shmpi_nbc_round(s))
            return MPI_ERR_NO_MEM;
    return MPI_SUCCESS;
}

/* 5.2.2: nobody leaves before every process of both groups arrived.  The
   local barrier tells local rank 0 that its group is in, the two rank 0s
   trade that news, and a broadcast in each group passes it on. */
static int inter_barrier(struct shmpi_nbc *s, MPI_Comm comm)
{
    MPI_Comm local = comm->local;
    if (shmpi_nbc_on(s, local) || shmpi_nbc_add_barrier(s, local))
        return MPI_ERR_NO_MEM;
    if (local->rank == 0 &&
        (shmpi_nbc_on(s, comm) || shmpi_nbc_recv(s, NULL, 0, MPI_BYTE, 0) ||
         shmpi_nbc_send(s, NULL, 0, MPI_BYTE, 0) || shmpi_nbc_round(s) ||
         shmpi_nbc_on(s, local)))
        return MPI_ERR_NO_MEM;
    return shmpi_nbc_bcast_from(s, local, NULL, 0, MPI_BYTE, 0);
}

int shmpi_nbc_data_barrier(struct shmpi_nbc *s, MPI_Comm comm,
                           const struct shmpi_coll_args *a)
{
    (void)a;
    return comm->is_inter ? inter_barrier(s, comm)
                          : shmpi_nbc_add_barrier(s, comm);
}

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Ibarrier";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_coll_order(fn, comm, shmpi_coll_check_comm(fn, comm),
                              SHMPI_ORDER_NO_ROOT, MPI_OP_NULL, 0, NULL);
    return shmpi_nbc_icollective(comm, rc, shmpi_nbc_data_barrier, NULL,
                                 request, fn);
}
