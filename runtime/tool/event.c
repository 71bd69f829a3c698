/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * event.c - the events of MPI_T (MPI-4.0 15.3.8): what can be raised,
 * registrations and their callbacks, the instance a callback reads, and
 * the one source of timestamps.
 *
 * The events (core/proc.h's enum shmpi_core_event) are raised where
 * they happen, by the room below that sees them, only while a callback
 * is registered for them: each raise site tests its bit of
 * shmpi_proc.watch.on (one predicted branch otherwise) and calls
 * shmpi_core_event, which calls raise() here through the pointer
 * MPI_T_init_thread stored.  raise() timestamps the event and calls,
 * for every registration of its kind, the callback of the least
 * restrictive safety level the place allows, before returning:
 *
 *   the place                              requires
 *   below MPI_THREAD_MULTIPLE             MPI_T_CB_REQUIRE_MPI_RESTRICTED
 *   under MPI_THREAD_MULTIPLE             MPI_T_CB_REQUIRE_THREAD_SAFE
 *
 * An event is raised inside an MPI call - in the progress engine with a
 * lane held, or in a communicator's creation - so its callback may call
 * only what MPI-4.0 15.3.8 allows a restricted one (MPI_T_event_read,
 * _copy, _get_timestamp, _get_source, MPI_T_source_get_timestamp,
 * which take no lock), and under MULTIPLE it may run in several threads
 * at once.  A registration with no callback at that level or above
 * drops the event and counts it; its dropped handler hears of the count
 * before its next callback runs, or when it is freed.
 *
 * Locks: the registrations are shmpi_proc.tool's, changed under both
 * tool_lock and watch.event_lock, walked by raise() under event_lock
 * alone (taken after a lane's lock, and after tool_lock, never before:
 * a leaf; user callbacks run under it, which is why they may not call
 * what takes it).  The free callback of MPI_T_event_handle_free runs
 * with no lock held.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/lock.h"
#include "core/pmpi.h"
#include "tool/tool.h"

SHMPI_WEAK_ALIAS(T_event_get_num)
SHMPI_WEAK_ALIAS(T_event_get_info)
SHMPI_WEAK_ALIAS(T_event_get_index)
SHMPI_WEAK_ALIAS(T_event_handle_alloc)
SHMPI_WEAK_ALIAS(T_event_handle_set_info)
SHMPI_WEAK_ALIAS(T_event_handle_get_info)
SHMPI_WEAK_ALIAS(T_event_register_callback)
SHMPI_WEAK_ALIAS(T_event_callback_set_info)
SHMPI_WEAK_ALIAS(T_event_callback_get_info)
SHMPI_WEAK_ALIAS(T_event_handle_free)
SHMPI_WEAK_ALIAS(T_event_set_dropped_handler)
SHMPI_WEAK_ALIAS(T_event_read)
SHMPI_WEAK_ALIAS(T_event_copy)
SHMPI_WEAK_ALIAS(T_event_get_timestamp)
SHMPI_WEAK_ALIAS(T_event_get_source)
SHMPI_WEAK_ALIAS(T_source_get_num)
SHMPI_WEAK_ALIAS(T_source_get_info)
SHMPI_WEAK_ALIAS(T_source_get_timestamp)

#define SAFETY_LEVELS 4        /* MPI_T_CB_REQUIRE_NONE .. _ASYNC_SIGNAL_SAFE */
#define REG_MAGIC 0x45564e54u  /* "EVNT" */
#define INST_MAGIC 0x494e5354u /* "INST" */
#define MAX_ELEMENTS 4

struct shmpi_tool_event_reg {
    uint32_t magic;
    enum shmpi_core_event kind;
    struct {
        MPI_T_event_cb_function *fn;
        void *user_data;
    } cb[SAFETY_LEVELS];       /* one callback per safety level */
    MPI_T_event_dropped_cb_function *dropped;
    MPI_Count ndropped;        /* dropped since the handler last heard */
    struct shmpi_tool_event_reg *next;
};

/* Valid only while raise() runs the callbacks it is handed to. */
struct shmpi_tool_event_inst {
    uint32_t magic;
    enum shmpi_core_event kind;
    MPI_Count timestamp;
    const void *data;
};

/* What each kind of event carries: element i is of datatype type[i] at
   offset off[i] of its core/proc.h struct. */
static const struct event {
    const char *name;
    enum shmpi_tool_cat cat;
    const char *desc;
    size_t size;               /* of the struct: MPI_T_event_copy's */
    int n;
    MPI_Datatype type[MAX_ELEMENTS];
    size_t off[MAX_ELEMENTS];
} events[SHMPI_EVENTS] = {
    [SHMPI_EVENT_UNEXPECTED] =
        {"shmpi_unexpected_message", SHMPI_TOOL_CAT_PT2PT,
         "a message arrived at this process before its receive was posted "
         "and joined the unexpected queue; its bytes (MPI_UNSIGNED_LONG_"
         "LONG), source (MPI_INT, rank in MPI_COMM_WORLD), tag (MPI_INT) "
         "and the context of its communicator (MPI_UNSIGNED)",
         sizeof(struct shmpi_core_event_msg),
         4,
         {MPI_UNSIGNED_LONG_LONG, MPI_INT, MPI_INT, MPI_UNSIGNED},
         {offsetof(struct shmpi_core_event_msg, bytes),
          offsetof(struct shmpi_core_event_msg, source),
          offsetof(struct shmpi_core_event_msg, tag),
          offsetof(struct shmpi_core_event_msg, context)}},
    [SHMPI_EVENT_COMM_CREATED] =
        {"shmpi_comm_created", SHMPI_TOOL_CAT_COMM,
         "this process made a communicator (MPI_Comm_dup, _split, _create "
         "and the others, not MPI_COMM_WORLD and MPI_COMM_SELF); its "
         "context (MPI_UNSIGNED, the job's name for it) and size (MPI_INT, "
         "of its local group)",
         sizeof(struct shmpi_core_event_comm),
         2,
         {MPI_UNSIGNED, MPI_INT},
         {offsetof(struct shmpi_core_event_comm, context),
          offsetof(struct shmpi_core_event_comm, size)}},
    [SHMPI_EVENT_COMM_FREED] =
        {"shmpi_comm_freed", SHMPI_TOOL_CAT_COMM,
         "this process called MPI_Comm_free on a communicator; its context "
         "(MPI_UNSIGNED) and size (MPI_INT)",
         sizeof(struct shmpi_core_event_comm),
         2,
         {MPI_UNSIGNED, MPI_INT},
         {offsetof(struct shmpi_core_event_comm, context),
          offsetof(struct shmpi_core_event_comm, size)}},
};

enum shmpi_tool_cat shmpi_tool_event_category(int i)
{
    return events[i].cat;
}

/* The one source: CLOCK_MONOTONIC, in nanoseconds. */
static MPI_Count now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (MPI_Count)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* ------------------------------------------------------------ raise */

/* The safety level the place of a raise requires (top comment). */
static MPI_T_cb_safety required(void)
{
    return shmpi_proc.mt ? MPI_T_CB_REQUIRE_THREAD_SAFE
                         : MPI_T_CB_REQUIRE_MPI_RESTRICTED;
}

/* The least restrictive level at or above need with a callback, or -1. */
static int level_for(const struct shmpi_tool_event_reg *r, int need)
{
    for (int l = need; l < SAFETY_LEVELS; l++)
        if (r->cb[l].fn)
            return l;
    return -1;
}

static void raise_event(enum shmpi_core_event kind, const void *data)
{
    MPI_T_cb_safety need = required();
    struct shmpi_tool_event_inst inst = {INST_MAGIC, kind, now(), data};
    shmpi_core_mutex_lock(&shmpi_proc.watch.event_lock);
    struct shmpi_tool *t = shmpi_proc.tool;
    for (struct shmpi_tool_event_reg *r = t ? t->events : NULL; r;
         r = r->next) {
        if (r->kind != kind)
            continue;
        int l = level_for(r, need);
        if (l < 0) {
            r->ndropped++;
            continue;
        }
        if (r->ndropped && r->dropped) {
            r->dropped(r->ndropped, r, 0, need, r->cb[l].user_data);
            r->ndropped = 0;
        }
        r->cb[l].fn(&inst, r, need, r->cb[l].user_data);
    }
    shmpi_core_mutex_unlock(&shmpi_proc.watch.event_lock);
    inst.magic = 0;
}

/* With tool_lock and event_lock held: the raise sites' bits on for the
   kinds that have a callback, off for the others; the pointer is stored before any bit
   (release, shmpi_core_event's acquire). */
static void rewatch(struct shmpi_tool *t)
{
    unsigned want = 0;
    for (struct shmpi_tool_event_reg *r = t->events; r; r = r->next)
        if (level_for(r, MPI_T_CB_REQUIRE_NONE) >= 0)
            want |= SHMPI_WATCH_EVENT(r->kind);
    atomic_store_explicit(&shmpi_proc.watch.event, raise_event,
                          memory_order_release);
    unsigned all = 0;
    for (int k = 0; k < SHMPI_EVENTS; k++)
        all |= SHMPI_WATCH_EVENT(k);
    atomic_fetch_and_explicit(&shmpi_proc.watch.on, ~(all & ~want),
                              memory_order_relaxed);
    atomic_fetch_or_explicit(&shmpi_proc.watch.on, want,
                             memory_order_relaxed);
}

/* With tool_lock held: where r is linked, or NULL if not a live
   registration. */
static struct shmpi_tool_event_reg **find(MPI_T_event_registration r)
{
    struct shmpi_tool_event_reg **at = &shmpi_proc.tool->events;
    while (*at && *at != r)
        at = &(*at)->next;
    return *at ? at : NULL;
}

/* The last MPI_T_finalize: every registration goes, uncalled (their
   free callbacks were for MPI_T_event_handle_free to call). */
void shmpi_tool_events_free(struct shmpi_tool *t)
{
    shmpi_core_mutex_lock(&shmpi_proc.watch.event_lock);
    while (t->events) {
        struct shmpi_tool_event_reg *r = t->events;
        t->events = r->next;
        free(r);
    }
    rewatch(t);
    shmpi_core_mutex_unlock(&shmpi_proc.watch.event_lock);
}

/* ------------------------------------------------------------- info */

int PMPI_T_event_get_num(int *num_events)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (num_events)
        *num_events = SHMPI_EVENTS;
    shmpi_tool_leave();
    return num_events ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

/* A new info object for info_used-style results: MPI_SUCCESS, or
   MPI_T_ERR_MEMORY.  No hint is kept (none changes what shmpi does). */
static int new_info(MPI_Info *info)
{
    return PMPI_Info_create(info) == MPI_SUCCESS ? MPI_SUCCESS
                                                 : MPI_T_ERR_MEMORY;
}

int PMPI_T_event_get_info(int event_index, char *name, int *name_len,
                          int *verbosity, MPI_Datatype array_of_datatypes[],
                          MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype,
                          MPI_Info *info, char *desc, int *desc_len,
                          int *bind)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (event_index < 0 || event_index >= SHMPI_EVENTS) {
        shmpi_tool_leave();
        return MPI_T_ERR_INVALID_INDEX;
    }
    const struct event *e = &events[event_index];
    shmpi_tool_string(e->name, name, name_len);
    shmpi_tool_string(e->desc, desc, desc_len);
    if (verbosity)
        *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    if (num_elements) {
        /* 15.3.8: on input the length of the arrays, on output how many
           elements the event has; at most that many entries stored */
        for (int i = 0; i < e->n && i < *num_elements; i++) {
            if (array_of_datatypes)
                array_of_datatypes[i] = e->type[i];
            if (array_of_displacements)
                array_of_displacements[i] = (MPI_Aint)e->off[i];
        }
        *num_elements = e->n;
    }
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (info)
        rc = new_info(info);
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_event_get_index(const char *name, int *event_index)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    rc = name && event_index ? MPI_T_ERR_INVALID_NAME : MPI_T_ERR_INVALID;
    for (int i = 0; rc == MPI_T_ERR_INVALID_NAME && i < SHMPI_EVENTS; i++)
        if (strcmp(name, events[i].name) == 0) {
            *event_index = i;
            rc = MPI_SUCCESS;
        }
    shmpi_tool_leave();
    return rc;
}

