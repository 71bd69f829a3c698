/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pvar.c - the performance variables of MPI_T (MPI-3.1 14.3.7), their
 * sessions and handles.
 *
 * Two kinds of values.  Numbers the rooms keep anyway, read without a
 * lock of theirs: atomics and fields written once before any rank runs
 * (the arena's sizes, MPI_Alloc_mem's bytes, the unexpected queues'
 * length and peak and the bytes held for them, the flow-control word).
 * And counts the rooms keep only while MPI_T watches (core/proc.h's
 * struct shmpi_core_watch): messages and bytes per peer (pt2pt/
 * count.h), time blocked in waits (core/wait.c), RMA calls per window
 * (rma/win.h) - a handle on one of those turns its bit on as it starts
 * and off as the last such handle stops, so that no tool, no cost but a
 * branch.  Every value is an MPI_UNSIGNED_LONG_LONG but a state's (class
 * MPI_T_PVAR_CLASS_STATE), which 14.3.7 wants an MPI_INT of an
 * enumeration.  A variable is bound to no object, to a communicator
 * (MPI_T_BIND_MPI_COMM: its handle holds a reference to it) or to a
 * window (MPI_T_BIND_MPI_WIN: MPI_Win_free tells us, shmpi_tool_forget,
 * and the handle keeps the counts it had).  The per-peer variables have
 * one element per peer of the communicator (its remote group for an
 * intercommunicator), as Open MPI's monitoring variables do, each
 * counting the messages with that process on every communicator.
 * Before MPI_Init there is no arena and no pt2pt: their variables read
 * 0 then (after MPI_Finalize both are still mapped, and they read what
 * they hold).
 *
 * A continuous variable is always active and reads the value of the
 * moment; it cannot be started or stopped (MPI_T_ERR_PVAR_NO_STARTSTOP).
 * A counter or timer that is not continuous counts, per handle, what
 * happens while it is started (`acc` plus, while started, the growth of
 * the underlying count since `base`, element by element), starts
 * stopped, and may be written and reset.  Its read and reset take one
 * snapshot of the count, under the tool lock: nothing counted between
 * them is lost, so it reads and resets atomically.
 *
 * A handle belongs to its session; the session's free frees its
 * handles.  Sessions and handles are checked against the live lists,
 * so a stale or foreign one is an error, not a crash.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/lock.h"
#include "core/pmpi.h"
#include "pt2pt/pt2pt.h"
#include "rma/win.h"
#include "shm_arena/arena.h"
#include "tool/tool.h"

SHMPI_WEAK_ALIAS(T_pvar_get_num)
SHMPI_WEAK_ALIAS(T_pvar_get_info)
SHMPI_WEAK_ALIAS(T_pvar_get_index)
SHMPI_WEAK_ALIAS(T_pvar_session_create)
SHMPI_WEAK_ALIAS(T_pvar_session_free)
SHMPI_WEAK_ALIAS(T_pvar_handle_alloc)
SHMPI_WEAK_ALIAS(T_pvar_handle_free)
SHMPI_WEAK_ALIAS(T_pvar_start)
SHMPI_WEAK_ALIAS(T_pvar_stop)
SHMPI_WEAK_ALIAS(T_pvar_read)
SHMPI_WEAK_ALIAS(T_pvar_write)
SHMPI_WEAK_ALIAS(T_pvar_reset)
SHMPI_WEAK_ALIAS(T_pvar_readreset)

struct shmpi_tool_session {
    struct shmpi_tool_pvar *handles;
    struct shmpi_tool_session *next;
};

struct shmpi_tool_pvar {
    int index;
    MPI_Comm comm;               /* bound to it (holds a reference), or
                                    NULL */
    MPI_Win win;                 /* bound to it, or NULL (and NULL once
                                    the window is freed: `gone`) */
    int gone;                    /* its window was freed: the counts stay
                                    as they were */
    int started;                 /* non-continuous: counting now */
    int count;                   /* elements */
    uint64_t *acc;               /* [count] counted while started, before
                                    `base` */
    uint64_t *base;              /* [count] the variable's value at the
                                    last start, reset or write */
    struct shmpi_tool_pvar *next;
    uint64_t mem[];              /* acc and base */
};

