/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm_subset.c - communicators of part of a parent (MPI-3.1 6.4.2):
 * MPI_Comm_create, MPI_Comm_create_group and MPI_Comm_split_type.
 *
 * MPI_Comm_split_type and MPI_Comm_create are splits (comm_create.c).
 * Every process of a job shares memory with every other, so
 * MPI_COMM_TYPE_SHARED puts all the processes that ask for it in one
 * part; MPI-4.0's MPI_COMM_TYPE_HW_GUIDED and _HW_UNGUIDED take their
 * colors from the hardware (split_hw.c).  MPI_Comm_create's groups are disjoint (a process in a group
 * passes that group, 6.4.2), so a group is named by the parent rank of
 * its first member, and ordered by the rank in it: the split's color
 * and key.  The split then gives every part its own collective area, and
 * all of them one context, as for any split.
 *
 * Both split intercommunicators too (intercomm_split.c).  Each group of
 * an intercommunicator passes MPI_Comm_create one group of its own
 * processes, so its members form one part on each side.  MPI-3.1 does
 * not list MPI_Comm_split_type among the constructors of
 * intercommunicators, nor forbid it; MPI-4.0 lists it, and MPICH
 * splits one: so does shmpi, with MPI_COMM_TYPE_SHARED as one color.
 * MPI_Comm_create_group takes an intracommunicator only (6.4.2).
 *
 * MPI_Comm_create_group is collective over the group only: the others do
 * not call it, so nothing can go through the whole parent.  The group's
 * first member takes a context and a collective area and sends them to
 * each of the others, one message each, on the parent's internal context
 * under a tag made from the program's (pt2pt/internal.h): operations with
 * different tags never take each other's messages, whatever the order
 * in which the processes call them.
 */
#include <limits.h>

#include "coll/coll.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/info.h"
#include "core/pmpi.h"
#include "pt2pt/internal.h"

SHMPI_WEAK_ALIAS(Comm_split_type)
SHMPI_WEAK_ALIAS(Comm_create)
SHMPI_WEAK_ALIAS(Comm_create_group)

/* This process's color; *rc an error already raised (the process
   still takes part in the split, without a color, as one with a bad
   argument does). */
static int split_type_color(MPI_Comm comm, int split_type, MPI_Info info,
                            int *level, int *rc, const char *fn)
{
    int color = MPI_UNDEFINED;
    *level = -1;
    if (split_type == MPI_COMM_TYPE_SHARED)
        color = 0;
    else if (split_type == MPI_COMM_TYPE_HW_GUIDED)
        color = shmpi_comm_hw_guided_color(info);
    else if (split_type == MPI_COMM_TYPE_HW_UNGUIDED)
        *rc = shmpi_comm_hw_unguided_color(comm, &color, level, fn);
    return color;
}

static const char *bad_split_type(MPI_Comm comm, int split_type)
{
    if (split_type != MPI_COMM_TYPE_SHARED &&
        split_type != MPI_COMM_TYPE_HW_GUIDED &&
        split_type != MPI_COMM_TYPE_HW_UNGUIDED &&
        split_type != MPI_UNDEFINED)
        return "is not MPI_COMM_TYPE_SHARED, _HW_GUIDED, _HW_UNGUIDED "
               "nor MPI_UNDEFINED";
    if (split_type == MPI_COMM_TYPE_HW_UNGUIDED && comm->is_inter)
        return "(MPI_COMM_TYPE_HW_UNGUIDED) is not supported on an "
               "intercommunicator";
    return NULL;
}

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
                         MPI_Info info, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_split_type";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    const char *bad_type = bad_split_type(comm, split_type);
    int bad_info = info != MPI_INFO_NULL && !shmpi_info_ok(info);
    int level = -1, rc_color = MPI_SUCCESS;
    int color = bad_type || bad_info
                    ? MPI_UNDEFINED
                    : split_type_color(comm, split_type, info, &level,
                                       &rc_color, fn);
    MPI_Comm c;
    int rc = shmpi_comm_split(comm, color, key, newcomm ? &c : NULL, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rc_color != MPI_SUCCESS) /* without a color: c is MPI_COMM_NULL */
        return rc_color;
    if (bad_type) /* HW_UNGUIDED's only fault is an intercommunicator */
        return shmpi_raise(comm,
                           split_type == MPI_COMM_TYPE_HW_UNGUIDED
                               ? MPI_ERR_COMM : MPI_ERR_ARG,
                           fn, "split_type %d %s", split_type, bad_type);
    if (bad_info)
        return shmpi_raise(comm, MPI_ERR_INFO, fn,
                           "info is not a valid info object");
    if (c != MPI_COMM_NULL && level >= 0 && info != MPI_INFO_NULL &&
        shmpi_info_set(info, "mpi_hw_resource_type",
                       shmpi_comm_hw_level_name(level)) != MPI_SUCCESS) {
        shmpi_core_comm_release(c);
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory to record the level in info");
    }
    *newcomm = c;
    return MPI_SUCCESS;
}

