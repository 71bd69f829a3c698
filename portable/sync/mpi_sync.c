/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpi_sync.c - shmpi's RMA synchronization counters (shmpi_sync(7)) on
 * standard MPI-3 passive-target RMA, for Open MPI, MPICH and the like.
 * mpi_sync.h says how a program uses it.
 *
 * Every window made through mpi_sync.h gets a hidden window over the same
 * communicator (MPI_Win_allocate, collective with the user's window),
 * kept under MPI_Win_lock_all(MPI_MODE_NOCHECK) by every process for its
 * whole life: nobody ever takes an exclusive lock on it.  Each process's
 * part holds `cap` slots of two ints:
 *     [2 s]     the counter: only ever changed by MPI_SUM and read by
 *               MPI_NO_OP (MPI_Accumulate, MPI_Fetch_and_op), so that its
 *               updates are atomic with respect to one another under the
 *               default accumulate_ops "same_op_no_op" (MPI-3.1 11.7.1);
 *     [2 s + 1] the handle of the counter the slot holds, 0 if free: only
 *               written by its owner with MPI_REPLACE and read by others
 *               with MPI_NO_OP (same rule).
 * The owner's own view of its slots (which are taken, which armed) is in
 * its private memory; only the two words above are shared.
 *
 * Ordering (MPI-3.1 11.5.4 and 11.7).  A signaller, completing a
 * sync_ops request, calls MPI_Win_flush(target, win) on the user window:
 * every put, get and accumulate it issued to the target is then complete
 * at the origin and at the target (11.5.4; 11.7 rule 2: an operation
 * completed at the origin by a flush is completed at the target by the
 * same call), so the target's public copy holds the data.  Only after
 * that return does it issue the MPI_Accumulate(-1, MPI_SUM) on the
 * counter, and it flushes the hidden window so that the decrement is
 * complete at the target before the request completes.  The owner reads
 * its counter atomically (MPI_Fetch_and_op(MPI_NO_OP) on itself, then a
 * flush): a value that counts the decrement was written after the data
 * reached the public copy.  Before it lets the program read, the owner
 * makes the public copy visible in its private one with the calls of
 * 11.7 rule 6: MPI_Win_sync(win) if the library holds a passive epoch of
 * its own on the window, otherwise MPI_Win_lock(MPI_LOCK_SHARED, self)
 * and MPI_Win_unlock on it (the lock is the rule-6 call; in the unified
 * model it is the memory barrier that orders the counter's read before
 * the data's).  For MPI_MODE_WIN_GET the same flush completes the gets
 * at the origin, so the owner may overwrite what they read once the
 * counter says so.
 *
 * The sync_ops access epoch is a lock_all epoch on the user window,
 * opened by the first started sync_ops request with a sync_mode (to a
 * rank) and closed by MPI_Win_unlock_all when the last of them
 * completes or is freed: the program's MPI_Put and the others inside it
 * are then ordinary passive-target calls.  It is opened with
 * MPI_MODE_NOCHECK, as the owner's lock of itself in see_window: the
 * counters, not locks, order these accesses (under shmpi a sync_ops
 * epoch excludes nobody's lock either), and the program promises what
 * NOCHECK asks - no exclusive lock on a process while others access it
 * under sync_ops requests.  (MPICH 4.0.2, ch4:ucx, hangs in
 * MPI_Win_flush at 3 or more processes with it or without: on a ring of
 * MPI_Put, MPI_Win_flush and MPI_Barrier under one lock_all, standard
 * calls alone, so nothing here can avoid it; shmpi_sync(7), 2026-11-30.)
 *
 * Waiting polls: each round tests every request once (a sync_object
 * request by the atomic read above, which also drives the MPI's
 * progress, so that others' accumulates to this process are served by
 * MPI libraries whose passive target needs the target's calls), and
 * after SPIN_ROUNDS rounds in which nothing completed yields the processor
 * between rounds (idle()).
 */
#include "mpi_sync.h"

#ifdef MPI_SYNC_PORTABLE
/* Here the MPI's own functions: the header's macros (also there when
   the header was forced in with -include) are for the program. */
#undef MPI_Win_create
#undef MPI_Win_allocate
#undef MPI_Win_allocate_shared
#undef MPI_Win_create_dynamic
#undef MPI_Win_free
#undef MPI_Start
#undef MPI_Startall
#undef MPI_Wait
#undef MPI_Test
#undef MPI_Waitall
#undef MPI_Testall
#undef MPI_Waitany
#undef MPI_Testany
#undef MPI_Waitsome
#undef MPI_Testsome
#undef MPI_Request_free
#undef MPI_Cancel
#undef MPI_Request_get_status
#undef MPI_Put
#undef MPI_Rput
#undef MPI_Get
#undef MPI_Rget
#undef MPI_Accumulate
#undef MPI_Raccumulate
#undef MPI_Get_accumulate
#undef MPI_Rget_accumulate
#undef MPI_Fetch_and_op
#undef MPI_Compare_and_swap
#undef MPI_Win_fence
#undef MPI_Win_start
#undef MPI_Win_complete
#undef MPI_Win_lock
#undef MPI_Win_unlock
#undef MPI_Win_lock_all
#undef MPI_Win_unlock_all
#undef MPI_Error_class
#undef MPI_Win_flush
#undef MPI_Win_flush_all
#undef MPI_Win_flush_local
#undef MPI_Win_flush_local_all
#undef MPI_Win_sync
#undef MPI_Win_post
#undef MPI_Win_wait
#undef MPI_Win_test
#undef MPI_Win_get_group
#undef MPI_Win_set_errhandler
#undef MPI_Win_get_attr
#undef MPI_Win_attach
#undef MPI_Win_detach
#undef MPI_Win_shared_query

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPS, OBJECT };
enum { PSCW, LOCK, LOCK_ALL };     /* the program's access epochs */

struct psync_win {
    MPI_Win win;               /* the program's window; MPI_WIN_NULL once freed */
    MPI_Win real;              /* the MPI's window behind it: win, until
                                  MPI_Win_change_comm made another */
    long long id;              /* the same at every member (see attach) */
    int flavor;                /* MPI_WIN_CREATE_FLAVOR of the window */
    char *exposes;             /* after a change: [size] rank r has memory */
    void **att_base;           /* dynamic: the regions attached here */
    MPI_Aint *att_size;
    int natt, att_cap;
    MPI_Win hidden;            /* the counters' window (see the top) */
    int *mem;                  /* my part of it: cap slots of 2 ints */
    MPI_Group group;           /* the window's group */
    int rank, cap;
    MPI_Sync *handle;          /* per slot: the handle it holds, 0 free */
    char *armed;               /* per slot: an active sync_object request */
    int epoch;                 /* started sync_ops requests holding lock_all */
    int *cover;                /* [3 * size]: started sync_ops requests
                                  covering (target, kind), kinds as bits */
    int active;                /* active sync requests made on this window */
    int refs;                  /* requests made on it, + 1 while it lives */
    /* the program's own epochs on the window (see the wrappers) */
    int fence_open;            /* a fence not MPI_MODE_NOSUCCEED was last */
    int fence_rma;             /* RMA calls made since that fence */
    int held[3];               /* PSCW: between MPI_Win_start and
                                  _complete; LOCK: MPI_Win_lock calls not
                                  unlocked; LOCK_ALL: under lock_all */
};

struct psync_req {
    MPI_Request handle;        /* what the program holds */
    struct psync_win *w;
    int kind, active, restart;
    int signalled;             /* OPS: this round's signal is sent (by a
                                  MPI_Testall that could not complete) */
    int slot;                  /* the counter's slot (at its owner) */
    MPI_Sync counter;
    int target, mode;          /* OPS: window rank or MPI_PROC_NULL, bits */
    int count;                 /* OBJECT */
};

/*
 * Threads.  Everything below that is not an MPI object - the tables of
 * windows and requests, each window's slots, cover and epoch counts,
 * each request's state, the error codes, the handle datatype, the
 * configuration - is read and written only by a thread that holds `big`,
 * a recursive mutex (recursive: a public function calls another, and an
 * error handler that the library calls may call it again).  The
 * mutex's lock and unlock are the acquire/release pair that orders one
 * thread's writes to that state before the next holder's reads
 * (POSIX 4.12, memory synchronization), so no field needs an atomic.
 * Calls that may block on other processes are made without it: the
 * collective parts of window creation, MPI_Win_free and
 * MPI_Win_change_comm, the program's epoch calls (fence, start,
 * complete, lock, unlock, lock_all, unlock_all, post, wait) and flushes,
 * the wait on a request that is not the library's, and the pause between
 * two rounds of a wait on sync requests - so that another thread of the
 * process can signal, or complete a request, while one waits.  What the
 * library does under it may wait on another process only for what that
 * process's MPI completes by itself (a flush of a passive-target epoch
 * opened with MPI_MODE_NOCHECK, an atomic read of its own counter), and
 * so cannot wait for a thread of this process that waits for the mutex.
 * The MPI calls made under it are thread-safe only when the MPI provides
 * MPI_THREAD_MULTIPLE; below that level the program calls one at a time
 * anyway, and the mutex costs an uncontended lock and unlock per call.
 */
static pthread_mutex_t big;
static pthread_once_t big_once = PTHREAD_ONCE_INIT;

static void big_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&big, &a);
    pthread_mutexattr_destroy(&a);
}

static void enter(void)
{
    pthread_once(&big_once, big_init);
    pthread_mutex_lock(&big);
}

static void leave(void) { pthread_mutex_unlock(&big); }

static int leave_with(int rc)
{
    leave();
    return rc;
}

/* call, an int, made under the mutex: a public function around its
   locked_ version */
#define LOCKED(call) (enter(), leave_with(call))

static struct psync_req **reqs;    /* every live sync request */
static int nreqs, reqs_cap;
static struct psync_win **wins;    /* every live window made through */
static int nwins, wins_cap;        /* mpi_sync.h */
static int cap_env;                /* PSYNC_COUNTERS: see read_config */
static int rank_bits, slot_bits, gen_bits, world_rank;
static unsigned serial;            /* my allocations so far */
static int held;                   /* my counters now, over all windows */
static int err_counter_class = -1;
static MPI_Datatype handle_type = MPI_DATATYPE_NULL;

/* ------------------------------------------------------------ errors */

/* One error code per class, whose string is the last error's message
   (MPI_Add_error_string replaces a code's string, MPI-3.1 8.5). */
static int code_for(int cls)
{
    static int classes[8], codes[8], n;
    for (int i = 0; i < n; i++)
        if (classes[i] == cls)
            return codes[i];
    int code;
    if (n == 8 || MPI_Add_error_code(cls, &code) != MPI_SUCCESS)
        return cls;
    classes[n] = cls;
    codes[n++] = code;
    return code;
}

static int locked_psync_err_win_counter(void)
{
    if (err_counter_class < 0) {
        int c;
        if (MPI_Add_error_class(&c) != MPI_SUCCESS)
            return MPI_ERR_OTHER;
        MPI_Add_error_string(c, "synchronization counter driven below zero");
        err_counter_class = c;
    }
    return err_counter_class;
}

int psync_err_win_counter(void)
{
    return LOCKED(locked_psync_err_win_counter());
}

/* Raises class cls from function fn through w's error handler (through
   MPI_COMM_WORLD's when there is no window), with a message that says
   what was wrong; returns the code for the caller to return. */
static int fail(struct psync_win *w, MPI_Win win, int cls, const char *fn,
                const char *fmt, ...)
{
    char msg[MPI_MAX_ERROR_STRING - 64], line[MPI_MAX_ERROR_STRING];
    va_list ap;
    enter();
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int code = code_for(cls);
    if (code != cls) {
        snprintf(line, sizeof line, "mpi_sync: rank %d: %s: %s", world_rank,
                 fn, msg);
        MPI_Add_error_string(code, line);
    }
    if (w && w->win != MPI_WIN_NULL)
        win = w->win;
    if (win != MPI_WIN_NULL)
        MPI_Win_call_errhandler(win, code);
    else
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
    leave();
    return code;
}

static MPI_Comm quiet = MPI_COMM_NULL;    /* see progress() */

/* MPI_Finalize frees MPI_COMM_SELF's attributes first (MPI-3.1 8.7.1):
   the library's own MPI objects go then. */
static int at_finalize(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm; (void)key; (void)val; (void)extra;
    if (handle_type != MPI_DATATYPE_NULL)
        MPI_Type_free(&handle_type);
    if (quiet != MPI_COMM_NULL)
        MPI_Comm_free(&quiet);
    free(wins);
    wins = NULL;
    nwins = wins_cap = 0;
    return MPI_SUCCESS;
}

/* Makes sure at_finalize runs: at the first object the library makes. */
static void clean_at_finalize(void)
{
    static int done;
    int key;
    if (done || MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize,
                                       &key, NULL) != MPI_SUCCESS)
        return;
    done = MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL) == MPI_SUCCESS;
    MPI_Comm_free_keyval(&key);
}

