/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvar.c - the control variables of MPI_T (MPI-3.1 14.3.6): one for each
 * tunable of core/tunables.c, cvar i being tunable id i, with its name,
 * its help as the description, and its value in the kept form.
 *
 * Datatype: a CHOICE or BOOL tunable is an MPI_INT with an enumeration
 * (enum.c), its index in its list (-1: "unset"); every other one an
 * MPI_UNSIGNED_LONG_LONG - sizes in bytes, times in ns, counts as they
 * are - with UINT64_MAX for "unset" (SHMPI_NP: a singleton).
 * Verbosity MPI_T_VERBOSITY_USER_BASIC, binding MPI_T_BIND_NO_OBJECT.
 *
 * The value read:
 *   - a tunable this process reads in MPI_Init, or a job-wide one (the
 *     arena header's): once MPI_Init has run, the value in effect
 *     (shmpi_proc.tun; after MPI_Finalize too); before, what MPI_Init
 *     would take from this process's environment, or the default of a
 *     job whose ranks do not outnumber its CPUs;
 *   - a tunable only a launcher reads (mpirun, or MPI_Init's in-library
 *     launch: SHMPI_NP, SHMPI_BIND_TO, MPIEXEC_TIMEOUT, ...): what this
 *     process's environment says, or the default - what a launch from
 *     this process would use, not what launched it;
 *   - SHMPI_SPIN_US and SHMPI_YIELDS once MPI_Init has run: the wait
 *     policy in force (core/wait.c), which MPI_T_cvar_write changes.
 * A variable whose text in the environment is garbage reads as
 * MPI_T_ERR_INVALID (MPI_Init refuses it as well, naming it).
 *
 * Scope: the wait policy is this process's alone and a waiting call
 * reads it anew each time, so SHMPI_SPIN_US and SHMPI_YIELDS are
 * MPI_T_SCOPE_LOCAL and writable once MPI_Init has set them (before,
 * MPI_T_ERR_CVAR_SET_NOT_NOW: MPI_Init would overwrite them).  Every
 * other value is read once, at MPI_Init or at the launch, and shapes
 * the arena, the protocol or memory already laid out: read-only,
 * MPI_T_SCOPE_READONLY (its value can still change, at MPI_Init), and a
 * write fails with MPI_T_ERR_CVAR_SET_NEVER.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pmpi.h"
#include "core/tunables.h"
#include "core/wait.h"
#include "tool/tool.h"

SHMPI_WEAK_ALIAS(T_cvar_get_num)
SHMPI_WEAK_ALIAS(T_cvar_get_info)
SHMPI_WEAK_ALIAS(T_cvar_get_index)
SHMPI_WEAK_ALIAS(T_cvar_handle_alloc)
SHMPI_WEAK_ALIAS(T_cvar_handle_free)
SHMPI_WEAK_ALIAS(T_cvar_read)
SHMPI_WEAK_ALIAS(T_cvar_write)

/* The category of each tunable (tool.h): the room or concern that reads
   it.  A tunable added to the table without one is in none, which
   test/mpit_category_ext.c catches. */
static const unsigned char category[SHMPI_TUN_COUNT] = {
    [SHMPI_TUN_NP] = SHMPI_TOOL_CAT_LAUNCH,
    [SHMPI_TUN_BIND_TO] = SHMPI_TOOL_CAT_LAUNCH,
    [SHMPI_TUN_TAG_OUTPUT] = SHMPI_TOOL_CAT_LAUNCH,
    [SHMPI_TUN_REPORT_BINDINGS] = SHMPI_TOOL_CAT_LAUNCH,
    [SHMPI_TUN_TIMEOUT] = SHMPI_TOOL_CAT_LAUNCH,
    [SHMPI_TUN_KILL_GRACE_MS] = SHMPI_TOOL_CAT_LAUNCH,
    [SHMPI_TUN_DEADLOCK_MS] = SHMPI_TOOL_CAT_LAUNCH,
    [SHMPI_TUN_HANG_REPORT] = SHMPI_TOOL_CAT_LAUNCH,
    [SHMPI_TUN_RING_KB] = SHMPI_TOOL_CAT_ARENA,
    [SHMPI_TUN_FAST_RINGS] = SHMPI_TOOL_CAT_ARENA,
    [SHMPI_TUN_OUTBOX_KB] = SHMPI_TOOL_CAT_ARENA,
    [SHMPI_TUN_LANES] = SHMPI_TOOL_CAT_ARENA,
    [SHMPI_TUN_SYNC_COUNTERS] = SHMPI_TOOL_CAT_ARENA,
    [SHMPI_TUN_COLL_AREAS] = SHMPI_TOOL_CAT_ARENA,
    [SHMPI_TUN_COLL_SLOT_KB] = SHMPI_TOOL_CAT_ARENA,
    [SHMPI_TUN_EAGER_LIMIT] = SHMPI_TOOL_CAT_PT2PT,
    [SHMPI_TUN_CHUNK] = SHMPI_TOOL_CAT_PT2PT,
    [SHMPI_TUN_FAST_AFTER] = SHMPI_TOOL_CAT_PT2PT,
    [SHMPI_TUN_RING_MIN_KB] = SHMPI_TOOL_CAT_PT2PT,
    [SHMPI_TUN_RING_GROW_AFTER] = SHMPI_TOOL_CAT_PT2PT,
    [SHMPI_TUN_PULL_LIMIT_MB] = SHMPI_TOOL_CAT_PT2PT,
    [SHMPI_TUN_UNEXPECTED_MB] = SHMPI_TOOL_CAT_PT2PT,
    [SHMPI_TUN_COLL_FOLD_MAX] = SHMPI_TOOL_CAT_COLL,
    [SHMPI_TUN_COLL_BARRIER] = SHMPI_TOOL_CAT_COLL,
    [SHMPI_TUN_SPIN_US] = SHMPI_TOOL_CAT_WAIT,
    [SHMPI_TUN_YIELDS] = SHMPI_TOOL_CAT_WAIT,
    [SHMPI_TUN_CHECK] = SHMPI_TOOL_CAT_LAUNCH,
};

int shmpi_tool_cvar_count(void)
{
    return SHMPI_TUN_COUNT;
}

enum shmpi_tool_cat shmpi_tool_cvar_category(int i)
{
    return (enum shmpi_tool_cat)category[i];
}

static int writable(int id)
{
    return id == SHMPI_TUN_SPIN_US || id == SHMPI_TUN_YIELDS;
}

static int launcher_only(int id)
{
    const struct shmpi_tunable *t = &shmpi_tun_table[id];
    return t->reader != SHMPI_TUN_BY_RANK && t->scope != SHMPI_TUN_JOB;
}

static int is_enum(int id)
{
    enum shmpi_tun_type type = shmpi_tun_table[id].type;
    return type == SHMPI_TUN_BOOL || type == SHMPI_TUN_CHOICE;
}

static int init_has_run(void)
{
    /* acquire: shmpi_proc.tun and the wait policy were set before
       MPI_Init's release store */
    return atomic_load_explicit(&shmpi_proc.initialized,
                                memory_order_acquire);
}

/* The value of tunable id (above), kept form; MPI_SUCCESS or
   MPI_T_ERR_INVALID for garbage in the environment. */
static int value(int id, uint64_t *v)
{
    if (init_has_run() && id == SHMPI_TUN_SPIN_US) {
        *v = (uint64_t)atomic_load_explicit(&shmpi_proc.wait.spin_ns,
                                            memory_order_relaxed) / 1000;
        return MPI_SUCCESS;
    }
    if (init_has_run() && id == SHMPI_TUN_YIELDS) {
        *v = (uint64_t)atomic_load_explicit(&shmpi_proc.wait.yields,
                                            memory_order_relaxed);
        return MPI_SUCCESS;
    }
    if (init_has_run() && !launcher_only(id)) {
        *v = shmpi_proc.tun.value[id];
        return MPI_SUCCESS;
    }
    char err[SHMPI_TUN_ERR];
    int r = shmpi_tun_read(id, NULL, v, err, sizeof err);
    if (r == 0)
        *v = shmpi_tun_default(id, 0);
    return r < 0 ? MPI_T_ERR_INVALID : MPI_SUCCESS;
}

/* "help; in bytes, from 0 to 1073741824; default 16 KiB[; ...]" */
static void describe(int id, char *buf, size_t len)
{
    const struct shmpi_tunable *t = &shmpi_tun_table[id];
    char dflt[96], range[96] = "";
    if (t->dflt_text)
        snprintf(dflt, sizeof dflt, "%s", t->dflt_text);
    else
        shmpi_tun_format(id, t->dflt, dflt, sizeof dflt);
    const char *unit = t->type == SHMPI_TUN_SIZE      ? "bytes"
                       : t->type == SHMPI_TUN_SECONDS ? "ns"
                       : t->unit                      ? t->unit
                                                      : "";
    if (!is_enum(id))
        snprintf(range, sizeof range, "; in %s, from %llu to %llu", unit,
                 (unsigned long long)t->min, (unsigned long long)t->max);
    snprintf(buf, len, "%s%s; default %s%s%s", t->help, range, dflt,
             launcher_only(id) ? "; read by a launcher: this process's "
                                 "environment's value"
                               : "",
             writable(id) ? "; writable after MPI_Init" : "");
}

int PMPI_T_cvar_get_num(int *num_cvar)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (num_cvar)
        *num_cvar = shmpi_tool_cvar_count();
    shmpi_tool_leave();
    return num_cvar ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

static void info(int id, char *name, int *name_len, int *verbosity,
                 MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
                 int *desc_len, int *bind, int *scope)
{
    char text[512];
    shmpi_tool_string(shmpi_tun_table[id].name, name, name_len);
    if (verbosity)
        *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    if (datatype)
        *datatype = is_enum(id) ? MPI_INT : MPI_UNSIGNED_LONG_LONG;
    if (enumtype)
        *enumtype = shmpi_tool_enum_of(id);
    describe(id, text, sizeof text);
    shmpi_tool_string(text, desc, desc_len);
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope)
        *scope = writable(id) ? MPI_T_SCOPE_LOCAL : MPI_T_SCOPE_READONLY;
}

