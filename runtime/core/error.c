/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * error.c - error classes, codes and strings (MPI-3.1 8.4, 8.5), and the
 * path from a failed check to the error handler (8.3).
 *
 * Predefined codes are their classes.  Classes and codes added at run
 * time share one numbering above MPI_ERR_LASTCODE; each remembers its
 * class and its string.  MPI-4.1's MPI_Remove_error_class, _code and
 * _string take them back, in the order the standard requires (a code's
 * string before the code, a class's codes before the class): a removed
 * number is no code any more, and is never given again, so that a stale
 * copy of it in the program can never name a newer code.
 *
 * State: the added classes and codes are shmpi_proc.added (core/proc.h).
 * Threads: they are added and removed under added.lock and read without
 * it - every error report looks its code up, the fatal path too - from
 * chunks that never move (proc.h says why that is safe); an added
 * string is replaced, removed and copied out under the lock.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "core/lock.h"
#include "core/objects.h"
#include "core/pmpi.h"
#include "core/proc.h"

SHMPI_WEAK_ALIAS(Error_string)
SHMPI_WEAK_ALIAS(Error_class)
SHMPI_WEAK_ALIAS(Add_error_class)
SHMPI_WEAK_ALIAS(Add_error_code)
SHMPI_WEAK_ALIAS(Add_error_string)
SHMPI_WEAK_ALIAS(Remove_error_class)
SHMPI_WEAK_ALIAS(Remove_error_code)
SHMPI_WEAK_ALIAS(Remove_error_string)

struct class_text { const char *name, *text; };

/* The predefined classes have the standard ABI's values (mpi.h): the
   MPI classes 0 .. LAST_CLASS, the tool interface's from T_FIRST on,
   and MPI_ERR_WIN_COUNTER, each below MPI_ERR_LASTCODE.  SLOT_OF packs
   them into one table. */
#define LAST_CLASS MPI_ERR_ERRHANDLER
#define T_FIRST MPI_T_ERR_CANNOT_INIT
#define T_LAST 1018                     /* MPI_T_ERR_PVAR_NO_ATOMIC */
#define SLOTS (LAST_CLASS + 1 + T_LAST - T_FIRST + 1 + 1)
_Static_assert(LAST_CLASS < T_FIRST && T_LAST < MPI_ERR_WIN_COUNTER &&
               MPI_ERR_WIN_COUNTER < MPI_ERR_LASTCODE,
               "the predefined classes' ranges");

/* A predefined class's index in `predefined` (a constant expression). */
#define SLOT_OF(cls)                                                       \
    ((cls) <= LAST_CLASS ? (cls)                                           \
     : (cls) == MPI_ERR_WIN_COUNTER ? SLOTS - 1                            \
     : LAST_CLASS + 1 + (cls) - T_FIRST)

/* Indexed by SLOT_OF(class); the order is mpi.h's. */
static const struct class_text predefined[SLOTS] = {
#define C(cls, text) [SLOT_OF(cls)] = {#cls, text}
    C(MPI_SUCCESS, "no error"),
    C(MPI_ERR_BUFFER, "invalid buffer pointer"),
    C(MPI_ERR_COUNT, "invalid count argument"),
    C(MPI_ERR_TYPE, "invalid datatype"),
    C(MPI_ERR_TAG, "invalid tag"),
    C(MPI_ERR_COMM, "invalid communicator"),
    C(MPI_ERR_RANK, "invalid rank"),
    C(MPI_ERR_REQUEST, "invalid request"),
    C(MPI_ERR_ROOT, "invalid root"),
    C(MPI_ERR_GROUP, "invalid group"),
    C(MPI_ERR_OP, "invalid operation"),
    C(MPI_ERR_TOPOLOGY, "invalid topology"),
    C(MPI_ERR_DIMS, "invalid dimension argument"),
    C(MPI_ERR_ARG, "invalid argument"),
    C(MPI_ERR_UNKNOWN, "unknown error"),
    C(MPI_ERR_TRUNCATE, "message truncated on receive"),
    C(MPI_ERR_OTHER, "known error not in this list"),
    C(MPI_ERR_INTERN, "internal error"),
    C(MPI_ERR_IN_STATUS, "error code is in status"),
    C(MPI_ERR_PENDING, "pending request"),
    C(MPI_ERR_KEYVAL, "invalid keyval"),
    C(MPI_ERR_NO_MEM, "out of memory"),
    C(MPI_ERR_BASE, "invalid base address"),
    C(MPI_ERR_INFO_KEY, "info key too long"),
    C(MPI_ERR_INFO_VALUE, "info value too long"),
    C(MPI_ERR_INFO_NOKEY, "info key not defined"),
    C(MPI_ERR_SPAWN, "error spawning processes"),
    C(MPI_ERR_PORT, "invalid port name"),
    C(MPI_ERR_SERVICE, "invalid service name"),
    C(MPI_ERR_NAME, "invalid service name in lookup"),
    C(MPI_ERR_WIN, "invalid window"),
    C(MPI_ERR_SIZE, "invalid size"),
    C(MPI_ERR_DISP, "invalid displacement"),
    C(MPI_ERR_INFO, "invalid info object"),
    C(MPI_ERR_LOCKTYPE, "invalid lock type"),
    C(MPI_ERR_ASSERT, "invalid assert argument"),
    C(MPI_ERR_RMA_CONFLICT, "conflicting accesses to a window"),
    C(MPI_ERR_RMA_SYNC, "wrong synchronization of RMA calls"),
    C(MPI_ERR_FILE, "invalid file handle"),
    C(MPI_ERR_NOT_SAME, "collective arguments not identical on all processes"),
    C(MPI_ERR_AMODE, "invalid file access mode"),
    C(MPI_ERR_UNSUPPORTED_DATAREP, "unsupported data representation"),
    C(MPI_ERR_UNSUPPORTED_OPERATION, "unsupported operation"),
    C(MPI_ERR_NO_SUCH_FILE, "file does not exist"),
    C(MPI_ERR_FILE_EXISTS, "file exists"),
    C(MPI_ERR_BAD_FILE, "invalid file name"),
    C(MPI_ERR_ACCESS, "permission denied"),
    C(MPI_ERR_NO_SPACE, "not enough space"),
    C(MPI_ERR_QUOTA, "quota exceeded"),
    C(MPI_ERR_READ_ONLY, "read-only file or file system"),
    C(MPI_ERR_FILE_IN_USE, "file in use by some process"),
    C(MPI_ERR_DUP_DATAREP, "data representation already defined"),
    C(MPI_ERR_CONVERSION, "error in a data conversion function"),
    C(MPI_ERR_IO, "I/O error"),
    C(MPI_ERR_RMA_RANGE, "target memory is not part of the window"),
    C(MPI_ERR_RMA_ATTACH, "memory cannot be attached"),
    C(MPI_ERR_RMA_SHARED, "memory cannot be shared"),
    C(MPI_ERR_RMA_FLAVOR, "wrong window flavor"),
    /* shmpi's sync counters (shmpi_sync(7)) */
    C(MPI_ERR_WIN_COUNTER, "synchronization counter driven below zero"),
    /* MPI-4.0, MPI-4.1 */
    C(MPI_ERR_PROC_ABORTED, "operation failed because a peer process "
                            "aborted"),
    C(MPI_ERR_VALUE_TOO_LARGE, "value too large to store"),
    C(MPI_ERR_SESSION, "invalid session handle"),
    C(MPI_ERR_ERRHANDLER, "invalid error handler"),
    /* the tool information interface's return codes (MPI-3.1 14.3.9) */
    C(MPI_T_ERR_MEMORY, "out of memory"),
    C(MPI_T_ERR_NOT_INITIALIZED, "the tool interface is not initialized"),
    C(MPI_T_ERR_CANNOT_INIT, "the tool interface cannot be initialized"),
    C(MPI_T_ERR_INVALID_INDEX, "index out of range, or not valid now"),
    C(MPI_T_ERR_INVALID_ITEM, "item index out of range"),
    C(MPI_T_ERR_INVALID_HANDLE, "invalid handle"),
    C(MPI_T_ERR_OUT_OF_HANDLES, "no more handles available"),
    C(MPI_T_ERR_OUT_OF_SESSIONS, "no more sessions available"),
    C(MPI_T_ERR_INVALID_SESSION, "invalid session"),
    C(MPI_T_ERR_CVAR_SET_NOT_NOW, "the control variable cannot be set now"),
    C(MPI_T_ERR_CVAR_SET_NEVER, "the control variable can never be set"),
    C(MPI_T_ERR_PVAR_NO_STARTSTOP,
      "the performance variable cannot be started or stopped"),
    C(MPI_T_ERR_PVAR_NO_WRITE,
      "the performance variable cannot be written or reset"),
    C(MPI_T_ERR_PVAR_NO_ATOMIC,
      "the performance variable cannot be read and reset atomically"),
    C(MPI_T_ERR_INVALID_NAME, "no variable or category has this name"),
    C(MPI_T_ERR_INVALID, "invalid use of the interface or bad parameter"),
#undef C
};

/* Classes and codes added by the program: entry i of shmpi_proc.added
   is code LASTCODE+1+i. */
struct shmpi_added_code {
    int class;                 /* itself, for an added class */
    char *string;              /* NULL until MPI_Add_error_string */
    _Atomic int removed;       /* MPI_Remove_error_class/code: set under
                                  added.lock, read without it */
};

/* code's entry in `predefined`, NULL if it is no predefined class. */
static const struct class_text *predefined_class(int code)
{
    int in_range = (code >= 0 && code <= LAST_CLASS) ||
                   (code >= T_FIRST && code <= T_LAST) ||
                   code == MPI_ERR_WIN_COUNTER;
    const struct class_text *t = in_range ? &predefined[SLOT_OF(code)] : NULL;
    return t && t->name ? t : NULL;     /* the ABI's 1002, 1004: none */
}

static int is_predefined(int code)
{
    return predefined_class(code) != NULL;
}

/* Entry i of shmpi_proc.added: chunk k holds 16 << k entries, from
   16 (2^k - 1) on. */
static struct shmpi_added_code *added_entry(int i)
{
    unsigned j = (unsigned)i / 16 + 1;
    int k = 31 - __builtin_clz(j);
    return &shmpi_proc.added.chunk[k][i - 16 * ((1 << k) - 1)];
}

static struct shmpi_added_code *find_added(int code)
{
    long i = (long)code - MPI_ERR_LASTCODE - 1;
    /* acquire: the entries below n, and their chunks, were written
       before the release store of n in add_code */
    int n = atomic_load_explicit(&shmpi_proc.added.n, memory_order_acquire);
    if (i < 0 || i >= n)
        return NULL;
    struct shmpi_added_code *a = added_entry((int)i);
    /* relaxed: a code that one thread removes while another uses it is
       the program's error; the flag only has to be read whole */
    return atomic_load_explicit(&a->removed, memory_order_relaxed) ? NULL
                                                                   : a;
}

static int code_exists(int code)
{
    return is_predefined(code) || find_added(code) != NULL;
}

int shmpi_core_last_used_code(void)
{
    return MPI_ERR_LASTCODE +
           atomic_load_explicit(&shmpi_proc.added.n, memory_order_relaxed);
}

const char *shmpi_core_error_class_name(int code)
{
    struct shmpi_added_code *a = find_added(code);
    int cls = a ? a->class : code;
    if (is_predefined(cls))
        return predefined_class(cls)->name;
    return a ? "user-defined class" : "MPI_ERR_UNKNOWN";
}

/* A rank that failed after another one: it says nothing (the launcher's
   line counts it), and waits a little for the first one to have said
   its line and stored its state - once any rank exits, the launcher
   kills the others, and the first one's line would be lost. */
static void wait_for_first(struct shmpi_proc *p, int first)
{
    struct shmpi_rank_slot *s = shmpi_arena_slot(p->arena, first);
    struct timespec ms = {0, 1000 * 1000};
    for (int i = 0; i < 2000; i++) {
        /* acquire: pairs with the first one's release store */
        if (atomic_load_explicit(&s->state, memory_order_acquire) ==
            SHMPI_RANK_ABORTED)
            return;
        nanosleep(&ms, NULL);
    }
}

static void say_fatal(int rank, int code, const char *fn, const char *what)
{
    fflush(stdout);
    fprintf(stderr, "shmpi: rank %d: %s: %s (%s)\n", rank, fn, what,
            shmpi_core_error_class_name(code));
    fflush(stderr);
}

/* Two threads of one process failing at once (under
   MPI_THREAD_MULTIPLE, or a library thread beside the program's) would
   each print their line and fill the rank's slot with a mix of both
   errors; the exchange lets one through.  It runs whatever the thread
   level: it costs nothing a dying process would notice.  Relaxed: the
   exchange only has to pick one thread (its atomicity does); nothing
   the others wrote is read by the winner.  The losers never return:
   the winner's _exit ends every thread of the process. */
void shmpi_core_die_once(void)
{
    if (atomic_exchange_explicit(&shmpi_proc.dying, 1, memory_order_relaxed))
        for (;;)
            pause();
}

/* When several ranks fail at once (every rank checks the same bad
   argument), only the first of them prints its line: first_abort decides,
   so a job prints one such line, and the launcher one line after it.
   Within a rank, shmpi_core_die_once lets one thread through. */
_Noreturn void shmpi_core_fatal(int code, const char *fn, const char *what)
{
    struct shmpi_proc *p = &shmpi_proc;
    shmpi_core_die_once();
    struct shmpi_added_code *a = find_added(code);
    int cls = a ? a->class : code; /* never raise from here */
    /* before MPI_Init the rank is only in the environment */
    int rank = p->slot ? p->rank : shmpi_tun_env_rank(p->rank);
    if (!p->slot) {
        say_fatal(rank, code, fn, what);
        _exit(cls > 0 && cls < 256 ? cls : 1);
    }
    struct shmpi_rank_slot *s = p->slot;
    s->abort_kind = SHMPI_ABORT_FATAL_ERROR;
    s->abort_code = cls > 0 && cls < 256 ? cls : 1; /* = exit status */
    snprintf(s->abort_what, sizeof s->abort_what, "%s: %s", fn,
             shmpi_core_error_class_name(code));
    int first = 0;
    /* seq_cst: the launcher reads the fields above after loading it */
    bool won = atomic_compare_exchange_strong(&p->arena->first_abort, &first,
                                              p->rank + 1);
    if (won)
        say_fatal(rank, code, fn, what);
    /* release: the launcher reads the fields above after this */
    atomic_store_explicit(&s->state, SHMPI_RANK_ABORTED, memory_order_release);
    if (!won)
        wait_for_first(p, first - 1);
    _exit(cls > 0 && cls < 256 ? cls : 1);
}

/* The handler eh, held by the caller, called for an error of a
   communicator (*comm, when eh is a communicator's) or a session
   (*session, when eh is a session's): the setters refuse a handler of
   another kind, so the one that does not apply is never called. */
static int call_handler(struct shmpi_errhandler *eh, MPI_Comm *comm,
                        MPI_Session *session, int code, const char *fn,
                        const char *what)
{
    switch (eh->kind) {
    case SHMPI_EH_FATAL:
    case SHMPI_EH_ABORT: /* MPI_Abort ends the job, so the same */
        shmpi_core_fatal(code, fn, what);
    case SHMPI_EH_RETURN:
        break;
    case SHMPI_EH_COMM_FN:
        eh->comm_fn(comm, &code);
        break;
    case SHMPI_EH_SESSION_FN:
        eh->session_fn(session, &code);
        break;
    case SHMPI_EH_WIN_FN: /* refused by the setters of both */
        break;
    }
    shmpi_core_errhandler_release(eh);
    return code;
}

int shmpi_raise(MPI_Comm comm, int code, const char *fn, const char *fmt, ...)
{
    char what[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!shmpi_comm_ok(comm))
        comm = MPI_COMM_WORLD;
    /* held through the program's function: another thread may set
       comm's handler and free this one meanwhile (errhandler.c) */
    struct shmpi_errhandler *eh = shmpi_core_errhandler_hold(&comm->errhandler);
    MPI_Session none = MPI_SESSION_NULL;
    return call_handler(eh, &comm, &none, code, fn, what);
}

int shmpi_raise_session(MPI_Session session, int code, const char *fn,
                        const char *fmt, ...)
{
    char what[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!shmpi_session_ok(session))
        return shmpi_raise(MPI_COMM_WORLD, code, fn, "%s", what);
    struct shmpi_errhandler *eh =
        shmpi_core_errhandler_hold(&session->errhandler);
    MPI_Comm none = MPI_COMM_NULL;
    return call_handler(eh, &none, &session, code, fn, what);
}

int shmpi_raise_handler(MPI_Errhandler eh, int code, const char *fn,
                        const char *fmt, ...)
{
    char what[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!shmpi_errhandler_ok(eh) || eh->kind == SHMPI_EH_WIN_FN)
        return shmpi_raise(MPI_COMM_WORLD, code, fn, "%s", what);
    shmpi_core_errhandler_retain(eh);
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Session session = MPI_SESSION_NULL;
    return call_handler(eh, &comm, &session, code, fn, what);
}

int PMPI_Error_class(int errorcode, int *errorclass)
{
    struct shmpi_added_code *a = find_added(errorcode);
    if (!code_exists(errorcode))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class",
                           "%d is not an error code", errorcode);
    if (!errorclass)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class",
                           "errorclass is NULL");
    *errorclass = a ? a->class : errorcode;
    return MPI_SUCCESS;
}

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    static const char *fn = "MPI_Error_string";
    if (!string || !resultlen)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "string or resultlen is NULL");
    if (!code_exists(errorcode))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "%d is not an error code", errorcode);
    struct shmpi_added_code *a = find_added(errorcode);
    if (a) {
        shmpi_core_lock(&shmpi_proc.added.lock);
        snprintf(string, MPI_MAX_ERROR_STRING, "%s",
                 a->string ? a->string : "");
        shmpi_core_unlock(&shmpi_proc.added.lock);
    } else
        snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s",
                 predefined_class(errorcode)->name,
                 predefined_class(errorcode)->text);
    *resultlen = (int)strlen(string);
    return MPI_SUCCESS;
}