static MPI_Datatype locked_psync_handle_type(void)
{
    if (handle_type == MPI_DATATYPE_NULL) {
        clean_at_finalize();
        MPI_Datatype t;
        if (MPI_Type_dup(MPI_INT, &t) != MPI_SUCCESS)
            return MPI_DATATYPE_NULL;
        MPI_Type_set_name(t, "MPI_HANDLE_SYNC");
        MPI_Type_commit(&t);
        handle_type = t;
    }
    return handle_type;
}

MPI_Datatype psync_handle_type(void)
{
    enter();
    MPI_Datatype rc = locked_psync_handle_type();
    leave();
    return rc;
}

MPI_Sync MPI_Sync_counter_f2c(MPI_Fint c) { return (MPI_Sync)c; }
MPI_Fint MPI_Sync_counter_c2f(MPI_Sync c) { return (MPI_Fint)c; }

/* ------------------------------------------------------------ handles */

static int bits_for(int n) /* bits to hold 0 .. n - 1 */
{
    int b = 1;
    while (b < 30 && (1 << b) < n)
        b++;
    return b;
}

/* PSYNC_COUNTERS (the counters a process may hold over all windows, and
   so the slots per process of each window; default 256) and the
   handle's layout: generation | slot | owner's rank in MPI_COMM_WORLD. */
static int read_config(MPI_Comm comm)
{
    if (cap_env)
        return MPI_SUCCESS;
    long v = 256;
    const char *s = getenv("PSYNC_COUNTERS");
    if (s) {
        char *end;
        errno = 0;
        v = strtol(s, &end, 10);
        if (errno || end == s || *end || v < 1 || v > (1 << 20)) {
            char m[200];
            snprintf(m, sizeof m, "PSYNC_COUNTERS=%.40s: not a number of "
                     "counters from 1 to %d", s, 1 << 20);
            int code = code_for(MPI_ERR_ARG);
            if (code != MPI_ERR_ARG)
                MPI_Add_error_string(code, m);
            MPI_Comm_call_errhandler(comm, code);
            return code;
        }
    }
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rank_bits = bits_for(size);
    slot_bits = bits_for((int)v);
    gen_bits = 31 - rank_bits - slot_bits;
    if (gen_bits < 8) { /* fewer slots, so that a stale handle stays rare */
        slot_bits = 23 - rank_bits;
        v = 1L << slot_bits;
        gen_bits = 8;
    }
    cap_env = (int)v;
    return MPI_SUCCESS;
}

static int owner_of(MPI_Sync h) { return h & ((1 << rank_bits) - 1); }
static int slot_of(MPI_Sync h)
{
    return (h >> rank_bits) & ((1 << slot_bits) - 1);
}

/* The rank in w's group of world rank r, or MPI_UNDEFINED. */
static int win_rank_of(struct psync_win *w, int r)
{
    MPI_Group world;
    int out = MPI_UNDEFINED;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_translate_ranks(world, 1, &r, w->group, &out);
    MPI_Group_free(&world);
    return out;
}

/* ------------------------------------------------------------ windows */

/* The library's state of window win, or NULL: a search of the few live
   windows, the last one found first (every RMA call of the program
   comes here). */
static struct psync_win *win_last;

static struct psync_win *win_of(MPI_Win win)
{
    if (win_last && win_last->win == win)
        return win_last;
    for (int i = 0; i < nwins; i++)
        if (wins[i]->win == win)
            return win_last = wins[i];
    return NULL;
}

static void win_release(struct psync_win *w)
{
    if (--w->refs)
        return;
    MPI_Group_free(&w->group);
    free(w->handle);
    free(w->armed);
    free(w->cover);
    free(w->exposes);
    free(w->att_base);
    free(w->att_size);
    free(w);
}

static void win_forget(struct psync_win *w)
{
    for (int i = 0; i < nwins; i++)
        if (wins[i] == w)
            wins[i] = wins[--nwins];
    win_last = NULL;
}

/* w into the table of windows: *rc an error when there is no room. */
static void win_insert(struct psync_win *w, MPI_Win win, int *rc)
{
    struct psync_win **more = nwins < wins_cap ? wins
        : realloc(wins, (size_t)(wins_cap = 2 * wins_cap + 4) * sizeof *more);
    if (!more) {
        wins_cap = nwins;
        *rc = fail(NULL, win, MPI_ERR_NO_MEM, "MPI_Win_create",
                   "no memory for the table of windows");
        return;
    }
    wins = more;
    wins[nwins++] = w;
}

/* Gives the new window win its counters: collective over comm.  w is
   this thread's alone until win_insert: only the configuration, the
   count of windows and the table are the mutex's. */
static int attach(MPI_Win win, MPI_Comm comm)
{
    enter();
    int rc = read_config(comm), cap = cap_env;
    clean_at_finalize();
    leave();
    if (rc != MPI_SUCCESS)
        return rc;
    int size;
    MPI_Comm_size(comm, &size);
    struct psync_win *w = calloc(1, sizeof *w);
    if (!w || !(w->handle = calloc(cap, sizeof *w->handle)) ||
        !(w->armed = calloc(cap, 1)) ||
        !(w->cover = calloc((size_t)size * 3, sizeof *w->cover))) {
        if (w) {
            free(w->handle);
            free(w->armed);
            free(w);
        }
        return fail(NULL, win, MPI_ERR_NO_MEM, "MPI_Win_create",
                    "no memory for the window's counter table");
    }
    w->win = w->real = win;
    int *flavor, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    w->flavor = flag ? *flavor : MPI_WIN_FLAVOR_CREATE;
    w->cap = cap;
    w->refs = 1;
    MPI_Comm_rank(comm, &w->rank);
    MPI_Win_get_group(win, &w->group);
    rc = MPI_Win_allocate((MPI_Aint)cap * 2 * (MPI_Aint)sizeof(int),
                          sizeof(int), MPI_INFO_NULL, comm, &w->mem,
                          &w->hidden);
    if (rc != MPI_SUCCESS) {
        win_release(w);
        return rc;
    }
    MPI_Win_set_errhandler(w->hidden, MPI_ERRORS_RETURN);
    /* Zeroed by local stores under the epoch, made public by MPI_Win_sync
       (11.7 rule 5), before the barrier after which others may signal. */
    MPI_Win_lock_all(MPI_MODE_NOCHECK, w->hidden);
    memset(w->mem, 0, (size_t)cap * 2 * sizeof(int));
    MPI_Win_sync(w->hidden);
    /* The window's id: rank 0's world rank and count of windows, which
       MPI_Win_change_comm compares; the allreduce is also the barrier
       after which others may signal (nobody leaves it before all came) */
    static long long made;
    enter();
    long long id = w->rank ? 0 : ((long long)world_rank << 32) + ++made;
    leave();
    MPI_Allreduce(&id, &w->id, 1, MPI_LONG_LONG, MPI_MAX, comm);
    enter();
    win_insert(w, win, &rc);
    leave();
    return rc;
}

int psync_Win_create(void *base, MPI_Aint size, int disp_unit,
                     MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    int rc = MPI_Win_create(base, size, disp_unit, info, comm, win);
    return rc == MPI_SUCCESS ? attach(*win, comm) : rc;
}

int psync_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                       MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    int rc = MPI_Win_allocate(size, disp_unit, info, comm, baseptr, win);
    return rc == MPI_SUCCESS ? attach(*win, comm) : rc;
}

int psync_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
                              MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    int rc = MPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr,
                                     win);
    return rc == MPI_SUCCESS ? attach(*win, comm) : rc;
}

int psync_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    int rc = MPI_Win_create_dynamic(info, comm, win);
    return rc == MPI_SUCCESS ? attach(*win, comm) : rc;
}

/* The library's part of window *win goes under the mutex; the MPI's
   windows, collectively, without it. */
