/*
 * comm.c - MPI_COMM_WORLD, MPI_COMM_SELF, MPI_Comm_size/rank and the
 * predefined attributes (MPI-3.1 8.1.2).
 *
 * The two objects are statically initialized with MPI_ERRORS_ARE_FATAL,
 * so an error raised even before MPI_Init has a handler to go to.
 * Contexts come in pairs (objects.h): world has 0 and 1, self 2 and 3;
 * new communicators take theirs from the arena's contexts_used counter,
 * which starts past these (SHMPI_FIRST_FREE_CONTEXT).
 */
#include <limits.h>

#include "comm/comm.h"
#include "core/error.h"
#include "core/pmpi.h"

SHMPI_WEAK_ALIAS(Comm_size)
SHMPI_WEAK_ALIAS(Comm_rank)
SHMPI_WEAK_ALIAS(Comm_get_attr)

struct shmpi_comm shmpi_comm_world = {
    .magic = SHMPI_MAGIC_COMM, .size = 1,
    .errhandler = &shmpi_errors_are_fatal, .name = "MPI_COMM_WORLD"};
struct shmpi_comm shmpi_comm_self = {
    .magic = SHMPI_MAGIC_COMM, .size = 1, .context = 2,
    .world_ranks = &shmpi_proc.rank,
    .errhandler = &shmpi_errors_are_fatal, .name = "MPI_COMM_SELF"};

void shmpi_comm_init_predefined(struct shmpi_proc *p)
{
    shmpi_comm_world.rank = p->rank;
    shmpi_comm_world.size = p->size;
    shmpi_comm_world.barrier = p->size > 1 ? &p->arena->world_barrier : NULL;
}

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    SHMPI_REQUIRE_INIT("MPI_Comm_size");
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, "MPI_Comm_size",
                           "invalid communicator");
    if (!size)
        return shmpi_raise(comm, MPI_ERR_ARG, "MPI_Comm_size",
                           "size is NULL");
    *size = comm->size;
    return MPI_SUCCESS;
}

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    SHMPI_REQUIRE_INIT("MPI_Comm_rank");
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, "MPI_Comm_rank",
                           "invalid communicator");
    if (!rank)
        return shmpi_raise(comm, MPI_ERR_ARG, "MPI_Comm_rank",
                           "rank is NULL");
    *rank = comm->rank;
    return MPI_SUCCESS;
}

/* Values of the predefined attributes; the attribute value handed out
   is a pointer to one of these ints (8.1.2). */
static struct {
    int tag_ub, host, io, wtime_is_global, universe_size, lastusedcode,
        appnum;
} attr = {
    .tag_ub = INT_MAX,           /* every non-negative int is a valid tag */
    .host = MPI_PROC_NULL,       /* no process is "the host" */
    .io = MPI_ANY_SOURCE,        /* every rank can do I/O */
    .wtime_is_global = 1,        /* one CLOCK_MONOTONIC for the machine */
    .appnum = 0,                 /* one application per job */
};

static int *predefined_attr(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB: return &attr.tag_ub;
    case MPI_HOST: return &attr.host;
    case MPI_IO: return &attr.io;
    case MPI_WTIME_IS_GLOBAL: return &attr.wtime_is_global;
    case MPI_UNIVERSE_SIZE:
        attr.universe_size = shmpi_comm_world.size;
        return &attr.universe_size;
    case MPI_LASTUSEDCODE:
        attr.lastusedcode = shmpi_last_used_code();
        return &attr.lastusedcode;
    case MPI_APPNUM: return &attr.appnum;
    default: return NULL;
    }
}

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val,
                       int *flag)
{
    static const char *fn = "MPI_Comm_get_attr";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (!attribute_val || !flag)
        return shmpi_raise(comm, MPI_ERR_ARG, fn,
                           "attribute_val or flag is NULL");
    int *value = predefined_attr(keyval);
    if (!value)
        return shmpi_raise(comm, MPI_ERR_KEYVAL, fn,
                           "%d is not a communicator keyval", keyval);
    *(int **)attribute_val = value;
    *flag = 1;
    return MPI_SUCCESS;
}
