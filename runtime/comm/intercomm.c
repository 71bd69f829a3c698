/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * intercomm.c - intercommunicators (MPI-3.1 6.6): the object, the
 * agreement on the ids of a new one, and MPI_Intercomm_create.
 *
 * An intercommunicator is a communicator object (objects.h) whose group,
 * rank and size are those of the local group, plus the remote group:
 * point-to-point peers are remote ranks (pt2pt translates them with
 * shmpi_comm_peer_to_world), and both groups use one context, on which
 * only messages from the other group can reach a process - so
 * MPI_ANY_SOURCE needs nothing special.  Its `local` is a hidden
 * intracommunicator of the local group on a context of its own, with
 * the collective area: the steps inside one group (the broadcasts of
 * the exchanges below, the local parts of the collectives) run there.
 *
 * LEADERS.  Rank 0 of each group leads it.  Ids are taken by the process
 * that will announce them (shmpi_comm_dup_ids): each leader takes the
 * local context and area of its group, and the leader of the group that
 * comes first (the lower world rank of the two leaders: both groups see
 * the same answer without talking) takes the context of the new
 * intercommunicator and sends it to the other leader.  Each leader then
 * broadcasts the ids to its group.
 *
 * MPI_Intercomm_create has no intercommunicator yet: its leaders are
 * local_leader of each local_comm, and they trade their groups and the
 * context over peer_comm, under the program's tag, on peer_comm's own
 * context (6.6.2 says so, and tells programs to keep that tag free
 * there).  Overlapping groups are erroneous (6.6.2); the leaders see the
 * whole of both groups, so they check it, and a leader that fails -
 * a bad peer_comm, remote_leader or tag, which only the leader uses -
 * still tells its group, so that under MPI_ERRORS_RETURN its group
 * returns the error instead of waiting (the other group cannot be
 * told: its leader waits for a message that never comes).
 */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "pt2pt/internal.h"

SHMPI_WEAK_ALIAS(Intercomm_create)

int shmpi_comm_inter_new(MPI_Comm parent, struct shmpi_group *local,
                         struct shmpi_group *remote, MPI_Comm *out)
{
    if (!local || !remote || !shmpi_group_index(remote)) {
        if (local)
            shmpi_group_release(local);
        if (remote)
            shmpi_group_release(remote);
        return MPI_ERR_NO_MEM;
    }
    if (shmpi_comm_new(parent, local, 0, out) != MPI_SUCCESS) {
        shmpi_group_release(remote);
        return MPI_ERR_NO_MEM;
    }
    MPI_Comm c = *out;
    c->is_inter = 1;
    c->remote_size = remote->size;
    c->remote_world = remote->ranks;
    c->remote_group = remote;
    return MPI_SUCCESS;
}

int shmpi_comm_inter_first(MPI_Comm c)
{
    return shmpi_comm_to_world(c, 0) < c->remote_world[0];
}