/* ---------------------------------------------------- registrations */

int PMPI_T_event_handle_alloc(int event_index, void *obj_handle,
                              MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_tool_event_reg *r = NULL;
    if (event_index < 0 || event_index >= SHMPI_EVENTS)
        rc = MPI_T_ERR_INVALID_INDEX;
    else if (!event_registration)
        rc = MPI_T_ERR_INVALID;
    else if (!(r = calloc(1, sizeof *r)))
        rc = MPI_T_ERR_MEMORY;
    if (r) {
        /* bound to no object: obj_handle is not read; no hint of info
           changes anything */
        r->magic = REG_MAGIC;
        r->kind = (enum shmpi_core_event)event_index;
        shmpi_core_mutex_lock(&shmpi_proc.watch.event_lock);
        r->next = shmpi_proc.tool->events;
        shmpi_proc.tool->events = r;
        shmpi_core_mutex_unlock(&shmpi_proc.watch.event_lock);
        *event_registration = r;
    }
    shmpi_tool_leave();
    return rc;
}

/* Entry of the calls on a registration: MPI_SUCCESS with tool_lock
   held, or an error without it. */
static int enter_reg(MPI_T_event_registration r)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!find(r)) {
        shmpi_tool_leave();
        return MPI_T_ERR_INVALID_HANDLE;
    }
    return MPI_SUCCESS;
}

