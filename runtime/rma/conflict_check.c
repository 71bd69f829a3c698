/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * conflict_check.c - two RMA accesses to the same target bytes in one
 * epoch where MPI-3.1 11.7.1 makes the program erroneous: a put with any
 * other access, a get with a put or an accumulate, and two accumulates
 * of different ops or basic types (accumulates of one op and type are
 * atomic per element, and may overlap; so may gets, and an
 * MPI_Get_accumulate with MPI_NO_OP, a read, with any accumulate of its
 * type) - of one origin or of two; check mode only.
 *
 * shmpi moves the data at the call, in program order, so the result
 * here is the one a program expects; on another MPI the two may reach
 * the target in either order, or interleaved.
 *
 * THE NOTES.  Each put, get and accumulate to a contiguous target range
 * notes [lo, hi) of the target's bytes - the byte offset disp *
 * disp_unit in the target's window, or on a dynamic window the target's
 * address disp: the same numbers in every process - in the target's
 * table, and is first compared with the notes there, its own origin's
 * and the others'.  A note lives until its origin completes the access
 * at the target: MPI_Win_fence, MPI_Win_complete, MPI_Win_unlock(_all)
 * (for the epoch), MPI_Win_flush (its target) and MPI_Win_flush_all
 * remove the origin's notes - before the synchronization that lets any
 * other access follow (the complete's count, the lock's release), so a
 * later epoch's access never meets a note of an earlier one.  A fence
 * epoch ends for all members at once, at the fence's barrier, after
 * which some origins may already make the next epoch's accesses while
 * others have not removed notes yet: so a note made in a fence epoch
 * carries the number of fences its origin called on the window, the
 * same at every member (a collective), and is stale - a free slot - to
 * an access made after a later fence.  Two notes therefore meet exactly when neither access was
 * complete at the target when the other was made: concurrent, 11.7.1's
 * word, unless the program ordered them by other means (a message after
 * an MPI_Win_flush_local, say), which the check takes for a conflict too.
 * An access completed and then raced by another origin's unsynchronized
 * one is not seen.
 *
 * THE TABLE of a target is in its block of the window's control segment
 * (win_new.c), made only in check mode (shmpi_rma_conflict_bytes): SLOTS
 * notes under a spin lock word.  Lock: exchange 1 (acquire), until it
 * returned 0; unlock: store 0 (release): the notes written under the
 * lock are seen by the next holder, in any process.  Held for a scan of
 * SLOTS notes and never across a wait, so waiters spin, yielding the
 * CPU when ranks outnumber cores.  Accesses beyond SLOTS notes go
 * unchecked until a completion frees places.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/check.h"
#include "core/objects.h"
#include "core/proc.h"
#include "core/wait.h"
#include "rma/watch.h"
#include "rma/xfer.h"

#define SLOTS 64
#define ARM_WAIT_S 2 /* seconds an access waits for its target's arm */

struct note {
    int32_t origin;            /* world rank + 1; 0: the slot is free */
    int32_t kind;              /* MPI_MODE_WIN_PUT, _GET, _ACCUMULATE */
    uint64_t lo, hi;           /* [lo, hi) of the target's bytes */
    int64_t basic;             /* the basic type, as an offset from
                                  MPI_BYTE (the same in every process of
                                  one program), or INT64_MIN: mixed */
    int32_t op;                /* accumulates: enum shmpi_op_code */
    uint32_t fence;            /* made in a fence epoch: the origin's
                                  win->check_fences then; else 0 */
    int32_t local;             /* reported against the target's own
                                  access (local_check.c): not again */
    int32_t armed;             /* its pages armed by the target itself,
                                  on waking (arm_pending) */
    char call[160];            /* "MPI_Put(target=1, disp=0, 16 bytes,
                                  window #1)" */
};

struct shmpi_rma_conflict_table {
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t lock;
    uint32_t used;             /* notes in the table, for the skip below */
    /* the target's watch of its own window memory (local_check.c),
       under the lock: its pid, or 0 when it has none, and the watch's
       id; the arms asked of it and done (watch.c raises arm_done, with
       release, in the target) */
    int32_t pid;
    int32_t watch;
    int32_t world;             /* the target's world rank */
    _Atomic uint32_t arm_asked, arm_done;
    /* 1 while the target is inside an MPI call on the window that arms
       the notes made meanwhile before it returns (local_check.c): written
       by the target alone, read by the accessors (see
       shmpi_rma_conflict_note) */
    _Atomic uint32_t busy;
    struct note slot[SLOTS];
};

size_t shmpi_rma_conflict_bytes(void)
{
    return shmpi_core_checking() ? sizeof(struct shmpi_rma_conflict_table)
                                 : 0;
}

static struct shmpi_rma_conflict_table *table_of(MPI_Win win, int target)
{
    return (struct shmpi_rma_conflict_table *)shmpi_win_conflict_block(
        win, target);
}

