/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * group.c - the ABI's groups and the communicators made from them
 * (abi.h).  MPI_GROUP_EMPTY is 0x109 and MPI_GROUP_NULL 0x108; ranks,
 * MPI_PROC_NULL and MPI_UNDEFINED among them, pass as they are.
 */
#include "abi/abi.h"

static inline abi_Group group_out(MPI_Group g)
{
    return ABI_OUT(abi_Group, g, GROUP);
}

ABI_FN(int, Group_size, (abi_Group group, int *size))
{
    return PMPI_Group_size(group_in(group), size);
}

ABI_FN(int, Group_rank, (abi_Group group, int *rank))
{
    return PMPI_Group_rank(group_in(group), rank);
}

ABI_FN(int, Group_compare, (abi_Group group1, abi_Group group2,
                            int *result))
{
    return PMPI_Group_compare(group_in(group1), group_in(group2), result);
}

ABI_FN(int, Group_translate_ranks, (abi_Group group1, int n,
                                    const int ranks1[], abi_Group group2,
                                    int ranks2[]))
{
    return PMPI_Group_translate_ranks(group_in(group1), n, ranks1,
                                      group_in(group2), ranks2);
}

/* The operations that make a group of two. */
#define ABI_GROUP2(name)                                                   \
    ABI_FN(int, name, (abi_Group group1, abi_Group group2,                 \
                       abi_Group *newgroup))                               \
    {                                                                      \
        MPI_Group g;                                                       \
        int rc = PMPI_##name(group_in(group1), group_in(group2),           \
                             newgroup ? &g : NULL);                        \
        MADE(rc, newgroup, g, abi_Group, GROUP);                           \
        return rc;                                                         \
    }
ABI_GROUP2(Group_union)
ABI_GROUP2(Group_intersection)
ABI_GROUP2(Group_difference)

/* The operations that make a group of some of one's ranks. */
#define ABI_GROUP_SOME(name, ranks_t)                                      \
    ABI_FN(int, name, (abi_Group group, int n, ranks_t,                    \
                       abi_Group *newgroup))                               \
    {                                                                      \
        MPI_Group g;                                                       \
        int rc = PMPI_##name(group_in(group), n, ranks,                    \
                             newgroup ? &g : NULL);                        \
        MADE(rc, newgroup, g, abi_Group, GROUP);                           \
        return rc;                                                         \
    }
ABI_GROUP_SOME(Group_incl, const int ranks[])
ABI_GROUP_SOME(Group_excl, const int ranks[])
ABI_GROUP_SOME(Group_range_incl, int ranks[][3])
ABI_GROUP_SOME(Group_range_excl, int ranks[][3])

ABI_FN(int, Group_free, (abi_Group *group))
{
    MPI_Group g = group ? group_in(*group) : NULL;
    int rc = PMPI_Group_free(group ? &g : NULL);
    if (group)
        *group = group_out(g);
    return rc;
}

/* A communicator's group, local or remote. */
#define ABI_COMM_GROUP(name)                                               \
    ABI_FN(int, name, (abi_Comm comm, abi_Group *group))                   \
    {                                                                      \
        MPI_Group g;                                                       \
        int rc = PMPI_##name(comm_in(comm), group ? &g : NULL);            \
        MADE(rc, group, g, abi_Group, GROUP);                              \
        return rc;                                                         \
    }
ABI_COMM_GROUP(Comm_group)
ABI_COMM_GROUP(Comm_remote_group)

ABI_FN(int, Comm_create, (abi_Comm comm, abi_Group group,
                          abi_Comm *newcomm))
{
    MPI_Comm c;
    int rc = PMPI_Comm_create(comm_in(comm), group_in(group),
                              newcomm ? &c : NULL);
    MADE(rc, newcomm, c, abi_Comm, COMM);
    return rc;
}

ABI_FN(int, Comm_create_group, (abi_Comm comm, abi_Group group, int tag,
                                abi_Comm *newcomm))
{
    MPI_Comm c;
    int rc = PMPI_Comm_create_group(comm_in(comm), group_in(group),
                                    tag, newcomm ? &c : NULL);
    MADE(rc, newcomm, c, abi_Comm, COMM);
    return rc;
}

ABI_FN(int, Comm_create_from_group, (abi_Group group, const char *stringtag,
                                     abi_Info info, abi_Errhandler errhandler,
                                     abi_Comm *newcomm))
{
    MPI_Comm c;
    int rc = PMPI_Comm_create_from_group(group_in(group), stringtag,
                                         info_in(info), eh_in(errhandler),
                                         newcomm ? &c : NULL);
    MADE(rc, newcomm, c, abi_Comm, COMM);
    return rc;
}

ABI_FN(int, Intercomm_create_from_groups, (abi_Group local_group,
                                           int local_leader,
                                           abi_Group remote_group,
                                           int remote_leader,
                                           const char *stringtag,
                                           abi_Info info,
                                           abi_Errhandler errhandler,
                                           abi_Comm *newintercomm))
{
    MPI_Comm c;
    int rc = PMPI_Intercomm_create_from_groups(
        group_in(local_group), local_leader, group_in(remote_group),
        remote_leader, stringtag, info_in(info), eh_in(errhandler),
        newintercomm ? &c : NULL);
    MADE(rc, newintercomm, c, abi_Comm, COMM);
    return rc;
}
