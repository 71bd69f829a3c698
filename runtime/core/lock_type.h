/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lock_type.h - the lock word of core/lock.h alone, so that proc.h (which
 * lock.h includes for shmpi_proc.mt) and the headers of objects can embed
 * locks; the operations and their memory-ordering argument are lock.h's.
 */
#ifndef SHMPI_CORE_LOCK_TYPE_H
#define SHMPI_CORE_LOCK_TYPE_H

#include <stdatomic.h>
#include <stdint.h>

/* 0 free, 1 held, 2 held and someone may sleep on it (lock.h). */
struct shmpi_core_lock {
    _Atomic uint32_t word;
};

#endif