/* The arena, once MPI_Init has mapped it; NULL before.  Acquire: the
   pointer and the header's fields were written before MPI_Init's
   release store of `initialized`. */
static struct shmpi_arena_header *arena(void)
{
    return atomic_load_explicit(&shmpi_proc.initialized,
                                memory_order_acquire)
               ? shmpi_proc.arena
               : NULL;
}

static uint64_t arena_bytes(void)
{
    const struct shmpi_arena_header *h = arena();
    return h ? h->bytes : 0;
}

static uint64_t arena_fixed(void)
{
    const struct shmpi_arena_header *h = arena();
    return h ? h->fixed_bytes : 0;
}

/* Relaxed: one count, nothing read through it. */
static uint64_t coll_areas_used(void)
{
    struct shmpi_arena_header *h = arena();
    if (!h)
        return 0;
    uint64_t n = 0;
    for (uint32_t w = 0; w * 64 < h->coll_areas; w++) {
        uint64_t bits = atomic_load_explicit(&h->coll_used[w],
                                             memory_order_relaxed);
        if (h->coll_areas - w * 64 < 64)
            bits &= (1ull << (h->coll_areas - w * 64)) - 1;
        n += (uint64_t)__builtin_popcountll(bits);
    }
    return n;
}

static uint64_t alloc_mem_bytes(void)
{
    return atomic_load_explicit(&shmpi_proc.memseg.mapped,
                                memory_order_relaxed);
}

/* This rank's flow-control word (pt2pt/flow.c says when pt2pt sets and
   clears it), read as the senders read it: relaxed, from its slot. */
static uint64_t unexpected_over(void)
{
    struct shmpi_arena_header *h = arena();
    return h ? atomic_load_explicit(
                   &shmpi_arena_slot(h, shmpi_proc.rank)->unexpected_over,
                   memory_order_relaxed) != 0
             : 0;
}

static uint64_t contexts(void)
{
    struct shmpi_arena_header *h = arena();
    return h ? atomic_load_explicit(&h->contexts_used, memory_order_relaxed)
             : 0;
}

/* The point-to-point lane comm's messages travel in (pt2pt/pt2pt.h):
   fixed when the communicator is made; 0 before MPI_Init, when there
   are no lanes yet (the arena tells: see arena()). */
static void comm_lane(const struct shmpi_tool_pvar *h, uint64_t *out)
{
    out[0] = arena() ? shmpi_p2p_lane_of(h->comm->context)->index : 0;
}

/* Element k of the per-peer variables: count `what` (the order of
   struct shmpi_p2p_counts) with peer k of the handle's communicator. */
static void per_peer(const struct shmpi_tool_pvar *h, uint64_t *out, int what)
{
    for (int k = 0; k < h->count; k++) {
        uint64_t c[4];
        shmpi_p2p_counts_read(shmpi_comm_peer_to_world(h->comm, k), c);
        out[k] = c[what];
    }
}

static void sent(const struct shmpi_tool_pvar *h, uint64_t *out)
{
    per_peer(h, out, 0);
}

static void sent_bytes(const struct shmpi_tool_pvar *h, uint64_t *out)
{
    per_peer(h, out, 1);
}

static void recvd(const struct shmpi_tool_pvar *h, uint64_t *out)
{
    per_peer(h, out, 2);
}

static void recvd_bytes(const struct shmpi_tool_pvar *h, uint64_t *out)
{
    per_peer(h, out, 3);
}

static void wait_ns(const struct shmpi_tool_pvar *h, uint64_t *out)
{
    out[0] = atomic_load_explicit(&shmpi_proc.watch.wait_ns,
                                  memory_order_relaxed);
}

/* The window's count of one kind of call; a handle whose window was
   freed keeps its base (the count when it was freed). */
static void issued(const struct shmpi_tool_pvar *h, uint64_t *out, int kind)
{
    out[0] = h->gone ? h->base[0]
                     : atomic_load_explicit(&h->win->issued[kind],
                                            memory_order_relaxed);
}

