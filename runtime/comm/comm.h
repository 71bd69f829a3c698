/*
 * comm.h - communicators and groups: MPI_COMM_WORLD and MPI_COMM_SELF,
 * communicators made from them (dup, split, create), the groups behind
 * them, their attributes, and the library's own messages on a
 * communicator.
 */
#ifndef SHMPI_COMM_H
#define SHMPI_COMM_H

#include <limits.h>

#include "core/objects.h"
#include "core/proc.h"
#include "pt2pt/request.h"

#define SHMPI_FIRST_FREE_CONTEXT 4

/*
 * Tags of the library's own messages.  They travel on a communicator's
 * internal context (comm->context + 1), which no user message uses, so
 * any tag value is free there; each internal operation has its own tag so
 * that messages of consecutive operations on one communicator (a barrier
 * whose last messages are still in flight when the next dup starts) can
 * never match each other.  Add new ones here.
 */
enum shmpi_internal_tag {
    SHMPI_TAG_CREATE_GROUP = INT_MIN, /* + the program's tag (capped at
                                  INT_MAX - 1, to stay below MPI_ANY_TAG):
                                  MPI_Comm_create_group's context */
    SHMPI_TAG_BARRIER = 1,     /* + round: dissemination barrier */
    SHMPI_TAG_CONTEXT = 64,    /* MPI_Comm_dup: the new context */
    SHMPI_TAG_SPLIT_GATHER,    /* MPI_Comm_split: (color, key) to rank 0 */
    SHMPI_TAG_SPLIT_TABLE,     /* MPI_Comm_split: context + all (color, key) */
    SHMPI_TAG_COLL,            /* collectives over messages (coll/fallback.c) */
    SHMPI_TAG_TOPO_EDGES,      /* MPI_Dist_graph_create: edges to their ends */
    SHMPI_TAG_NEIGHBOR,        /* neighbor collectives (topo/neighbor.c) */
    SHMPI_TAG_NBC = 1 << 24,   /* + the schedule's number: nonblocking
                                  collectives (nbc/sched.c), up to 2^25 */
};

/* Fill in world and self for this rank (called by MPI_Init). */
void shmpi_comm_init_predefined(struct shmpi_proc *p);

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

/* comm_create.c: MPI_Comm_dup's work on a valid comm, for the calls that
   duplicate (fn names the one to report errors under).  Collective: the
   process takes part in the exchange before it checks newcomm.  Returns
   MPI_SUCCESS or an error code already raised on comm. */
int shmpi_comm_dup(MPI_Comm comm, MPI_Comm *newcomm, const char *fn);

/* comm_create.c: MPI_Comm_split's work on a valid comm, for the calls
   that split (comm_subset.c); the same contract as shmpi_comm_dup. */
int shmpi_comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm,
                     const char *fn);

/* comm_attr.c: MPI_Comm_dup's part: newcomm gets what the copy callbacks
   keep of oldcomm's attributes.  On failure newcomm has none again (the
   caller frees it) and the error is raised on oldcomm. */
int shmpi_comm_copy_attrs(MPI_Comm oldcomm, MPI_Comm newcomm,
                          const char *fn);
/* comm_attr.c: every attribute of comm deleted, newest first, through the
   delete callbacks (MPI_Comm_free; MPI_Finalize on MPI_COMM_SELF).  A
   callback's failure is raised on comm once all have run. */
int shmpi_comm_delete_attrs(MPI_Comm comm, const char *fn);

/* comm_create.c: a library object (a request, a matched message) that
   keeps using comm after the call that made it returned holds a
   reference, so that MPI_Comm_free (which drops the program's) leaves
   comm alive until the object is done with it (6.4.3).  No-ops on
   MPI_COMM_WORLD and MPI_COMM_SELF. */
void shmpi_comm_retain(MPI_Comm comm);
void shmpi_comm_release(MPI_Comm comm);

/* comm_create.c: a fresh context pair for a new communicator, taken by
   the calling process (the root of the exchange); 0 when all are used. */
uint32_t shmpi_context_alloc(void);

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
int shmpi_compare_members(int n, const int *a, const int *b);
/* The group of comm, with a new reference for the caller; creates the
   groups of MPI_COMM_WORLD and MPI_COMM_SELF on first use.  NULL if out
   of memory. */
struct shmpi_group *shmpi_comm_get_group(MPI_Comm comm);

/* internal_p2p.c: blocking send and receive of nbytes bytes on comm's
   internal context; ranks are ranks of comm.  Return MPI_SUCCESS or an
   error code already raised on comm under the name fn. */
int shmpi_internal_send(MPI_Comm comm, const void *buf, int nbytes,
                        int dest, int tag, const char *fn);
int shmpi_internal_recv(MPI_Comm comm, void *buf, int nbytes, int source,
                        int tag, const char *fn);
/* Both at once (the receive is posted first): for exchanges in which
   every process sends and receives. */
int shmpi_internal_sendrecv(MPI_Comm comm, const void *sbuf, int sbytes,
                            int dest, int stag, void *rbuf, int rbytes,
                            int source, int rtag, const char *fn);
/* Rank root's nbytes at buf to every process of comm (binomial tree). */
int shmpi_internal_bcast(MPI_Comm comm, void *buf, int nbytes, int root,
                         int tag, const char *fn);
/* The typed request under all of these, for callers that keep several
   in flight: r (memory the caller owns; the library never frees it nor
   retains comm or type) becomes a send or receive of count x type with
   peer (a rank of comm) on comm's internal context, ready for
   shmpi_start_send / shmpi_start_recv (pt2pt/start.h). */
void shmpi_internal_request(struct shmpi_request *r,
                            enum shmpi_req_kind kind, MPI_Comm comm,
                            const void *buf, int count, MPI_Datatype type,
                            int peer, int tag);

#endif
