/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * local_check.c - a target's own loads and stores of its window memory
 * that meet a remote access of the same epoch (MPI-3.1 11.7, the rules
 * on local and RMA accesses to one location, and 11.7's unified model:
 * a location a put updates may not be loaded or stored by its owner,
 * and one a get reads or an accumulate updates may not be stored, until
 * the remote access is complete at the target and the two are
 * synchronized - the epoch's end at a fence or MPI_Win_wait, or the
 * origin's flush or unlock and then a barrier or message, with
 * MPI_Win_sync in a passive-target epoch); check mode only.  A load of
 * an element an accumulate updates is let pass: the update is atomic
 * per element (11.7.1), and polling a flag that accumulates set is how
 * correct programs wait (test/rma_lock_passive.c).
 *
 * shmpi moves RMA data at the call, through every member's mapping of
 * the target's memory (win.h), so such a program sees one order of the
 * two here and races on another MPI, or on this one as timing changes.
 *
 * THE METHOD.  The memory of MPI_Win_allocate and
 * MPI_Win_allocate_shared is a paged range of watch.c in its owner,
 * from the constructor to MPI_Win_free: none of its pages protected
 * until a remote access notes its bytes in the owner's conflict table
 * (conflict_check.c).  That access, at its origin, then asks the owner
 * to arm the pages it touched (a real-time signal; in the owner the
 * handler protects them: PROT_NONE for a put, which writes the bytes,
 * PROT_READ for a get, which a load may share, and for an accumulate,
 * whose element-wise atomic update a load may poll) and
 * waits until it is done, so that a load or store the owner makes after
 * the access's call returned - after the message that told it so, say
 * - faults.  A fault hands the byte to `page` below, which looks up the
 * live notes of the epoch in the owner's table: one that covers the byte
 * and meets the access is reported, naming the local access (rank, load
 * or store, its byte of the window and its address) and the remote one
 * (origin, call, bytes), and is watched no more; the page keeps the
 * protection its other live notes need, and an access to other bytes of
 * it is single-stepped (watch.c).  A page whose notes are gone - the
 * origins flushed, unlocked or completed - is given back at its first
 * fault; MPI_Win_fence gives every page back at once, after its
 * barrier (when every arm of the epoch it ended is in: an origin waits
 * for its arms before its put returns), and arms again those of the
 * next epoch's accesses made since.
 *
 * A TARGET ASLEEP in a wait of its own (core/wait.c) is not signalled:
 * waking it costs a switch and, on a loaded machine, a time slice per
 * access.  Its accesses leave their notes unarmed, and the target arms
 * them itself as it leaves the sleep (core's woke hook), before its
 * wait returns to the program (conflict_check.c says how the two sides
 * see each other).  Nor is A TARGET BUSY in MPI_Win_fence or in a
 * checked MPI_Put, MPI_Get or accumulate of its own on the window
 * (shmpi_rma_local_enter, _leave: a word in its conflict table, which
 * the accesses read as they read the sleeper count): it arms the notes
 * made meanwhile as it leaves the call, and those that came while it
 * waited in the fence's barrier belong to the epoch the barrier ended
 * and are never armed.  A stencil's neighbour puts nearly always find
 * their target there (strace -c -f on test/rma_stencil.c, 500 steps at
 * np = 2, 2026-11-30: 983 arm signals before, 7 after).
 *
 * WHY THE COST STAYS BOUNDED.  Watching the whole window while an
 * exposure epoch is open would single-step every store of a stencil's
 * compute loop - two signals and two mprotect calls each, thousands of
 * times the store - for the whole run, since fence epochs follow each
 * other without a gap.  Here a page is protected only between a remote
 * access to it and the owner's first access after that access is
 * complete (or the next fence): a halo exchange protects the halo's
 * pages from the puts to the fence, a span in which a correct program
 * does not touch those bytes, and the interior pages never.  What one
 * remote access costs: a signal to its target (none when the target
 * sleeps or is busy) and a wait for the handler's few mprotect calls,
 * and the mprotect that gives its pages back; a page of the target's
 * own that a remote access armed costs two signals for each of the
 * program's accesses to its other bytes until the epoch's end (not the
 * library's: below).  Measured on test/rma_stencil.c
 * (man/man7/shmpi_check.7, COST).
 *
 * Not seen (the man page says so): a local access made before the
 * remote one arrived (nothing is watched yet: the other order of the
 * same race is); accesses by other processes through
 * MPI_Win_shared_query's pointers; MPI_Win_create's and dynamic
 * windows' memory (the program's own, often beside its stack or other
 * data); MPI_Fetch_and_op and MPI_Compare_and_swap, and the accesses
 * conflict_check.c does not note (derived target types, sync_ops
 * epochs, beyond its 64 notes); processes where watch.c cannot watch
 * (MPI_THREAD_MULTIPLE, other processors than x86-64); windows beyond
 * watch.c's slots.  A system call given bytes of an armed page (read(2)
 * into the window beside a pending put's bytes) fails with EFAULT; a
 * system call of the program interrupted by the arm signal is restarted
 * (SA_RESTART) where the kernel restarts it.
 *
 * THE LIBRARY'S OWN COPIES of the program's buffers - the origin of a
 * put or an accumulate, read at the call and hashed by origin_check.c,
 * the result of a get or a fetching accumulate, written at the call -
 * lie in window memory when a stencil sends its halo from its edge
 * cells, on the pages its neighbours' puts arm.  They go through a
 * second mapping of the window's pages, made at the watch and never
 * protected (shmpi_rma_local_unwatched), after a look at the live notes
 * that finds what a fault would have found: a copy that meets a note is
 * reported as a load or store of this process, and one beside the notes
 * costs no fault, no step and no mprotect.  Before, each cost two
 * signals and two mprotect calls, three or four times a step on
 * test/rma_stencil.c (strace -c -f, 2026-11-30: 4735 mprotect calls in
 * 500 steps at np = 2, 2017 after).  The library's copies into its own
 * window as a target (a put to oneself) still go through the protected
 * mapping, since finding them would cost MPI_Put's fast path: they are
 * stepped, and reported only where they meet a live note, which the put
 * then conflicts with anyway (11.7.1); so do the sends of pt2pt from
 * window memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/check.h"
#include "core/hooks.h"
#include "core/proc.h"
#include "rma/watch.h"
#include "rma/xfer.h"

#define MAX_WATCHED 64 /* watch.c's slots: an id indexes `watched` */

/* What the handler needs of a watched window, made at the watch: it
   formats no label of its own. */
struct local {
    MPI_Win win;
    uintptr_t base, size, page;
    /* the window's pages mapped a second time, never protected (the
       library's own accesses, shmpi_rma_local_unwatched), or NULL */
    unsigned char *alias;
    size_t alias_len;
    char label[MPI_MAX_OBJECT_NAME + 48];
};

/* The watched windows, for the wake hook and the library's accesses:
   changed by the calls that make and free windows, read by the hook and
   the RMA calls in the same thread (below MPI_THREAD_MULTIPLE, which
   watch.c needs; above it nothing is watched and this stays empty). */
static struct local *watched[MAX_WATCHED];

/* core/wait.c's hook, as a thread leaves a sleep: the notes of the
   accesses made meanwhile armed (conflict_check.c). */
static void woke(void)
{
    for (int i = 0; i < MAX_WATCHED; i++)
        if (watched[i])
            shmpi_rma_conflict_arm_pending(watched[i]->win,
                                           watched[i]->win->check_watch - 1,
                                           0);
}

static void report(const struct local *l, uintptr_t a, int write,
                   const struct shmpi_rma_conflict_hit *h)
{
    shmpi_core_check_report(
        "local access to window memory conflicting with an RMA access in "
        "one epoch",
        "11.7",
        "complete the remote access and synchronize before the local one "
        "(end the epoch with MPI_Win_fence or MPI_Win_wait, or have the "
        "origin flush or unlock and then tell this rank, with "
        "MPI_Win_sync before the access in a passive-target epoch), or "
        "use other bytes",
        "rank %d's %s of byte %llu of its window (address %p, %s) and "
        "rank %d's %s, to bytes %llu-%llu of it",
        shmpi_proc.rank, write ? "store" : "load",
        (unsigned long long)(a - l->base), (void *)a, l->label, h->origin,
        h->call, (unsigned long long)h->lo, (unsigned long long)(h->hi - 1));
}

/* watch.c's page callback, in the SIGSEGV handler: the access at a
   checked against the epoch's notes; the protection its page keeps. */
static int page(void *arg, void *addr, int write)
{
    const struct local *l = arg;
    uintptr_t a = (uintptr_t)addr, p = a & ~(l->page - 1);
    uint64_t plo = p > l->base ? p - l->base : 0;
    uint64_t phi = p + l->page - l->base < l->size ? p + l->page - l->base
                                                    : l->size;
    uint64_t off = a >= l->base && a - l->base < l->size ? a - l->base
                                                         : UINT64_MAX;
    struct shmpi_rma_conflict_hit h;
    int prot = shmpi_rma_conflict_local(l->win, off, off + 1, write, plo, phi,
                                        &h);
    if (h.found)
        report(l, a, write, &h);
    return prot;
}

/* The window's pages mapped a second time (its memory is a shared
   mapping, of a memfd or of the shared flavor's segment: mremap with an
   old size of 0 maps the same pages again), before any is protected;
   left NULL when the kernel refuses. */
static void alias(struct local *l)
{
    uintptr_t lo = l->base & ~(l->page - 1);
    size_t len = ((l->base + l->size - 1) & ~(l->page - 1)) + l->page - lo;
    void *m = mremap((void *)lo, 0, len, MREMAP_MAYMOVE);
    if (m == MAP_FAILED)
        return;
    l->alias = m;
    l->alias_len = len;
}

/* The bytes count elements of dt at buf reach: [*lo, *hi) as offsets
   from buf; 0 if they overflow. */
static int span(MPI_Count count, MPI_Datatype dt, intptr_t *lo, intptr_t *hi)
{
    intptr_t last;
    if (__builtin_mul_overflow((intptr_t)(count - 1), (intptr_t)dt->extent,
                               &last) ||
        __builtin_add_overflow(dt->true_ub, last > 0 ? last : 0, hi))
        return 0;
    *lo = dt->true_lb + (last < 0 ? last : 0);
    return 1;
}

void *shmpi_rma_local_unwatched(const void *buf, MPI_Count count,
                                MPI_Datatype dt, int write)
{
    intptr_t lo, hi;
    if (count <= 0 || !span(count, dt, &lo, &hi))
        return (void *)buf;
    uintptr_t a = (uintptr_t)buf + (uintptr_t)lo;
    uintptr_t b = (uintptr_t)buf + (uintptr_t)hi;
    for (int i = 0; i < MAX_WATCHED; i++) {
        const struct local *l = watched[i];
        if (!l || !l->alias || !(l->base <= a && a < b && b <= l->base + l->size))
            continue;
        /* what a fault on its first byte would have said, whether its
           page is armed yet or not */
        struct shmpi_rma_conflict_hit h;
        shmpi_rma_conflict_local(l->win, a - l->base, b - l->base, write, 0,
                                 0, &h);
        if (h.found)
            report(l, l->base + h.at, write, &h);
        return (void *)((uintptr_t)l->alias + (uintptr_t)buf -
                        (l->base & ~(l->page - 1)));
    }
    return (void *)buf;
}

void shmpi_rma_local_watch(MPI_Win win)
{
    if ((win->flavor != MPI_WIN_FLAVOR_ALLOCATE &&
         win->flavor != MPI_WIN_FLAVOR_SHARED) ||
        win->size <= 0 || !shmpi_rma_watch_possible())
        return;
    struct local *l = malloc(sizeof *l);
    if (!l)
        return; /* unchecked: the check must not fail the program */
    *l = (struct local){win, (uintptr_t)win->base, (uintptr_t)win->size,
                        (uintptr_t)sysconf(_SC_PAGESIZE), NULL, 0, ""};
    shmpi_win_label_short(win, l->label, sizeof l->label);
    alias(l);
    int id = shmpi_rma_watch_paged(win->base, (size_t)win->size, page, l,
                                   shmpi_rma_conflict_armed(win));
    if (id < 0) {
        if (l->alias)
            munmap(l->alias, l->alias_len);
        free(l);
        return;
    }
    win->check_watch = id + 1;
    watched[id] = l;
    shmpi_core_woke_hook_set(woke);
    shmpi_rma_conflict_watcher(win, id);
}

void shmpi_rma_local_unwatch(MPI_Win win)
{
    if (!win->check_watch)
        return;
    shmpi_rma_conflict_watcher(win, -1);
    struct local *l = shmpi_rma_watch_arg(win->check_watch - 1);
    watched[win->check_watch - 1] = NULL;
    shmpi_rma_watch_remove(win->check_watch - 1);
    if (l->alias)
        munmap(l->alias, l->alias_len);
    free(l);
    win->check_watch = 0;
}

/* After the fence's barrier, when every access of the epoch it ended
   has armed what it armed (an origin waits for its arms before its put
   returns, so before it enters the fence): every page given back, then
   those of the next epoch's accesses made since, armed again. */
void shmpi_rma_local_fence(MPI_Win win)
{
    if (!win->check_watch)
        return;
    shmpi_rma_watch_disarm(win->check_watch - 1);
    shmpi_rma_conflict_busy(win, 0);
    shmpi_rma_conflict_arm_pending(win, win->check_watch - 1, 1);
}

void shmpi_rma_local_enter(MPI_Win win)
{
    if (win->check_watch)
        shmpi_rma_conflict_busy(win, 1);
}

/* busy cleared, then (arm_pending's full fence first) the notes read:
   an access that saw busy set made its note before that fence, and
   arm_pending sees it (conflict_check.c) */
void shmpi_rma_local_leave(MPI_Win win)
{
    if (!win->check_watch)
        return;
    shmpi_rma_conflict_busy(win, 0);
    shmpi_rma_conflict_arm_pending(win, win->check_watch - 1, 0);
}
