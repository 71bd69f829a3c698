/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * affinity.c - the calling thread's affinity (affinity.h).
 * sched_getaffinity fails with EINVAL while the set is smaller than the
 * kernel's mask, so the set doubles until it fits.
 */
#include <errno.h>

#include "core/affinity.h"

cpu_set_t *shmpi_core_affinity(size_t *size, int *ncpus)
{
    for (int n = 1024; n <= (1 << 22); n *= 2) {
        cpu_set_t *set = CPU_ALLOC((size_t)n);
        if (!set)
            return NULL;
        *size = CPU_ALLOC_SIZE((size_t)n);
        if (sched_getaffinity(0, *size, set) == 0) {
            *ncpus = CPU_COUNT_S(*size, set);
            return set;
        }
        CPU_FREE(set);
        if (errno != EINVAL)
            return NULL;
    }
    return NULL;
}
