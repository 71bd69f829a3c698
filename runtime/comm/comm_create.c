/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm_create.c - making and freeing communicators (MPI-3.1 6.4):
 * MPI_Comm_dup, MPI_Comm_split, MPI_Comm_free.
 *
 * A new communicator is its group (comm/group.c: the members' world
 * ranks, plus the world -> rank table the receive path reads to fill
 * MPI_SOURCE) and a fresh context pair: `context` for the program's
 * messages and `context + 1` for the library's own (pt2pt/internal.h).
 * Messages match only within one context, so traffic on two
 * communicators never mixes, whatever the ranks and tags.
 *
 * Contexts come from one counter in the arena, never reused: rank 0 of the
 * parent takes the next pair and tells the others, over the parent's
 * internal context (pt2pt/internal.c), so the exchange can never match a
 * message of the program.  All parts of one MPI_Comm_split share a single
 * pair: their groups are disjoint, so no process can name a process of
 * another part, and no message can cross from one to another.
 *
 * The same process takes the new communicator's collective area
 * (coll/area.c: shared memory for its collectives; one per part of a
 * split), whose index travels with the context; each member drops its
 * reference to it when the communicator object goes.
 *
 * MPI_Comm_split gathers every (color, key) at rank 0, which adds the
 * context and broadcasts the whole table; each process then picks its
 * own members and orders them by (key, rank in the parent).  A process
 * with a bad argument (a negative color, a NULL newcomm) still takes part
 * in the exchange, in no part, before it raises the error, so that under
 * an error handler that returns the other processes are not left
 * waiting.  MPI_Comm_create and MPI_Comm_split_type are splits too, and
 * MPI_Comm_create_group builds on shmpi_comm_make (comm_subset.c).
 *
 * A duplicate is made in two steps: shmpi_comm_like makes the object
 * (the parent's groups) and shmpi_comm_open gives it the ids the
 * exchange agreed on (context, area; an intercommunicator's local
 * intracommunicator too), so that MPI_Comm_idup (comm_idup.c) can make
 * the object at its call and open it when its schedule has the ids.  On
 * an intercommunicator the exchange, and the split, go through the two
 * groups' leaders (intercomm.c, intercomm_split.c).
 *
 * MPI_Comm_dup copies the attributes, MPI_Comm_free deletes them first
 * (comm_attr.c).
 *
 * MPI_Comm_free is local.  Operations still pending on a freed
 * communicator complete normally (6.4.3): the object is reference counted
 * (the program's handle, plus library objects that call
 * shmpi_core_comm_retain), and even when the count falls to zero it stays
 * allocated, retired, while a receive posted on it waits in the pt2pt
 * engine (which does not retain communicators yet); a later call that
 * finds it no longer used frees it.  The count is core's
 * (core/objects.c), so that pt2pt and coll, below this room, can hold
 * communicators; what happens at zero is this room's, and MPI_Init hands
 * it to core (shmpi_comm_register_retire).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/fint.h"
#include "core/lock.h"
#include "core/pmpi.h"
#include "pt2pt/internal.h"
#include "pt2pt/pt2pt.h"
#include "comm/topo.h"

SHMPI_WEAK_ALIAS(Comm_dup)
SHMPI_WEAK_ALIAS(Comm_split)
SHMPI_WEAK_ALIAS(Comm_free)

/* ------------------------------------------------------------------ */
/* Contexts and the object                                             */
/* ------------------------------------------------------------------ */

/* Pairs that fit below 2^32 (context + 1 included). */
#define MAX_CONTEXT_PAIRS ((UINT32_MAX - SHMPI_FIRST_FREE_CONTEXT) / 2)

uint32_t shmpi_comm_context_alloc(void)
{
    uint32_t n = atomic_fetch_add_explicit(&shmpi_proc.arena->contexts_used,
                                           1, memory_order_relaxed);
    return n < MAX_CONTEXT_PAIRS ? SHMPI_FIRST_FREE_CONTEXT + 2 * n : 0;
}

static int no_context(MPI_Comm comm, const char *fn)
{
    return shmpi_raise(comm, MPI_ERR_OTHER, fn,
                       "all %u communicator contexts of this job are used",
                       (unsigned)MAX_CONTEXT_PAIRS);
}

int shmpi_comm_new(MPI_Comm parent, struct shmpi_group *group,
                   uint32_t context, MPI_Comm *out)
{
    if (shmpi_p2p_lane_map(context) != MPI_SUCCESS) {
        shmpi_group_release(group);
        return MPI_ERR_NO_MEM;
    }
    struct shmpi_comm *c = malloc(sizeof *c);
    const int *index = shmpi_group_index(group);
    if (!c || !index) {
        free(c);
        shmpi_group_release(group);
        return MPI_ERR_NO_MEM;
    }
    *c = (struct shmpi_comm){
        .magic = SHMPI_MAGIC_COMM, .refs = 1, .rank = group->rank,
        .size = group->size,
        .context = context, .world_ranks = group->ranks, .from_world = index,
        .group = group,
        .errhandler = shmpi_core_errhandler_hold(&parent->errhandler),
        .session = group->session ? group->session : parent->session};
    shmpi_p2p_comm_lane_set(c);
    *out = c;
    return MPI_SUCCESS;
}

static void destroy(struct shmpi_comm *c)
{
    if (c->is_inter) {
        shmpi_group_release(c->remote_group);
        if (c->local) /* not yet opened: none */
            shmpi_core_comm_release(c->local);
    }
    shmpi_coll_detach(c);
    shmpi_p2p_comm_buffer_free(c);
    shmpi_topo_free(c->topo);
    shmpi_core_errhandler_release(c->errhandler);
    shmpi_group_release(c->group);
    free(c);
}

/* Freed communicators that a posted receive still refers to:
   shmpi_proc.comm->retired (comm.h). */

/* The caller holds c's lane (pt2pt/lane.h). */
static int posted_on(const struct shmpi_comm *c)
{
    for (struct shmpi_request *r = shmpi_p2p_lane_of(c->context)->posted.head;
         r; r = r->next)
        if (r->comm == c)
            return 1;
    return 0;
}

/* A retired communicator of lane l that no posted receive refers to
   any more, taken off the list (order does not matter there), or NULL.
   The list is under shmpi_proc.comm->lock; the communicator is freed
   with the lock left, since freeing an intercommunicator releases its
   local communicator, whose last release comes back to retire.
   posted_on reads pt2pt's posted queue under the lane, taken before the
   lock (the order pt2pt keeps: a request released under the lane may
   release the last reference of a communicator and come here).  Here
   the caller may hold another lane (a release under a lane), so lanes
   are only tried (pt2pt/lane.h: never wait for a lane holding one): a
   busy one's communicators wait for the next sweep. */
static struct shmpi_comm *take_dead_in(struct shmpi_comm_state *st,
                                       struct shmpi_lane *l)
{
    struct shmpi_comm_retired *retired = &st->retired;
    struct shmpi_comm *dead = NULL;
    if (!shmpi_p2p_lane_try(l))
        return NULL;
    shmpi_core_lock(&st->lock);
    for (int i = 0; i < retired->n && !dead; i++)
        if (shmpi_p2p_lane_of(retired->comms[i]->context) == l &&
            !posted_on(retired->comms[i])) {
            dead = retired->comms[i];
            retired->comms[i] = retired->comms[--retired->n];
        }
    shmpi_core_unlock(&st->lock);
    shmpi_p2p_lane_leave(l);
    return dead;
}

/* One lane after the other, never two at once (pt2pt/lane.h). */
static struct shmpi_comm *take_dead(struct shmpi_comm_state *st)
{
    struct shmpi_comm *dead = NULL;
    for (uint32_t k = 0; k < shmpi_p2p_nlanes() && !dead; k++)
        dead = take_dead_in(st, &shmpi_proc.pt2pt->lanes[k]);
    return dead;
}

static void sweep_retired(void)
{
    struct shmpi_comm *c;
    while ((c = take_dead(shmpi_proc.comm)))
        destroy(c);
}

/* The last reference went (core/objects.c calls this, registered by
   shmpi_comm_init_predefined): free c, or keep it until no posted receive
   refers to it. */
static void retire(struct shmpi_comm *c)
{
    struct shmpi_comm_state *st = shmpi_proc.comm;
    struct shmpi_comm_retired *retired = &st->retired;
    sweep_retired();
    /* tried, as in take_dead_in: a lane another thread holds may have a
       receive on c posted, so c is retired until a later sweep */
    struct shmpi_lane *l = shmpi_p2p_lane_of(c->context);
    int posted = 1;
    if (shmpi_p2p_lane_try(l)) {
        posted = posted_on(c);
        shmpi_p2p_lane_leave(l);
    }
    if (!posted) {
        destroy(c);
        return;
    }
    shmpi_core_lock(&st->lock);
    if (retired->n == retired->cap) {
        int cap = retired->cap ? 2 * retired->cap : 8;
        struct shmpi_comm **grown =
            realloc(retired->comms, (size_t)cap * sizeof *grown);
        if (grown) {
            retired->comms = grown;
            retired->cap = cap;
        }
    }
    /* without memory, c stays allocated for good: a small leak, no
       crash */
    if (retired->n < retired->cap)
        retired->comms[retired->n++] = c;
    shmpi_core_unlock(&st->lock);
}

void shmpi_comm_register_retire(void)
{
    shmpi_core_comm_on_last_release(retire);
}

/* ------------------------------------------------------------------ */
/* MPI_Comm_dup                                                        */
/* ------------------------------------------------------------------ */

/* Give a new communicator its collective area (coll/area.c); frees it
   when this process cannot. */
static int attach_area(MPI_Comm parent, MPI_Comm c, uint32_t area,
                       const char *fn)
{
    if (shmpi_coll_attach(c, area) == MPI_SUCCESS)
        return MPI_SUCCESS;
    destroy(c);
    return shmpi_comm_raise_open(parent, MPI_ERR_NO_MEM, fn);
}

int shmpi_comm_make(MPI_Comm parent, struct shmpi_group *group,
                    uint32_t context, uint32_t area, MPI_Comm *out,
                    const char *fn)
{
    if (context == 0) {
        shmpi_coll_area_drop(area);
        if (group)
            shmpi_group_release(group);
        return no_context(parent, fn);
    }
    sweep_retired();
    MPI_Comm c;
    if (!group || shmpi_comm_new(parent, group, context, &c) != MPI_SUCCESS) {
        shmpi_coll_area_drop(area);
        return shmpi_comm_raise_open(parent, MPI_ERR_NO_MEM, fn);
    }
    int rc = attach_area(parent, c, area, fn);
    if (rc == MPI_SUCCESS) {
        *out = c;
        shmpi_comm_handed(c, fn);
    }
    return rc;
}

int shmpi_comm_like(MPI_Comm comm, MPI_Comm *out)
{
    struct shmpi_group *g = shmpi_comm_get_group(comm);
    if (!comm->is_inter)
        return g ? shmpi_comm_new(comm, g, 0, out) : MPI_ERR_NO_MEM;
    shmpi_group_retain(comm->remote_group);
    return shmpi_comm_inter_new(comm, g, comm->remote_group, out);
}

/* An intercommunicator's local intracommunicator: its group, on a
   context of its own, with the collective area. */
static int open_local(MPI_Comm c, uint32_t context, uint32_t area)
{
    shmpi_group_retain(c->group);
    if (shmpi_comm_new(c, c->group, context, &c->local) != MPI_SUCCESS) {
        shmpi_coll_area_drop(area);
        return MPI_ERR_NO_MEM;
    }
    if (shmpi_coll_attach(c->local, area) == MPI_SUCCESS)
        return MPI_SUCCESS;
    destroy(c->local);
    c->local = NULL;
    return MPI_ERR_NO_MEM;
}

/* MPI_T's events of a communicator (tool/event.c calls their callbacks
   now). */
static __attribute__((noinline, cold)) void
raise_comm(enum shmpi_core_event kind, MPI_Comm c)
{
    struct shmpi_core_event_comm e = {.context = c->context,
                                      .size = c->size};
    shmpi_core_event(kind, &e);
}

int shmpi_comm_open(MPI_Comm c, const struct shmpi_comm_ids *ids)
{
    sweep_retired();
    if (ids->context == 0 || (c->is_inter && ids->local_context == 0)) {
        shmpi_coll_area_drop(ids->area);
        return MPI_ERR_OTHER;
    }
    if (shmpi_p2p_lane_map(ids->context) != MPI_SUCCESS) {
        shmpi_coll_area_drop(ids->area);
        return MPI_ERR_NO_MEM;
    }
    c->context = ids->context;
    shmpi_p2p_comm_lane_set(c);
    int rc = c->is_inter ? open_local(c, ids->local_context, ids->area)
                         : shmpi_coll_attach(c, ids->area);
    if (rc == MPI_SUCCESS &&
        shmpi_core_watching(SHMPI_WATCH_EVENT(SHMPI_EVENT_COMM_CREATED)))
        raise_comm(SHMPI_EVENT_COMM_CREATED, c);
    return rc;
}

int shmpi_comm_raise_open(MPI_Comm parent, int rc, const char *fn)
{
    if (rc == MPI_ERR_OTHER)
        return no_context(parent, fn);
    /* the reason the area or the lane gave, when one was what failed */
    const char *why = shmpi_proc.open_why;
    char line[sizeof shmpi_proc.open_why];
    snprintf(line, sizeof line, "%s",
             why[0] ? why : "no memory for a new communicator");
    shmpi_proc.open_why[0] = 0;
    return shmpi_raise(parent, rc, fn, "%s", line);
}

void shmpi_comm_dup_ids(MPI_Comm comm, struct shmpi_comm_ids *ids)
{
    *ids = (struct shmpi_comm_ids){0, SHMPI_COLL_NO_AREA, 0};
    if (comm->rank != 0)
        return;
    if (!comm->is_inter) {
        if ((ids->context = shmpi_comm_context_alloc()) != 0)
            ids->area = shmpi_coll_area_take(comm->size);
        return;
    }
    if (shmpi_comm_inter_first(comm))
        ids->context = shmpi_comm_context_alloc();
    if ((ids->local_context = shmpi_comm_context_alloc()) != 0)
        ids->area = shmpi_coll_area_take(comm->size);
}

int shmpi_comm_dup(MPI_Comm comm, MPI_Comm *newcomm, const char *fn)
{
    struct shmpi_comm_ids ids;
    shmpi_comm_dup_ids(comm, &ids);
    int rc = comm->is_inter
                 ? shmpi_comm_inter_agree(comm, &ids, fn)
                 : shmpi_p2p_internal_bcast(comm, &ids, sizeof ids, 0,
                                            SHMPI_TAG_CONTEXT, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!newcomm) {
        shmpi_coll_area_drop(ids.area);
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
    }
    MPI_Comm c;
    if (shmpi_comm_like(comm, &c) != MPI_SUCCESS) {
        shmpi_coll_area_drop(ids.area);
        return shmpi_comm_raise_open(comm, MPI_ERR_NO_MEM, fn);
    }
    if ((rc = shmpi_comm_open(c, &ids)) != MPI_SUCCESS) {
        shmpi_core_comm_release(c);
        return shmpi_comm_raise_open(comm, rc, fn);
    }
    if (comm->topo && !(c->topo = shmpi_topo_copy(comm->topo))) {
        shmpi_core_comm_release(c);
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for the communicator's topology");
    }
    if ((rc = shmpi_comm_copy_attrs(comm, c, fn)) != MPI_SUCCESS) {
        shmpi_core_comm_release(c);
        return rc;
    }
    *newcomm = c;
    return MPI_SUCCESS;
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    static const char *fn = "MPI_Comm_dup";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    int rc = shmpi_comm_dup(comm, newcomm, fn);
    if (rc == MPI_SUCCESS) /* not in shmpi_comm_dup: windows dup too */
        shmpi_comm_handed(*newcomm, fn);
    return rc;
}

/* ------------------------------------------------------------------ */
/* MPI_Comm_split                                                      */
/* ------------------------------------------------------------------ */

struct member {
    int key;
    int rank;                  /* in the parent */
};

static int by_key_then_rank(const void *a, const void *b)
{
    const struct member *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/*
 * The split table (comm.h): table[0] holds the context (a uint32_t),
 * then the color, key and collective area of each parent rank.  Rank 0
 * gathers, takes a context if any color is defined and an area for each
 * color of more than one process, and broadcasts.
 */
#define COLOR(r) SHMPI_SPLIT_COLOR(r)
#define KEY(r) SHMPI_SPLIT_KEY(r)
#define AREA(r) SHMPI_SPLIT_AREA(r)

void shmpi_comm_split_areas(int size, int *table, uint32_t context)
{
    for (int r = 0; r < size; r++) {
        int color = table[COLOR(r)], first = r, members = 0;
        for (int q = 0; q < r && first == r; q++)
            if (table[COLOR(q)] == color)
                first = q;
        if (first < r) {
            table[AREA(r)] = table[AREA(first)];
            continue;
        }
        for (int q = r; q < size; q++)
            members += table[COLOR(q)] == color;
        table[AREA(r)] = (int)(color == MPI_UNDEFINED || context == 0
                                   ? SHMPI_COLL_NO_AREA
                                   : shmpi_coll_area_take(members));
    }
}

int shmpi_comm_split_gather(MPI_Comm comm, int color, int key, int *table,
                            const char *fn)
{
    int mine[2] = {color, key};
    if (comm->rank != 0)
        return shmpi_p2p_internal_send(comm, mine, sizeof mine, 0,
                                       SHMPI_TAG_SPLIT_GATHER, fn);
    table[COLOR(0)] = color;
    table[KEY(0)] = key;
    int rc = MPI_SUCCESS;
    for (int r = 1; r < comm->size && rc == MPI_SUCCESS; r++)
        rc = shmpi_p2p_internal_recv(comm, &table[COLOR(r)], 2 * sizeof(int), r,
                                     SHMPI_TAG_SPLIT_GATHER, fn);
    return rc;
}

int shmpi_comm_split_any(int size, const int *table)
{
    for (int r = 0; r < size; r++)
        if (table[COLOR(r)] != MPI_UNDEFINED)
            return 1;
    return 0;
}

static int exchange_colors(MPI_Comm comm, int color, int key, int *table,
                           const char *fn)
{
    int rc = shmpi_comm_split_gather(comm, color, key, table, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm->rank == 0) {
        uint32_t context = shmpi_comm_split_any(comm->size, table)
                               ? shmpi_comm_context_alloc() : 0;
        memcpy(&table[0], &context, sizeof context);
        shmpi_comm_split_areas(comm->size, table, context);
    }
    return shmpi_p2p_internal_bcast(comm, table,
                                    (1 + 3 * comm->size) * (int)sizeof(int), 0,
                                    SHMPI_TAG_SPLIT_TABLE, fn);
}

struct shmpi_group *shmpi_comm_split_group(MPI_Comm comm, int remote, int n,
                                           const int *table, int color)
{
    struct member *m = malloc((size_t)n * sizeof *m);
    if (!m)
        return NULL;
    int members = 0;
    for (int r = 0; r < n; r++)
        if (table[COLOR(r)] == color)
            m[members++] = (struct member){table[KEY(r)], r};
    qsort(m, (size_t)members, sizeof *m, by_key_then_rank);
    struct shmpi_group *g = shmpi_group_alloc(members);
    if (g) {
        for (int i = 0; i < members; i++)
            g->ranks[i] = remote ? shmpi_comm_peer_to_world(comm, m[i].rank)
                                 : shmpi_comm_to_world(comm, m[i].rank);
        shmpi_group_finish(g);
    }
    free(m);
    return g;
}

int shmpi_comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm,
                     const char *fn)
{
    if (comm->is_inter)
        return shmpi_comm_inter_split(comm, color, key, newcomm, fn);
    int bad_color = color < 0 && color != MPI_UNDEFINED;
    int *table = malloc((1 + 3 * (size_t)comm->size) * sizeof *table);
    if (!table)
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for the colors of %d processes",
                           comm->size);
    /* a process that cannot take its communicator is in none */
    int mine = bad_color || !newcomm ? MPI_UNDEFINED : color;
    int rc = exchange_colors(comm, mine, key, table, fn);
    if (rc != MPI_SUCCESS)
        goto out;
    if (bad_color) {
        rc = shmpi_raise(comm, MPI_ERR_ARG, fn,
                         "color %d is negative and not MPI_UNDEFINED",
                         color);
        goto out;
    }
    if (!newcomm) {
        rc = shmpi_raise(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
        goto out;
    }
    if (color == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;
        goto out;
    }
    uint32_t context, area = (uint32_t)table[AREA(comm->rank)];
    memcpy(&context, &table[0], sizeof context);
    struct shmpi_group *g =
        shmpi_comm_split_group(comm, 0, comm->size, table, color);
    rc = shmpi_comm_make(comm, g, context, area, newcomm, fn);
out:
    free(table);
    return rc;
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    static const char *fn = "MPI_Comm_split";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    return shmpi_comm_split(comm, color, key, newcomm, fn);
}

/* ------------------------------------------------------------------ */
/* MPI_Comm_free                                                       */
/* ------------------------------------------------------------------ */

int PMPI_Comm_free(MPI_Comm *comm)
{
    static const char *fn = "MPI_Comm_free";
    SHMPI_REQUIRE_INIT(fn);
    if (!comm)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "comm is NULL");
    MPI_Comm c = *comm;
    if (!shmpi_comm_ok(c))
        return shmpi_raise(c, MPI_ERR_COMM, fn, "*comm is %s",
                           c == MPI_COMM_NULL ? "MPI_COMM_NULL"
                                              : "not a valid communicator");
    if (c == MPI_COMM_WORLD || c == MPI_COMM_SELF)
        return shmpi_raise(c, MPI_ERR_COMM, fn, "%s cannot be freed",
                           c->name);
    if (shmpi_core_watching(SHMPI_WATCH_EVENT(SHMPI_EVENT_COMM_FREED)))
        raise_comm(SHMPI_EVENT_COMM_FREED, c);
    if (__builtin_expect(shmpi_core_checking(), 0))
        shmpi_core_live_freed(SHMPI_LIVE_COMM, c);
    int rc = shmpi_comm_delete_attrs(c, fn); /* while c is still valid */
    shmpi_fint_drop(SHMPI_FINT_COMM, &c->fint);
    c->magic = 0; /* the handle is dead for the program from now on */
    shmpi_core_comm_release(c);
    *comm = MPI_COMM_NULL;
    return rc;
}
