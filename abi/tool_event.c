/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tool_event.c - the ABI's events of the tool information interface and
 * their sources (MPI-4.1 15.3.8; abi.h, tool.h).
 *
 * Handles.  A registration and an instance are shmpi's pointers, passed
 * as they are to the calls and to the program's callbacks.
 *
 * Constants.  The ABI numbers the safety levels MPI_T_CB_REQUIRE_NONE ..
 * _ASYNC_SIGNAL_SAFE 0x00, 0x03, 0x0f, 0x3f, shmpi 0 .. 3; the source
 * orders from 1, shmpi from 0.  An event's datatypes are given as the
 * ABI's handles; its data are the bytes shmpi wrote (C ints and
 * unsigneds, the same in both).
 *
 * Callbacks.  As for keyvals (attr.c) and generalized requests
 * (grequest.c), shmpi is given a trampoline and, as user data, a record
 * of the layer's holding the program's function and user data:
 *  - an event callback: a struct slot, made by
 *    MPI_T_event_register_callback and freed when a later one replaces
 *    it at its level, or with its registration;
 *  - a free callback: a struct on the stack of MPI_T_event_handle_free,
 *    which shmpi calls before it returns (runtime/tool/event.c);
 *  - a dropped handler: shmpi gives it the user data of the
 *    registration's callback (a slot), or none when the registration has
 *    no callback; the program's function is in the registration's record.
 * A registration's record (struct reg, on the list `regs`) is made by
 * MPI_T_event_handle_alloc and freed by MPI_T_event_handle_free, or by
 * the last MPI_T_finalize, which frees shmpi's registrations uncalled.
 *
 * Locks.  reg_lock guards `regs`, the records' slots and `nested`.  It is
 * held across the shmpi calls that change what shmpi calls back
 * (register_callback, set_dropped_handler, MPI_T_init_thread and
 * MPI_T_finalize, which count), so that the
 * records change in the order shmpi's registrations do; shmpi takes its
 * tool_lock and event_lock after it.  shmpi runs an event callback and a
 * dropped handler in a raise, with event_lock held: there the
 * trampolines take no lock and read what the call that registered them
 * wrote before shmpi took event_lock (that lock's release there and its
 * acquire by the raise make it visible); a dropped handler's function
 * may change under a running raise, so it is an atomic; it is stored
 * before shmpi is given the trampoline, and none (NULL) is given shmpi
 * alone, so that the trampoline always finds one.
 * MPI_T_event_handle_free calls the dropped handler and the free
 * callback with no lock held, and the layer does not hold reg_lock
 * across it: there the dropped trampoline may take reg_lock.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "abi/tool.h"

#define SAFETY_LEVELS 4
static const int safety_abi[SAFETY_LEVELS] = {
    [MPI_T_CB_REQUIRE_NONE] = 0x00,
    [MPI_T_CB_REQUIRE_MPI_RESTRICTED] = 0x03,
    [MPI_T_CB_REQUIRE_THREAD_SAFE] = 0x0f,
    [MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE] = 0x3f,
};
_Static_assert(MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE == SAFETY_LEVELS - 1,
               "shmpi's safety levels are 0 .. 3");
_Static_assert(sizeof(MPI_Datatype) == sizeof(abi_Datatype),
               "types_out converts in place");

/* An ABI safety level as shmpi's; SAFETY_LEVELS, which shmpi rejects,
   for none. */
static MPI_T_cb_safety safety_in(int s)
{
    int l = 0;
    while (l < SAFETY_LEVELS && safety_abi[l] != s)
        l++;
    return (MPI_T_cb_safety)l;
}

/* The program's callbacks, with the ABI's safety level. */
typedef void abi_event_cb(MPI_T_event_instance, MPI_T_event_registration,
                          int, void *);
typedef void abi_free_cb(MPI_T_event_registration, int, void *);
typedef void abi_dropped_cb(MPI_Count, MPI_T_event_registration, int, int,
                            void *);

struct reg;
struct slot {
    abi_event_cb *fn;
    void *user;
    struct reg *reg;
};

struct reg {
    MPI_T_event_registration r;          /* shmpi's */
    struct slot *slot[SAFETY_LEVELS];    /* by shmpi's level */
    _Atomic(abi_dropped_cb *) dropped;
    struct reg *next;
};
static struct reg *regs;
static int nested;       /* MPI_T_init_thread's less MPI_T_finalize's */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;

/* With reg_lock held: where the record of r is linked (*at NULL for
   none). */
static struct reg **find(MPI_T_event_registration r)
{
    struct reg **at = &regs;
    while (*at && (*at)->r != r)
        at = &(*at)->next;
    return at;
}

static void reg_free(struct reg *g)
{
    for (int l = 0; l < SAFETY_LEVELS; l++)
        free(g->slot[l]);
    free(g);
}

/* ------------------------------------------------------- trampolines */

static void event_trampoline(MPI_T_event_instance inst,
                             MPI_T_event_registration r,
                             MPI_T_cb_safety safety, void *user)
{
    struct slot *s = user;
    s->fn(inst, r, safety_abi[safety], s->user);
}

