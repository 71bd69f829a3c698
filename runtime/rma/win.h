/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win.h - RMA windows (MPI-3.1 chapter 11): the window object, how every
 * member reaches every other member's window memory, and the shared
 * words that synchronization is made of.  The contract between the
 * rooms of runtime/rma/:
 *
 *   win_*.c      creation (four flavors), free, attributes, info, names,
 *                groups, keyvals, error handlers, attach/detach
 *                (win_impl.h: what they share)
 *   map.c        making memory reachable (map.h): a memfd segment is
 *                mapped by its peers through /proc/<pid>/fd/<fd>; private
 *                memory given to MPI_Win_create / MPI_Win_attach is moved
 *                onto a memfd at the same virtual addresses (contents
 *                kept) when that is safe, else reached by
 *                process_vm_readv/writev
 *   map_vm.c     shmpi_win_vm_readv/writev: process_vm, or where the
 *                kernel refuses it a helper thread in the target process
 *   epoch.c range.c args.c   the origin-side checks every RMA call
 *                makes (epoch; range; the other arguments), with
 *                messages that teach
 *   put.c get.c acc.c atomic.c rreq.c xfer.c   the data path (target
 *                addressed as described by struct shmpi_win_target;
 *                their shared checks and moves: xfer.h)
 *   fence.c pscw.c lock.c flush.c   synchronization (epochs below)
 *
 * THE DATA PATH.  A put is shmpi_dt_copy_typed() from the origin buffer into
 * the target's memory as mapped in this process (target->base +
 * disp * disp_unit), through both flattened datatypes, at the time of
 * the call: RMA calls complete locally and remotely when they return on
 * a direct target, so flush is a fence instruction and the end of an
 * epoch needs no message.  Targets reached by process_vm_* (direct == 0)
 * behave the same, with shmpi_win_vm_writev/readv in place of memcpy.
 * Who is direct: oneself always; the members' memory of
 * MPI_Win_allocate(_shared) always; MPI_Win_create memory unless it is
 * on a stack or in a file mapping (map.h); on a dynamic window, each
 * region as shmpi_win_region_find says.  Accumulates are
 * element-wise atomic: single elements with one hardware atomic, the
 * rest under the target's acc_lock held exclusively, and acclock.c keeps
 * the two kinds from interleaving on an element.
 *
 * THE SHARED WORDS.  One control segment per window (a memfd made by
 * member 0 and mapped by all) holds one struct shmpi_win_ctl per member,
 * each on its own cache lines; they are written by several processes
 * with C11 atomics, and each function that touches one says which store
 * publishes what (see lockword.c, pscw.c).  A process that waits on
 * one spins briefly, then sleeps on its own doorbell (core/wait.h), not
 * on the word: woken, it turns the progress engine, so sends it left
 * pending still move while it waits for a lock (lockword.c tells the
 * deadlock that avoids).  Whoever changes a word somebody may wait on
 * rings the doorbells of those that said so (lock_sleepers,
 * acc_sleepers and lock_waiting for the locks; PSCW rings the one
 * process its counter concerns).
 *
 * EPOCHS.  Each window records this process's access and exposure epochs
 * (enum shmpi_win_epoch and the lock table) so that every RMA call can
 * check, at the origin, that it is inside an access epoch for its
 * target, and every synchronization call that it is legal now
 * (MPI_ERR_RMA_SYNC with a message naming the rule).
 */
#ifndef SHMPI_RMA_WIN_H
#define SHMPI_RMA_WIN_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "core/lock.h"
#include "core/objects.h"
#include "shm_arena/arena.h"

#define SHMPI_MAGIC_WIN 0x57494e44u /* "WIND" */

/* Passive-target lock word (struct shmpi_win_ctl.lock). */
#define SHMPI_WIN_LOCK_EXCL 0x80000000u   /* held exclusively */
/* low 31 bits: with EXCL, the holder's member rank + 1; without, the
   number of shared holders (lock_all counts as one) */

/* In struct shmpi_win_ctl.lock_waiting: threads of the member wait for
   some lock words of the window (lockword.c); no code is this
   ((target + 1) << 1 | 1 would need target = 2^31 - 2) */
#define SHMPI_WIN_WAITING_ANY UINT32_MAX

