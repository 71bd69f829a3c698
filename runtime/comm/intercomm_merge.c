/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * intercomm_merge.c - MPI_Intercomm_merge (MPI-3.1 6.6.2): one
 * intracommunicator of both groups of an intercommunicator.
 *
 * The group whose processes pass high = false comes first; when both
 * groups pass the same value the standard leaves the order to the
 * implementation, and shmpi puts first the group that comes first by its
 * leader's world rank (intercomm.c) - a rule both groups apply without
 * talking.  Each group keeps its own order.  The leaders (rank 0 of each
 * group) trade their groups' high flags; the leader of the first group by
 * world rank has taken the new context and a collective area for all
 * the processes and sends them along; each leader then tells its group,
 * over the local intracommunicator.  The leader's flag speaks for its
 * group (all of its processes must pass the same, 6.6.2).
 */
#include <string.h>

#include "coll/coll.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "pt2pt/internal.h"

SHMPI_WEAK_ALIAS(Intercomm_merge)

/* What each leader sends the other, and then tells its group. */
struct merge {
    int high;                  /* sent: the group's flag; told: whether
                                  the local group comes first */
    uint32_t context, area;    /* from the leader of the first group */
};

static int lead(MPI_Comm comm, int high, struct merge *told, const char *fn)
{
    int first = shmpi_comm_inter_first(comm);
    struct merge mine = {high != 0, 0, SHMPI_COLL_NO_AREA}, theirs;
    if (first && (mine.context = shmpi_comm_context_alloc()) != 0)
        mine.area = shmpi_coll_area_take(comm->size + comm->remote_size);
    int rc = shmpi_p2p_internal_sendrecv(comm, &mine, sizeof mine, 0,
                                         SHMPI_TAG_INTER_LEADER, &theirs,
                                         sizeof theirs, 0,
                                         SHMPI_TAG_INTER_LEADER, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    *told = first ? mine : theirs;
    told->high = mine.high != theirs.high ? !mine.high : first;
    return MPI_SUCCESS;
}

/* Both groups in one, the first one first. */
static struct shmpi_group *merged_group(MPI_Comm comm, int local_first)
{
    int n = comm->size, rn = comm->remote_size;
    struct shmpi_group *g = shmpi_group_alloc(n + rn);
    if (!g)
        return NULL;
    int *local = g->ranks + (local_first ? 0 : rn);
    int *remote = g->ranks + (local_first ? n : 0);
    memcpy(local, comm->world_ranks, (size_t)n * sizeof *local);
    memcpy(remote, comm->remote_world, (size_t)rn * sizeof *remote);
    shmpi_group_finish(g);
    return g;
}

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high,
                         MPI_Comm *newintracomm)
{
    static const char fn[] = "MPI_Intercomm_merge";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(intercomm))
        return shmpi_raise(intercomm, MPI_ERR_COMM, fn,
                           "invalid communicator");
    if (!intercomm->is_inter)
        return shmpi_raise(intercomm, MPI_ERR_COMM, fn,
                           "intercomm is an intracommunicator: only an "
                           "intercommunicator has two groups to merge");
    struct merge told = {0, 0, SHMPI_COLL_NO_AREA};
    int rc = MPI_SUCCESS;
    if (intercomm->rank == 0)
        rc = lead(intercomm, high, &told, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_p2p_internal_bcast(intercomm->local, &told, sizeof told, 0,
                                      SHMPI_TAG_INTER_TABLE, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!newintracomm) { /* checked after the exchange: the others need it */
        shmpi_coll_area_drop(told.area);
        return shmpi_raise(intercomm, MPI_ERR_ARG, fn,
                           "newintracomm is NULL");
    }
    return shmpi_comm_make(intercomm, merged_group(intercomm, told.high),
                           told.context, told.area, newintracomm, fn);
}