static void lock(struct shmpi_rma_conflict_table *t)
{
    while (atomic_exchange_explicit(&t->lock, 1, memory_order_acquire))
        sched_yield();
}

static void unlock(struct shmpi_rma_conflict_table *t)
{
    atomic_store_explicit(&t->lock, 0, memory_order_release);
}

/* Is a note of this epoch?  fence: the accessor's epoch's tag (ditto). */
static int live(const struct note *a, uint32_t fence)
{
    return a->origin && (a->fence == 0 || a->fence == fence);
}

/* May a and b touch the same bytes in one epoch (11.7.1)? */
static int compatible(const struct note *a, const struct note *b)
{
    if (a->kind == MPI_MODE_WIN_GET && b->kind == MPI_MODE_WIN_GET)
        return 1;
    if (a->kind != MPI_MODE_WIN_ACCUMULATE ||
        b->kind != MPI_MODE_WIN_ACCUMULATE || a->basic != b->basic ||
        a->basic == INT64_MIN)
        return 0;
    return a->op == b->op || a->op == SHMPI_OP_NO_OP ||
           b->op == SHMPI_OP_NO_OP;
}

static void report(const struct note *old, const struct note *new)
{
    uint64_t lo = old->lo > new->lo ? old->lo : new->lo;
    uint64_t hi = old->hi < new->hi ? old->hi : new->hi;
    shmpi_core_check_report(
        "conflicting RMA accesses to the same target bytes in one epoch",
        "11.7.1",
        "complete the first at the target (MPI_Win_flush, or end the "
        "epoch) before the second is made, or make both accumulates of "
        "one op and type",
        "rank %d's %s and rank %d's %s overlap in %llu bytes",
        old->origin - 1, old->call, new->origin - 1, new->call,
        (unsigned long long)(hi - lo));
}

/* Does a local access (a store: write) meet note a?  A put writes the
   bytes: any access; a get reads them: stores.  An accumulate writes
   them element by element, atomically (11.7.1), so that a load sees
   each element before or after it: stores only - polling a flag that
   accumulates set is how many correct programs wait. */
static int meets(const struct note *a, int write)
{
    return write || a->kind == MPI_MODE_WIN_PUT;
}

/* The protection a page under note a needs: what meets() lets pass. */
static int prot_for(const struct note *a)
{
    return a->kind == MPI_MODE_WIN_PUT ? PROT_NONE : PROT_READ;
}

/* The target watches its window memory (local_check.c): its pages
   under note n armed (prot_for) before the access's call returns, so
   that a load or store the target makes after it, in the same epoch,
   faults.  The wait for
   the target's handler is bounded: a target that cannot take the signal
   (stopped, gone) leaves the access unwatched. */
static void arm(MPI_Win win, int target,
                struct shmpi_rma_conflict_table *t, int32_t pid,
                int32_t watch, const struct note *n)
{
    uint32_t ticket =
        atomic_fetch_add_explicit(&t->arm_asked, 1, memory_order_relaxed) + 1;
    if (shmpi_rma_watch_arm(pid, watch, win->targets[target].remote_base,
                            n->lo, n->hi - n->lo, prot_for(n))) {
        atomic_fetch_add_explicit(&t->arm_done, 1, memory_order_relaxed);
        return; /* the count kept whole for the armers after it */
    }
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while ((int32_t)(atomic_load_explicit(&t->arm_done,
                                          memory_order_acquire) -
                     ticket) < 0) {
        sched_yield();
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec > ARM_WAIT_S)
            return;
    }
}

void shmpi_rma_conflict_note(MPI_Win win, int target, MPI_Aint disp,
                             uint64_t len, MPI_Datatype ttype, int kind,
                             MPI_Op op, const char *fn)
{
    if (!ttype->contig || len == 0 || win->access == SHMPI_EPOCH_SYNC_OPS)
        return;
    uint64_t lo = win->flavor == MPI_WIN_FLAVOR_DYNAMIC
                      ? (uint64_t)disp
                      : (uint64_t)disp *
                            (uint64_t)win->targets[target].disp_unit;
    struct note n = {
        shmpi_proc.rank + 1, kind, lo, lo + len,
        ttype->basic ? (int64_t)((uintptr_t)ttype->basic -
                                 (uintptr_t)MPI_BYTE)
                     : INT64_MIN,
        op == MPI_OP_NULL ? -1 : (int32_t)op->code,
        win->access == SHMPI_EPOCH_FENCE ? win->check_fences : 0, 0, 0, ""};
    char label[MPI_MAX_OBJECT_NAME + 48];
    shmpi_win_label_short(win, label, sizeof label);
    snprintf(n.call, sizeof n.call, "%s(target=%d, disp=%lld, %llu bytes, %.64s)",
             fn, target, (long long)disp, (unsigned long long)len, label);
    struct shmpi_rma_conflict_table *t = table_of(win, target);
    struct note *free = NULL;
    lock(t);
    for (int i = 0; i < SLOTS; i++) {
        struct note *a = &t->slot[i];
        if (!live(a, n.fence)) {
            free = free ? free : a;
        } else if (a->lo < n.hi && n.lo < a->hi && !compatible(a, &n)) {
            report(a, &n);
            free = NULL; /* one report per access; not noted again */
            break;
        }
    }
    if (free) {
        t->used += !free->origin;
        *free = n;
    }
    int32_t pid = free ? t->pid : 0, watch = t->watch, world = t->world;
    unlock(t);
    /* A target asleep in a wait of its own arms the note itself as it
       wakes (arm_pending, before its wait returns): no signal to wake
       it for; so does a target inside a call that arms as it returns
       (busy).  The note (the unlock's release), then a full fence, then
       its sleeper count and busy word; the target lowers the count or
       clears the word, then a full fence, then reads its notes: one of
       the two sees the other. */
    atomic_thread_fence(memory_order_seq_cst);
    if (pid && !atomic_load_explicit(shmpi_core_doorbell_sleepers(world),
                                     memory_order_relaxed) &&
        !atomic_load_explicit(&t->busy, memory_order_relaxed))
        arm(win, target, t, pid, watch, &n);
}

