/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * proc.h - the state of this rank: one explicit structure, not scattered
 * globals, so that per-thread or per-session state can later be split off
 * without hunting for it.
 *
 * Every mutable object of a rank's runtime is reachable from shmpi_proc;
 * no room keeps a mutable file-scope or function-static variable (what is
 * left outside, and why, is listed at the end of this comment).  Each
 * member says who may touch it and when; "one caller at a time" means
 * what MPI_THREAD_SERIALIZED promises today (init/init.c grants no more),
 * so that member is what a lock, an atomic or a per-thread copy must
 * guard before MPI_THREAD_MULTIPLE can be offered.  "Under mt, X" names
 * what guards a member when the program asked for MULTIPLE (mt below):
 * the locks of core/lock.h, one per family, taken only by the calls
 * that touch the family; each is a leaf (nothing else is locked while
 * it is held) unless its comment says otherwise.
 *
 * Layers: proc.h is core and includes nothing above core.  A room above
 * core keeps its state in a struct of its own, declared in its own
 * header and allocated by its init function; here it is a pointer to an
 * incomplete type.  Core's own state is embedded (its types are below).
 *
 * Left outside on purpose:
 *   - the predefined objects whose addresses are handle constants in
 *     mpi.h (shmpi_comm_world, shmpi_comm_self, shmpi_group_empty,
 *     shmpi_dt_*, shmpi_op_*, shmpi_errors_*, shmpi_info_env,
 *     shmpi_message_no_proc, shmpi_f*_status(es)_ignore): their storage
 *     must be static; their mutable fields (attributes, names, error
 *     handlers, Fortran integers) are guarded as their kind's are;
 *   - the zeroed "invalid handle" objects that MPI_*_f2c returns for a bad
 *     number (core/fint.c, comm/comm_f2c.c, datatypes/type_f2c.c,
 *     pt2pt/request_f2c.c, rma/win_f2c.c) and the int MPI_WIN_MODEL's
 *     attribute points to (rma/win_attr.c): never written;
 *   - init/init.c's buf, args and exe (function-statics of own_argv and
 *     launch_self): the command line of the process that becomes the
 *     launcher of SHMPI_NP copies of itself, written once on the way to
 *     the launcher, which never returns to MPI; they are static only to
 *     keep 76 KiB off the stack;
 *   - the launcher's process, whose state is its struct shmpi_job, but
 *     for launcher/signals.c's launcher_tid: the thread its signal
 *     handler hands a stop signal to, which a handler can find nowhere
 *     else; written once per launch, before the handler is installed.
 */
#ifndef SHMPI_PROC_H
#define SHMPI_PROC_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/fint.h"
#include "core/lock_type.h"
#include "core/tunables.h"
#include "mpi.h"
#include "shm_arena/arena.h"

struct shmpi_nbc;
struct shmpi_pt2pt;
struct shmpi_comm_state;
struct shmpi_rma_state;
struct shmpi_tool;
struct shmpi_keyval;
struct shmpi_added_code;
struct shmpi_memseg;
struct shmpi_slab;

/* core/wait.c: how long a blocked call spins and yields before it sleeps. */
struct shmpi_wait_policy {
    _Atomic long spin_ns;      /* SHMPI_SPIN_US, in ns */
    _Atomic int yields;        /* SHMPI_YIELDS */
    /* under mt: threads of this rank in shmpi_core_wait_until.  With
       more than one, threads share this rank's cores: a spin is short
       (core/wait.c, SHARED_SPIN_NS), and a poll that finds nothing
       yields */
    _Atomic int waiting;
    /* under mt: of those, the threads whose wait is for lane k (k < the
       job's lanes): pt2pt's fast receive, holding lane k, looks only
       once while another thread waits for it (pt2pt/fastpath.c); a
       line each, so that waiters of different lanes write different
       lines */
    struct {
        _Alignas(SHMPI_CACHELINE) _Atomic int n;
    } lane_waiting[SHMPI_ARENA_LANES_MAX];
};

/* core/attr.c: keyval id SHMPI_FIRST_USER_KEYVAL + i is slot[i]. */
struct shmpi_keyval_table {
    struct shmpi_core_lock lock; /* the attr lock: the table, the keyvals'
                                   counts and every object's attribute
                                   list (attr.c) */
    struct shmpi_keyval **slot; /* NULL once released */
    int used, cap;
};

/* core/error.c: classes and codes added by the program; entry i is code
   MPI_ERR_LASTCODE + 1 + i, in chunk[k] for the k with
   16 (2^k - 1) <= i < 16 (2^(k+1) - 1).  Chunks are allocated as the
   numbers grow and never move or go, so that a reader on any thread
   (every error report names a class) needs no lock: it loads n with
   acquire, and the entries below n, with the chunk pointers that hold
   them, were written before the release store that published n.  An
   entry's class never changes; its string is replaced under `lock`,
   which the writers of n take too.  MPI_Remove_error_class/code mark
   an entry removed (an atomic flag, set under `lock`); its number is
   never given again. */