int psync_Win_free(MPI_Win *win)
{
    enter();
    struct psync_win *w = win ? win_of(*win) : NULL;
    MPI_Win hidden = MPI_WIN_NULL, other = MPI_WIN_NULL;
    if (w && w->active) {
        int rc = fail(w, MPI_WIN_NULL, MPI_ERR_RMA_SYNC, "MPI_Win_free",
                      "%d sync request(s) made on the window are active",
                      w->active);
        leave();
        return rc;
    }
    if (w) {
        hidden = w->hidden;
        if (w->real != w->win)
            other = w->real;
        for (int s = 0; s < w->cap; s++) /* its counters go with it */
            held -= w->handle[s] != 0;
        win_forget(w);
        w->win = MPI_WIN_NULL;
        win_release(w);
    }
    leave();
    if (hidden != MPI_WIN_NULL) {
        MPI_Win_unlock_all(hidden);
        MPI_Win_free(&hidden);
    }
    if (other != MPI_WIN_NULL)  /* over the new group first, as made */
        MPI_Win_free(&other);
    return MPI_Win_free(win);
}

/* ------------------------------------------------------------ counters */

/* My slot of handle h on w, or -1. */
static int my_slot(struct psync_win *w, MPI_Sync h)
{
    if (h <= 0 || owner_of(h) != world_rank)
        return -1;
    int s = slot_of(h);
    return s < w->cap && w->handle[s] == h ? s : -1;
}

static int set_handle_word(struct psync_win *w, int s, MPI_Sync h)
{
    int old;
    int rc = MPI_Fetch_and_op(&h, &old, MPI_INT, w->rank, 2 * s + 1,
                              MPI_REPLACE, w->hidden);
    return rc != MPI_SUCCESS ? rc : MPI_Win_flush(w->rank, w->hidden);
}

/* Atomic add of v to my counter s; *old gets its value before. */
static int add_mine(struct psync_win *w, int s, int v, int *old)
{
    int rc = MPI_Fetch_and_op(&v, old, MPI_INT, w->rank, 2 * s, MPI_SUM,
                              w->hidden);
    return rc != MPI_SUCCESS ? rc : MPI_Win_flush(w->rank, w->hidden);
}

/* The arguments both calls on a list of counters check; *wp gets the
   window's counters. */
static int list_args(MPI_Win win, int n, const MPI_Sync *c, const char *fn,
                     struct psync_win **wp)
{
    struct psync_win *w = *wp = win_of(win);
    if (!w)
        return fail(NULL, win, MPI_ERR_WIN, fn, "not a window made "
                    "through mpi_sync.h");
    if (n < 0)
        return fail(w, win, MPI_ERR_COUNT, fn, "n_sync %d is negative", n);
    if (n > 0 && !c)
        return fail(w, win, MPI_ERR_ARG, fn, "sync_counters is NULL");
    return MPI_SUCCESS;
}

static int locked_MPI_Win_alloc_sync_objects(int n, MPI_Sync *c, MPI_Win win,
                                             MPI_Info info)
{
    static const char fn[] = "MPI_Win_alloc_sync_objects";
    (void)info;
    struct psync_win *w;
    int rc = list_args(win, n, c, fn, &w);
    if (rc != MPI_SUCCESS)
        return rc;
    /* at most cap_env over all windows, as shmpi's table: so each
       window, with cap_env slots, has room for them */
    if (n > cap_env - held)
        return fail(w, win, MPI_ERR_NO_MEM, fn, "%d counters asked, %d of "
                    "this process's %d left (PSYNC_COUNTERS)", n,
                    cap_env - held, cap_env);
    for (int i = 0, s = 0; i < n; i++, s++) {
        while (w->handle[s])
            s++;
        unsigned gen = serial++ % ((1u << gen_bits) - 1) + 1;
        MPI_Sync h = (MPI_Sync)((gen << (rank_bits + slot_bits)) |
                                ((unsigned)s << rank_bits) |
                                (unsigned)world_rank);
        /* The counter starts at 0: take away what a stray signal to the
           slot's last counter left (a sum, as every update of it). */
        int old;
        rc = add_mine(w, s, 0, &old);
        if (rc == MPI_SUCCESS && old)
            rc = add_mine(w, s, -old, &old);
        if (rc == MPI_SUCCESS)
            rc = set_handle_word(w, s, h);
        if (rc != MPI_SUCCESS)
            return fail(w, win, MPI_ERR_OTHER, fn, "RMA on the counters' "
                        "window failed (error %d)", rc);
        w->handle[s] = h;
        held++;
        c[i] = h;
    }
    return MPI_SUCCESS;
}

int MPI_Win_alloc_sync_objects(int n, MPI_Sync *c, MPI_Win win,
                               MPI_Info info)
{
    return LOCKED(locked_MPI_Win_alloc_sync_objects(n, c, win, info));
}

static int locked_MPI_Win_free_sync_objects(int n, MPI_Sync *c, MPI_Win win)
{
    static const char fn[] = "MPI_Win_free_sync_objects";
    struct psync_win *w;
    int rc = list_args(win, n, c, fn, &w);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < n; i++) { /* all checked before any is freed */
        int s = my_slot(w, c[i]);
        if (s < 0)
            return fail(w, win, MPI_ERR_ARG, fn, "sync_counters[%d] = %d is "
                        "not a counter of this process on this window", i,
                        c[i]);
        if (w->armed[s])
            return fail(w, win, MPI_ERR_RMA_SYNC, fn, "counter %d is armed "
                        "by an active request", c[i]);
        for (int j = 0; j < i; j++)
            if (c[j] == c[i])
                return fail(w, win, MPI_ERR_ARG, fn, "counter %d is given "
                            "twice", c[i]);
    }
    for (int i = 0; i < n; i++) {
        int s = my_slot(w, c[i]);
        rc = set_handle_word(w, s, 0);
        if (rc != MPI_SUCCESS)
            return fail(w, win, MPI_ERR_OTHER, fn, "RMA on the counters' "
                        "window failed (error %d)", rc);
        w->handle[s] = 0;
        held--;
        c[i] = MPI_SYNC_NULL;
    }
    return MPI_SUCCESS;
}

int MPI_Win_free_sync_objects(int n, MPI_Sync *c, MPI_Win win)
{
    return LOCKED(locked_MPI_Win_free_sync_objects(n, c, win));
}

/* ------------------------------------------------------------ requests */

static struct psync_req *find(MPI_Request r)
{
    if (r == MPI_REQUEST_NULL)
        return NULL;
    for (int i = 0; i < nreqs; i++)
        if (reqs[i]->handle == r)
            return reqs[i];
    return NULL;
}

/* info "restart": 0 or 1, or -1 for a value that is neither. */
static int restart_of(MPI_Info info)
{
    char v[16];
    int flag = 0;
    if (info == MPI_INFO_NULL)
        return 0;
    MPI_Info_get(info, "restart", (int)sizeof v - 1, v, &flag);
    if (!flag || !strcmp(v, "false"))
        return 0;
    return !strcmp(v, "true") ? 1 : -1;
}

static int new_req(struct psync_win *w, int kind, MPI_Info info,
                   const char *fn, MPI_Request *out, struct psync_req **rp)
{
    int restart = restart_of(info);
    if (restart < 0)
        return fail(w, MPI_WIN_NULL, MPI_ERR_INFO_VALUE, fn, "info "
                    "\"restart\" is neither \"true\" nor \"false\"");
    struct psync_req *r = calloc(1, sizeof *r);
    if (!r || (nreqs == reqs_cap &&
               !(reqs = realloc(reqs, (reqs_cap = 2 * reqs_cap + 8) *
                                      sizeof *reqs)))) {
        free(r);
        return fail(w, MPI_WIN_NULL, MPI_ERR_NO_MEM, fn, "no memory for "
                    "a request");
    }
    /* The handle: a real persistent request that nothing else uses, so
       that its value is a valid MPI_Request distinct from every other. */
    int rc = MPI_Recv_init(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0,
                           MPI_COMM_SELF, &r->handle);
    if (rc != MPI_SUCCESS) {
        free(r);
        return rc;
    }
    r->w = w;
    r->kind = kind;
    r->restart = restart;
    w->refs++;
    reqs[nreqs++] = r;
    *out = r->handle;
    *rp = r;
    return MPI_SUCCESS;
}

