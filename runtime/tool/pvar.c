/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pvar.c - the performance variables of MPI_T (MPI-3.1 14.3.7), their
 * sessions and handles.
 *
 * Only what can be read without adding a single instruction to a
 * message path: numbers the job's arena already keeps as atomics or as
 * fields written once before any rank runs, and the one MPI_Alloc_mem
 * keeps (core/memseg.c).  Every value is an MPI_UNSIGNED_LONG_LONG but
 * a state's (class MPI_T_PVAR_CLASS_STATE), which 14.3.7 wants an
 * MPI_INT of an enumeration; all are bound to no object but
 * shmpi_comm_lane, bound to a communicator (MPI_T_BIND_MPI_COMM: its
 * handle holds a reference to the communicator, released when the
 * handle is freed).  Before MPI_Init there is no arena: the arena's
 * variables read 0 then (after MPI_Finalize the arena is still mapped,
 * and they read what it holds).
 *
 * A continuous variable is always active and reads the value of the
 * moment; it cannot be started or stopped (MPI_T_ERR_PVAR_NO_STARTSTOP).
 * The counter shmpi_comm_contexts is not continuous: each handle counts
 * what happens while it is started (`acc` plus, while started, the
 * growth of the job's count since `base`), starts stopped, and may be
 * written (its count set) and reset.  Its read and reset take one
 * snapshot of the job's count, under the tool lock: nothing counted
 * between them is lost, so it reads and resets atomically.
 *
 * A handle belongs to its session; the session's free frees its
 * handles.  Sessions and handles are checked against the live lists,
 * so a stale or foreign one is an error, not a crash.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/pmpi.h"
#include "pt2pt/pt2pt.h"
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
    int started;                 /* non-continuous: counting now */
    uint64_t acc;                /* counted while started, before `base` */
    uint64_t base;               /* the variable's value at the last
                                    start, reset or write */
    struct shmpi_tool_pvar *next;
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
static uint64_t comm_lane(MPI_Comm comm)
{
    return arena() ? shmpi_p2p_lane_of(comm->context)->index : 0;
}

static const struct pvar {
    const char *name;
    int var_class;
    enum shmpi_tool_cat cat;
    int continuous, readonly, atomic;
    uint64_t (*now)(void);
    const char *desc;
    uint64_t (*of_comm)(MPI_Comm); /* instead of now: bound to a
                                      communicator */
} pvars[] = {
    {"shmpi_arena_bytes", MPI_T_PVAR_CLASS_SIZE, SHMPI_TOOL_CAT_ARENA, 1,
     1, 0, arena_bytes,
     "size of the job's shared-memory arena, in bytes (sparse: pages are "
     "taken as they are first touched); 0 before MPI_Init", NULL},
    {"shmpi_arena_fixed_bytes", MPI_T_PVAR_CLASS_SIZE,
     SHMPI_TOOL_CAT_ARENA, 1, 1, 0, arena_fixed,
     "bytes of the arena's fixed part (header, rank slots, post blocks), "
     "reserved when it was made; 0 before MPI_Init", NULL},
    {"shmpi_coll_areas_used", MPI_T_PVAR_CLASS_LEVEL, SHMPI_TOOL_CAT_COLL,
     1, 1, 0, coll_areas_used,
     "collective areas the job's communicators hold now (of "
     "SHMPI_COLL_AREAS); 0 before MPI_Init", NULL},
    {"shmpi_alloc_mem_bytes", MPI_T_PVAR_CLASS_LEVEL,
     SHMPI_TOOL_CAT_MEMORY, 1, 1, 0, alloc_mem_bytes,
     "bytes of shared memory MPI_Alloc_mem has mapped in this process "
     "(large blocks a segment each, small ones in 1 MiB pools)", NULL},
    {"shmpi_unexpected_over", MPI_T_PVAR_CLASS_STATE, SHMPI_TOOL_CAT_PT2PT,
     1, 1, 0, unexpected_over,
     "yes while the memory this rank holds for messages that arrived before "
     "their receive is over SHMPI_UNEXPECTED_MB (senders then send it every "
     "message by rendezvous), until it falls to three quarters of it", NULL},
    {"shmpi_comm_contexts", MPI_T_PVAR_CLASS_COUNTER, SHMPI_TOOL_CAT_COMM,
     0, 0, 1, contexts,
     "communicator contexts the job handed out while the handle was "
     "started (one per communicator made, by any process of the job)", NULL},
    {"shmpi_comm_lane", MPI_T_PVAR_CLASS_GENERIC, SHMPI_TOOL_CAT_PT2PT, 1,
     1, 0, NULL,
     "the point-to-point lane (0 to SHMPI_LANES - 1) the communicator's "
     "messages travel in; threads on communicators of different lanes "
     "do not contend", comm_lane},
};

/* Variable i's value now, for handle h's object. */
static uint64_t now_of(const struct shmpi_tool_pvar *h)
{
    const struct pvar *p = &pvars[h->index];
    return p->of_comm ? p->of_comm(h->comm) : p->now();
}

static void handle_free(struct shmpi_tool_pvar *h)
{
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

static void free_handles(struct shmpi_tool_session *s)
{
    while (s->handles) {
        struct shmpi_tool_pvar *h = s->handles;
        s->handles = h->next;
        handle_free(h);
    }
}

void shmpi_tool_sessions_free(struct shmpi_tool *t)
{
    while (t->sessions) {
        struct shmpi_tool_session *s = t->sessions;
        t->sessions = s->next;
        free_handles(s);
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
    set(bind, p->of_comm ? MPI_T_BIND_MPI_COMM : MPI_T_BIND_NO_OBJECT);
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
        free_handles(*session);
        free(*session);
        *session = MPI_T_PVAR_SESSION_NULL;
    }
    shmpi_tool_leave();
    return rc;
}

/* --------------------------------------------------------- handles */

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
    else if (pvars[pvar_index].of_comm &&
             (!obj_handle || !shmpi_comm_ok(*(MPI_Comm *)obj_handle)))
        rc = MPI_T_ERR_INVALID_HANDLE; /* 14.3.7: no such object */
    else if (!(h = calloc(1, sizeof *h)))
        rc = MPI_T_ERR_MEMORY;
    if (h) {
        h->index = pvar_index;
        if (pvars[pvar_index].of_comm) {
            h->comm = *(MPI_Comm *)obj_handle;
            shmpi_core_comm_retain(h->comm);
        }
        h->started = pvars[pvar_index].continuous;
        h->base = now_of(h);
        h->next = session->handles;
        session->handles = h;
        *handle = h;
        *count = 1;
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
        handle_free(*handle);
        *handle = MPI_T_PVAR_HANDLE_NULL;
    }
    shmpi_tool_leave();
    return rc;
}

/* ------------------------------------------------------ operations */

/* The value of handle h, given the variable's value now. */
static uint64_t value(const struct shmpi_tool_pvar *h, uint64_t now)
{
    if (pvars[h->index].continuous)
        return now;
    return h->acc + (h->started ? now - h->base : 0);
}

enum op { START, STOP, RESET };

/* One operation on one handle; MPI_SUCCESS or why it cannot be done. */
static int apply(struct shmpi_tool_pvar *h, enum op op)
{
    const struct pvar *p = &pvars[h->index];
    if (op != RESET && p->continuous)
        return MPI_T_ERR_PVAR_NO_STARTSTOP;
    if (op == RESET && p->readonly)
        return MPI_T_ERR_PVAR_NO_WRITE;
    if ((op == START && h->started) || (op == STOP && !h->started))
        return MPI_SUCCESS; /* already so: its count goes on as it was */
    uint64_t now = now_of(h);
    if (op == STOP)
        h->acc = value(h, now);
    if (op == RESET)
        h->acc = 0;
    h->base = now;
    if (op != RESET)
        h->started = op == START;
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

/* v into buf as variable i's datatype. */
static void put(int i, void *buf, uint64_t v)
{
    unsigned long long u = v;
    int state = (int)v;
    if (pvars[i].var_class == MPI_T_PVAR_CLASS_STATE)
        memcpy(buf, &state, sizeof state);
    else
        memcpy(buf, &u, sizeof u);
}

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                     void *buf)
{
    int rc = enter_one(session, handle, buf);
    if (rc != MPI_SUCCESS)
        return rc;
    put(handle->index, buf, value(handle, now_of(handle)));
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
        unsigned long long v;
        memcpy(&v, buf, sizeof v);
        handle->acc = v;
        handle->base = now_of(handle);
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
        uint64_t now = now_of(handle);
        put(handle->index, buf, value(handle, now));
        handle->acc = 0;
        handle->base = now;
    }
    shmpi_tool_leave();
    return rc;
}
