/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * objects.h - the objects behind the communicator, group and
 * error-handler handles, and how a handle is checked.
 *
 * Each object starts with a magic word naming its kind: a handle of the
 * wrong kind, or one that was freed (free clears the magic), is caught by
 * the argument checks with the right error class instead of crashing later.
 */
#ifndef SHMPI_OBJECTS_H
#define SHMPI_OBJECTS_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/lock_type.h"
#include "mpi.h"
#include "shm_arena/arena.h"

enum shmpi_magic {
    SHMPI_MAGIC_COMM = 0x434f4d4du,        /* "COMM" */
    SHMPI_MAGIC_ERRHANDLER = 0x45524848u,  /* "ERHH" */
    SHMPI_MAGIC_DATATYPE = 0x44545950u,    /* "DTYP" */
    SHMPI_MAGIC_OP = 0x4f50204fu,          /* "OP O" */
    SHMPI_MAGIC_GROUP = 0x47525550u,       /* "GRUP" */
    SHMPI_MAGIC_INFO = 0x494e464fu,        /* "INFO" */
    SHMPI_MAGIC_MESSAGE = 0x4d534720u,     /* "MSG " */
    SHMPI_MAGIC_SESSION = 0x53455353u,     /* "SESS" */
};

enum shmpi_errhandler_kind {
    SHMPI_EH_FATAL,            /* MPI_ERRORS_ARE_FATAL */
    SHMPI_EH_RETURN,           /* MPI_ERRORS_RETURN */
    SHMPI_EH_ABORT,            /* MPI_ERRORS_ABORT: as MPI_Abort on the
                                  object, which ends the job (environ.c) */
    SHMPI_EH_COMM_FN,          /* from MPI_Comm_create_errhandler */
    SHMPI_EH_WIN_FN,           /* from MPI_Win_create_errhandler */
    SHMPI_EH_SESSION_FN,       /* from MPI_Session_create_errhandler */
};

struct shmpi_errhandler {
    uint32_t magic;
    enum shmpi_errhandler_kind kind;
    _Atomic int refs;          /* handles + objects using it + raises
                                  running its function (errhandler.c) */
    int predefined;            /* never deallocated */
    MPI_Comm_errhandler_function *comm_fn;
    MPI_Win_errhandler_function *win_fn;
    int fint;                  /* its Fortran integer, or 0 (fint.h) */
    MPI_Session_errhandler_function *session_fn;
};

/* A session (MPI-4.0 11.3; init/session.c).  Its handler is read and
   set as a communicator's (hold, swap); the rest is set at
   MPI_Session_init and then only read, until MPI_Session_finalize. */
struct shmpi_session {
    uint32_t magic;
    struct shmpi_errhandler *errhandler; /* holds one reference */
    int thread_level;          /* provided, from its "thread_level" hint */
    MPI_Info info;             /* the hints it was given, a copy (or
                                  MPI_INFO_NULL) */
    int fint;                  /* its Fortran integer, or 0 (fint.h) */
    struct shmpi_bsend_buffer *bsend; /* MPI_Session_attach_buffer's, or
                                  NULL (pt2pt/bsend.c, under its lock);
                                  owned, freed by MPI_Session_finalize */
};