static void dropped_trampoline(MPI_Count count, MPI_T_event_registration r,
                               int source, MPI_T_cb_safety safety,
                               void *user)
{
    struct slot *s = user;
    struct reg *g = s ? s->reg : NULL;
    if (!g) {                  /* from MPI_T_event_handle_free: no lock */
        pthread_mutex_lock(&reg_lock);
        g = *find(r);
        pthread_mutex_unlock(&reg_lock);
    }
    abi_dropped_cb *fn =
        atomic_load_explicit(&g->dropped, memory_order_relaxed);
    fn(count, r, source, safety_abi[safety], s ? s->user : NULL);
}

struct free_cb {
    abi_free_cb *fn;
    void *user;
};

static void free_trampoline(MPI_T_event_registration r,
                            MPI_T_cb_safety safety, void *user)
{
    struct free_cb *f = user;
    f->fn(r, safety_abi[safety], f->user);
}

/* ---------------------------------------------------------- nesting */

int shmpi_abi_t_init(int required, int *provided)
{
    pthread_mutex_lock(&reg_lock);
    int rc = PMPI_T_init_thread(required, provided);
    nested += rc == MPI_SUCCESS;
    pthread_mutex_unlock(&reg_lock);
    return rc;
}

int shmpi_abi_t_finalize(void)
{
    pthread_mutex_lock(&reg_lock);
    int rc = PMPI_T_finalize();
    if (rc == MPI_SUCCESS && --nested == 0) {
        while (regs) {
            struct reg *g = regs;
            regs = g->next;
            reg_free(g);
        }
    }
    pthread_mutex_unlock(&reg_lock);
    return rc;
}

/* ------------------------------------------------------------- info */

ABI_FN(int, T_event_get_num, (int *num_events))
{
    return PMPI_T_event_get_num(num_events);
}

/* The n datatypes shmpi wrote into the program's array, as the ABI's
   handles, in place. */
static void types_out(abi_Datatype *t, int n)
{
    for (int i = 0; i < n; i++) {
        MPI_Datatype dt;
        memcpy(&dt, &t[i], sizeof dt);
        t[i] = ABI_OUT(abi_Datatype, dt, DATATYPE);
    }
}

/* An info shmpi made for an optional argument, as the ABI's. */
static void info_out(MPI_Info i, abi_Info *info)
{
    if (info)
        *info = ABI_OUT(abi_Info, i, INFO);
}

ABI_FN(int, T_event_get_info, (int event_index, char *name, int *name_len,
                               int *verbosity,
                               abi_Datatype array_of_datatypes[],
                               MPI_Aint array_of_displacements[],
                               int *num_elements, MPI_T_enum *enumtype,
                               abi_Info *info, char *desc, int *desc_len,
                               int *bind))
{
    int len = num_elements ? *num_elements : 0;
    MPI_Info i;
    int rc = PMPI_T_event_get_info(
        event_index, name, name_len, verbosity,
        (MPI_Datatype *)(void *)array_of_datatypes, array_of_displacements,
        num_elements, enumtype, info ? &i : NULL, desc, desc_len, bind);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_abi_verbosity_out(verbosity);
    if (array_of_datatypes)   /* shmpi stored the fewer of the two */
        types_out(array_of_datatypes,
                  len < *num_elements ? len : *num_elements);
    info_out(i, info);
    plus_one(bind);
    return MPI_SUCCESS;
}

ABI_FN(int, T_event_get_index, (const char *name, int *event_index))
{
    return PMPI_T_event_get_index(name, event_index);
}

/* ---------------------------------------------------- registrations */

ABI_FN(int, T_event_handle_alloc, (int event_index, void *obj_handle,
                                   abi_Info info,
                                   MPI_T_event_registration *registration))
{
    int bind = MPI_T_BIND_NO_OBJECT;
    union shmpi_abi_bound u;
    PMPI_T_event_get_info(event_index, NULL, NULL, NULL, NULL, NULL, NULL,
                          NULL, NULL, NULL, NULL, &bind);  /* bad: below */
    void *obj = shmpi_abi_bound_in(bind, obj_handle, &u);
    struct reg *g = calloc(1, sizeof *g);
    if (!g)
        return MPI_T_ERR_MEMORY;
    atomic_init(&g->dropped, NULL);
    int rc = PMPI_T_event_handle_alloc(event_index, obj, info_in(info),
                                       registration ? &g->r : NULL);
    if (rc != MPI_SUCCESS) {
        free(g);
        return rc;
    }
    pthread_mutex_lock(&reg_lock);
    g->next = regs;
    regs = g;
    pthread_mutex_unlock(&reg_lock);
    *registration = g->r;
    return MPI_SUCCESS;
}

ABI_FN(int, T_event_handle_set_info, (MPI_T_event_registration r,
                                      abi_Info info))
{
    return PMPI_T_event_handle_set_info(r, info_in(info));
}

