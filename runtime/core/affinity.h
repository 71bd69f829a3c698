/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * affinity.h - the CPUs the calling thread may run on, in a set as large
 * as the kernel needs (a machine may have more CPUs than CPU_SETSIZE):
 * the launcher's pool of CPUs to bind ranks to (launcher/bind.c) and a
 * rank's binding, which decides its groups in MPI_Comm_split_type's
 * hardware levels (comm/split_hw.c).
 */
#ifndef SHMPI_CORE_AFFINITY_H
#define SHMPI_CORE_AFFINITY_H

#include <sched.h>

/* A set from CPU_ALLOC (the caller CPU_FREEs it) of *size bytes, and
   its count of CPUs in *ncpus; NULL without memory or affinity. */
cpu_set_t *shmpi_core_affinity(size_t *size, int *ncpus);

#endif
