/*
 * comm_create.c - making and freeing communicators (MPI-3.1 6.4):
 * MPI_Comm_dup, MPI_Comm_split, MPI_Comm_free, MPI_Comm_compare.
 *
 * A new communicator is its group (comm/group.c: the members' world
 * ranks, plus the world -> rank table the receive path reads to fill
 * MPI_SOURCE) and a fresh context pair: `context` for the program's
 * messages and `context + 1` for the library's own (comm.h).  Messages
 * match only within one context, so traffic on two communicators never
 * mixes, whatever the ranks and tags.
 *
 * Contexts come from one counter in the arena, never reused: rank 0 of the
 * parent takes the next pair and tells the others, over the parent's
 * internal context (internal_p2p.c), so the exchange can never match a
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
 * MPI_Comm_dup copies the attributes, MPI_Comm_free deletes them first
 * (comm_attr.c).
 *
 * MPI_Comm_free is local.  Operations still pending on a freed
 * communicator complete normally (6.4.3): the object is reference counted
 * (the program's handle, plus library objects that call
 * shmpi_comm_retain), and even when the count falls to zero it stays
 * allocated, retired, while a receive posted on it waits in the pt2pt
 * engine (which does not retain communicators yet); a later call that
 * finds it no longer used frees it.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "pt2pt/pt2pt.h"
#include "topo/topo.h"

SHMPI_WEAK_ALIAS(Comm_dup)
SHMPI_WEAK_ALIAS(Comm_split)
SHMPI_WEAK_ALIAS(Comm_free)
SHMPI_WEAK_ALIAS(Comm_compare)

/* ------------------------------------------------------------------ */
/* Contexts and the object                                             */
/* ------------------------------------------------------------------ */

/* Pairs that fit below 2^32 (context + 1 included). */
#define MAX_CONTEXT_PAIRS ((UINT32_MAX - SHMPI_FIRST_FREE_CONTEXT) / 2)

uint32_t shmpi_context_alloc(void)
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
        .group = group, .errhandler = parent->errhandler};
    shmpi_errhandler_retain(c->errhandler);
    *out = c;
    return MPI_SUCCESS;
}

static void destroy(struct shmpi_comm *c)
{
    shmpi_coll_detach(c);
    shmpi_topo_free(c->topo);
    shmpi_errhandler_release(c->errhandler);
    shmpi_group_release(c->group);
    free(c);
}

/* Freed communicators that a posted receive still refers to. */
static struct retired {
    struct shmpi_comm **comms;
    int n, cap;
} retired;

static int posted_on(const struct shmpi_comm *c)
{
    for (struct shmpi_request *r = shmpi_proc.pt2pt->posted.head; r;
         r = r->next)
        if (r->comm == c)
            return 1;
    return 0;
}

static void sweep_retired(void)
{
    int kept = 0;
    for (int i = 0; i < retired.n; i++) {
        if (posted_on(retired.comms[i]))
            retired.comms[kept++] = retired.comms[i];
        else
            destroy(retired.comms[i]);
    }
    retired.n = kept;
}

void shmpi_comm_retain(MPI_Comm c)
{
    if (c != MPI_COMM_WORLD && c != MPI_COMM_SELF)
        c->refs++;
}

/* The last reference went: free c, or keep it until no posted receive
   refers to it. */
static void retire(struct shmpi_comm *c)
{
    sweep_retired();
    if (!posted_on(c)) {
        destroy(c);
        return;
    }
    if (retired.n == retired.cap) {
        int cap = retired.cap ? 2 * retired.cap : 8;
        struct shmpi_comm **grown =
            realloc(retired.comms, (size_t)cap * sizeof *grown);
        if (!grown)
            return; /* keep it allocated for good: a small leak, no crash */
        retired.comms = grown;
        retired.cap = cap;
    }
    retired.comms[retired.n++] = c;
}

void shmpi_comm_release(MPI_Comm c)
{
    if (c != MPI_COMM_WORLD && c != MPI_COMM_SELF && --c->refs == 0)
        retire(c);
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
    return shmpi_raise(parent, MPI_ERR_NO_MEM, fn,
                       "no memory for a communicator's collective state");
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
        return shmpi_raise(parent, MPI_ERR_NO_MEM, fn,
                           "no memory for a new communicator");
    }
    int rc = attach_area(parent, c, area, fn);
    if (rc == MPI_SUCCESS)
        *out = c;
    return rc;
}