#define SHMPI_ADDED_CHUNKS 24
struct shmpi_added_codes {
    struct shmpi_core_lock lock;
    struct shmpi_added_code *chunk[SHMPI_ADDED_CHUNKS];
    _Atomic int n;
};

/* core/memseg.c: MPI_Alloc_mem's bookkeeping, private to this rank;
   under mt, all of it under `lock`, which MPI_Alloc_mem holds across
   the mapping of a segment: shmpi_core_mem_grant (memlimit.c) runs with
   it held, and must not take it. */
struct shmpi_memseg_state {
    struct shmpi_core_lock lock;
    struct shmpi_memseg *large; /* one allocation each */
    struct shmpi_memseg *pools; /* cut into slabs */
    size_t pool_used;           /* bytes of pools->base already slabs */
    struct shmpi_slab *slabs;
    _Atomic uint64_t mapped;    /* bytes of all segments, large and pools:
                                   written under `lock`, read by MPI_T
                                   from any thread (relaxed: one number,
                                   nothing published with it) */
};

/* coll/area.c: the collectives' tunables.  Only base types, read by
   every barrier and reduction: embedded, so that no pointer is loaded
   on those paths. */
struct shmpi_coll_tune {
    uint64_t fold_max;          /* SHMPI_COLL_FOLD_MAX */
    int counter_barrier;        /* barrier by counter, not dissemination */
};

/* What MPI_T (tool/) asks the rooms below it to count or report, and
   what they counted.  `on` holds SHMPI_WATCH_* bits, set and cleared
   by tool/ under its lock as handles start and stop; the message, wait
   and RMA paths test their bit with a relaxed load - one predicted
   branch while no tool looks - and only then count (a bit seen late
   loses what raced with the start, which a start cannot order anyway).
   `forget` and `event` are tool/'s, set by the first MPI_T_init_thread
   and never cleared: a room calls `forget` as it frees an object MPI_T
   handles may be bound to (rma/win_free.c), and raises an event of kind
   k (shmpi_core_event) while SHMPI_WATCH_EVENT(k) is on, that is while a
   callback is registered for it. */
enum {
    SHMPI_WATCH_P2P = 1,       /* pt2pt/count.h: messages per peer */
    SHMPI_WATCH_WAIT = 2,      /* core/wait.c: time in waits, wait_ns */
    SHMPI_WATCH_RMA = 4,       /* rma/: operations per window */
    SHMPI_WATCH_CHECK = 1 << 30 /* core/check.h: the check mode, set
                                 once by MPI_Init, never by tool/ */
};
#define SHMPI_WATCH_EVENT(kind) (8u << (kind))

/* The events of MPI_T (tool/event.c), and what each carries: the
   element types and offsets tool/event.c gives MPI_T_event_get_info. */
enum shmpi_core_event {
    SHMPI_EVENT_UNEXPECTED,    /* pt2pt/match.c: a message arrived before
                                  its receive */
    SHMPI_EVENT_COMM_CREATED,  /* comm/comm_create.c: a communicator made */
    SHMPI_EVENT_COMM_FREED,    /* comm/comm_create.c: MPI_Comm_free */
    SHMPI_EVENTS
};
struct shmpi_core_event_msg {
    uint64_t bytes;
    int32_t source;            /* rank in MPI_COMM_WORLD */
    int32_t tag;
    uint32_t context;          /* the communicator's (its identity) */
};
struct shmpi_core_event_comm {
    uint32_t context;
    int32_t size;              /* its group's (local group's) size */
};

struct shmpi_core_watch {
    _Atomic unsigned on;
    _Atomic uint64_t wait_ns;  /* ns blocked in shmpi_core_wait_until
                                  while SHMPI_WATCH_WAIT was on, every
                                  thread's (relaxed adds: one number) */
    void (*_Atomic forget)(const void *object);
    void (*_Atomic event)(enum shmpi_core_event kind, const void *data);
    /* tool/event.c: the event registrations (struct shmpi_tool's) are
       walked and changed under it; taken after a lane and after
       tool_lock, never before either: a leaf */
    struct shmpi_core_lock event_lock;
};

/* core/hooks.c: what rooms above core hand base at MPI_Init (hooks.h says
   who registers what, in which order). */