/* This process's notes at target, gone: the accesses completed there. */
static void forget(MPI_Win win, int target)
{
    struct shmpi_rma_conflict_table *t = table_of(win, target);
    int32_t me = shmpi_proc.rank + 1;
    lock(t);
    for (int i = 0; i < SLOTS && t->used; i++)
        if (t->slot[i].origin == me) {
            t->slot[i].origin = 0;
            t->used--;
        }
    unlock(t);
}

void shmpi_rma_conflict_fence(MPI_Win win)
{
    win->check_fences++;
}

void shmpi_rma_conflict_end(MPI_Win win, int target)
{
    if (target >= 0) {
        forget(win, target);
        return;
    }
    for (int r = 0; r < win->comm->size; r++)
        forget(win, r);
}

void shmpi_rma_conflict_watcher(MPI_Win win, int watch)
{
    struct shmpi_rma_conflict_table *t = table_of(win, win->comm->rank);
    lock(t);
    t->pid = watch >= 0 ? (int32_t)getpid() : 0;
    t->watch = watch;
    t->world = shmpi_proc.rank;
    unlock(t);
}

void shmpi_rma_conflict_busy(MPI_Win win, int on)
{
    atomic_store_explicit(&table_of(win, win->comm->rank)->busy, (uint32_t)on,
                          memory_order_relaxed);
}

_Atomic uint32_t *shmpi_rma_conflict_armed(MPI_Win win)
{
    return &table_of(win, win->comm->rank)->arm_done;
}

int shmpi_rma_conflict_local(MPI_Win win, uint64_t lo, uint64_t hi,
                             int write, uint64_t plo, uint64_t phi,
                             struct shmpi_rma_conflict_hit *hit)
{
    struct shmpi_rma_conflict_table *t = table_of(win, win->comm->rank);
    int prot = PROT_READ | PROT_WRITE, found = 0, left = 0;
    lock(t);
    for (int i = 0; i < SLOTS; i++) {
        struct note *a = &t->slot[i];
        if (!live(a, win->check_fences) || a->local)
            continue;
        left++;
        if (!found && a->lo < hi && lo < a->hi && meets(a, write)) {
            found = 1;
            a->local = 1;
            hit->origin = a->origin - 1;
            hit->lo = a->lo;
            hit->hi = a->hi;
            hit->at = a->lo > lo ? a->lo : lo;
            memcpy(hit->call, a->call, sizeof hit->call);
        } else if (a->lo < phi && plo < a->hi) {
            int want = prot_for(a);
            prot = want < prot ? want : prot;
        }
    }
    unlock(t);
    hit->found = found;
    return left > found ? prot : -1;
}

void shmpi_rma_conflict_arm_pending(MPI_Win win, int watch, int all)
{
    struct shmpi_rma_conflict_table *t = table_of(win, win->comm->rank);
    struct {
        uint64_t lo, hi;
        int prot;
    } pending[SLOTS];
    int n = 0;
    atomic_thread_fence(memory_order_seq_cst); /* see shmpi_rma_conflict_note */
    lock(t);
    for (int i = 0; i < SLOTS && t->used; i++) {
        struct note *a = &t->slot[i];
        if (live(a, win->check_fences) && !a->local && (all || !a->armed)) {
            a->armed = 1;
            pending[n].lo = a->lo;
            pending[n].hi = a->hi;
            pending[n++].prot = prot_for(a);
        }
    }
    unlock(t);
    for (int i = 0; i < n; i++)
        shmpi_rma_watch_arm_here(watch, (uintptr_t)win->base, pending[i].lo,
                                 pending[i].hi - pending[i].lo,
                                 pending[i].prot);
}
