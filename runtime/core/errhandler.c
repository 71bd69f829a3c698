/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * errhandler.c - error handler objects (MPI-3.1 8.3).
 *
 * A handler is reference counted: the handle the program holds counts
 * one, each communicator using it counts one, so MPI_Errhandler_free on a
 * handler still attached somewhere only drops the program's reference
 * (8.3.4).  The two predefined handlers are not counted at all: they
 * exist for the whole run, and freeing a handle to one only nulls it.
 */
#include <stdlib.h>

#include "core/error.h"
#include "core/fint.h"
#include "core/objects.h"
#include "core/pmpi.h"
#include "core/proc.h"

SHMPI_WEAK_ALIAS(Comm_create_errhandler)
SHMPI_WEAK_ALIAS(Comm_set_errhandler)
SHMPI_WEAK_ALIAS(Comm_get_errhandler)
SHMPI_WEAK_ALIAS(Comm_call_errhandler)
SHMPI_WEAK_ALIAS(Errhandler_free)

struct shmpi_errhandler shmpi_errors_are_fatal = {
    SHMPI_MAGIC_ERRHANDLER, SHMPI_EH_FATAL, 1, 1, NULL, NULL, 0};
struct shmpi_errhandler shmpi_errors_return = {
    SHMPI_MAGIC_ERRHANDLER, SHMPI_EH_RETURN, 1, 1, NULL, NULL, 0};

void shmpi_core_errhandler_retain(struct shmpi_errhandler *eh)
{
    if (!eh->predefined)
        eh->refs++;
}

void shmpi_core_errhandler_release(struct shmpi_errhandler *eh)
{
    if (!eh->predefined && --eh->refs == 0) {
        shmpi_fint_drop(SHMPI_FINT_ERRHANDLER, &eh->fint);
        eh->magic = 0;
        free(eh);
    }
}

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
                                MPI_Errhandler *errhandler)
{
    static const char *name = "MPI_Comm_create_errhandler";
    SHMPI_REQUIRE_INIT(name);
    if (!fn || !errhandler)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, name,
                           "%s is NULL", fn ? "errhandler" : "the function");
    struct shmpi_errhandler *eh = malloc(sizeof *eh);
    if (!eh)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, name, "malloc");
    *eh = (struct shmpi_errhandler){SHMPI_MAGIC_ERRHANDLER, SHMPI_EH_COMM_FN,
                                    1, 0, fn, NULL, 0};
    *errhandler = eh;
    return MPI_SUCCESS;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    static const char *name = "MPI_Comm_set_errhandler";
    SHMPI_REQUIRE_INIT(name);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, name, "invalid communicator");
    if (!shmpi_errhandler_ok(errhandler))
        return shmpi_raise(comm, MPI_ERR_ARG, name, "invalid error handler");
    if (errhandler->kind == SHMPI_EH_WIN_FN)
        return shmpi_raise(comm, MPI_ERR_ARG, name,
                           "the error handler was made by "
                           "MPI_Win_create_errhandler: it is for windows");
    shmpi_core_errhandler_retain(errhandler);
    shmpi_core_errhandler_release(comm->errhandler);
    comm->errhandler = errhandler;
    return MPI_SUCCESS;
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    static const char *name = "MPI_Comm_get_errhandler";
    SHMPI_REQUIRE_INIT(name);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, name, "invalid communicator");
    if (!errhandler)
        return shmpi_raise(comm, MPI_ERR_ARG, name, "errhandler is NULL");
    /* the caller gets a new reference and frees it (8.3.1) */
    shmpi_core_errhandler_retain(comm->errhandler);
    *errhandler = comm->errhandler;
    return MPI_SUCCESS;
}

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    static const char *name = "MPI_Comm_call_errhandler";
    SHMPI_REQUIRE_INIT(name);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, name, "invalid communicator");
    shmpi_raise(comm, errorcode, name, "called with error code %d",
                errorcode);
    /* 8.3.5: returns MPI_SUCCESS if the handler returned */
    return MPI_SUCCESS;
}

int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    static const char *name = "MPI_Errhandler_free";
    SHMPI_REQUIRE_INIT(name);
    if (!errhandler || !shmpi_errhandler_ok(*errhandler))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, name,
                           "invalid error handler");
    struct shmpi_errhandler *eh = *errhandler;
    if (!eh->predefined) /* predefined ones are not counted */
        shmpi_core_errhandler_release(eh);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