static int locked_MPI_Win_sync_object_init(MPI_Sync c, int count, MPI_Win win,
                                           MPI_Info info, MPI_Request *req)
{
    static const char fn[] = "MPI_Win_sync_object_init";
    struct psync_win *w = win_of(win);
    if (!w)
        return fail(NULL, win, MPI_ERR_WIN, fn, "not a window made "
                    "through mpi_sync.h");
    if (!req)
        return fail(w, win, MPI_ERR_ARG, fn, "req is NULL");
    if (count < 0)
        return fail(w, win, MPI_ERR_COUNT, fn, "count %d is negative",
                    count);
    int s = my_slot(w, c);
    if (s < 0) {
        if (c > 0 && owner_of(c) != world_rank)
            return fail(w, win, MPI_ERR_ARG, fn, "counter %d is world rank "
                        "%d's, not this process's", c, owner_of(c));
        return fail(w, win, MPI_ERR_ARG, fn, "counter %d is not a counter "
                    "of this process on this window", c);
    }
    struct psync_req *r;
    int rc = new_req(w, OBJECT, info, fn, req, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    r->counter = c;
    r->slot = s;
    r->count = count;
    return MPI_SUCCESS;
}

int MPI_Win_sync_object_init(MPI_Sync c, int count, MPI_Win win,
                             MPI_Info info, MPI_Request *req)
{
    return LOCKED(locked_MPI_Win_sync_object_init(c, count, win, info, req));
}

static int locked_MPI_Win_sync_ops_init(int target, int mode, MPI_Sync c,
                                        MPI_Win win, MPI_Info info,
                                        MPI_Request *req)
{
    static const char fn[] = "MPI_Win_sync_ops_init";
    struct psync_win *w = win_of(win);
    int size;
    if (!w)
        return fail(NULL, win, MPI_ERR_WIN, fn, "not a window made "
                    "through mpi_sync.h");
    if (!req)
        return fail(w, win, MPI_ERR_ARG, fn, "req is NULL");
    MPI_Group_size(w->group, &size);
    if (target != MPI_PROC_NULL && (target < 0 || target >= size))
        return fail(w, win, MPI_ERR_RANK, fn, "target_rank %d is not a "
                    "rank of the window (size %d)", target, size);
    if (mode & ~(MPI_MODE_WIN_PUT | MPI_MODE_WIN_GET |
                 MPI_MODE_WIN_ACCUMULATE))
        return fail(w, win, MPI_ERR_ARG, fn, "sync_mode %#x has bits other "
                    "than MPI_MODE_WIN_PUT, _GET, _ACCUMULATE", mode);
    if (target != MPI_PROC_NULL) {
        int owner = c > 0 ? win_rank_of(w, owner_of(c)) : MPI_UNDEFINED;
        if (c <= 0)
            return fail(w, win, MPI_ERR_ARG, fn, "counter %d is not a "
                        "counter", c);
        if (owner != target)
            return fail(w, win, MPI_ERR_ARG, fn, "counter %d is world rank "
                        "%d's, not target %d's", c, owner_of(c), target);
        /* Is it allocated on this window now?  Read the target's word. */
        int zero = 0, h = 0, s = slot_of(c);
        int rc = s >= w->cap ? MPI_ERR_ARG : MPI_SUCCESS;
        if (rc == MPI_SUCCESS)
            rc = MPI_Fetch_and_op(&zero, &h, MPI_INT, target, 2 * s + 1,
                                  MPI_NO_OP, w->hidden);
        if (rc == MPI_SUCCESS)
            rc = MPI_Win_flush(target, w->hidden);
        if (rc != MPI_SUCCESS || h != c)
            return fail(w, win, MPI_ERR_ARG, fn, "counter %d is not "
                        "allocated on this window by target %d", c,
                        target);
    }
    struct psync_req *r;
    int rc = new_req(w, OPS, info, fn, req, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    r->target = target;
    r->mode = mode;
    r->counter = c;
    r->slot = target == MPI_PROC_NULL ? -1 : slot_of(c);
    return MPI_SUCCESS;
}

int MPI_Win_sync_ops_init(int target, int mode, MPI_Sync c, MPI_Win win,
                          MPI_Info info, MPI_Request *req)
{
    return LOCKED(locked_MPI_Win_sync_ops_init(target, mode, c, win, info,
                                               req));
}

static int opens_epoch(const struct psync_req *r)
{
    return r->kind == OPS && r->mode && r->target != MPI_PROC_NULL;
}

/* Started request r's kinds of call to its target, counted in (by 1) or
   out (by -1) of what the sync_ops epoch covers. */
static void cover(struct psync_req *r, int by)
{
    for (int k = 0; k < 3; k++)
        if (r->mode & 1 << k)
            r->w->cover[3 * r->target + k] += by;
}

/* The program's own access epochs on w, which a sync_ops epoch may not
   overlap (MPI-3.1 11.5; shmpi_sync(7)): MPI_ERR_RMA_SYNC from fn. */
static int other_epoch(struct psync_win *w, const char *fn)
{
    const char *what = w->fence_open && w->fence_rma
                           ? "a fence epoch with RMA calls"
                       : w->held[PSCW] ? "a PSCW access epoch (MPI_Win_start)"
                       : w->held[LOCK_ALL] ? "an MPI_Win_lock_all epoch"
                       : w->held[LOCK] ? "an MPI_Win_lock epoch" : NULL;
    if (!what)
        return MPI_SUCCESS;
    return fail(w, MPI_WIN_NULL, MPI_ERR_RMA_SYNC, fn, "a sync_ops request "
                "cannot open its epoch inside %s: access epochs may not "
                "overlap (MPI-3.1 11.5)", what);
}

/* Arms counter r->slot by r->count (a start, or a restart's re-arm). */
static int arm(struct psync_req *r, const char *fn)
{
    struct psync_win *w = r->w;
    int old, rc = add_mine(w, r->slot, r->count, &old);
    if (rc != MPI_SUCCESS)
        return fail(w, MPI_WIN_NULL, MPI_ERR_OTHER, fn, "RMA on the "
                    "counters' window failed (error %d)", rc);
    if ((long)old + r->count < 0) { /* put it back as it was */
        add_mine(w, r->slot, -r->count, &old);
        return fail(w, MPI_WIN_NULL, psync_err_win_counter(), fn,
                    "counter %d is %d: more than a round of signals came "
                    "before this start of count %d", r->counter, old,
                    r->count);
    }
    return MPI_SUCCESS;
}

static int start_one(struct psync_req *r, const char *fn)
{
    struct psync_win *w = r->w;
    if (w->win == MPI_WIN_NULL)
        return fail(w, MPI_WIN_NULL, MPI_ERR_REQUEST, fn, "a sync request "
                    "whose window was freed");
    if (r->active)
        return fail(w, MPI_WIN_NULL, MPI_ERR_REQUEST, fn, "the sync "
                    "request is active already");
    if (r->kind == OBJECT) {
        if (w->handle[r->slot] != r->counter)
            return fail(w, MPI_WIN_NULL, MPI_ERR_REQUEST, fn, "counter %d "
                        "was freed", r->counter);
        if (w->armed[r->slot])
            return fail(w, MPI_WIN_NULL, MPI_ERR_REQUEST, fn, "counter %d "
                        "is armed by another active request", r->counter);
        int rc = arm(r, fn);
        if (rc != MPI_SUCCESS)
            return rc;
        w->armed[r->slot] = 1;
    } else if (opens_epoch(r)) {
        int rc = other_epoch(w, fn);
        if (rc == MPI_SUCCESS && w->epoch == 0)
            rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, w->real);
        if (rc != MPI_SUCCESS)
            return rc;
        cover(r, 1);
        w->fence_open = 0; /* an empty fence epoch gives way, as a lock's */
    }
    w->epoch += opens_epoch(r);
    r->active = 1;
    w->active++;
    return MPI_SUCCESS;
}

/* r stops being active: its part of the epoch ends. */
static int deactivate(struct psync_req *r)
{
    struct psync_win *w = r->w;
    r->active = 0;
    w->active--;
    if (r->kind == OBJECT)
        w->armed[r->slot] = 0;
    if (opens_epoch(r))
        cover(r, -1);
    if (opens_epoch(r) && --w->epoch == 0)
        return MPI_Win_unlock_all(w->real);
    return MPI_SUCCESS;
}

/* Completes the RMA calls of active sync_ops request r and signals. */
static int signal_target(struct psync_req *r, const char *fn)
{
    struct psync_win *w = r->w;
    int rc = MPI_SUCCESS, zero = 0, h = 0, minus = -1;
    if (r->target == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (r->mode)   /* puts, gets, accumulates complete at the target */
        rc = MPI_Win_flush(r->target, w->real);
    if (rc == MPI_SUCCESS)
        rc = MPI_Fetch_and_op(&zero, &h, MPI_INT, r->target,
                              2 * r->slot + 1, MPI_NO_OP, w->hidden);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_flush(r->target, w->hidden);
    if (rc == MPI_SUCCESS && h != r->counter)
        return fail(w, MPI_WIN_NULL, MPI_ERR_ARG, fn, "counter %d was "
                    "freed by its owner, target %d: nothing signalled",
                    r->counter, r->target);
    /* issued after the flush returned: it cannot land before the data */
    if (rc == MPI_SUCCESS)
        rc = MPI_Accumulate(&minus, 1, MPI_INT, r->target, 2 * r->slot, 1,
                            MPI_INT, MPI_SUM, w->hidden);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_flush(r->target, w->hidden);
    return rc;
}

/* The public copy of my window made visible in the private one (11.7
   rule 6), once my counter said the data is there. */
static int see_window(struct psync_win *w)
{
    if (w->epoch || w->held[LOCK_ALL] || w->held[LOCK]) /* passive epoch */
        return MPI_Win_sync(w->real);
    int rc = MPI_Win_lock(MPI_LOCK_SHARED, w->rank, MPI_MODE_NOCHECK,
                          w->real);
    return rc != MPI_SUCCESS ? rc : MPI_Win_unlock(w->rank, w->real);
}

static void empty_status(MPI_Status *st)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->MPI_ERROR = MPI_SUCCESS;
    MPI_Status_set_elements(st, MPI_BYTE, 0);
    MPI_Status_set_cancelled(st, 0);
}

/* Drives the MPI's progress engine: an MPI whose passive target is made
   of messages (Open MPI's osc pt2pt) serves others' locks and flushes on
   this process's windows only inside its calls, and the atomic read of
   the counters' window may not be one that does (osc sm).  A probe of a
   communicator nobody sends on turns the engine and matches nothing. */
static void progress(void)
{
    int flag;
    if (quiet == MPI_COMM_NULL && MPI_Comm_dup(MPI_COMM_SELF, &quiet))
        return;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, quiet, &flag, MPI_STATUS_IGNORE);
}

/* One look at sync request r: *done 1 when it is complete (or inactive). */
static int test_sync(struct psync_req *r, int *done, MPI_Status *st,
                     const char *fn)
{
    struct psync_win *w = r->w;
    int rc = MPI_SUCCESS;
    *done = 1;
    if (r->active && r->kind == OPS) {
        if (!r->signalled)
            rc = signal_target(r, fn);
        r->signalled = 0;
        if (!r->restart || rc != MPI_SUCCESS) {
            int rc2 = deactivate(r);
            rc = rc != MPI_SUCCESS ? rc : rc2;
        }
    } else if (r->active) {
        int v, zero = 0;
        rc = MPI_Fetch_and_op(&zero, &v, MPI_INT, w->rank, 2 * r->slot,
                              MPI_NO_OP, w->hidden);
        if (rc == MPI_SUCCESS)
            rc = MPI_Win_flush(w->rank, w->hidden);
        if (rc == MPI_SUCCESS && v > 0) {
            progress();
            *done = 0;
            return MPI_SUCCESS;
        }
        if (rc == MPI_SUCCESS)
            rc = see_window(w);
        if (rc == MPI_SUCCESS && r->restart) {
            rc = arm(r, fn);   /* its next round, or the error of one */
            if (rc != MPI_SUCCESS)
                deactivate(r);
        } else {
            deactivate(r);
        }
    }
    empty_status(st);
    return rc;
}

/* Between two rounds of a wait that found nothing complete: the first
   SPIN_ROUNDS rounds poll on, later ones yield the processor.  Yielding
   at once made a halo iteration cost milliseconds on a loaded machine
   (Open MPI 4.1, np=2, others taking 88% of the 2 CPUs: 4.5 ms per
   iteration of perf/halo.c's counters1 ring at 8 B, its fence 1.2 us;
   2026-11-30): a yield gives the CPU away for a time slice, while the
   signal is a few microseconds off. */