/* One member's synchronization words, in the control segment. */
struct shmpi_win_ctl {
    /* MPI_Win_lock / lock_all / unlock on this member as target */
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t lock;
    _Atomic uint32_t lock_sleepers;
    /* 1 from this member's MPI_Win_post to its MPI_Win_wait (lock.c,
       pscw.c): on the lock's line, so that MPI_Win_lock reports a window
       locked and exposed at once (11.5.3) for the price of a load */
    _Atomic uint32_t exposed;
    /* accumulate atomicity on this member's memory: same encoding as
       lock (SHMPI_WIN_LOCK_EXCL | holder + 1, or shared holders) */
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t acc_lock;
    _Atomic uint32_t acc_sleepers;
    /* leases of one-instruction atomics on this member (acclock.c):
       acc_leased is set once an origin asked for one, acc_no_leases once
       acc_lock was first held exclusively - then none is granted again.
       On acc_lock's line: an atomic loads acc_no_leases where it would
       load acc_lock */
    _Atomic uint32_t acc_leased;
    _Atomic uint32_t acc_no_leases;
    /* PSCW, this member as target: bumped by each origin's
       MPI_Win_complete; MPI_Win_wait waits for the count it expects */
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t completed;
    /* which lock word this member waits for in lockword.c's slow path,
       ((target + 1) << 1 | is_acc_lock), 0 when none, or
       SHMPI_WIN_WAITING_ANY when threads of it wait (MULTIPLE): an
       unlocker that sees sleepers rings the doorbells of just these
       members */
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t lock_waiting;
    /* this member as origin: target + 1 after it was granted a lease
       on target (which acc_no_leases may have ended since), |
       SHMPI_ATOMIC_BUSY while its one-instruction accumulate changes
       target's memory, else 0 (acclock.h).  Own line: written
       twice per atomic by this member alone, so it stays in its cache.
       Always 0 under MPI_THREAD_MULTIPLE, where one word cannot say
       what several threads do (acclock.c) */
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t atomic_on;
    /* then, PSCW, this member as origin: posted[t], bumped by target
       t's MPI_Win_post naming this member (shmpi_win_posted) */
};
#define SHMPI_WIN_CTL_LINE_(f)                                               \
    (offsetof(struct shmpi_win_ctl, f) / SHMPI_CACHELINE)
_Static_assert(SHMPI_WIN_CTL_LINE_(exposed) == SHMPI_WIN_CTL_LINE_(lock),
               "exposed is on the lock's line");
_Static_assert(SHMPI_WIN_CTL_LINE_(acc_no_leases) ==
                   SHMPI_WIN_CTL_LINE_(acc_lock),
               "acc_no_leases is on acc_lock's line");
_Static_assert(SHMPI_WIN_CTL_LINE_(acc_lock) != SHMPI_WIN_CTL_LINE_(lock) &&
                   SHMPI_WIN_CTL_LINE_(completed) !=
                       SHMPI_WIN_CTL_LINE_(acc_lock) &&
                   SHMPI_WIN_CTL_LINE_(lock_waiting) !=
                       SHMPI_WIN_CTL_LINE_(completed) &&
                   SHMPI_WIN_CTL_LINE_(atomic_on) !=
                       SHMPI_WIN_CTL_LINE_(lock_waiting),
               "lock, acc_lock, completed, lock_waiting, atomic_on: a line "
               "each");
_Static_assert(sizeof(struct shmpi_win_ctl) % SHMPI_CACHELINE == 0 &&
                   SHMPI_CACHELINE / sizeof(uint32_t) == 16,
               "posted[] starts on a line after atomic_on's, 16 a line");
#undef SHMPI_WIN_CTL_LINE_

/* How this process reaches target t's window memory (for a dynamic
   window: only pid; its memory is in the regions, shmpi_win_region_find). */
struct shmpi_win_target {
    unsigned char *base;       /* mapped here (direct), else NULL */
    uint64_t remote_base;      /* the target's own address of its base */
    MPI_Aint size;
    int disp_unit;
    int direct;                /* 1: load/store on base; 0: the target's
                                  memory could not be shared (stack, file
                                  mappings): shmpi_win_vm_readv/writev at
                                  remote_base.  Always 1 for oneself, and
                                  for size 0 (base NULL, nothing to reach) */
    pid_t pid;                 /* for process_vm_readv/writev */
};

enum shmpi_win_epoch {
    SHMPI_EPOCH_NONE,
    SHMPI_EPOCH_FENCE,         /* between fences (access and exposure) */
    SHMPI_EPOCH_PSCW,          /* access: start..complete */
    SHMPI_EPOCH_LOCK,          /* access: some targets locked */
    SHMPI_EPOCH_LOCK_ALL,
    SHMPI_EPOCH_SYNC_OPS,      /* started sync_ops requests
                                  (sync counters, sync_epoch.c) */
};

