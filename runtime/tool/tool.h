/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tool.h - the MPI tool information interface (MPI-3.1 chapter 14): its
 * state, and what its files share.
 *
 * MPI_T is usable before MPI_Init and after MPI_Finalize, from any
 * thread: every MPI_T_* call but MPI_T_init_thread checks the nesting
 * count and does its work under shmpi_proc.tool_lock, always taken
 * (shmpi_core_mutex_lock, not the shmpi_core_lock that only MULTIPLE
 * programs take): MPI_T's thread level is its own (14.3.4), and a tool
 * thread may call it while the program's thread is in MPI.  No call is
 * on a message path, so a plain mutex is enough.  What a variable's
 * value is read from is immutable once MPI_Init has set it (read after
 * the acquire load of shmpi_proc.initialized), an atomic, or the
 * environment: the lock guards MPI_T's own tables, not those values.
 *
 * The variables:
 *   control variables  the tunables table (core/tunables.c), one cvar a
 *                      tunable, in its order (cvar.c);
 *   categories         the tunables and pvars grouped by the room or
 *                      concern they belong to (category.c);
 *   enumerations       the named values of the tunables that have them
 *                      (enum.c);
 *   performance vars   what can be read without touching the message
 *                      paths (pvar.c).
 *
 * MPI_T calls return their error codes; they never invoke an error
 * handler (14.3.9).
 */
#ifndef SHMPI_TOOL_H
#define SHMPI_TOOL_H

#include <stdint.h>

#include "core/proc.h"
#include "mpi.h"

struct shmpi_tool_session;

/* shmpi_proc.tool: made by the first MPI_T_init_thread, freed by the
   last MPI_T_finalize; under shmpi_proc.tool_lock. */
struct shmpi_tool {
    int nesting;                 /* MPI_T_init_thread - MPI_T_finalize */
    struct shmpi_tool_cvar *cvars;        /* live cvar handles */
    struct shmpi_tool_session *sessions;  /* live sessions */
    int watchers[4];             /* started handles of the variables of
                                    each SHMPI_WATCH_* bit (pvar.c) */
    struct shmpi_tool_event_reg *events; /* live event registrations
                                    (event.c): changed under both locks */
};

/* A cvar handle: one tunable. */
struct shmpi_tool_cvar {
    int index;                   /* the tunable's id */
    struct shmpi_tool_cvar *next;
};

/* Entry of every MPI_T call but init: MPI_SUCCESS with the lock held, or
   MPI_T_ERR_NOT_INITIALIZED without it. */
int shmpi_tool_enter(void);
void shmpi_tool_leave(void);

/* The string convention of 14.3.3: at most *len - 1 characters of s and
   a NUL into buf, *len set to what was stored with its NUL; with buf
   NULL or *len 0, nothing stored and *len set to what s needs; with
   len NULL, nothing at all. */
void shmpi_tool_string(const char *s, char *buf, int *len);

/* The categories (category.c), in the order of their indices: the
   first holds the others; every variable is in exactly one of the
   others. */
enum shmpi_tool_cat {
    SHMPI_TOOL_CAT_ALL,
    SHMPI_TOOL_CAT_LAUNCH,
    SHMPI_TOOL_CAT_ARENA,
    SHMPI_TOOL_CAT_PT2PT,
    SHMPI_TOOL_CAT_COLL,
    SHMPI_TOOL_CAT_COMM,
    SHMPI_TOOL_CAT_WAIT,
    SHMPI_TOOL_CAT_MEMORY,
    SHMPI_TOOL_CAT_RMA,
    SHMPI_TOOL_CATS
};

/* cvar.c: the number of control variables; the category of one. */
int shmpi_tool_cvar_count(void);
enum shmpi_tool_cat shmpi_tool_cvar_category(int i);

/* enum.c: the enumeration of tunable id, or MPI_T_ENUM_NULL; the
   yes/no one. */
MPI_T_enum shmpi_tool_enum_of(int id);
MPI_T_enum shmpi_tool_enum_yes_no(void);

/* pvar.c: the number of performance variables; the category of one;
   the sessions and their handles freed (the last MPI_T_finalize). */
int shmpi_tool_pvar_count(void);
enum shmpi_tool_cat shmpi_tool_pvar_category(int i);
void shmpi_tool_sessions_free(struct shmpi_tool *t);
/* event.c: the category of event i (an enum shmpi_core_event); the
   registrations freed (the last MPI_T_finalize). */
enum shmpi_tool_cat shmpi_tool_event_category(int i);
void shmpi_tool_events_free(struct shmpi_tool *t);
/* core/proc.h's watch.forget: object (a window) is being freed. */
void shmpi_tool_forget(const void *object);

#endif