/* With added.lock held: room for entry n (a new chunk when n starts
   one); 0, or -1 without memory or numbers. */
static int added_room(struct shmpi_added_codes *added, int n)
{
    unsigned j = (unsigned)n / 16 + 1;
    int k = 31 - __builtin_clz(j);
    if (k >= SHMPI_ADDED_CHUNKS || n >= INT32_MAX - MPI_ERR_LASTCODE - 1)
        return -1;
    if (!added->chunk[k])
        added->chunk[k] = malloc(((size_t)16 << k) * sizeof *added->chunk[k]);
    return added->chunk[k] ? 0 : -1;
}

static int add_code(int class, int *out, const char *fn)
{
    if (!out)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "output is NULL");
    struct shmpi_added_codes *added = &shmpi_proc.added;
    shmpi_core_lock(&added->lock);
    int n = atomic_load_explicit(&added->n, memory_order_relaxed);
    int ok = added_room(added, n) == 0;
    int code = MPI_ERR_LASTCODE + 1 + n;
    if (ok) {
        struct shmpi_added_code *a = added_entry(n);
        a->class = class < 0 ? code : class;
        a->string = NULL;
        atomic_init(&a->removed, 0);
        /* release: publishes the entry and its chunk to find_added */
        atomic_store_explicit(&added->n, n + 1, memory_order_release);
    }
    shmpi_core_unlock(&added->lock);
    if (!ok)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "no memory for another error code");
    *out = code;
    return MPI_SUCCESS;
}