enum { SHMPI_RMA_PUTS, SHMPI_RMA_GETS, SHMPI_RMA_ACCS, SHMPI_RMA_KINDS };

struct shmpi_win {
    uint32_t magic;
    int flavor;                /* MPI_WIN_FLAVOR_* */
    uint64_t id;               /* the same at every member, unique in the
                                  job while the window lives (sync
                                  counters say which window they are of) */
    MPI_Comm comm;             /* a private dup of the creation comm:
                                  its collectives (fence) and messages */
    void *base;                /* this process's window memory */
    MPI_Aint size;
    int disp_unit;
    struct shmpi_win_target *targets; /* [comm->size] */
    struct shmpi_win_ctl *ctl; /* control segment: [comm->size] blocks
                                  of ctl_bytes each (shmpi_win_ctl_of) */
    size_t ctl_bytes;
    /* THE EPOCH STATE below (to completes_expected) and lock_waiters,
       under MPI_THREAD_MULTIPLE.  The synchronization calls change it
       holding `lock` (core/lock.h: nothing below MULTIPLE), never across
       a wait for another process (lock.c, pscw.c say why).  The RMA
       calls read it without the lock: the standard orders each of them
       after the synchronization call that opened its epoch and before
       the one that closes it (a program may not unlock a target while
       another thread still calls Put on it, 11.5), so what they read is
       stable while they run - but for the changes other threads make at
       the same time to *other* targets' entries (two threads locking
       two targets, 11.5.3), to fence_open (every first call after a
       fence) and to a PSCW target's entry (the first access waits for
       its post): those are atomics, stored relaxed (the ordering that
       matters comes from the lock words and counters of the shared
       control block).  `access` is an atomic too, stored (relaxed) only
       when the kind of epoch changes - which no RMA call of another
       thread can overlap - so that a synchronization call may check it
       before it takes the lock and raise an error without holding it. */
    struct shmpi_core_lock lock;
    int lock_waiters;          /* threads in lockword.c's slow path */
    /* access epoch of this process as origin */
    _Atomic(enum shmpi_win_epoch) access;
    _Atomic int fence_open;    /* access == FENCE and this process made
                                  RMA calls since that fence: the epoch
                                  is really open (until then MPI_Win_lock
                                  or MPI_Win_start may replace it) */
    _Atomic uint8_t *epoch_part; /* [size]: each target's part in the
                                  access epoch, 0 when none, read by the
                                  kind of epoch (win->access; rma/sync.h):
                                  LOCK, LOCK_ALL: MPI_LOCK_SHARED or
                                  MPI_LOCK_EXCLUSIVE, | SHMPI_LOCK_NOCHECK;
                                  PSCW: SHMPI_TARGET_AWAIT_POST or _OPEN;
                                  SYNC_OPS: the MPI_MODE_WIN_* bits its
                                  started sync_ops requests cover */
    int nlocked;
    MPI_Group start_group;     /* PSCW access group, or MPI_GROUP_NULL */
    uint32_t *posts_seen;      /* [size]: posts consumed from each target */
    /* exposure epoch of this process as target (PSCW) */
    MPI_Group post_group;
    uint32_t completes_expected;
    /* info (11.2.1), parsed by win_info.c at creation and by
       MPI_Win_set_info; MPI_Win_get_info reports them back */
    int no_locks;
    int acc_ordering;          /* bits 0-3: rar, raw, war, waw required */
    int acc_ordering_none;     /* "accumulate_ordering" = "none" */
    int acc_same_op;           /* "accumulate_ops" = "same_op" */
    int same_size, same_disp_unit;
    int alloc_shared_noncontig;
    struct shmpi_errhandler *errhandler;
    struct shmpi_attr *attrs;
    int check_watch;           /* check mode: local_check.c's watch of
                                  this process's window memory, + 1; 0:
                                  none */
    uint32_t check_fences;     /* check mode: MPI_Win_fence calls so
                                  far, the tag of a fence epoch's
                                  accesses (conflict_check.c) */
    struct shmpi_win_sync *sync; /* sync requests and the sync_ops epoch
                                  (rma/sync_epoch.c), NULL until needed */
    char name[MPI_MAX_OBJECT_NAME];
    /* private to win_*.c and map.c */
    struct shmpi_share *share; /* how this process's memory is shared
                                  (map.h); NULL for dynamic windows */
    struct shmpi_win_view *views; /* [size]: peers' memory mapped here */
    size_t ctl_map_bytes;      /* the control segment as mapped (the
                                  shared flavor's memory follows it) */
    struct shmpi_win_dyn *dyn; /* dynamic windows: attached regions */
    /* The shared flavor's memory (win_new.c, win_change_comm.c): where it
       is mapped here when it does not follow the control segment (a
       window joined by MPI_Win_change_comm; NULL: it follows), its
       length, and the segment that holds it, which one member keeps open
       (fd; -1 at the others) so that a later newcomer can map it. */
    struct {
        unsigned char *at;
        size_t len;
        int fd;
        uint64_t fd_offset;    /* where the memory starts in fd */
    } shared;
    int fint;                  /* its Fortran integer, or 0 (fint.h) */
    /* MPI_T's counts of the calls this process issued on the window
       (tool/pvar.c), counted only while it watches: shmpi_rma_count */
    _Atomic uint64_t issued[SHMPI_RMA_KINDS];
};