/* Why group cannot make a communicator out of comm; NULL if it can. */
static const char *group_problem(MPI_Comm comm, MPI_Group group)
{
    if (!shmpi_group_ok(group))
        return group == MPI_GROUP_NULL ? "group is MPI_GROUP_NULL"
                                       : "group is not a valid group";
    for (int i = 0; i < group->size; i++)
        if (shmpi_comm_from_world(comm, group->ranks[i]) == MPI_UNDEFINED)
            return "group has a process that is not in comm";
    return NULL;
}

static int raise_group(MPI_Comm comm, const char *fn, const char *why)
{
    return shmpi_raise(comm, MPI_ERR_GROUP, fn, "%s", why);
}

/* c's members are group's, in group's order. */
static int made_of(MPI_Comm c, MPI_Group group)
{
    if (c->size != group->size)
        return 0;
    for (int i = 0; i < c->size; i++)
        if (shmpi_comm_to_world(c, i) != group->ranks[i])
            return 0;
    return 1;
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    const char *why = group_problem(comm, group);
    int member = !why && group->rank != MPI_UNDEFINED;
    /* an intercommunicator's group passes one group: one part */
    int color = !member          ? MPI_UNDEFINED
                : comm->is_inter ? 0
                : shmpi_comm_from_world(comm, group->ranks[0]);
    MPI_Comm c;
    int rc = shmpi_comm_split(comm, color, member ? group->rank : 0,
                              newcomm ? &c : NULL, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (why)
        return raise_group(comm, fn, why);
    if (c != MPI_COMM_NULL && !made_of(c, group)) {
        PMPI_Comm_free(&c);
        return raise_group(comm, fn, "the processes of group did not all "
                                     "pass this same group");
    }
    *newcomm = c;
    return MPI_SUCCESS;
}

/* The context and collective area of group's communicator, from the
   group's first member (which takes them) to the others. */
static int agree(MPI_Comm comm, MPI_Group group, int tag, uint32_t made[2],
                 const char *fn)
{
    /* the highest internal tag below MPI_ANY_TAG (-2): INT_MAX - 2 */
    int cap = MPI_ANY_TAG - 1 - SHMPI_TAG_CREATE_GROUP;
    int itag = SHMPI_TAG_CREATE_GROUP + (tag < cap ? tag : cap);
    int nbytes = 2 * (int)sizeof *made;
    if (group->rank != 0)
        return shmpi_p2p_internal_recv(
            comm, made, nbytes, shmpi_comm_from_world(comm, group->ranks[0]),
            itag, fn);
    made[0] = shmpi_comm_context_alloc();
    made[1] = made[0] ? shmpi_coll_area_take(group->size)
                      : SHMPI_COLL_NO_AREA;
    for (int i = 1; i < group->size; i++) {
        int rc = shmpi_p2p_internal_send(
            comm, made, nbytes, shmpi_comm_from_world(comm, group->ranks[i]),
            itag, fn);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
                           MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create_group";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (comm->is_inter)
        return shmpi_raise(comm, MPI_ERR_COMM, fn,
                           "comm is an intercommunicator: "
                           "MPI_Comm_create_group takes an "
                           "intracommunicator (6.4.2)");
    /* every member gives the same group and tag: where these checks
       fail, they fail on all of them, and nobody waits */
    const char *why = group_problem(comm, group);
    if (why)
        return raise_group(comm, fn, why);
    if (tag < 0)
        return shmpi_raise(comm, MPI_ERR_TAG, fn,
                           "tag %d is negative (%s)", tag,
                           tag == MPI_ANY_TAG ? "MPI_ANY_TAG is no tag here"
                                              : "tags are 0..MPI_TAG_UB");
    if (group->rank == MPI_UNDEFINED) { /* not a member: a local call */
        if (!newcomm)
            return shmpi_raise(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    uint32_t made[2];
    int rc = agree(comm, group, tag, made, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!newcomm) { /* checked after the exchange: the others need it */
        shmpi_coll_area_drop(made[1]);
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
    }
    shmpi_group_retain(group);
    return shmpi_comm_make(comm, group, made[0], made[1], newcomm, fn);
}