int PMPI_Add_error_class(int *errorclass)
{
    SHMPI_REQUIRE_INIT("MPI_Add_error_class");
    return add_code(-1, errorclass, "MPI_Add_error_class");
}

int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    SHMPI_REQUIRE_INIT("MPI_Add_error_code");
    struct shmpi_added_code *a = find_added(errorclass);
    int is_class = is_predefined(errorclass) || (a && a->class == errorclass);
    if (!is_class)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Add_error_code",
                           "%d is not an error class", errorclass);
    return add_code(errorclass, errorcode, "MPI_Add_error_code");
}

int PMPI_Add_error_string(int errorcode, const char *string)
{
    static const char *fn = "MPI_Add_error_string";
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_added_code *a = find_added(errorcode);
    if (!a)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "%d is not a code or class added by the program "
                           "(predefined strings cannot be changed)",
                           errorcode);
    if (!string)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "string is NULL");
    if (strlen(string) >= MPI_MAX_ERROR_STRING)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "string is longer than MPI_MAX_ERROR_STRING-1");
    char *copy = strdup(string);
    if (!copy)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn, "strdup");
    shmpi_core_lock(&shmpi_proc.added.lock);
    char *old = a->string;
    a->string = copy;
    shmpi_core_unlock(&shmpi_proc.added.lock);
    free(old);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Taking them back (MPI-4.1)                                          */