static void puts_(const struct shmpi_tool_pvar *h, uint64_t *out)
{
    issued(h, out, SHMPI_RMA_PUTS);
}

static void gets(const struct shmpi_tool_pvar *h, uint64_t *out)
{
    issued(h, out, SHMPI_RMA_GETS);
}

static void accs(const struct shmpi_tool_pvar *h, uint64_t *out)
{
    issued(h, out, SHMPI_RMA_ACCS);
}

/* A variable of one value bound to nothing: its reader. */
#define SCALAR(fn, of)                                                      \
    static void fn(const struct shmpi_tool_pvar *h, uint64_t *out)         \
    {                                                                      \
        (void)h;                                                           \
        out[0] = of();                                                     \
    }
SCALAR(arena_bytes_v, arena_bytes)
SCALAR(arena_fixed_v, arena_fixed)
SCALAR(coll_areas_used_v, coll_areas_used)
SCALAR(alloc_mem_bytes_v, alloc_mem_bytes)
SCALAR(unexpected_over_v, unexpected_over)
SCALAR(contexts_v, contexts)
SCALAR(unexpected_length_v, shmpi_p2p_unexpected_length)
SCALAR(unexpected_peak_v, shmpi_p2p_unexpected_peak)
SCALAR(unexpected_bytes_v, shmpi_p2p_unexpected_bytes)
#undef SCALAR