enum { SPIN_ROUNDS = 2000 };

static void idle(int *rounds)
{
    if (++*rounds > SPIN_ROUNDS)
        sched_yield();
}

static int locked_psync_Start(MPI_Request *req)
{
    struct psync_req *r = nreqs && req ? find(*req) : NULL;
    return r ? start_one(r, "MPI_Start") : MPI_Start(req);
}

int psync_Start(MPI_Request *req)
{
    return LOCKED(locked_psync_Start(req));
}

static int locked_psync_Startall(int n, MPI_Request *v)
{
    for (int i = 0; i < n; i++) {
        struct psync_req *r = nreqs ? find(v[i]) : NULL;
        int rc = r ? start_one(r, "MPI_Startall") : MPI_Start(&v[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int psync_Startall(int n, MPI_Request *v)
{
    return LOCKED(locked_psync_Startall(n, v));
}

/* Any sync request among n? */
static int any_sync(int n, const MPI_Request *v)
{
    for (int i = 0; nreqs && i < n; i++)
        if (find(v[i]))
            return 1;
    return 0;
}

/* any_sync under the mutex, for the waits: a wait on the MPI's requests
   alone is the MPI's, without it. */
static int any_sync_of(int n, const MPI_Request *v)
{
    enter();
    int any = any_sync(n, v);
    leave();
    return any;
}

/* One look at any request: *done 1 when complete, *null 1 when it was
   null or inactive (so that the any and some forms skip it). */
static int look(MPI_Request *req, int *done, int *null, MPI_Status *st,
                const char *fn)
{
    struct psync_req *r = find(*req);
    *null = 0;
    if (r) {
        *null = !r->active;
        return test_sync(r, done, st, fn);
    }
    int idx;
    int rc = MPI_Testany(1, req, &idx, done, st);
    *null = *done && idx == MPI_UNDEFINED;
    return rc;
}

static int locked_psync_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
    struct psync_req *r = nreqs && req ? find(*req) : NULL;
    return r ? test_sync(r, flag, st, "MPI_Test") : MPI_Test(req, flag, st);
}

int psync_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
    return LOCKED(locked_psync_Test(req, flag, st));
}

/* The waits hold the mutex for one round at a time (see the top). */
int psync_Wait(MPI_Request *req, MPI_Status *st)
{
    enter();
    struct psync_req *r = nreqs && req ? find(*req) : NULL;
    leave();
    if (!r)
        return MPI_Wait(req, st);
    for (int rounds = 0;;) {
        enter();
        int done, rc = test_sync(r, &done, st, "MPI_Wait");
        leave();
        if (done || rc != MPI_SUCCESS)
            return rc;
        idle(&rounds);
    }
}

/* The all forms over requests some of which are sync ones: each round
   looks at each request not yet complete.  wait: until all are. */
static int all_of(int n, MPI_Request *v, int *flag, MPI_Status *sts,
                  int wait, const char *fn)
{
    char small[64], *done = n <= 64 ? small : calloc(n, 1);
    int left = n, err = MPI_SUCCESS;
    if (!done)
        return fail(NULL, MPI_WIN_NULL, MPI_ERR_NO_MEM, fn, "no memory");
    memset(done, 0, n <= 64 ? sizeof small : 0);
    for (int rounds = 0;;) {
        enter();
        for (int i = 0; i < n; i++) {
            if (done[i])
                continue;
            int d, null;
            MPI_Status *st = sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE
                                                        : &sts[i];
            int rc = look(&v[i], &d, &null, st, fn);
            if (rc != MPI_SUCCESS) {
                d = 1;
                err = MPI_ERR_IN_STATUS;
                if (st != MPI_STATUS_IGNORE)
                    st->MPI_ERROR = rc;
                else
                    err = rc;
            }
            if (d) {
                done[i] = 1;
                left--;
            }
        }
        leave();
        if (!left || !wait)
            break;
        idle(&rounds);
    }
    if (flag)
        *flag = !left;
    if (done != small)
        free(done);
    return err;
}

int psync_Waitall(int n, MPI_Request *v, MPI_Status *sts)
{
    if (!any_sync_of(n, v))
        return MPI_Waitall(n, v, sts);
    return all_of(n, v, NULL, sts, 1, "MPI_Waitall");
}

static int locked_psync_Testall(int n, MPI_Request *v, int *flag,
                                MPI_Status *sts)
{
    if (!any_sync(n, v))
        return MPI_Testall(n, v, flag, sts);
    /* MPI_Testall completes none unless it completes all: look at the
       sync requests without completing them first.  A sync_ops request
       signals at the first test (shmpi_sync(7)), complete or not: its
       target may be waiting for that signal to complete what we wait
       for. */
    for (int i = 0; i < n; i++) {
        struct psync_req *r = find(v[i]);
        int f = 1;
        if (r && r->active && r->kind == OPS && !r->signalled) {
            int rc = signal_target(r, "MPI_Testall");
            if (rc != MPI_SUCCESS)
                return rc;
            r->signalled = 1;
        }
        if (r && r->active && r->kind == OBJECT)
            psync_Request_get_status(v[i], &f, MPI_STATUS_IGNORE);
        if (!f) {
            *flag = 0;
            return MPI_SUCCESS;
        }
    }
    return all_of(n, v, flag, sts, 0, "MPI_Testall");
}

int psync_Testall(int n, MPI_Request *v, int *flag, MPI_Status *sts)
{
    return LOCKED(locked_psync_Testall(n, v, flag, sts));
}

/* The any and some forms: one round looks at each request; some: all
   that complete in it, any: the first. */
static int some_of(int n, MPI_Request *v, int *outcount, int *idx,
                   MPI_Status *sts, int one, int wait, const char *fn)
{
    for (int rounds = 0;;) {
        enter();
        int live = 0, out = 0, err = MPI_SUCCESS;
        for (int i = 0; i < n && !(one && out); i++) {
            int d, null;
            MPI_Status tmp, *st = sts == MPI_STATUSES_IGNORE
                                      ? MPI_STATUS_IGNORE
                                      : one ? &tmp : &sts[out];
            int rc = look(&v[i], &d, &null, st, fn);
            if (null && rc == MPI_SUCCESS)
                continue;
            live++;
            if (rc != MPI_SUCCESS && one) {
                leave();
                return rc;
            }
            if (d || rc != MPI_SUCCESS) {
                if (one && sts != MPI_STATUSES_IGNORE)
                    *sts = tmp;
                if (rc != MPI_SUCCESS) {
                    err = st != MPI_STATUS_IGNORE ? MPI_ERR_IN_STATUS : rc;
                    if (st != MPI_STATUS_IGNORE)
                        st->MPI_ERROR = rc;
                }
                idx[out++] = i;
            }
        }
        leave();
        if (out || !live) {
            *outcount = live ? out : MPI_UNDEFINED;
            if (!live && one && sts != MPI_STATUSES_IGNORE)
                empty_status(sts);
            return err;
        }
        if (!wait) {
            *outcount = 0;
            return MPI_SUCCESS;
        }
        idle(&rounds);
    }
}

int psync_Waitany(int n, MPI_Request *v, int *index, MPI_Status *st)
{
    if (!any_sync_of(n, v))
        return MPI_Waitany(n, v, index, st);
    if (st == MPI_STATUS_IGNORE) /* some_of takes an array of statuses */
        st = MPI_STATUSES_IGNORE;
    int out, rc = some_of(n, v, &out, index, st, 1, 1, "MPI_Waitany");
    if (out == MPI_UNDEFINED)
        *index = MPI_UNDEFINED;
    return rc;
}

static int locked_psync_Testany(int n, MPI_Request *v, int *index, int *flag,
                                MPI_Status *st)
{
    if (!any_sync(n, v))
        return MPI_Testany(n, v, index, flag, st);
    if (st == MPI_STATUS_IGNORE)
        st = MPI_STATUSES_IGNORE;
    int out, rc = some_of(n, v, &out, index, st, 1, 0, "MPI_Testany");
    *flag = out != 0;
    if (out == MPI_UNDEFINED || out == 0)
        *index = MPI_UNDEFINED;
    return rc;
}

int psync_Testany(int n, MPI_Request *v, int *index, int *flag,
                  MPI_Status *st)
{
    return LOCKED(locked_psync_Testany(n, v, index, flag, st));
}

int psync_Waitsome(int n, MPI_Request *v, int *outcount, int *idx,
                   MPI_Status *sts)
{
    if (!any_sync_of(n, v))
        return MPI_Waitsome(n, v, outcount, idx, sts);
    return some_of(n, v, outcount, idx, sts, 0, 1, "MPI_Waitsome");
}

static int locked_psync_Testsome(int n, MPI_Request *v, int *outcount,
                                 int *idx, MPI_Status *sts)
{
    if (!any_sync(n, v))
        return MPI_Testsome(n, v, outcount, idx, sts);
    return some_of(n, v, outcount, idx, sts, 0, 0, "MPI_Testsome");
}

int psync_Testsome(int n, MPI_Request *v, int *outcount, int *idx,
                   MPI_Status *sts)
{
    return LOCKED(locked_psync_Testsome(n, v, outcount, idx, sts));
}

static int locked_psync_Request_free(MPI_Request *req)
{
    struct psync_req *r = nreqs && req ? find(*req) : NULL;
    if (!r)
        return MPI_Request_free(req);
    int rc = MPI_SUCCESS;
    if (r->active && r->kind == OPS && !r->restart && !r->signalled)
        rc = signal_target(r, "MPI_Request_free"); /* its calls are done */
    if (r->active) {
        int rc2 = deactivate(r);
        rc = rc != MPI_SUCCESS ? rc : rc2;
    }
    for (int i = 0; i < nreqs; i++)
        if (reqs[i] == r)
            reqs[i] = reqs[--nreqs];
    MPI_Request_free(&r->handle);
    win_release(r->w);
    free(r);
    *req = MPI_REQUEST_NULL;
    return rc;
}

int psync_Request_free(MPI_Request *req)
{
    return LOCKED(locked_psync_Request_free(req));
}

static int locked_psync_Cancel(MPI_Request *req)
{
    struct psync_req *r = nreqs && req ? find(*req) : NULL;
    if (!r)
        return MPI_Cancel(req);
    return fail(r->w, MPI_WIN_NULL, MPI_ERR_REQUEST, "MPI_Cancel", "a sync "
                "request cannot be cancelled");
}

int psync_Cancel(MPI_Request *req)
{
    return LOCKED(locked_psync_Cancel(req));
}

static int locked_psync_Request_get_status(MPI_Request req, int *flag,
                                           MPI_Status *st)
{
    struct psync_req *r = nreqs ? find(req) : NULL;
    if (!r)
        return MPI_Request_get_status(req, flag, st);
    *flag = 1;
    if (r->active && r->kind == OBJECT) {
        int v, zero = 0;
        int rc = MPI_Fetch_and_op(&zero, &v, MPI_INT, r->w->rank,
                                  2 * r->slot, MPI_NO_OP, r->w->hidden);
        if (rc == MPI_SUCCESS)
            rc = MPI_Win_flush(r->w->rank, r->w->hidden);
        if (rc != MPI_SUCCESS)
            return rc;
        *flag = v <= 0;
        if (!*flag)
            progress();
    }
    if (*flag)
        empty_status(st);
    return MPI_SUCCESS;
}

int psync_Request_get_status(MPI_Request req, int *flag, MPI_Status *st)
{
    return LOCKED(locked_psync_Request_get_status(req, flag, st));
}


/* ------------------------------------------------------------ epochs */

/*
 * The program's RMA calls on a window of the library come here (the
 * header's macros), so that the sync_ops epoch is one as shmpi's is: a
 * call inside it must be of a kind that a started request covers to its
 * target, and no other access epoch opens inside it; and so that the
 * library knows the program's own epochs (other_epoch).  Windows the
 * library does not know, and calls outside any sync_ops epoch, go to the
 * MPI as they are, after one look at the window table.
 */

static const char *const kind_name[3] = {"MPI_MODE_WIN_PUT",
                                         "MPI_MODE_WIN_GET",
                                         "MPI_MODE_WIN_ACCUMULATE"};

/* The MPI's window behind the program's win. */
static MPI_Win real(MPI_Win win)
{
    enter();
    struct psync_win *w = nwins ? win_of(win) : NULL;
    MPI_Win r = w ? w->real : win;
    leave();
    return r;
}

/* win_of under the mutex, for the epoch calls that the MPI may block:
   the state stays valid as long as the window (the program frees no
   window while it calls on it). */
static struct psync_win *win_lookup(MPI_Win win)
{
    enter();
    struct psync_win *w = nwins ? win_of(win) : NULL;
    leave();
    return w;
}

/* An RMA call of kind k (0 put, 1 get, 2 accumulate) to target on *win;
   *win becomes the MPI's window. */
static int rma_call(MPI_Win *win, int target, int k, const char *fn)
{
    struct psync_win *w = nwins ? win_of(*win) : NULL;
    if (!w)
        return MPI_SUCCESS;
    *win = w->real;
    w->fence_rma |= w->fence_open;
    if (!w->epoch && !w->fence_open && !w->held[PSCW] && !w->held[LOCK] &&
        !w->held[LOCK_ALL])
        return fail(w, MPI_WIN_NULL, MPI_ERR_RMA_SYNC, fn, "called outside "
                    "any access epoch on the window (fence, PSCW, lock, "
                    "lock_all or a started sync_ops request): MPI-3.1 11.5");
    int size;
    MPI_Group_size(w->group, &size);
    if (!w->epoch || target < 0 || target >= size ||
        w->cover[3 * target + k])
        return MPI_SUCCESS; /* a bad rank is the MPI's to report */
    char has[80] = "";
    for (int j = 0; j < 3; j++)
        if (w->cover[3 * target + j])
            snprintf(has + strlen(has), sizeof has - strlen(has), "%s%s",
                     *has ? " | " : "", kind_name[j]);
    return fail(w, MPI_WIN_NULL, MPI_ERR_RMA_SYNC, fn, "the started "
                "sync_ops requests to target %d cover %s; this call needs "
                "sync_mode %s", target, *has ? has : "nothing", kind_name[k]);
}

/* An access epoch of the program's opening on win: refused inside the
   sync_ops epoch. */
static int opening(MPI_Win *win, struct psync_win **wp, const char *fn)
{
    enter();
    struct psync_win *w = *wp = nwins ? win_of(*win) : NULL;
    int rc = MPI_SUCCESS;
    if (w)
        *win = w->real;
    if (w && w->epoch)
        rc = fail(w, MPI_WIN_NULL, MPI_ERR_RMA_SYNC, fn, "called inside "
                  "the sync_ops epoch of %d started sync_ops request(s): "
                  "access epochs may not overlap (MPI-3.1 11.5)", w->epoch);
    leave();
    return rc;
}

static int locked_psync_Put(const void *oa, int oc, MPI_Datatype ot, int t,
                            MPI_Aint td, int tc, MPI_Datatype tt, MPI_Win win)
{
    int rc = rma_call(&win, t, 0, "MPI_Put");
    return rc != MPI_SUCCESS ? rc : MPI_Put(oa, oc, ot, t, td, tc, tt, win);
}

int psync_Put(const void *oa, int oc, MPI_Datatype ot, int t, MPI_Aint td,
              int tc, MPI_Datatype tt, MPI_Win win)
{
    return LOCKED(locked_psync_Put(oa, oc, ot, t, td, tc, tt, win));
}

static int locked_psync_Rput(const void *oa, int oc, MPI_Datatype ot, int t,
                             MPI_Aint td, int tc, MPI_Datatype tt, MPI_Win win,
                             MPI_Request *req)
{
    int rc = rma_call(&win, t, 0, "MPI_Rput");
    return rc != MPI_SUCCESS ? rc
                             : MPI_Rput(oa, oc, ot, t, td, tc, tt, win, req);
}

int psync_Rput(const void *oa, int oc, MPI_Datatype ot, int t, MPI_Aint td,
               int tc, MPI_Datatype tt, MPI_Win win, MPI_Request *req)
{
    return LOCKED(locked_psync_Rput(oa, oc, ot, t, td, tc, tt, win, req));
}

static int locked_psync_Get(void *oa, int oc, MPI_Datatype ot, int t,
                            MPI_Aint td, int tc, MPI_Datatype tt, MPI_Win win)
{
    int rc = rma_call(&win, t, 1, "MPI_Get");
    return rc != MPI_SUCCESS ? rc : MPI_Get(oa, oc, ot, t, td, tc, tt, win);
}

int psync_Get(void *oa, int oc, MPI_Datatype ot, int t, MPI_Aint td, int tc,
              MPI_Datatype tt, MPI_Win win)
{
    return LOCKED(locked_psync_Get(oa, oc, ot, t, td, tc, tt, win));
}

static int locked_psync_Rget(void *oa, int oc, MPI_Datatype ot, int t,
                             MPI_Aint td, int tc, MPI_Datatype tt, MPI_Win win,
                             MPI_Request *req)
{
    int rc = rma_call(&win, t, 1, "MPI_Rget");
    return rc != MPI_SUCCESS ? rc
                             : MPI_Rget(oa, oc, ot, t, td, tc, tt, win, req);
}

int psync_Rget(void *oa, int oc, MPI_Datatype ot, int t, MPI_Aint td, int tc,
               MPI_Datatype tt, MPI_Win win, MPI_Request *req)
{
    return LOCKED(locked_psync_Rget(oa, oc, ot, t, td, tc, tt, win, req));
}

static int locked_psync_Accumulate(const void *oa, int oc, MPI_Datatype ot,
                                   int t, MPI_Aint td, int tc, MPI_Datatype tt,
                                   MPI_Op op, MPI_Win win)
{
    int rc = rma_call(&win, t, 2, "MPI_Accumulate");
    return rc != MPI_SUCCESS
               ? rc : MPI_Accumulate(oa, oc, ot, t, td, tc, tt, op, win);
}

int psync_Accumulate(const void *oa, int oc, MPI_Datatype ot, int t,
                     MPI_Aint td, int tc, MPI_Datatype tt, MPI_Op op,
                     MPI_Win win)
{
    return LOCKED(locked_psync_Accumulate(oa, oc, ot, t, td, tc, tt, op, win));
}

static int locked_psync_Raccumulate(const void *oa, int oc, MPI_Datatype ot,
                                    int t, MPI_Aint td, int tc,
                                    MPI_Datatype tt, MPI_Op op, MPI_Win win,
                                    MPI_Request *req)
{
    int rc = rma_call(&win, t, 2, "MPI_Raccumulate");
    return rc != MPI_SUCCESS ? rc : MPI_Raccumulate(oa, oc, ot, t, td, tc, tt,
                                                    op, win, req);
}

int psync_Raccumulate(const void *oa, int oc, MPI_Datatype ot, int t,
                      MPI_Aint td, int tc, MPI_Datatype tt, MPI_Op op,
                      MPI_Win win, MPI_Request *req)
{
    return LOCKED(locked_psync_Raccumulate(oa, oc, ot, t, td, tc, tt, op,
                                           win, req));
}

static int locked_psync_Get_accumulate(const void *oa, int oc, MPI_Datatype ot,
                                       void *ra, int rcount, MPI_Datatype rt,
                                       int t, MPI_Aint td, int tc,
                                       MPI_Datatype tt, MPI_Op op, MPI_Win win)
{
    int rc = rma_call(&win, t, 2, "MPI_Get_accumulate");
    return rc != MPI_SUCCESS ? rc : MPI_Get_accumulate(oa, oc, ot, ra, rcount,
                                                       rt, t, td, tc, tt, op,
                                                       win);
}

int psync_Get_accumulate(const void *oa, int oc, MPI_Datatype ot, void *ra,
                         int rcount, MPI_Datatype rt, int t, MPI_Aint td,
                         int tc, MPI_Datatype tt, MPI_Op op, MPI_Win win)
{
    return LOCKED(locked_psync_Get_accumulate(oa, oc, ot, ra, rcount, rt, t,
                                              td, tc, tt, op, win));
}

static int locked_psync_Rget_accumulate(const void *oa, int oc,
                                        MPI_Datatype ot, void *ra, int rcount,
                                        MPI_Datatype rt, int t, MPI_Aint td,
                                        int tc, MPI_Datatype tt, MPI_Op op,
                                        MPI_Win win, MPI_Request *req)
{
    int rc = rma_call(&win, t, 2, "MPI_Rget_accumulate");
    return rc != MPI_SUCCESS ? rc : MPI_Rget_accumulate(oa, oc, ot, ra,
                                                        rcount, rt, t, td, tc,
                                                        tt, op, win, req);
}

int psync_Rget_accumulate(const void *oa, int oc, MPI_Datatype ot, void *ra,
                          int rcount, MPI_Datatype rt, int t, MPI_Aint td,
                          int tc, MPI_Datatype tt, MPI_Op op, MPI_Win win,
                          MPI_Request *req)
{
    return LOCKED(locked_psync_Rget_accumulate(oa, oc, ot, ra, rcount, rt, t,
                                               td, tc, tt, op, win, req));
}

static int locked_psync_Fetch_and_op(const void *oa, void *ra, MPI_Datatype dt,
                                     int t, MPI_Aint td, MPI_Op op,
                                     MPI_Win win)
{
    int rc = rma_call(&win, t, 2, "MPI_Fetch_and_op");
    return rc != MPI_SUCCESS ? rc
                             : MPI_Fetch_and_op(oa, ra, dt, t, td, op, win);
}

int psync_Fetch_and_op(const void *oa, void *ra, MPI_Datatype dt, int t,
                       MPI_Aint td, MPI_Op op, MPI_Win win)
{
    return LOCKED(locked_psync_Fetch_and_op(oa, ra, dt, t, td, op, win));
}

static int locked_psync_Compare_and_swap(const void *oa, const void *ca,
                                         void *ra, MPI_Datatype dt, int t,
                                         MPI_Aint td, MPI_Win win)
{
    int rc = rma_call(&win, t, 2, "MPI_Compare_and_swap");
    return rc != MPI_SUCCESS ? rc
                             : MPI_Compare_and_swap(oa, ca, ra, dt, t, td, win);
}

int psync_Compare_and_swap(const void *oa, const void *ca, void *ra,
                           MPI_Datatype dt, int t, MPI_Aint td, MPI_Win win)
{
    return LOCKED(locked_psync_Compare_and_swap(oa, ca, ra, dt, t, td, win));
}

int psync_Win_fence(int assert, MPI_Win win)
{
    struct psync_win *w;
    int rc = opening(&win, &w, "MPI_Win_fence");
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_fence(assert, win);
    enter();
    if (w && rc == MPI_SUCCESS) {
        w->fence_open = !(assert & MPI_MODE_NOSUCCEED);
        w->fence_rma = 0;
    }
    leave();
    return rc;
}

/* The MPI's answer rc to a call that opened (by 1) or closed (by -1)
   an access epoch of kind k on w (NULL: not a library window). */
static int counted(struct psync_win *w, int k, int by, int rc)
{
    enter();
    if (w && rc == MPI_SUCCESS) {
        w->held[k] += by;
        if (by > 0)
            w->fence_open = 0;
    }
    leave();
    return rc;
}

int psync_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    struct psync_win *w;
    int rc = opening(&win, &w, "MPI_Win_start");
    return counted(w, PSCW, 1, rc != MPI_SUCCESS
                                   ? rc : MPI_Win_start(group, assert, win));
}

int psync_Win_complete(MPI_Win win)
{
    return counted(win_lookup(win), PSCW, -1,
                   MPI_Win_complete(real(win)));
}

int psync_Win_lock(int type, int target, int assert, MPI_Win win)
{
    struct psync_win *w;
    int rc = opening(&win, &w, "MPI_Win_lock");
    return counted(w, LOCK, 1, rc != MPI_SUCCESS
                                   ? rc
                                   : MPI_Win_lock(type, target, assert, win));
}

int psync_Win_unlock(int target, MPI_Win win)
{
    return counted(win_lookup(win), LOCK, -1,
                   MPI_Win_unlock(target, real(win)));
}

int psync_Win_lock_all(int assert, MPI_Win win)
{
    struct psync_win *w;
    int rc = opening(&win, &w, "MPI_Win_lock_all");
    return counted(w, LOCK_ALL, 1, rc != MPI_SUCCESS
                                       ? rc : MPI_Win_lock_all(assert, win));
}

int psync_Win_unlock_all(MPI_Win win)
{
    return counted(win_lookup(win), LOCK_ALL, -1,
                   MPI_Win_unlock_all(real(win)));
}


/* ------------------------------------------------------------ the MPI's window */

/* The other calls on a window that MPI_Win_change_comm may have given a
   new MPI window: they go to it.  What belongs to the handle (name,
   attributes the program set, the error handler) stays on the program's
   window; the error handler is also set on the MPI's. */

int psync_Win_flush(int rank, MPI_Win win)
{
    return MPI_Win_flush(rank, real(win));
}

int psync_Win_flush_all(MPI_Win win) { return MPI_Win_flush_all(real(win)); }

int psync_Win_flush_local(int rank, MPI_Win win)
{
    return MPI_Win_flush_local(rank, real(win));
}

int psync_Win_flush_local_all(MPI_Win win)
{
    return MPI_Win_flush_local_all(real(win));
}

int psync_Win_sync(MPI_Win win) { return MPI_Win_sync(real(win)); }

int psync_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    return MPI_Win_post(group, assert, real(win));
}

