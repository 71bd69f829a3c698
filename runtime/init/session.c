/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * session.c - the Sessions Model (MPI-4.0 11.3): MPI_Session_init and
 * _finalize, the process sets a session offers and their groups, a
 * session's info and error handler, its Fortran integer.
 *
 * A session is a user of the runtime (init.c's top comment): the first
 * of MPI_Init and MPI_Session_init brings it up, the last of
 * MPI_Finalize and MPI_Session_finalize takes it down, so a program may
 * use sessions alone, or beside the World Model, or several at once.
 * The session object itself only holds what the program gave it: its
 * hints (a copy), the thread level they asked for, its error handler.
 *
 * Process sets: every process of the job is in "mpi://WORLD" and itself
 * alone in "mpi://SELF" (11.3.2 requires both); shmpi knows no other
 * grouping of a job's processes (they share one node and one launch),
 * so it offers none.  Names are matched exactly: 11.3.2 leaves case to
 * the implementation, and Open MPI and MPICH both compare exactly.
 *
 * Errors of these calls go to the session's handler
 * (shmpi_raise_session); a handle that is no session is MPI_ERR_SESSION,
 * raised on MPI_COMM_WORLD's handler since there is no session to take
 * one from.  MPI_Session_init's errors go to the handler it was given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "core/error.h"
#include "core/fint.h"
#include "core/info.h"
#include "core/pmpi.h"
#include "init/init.h"
#include "pt2pt/pt2pt.h"

SHMPI_WEAK_ALIAS(Session_init)
SHMPI_WEAK_ALIAS(Session_finalize)
SHMPI_WEAK_ALIAS(Session_get_num_psets)
SHMPI_WEAK_ALIAS(Session_get_nth_pset)
SHMPI_WEAK_ALIAS(Session_get_info)
SHMPI_WEAK_ALIAS(Session_get_pset_info)
SHMPI_WEAK_ALIAS(Session_create_errhandler)
SHMPI_WEAK_ALIAS(Session_set_errhandler)
SHMPI_WEAK_ALIAS(Session_get_errhandler)
SHMPI_WEAK_ALIAS(Session_call_errhandler)
SHMPI_WEAK_ALIAS(Group_from_session_pset)
SHMPI_WEAK_ALIAS(Session_c2f)
SHMPI_WEAK_ALIAS(Session_f2c)

static const char *const psets[] = {"mpi://WORLD", "mpi://SELF"};
#define NPSETS ((int)(sizeof psets / sizeof psets[0]))

static const struct { int level; const char *name; } levels[] = {
    {MPI_THREAD_SINGLE, "MPI_THREAD_SINGLE"},
    {MPI_THREAD_FUNNELED, "MPI_THREAD_FUNNELED"},
    {MPI_THREAD_SERIALIZED, "MPI_THREAD_SERIALIZED"},
    {MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE"}};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

/* The "thread_level" hint (11.3.1): MPI_THREAD_SINGLE when it is not
   set or names no level, as an unrecognized hint value is ignored
   (core/info.h). */
static int requested_level(MPI_Info info)
{
    const char *v = shmpi_info_get(info, "thread_level");
    for (int i = 0; v && i < NLEVELS; i++)
        if (strcmp(v, levels[i].name) == 0)
            return levels[i].level;
    return MPI_THREAD_SINGLE;
}

/* The name of a level shmpi_init_thread_level gave. */
static const char *level_name(int level)
{
    int i = 0;
    while (i < NLEVELS - 1 && levels[i].level != level)
        i++;
    return levels[i].name;
}

/* Which pset `name` is, or -1. */
static int pset_index(const char *name)
{
    for (int i = 0; i < NPSETS; i++)
        if (strcmp(name, psets[i]) == 0)
            return i;
    return -1;
}

static int bad_session(MPI_Session session, const char *fn)
{
    return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_SESSION, fn, "%s",
                       session == MPI_SESSION_NULL
                           ? "the session is MPI_SESSION_NULL"
                           : "not a valid session (finalized, or never "
                             "made)");
}

/* A handler a session may have (11.3.1, 9.3): a predefined one or one
   made by MPI_Session_create_errhandler. */
static const char *session_handler_problem(MPI_Errhandler eh)
{
    if (!shmpi_errhandler_ok(eh))
        return "errhandler is not a valid error handler";
    if (eh->kind == SHMPI_EH_COMM_FN || eh->kind == SHMPI_EH_WIN_FN)
        return "the error handler was made for communicators or windows; "
               "a session takes a predefined one or one made by "
               "MPI_Session_create_errhandler";
    return NULL;
}

static int init_checks(MPI_Info info, MPI_Errhandler errhandler,
                       MPI_Session *session, const char *fn)
{
    const char *why = session_handler_problem(errhandler);
    if (why)
        return shmpi_raise_handler(errhandler, MPI_ERR_ARG, fn, "%s", why);
    if (!session)
        return shmpi_raise_handler(errhandler, MPI_ERR_ARG, fn,
                                   "session is NULL");
    if (info != MPI_INFO_NULL && !shmpi_info_ok(info))
        return shmpi_raise_handler(errhandler, MPI_ERR_INFO, fn,
                                   "info is not a valid info object");
    return MPI_SUCCESS;
}

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler,
                      MPI_Session *session)
{
    static const char fn[] = "MPI_Session_init";
    int rc = init_checks(info, errhandler, session, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int required = requested_level(info);
    if (shmpi_init_runtime_enter(fn, NULL, NULL, required) != 0)
        return shmpi_raise_handler(errhandler, MPI_ERR_OTHER, fn,
                                   "MPI has ended in this process (the last "
                                   "of MPI_Finalize and MPI_Session_finalize"
                                   " ran) and cannot start again");
    struct shmpi_session *s = calloc(1, sizeof *s);
    MPI_Info copy = MPI_INFO_NULL;
    if (!s || (info != MPI_INFO_NULL &&
               PMPI_Info_dup(info, &copy) != MPI_SUCCESS)) {
        free(s);
        shmpi_init_runtime_leave();
        return shmpi_raise_handler(errhandler, MPI_ERR_NO_MEM, fn,
                                   "no memory for a session");
    }
    shmpi_core_errhandler_retain(errhandler);
    *s = (struct shmpi_session){.magic = SHMPI_MAGIC_SESSION,
                                .errhandler = errhandler,
                                .thread_level =
                                    shmpi_init_thread_level(required),
                                .info = copy};
    *session = s;
    return MPI_SUCCESS;
}

/* The program frees what it made from the session before (11.3.1);
   what it did not free stays valid until the runtime goes down. */
int PMPI_Session_finalize(MPI_Session *session)
{
    static const char fn[] = "MPI_Session_finalize";
    SHMPI_REQUIRE_INIT(fn);
    if (!session)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "session is NULL");
    struct shmpi_session *s = *session;
    if (!shmpi_session_ok(s))
        return bad_session(s, fn);
    shmpi_p2p_session_buffer_free(s);
    if (s->info != MPI_INFO_NULL)
        PMPI_Info_free(&s->info);
    shmpi_fint_drop(SHMPI_FINT_SESSION, &s->fint);
    shmpi_core_errhandler_release(s->errhandler);
    s->magic = 0;
    free(s);
    *session = MPI_SESSION_NULL;
    shmpi_init_runtime_leave();
    return MPI_SUCCESS;
}

/* Entry of the calls on a session: the runtime is up while a session
   is, so a valid session implies the entry check passes. */
#define SESSION_ENTRY(s, fn)                                              \
    do {                                                                  \
        SHMPI_REQUIRE_INIT(fn);                                           \
        if (!shmpi_session_ok(s))                                         \
            return bad_session(s, fn);                                    \
    } while (0)

static int check_query_info(MPI_Session session, MPI_Info info,
                            const char *fn)
{
    if (info != MPI_INFO_NULL && !shmpi_info_ok(info))
        return shmpi_raise_session(session, MPI_ERR_INFO, fn,
                                   "info is not a valid info object");
    return MPI_SUCCESS;
}

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info,
                               int *npset_names)
{
    static const char fn[] = "MPI_Session_get_num_psets";
    SESSION_ENTRY(session, fn);
    int rc = check_query_info(session, info, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!npset_names)
        return shmpi_raise_session(session, MPI_ERR_ARG, fn,
                                   "npset_names is NULL");
    *npset_names = NPSETS;
    return MPI_SUCCESS;
}