static const struct pvar {
    const char *name;
    int var_class;
    enum shmpi_tool_cat cat;
    int continuous, readonly, atomic;
    int bind;                    /* MPI_T_BIND_NO_OBJECT, _MPI_COMM or
                                    _MPI_WIN */
    unsigned watch;              /* what a started handle has counted
                                    (SHMPI_WATCH_*), or 0 */
    void (*now)(const struct shmpi_tool_pvar *h, uint64_t *out);
    int per_peer;                /* one element per peer of the comm */
    const char *desc;
} pvars[] = {
    {"shmpi_arena_bytes", MPI_T_PVAR_CLASS_SIZE, SHMPI_TOOL_CAT_ARENA, 1,
     1, 0, MPI_T_BIND_NO_OBJECT, 0, arena_bytes_v, 0,
     "size of the job's shared-memory arena, in bytes (sparse: pages are "
     "taken as they are first touched); 0 before MPI_Init"},
    {"shmpi_arena_fixed_bytes", MPI_T_PVAR_CLASS_SIZE,
     SHMPI_TOOL_CAT_ARENA, 1, 1, 0, MPI_T_BIND_NO_OBJECT, 0, arena_fixed_v,
     0,
     "bytes of the arena's fixed part (header, rank slots, post blocks), "
     "reserved when it was made; 0 before MPI_Init"},
    {"shmpi_coll_areas_used", MPI_T_PVAR_CLASS_LEVEL, SHMPI_TOOL_CAT_COLL,
     1, 1, 0, MPI_T_BIND_NO_OBJECT, 0, coll_areas_used_v, 0,
     "collective areas the job's communicators hold now (of "
     "SHMPI_COLL_AREAS); 0 before MPI_Init"},
    {"shmpi_alloc_mem_bytes", MPI_T_PVAR_CLASS_LEVEL,
     SHMPI_TOOL_CAT_MEMORY, 1, 1, 0, MPI_T_BIND_NO_OBJECT, 0,
     alloc_mem_bytes_v, 0,
     "bytes of shared memory MPI_Alloc_mem has mapped in this process "
     "(large blocks a segment each, small ones in 1 MiB pools)"},
    {"shmpi_unexpected_over", MPI_T_PVAR_CLASS_STATE, SHMPI_TOOL_CAT_PT2PT,
     1, 1, 0, MPI_T_BIND_NO_OBJECT, 0, unexpected_over_v, 0,
     "yes while the memory this rank holds for messages that arrived before "
     "their receive is over SHMPI_UNEXPECTED_MB (senders then send it every "
     "message by rendezvous), until it falls to three quarters of it"},
    {"shmpi_comm_contexts", MPI_T_PVAR_CLASS_COUNTER, SHMPI_TOOL_CAT_COMM,
     0, 0, 1, MPI_T_BIND_NO_OBJECT, 0, contexts_v, 0,
     "communicator contexts the job handed out while the handle was "
     "started (one per communicator made, by any process of the job)"},
    {"shmpi_comm_lane", MPI_T_PVAR_CLASS_GENERIC, SHMPI_TOOL_CAT_PT2PT, 1,
     1, 0, MPI_T_BIND_MPI_COMM, 0, comm_lane, 0,
     "the point-to-point lane (0 to SHMPI_LANES - 1) the communicator's "
     "messages travel in; threads on communicators of different lanes "
     "do not contend"},
    {"shmpi_p2p_messages_sent", MPI_T_PVAR_CLASS_COUNTER,
     SHMPI_TOOL_CAT_PT2PT, 0, 0, 1, MPI_T_BIND_MPI_COMM, SHMPI_WATCH_P2P,
     sent, 1,
     "point-to-point messages this process sent to each peer of the "
     "communicator (element i: its rank i), on any communicator, while the "
     "handle was started; the library's own messages are not counted"},
    {"shmpi_p2p_bytes_sent", MPI_T_PVAR_CLASS_COUNTER, SHMPI_TOOL_CAT_PT2PT,
     0, 0, 1, MPI_T_BIND_MPI_COMM, SHMPI_WATCH_P2P, sent_bytes, 1,
     "bytes of the point-to-point messages this process sent to each peer "
     "of the communicator (element i: its rank i), on any communicator, "
     "while the handle was started"},
    {"shmpi_p2p_messages_received", MPI_T_PVAR_CLASS_COUNTER,
     SHMPI_TOOL_CAT_PT2PT, 0, 0, 1, MPI_T_BIND_MPI_COMM, SHMPI_WATCH_P2P,
     recvd, 1,
     "point-to-point messages from each peer of the communicator (element "
     "i: its rank i) that met their receive in this process, on any "
     "communicator, while the handle was started"},
    {"shmpi_p2p_bytes_received", MPI_T_PVAR_CLASS_COUNTER,
     SHMPI_TOOL_CAT_PT2PT, 0, 0, 1, MPI_T_BIND_MPI_COMM, SHMPI_WATCH_P2P,
     recvd_bytes, 1,
     "bytes (as sent) of the point-to-point messages from each peer of the "
     "communicator (element i: its rank i) that met their receive in this "
     "process, on any communicator, while the handle was started"},
    {"shmpi_unexpected_length", MPI_T_PVAR_CLASS_LEVEL, SHMPI_TOOL_CAT_PT2PT,
     1, 1, 0, MPI_T_BIND_NO_OBJECT, 0, unexpected_length_v, 0,
     "messages that arrived at this process before their receive was "
     "posted and wait for it now (its unexpected queues, every "
     "communicator); 0 before MPI_Init"},
    {"shmpi_unexpected_peak", MPI_T_PVAR_CLASS_HIGHWATERMARK,
     SHMPI_TOOL_CAT_PT2PT, 1, 1, 0, MPI_T_BIND_NO_OBJECT, 0,
     unexpected_peak_v, 0,
     "the most messages shmpi_unexpected_length counted at once since "
     "MPI_Init"},
    {"shmpi_unexpected_bytes", MPI_T_PVAR_CLASS_SIZE, SHMPI_TOOL_CAT_PT2PT, 1,
     1, 0, MPI_T_BIND_NO_OBJECT, 0, unexpected_bytes_v, 0,
     "bytes of memory this process holds now for messages that arrived "
     "before their receive (their entries with the data of small ones, "
     "large ones pulled in), what SHMPI_UNEXPECTED_MB bounds"},
    {"shmpi_wait_time", MPI_T_PVAR_CLASS_TIMER, SHMPI_TOOL_CAT_WAIT, 0, 0,
     1, MPI_T_BIND_NO_OBJECT, SHMPI_WATCH_WAIT, wait_ns, 0,
     "nanoseconds this process spent blocked while the handle was started: "
     "in MPI_Wait and its kin, blocking sends and receives, probes, "
     "collectives and RMA synchronization, from the first poll that found "
     "the call unfinished until it finished (every thread's time added; a "
     "call finished at its first poll reads no clock and counts 0)"},
    {"shmpi_rma_puts", MPI_T_PVAR_CLASS_COUNTER, SHMPI_TOOL_CAT_RMA, 0,
     0, 1, MPI_T_BIND_MPI_WIN, SHMPI_WATCH_RMA, puts_, 0,
     "MPI_Put and MPI_Rput calls this process issued on the window (to a "
     "target other than MPI_PROC_NULL) while the handle was started"},
    {"shmpi_rma_gets", MPI_T_PVAR_CLASS_COUNTER, SHMPI_TOOL_CAT_RMA, 0,
     0, 1, MPI_T_BIND_MPI_WIN, SHMPI_WATCH_RMA, gets, 0,
     "MPI_Get and MPI_Rget calls this process issued on the window (to a "
     "target other than MPI_PROC_NULL) while the handle was started"},
    {"shmpi_rma_accumulates", MPI_T_PVAR_CLASS_COUNTER,
     SHMPI_TOOL_CAT_RMA, 0, 0, 1, MPI_T_BIND_MPI_WIN, SHMPI_WATCH_RMA,
     accs, 0,
     "MPI_Accumulate, MPI_Get_accumulate, MPI_Raccumulate and "
     "MPI_Rget_accumulate calls this process issued on the window (to a "
     "target other than MPI_PROC_NULL) while the handle was started "
     "(MPI_Fetch_and_op and MPI_Compare_and_swap are not counted)"},
};

