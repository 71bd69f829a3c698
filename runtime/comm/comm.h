/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm.h - communicators and groups: MPI_COMM_WORLD and MPI_COMM_SELF,
 * communicators made from them (dup, idup, split, create), the
 * intercommunicators between two groups (intercomm.c), the groups behind
 * them and their attributes.  The library's own messages on a
 * communicator, which communicator creation is written on, are pt2pt's
 * (pt2pt/internal.h).
 */
#ifndef SHMPI_COMM_H
#define SHMPI_COMM_H

#include "core/check.h"
#include "core/live.h"
#include "core/lock_type.h"
#include "core/objects.h"
#include "core/proc.h"

#define SHMPI_FIRST_FREE_CONTEXT 4

/* This rank's communicator state: shmpi_proc.comm, allocated by
   shmpi_comm_init_predefined at MPI_Init and kept until the process
   exits.  Process-private; each member says what guards it under
   MPI_THREAD_MULTIPLE. */
struct shmpi_comm_state {
    /* comm_attr.c: the values the predefined attributes point to.  Set
       at init and then only read, but for lastusedcode, which every
       MPI_Comm_get_attr of it brings up to date - a relaxed atomic
       store, and only when the value changed (MPI_Add_error_class on
       some thread), so that concurrent readers of the unchanged value
       do not write at all.  The program reads them through the pointer
       it got, as plain ints. */
    struct {
        int tag_ub, host, io, wtime_is_global, universe_size, appnum;
        _Atomic int lastusedcode;
    } env;
    /* comm_create.c: under mt, `retired` under this lock (a leaf: a
       communicator taken off the list is freed once it is left). */
    struct shmpi_core_lock lock;
    /* comm_create.c: freed communicators a posted receive still refers
       to; every MPI_Comm_free and communicator creation sweeps it. */
    struct shmpi_comm_retired {
        struct shmpi_comm **comms;
        int n, cap;
    } retired;
};

/* MPI_Init: fills in world for this rank (self needs nothing), makes
   shmpi_proc.comm, and hands core what the last release of a
   communicator does.  0, or -1 if out of memory. */
int shmpi_comm_init_predefined(struct shmpi_proc *p);

/* comm_create.c: a new communicator of the members of `group` (whose
   reference it takes over, released on failure too) on `context`, with
   the error handler of `parent`.  Sets *out, or returns MPI_ERR_NO_MEM
   without raising. */
int shmpi_comm_new(MPI_Comm parent, struct shmpi_group *group,
                   uint32_t context, MPI_Comm *out);

/* comm_create.c: a new communicator of `group` on `context` with the
   collective area `area` (which may be SHMPI_COLL_NO_AREA), taking over
   the caller's references to both (dropped on failure too; group may be
   NULL, from a failed allocation).  Sets *out, or returns an error
   already raised on parent under the name fn. */
int shmpi_comm_make(MPI_Comm parent, struct shmpi_group *group,
                    uint32_t context, uint32_t area, MPI_Comm *out,
                    const char *fn);

/* What a new communicator needs from the exchange that creates it: its
   context and collective area; an intercommunicator's area is that of
   its local intracommunicator, which has a context of its own. */
struct shmpi_comm_ids {
    uint32_t context;
    uint32_t area;             /* SHMPI_COLL_NO_AREA: none */
    uint32_t local_context;    /* intercommunicators only */
};

/* comm_create.c: a new communicator object with comm's group (and, for
   an intercommunicator, its remote group), not usable until
   shmpi_comm_open gives it its ids: what MPI_Comm_dup and MPI_Comm_idup
   make.  MPI_SUCCESS or MPI_ERR_NO_MEM (not raised). */
int shmpi_comm_like(MPI_Comm comm, MPI_Comm *out);
/* comm_create.c: c, from shmpi_comm_like or shmpi_comm_inter_new, takes
   its ids (the area reference included, dropped on failure).
   MPI_SUCCESS, or (not raised; the caller releases c) MPI_ERR_OTHER when
   the job has used every context, MPI_ERR_NO_MEM; shmpi_comm_raise_open
   raises those. */