int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration,
                                 MPI_Info info)
{
    int rc = enter_reg(event_registration);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_tool_leave(); /* no hint is kept */
    return MPI_SUCCESS;
}

int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
                                 MPI_Info *info_used)
{
    int rc = enter_reg(event_registration);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = info_used ? new_info(info_used) : MPI_T_ERR_INVALID;
    shmpi_tool_leave();
    return rc;
}

static int level_ok(MPI_T_cb_safety l)
{
    return (int)l >= 0 && (int)l < SAFETY_LEVELS;
}

int PMPI_T_event_register_callback(MPI_T_event_registration
                                       event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info,
                                   void *user_data,
                                   MPI_T_event_cb_function *event_cb_function)
{
    int rc = enter_reg(event_registration);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!level_ok(cb_safety)) {
        rc = MPI_T_ERR_INVALID;
    } else {
        /* 15.3.8: a callback replaces the one of its level; NULL removes
           it */
        shmpi_core_mutex_lock(&shmpi_proc.watch.event_lock);
        event_registration->cb[cb_safety].fn = event_cb_function;
        event_registration->cb[cb_safety].user_data = user_data;
        rewatch(shmpi_proc.tool);
        shmpi_core_mutex_unlock(&shmpi_proc.watch.event_lock);
    }
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_event_callback_set_info(MPI_T_event_registration
                                       event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info)
{
    int rc = enter_reg(event_registration);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!level_ok(cb_safety) || !event_registration->cb[cb_safety].fn)
        rc = MPI_T_ERR_INVALID; /* no callback at that level */
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_event_callback_get_info(MPI_T_event_registration
                                       event_registration,
                                   MPI_T_cb_safety cb_safety,
                                   MPI_Info *info_used)
{
    int rc = enter_reg(event_registration);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!level_ok(cb_safety) || !event_registration->cb[cb_safety].fn ||
        !info_used)
        rc = MPI_T_ERR_INVALID;
    else
        rc = new_info(info_used);
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_event_set_dropped_handler(
    MPI_T_event_registration event_registration,
    MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    int rc = enter_reg(event_registration);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_core_mutex_lock(&shmpi_proc.watch.event_lock);
    event_registration->dropped = dropped_cb_function;
    shmpi_core_mutex_unlock(&shmpi_proc.watch.event_lock);
    shmpi_tool_leave();
    return MPI_SUCCESS;
}

