/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * category.c - the categories of MPI_T (MPI-3.1 14.3.8): the variables
 * grouped by the room or concern of shmpi that reads them.
 *
 * Category 0, "shmpi", holds the others and no variable; each of the
 * others holds the control variables (cvar.c's table) and performance
 * variables (pvar.c's) of its concern, and no category.  They are fixed
 * when the library is built, so MPI_T_category_changed's stamp never
 * changes.
 */
#include <string.h>

#include "core/pmpi.h"
#include "tool/tool.h"

SHMPI_WEAK_ALIAS(T_category_get_num)
SHMPI_WEAK_ALIAS(T_category_get_info)
SHMPI_WEAK_ALIAS(T_category_get_index)
SHMPI_WEAK_ALIAS(T_category_get_cvars)
SHMPI_WEAK_ALIAS(T_category_get_pvars)
SHMPI_WEAK_ALIAS(T_category_get_categories)
SHMPI_WEAK_ALIAS(T_category_changed)
SHMPI_WEAK_ALIAS(T_category_get_num_events)
SHMPI_WEAK_ALIAS(T_category_get_events)

static const struct {
    const char *name, *desc;
} cats[SHMPI_TOOL_CATS] = {
    [SHMPI_TOOL_CAT_ALL] = {"shmpi", "every variable of shmpi, by concern"},
    [SHMPI_TOOL_CAT_LAUNCH] = {"shmpi_launch",
        "starting a job: mpirun, and MPI_Init's in-library launch"},
    [SHMPI_TOOL_CAT_ARENA] = {"shmpi_arena",
        "the job's shared-memory arena: its layout, laid out at the launch"},
    [SHMPI_TOOL_CAT_PT2PT] = {"shmpi_pt2pt",
        "point-to-point messages: protocols, rings, memory for messages "
        "before their receive"},
    [SHMPI_TOOL_CAT_COLL] = {"shmpi_coll",
        "collectives in shared memory"},
    [SHMPI_TOOL_CAT_COMM] = {"shmpi_comm", "communicators"},
    [SHMPI_TOOL_CAT_WAIT] = {"shmpi_wait",
        "how a blocked call waits: spin, yield, sleep"},
    [SHMPI_TOOL_CAT_MEMORY] = {"shmpi_memory",
        "memory of MPI_Alloc_mem"},
    [SHMPI_TOOL_CAT_RMA] = {"shmpi_rma",
        "one-sided communication: the calls issued on each window"},
};

int PMPI_T_category_get_num(int *num_cat)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (num_cat)
        *num_cat = SHMPI_TOOL_CATS;
    shmpi_tool_leave();
    return num_cat ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

enum kind { CVARS, PVARS, CATEGORIES, EVENTS };

/* The members of category c of a kind: their indices, the first len of
   them into indices (when not NULL); returns how many there are. */
static int members(enum shmpi_tool_cat c, enum kind kind, int len,
                   int indices[])
{
    int n = 0, total = kind == CVARS        ? shmpi_tool_cvar_count()
                       : kind == PVARS      ? shmpi_tool_pvar_count()
                       : kind == EVENTS     ? SHMPI_EVENTS
                                            : SHMPI_TOOL_CATS;
    for (int i = 0; i < total; i++) {
        int in = kind == CVARS    ? shmpi_tool_cvar_category(i) == c
                 : kind == PVARS  ? shmpi_tool_pvar_category(i) == c
                 : kind == EVENTS ? shmpi_tool_event_category(i) == c
                                  : c == SHMPI_TOOL_CAT_ALL &&
                                        i != SHMPI_TOOL_CAT_ALL;
        if (in && indices && n < len)
            indices[n] = i;
        n += in;
    }
    return n;
}

static void set(int *out, int v)
{
    if (out)
        *out = v;
}

int PMPI_T_category_get_info(int cat_index, char *name, int *name_len,
                             char *desc, int *desc_len, int *num_cvars,
                             int *num_pvars, int *num_categories)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (cat_index < 0 || cat_index >= SHMPI_TOOL_CATS) {
        rc = MPI_T_ERR_INVALID_INDEX;
    } else {
        shmpi_tool_string(cats[cat_index].name, name, name_len);
        shmpi_tool_string(cats[cat_index].desc, desc, desc_len);
        set(num_cvars, members((enum shmpi_tool_cat)cat_index, CVARS, 0, NULL));
        set(num_pvars, members((enum shmpi_tool_cat)cat_index, PVARS, 0, NULL));
        set(num_categories, members((enum shmpi_tool_cat)cat_index, CATEGORIES, 0, NULL));
    }
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    rc = name && cat_index ? MPI_T_ERR_INVALID_NAME : MPI_T_ERR_INVALID;
    for (int i = 0; rc == MPI_T_ERR_INVALID_NAME && i < SHMPI_TOOL_CATS; i++)
        if (strcmp(name, cats[i].name) == 0) {
            *cat_index = i;
            rc = MPI_SUCCESS;
        }
    shmpi_tool_leave();
    return rc;
}

static int get(int cat_index, enum kind kind, int len, int indices[])
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (cat_index < 0 || cat_index >= SHMPI_TOOL_CATS)
        rc = MPI_T_ERR_INVALID_INDEX;
    else if (len < 0 || (len > 0 && !indices))
        rc = MPI_T_ERR_INVALID;
    else
        members((enum shmpi_tool_cat)cat_index, kind, len, indices);
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    return get(cat_index, CVARS, len, indices);
}

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    return get(cat_index, PVARS, len, indices);
}

int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    return get(cat_index, CATEGORIES, len, indices);
}

int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    return get(cat_index, EVENTS, len, indices);
}

int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (cat_index < 0 || cat_index >= SHMPI_TOOL_CATS)
        rc = MPI_T_ERR_INVALID_INDEX;
    else if (!num_events)
        rc = MPI_T_ERR_INVALID;
    else
        *num_events = members((enum shmpi_tool_cat)cat_index, EVENTS, 0,
                              NULL);
    shmpi_tool_leave();
    return rc;
}

int PMPI_T_category_changed(int *stamp)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (stamp)
        *stamp = 0;
    shmpi_tool_leave();
    return stamp ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}
