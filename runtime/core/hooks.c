/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hooks.c - the registry of progress hooks (hooks.h says who registers
 * what, and when).  The registry is shmpi_proc.hooks (core/proc.h).
 */
#include "core/error.h"
#include "core/hooks.h"

int shmpi_core_progress_hook_add(int (*fn)(unsigned lane))
{
    if (shmpi_proc.hooks.nprogress == SHMPI_PROGRESS_HOOKS_MAX)
        shmpi_core_fatal(MPI_ERR_INTERN, "MPI_Init",
                         "more progress hooks than SHMPI_PROGRESS_HOOKS_MAX");
    shmpi_proc.hooks.progress[shmpi_proc.hooks.nprogress] = fn;
    return shmpi_proc.hooks.nprogress++;
}

int shmpi_core_run_armed_hooks(unsigned lane)
{
    int events = 0;
    for (int h = 0; h < shmpi_proc.hooks.nprogress; h++)
        if (shmpi_proc.hooks.armed[lane] & (1u << h))
            events += shmpi_proc.hooks.progress[h](lane);
    return events;
}

void shmpi_core_stall_hook_set(int (*fn)(void))
{
    shmpi_proc.hooks.stalled = fn;
}

void shmpi_core_woke_hook_set(void (*fn)(void))
{
    shmpi_proc.hooks.woke = fn;
}

void shmpi_core_turn_hook_set(int (*fn)(void))
{
    shmpi_proc.hooks.turn = fn;
}