int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len,
                         int *verbosity, MPI_Datatype *datatype,
                         MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *scope)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (cvar_index < 0 || cvar_index >= shmpi_tool_cvar_count())
        rc = MPI_T_ERR_INVALID_INDEX;
    else
        info(cvar_index, name, name_len, verbosity, datatype, enumtype, desc,
             desc_len, bind, scope);
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    rc = name && cvar_index ? MPI_T_ERR_INVALID_NAME : MPI_T_ERR_INVALID;
    for (int i = 0; rc == MPI_T_ERR_INVALID_NAME && i < SHMPI_TUN_COUNT; i++)
        if (strcmp(name, shmpi_tun_table[i].name) == 0) {
            *cvar_index = i;
            rc = MPI_SUCCESS;
        }
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle,
                             MPI_T_cvar_handle *handle, int *count)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_tool *t = shmpi_proc.tool;
    struct shmpi_tool_cvar *c = NULL;
    if (cvar_index < 0 || cvar_index >= shmpi_tool_cvar_count())
        rc = MPI_T_ERR_INVALID_INDEX;
    else if (!handle || !count)
        rc = MPI_T_ERR_INVALID;
    else if (!(c = malloc(sizeof *c)))
        rc = MPI_T_ERR_MEMORY;
    if (c) {
        c->index = cvar_index;
        c->next = t->cvars;
        t->cvars = c;
        *handle = c;
        *count = 1;
    }
    shmpi_tool_leave();
    return rc;
}