/* Put, get and accumulate (MPI_Accumulate, MPI_Get_accumulate and the
   request forms of the three) that passed their checks and have a
   target: one predicted branch while no tool watches; then a relaxed
   add (threads may issue on one window at once; MPI_T reads the number
   only). */
static inline void shmpi_rma_count(MPI_Win w, int kind)
{
    if (shmpi_core_watching(SHMPI_WATCH_RMA))
        atomic_fetch_add_explicit(&w->issued[kind], 1, memory_order_relaxed);
}

/* origin_check.c, check mode only (core/check.h): an origin buffer
   hashed at MPI_Put, MPI_Accumulate or MPI_Get_accumulate, and hashed
   again by the call that completes the operation (target: that rank's
   operations, or -1 for all), which reports a difference. */
void shmpi_rma_origin_record(MPI_Win win, int target, MPI_Aint disp,
                             const void *buf, MPI_Count count,
                             MPI_Datatype dt, const char *fn)
    __attribute__((cold));
void shmpi_rma_origin_complete(MPI_Win win, int target, const char *fn)
    __attribute__((cold));
/* result_check.c, check mode only: the result buffer of a get (MPI_Get,
   MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap) watched
   from the call until the completing call (target, or -1 for all: what
   shmpi_rma_origin_complete completes), its first access by the program
   reported. */
void shmpi_rma_result_watch(MPI_Win win, int target, MPI_Aint disp,
                            const void *buf, MPI_Count count, MPI_Datatype dt,
                            const char *fn) __attribute__((cold));
void shmpi_rma_result_complete(MPI_Win win, int target)
    __attribute__((cold));
/* The same for the request forms (MPI_Rget, MPI_Rget_accumulate): the
   result watched until the completing call above or the MPI_Wait or
   MPI_Test that hands req's completion out. */
struct shmpi_request;
void shmpi_rma_result_watch_request(struct shmpi_request *req, MPI_Win win,
                                    int target, MPI_Aint disp,
                                    const void *buf, MPI_Count count,
                                    MPI_Datatype dt, const char *fn)
    __attribute__((cold));
/* conflict_check.c, check mode only: a flush or an epoch's end (target,
   or -1 for all) forgets this process's accesses it completed at the
   target (shmpi_rma_conflict_note, xfer.h).  The table of the notes of
   a target is in its block of the control segment, after posted[]:
   shmpi_rma_conflict_bytes() bytes, 0 when the mode is off. */
void shmpi_rma_conflict_end(MPI_Win win, int target) __attribute__((cold));
/* MPI_Win_fence's instead, before its barrier: the notes of the epoch
   it ends go stale at once everywhere (conflict_check.c). */
void shmpi_rma_conflict_fence(MPI_Win win) __attribute__((cold));
size_t shmpi_rma_conflict_bytes(void);
/* The target's side (local_check.c): its watch of its own window memory
   published in its table (watch: the id, or -1 for none), so that the
   accesses to it arm the pages they touch; the count of arms done that
   the watch raises. */
void shmpi_rma_conflict_watcher(MPI_Win win, int watch) __attribute__((cold));
_Atomic uint32_t *shmpi_rma_conflict_armed(MPI_Win win);
/* The target inside a call that arms before it returns (on), or about
   to arm (0, then shmpi_rma_conflict_arm_pending): the accesses made
   meanwhile send it no signal. */