int shmpi_comm_open(MPI_Comm c, const struct shmpi_comm_ids *ids);
int shmpi_comm_raise_open(MPI_Comm parent, int rc, const char *fn);
/* comm_create.c: the ids of a duplicate of comm, as far as this process
   takes them; the others learn them from it.  Rank 0 of an
   intracommunicator takes them all; on an intercommunicator rank 0 of
   each group takes its local context and area, and the one of the two
   whose group comes first (shmpi_comm_inter_first) the context.  Every
   other field is 0 or SHMPI_COLL_NO_AREA. */
void shmpi_comm_dup_ids(MPI_Comm comm, struct shmpi_comm_ids *ids);

/* comm_create.c: MPI_Comm_dup's work on a valid comm, for the calls that
   duplicate (fn names the one to report errors under).  Collective: the
   process takes part in the exchange before it checks newcomm.  Returns
   MPI_SUCCESS or an error code already raised on comm. */
int shmpi_comm_dup(MPI_Comm comm, MPI_Comm *newcomm, const char *fn);

/* comm_create.c: MPI_Comm_split's work on a valid comm, for the calls
   that split (comm_subset.c); the same contract as shmpi_comm_dup. */
int shmpi_comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm,
                     const char *fn);

/* split_hw.c: the colors of MPI_Comm_split_type's hardware levels.
   HW_GUIDED: this process's instance of the level info's
   "mpi_hw_resource_type" names, or MPI_UNDEFINED (local).  HW_UNGUIDED:
   collective over the intracommunicator comm; *level is the largest
   level that splits comm into strict subsets (-1: none, and *color
   MPI_UNDEFINED), *color this process's instance of it; MPI_SUCCESS or
   an error raised on comm.  The name of a level, for info. */
int shmpi_comm_hw_guided_color(MPI_Info info);
int shmpi_comm_hw_unguided_color(MPI_Comm comm, int *color, int *level,
                                 const char *fn);
const char *shmpi_comm_hw_level_name(int level);

/* comm_attr.c: MPI_Comm_dup's part: newcomm gets what the copy callbacks
   keep of oldcomm's attributes.  On failure newcomm has none again (the
   caller frees it) and the error is raised on oldcomm. */
int shmpi_comm_copy_attrs(MPI_Comm oldcomm, MPI_Comm newcomm,
                          const char *fn);
/* comm_attr.c: every attribute of comm deleted, newest first, through the
   delete callbacks (MPI_Comm_free; MPI_Finalize on MPI_COMM_SELF).  A
   callback's failure is raised on comm once all have run. */
int shmpi_comm_delete_attrs(MPI_Comm comm, const char *fn);

/* comm_create.c: what shmpi_core_comm_release (core/objects.h) does when a
   communicator's last reference goes - free it, or keep it retired while
   a posted receive refers to it - handed to core (MPI_Init). */
void shmpi_comm_register_retire(void);

/*
 * comm_create.c: the steps of MPI_Comm_split, shared with the split of
 * intercommunicators.  A split table has a header int (table[0]: the
 * new context, a uint32_t) and three ints per process of the parent:
 * its color, its key and the collective area of its part.
 */
#define SHMPI_SPLIT_COLOR(r) (1 + 3 * (r))
#define SHMPI_SPLIT_KEY(r) (2 + 3 * (r))
#define SHMPI_SPLIT_AREA(r) (3 + 3 * (r))
/* Every process's (color, key) to rank 0 of comm, into its table. */
int shmpi_comm_split_gather(MPI_Comm comm, int color, int key, int *table,
                            const char *fn);
/* Does any of the `size` processes of table give a color? */
int shmpi_comm_split_any(int size, const int *table);
/* One collective area per part (color) of more than one process, in
   each member's entry; none without a context, when the split fails
   anyway. */