int psync_Win_wait(MPI_Win win) { return MPI_Win_wait(real(win)); }

int psync_Win_test(MPI_Win win, int *flag)
{
    return MPI_Win_test(real(win), flag);
}

int psync_Win_get_group(MPI_Win win, MPI_Group *group)
{
    return MPI_Win_get_group(real(win), group);
}

int psync_Win_set_errhandler(MPI_Win win, MPI_Errhandler eh)
{
    MPI_Win r = real(win);
    int rc = MPI_Win_set_errhandler(win, eh);
    return rc != MPI_SUCCESS || r == win ? rc : MPI_Win_set_errhandler(r, eh);
}

/* The window's own attributes come from the MPI's window, but its
   flavor, which a change does not alter. */
static int locked_psync_Win_get_attr(MPI_Win win, int key, void *val,
                                     int *flag)
{
    struct psync_win *w = nwins ? win_of(win) : NULL;
    if (!w || w->real == win)
        return MPI_Win_get_attr(win, key, val, flag);
    if (key == MPI_WIN_CREATE_FLAVOR) {
        *(int **)val = &w->flavor;
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (key == MPI_WIN_BASE || key == MPI_WIN_SIZE ||
        key == MPI_WIN_DISP_UNIT || key == MPI_WIN_MODEL)
        return MPI_Win_get_attr(w->real, key, val, flag);
    return MPI_Win_get_attr(win, key, val, flag);
}

int psync_Win_get_attr(MPI_Win win, int key, void *val, int *flag)
{
    return LOCKED(locked_psync_Win_get_attr(win, key, val, flag));
}

static int locked_psync_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    struct psync_win *w = nwins ? win_of(win) : NULL;
    if (!w)
        return MPI_Win_attach(win, base, size);
    if (w->natt == w->att_cap) { /* remembered for a change */
        int cap = 2 * w->att_cap + 4;
        void **b = realloc(w->att_base, (size_t)cap * sizeof *b);
        if (b)
            w->att_base = b;
        MPI_Aint *z = b ? realloc(w->att_size, (size_t)cap * sizeof *z) : NULL;
        if (!z)
            return fail(w, MPI_WIN_NULL, MPI_ERR_NO_MEM, "MPI_Win_attach",
                        "no memory for the table of attached regions");
        w->att_size = z;
        w->att_cap = cap;
    }
    int rc = MPI_Win_attach(w->real, base, size);
    if (rc == MPI_SUCCESS) {
        w->att_base[w->natt] = base;
        w->att_size[w->natt++] = size;
    }
    return rc;
}