int shmpi_comm_dup(MPI_Comm comm, MPI_Comm *newcomm, const char *fn)
{
    /* the new context and collective area, chosen by rank 0 */
    uint32_t made[2] = {0, SHMPI_COLL_NO_AREA};
    if (comm->rank == 0 && (made[0] = shmpi_context_alloc()) != 0)
        made[1] = shmpi_coll_area_take(comm->size);
    int rc = shmpi_internal_bcast(comm, made, sizeof made, 0,
                                  SHMPI_TAG_CONTEXT, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!newcomm) {
        shmpi_coll_area_drop(made[1]);
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
    }
    MPI_Comm c;
    rc = shmpi_comm_make(comm, shmpi_comm_get_group(comm), made[0], made[1],
                         &c, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm->topo && !(c->topo = shmpi_topo_copy(comm->topo))) {
        shmpi_comm_release(c);
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for the communicator's topology");
    }
    if ((rc = shmpi_comm_copy_attrs(comm, c, fn)) != MPI_SUCCESS) {
        shmpi_comm_release(c);
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
    return shmpi_comm_dup(comm, newcomm, fn);
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
 * table[0] holds the context (a uint32_t), table[1 + 3r], table[2 + 3r]
 * and table[3 + 3r] the color, key and collective area of parent rank r.
 * Rank 0 gathers, takes a context if any color is defined and an area
 * for each color of more than one process, and broadcasts.
 */
#define COLOR(r) (1 + 3 * (r))
#define KEY(r) (2 + 3 * (r))
#define AREA(r) (3 + 3 * (r))

/* One collective area per part of the split, in table[AREA(r)]; none
   without a context, when the split fails anyway. */
static void take_areas(int size, int *table, uint32_t context)
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
static int exchange_colors(MPI_Comm comm, int color, int key, int *table,
                           const char *fn)
{
    int mine[2] = {color, key};
    int rc;
    if (comm->rank != 0) {
        rc = shmpi_internal_send(comm, mine, sizeof mine, 0,
                                 SHMPI_TAG_SPLIT_GATHER, fn);
    } else {
        table[COLOR(0)] = color;
        table[KEY(0)] = key;
        int any = color != MPI_UNDEFINED;
        rc = MPI_SUCCESS;
        for (int r = 1; r < comm->size && rc == MPI_SUCCESS; r++) {
            rc = shmpi_internal_recv(comm, &table[COLOR(r)],
                                     2 * sizeof(int), r,
                                     SHMPI_TAG_SPLIT_GATHER, fn);
            any |= table[COLOR(r)] != MPI_UNDEFINED;
        }
        uint32_t context = any ? shmpi_context_alloc() : 0;
        memcpy(&table[0], &context, sizeof context);
        take_areas(comm->size, table, context);
    }
    if (rc != MPI_SUCCESS)
        return rc;
    return shmpi_internal_bcast(comm, table,
                                (1 + 3 * comm->size) * (int)sizeof(int), 0,
                                SHMPI_TAG_SPLIT_TABLE, fn);
}

/* The group of the processes that gave `color`, in (key, rank) order. */
static struct shmpi_group *split_group(MPI_Comm comm, const int *table,
                                       int color)
{
    struct member *m = malloc((size_t)comm->size * sizeof *m);
    if (!m)
        return NULL;
    int n = 0;
    for (int r = 0; r < comm->size; r++)
        if (table[COLOR(r)] == color)
            m[n++] = (struct member){table[KEY(r)], r};
    qsort(m, (size_t)n, sizeof *m, by_key_then_rank);
    struct shmpi_group *g = shmpi_group_alloc(n);
    if (g) {
        for (int i = 0; i < n; i++)
            g->ranks[i] = shmpi_comm_to_world(comm, m[i].rank);
        shmpi_group_finish(g);
    }
    free(m);
    return g;
}

int shmpi_comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm,
                     const char *fn)
{
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
    rc = shmpi_comm_make(comm, split_group(comm, table, color), context,
                         area, newcomm, fn);
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
/* MPI_Comm_free, MPI_Comm_compare                                     */
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
    int rc = shmpi_comm_delete_attrs(c, fn); /* while c is still valid */
    c->magic = 0; /* the handle is dead for the program from now on */
    shmpi_comm_release(c);
    *comm = MPI_COMM_NULL;
    return rc;
}

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    static const char *fn = "MPI_Comm_compare";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm1))
        return shmpi_raise(comm1, MPI_ERR_COMM, fn,
                           "comm1 is not a valid communicator");
    if (!shmpi_comm_ok(comm2))
        return shmpi_raise(comm1, MPI_ERR_COMM, fn,
                           "comm2 is not a valid communicator");
    if (!result)
        return shmpi_raise(comm1, MPI_ERR_ARG, fn, "result is NULL");
    if (comm1 == comm2) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (comm1->size != comm2->size) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int same_order = 1, same_members = 1;
    for (int i = 0; i < comm1->size && same_members; i++) {
        int w = shmpi_comm_to_world(comm1, i);
        same_order &= shmpi_comm_to_world(comm2, i) == w;
        same_members = shmpi_comm_from_world(comm2, w) != MPI_UNDEFINED;
    }
    *result = !same_members ? MPI_UNEQUAL
              : same_order  ? MPI_CONGRUENT
                            : MPI_SIMILAR;
    return MPI_SUCCESS;
}
