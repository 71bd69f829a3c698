/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tool.c - MPI_T_init_thread and MPI_T_finalize (MPI-3.1 14.3.4), the
 * lock every MPI_T call takes, and the string convention (14.3.3).
 *
 * MPI_T_init_thread may be called any number of times, before MPI_Init,
 * between it and MPI_Finalize, and after; each call must be matched by
 * an MPI_T_finalize, and the interface is usable while more of the
 * first have returned than of the second.  The last MPI_T_finalize
 * frees every handle and session still allocated: after it, they are
 * not valid even if the interface is initialized again.
 *
 * The thread level provided is the one required, up to
 * MPI_THREAD_MULTIPLE: every call takes shmpi_proc.tool_lock, whatever
 * MPI's own level (tool.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/lock.h"
#include "core/pmpi.h"
#include "tool/tool.h"

SHMPI_WEAK_ALIAS(T_init_thread)
SHMPI_WEAK_ALIAS(T_finalize)

int shmpi_tool_enter(void)
{
    shmpi_core_mutex_lock(&shmpi_proc.tool_lock);
    if (shmpi_proc.tool)
        return MPI_SUCCESS;
    shmpi_core_mutex_unlock(&shmpi_proc.tool_lock);
    return MPI_T_ERR_NOT_INITIALIZED;
}

void shmpi_tool_leave(void)
{
    shmpi_core_mutex_unlock(&shmpi_proc.tool_lock);
}

void shmpi_tool_string(const char *s, char *buf, int *len)
{
    if (!len)
        return;
    size_t n = strlen(s);
    if (!buf || *len <= 0) {
        *len = (int)n + 1;
        return;
    }
    if (n > (size_t)*len - 1)
        n = (size_t)*len - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    *len = (int)n + 1;
}

/* shmpi_proc.tool, with tool_lock held: under the event lock too, as
   event.c's raise reads it under that one alone. */
static void set_state(struct shmpi_tool *t)
{
    shmpi_core_mutex_lock(&shmpi_proc.watch.event_lock);
    shmpi_proc.tool = t;
    shmpi_core_mutex_unlock(&shmpi_proc.watch.event_lock);
}

int PMPI_T_init_thread(int required, int *provided)
{
    if ((required != MPI_THREAD_SINGLE && required != MPI_THREAD_FUNNELED &&
         required != MPI_THREAD_SERIALIZED &&
         required != MPI_THREAD_MULTIPLE) || !provided)
        return MPI_T_ERR_INVALID;
    shmpi_core_mutex_lock(&shmpi_proc.tool_lock);
    int rc = MPI_SUCCESS;
    if (!shmpi_proc.tool)
        set_state(calloc(1, sizeof *shmpi_proc.tool));
    if (!shmpi_proc.tool)
        rc = MPI_T_ERR_MEMORY;
    else
        shmpi_proc.tool->nesting++;
    atomic_store_explicit(&shmpi_proc.watch.forget, shmpi_tool_forget,
                          memory_order_release);
    shmpi_core_mutex_unlock(&shmpi_proc.tool_lock);
    if (rc == MPI_SUCCESS)
        *provided = required;
    return rc;
}

static void free_state(struct shmpi_tool *t)
{
    while (t->cvars) {
        struct shmpi_tool_cvar *c = t->cvars;
        t->cvars = c->next;
        free(c);
    }
    shmpi_tool_sessions_free(t);
    shmpi_tool_events_free(t);
    free(t);
}

int PMPI_T_finalize(void)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_tool *t = shmpi_proc.tool;
    if (--t->nesting == 0) {
        set_state(NULL);
        free_state(t);
    }
    shmpi_tool_leave();
    return MPI_SUCCESS;
}