void shmpi_comm_split_areas(int size, int *table, uint32_t context);
/* The group of the processes of table (of n) whose color is `color`,
   ordered by (key, rank); rank r is world rank
   shmpi_comm_peer_to_world(comm, r) if remote, else
   shmpi_comm_to_world(comm, r).  NULL if out of memory. */
struct shmpi_group *shmpi_comm_split_group(MPI_Comm comm, int remote, int n,
                                           const int *table, int color);

/* intercomm.c: an intercommunicator object of the two groups (taking
   over the caller's references, dropped on failure too; either may be
   NULL, from a failed allocation), with parent's error handler, to be
   opened by shmpi_comm_open.  MPI_SUCCESS or MPI_ERR_NO_MEM (not
   raised). */
int shmpi_comm_inter_new(MPI_Comm parent, struct shmpi_group *local,
                         struct shmpi_group *remote, MPI_Comm *out);
/* intercomm.c: does the local group of intercommunicator c come first
   when the two groups are put in one order?  They agree on it without
   talking: the group of the lower world rank among the two leaders
   (rank 0 of each). */
int shmpi_comm_inter_first(MPI_Comm c);
/* intercomm.c: the ids of a new intercommunicator made from
   intercommunicator comm, as the leaders hold them (shmpi_comm_dup_ids'
   rule): the leader of the first group tells the other the context,
   each leader tells its group.  MPI_SUCCESS or an error raised on comm
   under fn. */
int shmpi_comm_inter_agree(MPI_Comm comm, struct shmpi_comm_ids *ids,
                           const char *fn);
/* intercomm_split.c: shmpi_comm_split on an intercommunicator (6.4.2). */
int shmpi_comm_inter_split(MPI_Comm comm, int color, int key,
                           MPI_Comm *newcomm, const char *fn);

/* comm_create.c: a fresh context pair for a new communicator, taken by
   the calling process (the root of the exchange); 0 when all are used. */
uint32_t shmpi_comm_context_alloc(void);

/* group.c */
/* A new group of n members (ranks filled in by the caller, then
   shmpi_group_finish); NULL if out of memory. */
struct shmpi_group *shmpi_group_alloc(int n);
/* Compute the calling process's rank in g. */
void shmpi_group_finish(struct shmpi_group *g);
void shmpi_group_retain(struct shmpi_group *g);
void shmpi_group_release(struct shmpi_group *g);
/* g->index, built on first use (NULL if out of memory). */
const int *shmpi_group_index(struct shmpi_group *g);
/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL for two lists of n distinct
   world ranks each. */
int shmpi_comm_compare_members(int n, const int *a, const int *b);
/* The group of comm, with a new reference for the caller; creates the
   groups of MPI_COMM_WORLD and MPI_COMM_SELF on first use.  NULL if out
   of memory. */
struct shmpi_group *shmpi_comm_get_group(MPI_Comm comm);

/* The check mode's list of objects never freed (core/live.h): the
   program got c, made by fn, as a new handle (c may be MPI_COMM_NULL:
   nothing).  Called by the constructors where they hand the handle
   out, never for the communicators the library makes for itself; one
   predicted branch when the mode is off. */
static inline void shmpi_comm_handed(MPI_Comm c, const char *fn)
{
    if (__builtin_expect(shmpi_core_checking(), 0) && c != MPI_COMM_NULL)
        shmpi_core_live_made(SHMPI_LIVE_COMM, c, fn, c->name);
}
/* The same for a group handle: not MPI_GROUP_EMPTY (predefined). */
static inline void shmpi_group_handed(MPI_Group g, const char *fn)
{
    if (__builtin_expect(shmpi_core_checking(), 0) && !g->predefined)
        shmpi_core_live_made_sized(SHMPI_LIVE_GROUP, g, fn, g->size);
}

#endif
