/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * enum.c - the enumerations of MPI_T (MPI-3.1 14.3.5): the named values
 * of the tunables that have them.
 *
 * A CHOICE tunable (core/tunables.h) is an enumeration of its own,
 * named as the tunable, whose items are its choices with their indices
 * as values (the kept form); a tunable whose default is "unset" (its
 * default is decided at run time: SHMPI_BIND_TO) has an item "unset",
 * value -1, besides.  Every BOOL tunable shares the enumeration
 * "shmpi_yes_no": no = 0, yes = 1, which performance variables of class
 * MPI_T_PVAR_CLASS_STATE use too (pvar.c).  The handle of tunable id's is
 * &enums[id], yes_no's &enums[SHMPI_TUN_COUNT]: the table's contents
 * never matter, only where a handle points, so that a new CHOICE
 * tunable gets its enumeration without another list to keep.
 */
#include <stdint.h>

#include "core/pmpi.h"
#include "core/tunables.h"
#include "tool/tool.h"

SHMPI_WEAK_ALIAS(T_enum_get_info)
SHMPI_WEAK_ALIAS(T_enum_get_item)

struct shmpi_tool_enum {
    char unused;
};

static const struct shmpi_tool_enum enums[SHMPI_TUN_COUNT + 1];
#define YES_NO SHMPI_TUN_COUNT

MPI_T_enum shmpi_tool_enum_of(int id)
{
    switch (shmpi_tun_table[id].type) {
    case SHMPI_TUN_BOOL:
        return shmpi_tool_enum_yes_no();
    case SHMPI_TUN_CHOICE:
        return (MPI_T_enum)&enums[id];
    default:
        return MPI_T_ENUM_NULL;
    }
}

MPI_T_enum shmpi_tool_enum_yes_no(void)
{
    return (MPI_T_enum)&enums[YES_NO];
}

/* The position of e in enums, or -1 when e is not an enumeration. */
static int position(MPI_T_enum e)
{
    uintptr_t at = (uintptr_t)e, first = (uintptr_t)&enums[0];
    if (at < first || at > (uintptr_t)&enums[YES_NO])
        return -1;
    int i = (int)((at - first) / sizeof enums[0]);
    if (&enums[i] != e ||
        (i != YES_NO && shmpi_tun_table[i].type != SHMPI_TUN_CHOICE))
        return -1;
    return i;
}

static int choices(int i)
{
    if (i == YES_NO)
        return 2;
    const struct shmpi_tunable *t = &shmpi_tun_table[i];
    int n = 0;
    while (t->choices[n])
        n++;
    return n + (t->dflt == SHMPI_TUN_UNSET);
}

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name,
                         int *name_len)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    int i = position(enumtype);
    if (i < 0) {
        rc = MPI_T_ERR_INVALID_HANDLE;
    } else {
        if (num)
            *num = choices(i);
        shmpi_tool_string(i == YES_NO ? "shmpi_yes_no"
                                      : shmpi_tun_table[i].name,
                          name, name_len);
    }
    shmpi_tool_leave();
    return rc;
}

/* Item `index` of enumeration i: its value and name. */
static void item(int i, int index, int *value, const char **name)
{
    static const char *const yes_no[] = {"no", "yes"};
    const char *const *words = i == YES_NO ? yes_no : shmpi_tun_table[i].choices;
    int n = i == YES_NO ? 2 : choices(i);
    if (i != YES_NO && shmpi_tun_table[i].dflt == SHMPI_TUN_UNSET &&
        index == n - 1) {
        *value = -1;
        *name = "unset";
        return;
    }
    *value = index;
    *name = words[index];
}

int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value,
                         char *name, int *name_len)
{
    int rc = shmpi_tool_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    int i = position(enumtype);
    if (i < 0) {
        rc = MPI_T_ERR_INVALID_HANDLE;
    } else if (index < 0 || index >= choices(i)) {
        rc = MPI_T_ERR_INVALID_ITEM;
    } else {
        int v;
        const char *s;
        item(i, index, &v, &s);
        if (value)
            *value = v;
        shmpi_tool_string(s, name, name_len);
    }
    shmpi_tool_leave();
    return rc;
}
