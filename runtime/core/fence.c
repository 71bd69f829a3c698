/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fence.c - the fence on every CPU of the job (see fence.h).
 *
 * GLOBAL_EXPEDITED, not PRIVATE_EXPEDITED: the ranks are separate
 * processes, and the private command reaches only the threads of the
 * caller's own.  Registering is what makes the kernel interrupt a CPU
 * that runs the process; a process that did not register is not fenced,
 * so it must not rely on the fence (shmpi_proc.fence_registered).
 *
 * State: shmpi_proc.fence_registered (core/proc.h), set once at MPI_Init.
 */
#include "core/fence.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/proc.h"

static long membarrier(int cmd)
{
    return syscall(__NR_membarrier, cmd, 0, 0);
}

void shmpi_core_fence_register(void)
{
    long can = membarrier(MEMBARRIER_CMD_QUERY);
    shmpi_proc.fence_registered =
        can > 0 && (can & MEMBARRIER_CMD_GLOBAL_EXPEDITED) &&
        membarrier(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED) == 0;
}

int shmpi_core_fence_all_ranks(void)
{
    return membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) == 0 ? 0 : -1;
}