#define SHMPI_PROGRESS_HOOKS_MAX 4
struct shmpi_comm;
struct shmpi_core_hooks {
    unsigned armed[SHMPI_ARENA_LANES_MAX]; /* bit h of armed[k]: progress
                                  hook h has work in pt2pt's lane k
                                  (written and read under that lane) */
    int nprogress;
    int (*progress[SHMPI_PROGRESS_HOOKS_MAX])(unsigned lane); /* each
                                  returns how many things it moved */
    int (*stalled)(void);      /* returns how many things it started */
    int (*turn)(void);         /* one turn of progress, after a wait left
                                  the doorbell (core/wait.c): pt2pt's */
    void (*woke)(void);        /* after a sleep on the doorbell, before
                                  the wait returns (core/wait.c): the
                                  check mode's, rma/local_check.c */
    void (*last_release)(struct shmpi_comm *); /* core/objects.c */
};

struct shmpi_proc {
    /* Set once by MPI_Init (init/init.c) before any other room runs,
       then only read, by every room: */
    int rank;                  /* in MPI_COMM_WORLD */
    int size;
    /* init/init.c: written by MPI_Init and MPI_Finalize, read by every
       call (SHMPI_REQUIRE_INIT) and by MPI_Initialized/Finalized, which
       any thread may call at any time, also while another thread is in
       MPI_Init or MPI_Finalize: stored with release once everything
       before is set (the members above and below included), loaded with
       acquire - on x86 both are plain moves. */
    _Atomic int initialized;   /* the runtime is up: MPI_Init or the
                                  first MPI_Session_init returned */
    _Atomic int finalized;     /* the runtime is down: the last of
                                  MPI_Finalize and MPI_Session_finalize
                                  returned */
    _Atomic int world_init;    /* MPI_Init returned (MPI_Initialized) */
    _Atomic int world_final;   /* MPI_Finalize returned (MPI_Finalized) */
    /* init/init.c: the World Model and the sessions now open, the users
       of the runtime; under runtime_lock (a mutex whatever the thread
       level: sessions may start on any thread). */
    struct shmpi_core_lock runtime_lock;
    int runtime_users;
    /* Set once by MPI_Init, then only read: */
    int thread_level;          /* what MPI_Init_thread provided (before
                                  it, what the session that brought the
                                  runtime up got; init/init.c) */
    int thread_requested;      /* what it was asked for (MPI_INFO_ENV's
                                  thread_level, core/info_env.c) */
    int mt;                    /* MPI_THREAD_MULTIPLE was asked for: the
                                  locks of core/lock.h are taken */
    /* core/error.c: 0, then 1 for good once a thread has started to end
       the process with a fatal error or MPI_Abort (shmpi_core_die_once):
       taken by atomic exchange, so another thread failing at the same
       moment prints nothing and waits for the end. */
    _Atomic int dying;
    pthread_t main_thread;     /* the thread that called MPI_Init */
    int oversubscribed;        /* more ranks than CPUs: spin less */
    int singleton;             /* no launcher: we made our own arena */
    int forked_from;           /* a fork() of rank pid forked_from, which
                                  is not a rank (init/init.c); 0.  Set by
                                  the atfork handler in the child, whose
                                  only thread it is */
    const char *init_fn;       /* "MPI_Init" or "MPI_Init_thread": the
                                  call running, for its errors; written
                                  by that call only (init/init.c) */
    /* Set once by MPI_Init; what they point to is shared with the other
       ranks and guarded by its own atomics (shm_arena/arena.h): */
    int arena_fd;
    struct shmpi_arena_header *arena;
    struct shmpi_rank_slot *slot;  /* this rank's slot in the arena */
    /* The rooms above core: each pointer is set once by the room's init
       in MPI_Init and kept until the process exits; the room's header
       says who touches each member of what it points to. */
    struct shmpi_pt2pt *pt2pt;     /* queues, matching (pt2pt/pt2pt.h) */
    struct shmpi_comm_state *comm; /* predefined attribute values, retired
                                      communicators (comm/comm.h) */
    struct shmpi_rma_state *rma;   /* extents, mailboxes, counters
                                      (rma/state.h) */
    /* coll/sched.c: nonblocking collectives started, and the progress
       engine that runs them; list k under pt2pt's lane k. */
    struct shmpi_nbc *nbc_active[SHMPI_ARENA_LANES_MAX]; /* schedules
                                      running (coll/sched.h) */
    int nbc_hook;                  /* their progress hook's number in
                                      `hooks`, set once by shmpi_nbc_init */
    /* pt2pt/progress.c adds (a relaxed load and store; under MULTIPLE,
       where threads of two lanes add at once, a relaxed fetch_add),
       core/wait.c reads (relaxed): it only paces spinning and sleeping */
    _Atomic uint64_t progress_events;      /* things progress moved, ever; waiters
                                      keep spinning while it grows */
    /* core/fint.c: every MPI_*_c2f that numbers a handle and every free
       of a numbered one; under mt, each table under its own lock, f2c
       too (a table grows by realloc). */
    struct shmpi_fint_table fint[SHMPI_FINT_KINDS]; /* Fortran integers
                                      of handles (core/fint.h) */
    /* core/tunables.c: loaded once in MPI_Init (or by the launcher),
       then only read. */
    struct shmpi_tun_set tun;      /* the tunables in effect
                                      (core/tunables.h) */
    /* datatypes/f90.c: MPI_Type_create_f90_*; under mt, under
       f90_lock. */
    struct shmpi_core_lock f90_lock;
    MPI_Datatype *f90_types;       /* MPI_Type_create_f90_* made so far */
    int nf90_types;
    /* core/errhandler.c: under mt, the error-handler pointer of every
       communicator and window: set swaps it, get and every raise read
       it and take a reference, all under this lock (errhandler.c). */
    struct shmpi_core_lock errh_lock;
    /* Under mt, the names of communicators, windows and datatypes (the
       name arrays of their objects): MPI_*_set_name and MPI_*_get_name
       under this lock.  Error messages read a name without it: a
       concurrent rename may garble the text, never overrun the array
       (its last byte is always NUL). */
    struct shmpi_core_lock names_lock;