/* Variable i's value now, for handle h's object, into out[h->count]. */
static void now_of(const struct shmpi_tool_pvar *h, uint64_t *out)
{
    pvars[h->index].now(h, out);
}

/* Handle h counts (or stops counting): the rooms count while at least
   one handle on a variable of theirs is started. */
static void watch(struct shmpi_tool *t, const struct shmpi_tool_pvar *h,
                  int on)
{
    unsigned bit = pvars[h->index].watch;
    if (!bit)
        return;
    int *n = &t->watchers[__builtin_ctz(bit)];
    if (on && (*n)++ == 0)
        atomic_fetch_or_explicit(&shmpi_proc.watch.on, bit,
                                 memory_order_relaxed);
    else if (!on && --*n == 0)
        atomic_fetch_and_explicit(&shmpi_proc.watch.on, ~bit,
                                  memory_order_relaxed);
}

static void handle_free(struct shmpi_tool *t, struct shmpi_tool_pvar *h)
{
    if (h->started)
        watch(t, h, 0);
    if (h->comm)
        shmpi_core_comm_release(h->comm);
    free(h);
}

#define NPVARS ((int)(sizeof pvars / sizeof pvars[0]))

int shmpi_tool_pvar_count(void)
{
    return NPVARS;
}

enum shmpi_tool_cat shmpi_tool_pvar_category(int i)
{
    return pvars[i].cat;
}

static void free_handles(struct shmpi_tool *t, struct shmpi_tool_session *s)
{
    while (s->handles) {
        struct shmpi_tool_pvar *h = s->handles;
        s->handles = h->next;
        handle_free(t, h);
    }
}

void shmpi_tool_sessions_free(struct shmpi_tool *t)
{
    while (t->sessions) {
        struct shmpi_tool_session *s = t->sessions;
        t->sessions = s->next;
        free_handles(t, s);
        free(s);
    }
}

/* ------------------------------------------------------------ info */

int PMPI_T_pvar_get_num(int *num_pvar)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (num_pvar)
        *num_pvar = NPVARS;
    shmpi_tool_leave();
    return num_pvar ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

static void set(int *out, int v)
{
    if (out)
        *out = v;
}

