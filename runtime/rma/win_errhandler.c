/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win_errhandler.c - errors on windows (MPI-3.1 8.3.2): how an RMA call
 * raises one (shmpi_win_raise), and MPI_Win_create_errhandler,
 * MPI_Win_set_errhandler, MPI_Win_get_errhandler and
 * MPI_Win_call_errhandler.
 *
 * A window starts with MPI_ERRORS_ARE_FATAL, whatever its communicator
 * has (8.3).  Errors found before there is a window - a bad argument to a
 * constructor - go to the communicator's handler; errors about a window
 * handle that is not a window go to MPI_COMM_WORLD's, since there is no
 * window to take a handler from.  The objects and their reference counts
 * are core/errhandler.c's; a handler made here is for windows only, and
 * the communicator and window setters refuse each other's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/win_impl.h"

SHMPI_WEAK_ALIAS(Win_create_errhandler)
SHMPI_WEAK_ALIAS(Win_set_errhandler)
SHMPI_WEAK_ALIAS(Win_get_errhandler)
SHMPI_WEAK_ALIAS(Win_call_errhandler)

/* Which window, for messages: its name, or (most windows have none) its
   number and constructor.  The number is win->id's (win_new.c): the
   count of windows made so far with the same process as rank 0, and
   that process's MPI_COMM_WORLD rank when it is not 0 - the same at
   every member, and no two live windows share it. */
static void win_label(MPI_Win win, char *buf, size_t len)
{
    unsigned maker = (unsigned)(win->id >> 32), count = (unsigned)win->id;
    if (win->name[0])
        snprintf(buf, len, "window \"%s\"", win->name);
    else if (maker == 0)
        snprintf(buf, len, "window %u (unnamed, made by %s)", count,
                 shmpi_win_maker(win));
    else
        snprintf(buf, len,
                 "window %u of world rank %u (unnamed, made by %s)", count,
                 maker, shmpi_win_maker(win));
}

int shmpi_win_raise(MPI_Win win, int code, const char *fn, const char *fmt,
                    ...)
{
    char what[MPI_MAX_ERROR_STRING];
    char label[MPI_MAX_OBJECT_NAME + 64];
    char text[MPI_MAX_ERROR_STRING + sizeof label + 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!shmpi_win_ok(win))
        return shmpi_raise(MPI_COMM_WORLD, code, fn, "%s", what);
    win_label(win, label, sizeof label);
    snprintf(text, sizeof text, "%s: %s", label, what);
    /* held through the program's function (core/errhandler.c) */
    struct shmpi_errhandler *eh = shmpi_core_errhandler_hold(&win->errhandler);
    switch (eh->kind) {
    case SHMPI_EH_FATAL:
    case SHMPI_EH_ABORT: /* MPI_Abort ends the job, so the same */
        shmpi_core_fatal(code, fn, text);
    case SHMPI_EH_RETURN:
        break;
    case SHMPI_EH_WIN_FN:
        eh->win_fn(&win, &code);
        break;
    case SHMPI_EH_COMM_FN: /* refused by MPI_Win_set_errhandler */
    case SHMPI_EH_SESSION_FN:
        break;
    }
    shmpi_core_errhandler_release(eh);
    return code;
}

int shmpi_win_raise_bad(MPI_Win win, const char *fn)
{
    return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_WIN, fn, "%s",
                       win == MPI_WIN_NULL ? "the window is MPI_WIN_NULL"
                                           : "not a valid window (freed, "
                                             "or never made)");
}

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                               MPI_Errhandler *errhandler)
{
    static const char *fn = "MPI_Win_create_errhandler";
    SHMPI_REQUIRE_INIT(fn);
    if (!win_errhandler_fn || !errhandler)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "%s is NULL",
                           errhandler ? "win_errhandler_fn" : "errhandler");
    struct shmpi_errhandler *eh = malloc(sizeof *eh);
    if (!eh)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "no memory for an error handler");
    *eh = (struct shmpi_errhandler){.magic = SHMPI_MAGIC_ERRHANDLER,
                                    .kind = SHMPI_EH_WIN_FN,
                                    .refs = 1,
                                    .win_fn = win_errhandler_fn};
    *errhandler = eh;
    return MPI_SUCCESS;
}

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    static const char *fn = "MPI_Win_set_errhandler";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (!shmpi_errhandler_ok(errhandler))
        return shmpi_win_raise(win, MPI_ERR_ARG, fn,
                               "errhandler is not a valid error handler");
    if (errhandler->kind == SHMPI_EH_COMM_FN ||
        errhandler->kind == SHMPI_EH_SESSION_FN)
        return shmpi_win_raise(win, MPI_ERR_ARG, fn,
                               "the error handler was made by "
                               "MPI_%s_create_errhandler: it is for %s "
                               "(use MPI_Win_create_errhandler)",
                               errhandler->kind == SHMPI_EH_COMM_FN
                                   ? "Comm" : "Session",
                               errhandler->kind == SHMPI_EH_COMM_FN
                                   ? "communicators" : "sessions");
    shmpi_core_errhandler_swap(&win->errhandler, errhandler);
    return MPI_SUCCESS;
}

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    static const char *fn = "MPI_Win_get_errhandler";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (!errhandler)
        return shmpi_win_raise(win, MPI_ERR_ARG, fn, "errhandler is NULL");
    /* a new reference, which the caller frees (8.3.1) */
    *errhandler = shmpi_core_errhandler_hold(&win->errhandler);
    return MPI_SUCCESS;
}

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    static const char *fn = "MPI_Win_call_errhandler";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    shmpi_win_raise(win, errorcode, fn, "called with error code %d",
                    errorcode);
    /* 8.3.5: MPI_SUCCESS if the handler returned */
    return MPI_SUCCESS;
}