/* ------------------------------------------------------------------ */

/* With added.lock held: the first code (not a class) still in the
   added class cls, or 0; its codes have higher numbers than itself. */
static int first_code_of(int cls)
{
    int n = atomic_load_explicit(&shmpi_proc.added.n, memory_order_relaxed);
    for (int i = cls - MPI_ERR_LASTCODE; i < n; i++) {
        int code = MPI_ERR_LASTCODE + 1 + i;
        struct shmpi_added_code *a = find_added(code);
        if (a && a->class == cls && code != cls)
            return code;
    }
    return 0;
}

/* With added.lock held: why code may not be removed as a class
   (want_class) or a code, or NULL. */
static const char *why_not_removable(int code, int want_class)
{
    struct shmpi_added_code *a = find_added(code);
    if (!a)
        return is_predefined(code) ? "predefined, and cannot be removed"
                                   : "not an error code or class (never "
                                     "added, or removed already)";
    if (want_class && a->class != code)
        return "a code, not a class: MPI_Remove_error_code removes it";
    if (!want_class && a->class == code)
        return "a class, not a code: MPI_Remove_error_class removes it";
    if (want_class && first_code_of(code))
        return "still the class of codes the program added; remove "
               "them first (MPI_Remove_error_code)";
    if (!want_class && a->string)
        return "still has its string; remove it first "
               "(MPI_Remove_error_string)";
    return NULL;
}