/* 11.3.2: *pset_len in is the buffer's size; 0 asks only for the size
   the name needs, which is what *pset_len holds on return either way
   (the terminating NUL included); a shorter buffer gets the name cut,
   still terminated. */
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n,
                              int *pset_len, char *pset_name)
{
    static const char fn[] = "MPI_Session_get_nth_pset";
    SESSION_ENTRY(session, fn);
    int rc = check_query_info(session, info, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (n < 0 || n >= NPSETS)
        return shmpi_raise_session(session, MPI_ERR_ARG, fn,
                                   "n = %d, but the session has %d process "
                                   "sets (0 .. %d)", n, NPSETS, NPSETS - 1);
    if (!pset_len || *pset_len < 0)
        return shmpi_raise_session(session, MPI_ERR_ARG, fn,
                                   pset_len ? "*pset_len is negative"
                                            : "pset_len is NULL");
    if (*pset_len > 0 && !pset_name)
        return shmpi_raise_session(session, MPI_ERR_ARG, fn,
                                   "pset_name is NULL");
    if (*pset_len > 0)
        snprintf(pset_name, (size_t)*pset_len, "%s", psets[n]);
    *pset_len = (int)strlen(psets[n]) + 1;
    return MPI_SUCCESS;
}

/* The index of pset_name, or -1 with the error raised (*rc). */
static int find_pset(MPI_Session session, const char *pset_name, int *rc,
                     const char *fn)
{
    int i = pset_name ? pset_index(pset_name) : -1;
    if (i >= 0)
        return i;
    *rc = pset_name ? shmpi_raise_session(session, MPI_ERR_ARG, fn,
                                          "no process set is named \"%.*s\""
                                          " (this session has "
                                          "\"mpi://WORLD\" and "
                                          "\"mpi://SELF\")",
                                          MPI_MAX_PSET_NAME_LEN, pset_name)
                    : shmpi_raise_session(session, MPI_ERR_ARG, fn,
                                          "pset_name is NULL");
    return -1;
}

/* A new info object with key = value, or NULL. */
static MPI_Info info_with(const char *key, const char *value)
{
    struct shmpi_info *i = shmpi_info_new();
    if (i && shmpi_info_set(i, key, value) != MPI_SUCCESS) {
        shmpi_info_destroy(i);
        return NULL;
    }
    return i;
}

int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name,
                               MPI_Info *info)
{
    static const char fn[] = "MPI_Session_get_pset_info";
    SESSION_ENTRY(session, fn);
    int rc = MPI_SUCCESS;
    int i = find_pset(session, pset_name, &rc, fn);
    if (i < 0)
        return rc;
    if (!info)
        return shmpi_raise_session(session, MPI_ERR_ARG, fn, "info is NULL");
    char size[16];
    snprintf(size, sizeof size, "%d", i == 0 ? shmpi_proc.size : 1);
    if (!(*info = info_with("mpi_size", size)))
        return shmpi_raise_session(session, MPI_ERR_NO_MEM, fn,
                                   "no memory for an info object");
    return MPI_SUCCESS;
}