int psync_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    return LOCKED(locked_psync_Win_attach(win, base, size));
}

static int locked_psync_Win_detach(MPI_Win win, const void *base)
{
    struct psync_win *w = nwins ? win_of(win) : NULL;
    if (!w)
        return MPI_Win_detach(win, base);
    int rc = MPI_Win_detach(w->real, base);
    for (int i = 0; rc == MPI_SUCCESS && i < w->natt; i++)
        if (w->att_base[i] == base) {
            w->att_base[i] = w->att_base[--w->natt];
            w->att_size[i] = w->att_size[w->natt];
            break;
        }
    return rc;
}

int psync_Win_detach(MPI_Win win, const void *base)
{
    return LOCKED(locked_psync_Win_detach(win, base));
}

/* After a change the MPI's window is not a shared one: a member's part
   is found through the program's window (its old group), a newcomer's
   is empty, and a newcomer cannot reach the members' memory. */
static int locked_psync_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
                                         int *disp_unit, void *baseptr)
{
    struct psync_win *w = nwins ? win_of(win) : NULL;
    if (!w || w->real == win)
        return MPI_Win_shared_query(win, rank, size, disp_unit, baseptr);
    int n, old = MPI_UNDEFINED;
    MPI_Group_size(w->group, &n);
    if (rank < 0 || rank >= n)
        return fail(w, MPI_WIN_NULL, MPI_ERR_RANK, "MPI_Win_shared_query",
                    "rank %d is not a rank of the window (size %d)", rank, n);
    MPI_Group g;
    MPI_Win_get_group(win, &g);
    MPI_Group_translate_ranks(w->group, 1, &rank, g, &old);
    MPI_Group_free(&g);
    if (!w->exposes[rank]) {
        *size = 0;
        *disp_unit = 1;
        *(void **)baseptr = NULL;
        return MPI_SUCCESS;
    }
    if (old != MPI_UNDEFINED && w->flavor == MPI_WIN_FLAVOR_SHARED)
        return MPI_Win_shared_query(win, old, size, disp_unit, baseptr);
    return fail(w, MPI_WIN_NULL, MPI_ERR_RMA_FLAVOR, "MPI_Win_shared_query",
                "rank %d's memory is not mapped here: a process that joined "
                "a window by MPI_Win_change_comm reaches the others' memory "
                "by RMA only under portable/sync", rank);
}

int psync_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
                           int *disp_unit, void *baseptr)
{
    return LOCKED(locked_psync_Win_shared_query(win, rank, size, disp_unit,
                                                baseptr));
}

/* ------------------------------------------------------------ change_comm */

