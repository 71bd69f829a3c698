/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lock.c - the contended side of lock.h's mutex: spin a little (the
 * holder of a lock of process state runs a few hundred instructions),
 * then sleep on the word.
 */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/lock.h"
#include "core/wait.h"

/* Loads of a held word before the first sleep: about a microsecond. */
#define SHMPI_LOCK_SPINS 100

void shmpi_core_mutex_lock_slow(struct shmpi_core_lock *l)
{
    for (int i = 0; i < SHMPI_LOCK_SPINS && !shmpi_proc.oversubscribed; i++) {
        uint32_t free_ = 0;
        if (atomic_load_explicit(&l->word, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_weak_explicit(&l->word, &free_, 1,
                                                  memory_order_acquire,
                                                  memory_order_relaxed))
            return;
        shmpi_cpu_relax();
    }
    while (atomic_exchange_explicit(&l->word, 2, memory_order_acquire) != 0)
        syscall(SYS_futex, (uint32_t *)&l->word, FUTEX_WAIT_PRIVATE, 2, NULL,
                NULL, 0);
}

void shmpi_core_mutex_wake(struct shmpi_core_lock *l)
{
    syscall(SYS_futex, (uint32_t *)&l->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL,
            0);
}