int shmpi_comm_inter_agree(MPI_Comm comm, struct shmpi_comm_ids *ids,
                           const char *fn)
{
    int rc = MPI_SUCCESS;
    if (comm->rank == 0)
        rc = shmpi_comm_inter_first(comm)
                 ? shmpi_p2p_internal_send(comm, &ids->context,
                                           sizeof ids->context, 0,
                                           SHMPI_TAG_INTER_LEADER, fn)
                 : shmpi_p2p_internal_recv(comm, &ids->context,
                                           sizeof ids->context, 0,
                                           SHMPI_TAG_INTER_LEADER, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    return shmpi_p2p_internal_bcast(comm->local, ids, sizeof *ids, 0,
                                    SHMPI_TAG_INTER_TABLE, fn);
}

/* ------------------------------------------------------------------ */
/* MPI_Intercomm_create                                                */
/* ------------------------------------------------------------------ */

/* What a leader tells its group. */
struct news {
    int err;                   /* the leader's error class, or success */
    int remote_size;
    struct shmpi_comm_ids ids;
};

/* What the two leaders trade: the size of their group, the context (from
   the leader of the first group), then their members' world ranks. */
#define TRADE_SIZE 0
#define TRADE_CONTEXT 1
#define TRADE_RANKS 2

/* The arguments only the leader uses. */
static int check_leader_args(MPI_Comm local_comm, MPI_Comm peer_comm,
                             int remote_leader, int tag, const char *fn)
{
    if (!shmpi_comm_ok(peer_comm))
        return shmpi_raise(local_comm, MPI_ERR_COMM, fn,
                           "peer_comm is %s at the local leader",
                           peer_comm == MPI_COMM_NULL
                               ? "MPI_COMM_NULL"
                               : "not a valid communicator");
    if (remote_leader < 0 || remote_leader >= shmpi_comm_peer_count(peer_comm))
        return shmpi_raise(local_comm, MPI_ERR_RANK, fn,
                           "remote_leader %d is not a rank of peer_comm "
                           "(size %d)", remote_leader,
                           shmpi_comm_peer_count(peer_comm));
    if (tag < 0)
        return shmpi_raise(local_comm, MPI_ERR_TAG, fn,
                           "tag %d is negative (tags are 0..MPI_TAG_UB; "
                           "MPI_ANY_TAG is no tag here)", tag);
    if (shmpi_comm_peer_to_world(peer_comm, remote_leader) == shmpi_proc.rank)
        return shmpi_raise(local_comm, MPI_ERR_COMM, fn,
                           "remote_leader %d is this process: the local "
                           "and remote groups would overlap",
                           remote_leader);
    return MPI_SUCCESS;
}

/* A process of the remote group that is in local_comm too, or -1. */
static int overlap(MPI_Comm local_comm, int n, const int *remote)
{
    for (int i = 0; i < n; i++)
        if (shmpi_comm_from_world(local_comm, remote[i]) != MPI_UNDEFINED)
            return remote[i];
    return -1;
}

/* The leader's part: trade groups with the remote leader, take the ids.
   On success *remote holds the remote group's world ranks (malloc'd). */
static int lead(MPI_Comm local_comm, MPI_Comm peer_comm, int remote_leader,
                int tag, struct news *news, int **remote, const char *fn)
{
    int rc = check_leader_args(local_comm, peer_comm, remote_leader, tag, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int n = local_comm->size, most = shmpi_proc.size;
    int *out = malloc((TRADE_RANKS + (size_t)n) * sizeof *out);
    int *in = malloc((TRADE_RANKS + (size_t)most) * sizeof *in);
    if (!out || !in) {
        free(out);
        free(in);
        return shmpi_raise(local_comm, MPI_ERR_NO_MEM, fn,
                           "no memory for the groups of %d processes", most);
    }
    int first =
        shmpi_proc.rank < shmpi_comm_peer_to_world(peer_comm, remote_leader);
    uint32_t context = first ? shmpi_comm_context_alloc() : 0;
    out[TRADE_SIZE] = n;
    memcpy(&out[TRADE_CONTEXT], &context, sizeof context);
    for (int i = 0; i < n; i++)
        out[TRADE_RANKS + i] = shmpi_comm_to_world(local_comm, i);
    rc = shmpi_p2p_program_sendrecv(
        peer_comm, out, (TRADE_RANKS + n) * (int)sizeof *out, remote_leader,
        in, (TRADE_RANKS + most) * (int)sizeof *in, remote_leader, tag, fn);
    free(out);
    int both = rc == MPI_SUCCESS
                   ? overlap(local_comm, in[TRADE_SIZE], in + TRADE_RANKS)
                   : -1;
    if (both >= 0)
        rc = shmpi_raise(local_comm, MPI_ERR_COMM, fn,
                         "world rank %d is in both groups: the groups of an "
                         "intercommunicator must not overlap", both);
    if (rc != MPI_SUCCESS) {
        free(in);
        return rc;
    }
    if (!first)
        memcpy(&context, &in[TRADE_CONTEXT], sizeof context);
    news->remote_size = in[TRADE_SIZE];
    news->ids.context = context;
    if ((news->ids.local_context = shmpi_comm_context_alloc()) != 0)
        news->ids.area = shmpi_coll_area_take(n);
    memmove(in, in + TRADE_RANKS, (size_t)news->remote_size * sizeof *in);
    *remote = in;
    return MPI_SUCCESS;
}

/* The remote group, from the leader's list of world ranks. */
static struct shmpi_group *remote_group(int n, const int *ranks)
{
    struct shmpi_group *g = shmpi_group_alloc(n);
    if (g) {
        memcpy(g->ranks, ranks, (size_t)n * sizeof *ranks);
        shmpi_group_finish(g);
    }
    return g;
}

/* Every process: the leader's news, then the remote group's ranks, and
   the intercommunicator. */
static int build(MPI_Comm local_comm, int local_leader, struct news *news,
                 int *remote, MPI_Comm *newintercomm, const char *fn)
{
    int n = news->remote_size;
    if (!remote && !(remote = malloc((size_t)n * sizeof *remote))) {
        shmpi_coll_area_drop(news->ids.area);
        return shmpi_raise(local_comm, MPI_ERR_NO_MEM, fn,
                           "no memory for a remote group of %d", n);
    }
    int rc = shmpi_p2p_internal_bcast(local_comm, remote,
                                      n * (int)sizeof *remote, local_leader,
                                      SHMPI_TAG_INTER_RANKS, fn);
    if (rc == MPI_SUCCESS && !newintercomm)
        rc = shmpi_raise(local_comm, MPI_ERR_ARG, fn,
                         "newintercomm is NULL");
    MPI_Comm c = MPI_COMM_NULL;
    if (rc == MPI_SUCCESS &&
        shmpi_comm_inter_new(local_comm, shmpi_comm_get_group(local_comm),
                             remote_group(n, remote), &c) != MPI_SUCCESS)
        rc = shmpi_comm_raise_open(local_comm, MPI_ERR_NO_MEM, fn);
    free(remote);
    if (rc != MPI_SUCCESS) {
        shmpi_coll_area_drop(news->ids.area);
        return rc;
    }
    if ((rc = shmpi_comm_open(c, &news->ids)) != MPI_SUCCESS) {
        shmpi_core_comm_release(c);
        return shmpi_comm_raise_open(local_comm, rc, fn);
    }
    *newintercomm = c;
    shmpi_comm_handed(c, fn);
    return MPI_SUCCESS;
}

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
                          MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm *newintercomm)
{
    static const char fn[] = "MPI_Intercomm_create";
    SHMPI_REQUIRE_INIT(fn);
    /* local_comm and local_leader are the same in the whole group: where
       these checks fail, they fail everywhere, and nobody waits */
    if (!shmpi_comm_ok(local_comm))
        return shmpi_raise(local_comm, MPI_ERR_COMM, fn,
                           "local_comm is not a valid communicator");
    if (local_comm->is_inter)
        return shmpi_raise(local_comm, MPI_ERR_COMM, fn,
                           "local_comm is an intercommunicator: "
                           "MPI_Intercomm_create binds two "
                           "intracommunicators");
    if (local_leader < 0 || local_leader >= local_comm->size)
        return shmpi_raise(local_comm, MPI_ERR_RANK, fn,
                           "local_leader %d is not a rank of local_comm "
                           "(size %d)", local_leader, local_comm->size);
    struct news news = {.ids = {0, SHMPI_COLL_NO_AREA, 0}};
    int *remote = NULL;
    if (local_comm->rank == local_leader)
        news.err = lead(local_comm, peer_comm, remote_leader, tag, &news,
                        &remote, fn);
    int rc = shmpi_p2p_internal_bcast(local_comm, &news, sizeof news,
                                      local_leader, SHMPI_TAG_INTER_TABLE, fn);
    if (rc == MPI_SUCCESS && news.err != MPI_SUCCESS &&
        local_comm->rank != local_leader)
        rc = shmpi_raise(local_comm, news.err, fn,
                         "the local leader (rank %d of local_comm) failed "
                         "to reach the remote group", local_leader);
    if (rc != MPI_SUCCESS || news.err != MPI_SUCCESS) {
        free(remote);
        shmpi_coll_area_drop(news.ids.area);
        return rc != MPI_SUCCESS ? rc : news.err;
    }
    return build(local_comm, local_leader, &news, remote, newintercomm, fn);
}