struct shmpi_comm {
    uint32_t magic;
    _Atomic int refs;          /* the program's handle + library objects
                                  that hold on to it (shmpi_core_comm_retain,
                                  below; core/ref.h); 0 for world and self,
                                  never freed */
    int rank;
    int size;
    uint32_t context;          /* messages match only within one context;
                                  context + 1 carries the library's own
                                  traffic on this communicator */
    struct shmpi_lane *lane;   /* pt2pt's lane of context (pt2pt/pt2pt.h,
                                  shmpi_p2p_comm_lane_set), set with it:
                                  one load on the message path */
    const int *world_ranks;    /* rank i is world rank world_ranks[i];
                                  NULL: the identity (MPI_COMM_WORLD) */
    const int *from_world;     /* world rank w is rank from_world[w], or
                                  MPI_UNDEFINED; NULL: the identity
                                  (world) or a scan of world_ranks (self) */
    struct shmpi_group *_Atomic group; /* holds one reference; world and
                                  self create theirs when first asked and
                                  publish it once (comm/group.c) */
    struct shmpi_errhandler *errhandler; /* holds one reference; read and
                                  set through shmpi_core_errhandler_hold
                                  and _swap (errh_lock under mt) */
    struct shmpi_coll *coll;   /* collectives' state and shared area
                                  (coll/coll.h); NULL: one process, or
                                  collectives over messages */
    struct shmpi_topo *topo;   /* process topology (comm/topo.h), or NULL;
                                  owned, freed with the communicator */
    struct shmpi_attr *attrs;  /* cached attributes (core/attr.h; the
                                  attr lock under mt) */
    int env_attrs;             /* carries the predefined attributes:
                                  world and its dups (comm/comm_attr.c) */
    uint32_t nbc_seq;          /* nonblocking collectives started here
                                  (coll/sched.h: their messages' tags) */
    /* An intercommunicator (6.6): rank, size, world_ranks, from_world and
       group above describe the local group; point-to-point peers and
       the roots of collectives are ranks of the remote group. */
    int is_inter;
    int remote_size;
    const int *remote_world;   /* remote rank i is world rank
                                  remote_world[i] */
    struct shmpi_group *remote_group; /* holds one reference */
    MPI_Comm local;            /* an intracommunicator of the local group
                                  on a context of its own, for the local
                                  steps of the intercomm collectives; owned */
    char name[MPI_MAX_OBJECT_NAME]; /* shmpi_core_name_set/get */
    int fint;                  /* its Fortran integer, or 0 (fint.h) */
    struct shmpi_bsend_buffer *bsend; /* MPI_Comm_attach_buffer's, or NULL
                                  (pt2pt/bsend.c, under its lock); owned */
    struct shmpi_session *session; /* the session it derives from (its
                                  group's, or its parent's), or NULL: the
                                  World Model; not held (the program frees
                                  it before the session, 11.3.1) */
};

/* A group of MPI_COMM_WORLD processes (comm/group.c).  Reference counted:
   each handle the program holds counts one, each communicator using the
   group counts one, so MPI_Group_free on a group a communicator still
   uses only drops the handle's reference. */
struct shmpi_group {
    uint32_t magic;
    _Atomic int refs;          /* core/ref.h */
    int predefined;            /* MPI_GROUP_EMPTY: never deallocated */
    int size;
    int rank;                  /* of this process; MPI_UNDEFINED if not
                                  a member */
    int *ranks;                /* member i is world rank ranks[i] */
    int *_Atomic index;        /* NULL until built (shmpi_group_index,
                                  which publishes it once: release, and
                                  readers acquire): world rank -> member,
                                  or MPI_UNDEFINED */
    int fint;                  /* its Fortran integer, or 0 (fint.h) */
    struct shmpi_session *session; /* MPI_Group_from_session_pset's
                                  session, or NULL; not held */
};

/* An info object (core/info.c): (key, value) strings in the order the
   keys were first set, which is the order MPI_Info_get_nthkey numbers
   them.  Hints are few, so a small array searched in order is all the
   structure they need. */
struct shmpi_info {
    uint32_t magic;
    struct shmpi_core_lock lock; /* under mt, the members below but magic
                                  and predefined (info.c) */
    int predefined;            /* MPI_INFO_ENV: never deallocated */
    int n, cap;                /* entries used, allocated */
    struct shmpi_info_entry *entries;  /* private to info.c */
    int fint;                  /* its Fortran integer, or 0 (fint.h) */
};

static inline int shmpi_comm_ok(MPI_Comm c)
{
    return c != MPI_COMM_NULL && c->magic == SHMPI_MAGIC_COMM;
}

static inline int shmpi_comm_to_world(MPI_Comm c, int rank)
{
    return c->world_ranks ? c->world_ranks[rank] : rank;
}