void shmpi_rma_conflict_busy(MPI_Win win, int on) __attribute__((cold));
/* The target, waking from a sleep in a wait: the pages of the notes
   the accesses made while it slept did not arm (they did not wake it to
   do so), armed now, before it returns to the program; all: those of
   every live note (after a disarm). */
void shmpi_rma_conflict_arm_pending(MPI_Win win, int watch, int all)
    __attribute__((cold));
/* A load or store (write) of this process of bytes [lo, hi) of its
   window - one byte the program's access faulted on, or the library's
   copy from or into window memory (shmpi_rma_local_unwatched) - and,
   for a fault, on the page that holds window bytes [plo, phi): the
   first live note of this epoch's remote accesses it meets, in *hit
   (found; at: the first byte of the two), marked so that it is
   reported once; the protection the page keeps for the others, or -1
   when no live note is left to watch for.  In a signal handler too:
   takes the table's spin lock, which no code that loads or stores
   window memory holds. */
struct shmpi_rma_conflict_hit {
    int found, origin;
    uint64_t lo, hi, at;
    char call[160];
};
int shmpi_rma_conflict_local(MPI_Win win, uint64_t lo, uint64_t hi,
                             int write, uint64_t plo, uint64_t phi,
                             struct shmpi_rma_conflict_hit *hit);
/* local_check.c, check mode: MPI_Win_allocate(_shared)'s memory watched
   from the constructor to MPI_Win_free, its pages armed by the remote
   accesses to them; MPI_Win_fence's end of the exposure epoch, after
   its barrier. */
void shmpi_rma_local_watch(MPI_Win win) __attribute__((cold));
void shmpi_rma_local_unwatch(MPI_Win win) __attribute__((cold));
void shmpi_rma_local_fence(MPI_Win win) __attribute__((cold));
/* local_check.c, check mode: an MPI call on win entered, and left -
   the pages of the remote accesses made to this process in between
   armed, before the program runs again (the fence leaves in
   shmpi_rma_local_fence). */
void shmpi_rma_local_enter(MPI_Win win) __attribute__((cold));
void shmpi_rma_local_leave(MPI_Win win) __attribute__((cold));

static inline int shmpi_win_ok(MPI_Win w)
{
    return w != MPI_WIN_NULL && w->magic == SHMPI_MAGIC_WIN;
}

/* Bytes of the struct and uint32_t posted[n] (16 entries a cache line),
   rounded to a cache line, and the check mode's conflict table: a
   member's block (w->ctl_bytes). */
size_t shmpi_win_ctl_bytes(int nmembers);
/* The check mode's conflict table of member's memory (conflict_check.c):
   its block's bytes after posted[]. */
void *shmpi_win_conflict_block(MPI_Win w, int member);
static inline struct shmpi_win_ctl *shmpi_win_ctl_of(MPI_Win w, int member)
{
    return (struct shmpi_win_ctl *)((unsigned char *)w->ctl +
                                    (size_t)member * w->ctl_bytes);
}
static inline _Atomic uint32_t *shmpi_win_posted(MPI_Win w, int origin,
                                                 int target)
{
    return (_Atomic uint32_t *)(shmpi_win_ctl_of(w, origin) + 1) + target;
}

/* win_dynamic.c: on a dynamic window, does [addr, addr + len) of
   target's address space lie inside one region target attached?  1, and
   *local is where addr is mapped in this process, or NULL when that
   region is reached with process_vm at addr (pid targets[target].pid);
   0 if no region holds it all; -1 and errno if target's table of
   regions cannot be mapped here.  A binary search of target's table,
   read under its sequence lock, so a concurrent attach or detach of
   another region never shows a half-moved table; maps the region's
   memory file on first use and keeps it mapped. */
int shmpi_win_region_find(MPI_Win w, int target, uint64_t addr,
                          uint64_t len, unsigned char **local);
/* win_dynamic.c, for messages: the region of target nearest to
   [start, end) into *base, *size; 0 if target has none attached. */
int shmpi_win_region_nearest(MPI_Win w, int target, uint64_t start,
                             uint64_t end, uint64_t *base, uint64_t *size);

/* map_vm.c: process_vm_writev/readv (flags 0) for non-direct targets
   and regions: the same arguments and result.  Where the kernel refuses
   cross-memory attach, the same moves go through a helper thread in the
   target's process (map_vm.c), still without the target calling MPI. */