int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len,
                         int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype,
                         char *desc, int *desc_len, int *bind, int *readonly,
                         int *continuous, int *atomic)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (pvar_index < 0 || pvar_index >= NPVARS) {
        shmpi_tool_leave();
        return MPI_T_ERR_INVALID_INDEX;
    }
    const struct pvar *p = &pvars[pvar_index];
    shmpi_tool_string(p->name, name, name_len);
    set(verbosity, MPI_T_VERBOSITY_USER_BASIC);
    set(var_class, p->var_class);
    int state = p->var_class == MPI_T_PVAR_CLASS_STATE;
    if (datatype)
        *datatype = state ? MPI_INT : MPI_UNSIGNED_LONG_LONG;
    if (enumtype)
        *enumtype = state ? shmpi_tool_enum_yes_no() : MPI_T_ENUM_NULL;
    shmpi_tool_string(p->desc, desc, desc_len);
    set(bind, p->bind);
    set(readonly, p->readonly);
    set(continuous, p->continuous);
    set(atomic, p->atomic);
    shmpi_tool_leave();
    return MPI_SUCCESS;
}

int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    rc = name && pvar_index ? MPI_T_ERR_INVALID_NAME : MPI_T_ERR_INVALID;
    for (int i = 0; rc == MPI_T_ERR_INVALID_NAME && i < NPVARS; i++)
        if (pvars[i].var_class == var_class &&
            strcmp(name, pvars[i].name) == 0) {
            *pvar_index = i;
            rc = MPI_SUCCESS;
        }
    shmpi_tool_leave();
    return rc;
}

/* -------------------------------------------------------- sessions */

int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_tool_session *s = NULL;
    if (!session)
        rc = MPI_T_ERR_INVALID;
    else if (!(s = calloc(1, sizeof *s)))
        rc = MPI_T_ERR_MEMORY;
    if (s) {
        s->next = shmpi_proc.tool->sessions;
        shmpi_proc.tool->sessions = s;
        *session = s;
    }
    shmpi_tool_leave();
    return rc;
}

/* With the lock held: where s is linked, or NULL if not a live session. */
static struct shmpi_tool_session **find_session(MPI_T_pvar_session s)
{
    struct shmpi_tool_session **at = &shmpi_proc.tool->sessions;
    while (*at && *at != s)
        at = &(*at)->next;
    return *at ? at : NULL;
}

int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_tool_session **at = session ? find_session(*session) : NULL;
    if (!at) {
        rc = MPI_T_ERR_INVALID_SESSION;
    } else {
        *at = (*session)->next;
        free_handles(shmpi_proc.tool, *session);
        free(*session);
        *session = MPI_T_PVAR_SESSION_NULL;
    }
    shmpi_tool_leave();
    return rc;
}

/* --------------------------------------------------------- handles */

/* Is obj_handle an object variable i may be bound to?  14.3.7: not one
   is MPI_T_ERR_INVALID_HANDLE. */
static int object_ok(int i, void *obj_handle)
{
    switch (pvars[i].bind) {
    case MPI_T_BIND_MPI_COMM:
        return obj_handle && shmpi_comm_ok(*(MPI_Comm *)obj_handle);
    case MPI_T_BIND_MPI_WIN:
        return obj_handle && shmpi_win_ok(*(MPI_Win *)obj_handle);
    default:
        return 1;
    }
}