static int remove_code(int code, int want_class, const char *fn)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_added_codes *added = &shmpi_proc.added;
    shmpi_core_lock(&added->lock);
    const char *why = why_not_removable(code, want_class);
    char *string = NULL;
    if (!why) {
        struct shmpi_added_code *a = find_added(code);
        string = a->string; /* a class's own string goes with it */
        a->string = NULL;
        atomic_store_explicit(&a->removed, 1, memory_order_relaxed);
    }
    shmpi_core_unlock(&added->lock);
    free(string);
    if (why)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "%d is %s", code,
                           why);
    return MPI_SUCCESS;
}

int PMPI_Remove_error_class(int errorclass)
{
    return remove_code(errorclass, 1, "MPI_Remove_error_class");
}

int PMPI_Remove_error_code(int errorcode)
{
    return remove_code(errorcode, 0, "MPI_Remove_error_code");
}

int PMPI_Remove_error_string(int errorcode)
{
    static const char *fn = "MPI_Remove_error_string";
    SHMPI_REQUIRE_INIT(fn);
    shmpi_core_lock(&shmpi_proc.added.lock);
    struct shmpi_added_code *a = find_added(errorcode);
    char *string = a ? a->string : NULL;
    if (string)
        a->string = NULL;
    shmpi_core_unlock(&shmpi_proc.added.lock);
    if (!string)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "%d %s",
                           errorcode,
                           a ? "has no string added by MPI_Add_error_string"
                           : is_predefined(errorcode)
                               ? "is predefined: its string cannot be removed"
                               : "is not an error code or class (never "
                                 "added, or removed already)");
    free(string);
    return MPI_SUCCESS;
}