/* The hints the session was given, with "thread_level" saying the level
   it has (11.3.1). */
int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    static const char fn[] = "MPI_Session_get_info";
    SESSION_ENTRY(session, fn);
    if (!info_used)
        return shmpi_raise_session(session, MPI_ERR_ARG, fn,
                                   "info_used is NULL");
    MPI_Info i = MPI_INFO_NULL;
    if (session->info != MPI_INFO_NULL)
        PMPI_Info_dup(session->info, &i);
    else
        i = shmpi_info_new();
    if (!i || shmpi_info_set(i, "thread_level",
                             level_name(session->thread_level)) !=
                  MPI_SUCCESS) {
        if (i)
            PMPI_Info_free(&i);
        return shmpi_raise_session(session, MPI_ERR_NO_MEM, fn,
                                   "no memory for an info object");
    }
    *info_used = i;
    return MPI_SUCCESS;
}

/* A group of its own (of world's or self's members) that knows the
   session, so that communicators made from it use the session's buffer
   (pt2pt/bsend.c); NULL if out of memory. */
static struct shmpi_group *session_group(MPI_Session session, int pset)
{
    struct shmpi_group *of =
        shmpi_comm_get_group(pset == 0 ? MPI_COMM_WORLD : MPI_COMM_SELF);
    struct shmpi_group *g = of ? shmpi_group_alloc(of->size) : NULL;
    if (g) {
        memcpy(g->ranks, of->ranks, (size_t)of->size * sizeof *g->ranks);
        shmpi_group_finish(g);
        g->session = session;
    }
    if (of)
        shmpi_group_release(of);
    return g;
}

