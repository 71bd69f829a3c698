/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm_rdv.c - communicators made from groups alone (MPI-4.0 7.4.2,
 * 7.6.2): MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups.
 *
 * There is no parent communicator to exchange a context over, so the
 * members meet in the arena: a table of rendezvous slots
 * (shm_arena/arena.h, struct shmpi_arena_rdv) under one spin lock.  A
 * creation in progress is a slot named by its string tag and the world
 * rank of its first member (its key also hashes the members, so that a
 * member called with another group finds another slot and waits there
 * instead of joining a communicator it was not given).  The first
 * member to arrive takes a slot, the job's next contexts (the arena's
 * counter, comm_create.c) and the collective areas, and writes them
 * there; each member copies them and counts itself in; the last one
 * frees the slot and moves its generation on, which ends the wait of
 * the others.  So no process leaves before all have arrived, and a slot
 * never holds two creations: the same tag and group used again can only
 * find a slot made after the previous round ended.
 *
 * Two creations at once never cross: 7.4.2 asks that concurrent
 * creations a process takes part in have different tags, so two live
 * slots with the same tag have disjoint groups, hence different first
 * members; and for different tags the tag compares.
 *
 * Memory ordering: every field of the table but gen is read and written
 * only with rdv_lock held.  Taking the lock is a CAS 0 -> 1 with
 * acquire, leaving it a store of 0 with release, so each holder sees all
 * that the previous holders wrote (the lock orders the slot's history).
 * gen is the one word read outside the lock: the last member stores
 * gen + 1 with release, still holding the lock, and the waiters load it
 * with acquire; a waiter reads nothing else of the slot after it left
 * the lock (it copied the ids while holding it), so gen only has to say
 * "your round is over", and any change does (only the end of the round
 * the waiter is in can change it first).  The last member then rings
 * every member's doorbell (core/wait.h), after its release store.
 *
 * The table has SHMPI_ARENA_RDV_SLOTS slots; a member that finds none
 * free waits for one.  Each live slot has at least one member waiting in
 * it, so the table can only stay full when that many creations are
 * missing members at once - more than a job of that many processes can
 * have while each process takes part in one at a time.
 */
#include <sched.h>
#include <string.h>

#include "coll/coll.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/info.h"
#include "core/pmpi.h"
#include "core/wait.h"
#include "pt2pt/progress.h"

SHMPI_WEAK_ALIAS(Comm_create_from_group)
SHMPI_WEAK_ALIAS(Intercomm_create_from_groups)

_Static_assert(SHMPI_ARENA_RDV_TAG == MPI_MAX_STRINGTAG_LEN,
               "a slot holds any tag");

/* One creation as its members see it: tag, members (the groups in the
   order all of them agree on), and what the first takes. */
struct rdv {
    const char *tag;
    const struct shmpi_group *g[2]; /* g[1] NULL: intracommunicator */
    uint64_t key;
    int32_t first;
    uint32_t members;
    uint32_t ids[SHMPI_ARENA_RDV_IDS];
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static void rdv_name(struct rdv *r)
{
    uint64_t h = fnv(14695981039346656037ull, r->tag, strlen(r->tag));
    r->members = 0;
    for (int k = 0; k < 2 && r->g[k]; k++) {
        h = fnv(h, r->g[k]->ranks, (size_t)r->g[k]->size * sizeof(int));
        r->members += (uint32_t)r->g[k]->size;
    }
    r->key = h | 1; /* 0 is a free slot */
    r->first = r->g[0]->ranks[0];
}

static void rdv_lock(struct shmpi_arena_header *a)
{
    uint32_t free_word = 0;
    while (!atomic_compare_exchange_weak_explicit(&a->rdv_lock, &free_word,
                                                  1, memory_order_acquire,
                                                  memory_order_relaxed)) {
        free_word = 0;
        shmpi_cpu_relax();
        shmpi_core_poll_idle();
    }
}

static void rdv_unlock(struct shmpi_arena_header *a)
{
    atomic_store_explicit(&a->rdv_lock, 0, memory_order_release);
}

static int same(const struct shmpi_arena_rdv *s, const struct rdv *r)
{
    return s->key == r->key && s->first == r->first &&
           s->members == r->members && strcmp(s->tag, r->tag) == 0;
}

/* The ids the first member takes: the context, then per group its area
   (and, for an intercommunicator, its local intracommunicator's
   context). */
static void take_ids(struct rdv *r, uint32_t *ids)
{
    ids[0] = shmpi_comm_context_alloc();
    if (!r->g[1]) {
        ids[1] = shmpi_coll_area_take(r->g[0]->size);
        return;
    }
    for (int k = 0; k < 2; k++) {
        ids[1 + 2 * k] = shmpi_comm_context_alloc();
        ids[2 + 2 * k] = shmpi_coll_area_take(r->g[k]->size);
    }
}

/* Under the lock: this member's slot (found or made), or NULL if the
   table is full. */
static struct shmpi_arena_rdv *find_or_make(struct shmpi_arena_header *a,
                                            struct rdv *r)
{
    struct shmpi_arena_rdv *free_slot = NULL;
    for (int i = 0; i < SHMPI_ARENA_RDV_SLOTS; i++) {
        struct shmpi_arena_rdv *s = &a->rdv[i];
        if (s->key == 0 && !free_slot)
            free_slot = s;
        else if (s->key != 0 && same(s, r))
            return s;
    }
    if (free_slot) {
        free_slot->key = r->key;
        free_slot->first = r->first;
        free_slot->members = r->members;
        free_slot->joined = 0;
        strcpy(free_slot->tag, r->tag);
        take_ids(r, free_slot->ids);
    }
    return free_slot;
}

struct round {
    struct shmpi_arena_rdv *slot;
    uint32_t gen;
};

static int round_over(void *arg)
{
    struct round *w = arg;
    shmpi_p2p_progress(); /* a rank waiting here still serves pt2pt */
    return atomic_load_explicit(&w->slot->gen, memory_order_acquire) !=
           w->gen;
}

static void ring_members(const struct rdv *r)
{
    for (int k = 0; k < 2 && r->g[k]; k++)
        for (int i = 0; i < r->g[k]->size; i++)
            if (r->g[k]->ranks[i] != shmpi_proc.rank)
                shmpi_core_doorbell_ring(r->g[k]->ranks[i]);
}

/* Under the lock: count this member in; returns 1 if it was the last. */
static int join(struct shmpi_arena_rdv *s, struct rdv *r, struct round *w)
{
    memcpy(r->ids, s->ids, sizeof r->ids);
    w->slot = s;
    w->gen = atomic_load_explicit(&s->gen, memory_order_relaxed);
    if (++s->joined < s->members)
        return 0;
    s->key = 0;
    atomic_store_explicit(&s->gen, w->gen + 1, memory_order_release);
    return 1;
}

/* Meet the other members of r; r->ids are then the creation's. */
static void meet(struct rdv *r)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    struct shmpi_arena_rdv *s;
    for (;;) {
        rdv_lock(a);
        if ((s = find_or_make(a, r)))
            break;
        rdv_unlock(a);
        shmpi_p2p_progress();
        sched_yield();
    }
    struct round w;
    int last = join(s, r, &w);
    rdv_unlock(a);
    if (last)
        ring_members(r);
    else
        shmpi_core_wait_until(round_over, &w);
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */
/* ------------------------------------------------------------------ */

/* A handler a communicator may have: a predefined one or one made by
   MPI_Comm_create_errhandler; errors of a bad one go to
   MPI_COMM_WORLD's handler. */
static int bad_handler(MPI_Errhandler eh, const char *fn)
{
    if (shmpi_errhandler_ok(eh) && eh->kind != SHMPI_EH_WIN_FN &&
        eh->kind != SHMPI_EH_SESSION_FN)
        return MPI_SUCCESS;
    return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "%s",
                       shmpi_errhandler_ok(eh)
                           ? "errhandler was not made for communicators"
                           : "errhandler is not a valid error handler");
}

static int check_common(const char *tag, MPI_Info info, MPI_Errhandler eh,
                        void *out, const char *fn)
{
    int rc = bad_handler(eh, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!tag)
        return shmpi_raise_handler(eh, MPI_ERR_ARG, fn, "stringtag is NULL");
    if (strnlen(tag, MPI_MAX_STRINGTAG_LEN) >= MPI_MAX_STRINGTAG_LEN)
        return shmpi_raise_handler(eh, MPI_ERR_ARG, fn,
                                   "stringtag is longer than "
                                   "MPI_MAX_STRINGTAG_LEN - 1 = %d "
                                   "characters", MPI_MAX_STRINGTAG_LEN - 1);
    if (info != MPI_INFO_NULL && !shmpi_info_ok(info))
        return shmpi_raise_handler(eh, MPI_ERR_INFO, fn,
                                   "info is not a valid info object");
    if (!out)
        return shmpi_raise_handler(eh, MPI_ERR_ARG, fn, "the output "
                                   "communicator pointer is NULL");
    return MPI_SUCCESS;
}

static int check_group(MPI_Group g, const char *name, MPI_Errhandler eh,
                       const char *fn)
{
    if (!shmpi_group_ok(g))
        return shmpi_raise_handler(eh, MPI_ERR_GROUP, fn,
                                   "%s is not a valid group", name);
    if (g->size == 0)
        return shmpi_raise_handler(eh, MPI_ERR_GROUP, fn, "%s is empty",
                                   name);
    return MPI_SUCCESS;
}

/* A communicator of the creation's results; c holds parent
   MPI_COMM_SELF's handler until it takes eh. */
static int open_comm(MPI_Comm c, MPI_Errhandler eh,
                     const struct shmpi_comm_ids *ids, MPI_Comm *out,
                     const char *fn)
{
    shmpi_core_errhandler_swap(&c->errhandler, eh);
    int rc = shmpi_comm_open(c, ids);
    if (rc != MPI_SUCCESS) {
        shmpi_core_comm_release(c);
        return shmpi_raise_handler(eh, rc, fn, "%s",
                                   rc == MPI_ERR_OTHER
                                       ? "all communicator contexts of "
                                         "this job are used"
                                       : "no memory for a new "
                                         "communicator");
    }
    *out = c;
    shmpi_comm_handed(c, fn);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* MPI_Comm_create_from_group                                          */
/* ------------------------------------------------------------------ */

int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag,
                                MPI_Info info, MPI_Errhandler errhandler,
                                MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create_from_group";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_common(stringtag, info, errhandler, newcomm, fn);
    if (rc == MPI_SUCCESS)
        rc = check_group(group, "group", errhandler, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (group->rank == MPI_UNDEFINED)
        return shmpi_raise_handler(errhandler, MPI_ERR_GROUP, fn,
                                   "the calling process is not in group");
    struct rdv r = {.tag = stringtag, .g = {group, NULL}};
    rdv_name(&r);
    meet(&r);
    struct shmpi_comm_ids ids = {.context = r.ids[0], .area = r.ids[1]};
    MPI_Comm c;
    shmpi_group_retain(group);
    if (shmpi_comm_new(MPI_COMM_SELF, group, 0, &c) != MPI_SUCCESS) {
        shmpi_coll_area_drop(ids.area);
        return shmpi_raise_handler(errhandler, MPI_ERR_NO_MEM, fn,
                                   "no memory for a new communicator");
    }
    return open_comm(c, errhandler, &ids, newcomm, fn);
}

/* ------------------------------------------------------------------ */
/* MPI_Intercomm_create_from_groups                                    */
/* ------------------------------------------------------------------ */

static int check_leader(MPI_Group g, int leader, const char *name,
                        MPI_Errhandler eh, const char *fn)
{
    if (leader >= 0 && leader < g->size)
        return MPI_SUCCESS;
    return shmpi_raise_handler(eh, MPI_ERR_RANK, fn,
                               "%s = %d is not a rank of its group (of %d)",
                               name, leader, g->size);
}

/* The groups of an intercommunicator are disjoint (7.6). */
static int check_disjoint(MPI_Group local, MPI_Group remote,
                          MPI_Errhandler eh, const char *fn)
{
    const int *index = shmpi_group_index(local);
    if (!index)
        return shmpi_raise_handler(eh, MPI_ERR_NO_MEM, fn,
                                   "no memory for a group's index");
    for (int i = 0; i < remote->size; i++)
        if (index[remote->ranks[i]] != MPI_UNDEFINED)
            return shmpi_raise_handler(eh, MPI_ERR_GROUP, fn,
                                       "world rank %d is in both groups",
                                       remote->ranks[i]);
    return MPI_SUCCESS;
}

static int check_inter(MPI_Group local, int local_leader, MPI_Group remote,
                       int remote_leader, MPI_Errhandler eh, const char *fn)
{
    int rc;
    if ((rc = check_group(local, "local_group", eh, fn)) != MPI_SUCCESS ||
        (rc = check_group(remote, "remote_group", eh, fn)) != MPI_SUCCESS ||
        (rc = check_leader(local, local_leader, "local_leader", eh, fn)) !=
            MPI_SUCCESS ||
        (rc = check_leader(remote, remote_leader, "remote_leader", eh,
                           fn)) != MPI_SUCCESS)
        return rc;
    if (local->rank == MPI_UNDEFINED)
        return shmpi_raise_handler(eh, MPI_ERR_GROUP, fn,
                                   "the calling process is not in "
                                   "local_group");
    return check_disjoint(local, remote, eh, fn);
}

int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                      MPI_Group remote_group,
                                      int remote_leader,
                                      const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler,
                                      MPI_Comm *newintercomm)
{
    static const char fn[] = "MPI_Intercomm_create_from_groups";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_common(stringtag, info, errhandler, newintercomm, fn);
    if (rc == MPI_SUCCESS)
        rc = check_inter(local_group, local_leader, remote_group,
                         remote_leader, errhandler, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    /* both sides put the group of the lower leader (world rank) first */
    int mine = local_group->ranks[local_leader] <
                       remote_group->ranks[remote_leader]
                   ? 0
                   : 1;
    struct rdv r = {.tag = stringtag};
    r.g[mine] = local_group;
    r.g[1 - mine] = remote_group;
    rdv_name(&r);
    meet(&r);
    struct shmpi_comm_ids ids = {.context = r.ids[0],
                                 .local_context = r.ids[1 + 2 * mine],
                                 .area = r.ids[2 + 2 * mine]};
    MPI_Comm c;
    shmpi_group_retain(local_group);
    shmpi_group_retain(remote_group);
    if (shmpi_comm_inter_new(MPI_COMM_SELF, local_group, remote_group, &c) !=
        MPI_SUCCESS) {
        shmpi_coll_area_drop(ids.area);
        return shmpi_raise_handler(errhandler, MPI_ERR_NO_MEM, fn,
                                   "no memory for a new communicator");
    }
    return open_comm(c, errhandler, &ids, newintercomm, fn);
}
