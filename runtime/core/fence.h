/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fence.h - a full memory fence run on every CPU that runs a rank of the
 * job, at the request of one rank (membarrier(2),
 * MEMBARRIER_CMD_GLOBAL_EXPEDITED).
 *
 * A Dekker handshake - each side stores its flag, then loads the
 * other's - needs a full fence between the store and the load on both
 * sides.  When one side runs millions of times and the other almost
 * never, the frequent side may leave its fence out if the rare side,
 * after its store, makes every CPU that runs a rank pass a full fence:
 * any store of the frequent side that comes before that point in its
 * program is then visible to the rare side's load, and any load after it
 * sees the rare side's store.  A rank that is not running passed a fence
 * when it was switched out, and passes another when it is switched back
 * in, after which it sees the rare side's store.  The price: an
 * interprocessor interrupt per CPU, microseconds, against one locked
 * instruction saved per fence left out.  rma/acclock.c is the user.
 */
#ifndef SHMPI_FENCE_H
#define SHMPI_FENCE_H

/* MPI_Init: registers this process for the fence (a Linux 4.16 or later
   kernel).  shmpi_proc.fence_registered is non-zero after that if it
   worked: only then may this rank leave out a fence that relies on
   shmpi_core_fence_all_ranks. */
void shmpi_core_fence_register(void);

/* Returns once every CPU running a registered process passed a full
   memory fence: 0, or -1 with errno set if the kernel refused. */
int shmpi_core_fence_all_ranks(void);

#endif