    /* core/wait.c: set by shmpi_core_wait_configure in MPI_Init; read by
       every waiting call, on any thread, and written by MPI_T_cvar_write
       (tool/cvar.c), from any thread: its members are atomics, relaxed
       (wait.c says why that is enough). */
    struct shmpi_wait_policy wait;
    /* tool/: the state of MPI_T (tool/tool.h), made by the first
       MPI_T_init_thread - before MPI_Init, or after MPI_Finalize - and
       freed by the last MPI_T_finalize; always under tool_lock
       (shmpi_core_mutex_lock, whatever the thread level: MPI_T has a
       level of its own). */
    struct shmpi_core_lock tool_lock;
    struct shmpi_tool *tool;
    /* core/fence.c: set once by shmpi_core_fence_register in MPI_Init, then
       only read (rma/acclock.c). */
    int fence_registered;
    /* core/attr.c: keyval create/free and every attribute call look it
       up and grow it; under mt, under keyvals.lock. */
    struct shmpi_keyval_table keyvals;
    /* core/error.c: MPI_Add_error_class/code/string grow it under
       added.lock, every error report and MPI_Error_class read it without
       a lock (chunks never move: above), MPI_Error_string under it. */
    struct shmpi_added_codes added;
    /* core/memseg.c: MPI_Alloc_mem and MPI_Free_mem; rma windows over
       that memory look segments up through it; under mt, under
       memseg.lock. */
    struct shmpi_memseg_state memseg;
    /* core/memlimit.c: bytes shmpi_core_mem_grant may still grant unchecked;
       a read-modify-write by each allocating call, from any thread:
       atomic (memlimit.c says how). */
    _Atomic uint64_t mem_allowance;
    /* coll/area.c: set once by shmpi_coll_init in MPI_Init, then only
       read (coll/barrier.c, coll/reduce.c). */
    struct shmpi_coll_tune coll_tune;
    /* coll/area.c, pt2pt/conn.c: why the last communicator could not
       get its collective state or its point-to-point lane (e.g. the
       area or the lane could not be mapped), for the message of the
       call that made it (comm/); one caller at a time. */
    char open_why[192];
    /* core/hooks.c, core/objects.c: the functions are set once in
       MPI_Init, then only read; `armed` is set and cleared by the room
       that owns a hook whenever its work starts or runs out (coll, from
       inside the progress engine), one caller at a time - under threads
       an atomic. */
    struct shmpi_core_hooks hooks;
    /* MPI_T's requests to the rooms below it (above). */
    struct shmpi_core_watch watch;
};

extern struct shmpi_proc shmpi_proc;

/* Is MPI_T watching `bit` now?  Relaxed: see struct shmpi_core_watch. */
static inline int shmpi_core_watching(unsigned bit)
{
    return __builtin_expect(
        (atomic_load_explicit(&shmpi_proc.watch.on, memory_order_relaxed) &
         bit) != 0,
        0);
}

/* Raise event kind with its data (a struct shmpi_core_event_*), once
   shmpi_core_watching(SHMPI_WATCH_EVENT(kind)) said yes: tool/event.c
   calls the callbacks registered for it before this returns.  Acquire:
   the pointer was stored (release) before the bit was set. */
static inline void shmpi_core_event(enum shmpi_core_event kind,
                                    const void *data)
{
    void (*raise)(enum shmpi_core_event, const void *) =
        atomic_load_explicit(&shmpi_proc.watch.event, memory_order_acquire);
    if (raise)
        raise(kind, data);
}

#endif