int PMPI_T_event_handle_free(MPI_T_event_registration event_registration,
                             void *user_data,
                             MPI_T_event_free_cb_function *free_cb_function)
{
    int rc = enter_reg(event_registration);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_tool_event_reg *r = event_registration;
    shmpi_core_mutex_lock(&shmpi_proc.watch.event_lock);
    *find(r) = r->next; /* no raise() sees it from now on */
    rewatch(shmpi_proc.tool);
    shmpi_core_mutex_unlock(&shmpi_proc.watch.event_lock);
    shmpi_tool_leave();
    /* outside every lock, in the caller's own MPI_T call: whatever the
       callbacks may do */
    if (r->ndropped && r->dropped) {
        int l = level_for(r, MPI_T_CB_REQUIRE_NONE);
        r->dropped(r->ndropped, r, 0, MPI_T_CB_REQUIRE_NONE,
                   l >= 0 ? r->cb[l].user_data : NULL);
    }
    if (free_cb_function)
        free_cb_function(r, MPI_T_CB_REQUIRE_NONE, user_data);
    r->magic = 0;
    free(r);
    return MPI_SUCCESS;
}

/* -------------------------------------------------------- instances */

/* An instance handed to a running callback; 15.3.8's calls on it need
   no lock (they run inside raise(), which holds event_lock). */