/* With the lock held: where h is linked in the live handles, or NULL
   when h is not a live handle. */
static struct shmpi_tool_cvar **find(MPI_T_cvar_handle h)
{
    struct shmpi_tool_cvar **at = &shmpi_proc.tool->cvars;
    while (*at && *at != h)
        at = &(*at)->next;
    return *at ? at : NULL;
}

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_tool_cvar **at = handle ? find(*handle) : NULL;
    if (!at) {
        rc = MPI_T_ERR_INVALID_HANDLE;
    } else {
        *at = (*handle)->next;
        free(*handle);
        *handle = MPI_T_CVAR_HANDLE_NULL;
    }
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    uint64_t v = 0;
    if (!find(handle))
        rc = MPI_T_ERR_INVALID_HANDLE;
    else if (!buf)
        rc = MPI_T_ERR_INVALID;
    else
        rc = value(handle->index, &v);
    if (rc == MPI_SUCCESS && is_enum(handle->index)) {
        int i = v == SHMPI_TUN_UNSET ? -1 : (int)v;
        memcpy(buf, &i, sizeof i);
    } else if (rc == MPI_SUCCESS) {
        unsigned long long u = v;
        memcpy(buf, &u, sizeof u);
    }
    shmpi_tool_leave();
    return rc;
}

/* Whether buf may be written to tunable id now; MPI_SUCCESS and the
   value in *v if so.  buf is read only then: a read-only variable may
   be an MPI_INT, smaller than *v. */
static int check_write(int id, const void *buf, unsigned long long *v)
{
    const struct shmpi_tunable *t = &shmpi_tun_table[id];
    if (!writable(id))
        return MPI_T_ERR_CVAR_SET_NEVER;
    if (!init_has_run())
        return MPI_T_ERR_CVAR_SET_NOT_NOW;
    memcpy(v, buf, sizeof *v);
    return *v < t->min || *v > t->max ? MPI_T_ERR_INVALID : MPI_SUCCESS;
}

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    unsigned long long v = 0;
    if (!find(handle))
        rc = MPI_T_ERR_INVALID_HANDLE;
    else if (!buf)
        rc = MPI_T_ERR_INVALID;
    else
        rc = check_write(handle->index, buf, &v);
    if (rc == MPI_SUCCESS && handle->index == SHMPI_TUN_SPIN_US)
        shmpi_core_wait_set_spin(v);
    else if (rc == MPI_SUCCESS)
        shmpi_core_wait_set_yields(v);
    shmpi_tool_leave();
    return rc;
}