ssize_t shmpi_win_vm_writev(pid_t pid, const struct iovec *local,
                            unsigned long nlocal, const struct iovec *remote,
                            unsigned long nremote);
ssize_t shmpi_win_vm_readv(pid_t pid, const struct iovec *local,
                           unsigned long nlocal, const struct iovec *remote,
                           unsigned long nremote);

/* win_new.c: the constructor that made w ("MPI_Win_allocate", ...),
   for messages. */
const char *shmpi_win_maker(MPI_Win w);
/* win_name.c: w as the deadlock report names it - `window "NAME"`
   (MPI_Win_set_name), else "window #N" (N counts the windows its
   member 0 made; "of world rank R" when that is not rank 0). */
void shmpi_win_label_short(MPI_Win w, char *buf, size_t len);
/* win_name.c: that label as the name of w's private communicator
   (w->comm), whose collectives (MPI_Win_fence) the report names so;
   when w gets its id and whenever it is renamed. */
void shmpi_win_name_comm(MPI_Win w);

/* epoch.c (synchronization helper): enters target into the access epoch
   - not a pure check: the first RMA call of a fence epoch marks it used
   (fence_open), and a PSCW target is waited for.  MPI_SUCCESS if this
   process may issue an RMA operation to target now (an epoch covers
   it), else MPI_ERR_RMA_SYNC raised on win under fn with the rule that
   was broken (MPI_ERR_RANK for a target out of range).  MPI_PROC_NULL needs an
   access epoch too, of any kind (11.3: "it is still necessary to finish
   the RMA epoch"), but no particular target.  May block: in a PSCW epoch
   the first access to a target waits for that target's MPI_Win_post.
   kind is the call's: MPI_MODE_WIN_PUT, _GET or _ACCUMULATE, which a
   sync_ops epoch (sync_epoch.c) must cover. */
int shmpi_rma_enter_epoch_fully(MPI_Win win, int target, int kind,
                                const char *fn);
/* The access epoch (relaxed: see THE EPOCH STATE above). */
static inline enum shmpi_win_epoch shmpi_rma_access(MPI_Win win)
{
    return atomic_load_explicit(&win->access, memory_order_relaxed);
}
/* Its good path inline: a passive-target epoch that covers target (a
   program that locks once and flushes runs only this). */
static inline int shmpi_rma_epoch_covers(MPI_Win win, int target)
{
    if ((unsigned)target >= (unsigned)win->comm->size)
        return 0;
    enum shmpi_win_epoch a = shmpi_rma_access(win);
    return a == SHMPI_EPOCH_LOCK_ALL ||
           (a == SHMPI_EPOCH_LOCK &&
            atomic_load_explicit(&win->epoch_part[target],
                                 memory_order_relaxed));
}
static inline int shmpi_rma_enter_epoch(MPI_Win win, int target, int kind,
                                        const char *fn)
{
    if (__builtin_expect(shmpi_rma_epoch_covers(win, target), 1))
        return MPI_SUCCESS;
    return shmpi_rma_enter_epoch_fully(win, target, kind, fn);
}

/* epoch.c: MPI_Win_free and MPI_Win_change_comm call it before anything
   else: MPI_ERR_RMA_SYNC raised on win under fn if this process still
   has an epoch open or a sync request active (11.2.5: free only after
   fence, wait, complete, unlock); `before` ends the message ("freeing
   the window (11.2.5)"). */
int shmpi_rma_epoch_check_closed(MPI_Win win, const char *before,
                                 const char *fn);
/* acclock.c: the accumulate lock of target, taken by the origin alone
   (the target takes no part).  acc_lock/unlock: exclusively, for an
   accumulate that works element by element.  The other side, around
   one hardware atomic instruction, is inline in acclock.h. */
void shmpi_rma_acc_lock(MPI_Win win, int target, const char *fn);
void shmpi_rma_acc_unlock(MPI_Win win, int target);

/* win_errhandler.c: MPI_ERR_WIN raised for an invalid handle (on
   MPI_COMM_WORLD: there is no window to take the handler from). */
int shmpi_win_raise_bad(MPI_Win win, const char *fn);

/* win_errhandler.c: raise through the window's error handler (as
   shmpi_raise does for communicators; on MPI_COMM_WORLD's if win is not
   a window).  The message gets `window "NAME": ` in front when the
   window has a name: callers say the rest and leave the name out. */
int shmpi_win_raise(MPI_Win win, int code, const char *fn, const char *fmt,
                    ...) __attribute__((format(printf, 4, 5)));

#endif