/* A handle on variable i for obj_handle, or NULL when out of memory. */
static struct shmpi_tool_pvar *handle_new(int i, void *obj_handle)
{
    MPI_Comm comm = pvars[i].bind == MPI_T_BIND_MPI_COMM
                        ? *(MPI_Comm *)obj_handle
                        : NULL;
    int count = pvars[i].per_peer ? shmpi_comm_peer_count(comm) : 1;
    struct shmpi_tool_pvar *h =
        calloc(1, sizeof *h + 2 * (size_t)count * sizeof(uint64_t));
    if (!h)
        return NULL;
    h->index = i;
    h->count = count;
    h->acc = h->mem;
    h->base = h->mem + count;
    h->comm = comm;
    if (comm)
        shmpi_core_comm_retain(comm);
    if (pvars[i].bind == MPI_T_BIND_MPI_WIN)
        h->win = *(MPI_Win *)obj_handle;
    h->started = pvars[i].continuous;
    now_of(h, h->base);
    return h;
}

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index,
                             void *obj_handle, MPI_T_pvar_handle *handle,
                             int *count)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_tool_pvar *h = NULL;
    if (!find_session(session))
        rc = MPI_T_ERR_INVALID_SESSION;
    else if (pvar_index < 0 || pvar_index >= NPVARS)
        rc = MPI_T_ERR_INVALID_INDEX;
    else if (!handle || !count)
        rc = MPI_T_ERR_INVALID;
    else if (!object_ok(pvar_index, obj_handle))
        rc = MPI_T_ERR_INVALID_HANDLE; /* 14.3.7: no such object */
    else if (!(h = handle_new(pvar_index, obj_handle)))
        rc = MPI_T_ERR_MEMORY;
    if (h) {
        h->next = session->handles;
        session->handles = h;
        *handle = h;
        *count = h->count;
    }
    shmpi_tool_leave();
    return rc;
}

/* With the lock held: where h is linked in session s, or NULL. */
static struct shmpi_tool_pvar **find_handle(MPI_T_pvar_session s,
                                            MPI_T_pvar_handle h)
{
    struct shmpi_tool_pvar **at = &s->handles;
    while (*at && *at != h)
        at = &(*at)->next;
    return *at ? at : NULL;
}

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session,
                            MPI_T_pvar_handle *handle)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_tool_pvar **at = NULL;
    if (!find_session(session))
        rc = MPI_T_ERR_INVALID_SESSION;
    else if (!handle || !(at = find_handle(session, *handle)))
        rc = MPI_T_ERR_INVALID_HANDLE;
    if (at) {
        *at = (*handle)->next;
        handle_free(shmpi_proc.tool, *handle);
        *handle = MPI_T_PVAR_HANDLE_NULL;
    }
    shmpi_tool_leave();
    return rc;
}

/* ------------------------------------------------------ operations */

/* The value of handle h into out[h->count], given the variable's
   value now. */
static void value(const struct shmpi_tool_pvar *h, const uint64_t *now,
                  uint64_t *out)
{
    int continuous = pvars[h->index].continuous;
    for (int k = 0; k < h->count; k++)
        out[k] = continuous ? now[k]
                            : h->acc[k] + (h->started ? now[k] - h->base[k]
                                                      : 0);
}

enum op { START, STOP, RESET };

/* One operation on one handle; MPI_SUCCESS or why it cannot be done.
   Starting turns the counting on before the snapshot of `base`, and
   stopping turns it off after its snapshot: what the handle reads was
   all counted. */
static int apply(struct shmpi_tool_pvar *h, enum op op)
{
    const struct pvar *p = &pvars[h->index];
    if (op != RESET && p->continuous)
        return MPI_T_ERR_PVAR_NO_STARTSTOP;
    if (op == RESET && p->readonly)
        return MPI_T_ERR_PVAR_NO_WRITE;
    if ((op == START && h->started) || (op == STOP && !h->started))
        return MPI_SUCCESS; /* already so: its count goes on as it was */
    if (op == START)
        watch(shmpi_proc.tool, h, 1);
    uint64_t now[h->count];
    now_of(h, now);
    if (op == STOP)
        value(h, now, h->acc);
    if (op == RESET)
        memset(h->acc, 0, (size_t)h->count * sizeof *h->acc);
    memcpy(h->base, now, (size_t)h->count * sizeof *now);
    if (op != RESET)
        h->started = op == START;
    if (op == STOP)
        watch(shmpi_proc.tool, h, 0);
    return MPI_SUCCESS;
}

/* op on handle, or on every handle of the session that allows it
   (MPI_T_PVAR_ALL_HANDLES: the others are left alone, 14.3.7). */
