/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * internal.h - the library's own messages on a communicator (internal.c):
 * what communicator creation (comm/), the collectives over messages
 * (coll/fallback.c) and the schedules of the nonblocking collectives
 * (coll/sched.c) are written on.  Here, in pt2pt, so that every room
 * above may use them; their tags are listed here too, for the same
 * reason, although most of their users are above.
 */
#ifndef SHMPI_INTERNAL_H
#define SHMPI_INTERNAL_H

#include <limits.h>

#include "core/objects.h"
#include "pt2pt/request.h"

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
                                  INT_MAX - 2, to stay below MPI_ANY_TAG):
                                  MPI_Comm_create_group's context */
    SHMPI_TAG_BARRIER = 1,     /* + round: dissemination barrier */
    SHMPI_TAG_CONTEXT = 64,    /* MPI_Comm_dup: the new context */
    SHMPI_TAG_SPLIT_GATHER,    /* MPI_Comm_split: (color, key) to rank 0 */
    SHMPI_TAG_SPLIT_TABLE,     /* MPI_Comm_split: context + all (color, key) */
    SHMPI_TAG_COLL,            /* collectives over messages (coll/fallback.c) */
    SHMPI_TAG_TOPO_EDGES,      /* MPI_Dist_graph_create: edges to their ends */
    SHMPI_TAG_NEIGHBOR,        /* neighbor collectives (comm/neighbor.c) */
    SHMPI_TAG_INTER_LEADER,    /* intercommunicators: leader to leader */
    SHMPI_TAG_INTER_TABLE,     /* intercommunicators: a leader's news to
                                  its group */
    SHMPI_TAG_INTER_RANKS,     /* MPI_Intercomm_create: the remote group */
    SHMPI_TAG_PART,            /* a partitioned send's announcement
                                  (pt2pt/part.c) */
    SHMPI_TAG_NBC = 1 << 24,   /* + the schedule's number: nonblocking
                                  collectives (coll/sched.c), up to 2^25 */
    SHMPI_TAG_PART_REFUSED = 1 << 26, /* + the send's number, below 2^26:
                                  a partitioned receive could not map its
                                  sender's segment (pt2pt/part.c) */
};

/* Blocking send and receive of nbytes bytes on comm's internal context;
   ranks are ranks of comm.  Return MPI_SUCCESS or an error code already
   raised on comm under the name fn. */
int shmpi_p2p_internal_send(MPI_Comm comm, const void *buf, int nbytes,
                            int dest, int tag, const char *fn);
int shmpi_p2p_internal_recv(MPI_Comm comm, void *buf, int nbytes, int source,
                            int tag, const char *fn);
/* Both at once (the receive is posted first): for exchanges in which
   every process sends and receives. */
int shmpi_p2p_internal_sendrecv(MPI_Comm comm, const void *sbuf, int sbytes,
                                int dest, int stag, void *rbuf, int rbytes,
                                int source, int rtag, const char *fn);
/* The same on comm's own context, under the program's tag: the leaders
   of MPI_Intercomm_create (6.6.2).  The received message may be shorter
   than rbytes. */
int shmpi_p2p_program_sendrecv(MPI_Comm comm, const void *sbuf, int sbytes,
                               int dest, void *rbuf, int rbytes, int source,
                               int tag, const char *fn);
/* Rank root's nbytes at buf to every process of comm (binomial tree). */
int shmpi_p2p_internal_bcast(MPI_Comm comm, void *buf, int nbytes, int root,
                             int tag, const char *fn);
/* The typed request under all of these, for callers that keep several
   in flight: r (memory the caller owns; the library never frees it nor
   retains comm or type) becomes a send or receive of count x type with
   peer (a rank of comm) on comm's internal context, ready for
   shmpi_p2p_start_send / shmpi_p2p_start_recv (pt2pt/start.h). */
void shmpi_p2p_internal_request(struct shmpi_request *r,
                                enum shmpi_req_kind kind, MPI_Comm comm,
                                const void *buf, MPI_Count count,
                                MPI_Datatype type, int peer, int tag);

#endif