/*
 * MPI_Win_change_comm (shmpi_sync(7), MPI_Win_change_comm(3)) on
 * standard MPI, which cannot change a window's group: the joined window
 * is a new MPI window over new_comm - MPI_Win_create over each member's
 * memory as it is (so base pointers stay valid), with no memory at a
 * newcomer, or MPI_Win_create_dynamic with the member's regions attached
 * again - and a new hidden window of counters, into which each process
 * copies its own slots (so counters keep their handles and values).  The
 * program's MPI_Win stays the handle: the library sends every call on it
 * to the new MPI window (real(), the wrappers above), and frees both with
 * it.  A window of the shared flavor becomes a created one for RMA; its
 * members still load one another's memory through the old window
 * (psync_Win_shared_query), newcomers cannot.
 *
 * As shmpi does, every caller first says what it found alone, and all
 * draw the same verdict from one allgather: an error is returned by
 * every caller and nothing has changed.
 */
enum { J_STATUS, J_PEER, J_ID, J_RANK, J_SIZE, J_FLAVOR, J_EXPOSES, J_N };

static int check_alone(struct psync_win *w, MPI_Win win, int n, int peer,
                       const char *fn)
{
    if (!w)
        return fail(NULL, win, MPI_ERR_WIN, fn, "win is not a window made "
                    "through mpi_sync.h");
    if (peer < 0 || peer >= n)
        return fail(w, MPI_WIN_NULL, MPI_ERR_RANK, fn, "peer_rank %d is not "
                    "a rank of new_comm (0..%d)", peer, n - 1);
    if (w->epoch || w->active || (w->fence_open && w->fence_rma) ||
        w->held[PSCW] || w->held[LOCK] || w->held[LOCK_ALL])
        return fail(w, MPI_WIN_NULL, MPI_ERR_RMA_SYNC, fn, "an epoch is "
                    "open or a sync request active on the window");
    return MPI_SUCCESS;
}

static void describe(struct psync_win *w, long long *j)
{
    int flag = 0;
    MPI_Aint *size;
    if (j[J_STATUS] != MPI_SUCCESS)
        return;
    j[J_ID] = w->id;
    j[J_RANK] = w->rank;
    MPI_Group_size(w->group, &flag);
    j[J_SIZE] = flag;
    j[J_FLAVOR] = w->flavor;
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        j[J_EXPOSES] = w->natt > 0;
    else if (MPI_Win_get_attr(w->real, MPI_WIN_SIZE, &size, &flag) ==
                 MPI_SUCCESS && flag)
        j[J_EXPOSES] = *size > 0;
}

static int agree(struct psync_win *w, MPI_Win win, const long long *all,
                 int n, int me, const char *fn)
{
    for (int r = 0; r < n; r++)
        if (all[r * J_N + J_STATUS] != MPI_SUCCESS)
            return fail(w, win, (int)all[r * J_N + J_STATUS], fn, "rank %d "
                        "of new_comm cannot take part: the window is "
                        "unchanged", r);
    for (int r = 0; r < n; r++)
        if (all[r * J_N + J_PEER] != all[me * J_N + J_PEER])
            return fail(w, win, MPI_ERR_RANK, fn, "peer_rank differs "
                        "between the callers");
    const long long *p = &all[all[me * J_N + J_PEER] * J_N];
    for (int r = 0; r < n; r++) {
        const long long *j = &all[r * J_N];
        if (j[J_ID] != p[J_ID] && (j[J_SIZE] != 1 || j[J_EXPOSES]))
            return fail(w, win, MPI_ERR_WIN, fn, "rank %d of new_comm is new "
                        "to the window and passes a window with a group of "
                        "%lld or with memory: a newcomer passes a one-process "
                        "window without memory", r, j[J_SIZE]);
    }
    for (long long old = 0; old < p[J_SIZE]; old++) {
        int r = 0;
        while (r < n && (all[r * J_N + J_ID] != p[J_ID] ||
                         all[r * J_N + J_RANK] != old))
            r++;
        if (r == n)
            return fail(w, win, MPI_ERR_GROUP, fn, "rank %lld of the window's "
                        "group is not in new_comm", old);
    }
    return MPI_SUCCESS;
}

/* The new MPI window of w over comm, for a member or a newcomer. */
static int new_real(struct psync_win *w, int member, int flavor,
                    MPI_Comm comm, MPI_Win *nw)
{
    if (flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        int rc = MPI_Win_create_dynamic(MPI_INFO_NULL, comm, nw);
        for (int i = 0; member && rc == MPI_SUCCESS && i < w->natt; i++)
            rc = MPI_Win_attach(*nw, w->att_base[i], w->att_size[i]);
        return rc;
    }
    void *base = NULL;
    MPI_Aint *size, none = 0;
    int *unit, one = 1, flag;
    size = &none;
    unit = &one;
    if (member) {
        MPI_Win_get_attr(w->real, MPI_WIN_BASE, &base, &flag);
        MPI_Win_get_attr(w->real, MPI_WIN_SIZE, &size, &flag);
        MPI_Win_get_attr(w->real, MPI_WIN_DISP_UNIT, &unit, &flag);
    }
    return MPI_Win_create(base, *size, *unit, MPI_INFO_NULL, comm, nw);
}

static int join(struct psync_win *w, const long long *all, int n, int me,
                MPI_Comm comm)
{
    const long long *p = &all[all[me * J_N + J_PEER] * J_N];
    int member = all[me * J_N + J_ID] == p[J_ID];
    MPI_Win nw, hidden;
    int *mem;
    char *exposes = malloc((size_t)n);
    int *cover = calloc((size_t)n * 3, sizeof *cover);
    if (!exposes || !cover) {
        free(exposes);
        free(cover);
        return MPI_ERR_NO_MEM;
    }
    int rc = new_real(w, member, (int)p[J_FLAVOR], comm, &nw);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_allocate((MPI_Aint)w->cap * 2 * (MPI_Aint)sizeof(int),
                              sizeof(int), MPI_INFO_NULL, comm, &mem,
                              &hidden);
    if (rc != MPI_SUCCESS) {
        free(exposes);
        free(cover);
        return rc;
    }
    /* my slots, as they are: nobody signals during the call (no sync
       request is active anywhere); the old windows are freed, collectively,
       once the mutex is left */
    MPI_Win_set_errhandler(hidden, MPI_ERRORS_RETURN);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, hidden);
    enter();
    memcpy(mem, w->mem, (size_t)w->cap * 2 * sizeof(int));
    MPI_Win_sync(hidden);
    MPI_Win old_hidden = w->hidden;
    MPI_Win old_real = w->real != w->win ? w->real : MPI_WIN_NULL;
    MPI_Errhandler eh;
    MPI_Win_get_errhandler(w->win, &eh);
    MPI_Win_set_errhandler(nw, eh);
    MPI_Errhandler_free(&eh);
    /* requests to old ranks go to their new ones */
    MPI_Group g;
    MPI_Comm_group(comm, &g);
    for (int i = 0; i < nreqs; i++) {
        int t = reqs[i]->target; /* not in place: MPICH 4.0.2 writes
                                    the output before it reads the input
                                    (a crash, 2026-11-30) */
        if (reqs[i]->w == w && reqs[i]->kind == OPS && t != MPI_PROC_NULL)
            MPI_Group_translate_ranks(w->group, 1, &t, g, &reqs[i]->target);
    }
    MPI_Group_free(&w->group);
    w->group = g;
    for (int r = 0; r < n; r++)
        exposes[r] = (char)all[r * J_N + J_EXPOSES];
    free(w->exposes);
    w->exposes = exposes;
    free(w->cover);
    w->cover = cover;
    w->real = nw;
    w->hidden = hidden;
    w->mem = mem;
    w->rank = me;
    w->id = p[J_ID];
    w->flavor = (int)p[J_FLAVOR];
    w->fence_open = w->fence_rma = 0; /* an empty fence epoch is dropped */
    if (!member)
        w->natt = 0;
    leave();
    MPI_Win_unlock_all(old_hidden);
    MPI_Win_free(&old_hidden);
    if (old_real != MPI_WIN_NULL)
        MPI_Win_free(&old_real);
    return MPI_Barrier(comm); /* every part in place before anyone uses it */
}

int MPI_Win_change_comm(MPI_Comm comm, int peer, MPI_Win win)
{
    static const char fn[] = "MPI_Win_change_comm";
    struct psync_win *w = win_lookup(win);
    int inter = 0, n, me;
    if (comm == MPI_COMM_NULL)
        return fail(w, win, MPI_ERR_COMM, fn, "new_comm is MPI_COMM_NULL");
    if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return fail(w, win, MPI_ERR_COMM, fn, "new_comm is not an "
                    "intracommunicator");
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    long long mine[J_N] = {0}, *all = malloc((size_t)n * J_N * sizeof *all);
    if (!all)
        return fail(w, win, MPI_ERR_NO_MEM, fn, "no memory");
    enter(); /* the collective calls below go without it (see the top) */
    int own = check_alone(w, win, n, peer, fn), cls = MPI_SUCCESS;
    if (own != MPI_SUCCESS) /* the others raise its class */
        psync_Error_class(own, &cls);
    mine[J_STATUS] = cls;
    mine[J_PEER] = peer;
    describe(w, mine);
    leave();
    int rc = MPI_Allgather(mine, J_N, MPI_LONG_LONG, all, J_N, MPI_LONG_LONG,
                           comm);
    if (rc == MPI_SUCCESS)
        rc = own != MPI_SUCCESS ? own : agree(w, win, all, n, me, fn);
    if (rc == MPI_SUCCESS) {
        rc = join(w, all, n, me, comm);
        if (rc != MPI_SUCCESS)
            rc = fail(w, MPI_WIN_NULL, rc, fn, "the joined window could not "
                      "be made (error %d)", rc);
    }
    free(all);
    return rc;
}

/* The classes the library adds: Open MPI 4.1 answers MPI_ERR_UNKNOWN to
   MPI_Error_class of a class that MPI_Add_error_class added (2026-11-29);
   a class is its own class (MPI-3.1 8.5). */
static int locked_psync_Error_class(int code, int *cls)
{
    if (err_counter_class >= 0 && code == err_counter_class && cls) {
        *cls = code;
        return MPI_SUCCESS;
    }
    return MPI_Error_class(code, cls);
}

int psync_Error_class(int code, int *cls)
{
    return LOCKED(locked_psync_Error_class(code, cls));
}

#else
/* shmpi: the counters are its own (mpi.h); nothing to build. */
typedef int mpi_sync_unused;
#endif
