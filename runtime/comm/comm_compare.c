/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm_compare.c - MPI_Comm_compare (MPI-3.1 6.4.1, and 6.6.1 for
 * intercommunicators).
 *
 * Two handles of one object are MPI_IDENT.  Otherwise the groups decide:
 * the same processes in the same order make MPI_CONGRUENT, in another
 * order MPI_SIMILAR, other processes MPI_UNEQUAL.  Two
 * intercommunicators compare both their local and their remote groups,
 * and the weaker answer is theirs (so a similar remote group alone makes
 * them MPI_SIMILAR); an intracommunicator and an intercommunicator are
 * always MPI_UNEQUAL.
 */
#include "comm/comm.h"
#include "core/error.h"
#include "core/pmpi.h"

SHMPI_WEAK_ALIAS(Comm_compare)

/* The groups of two intracommunicators; world_ranks may be NULL (the
   identity), so this goes through the rank tables. */
static int compare_intra(MPI_Comm a, MPI_Comm b)
{
    if (a->size != b->size)
        return MPI_UNEQUAL;
    int same_order = 1, same_members = 1;
    for (int i = 0; i < a->size && same_members; i++) {
        int w = shmpi_comm_to_world(a, i);
        same_order &= shmpi_comm_to_world(b, i) == w;
        same_members = shmpi_comm_from_world(b, w) != MPI_UNDEFINED;
    }
    return !same_members ? MPI_UNEQUAL
           : same_order  ? MPI_CONGRUENT
                         : MPI_SIMILAR;
}

/* Two lists of world ranks, as groups of a communicator. */
static int compare_ranks(int na, const int *a, int nb, const int *b)
{
    if (na != nb)
        return MPI_UNEQUAL;
    int r = shmpi_comm_compare_members(na, a, b);
    return r == MPI_IDENT ? MPI_CONGRUENT : r;
}

static int compare_inter(MPI_Comm a, MPI_Comm b)
{
    int local = compare_ranks(a->size, a->world_ranks, b->size,
                              b->world_ranks);
    int remote = compare_ranks(a->remote_size, a->remote_world,
                               b->remote_size, b->remote_world);
    return local > remote ? local : remote; /* the constants grow weaker */
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
    if (comm1 == comm2)
        *result = MPI_IDENT;
    else if (comm1->is_inter != comm2->is_inter)
        *result = MPI_UNEQUAL;
    else
        *result = comm1->is_inter ? compare_inter(comm1, comm2)
                                  : compare_intra(comm1, comm2);
    return MPI_SUCCESS;
}
