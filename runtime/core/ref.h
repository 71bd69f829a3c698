/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ref.h - the reference counts of the objects a rank's threads share:
 * communicators (objects.c), groups (comm/group.c), datatypes
 * (datatypes/type.c), reduction ops (datatypes/ops.c) and error
 * handlers (errhandler.c).
 *
 *   _Atomic int refs;                     in the object, 1 at birth
 *   shmpi_core_ref_inc(&o->refs);         take a reference
 *   if (shmpi_core_ref_dec(&o->refs))     drop one: true for the last,
 *       destroy(o);                       whose caller frees the object
 *
 * Under MPI_THREAD_MULTIPLE (shmpi_proc.mt) two threads may take and
 * drop references to one object at once (a datatype both send, a group
 * both derive from), so the count is a read-modify-write:
 *   - increment: fetch_add relaxed.  Whoever increments holds a
 *     reference already (its handle, or an object that holds one), so
 *     the object cannot die meanwhile and nothing needs ordering; the
 *     count only has to stay exact, which the atomicity ensures.
 *   - decrement: fetch_sub acq_rel, and the one that takes the count
 *     from 1 to 0 destroys.  Release: each thread's uses of the object
 *     (reads of its fields, the data it packed with it) come before its
 *     decrement; acquire: the last decrement reads the release sequence
 *     of every earlier one (all of them are read-modify-writes of the
 *     same word), so the destruction comes after every other thread's
 *     last use - no thread touches freed memory, and the destroyer sees
 *     the writes other threads made to the object.
 * Below MULTIPLE one thread at a time calls MPI (the program's promise),
 * and the count is a relaxed load and store: on x86 the two plain moves
 * of a ++ or --, not the locked instruction (`lock xadd`, ~20 cycles) a
 * fetch_add costs.  Communicator counts sit on the nonblocking send path
 * (each request holds one), so the choice is one predicted branch on
 * `mt`, which is set once by MPI_Init.
 */
#ifndef SHMPI_CORE_REF_H
#define SHMPI_CORE_REF_H

#include <stdatomic.h>

#include "core/proc.h"

static inline void shmpi_core_ref_inc(_Atomic int *refs)
{
    if (__builtin_expect(shmpi_proc.mt, 0)) {
        atomic_fetch_add_explicit(refs, 1, memory_order_relaxed);
        return;
    }
    atomic_store_explicit(refs,
                          atomic_load_explicit(refs, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

/* True when this dropped the last reference. */
static inline int shmpi_core_ref_dec(_Atomic int *refs)
{
    if (__builtin_expect(shmpi_proc.mt, 0))
        return atomic_fetch_sub_explicit(refs, 1, memory_order_acq_rel) == 1;
    int n = atomic_load_explicit(refs, memory_order_relaxed) - 1;
    atomic_store_explicit(refs, n, memory_order_relaxed);
    return n == 0;
}

/* The count now: exact only when no other thread holds a reference
   (MPI_Type_free asks whether the handle's is the last). */
static inline int shmpi_core_ref_count(_Atomic int *refs)
{
    return atomic_load_explicit(refs, memory_order_acquire);
}

#endif