int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
                                 MPI_Group *newgroup)
{
    static const char fn[] = "MPI_Group_from_session_pset";
    SESSION_ENTRY(session, fn);
    int rc = MPI_SUCCESS;
    int i = find_pset(session, pset_name, &rc, fn);
    if (i < 0)
        return rc;
    if (!newgroup)
        return shmpi_raise_session(session, MPI_ERR_ARG, fn,
                                   "newgroup is NULL");
    struct shmpi_group *g = session_group(session, i);
    if (!g)
        return shmpi_raise_session(session, MPI_ERR_NO_MEM, fn,
                                   "no memory for a group");
    *newgroup = g;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Error handlers                                                      */
/* ------------------------------------------------------------------ */

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *fnp,
                                   MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Session_create_errhandler";
    if (!fnp || !errhandler)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "%s is NULL",
                           fnp ? "errhandler" : "session_errhandler_fn");
    struct shmpi_errhandler *eh = malloc(sizeof *eh);
    if (!eh)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "no memory for an error handler");
    *eh = (struct shmpi_errhandler){.magic = SHMPI_MAGIC_ERRHANDLER,
                                    .kind = SHMPI_EH_SESSION_FN,
                                    .refs = 1,
                                    .session_fn = fnp};
    *errhandler = eh;
    return MPI_SUCCESS;
}

int PMPI_Session_set_errhandler(MPI_Session session,
                                MPI_Errhandler errhandler)
{
    static const char fn[] = "MPI_Session_set_errhandler";
    SESSION_ENTRY(session, fn);
    const char *why = session_handler_problem(errhandler);
    if (why)
        return shmpi_raise_session(session, MPI_ERR_ARG, fn, "%s", why);
    shmpi_core_errhandler_swap(&session->errhandler, errhandler);
    return MPI_SUCCESS;
}

int PMPI_Session_get_errhandler(MPI_Session session,
                                MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Session_get_errhandler";
    SESSION_ENTRY(session, fn);
    if (!errhandler)
        return shmpi_raise_session(session, MPI_ERR_ARG, fn,
                                   "errhandler is NULL");
    /* a new reference, which the caller frees (9.3) */
    *errhandler = shmpi_core_errhandler_hold(&session->errhandler);
    return MPI_SUCCESS;
}

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    static const char fn[] = "MPI_Session_call_errhandler";
    SESSION_ENTRY(session, fn);
    shmpi_raise_session(session, errorcode, fn, "called with error code %d",
                        errorcode);
    /* 9.3.5: MPI_SUCCESS if the handler returned */
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Fortran integers                                                    */
/* ------------------------------------------------------------------ */

static struct shmpi_session invalid_session;
static const struct shmpi_fint_kind sessions = {
    SHMPI_FINT_SESSION, 1, (void *const[]){MPI_SESSION_NULL},
    &invalid_session};

MPI_Fint PMPI_Session_c2f(MPI_Session session)
{
    static const char fn[] = "MPI_Session_c2f";
    SHMPI_REQUIRE_INIT(fn);
    if (session == MPI_SESSION_NULL)
        return 0;
    if (!shmpi_session_ok(session))
        return shmpi_fint_raise_bad(MPI_ERR_SESSION, fn,
                                    "session is not a valid session "
                                    "(finalized, or never made)");
    return shmpi_fint_of(&sessions, session, &session->fint, fn);
}

MPI_Session PMPI_Session_f2c(MPI_Fint session)
{
    SHMPI_REQUIRE_INIT("MPI_Session_f2c");
    return shmpi_fint_object(&sessions, session);
}
