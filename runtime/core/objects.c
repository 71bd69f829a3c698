/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * objects.c - the communicator object's part that every room needs:
 * MPI_COMM_WORLD and MPI_COMM_SELF themselves, and the reference count
 * that lets a request, a matched message or a schedule hold a
 * communicator past MPI_Comm_free (objects.h).
 *
 * The two objects are statically initialized with MPI_ERRORS_ARE_FATAL,
 * so an error raised even before MPI_Init has a handler to go to; MPI_Init
 * fills in world's rank and size (comm/comm.c).  Contexts come in pairs
 * (objects.h): world has 0 and 1, self 2 and 3; new communicators take
 * theirs past these (comm/comm_create.c).
 *
 * The last release hands the object to the function room comm registered
 * at MPI_Init (shmpi_comm_register_retire, before any communicator but
 * world and self exists, and those two are never counted): freeing what
 * a communicator holds is comm's work, and base does not call up.
 */
#include <string.h>

#include "core/lock.h"
#include "core/objects.h"
#include "core/proc.h"
#include "core/ref.h"

struct shmpi_comm shmpi_comm_world = {
    .magic = SHMPI_MAGIC_COMM, .size = 1,
    .errhandler = &shmpi_errors_are_fatal, .env_attrs = 1,
    .name = "MPI_COMM_WORLD"};
struct shmpi_comm shmpi_comm_self = {
    .magic = SHMPI_MAGIC_COMM, .size = 1, .context = 2,
    .world_ranks = &shmpi_proc.rank,
    .errhandler = &shmpi_errors_are_fatal, .name = "MPI_COMM_SELF"};

void shmpi_core_comm_on_last_release(void (*fn)(struct shmpi_comm *))
{
    shmpi_proc.hooks.last_release = fn;
}

/* World and self are tested first: the requests of a program that
   sends on them (most) pay neither the count nor ref.h's branch. */
void shmpi_core_comm_retain(MPI_Comm c)
{
    if (c != MPI_COMM_WORLD && c != MPI_COMM_SELF)
        shmpi_core_ref_inc(&c->refs);
}

void shmpi_core_comm_release(MPI_Comm c)
{
    if (c != MPI_COMM_WORLD && c != MPI_COMM_SELF &&
        shmpi_core_ref_dec(&c->refs))
        shmpi_proc.hooks.last_release(c);
}

void shmpi_core_name_set(char *name, const char *src)
{
    size_t n = strnlen(src, MPI_MAX_OBJECT_NAME - 1);
    shmpi_core_lock(&shmpi_proc.names_lock);
    memcpy(name, src, n);
    name[n] = '\0';
    shmpi_core_unlock(&shmpi_proc.names_lock);
}

int shmpi_core_name_get(const char *name, char *out)
{
    shmpi_core_lock(&shmpi_proc.names_lock);
    size_t n = strlen(name);
    memcpy(out, name, n + 1);
    shmpi_core_unlock(&shmpi_proc.names_lock);
    return (int)n;
}