ABI_FN(int, T_event_handle_get_info, (MPI_T_event_registration r,
                                      abi_Info *info_used))
{
    MPI_Info i;
    int rc = PMPI_T_event_handle_get_info(r, info_used ? &i : NULL);
    MADE(rc, info_used, i, abi_Info, INFO);
    return rc;
}

ABI_FN(int, T_event_register_callback, (MPI_T_event_registration r,
                                        int cb_safety, abi_Info info,
                                        void *user_data, abi_event_cb *fn))
{
    MPI_T_cb_safety l = safety_in(cb_safety);
    struct slot *s = NULL;
    pthread_mutex_lock(&reg_lock);
    struct reg *g = *find(r);  /* none: shmpi reports the handle */
    if (g && (int)l < SAFETY_LEVELS && fn && !(s = malloc(sizeof *s))) {
        pthread_mutex_unlock(&reg_lock);
        return MPI_T_ERR_MEMORY;
    }
    if (s)
        *s = (struct slot){fn, user_data, g};
    int rc = PMPI_T_event_register_callback(r, l, info_in(info), s,
                                            s ? event_trampoline : NULL);
    if (rc == MPI_SUCCESS) {   /* shmpi knows r: the layer made g */
        free(g->slot[l]);      /* which no raise runs any more */
        g->slot[l] = s;
    } else {
        free(s);
    }
    pthread_mutex_unlock(&reg_lock);
    return rc;
}

ABI_FN(int, T_event_callback_set_info, (MPI_T_event_registration r,
                                        int cb_safety, abi_Info info))
{
    return PMPI_T_event_callback_set_info(r, safety_in(cb_safety),
                                          info_in(info));
}

ABI_FN(int, T_event_callback_get_info, (MPI_T_event_registration r,
                                        int cb_safety, abi_Info *info_used))
{
    MPI_Info i;
    int rc = PMPI_T_event_callback_get_info(r, safety_in(cb_safety),
                                            info_used ? &i : NULL);
    MADE(rc, info_used, i, abi_Info, INFO);
    return rc;
}

ABI_FN(int, T_event_set_dropped_handler, (MPI_T_event_registration r,
                                          abi_dropped_cb *fn))
{
    pthread_mutex_lock(&reg_lock);
    struct reg *g = *find(r);  /* none: shmpi reports the handle */
    if (g && fn)               /* before shmpi may call the trampoline */
        atomic_store_explicit(&g->dropped, fn, memory_order_relaxed);
    int rc = PMPI_T_event_set_dropped_handler(
        r, g && fn ? dropped_trampoline : NULL);
    pthread_mutex_unlock(&reg_lock);
    return rc;
}

ABI_FN(int, T_event_handle_free, (MPI_T_event_registration r,
                                  void *user_data, abi_free_cb *fn))
{
    pthread_mutex_lock(&reg_lock);
    struct reg *g = *find(r);
    pthread_mutex_unlock(&reg_lock);
    struct free_cb f = {fn, user_data};
    int rc = PMPI_T_event_handle_free(r, &f, fn ? free_trampoline : NULL);
    if (rc != MPI_SUCCESS)
        return rc;
    /* by g, not by r: a registration made since may have r's address */
    pthread_mutex_lock(&reg_lock);
    struct reg **at = &regs;
    while (*at != g)
        at = &(*at)->next;
    *at = g->next;
    pthread_mutex_unlock(&reg_lock);
    reg_free(g);
    return MPI_SUCCESS;
}

/* -------------------------------------------------------- instances */

ABI_FN(int, T_event_read, (MPI_T_event_instance e, int element_index,
                           void *buffer))
{
    return PMPI_T_event_read(e, element_index, buffer);
}

ABI_FN(int, T_event_copy, (MPI_T_event_instance e, void *buffer))
{
    return PMPI_T_event_copy(e, buffer);
}

ABI_FN(int, T_event_get_timestamp, (MPI_T_event_instance e,
                                    MPI_Count *event_timestamp))
{
    return PMPI_T_event_get_timestamp(e, event_timestamp);
}

ABI_FN(int, T_event_get_source, (MPI_T_event_instance e, int *source_index))
{
    return PMPI_T_event_get_source(e, source_index);
}

/* ---------------------------------------------------------- sources */

ABI_FN(int, T_source_get_num, (int *num_sources))
{
    return PMPI_T_source_get_num(num_sources);
}

ABI_FN(int, T_source_get_info, (int source_index, char *name, int *name_len,
                                char *desc, int *desc_len, int *ordering,
                                MPI_Count *ticks_per_second,
                                MPI_Count *max_ticks, abi_Info *info))
{
    MPI_Info i;
    int rc = PMPI_T_source_get_info(source_index, name, name_len, desc,
                                    desc_len, (MPI_T_source_order *)ordering,
                                    ticks_per_second, max_ticks,
                                    info ? &i : NULL);
    if (rc != MPI_SUCCESS)
        return rc;
    plus_one(ordering);
    info_out(i, info);
    return MPI_SUCCESS;
}

ABI_FN(int, T_source_get_timestamp, (int source_index, MPI_Count *timestamp))
{
    return PMPI_T_source_get_timestamp(source_index, timestamp);
}
