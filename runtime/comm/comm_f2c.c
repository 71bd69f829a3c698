/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm_f2c.c - the Fortran integers of communicators and groups
 * (MPI-3.1 17.2.4), on core/fint.h's tables: MPI_COMM_NULL and
 * MPI_GROUP_NULL are 0, MPI_COMM_WORLD 1, MPI_COMM_SELF 2,
 * MPI_GROUP_EMPTY 1.
 */
#include "core/error.h"
#include "core/fint.h"
#include "core/objects.h"
#include "core/pmpi.h"
#include "core/proc.h"

SHMPI_WEAK_ALIAS(Comm_c2f)
SHMPI_WEAK_ALIAS(Comm_f2c)
SHMPI_WEAK_ALIAS(Group_c2f)
SHMPI_WEAK_ALIAS(Group_f2c)

static struct shmpi_comm invalid_comm;
static const struct shmpi_fint_kind comms = {
    SHMPI_FINT_COMM, 3,
    (void *const[]){MPI_COMM_NULL, MPI_COMM_WORLD, MPI_COMM_SELF},
    &invalid_comm};

MPI_Fint PMPI_Comm_c2f(MPI_Comm comm)
{
    static const char fn[] = "MPI_Comm_c2f";
    SHMPI_REQUIRE_INIT(fn);
    if (comm == MPI_COMM_NULL)
        return 0;
    if (!shmpi_comm_ok(comm))
        return shmpi_fint_raise_bad(MPI_ERR_COMM, fn,
                                    "comm is not a valid communicator "
                                    "(freed, or never made)");
    return shmpi_fint_of(&comms, comm, &comm->fint, fn);
}

MPI_Comm PMPI_Comm_f2c(MPI_Fint comm)
{
    SHMPI_REQUIRE_INIT("MPI_Comm_f2c");
    return shmpi_fint_object(&comms, comm);
}

static struct shmpi_group invalid_group;
static const struct shmpi_fint_kind groups = {
    SHMPI_FINT_GROUP, 2, (void *const[]){MPI_GROUP_NULL, MPI_GROUP_EMPTY},
    &invalid_group};

MPI_Fint PMPI_Group_c2f(MPI_Group group)
{
    static const char fn[] = "MPI_Group_c2f";
    SHMPI_REQUIRE_INIT(fn);
    if (group == MPI_GROUP_NULL)
        return 0;
    if (!shmpi_group_ok(group))
        return shmpi_fint_raise_bad(MPI_ERR_GROUP, fn,
                                    "group is not a valid group (freed, or "
                                    "never made)");
    return shmpi_fint_of(&groups, group, &group->fint, fn);
}

MPI_Group PMPI_Group_f2c(MPI_Fint group)
{
    SHMPI_REQUIRE_INIT("MPI_Group_f2c");
    return shmpi_fint_object(&groups, group);
}
