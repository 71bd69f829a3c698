/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lock.h - the small locks of the process state that threads share
 * under MPI_THREAD_MULTIPLE: keyvals, added error codes, Fortran
 * integers, memory segments, object names and error handlers.  Each
 * guards state that only calls off the message path touch, so a plain
 * mutex is enough; the message path has its own design.
 *
 *   static struct shmpi_core_lock l;     zero is unlocked
 *   shmpi_core_lock(&l); ... shmpi_core_unlock(&l);
 *   if (shmpi_core_mutex_trylock(&l)) { ... shmpi_core_mutex_unlock(&l); }
 *
 * shmpi_core_lock does nothing unless shmpi_proc.mt (the program asked
 * for MPI_THREAD_MULTIPLE): below MULTIPLE one caller at a time is the
 * program's promise, and the cost is one predicted branch.
 * shmpi_core_mutex_lock/unlock always lock, for state that other threads
 * of the library itself share whatever the level.
 *
 * The word (Drepper, "Futexes are tricky", mutex 2): 0 free, 1 held, 2
 * held and someone may sleep on it.
 *   lock:    CAS 0 -> 1 (acquire); else until an exchange of 2 returns
 *            0 (acquire): futex_wait(word, 2)
 *   unlock:  exchange 0 (release); if it returned 2: futex_wake(1)
 * The release exchange publishes everything written under the lock;
 * the next holder's acquire CAS or exchange reads it (it reads the
 * releasing store or a later one of the same word's modification
 * order, which continues the release sequence) and so sees it.  A
 * waiter marks the word 2 before it sleeps, and futex_wait sleeps only
 * if the word still is 2: an unlock between the mark and the sleep
 * stores 0, the kernel finds 0 != 2 and returns at once, so no wake-up
 * is lost.  A waiter that takes the lock with an exchange of 2 may
 * leave the word 2 with nobody asleep: its unlock then costs one
 * needless wake-up.  The futex is private (FUTEX_PRIVATE_FLAG): the
 * word is in this process's memory, and a private futex skips the
 * shared-mapping lookup.
 */
#ifndef SHMPI_CORE_LOCK_H
#define SHMPI_CORE_LOCK_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/lock_type.h"
#include "core/proc.h"

void shmpi_core_mutex_lock_slow(struct shmpi_core_lock *l);
void shmpi_core_mutex_wake(struct shmpi_core_lock *l);

static inline void shmpi_core_mutex_lock(struct shmpi_core_lock *l)
{
    uint32_t free_ = 0;
    if (!atomic_compare_exchange_strong_explicit(
            &l->word, &free_, 1, memory_order_acquire, memory_order_relaxed))
        shmpi_core_mutex_lock_slow(l);
}

static inline void shmpi_core_mutex_unlock(struct shmpi_core_lock *l)
{
    if (atomic_exchange_explicit(&l->word, 0, memory_order_release) == 2)
        shmpi_core_mutex_wake(l);
}

/* 1 with l now held (acquire), or 0 at once if another thread holds it.
   A load first: a failing CAS would take the line from the holder. */
static inline int shmpi_core_mutex_trylock(struct shmpi_core_lock *l)
{
    uint32_t free_ = 0;
    return atomic_load_explicit(&l->word, memory_order_relaxed) == 0 &&
           atomic_compare_exchange_strong_explicit(
               &l->word, &free_, 1, memory_order_acquire,
               memory_order_relaxed);
}

static inline void shmpi_core_lock(struct shmpi_core_lock *l)
{
    if (shmpi_proc.mt)
        shmpi_core_mutex_lock(l);
}

static inline void shmpi_core_unlock(struct shmpi_core_lock *l)
{
    if (shmpi_proc.mt)
        shmpi_core_mutex_unlock(l);
}

#endif