/* The rank in c of world rank w, or MPI_UNDEFINED: O(1) but for
   MPI_COMM_SELF, whose one-entry scan is as cheap. */
static inline int shmpi_comm_from_world(MPI_Comm c, int w)
{
    if (!c->world_ranks)
        return w;
    if (c->from_world)
        return c->from_world[w];
    for (int i = 0; i < c->size; i++)
        if (c->world_ranks[i] == w)
            return i;
    return MPI_UNDEFINED;
}

/* Point-to-point peers (dest, source, MPI_SOURCE): ranks of the remote
   group on an intercommunicator, of the group itself otherwise.  An
   intercommunicator's remote group has its index built at creation,
   before the communicator is handed out: a relaxed load suffices. */
static inline int shmpi_comm_peer_count(MPI_Comm c)
{
    return c->is_inter ? c->remote_size : c->size;
}

static inline int shmpi_comm_peer_to_world(MPI_Comm c, int rank)
{
    return c->is_inter ? c->remote_world[rank] : shmpi_comm_to_world(c, rank);
}

static inline int shmpi_comm_peer_from_world(MPI_Comm c, int w)
{
    return c->is_inter ? atomic_load_explicit(&c->remote_group->index,
                                              memory_order_relaxed)[w]
                       : shmpi_comm_from_world(c, w);
}

static inline int shmpi_group_ok(MPI_Group g)
{
    return g != MPI_GROUP_NULL && g->magic == SHMPI_MAGIC_GROUP;
}

static inline int shmpi_info_ok(MPI_Info i)
{
    return i != MPI_INFO_NULL && i->magic == SHMPI_MAGIC_INFO;
}

static inline int shmpi_session_ok(MPI_Session s)
{
    return s != MPI_SESSION_NULL && s->magic == SHMPI_MAGIC_SESSION;
}

static inline int shmpi_errhandler_ok(MPI_Errhandler e)
{
    return e != MPI_ERRHANDLER_NULL && e->magic == SHMPI_MAGIC_ERRHANDLER;
}

/* objects.c: a library object (a request, a matched message, a
   schedule) that keeps using comm after the call that made it returned
   holds a reference, so that MPI_Comm_free (which drops the program's)
   leaves comm alive until the object is done with it (6.4.3).  No-ops on
   MPI_COMM_WORLD and MPI_COMM_SELF.  The count lives here, in base, so
   that every room can hold a communicator; what the last release does
   (free the groups, the topology, the collective area...) is room
   comm's, which hands it over once, at MPI_Init, through
   shmpi_core_comm_on_last_release: core never calls up into comm by name. */
void shmpi_core_comm_retain(MPI_Comm comm);
void shmpi_core_comm_release(MPI_Comm comm);
void shmpi_core_comm_on_last_release(void (*fn)(struct shmpi_comm *comm));

/* objects.c: an object's name (communicator, window, datatype: a
   char[MPI_MAX_OBJECT_NAME] member) set from src, cut to
   MPI_MAX_OBJECT_NAME - 1 characters, and copied out (out has room for
   MPI_MAX_OBJECT_NAME; the length is returned) - under
   shmpi_proc.names_lock, so that threads may name and read one object
   at once (proc.h says what the lock-free readers of a name see). */
void shmpi_core_name_set(char *name, const char *src);
int shmpi_core_name_get(const char *name, char *out);

/* errhandler.c: the count of a handler (no-ops on the predefined ones);
   the last release frees it. */
void shmpi_core_errhandler_retain(struct shmpi_errhandler *eh);
void shmpi_core_errhandler_release(struct shmpi_errhandler *eh);
/* The handler in *slot (an object's `errhandler` member) with a
   reference for the caller, who releases it: read under the errh lock,
   so that a concurrent swap cannot free it in between. */
struct shmpi_errhandler *
shmpi_core_errhandler_hold(struct shmpi_errhandler *const *slot);
/* *slot = eh (retained), the handler it replaces released once the lock
   is left. */
void shmpi_core_errhandler_swap(struct shmpi_errhandler **slot,
                                struct shmpi_errhandler *eh);

#endif
