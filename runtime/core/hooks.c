/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hooks.c - the registry of progress hooks (hooks.h says who registers
 * what, and when).  Per process, and touched by the thread that is
 * inside MPI only (MPI_THREAD_SERIALIZED at most): plain variables.
 */
#include "core/error.h"
#include "core/hooks.h"

struct shmpi_core_hooks shmpi_core_hooks;

int shmpi_core_progress_hook_add(int (*fn)(void))
{
    if (shmpi_core_hooks.nprogress == SHMPI_PROGRESS_HOOKS_MAX)
        shmpi_core_fatal(MPI_ERR_INTERN, "MPI_Init",
                         "more progress hooks than SHMPI_PROGRESS_HOOKS_MAX");
    shmpi_core_hooks.progress[shmpi_core_hooks.nprogress] = fn;
    return shmpi_core_hooks.nprogress++;
}

int shmpi_core_run_armed_hooks(void)
{
    int events = 0;
    for (int h = 0; h < shmpi_core_hooks.nprogress; h++)
        if (shmpi_core_hooks.armed & (1u << h))
            events += shmpi_core_hooks.progress[h]();
    return events;
}

void shmpi_core_stall_hook_set(int (*fn)(void))
{
    shmpi_core_hooks.stalled = fn;
}