static int operate(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                   enum op op)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!find_session(session))
        rc = MPI_T_ERR_INVALID_SESSION;
    else if (handle == MPI_T_PVAR_ALL_HANDLES)
        for (struct shmpi_tool_pvar *h = session->handles; h; h = h->next)
            (void)apply(h, op);
    else if (!find_handle(session, handle))
        rc = MPI_T_ERR_INVALID_HANDLE;
    else
        rc = apply(handle, op);
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return operate(session, handle, START);
}

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return operate(session, handle, STOP);
}

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return operate(session, handle, RESET);
}

/* Entry of read, write and readreset: MPI_SUCCESS with the lock held,
   or an error without it. */
static int enter_one(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                     const void *buf)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!find_session(session))
        rc = MPI_T_ERR_INVALID_SESSION;
    else if (!find_handle(session, handle))
        rc = MPI_T_ERR_INVALID_HANDLE; /* MPI_T_PVAR_ALL_HANDLES too */
    else if (!buf)
        rc = MPI_T_ERR_INVALID;
    if (rc != MPI_SUCCESS)
        shmpi_tool_leave();
    return rc;
}

/* The handle's value into buf as its variable's datatype. */
static void put(const struct shmpi_tool_pvar *h, void *buf,
                const uint64_t *v)
{
    for (int k = 0; k < h->count; k++) {
        unsigned long long u = v[k];
        int state = (int)v[k];
        if (pvars[h->index].var_class == MPI_T_PVAR_CLASS_STATE)
            memcpy((int *)buf + k, &state, sizeof state);
        else
            memcpy((unsigned long long *)buf + k, &u, sizeof u);
    }
}

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                     void *buf)
{
    int rc = enter_one(session, handle, buf);
    if (rc != MPI_SUCCESS)
        return rc;
    uint64_t now[handle->count], v[handle->count];
    now_of(handle, now);
    value(handle, now, v);
    put(handle, buf, v);
    shmpi_tool_leave();
    return MPI_SUCCESS;
}

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                      const void *buf)
{
    int rc = enter_one(session, handle, buf);
    if (rc != MPI_SUCCESS)
        return rc;
    if (pvars[handle->index].readonly) {
        rc = MPI_T_ERR_PVAR_NO_WRITE;
    } else {
        for (int k = 0; k < handle->count; k++) {
            unsigned long long v;
            memcpy(&v, (const unsigned long long *)buf + k, sizeof v);
            handle->acc[k] = v;
        }
        now_of(handle, handle->base);
    }
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_pvar_readreset(MPI_T_pvar_session session,
                          MPI_T_pvar_handle handle, void *buf)
{
    int rc = enter_one(session, handle, buf);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct pvar *p = &pvars[handle->index];
    if (p->readonly) {
        rc = MPI_T_ERR_PVAR_NO_WRITE;
    } else if (!p->atomic) {
        rc = MPI_T_ERR_PVAR_NO_ATOMIC;
    } else {
        uint64_t now[handle->count], v[handle->count];
        now_of(handle, now);
        value(handle, now, v);
        put(handle, buf, v);
        memset(handle->acc, 0, (size_t)handle->count * sizeof *handle->acc);
        memcpy(handle->base, now, (size_t)handle->count * sizeof *now);
    }
    shmpi_tool_leave();
    return rc;
}

/* MPI_Win_free, before the window goes (core/proc.h's `forget`): the
   handles bound to it keep what they counted, from now on unchanged. */
void shmpi_tool_forget(const void *object)
{
    shmpi_core_mutex_lock(&shmpi_proc.tool_lock);
    struct shmpi_tool *t = shmpi_proc.tool;
    for (struct shmpi_tool_session *s = t ? t->sessions : NULL; s;
         s = s->next)
        for (struct shmpi_tool_pvar *h = s->handles; h; h = h->next) {
            if (h->win != object)
                continue;
            uint64_t now[1];
            now_of(h, now);
            if (h->started)
                value(h, now, h->acc);
            h->base[0] = now[0]; /* what issued() reads from now on */
            h->win = NULL;
            h->gone = 1;
        }
    shmpi_core_mutex_unlock(&shmpi_proc.tool_lock);
}
