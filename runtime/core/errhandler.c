/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * errhandler.c - error handler objects (MPI-3.1 8.3).
 *
 * A handler is reference counted: the handle the program holds counts
 * one, each communicator using it counts one, so MPI_Errhandler_free on a
 * handler still attached somewhere only drops the program's reference
 * (8.3.4).  The three predefined handlers are not counted at all: they
 * exist for the whole run, and freeing a handle to one only nulls it.
 *
 * Threads (MPI_THREAD_MULTIPLE): the count is atomic - an increment is
 * relaxed (whoever adds a reference holds one already, or reads the
 * handler under the errh lock, which the reference it copies keeps
 * alive), a decrement acq_rel (its release publishes this thread's last
 * use of the handler; the acquire of the one that reaches zero orders
 * the free after every other thread's use).  Below MULTIPLE the same
 * count is a relaxed load and store: plain moves, no locked
 * instruction.  The handler pointer of a communicator or window is
 * swapped and read under shmpi_proc.errh_lock (hold, swap), and a raise
 * holds a reference for the duration of the program's function, so a
 * handler set or freed by another thread meanwhile stays alive until
 * the function returns.
 *
 * The MPI-1 calls MPI_Errhandler_create, _set and _get (removed in
 * MPI-3.0, kept in mpi.h with a deprecation warning) are
 * MPI_Comm_create_errhandler, _set_errhandler and _get_errhandler under
 * their old names, which MPI-2.2 8.3 defines alike (MPI_Handler_function
 * is MPI_Comm_errhandler_function): the same code, errors reported under
 * the name the program called.
 */
#include <stdlib.h>

#include "core/error.h"
#include "core/fint.h"
#include "core/lock.h"
#include "core/objects.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/ref.h"

SHMPI_WEAK_ALIAS(Comm_create_errhandler)
SHMPI_WEAK_ALIAS(Comm_set_errhandler)
SHMPI_WEAK_ALIAS(Comm_get_errhandler)
SHMPI_WEAK_ALIAS(Comm_call_errhandler)
SHMPI_WEAK_ALIAS(Errhandler_free)
SHMPI_WEAK_ALIAS(Errhandler_create)
SHMPI_WEAK_ALIAS(Errhandler_set)
SHMPI_WEAK_ALIAS(Errhandler_get)

struct shmpi_errhandler shmpi_errors_are_fatal = {
    SHMPI_MAGIC_ERRHANDLER, SHMPI_EH_FATAL, 1, 1, NULL, NULL, 0, NULL};
struct shmpi_errhandler shmpi_errors_return = {
    SHMPI_MAGIC_ERRHANDLER, SHMPI_EH_RETURN, 1, 1, NULL, NULL, 0, NULL};
struct shmpi_errhandler shmpi_errors_abort = {
    SHMPI_MAGIC_ERRHANDLER, SHMPI_EH_ABORT, 1, 1, NULL, NULL, 0, NULL};

void shmpi_core_errhandler_retain(struct shmpi_errhandler *eh)
{
    if (!eh->predefined)
        shmpi_core_ref_inc(&eh->refs);
}

void shmpi_core_errhandler_release(struct shmpi_errhandler *eh)
{
    if (eh->predefined || !shmpi_core_ref_dec(&eh->refs))
        return;
    shmpi_fint_drop(SHMPI_FINT_ERRHANDLER, &eh->fint);
    eh->magic = 0;
    free(eh);
}

struct shmpi_errhandler *
shmpi_core_errhandler_hold(struct shmpi_errhandler *const *slot)
{
    shmpi_core_lock(&shmpi_proc.errh_lock);
    struct shmpi_errhandler *eh = *slot;
    shmpi_core_errhandler_retain(eh);
    shmpi_core_unlock(&shmpi_proc.errh_lock);
    return eh;
}

void shmpi_core_errhandler_swap(struct shmpi_errhandler **slot,
                                struct shmpi_errhandler *eh)
{
    shmpi_core_errhandler_retain(eh);
    shmpi_core_lock(&shmpi_proc.errh_lock);
    struct shmpi_errhandler *old = *slot;
    *slot = eh;
    shmpi_core_unlock(&shmpi_proc.errh_lock);
    shmpi_core_errhandler_release(old);
}

static int create_errhandler(const char *name,
                             MPI_Comm_errhandler_function *fn,
                             MPI_Errhandler *errhandler)
{
    SHMPI_REQUIRE_INIT(name);
    if (!fn || !errhandler)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, name,
                           "%s is NULL", fn ? "errhandler" : "the function");
    struct shmpi_errhandler *eh = malloc(sizeof *eh);
    if (!eh)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, name, "malloc");
    *eh = (struct shmpi_errhandler){SHMPI_MAGIC_ERRHANDLER, SHMPI_EH_COMM_FN,
                                    1, 0, fn, NULL, 0, NULL};
    *errhandler = eh;
    return MPI_SUCCESS;
}

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
                                MPI_Errhandler *errhandler)
{
    return create_errhandler("MPI_Comm_create_errhandler", fn, errhandler);
}

int PMPI_Errhandler_create(MPI_Comm_errhandler_function *function,
                           MPI_Errhandler *errhandler)
{
    return create_errhandler("MPI_Errhandler_create", function, errhandler);
}

static int set_errhandler(const char *name, MPI_Comm comm,
                          MPI_Errhandler errhandler)
{
    SHMPI_REQUIRE_INIT(name);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, name, "invalid communicator");
    if (!shmpi_errhandler_ok(errhandler))
        return shmpi_raise(comm, MPI_ERR_ARG, name, "invalid error handler");
    if (errhandler->kind == SHMPI_EH_WIN_FN ||
        errhandler->kind == SHMPI_EH_SESSION_FN)
        return shmpi_raise(comm, MPI_ERR_ARG, name,
                           "the error handler was made by MPI_%s_create_"
                           "errhandler: it is for %s",
                           errhandler->kind == SHMPI_EH_WIN_FN ? "Win"
                                                               : "Session",
                           errhandler->kind == SHMPI_EH_WIN_FN ? "windows"
                                                               : "sessions");
    shmpi_core_errhandler_swap(&comm->errhandler, errhandler);
    return MPI_SUCCESS;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_errhandler("MPI_Comm_set_errhandler", comm, errhandler);
}

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_errhandler("MPI_Errhandler_set", comm, errhandler);
}

static int get_errhandler(const char *name, MPI_Comm comm,
                          MPI_Errhandler *errhandler)
{
    SHMPI_REQUIRE_INIT(name);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, name, "invalid communicator");
    if (!errhandler)
        return shmpi_raise(comm, MPI_ERR_ARG, name, "errhandler is NULL");
    /* the caller gets a new reference and frees it (8.3.1) */
    *errhandler = shmpi_core_errhandler_hold(&comm->errhandler);
    return MPI_SUCCESS;
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return get_errhandler("MPI_Comm_get_errhandler", comm, errhandler);
}

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return get_errhandler("MPI_Errhandler_get", comm, errhandler);
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
