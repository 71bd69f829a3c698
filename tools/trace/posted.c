/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * posted.c - the receives posted with MPI_Irecv and not yet completed:
 * their request handle, communicator and posting time, kept until the
 * Wait or Test that completes them (p2p.c) gives their status.
 *
 * One table per thread that posts, so that a program's own thread finds
 * its receives without a lock shared with anyone: each table has a flag
 * its users hold while they read or change it, which nobody else takes
 * unless a request posted on one thread is completed on another.  Held
 * uncontended, it is one atomic exchange and one store (the process-wide
 * mutex it replaces cost 53 instructions a lock and unlock, callgrind,
 * 2026-11-30, six of them per halo iteration).
 *
 * Synchronization: a table's slots are read and written only with its
 * busy flag held - test_and_set with acquire takes it, clear with release
 * gives it back, so whatever a holder wrote is seen by the next.  Tables
 * are pushed on the list (never removed) with a release CAS of its head,
 * after their slots were zeroed; a reader loads the head with acquire,
 * so it sees every table pushed before and its slots as they were made.
 * A request is completed on another thread only after the program passed
 * the handle to it (its own synchronization), so the table it was posted
 * in is on the list by then.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "wrap.h"

#define SLOTS 4096   /* a thread's MPI_Irecvs in flight that are followed */

struct table {
    atomic_flag busy;
    struct table *next;
    struct shmpi_trace_posted slot[SLOTS];
};

static _Atomic(struct table *) tables;
static _Thread_local struct table *mine
    __attribute__((tls_model("initial-exec")));   /* record.c says why */

static unsigned slot_of(MPI_Request req)
{
    return (unsigned)(((uintptr_t)req >> 4) * 2654435761u) % SLOTS;
}

static void hold(struct table *t)
{
    while (atomic_flag_test_and_set_explicit(&t->busy, memory_order_acquire))
        ;
}

static void release(struct table *t)
{
    atomic_flag_clear_explicit(&t->busy, memory_order_release);
}

static struct table *own_table(void)
{
    if (__builtin_expect(mine != NULL, 1))
        return mine;
    struct table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    atomic_flag_clear(&t->busy);
    t->next = atomic_load_explicit(&tables, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(
        &tables, &t->next, t, memory_order_release, memory_order_relaxed))
        ;
    return mine = t;
}

/* Linear probing; a full table forgets the receive (no arrow). */
void shmpi_trace_remember(MPI_Request req, MPI_Comm comm, uint64_t t)
{
    struct table *tb = own_table();
    if (!tb)
        return;
    hold(tb);
    for (unsigned i = 0, s = slot_of(req); i < SLOTS; i++, s = (s + 1) % SLOTS)
        if (!tb->slot[s].req) {
            tb->slot[s] = (struct shmpi_trace_posted){req, comm, t};
            break;
        }
    release(tb);
}

/* Takes req's entry out of tb (backward-shift deletion keeps the probe
   chains whole); 0 if it is not there.  Inline: a Wait's lookup in its
   own thread's table is one call, not two (18 instructions a halo isend
   iteration, callgrind, 2026-11-30). */
SHMPI_TRACE_INLINE int
take(struct table *tb, MPI_Request req, struct shmpi_trace_posted *out)
{
    struct shmpi_trace_posted *sl = tb->slot;
    int found = 0;
    hold(tb);
    unsigned s = slot_of(req);
    for (unsigned i = 0; i < SLOTS && sl[s].req; i++, s = (s + 1) % SLOTS)
        if (sl[s].req == req) {
            found = 1;
            break;
        }
    if (found) {
        *out = sl[s];
        sl[s].req = NULL;
        for (unsigned j = (s + 1) % SLOTS; sl[j].req; j = (j + 1) % SLOTS) {
            unsigned home = slot_of(sl[j].req);
            if ((j > s && (home <= s || home > j)) ||
                (j < s && (home <= s && home > j))) {
                sl[s] = sl[j];
                sl[j].req = NULL;
                s = j;
            }
        }
    }
    release(tb);
    return found;
}

/* req's entry, taken out: this thread's table first, then the others';
   0 if req was not followed (a send, a receive not posted by
   MPI_Irecv). */
int shmpi_trace_forget(MPI_Request req, struct shmpi_trace_posted *out)
{
    if (req == MPI_REQUEST_NULL)
        return 0;
    if (mine && take(mine, req, out))
        return 1;
    for (struct table *t = atomic_load_explicit(&tables, memory_order_acquire);
         t; t = t->next)
        if (t != mine && take(t, req, out))
            return 1;
    return 0;
}