static int inst_ok(MPI_T_event_instance i)
{
    return i && i->magic == INST_MAGIC;
}

int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index,
                      void *buffer)
{
    if (!inst_ok(event_instance))
        return MPI_T_ERR_INVALID_HANDLE;
    const struct event *e = &events[event_instance->kind];
    if (element_index < 0 || element_index >= e->n)
        return MPI_T_ERR_INVALID_INDEX;
    if (!buffer)
        return MPI_T_ERR_INVALID;
    int size;
    PMPI_Type_size(e->type[element_index], &size);
    memcpy(buffer,
           (const char *)event_instance->data + e->off[element_index],
           (size_t)size);
    return MPI_SUCCESS;
}

int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    if (!inst_ok(event_instance))
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buffer)
        return MPI_T_ERR_INVALID;
    memcpy(buffer, event_instance->data, events[event_instance->kind].size);
    return MPI_SUCCESS;
}

int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance,
                               MPI_Count *event_timestamp)
{
    if (!inst_ok(event_instance))
        return MPI_T_ERR_INVALID_HANDLE;
    if (!event_timestamp)
        return MPI_T_ERR_INVALID;
    *event_timestamp = event_instance->timestamp;
    return MPI_SUCCESS;
}

int PMPI_T_event_get_source(MPI_T_event_instance event_instance,
                            int *source_index)
{
    if (!inst_ok(event_instance))
        return MPI_T_ERR_INVALID_HANDLE;
    if (!source_index)
        return MPI_T_ERR_INVALID;
    *source_index = 0;
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------- sources */

int PMPI_T_source_get_num(int *num_sources)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (num_sources)
        *num_sources = 1;
    shmpi_tool_leave();
    return num_sources ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

int PMPI_T_source_get_info(int source_index, char *name, int *name_len,
                           char *desc, int *desc_len,
                           MPI_T_source_order *ordering,
                           MPI_Count *ticks_per_second, MPI_Count *max_ticks,
                           MPI_Info *info)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (source_index != 0) {
        shmpi_tool_leave();
        return MPI_T_ERR_INVALID_INDEX;
    }
    shmpi_tool_string("shmpi_clock", name, name_len);
    shmpi_tool_string("this process's CLOCK_MONOTONIC in nanoseconds, read "
                      "as each event is raised; under MPI_THREAD_MULTIPLE "
                      "threads raise events at once, so their callbacks "
                      "may see timestamps out of order",
                      desc, desc_len);
    if (ordering)
        *ordering = MPI_T_SOURCE_UNORDERED;
    if (ticks_per_second)
        *ticks_per_second = 1000000000;
    if (max_ticks)
        *max_ticks = INT64_MAX;
    if (info)
        rc = new_info(info);
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    /* callable from a callback (15.3.8): no lock */
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    if (!timestamp)
        return MPI_T_ERR_INVALID;
    *timestamp = now();
    return MPI_SUCCESS;
}
