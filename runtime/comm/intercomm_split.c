/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * intercomm_split.c - MPI_Comm_split of an intercommunicator (MPI-3.1
 * 6.4.2), and so MPI_Comm_create and MPI_Comm_split_type of one
 * (comm_subset.c: they are splits).
 *
 * The processes of both groups that give the same color make one new
 * intercommunicator, each group ordered by (key, rank); a color given in
 * one group only makes none, and its processes get MPI_COMM_NULL, as do
 * those that give MPI_UNDEFINED.
 *
 * The split of an intracommunicator (comm_create.c) with a step between
 * its gather and its broadcast: each group's leader (rank 0) gathers its
 * group's (color, key) in a split table over the local
 * intracommunicator, the two leaders trade tables, and each broadcasts
 * both to its group.  In between, each leader drops the colors the other
 * group does not give from its own table, then takes one local context
 * for all its parts and an area for each; the leader of the first group
 * (intercomm.c) took the one context all the new intercommunicators
 * share - their groups are disjoint, as for any split - and sent it in
 * its table's header.  The remote table's header, unused by the trade,
 * carries the local context in the broadcast.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "comm/comm.h"
#include "core/error.h"
#include "pt2pt/internal.h"

#define COLOR(r) SHMPI_SPLIT_COLOR(r)

static int gives(int n, const int *table, int color)
{
    for (int r = 0; r < n; r++)
        if (table[COLOR(r)] == color)
            return 1;
    return 0;
}

/* The leader's step between the gather and the broadcast. */
static int lead(MPI_Comm comm, int *local, int *remote, const char *fn)
{
    int n = comm->size, rn = comm->remote_size;
    int first = shmpi_comm_inter_first(comm);
    uint32_t context =
        first && shmpi_comm_split_any(n,
                                      local) ? shmpi_comm_context_alloc() : 0;
    memcpy(&local[0], &context, sizeof context);
    int rc = shmpi_p2p_internal_sendrecv(
        comm, local, (1 + 3 * n) * (int)sizeof *local, 0,
        SHMPI_TAG_INTER_LEADER, remote, (1 + 3 * rn) * (int)sizeof *remote,
        0, SHMPI_TAG_INTER_LEADER, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!first)
        memcpy(&local[0], &remote[0], sizeof context);
    for (int r = 0; r < n; r++)
        if (!gives(rn, remote, local[COLOR(r)]))
            local[COLOR(r)] = MPI_UNDEFINED;
    uint32_t local_context =
        shmpi_comm_split_any(n, local) ? shmpi_comm_context_alloc() : 0;
    memcpy(&remote[0], &local_context, sizeof local_context);
    shmpi_comm_split_areas(n, local, local_context);
    return MPI_SUCCESS;
}

/* This process's part of the tables: its new intercommunicator. */
static int make(MPI_Comm comm, const int *local, const int *remote,
                MPI_Comm *newcomm, const char *fn)
{
    int color = local[COLOR(comm->rank)];
    if (color == MPI_UNDEFINED) { /* its own, or the other group has none */
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    struct shmpi_comm_ids ids = {
        .area = (uint32_t)local[SHMPI_SPLIT_AREA(comm->rank)]};
    memcpy(&ids.context, &local[0], sizeof ids.context);
    memcpy(&ids.local_context, &remote[0], sizeof ids.local_context);
    MPI_Comm c;
    if (shmpi_comm_inter_new(
            comm, shmpi_comm_split_group(comm, 0, comm->size, local, color),
            shmpi_comm_split_group(comm, 1, comm->remote_size, remote, color),
            &c) != MPI_SUCCESS) {
        shmpi_coll_area_drop(ids.area);
        return shmpi_comm_raise_open(comm, MPI_ERR_NO_MEM, fn);
    }
    int rc = shmpi_comm_open(c, &ids);
    if (rc != MPI_SUCCESS) {
        shmpi_core_comm_release(c);
        return shmpi_comm_raise_open(comm, rc, fn);
    }
    *newcomm = c;
    shmpi_comm_handed(c, fn);
    return MPI_SUCCESS;
}

int shmpi_comm_inter_split(MPI_Comm comm, int color, int key,
                           MPI_Comm *newcomm, const char *fn)
{
    int n = comm->size, rn = comm->remote_size;
    int bad_color = color < 0 && color != MPI_UNDEFINED;
    int *local = calloc(2 + 3 * (size_t)n + 3 * (size_t)rn, sizeof *local);
    if (!local)
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for the colors of %d processes",
                           n + rn);
    int *remote = local + 1 + 3 * n;
    /* a process that cannot take its communicator is in none */
    int mine = bad_color || !newcomm ? MPI_UNDEFINED : color;
    int rc = shmpi_comm_split_gather(comm->local, mine, key, local, fn);
    if (rc == MPI_SUCCESS && comm->rank == 0)
        rc = lead(comm, local, remote, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_p2p_internal_bcast(comm->local, local,
                                      (2 + 3 * n + 3 * rn) * (int)sizeof *local,
                                      0, SHMPI_TAG_INTER_TABLE, fn);
    if (rc == MPI_SUCCESS && bad_color)
        rc = shmpi_raise(comm, MPI_ERR_ARG, fn,
                         "color %d is negative and not MPI_UNDEFINED",
                         color);
    else if (rc == MPI_SUCCESS && !newcomm)
        rc = shmpi_raise(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
    else if (rc == MPI_SUCCESS)
        rc = make(comm, local, remote, newcomm, fn);
    free(local);
    return rc;
}
