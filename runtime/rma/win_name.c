/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win_name.c - a window's name (MPI-3.1 6.8) and group (11.2.6):
 * MPI_Win_set_name, MPI_Win_get_name and MPI_Win_get_group.
 *
 * A window starts with the empty name.  The name is a label for the
 * program and for shmpi's error messages about the window (which say
 * `window "NAME": ...`, shmpi_win_raise); setting it is local, and a
 * longer name is cut to MPI_MAX_OBJECT_NAME - 1 characters, as for
 * communicators.
 */

#include <stdio.h>

#include "comm/comm.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "rma/win_impl.h"

SHMPI_WEAK_ALIAS(Win_set_name)
SHMPI_WEAK_ALIAS(Win_get_name)
SHMPI_WEAK_ALIAS(Win_get_group)

int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    static const char *fn = "MPI_Win_set_name";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (!win_name)
        return shmpi_win_raise(win, MPI_ERR_ARG, fn, "win_name is NULL");
    shmpi_core_name_set(win->name, win_name);
    shmpi_win_name_comm(win);
    return MPI_SUCCESS;
}

void shmpi_win_label_short(MPI_Win win, char *buf, size_t len)
{
    char name[MPI_MAX_OBJECT_NAME];
    unsigned maker = (unsigned)(win->id >> 32), count = (unsigned)win->id;
    if (shmpi_core_name_get(win->name, name) > 0)
        snprintf(buf, len, "window \"%s\"", name);
    else if (maker == 0)
        snprintf(buf, len, "window #%u", count);
    else
        snprintf(buf, len, "window #%u of world rank %u", count, maker);
}

/* The window's private communicator carries its label as its name: the
   deadlock report names the communicator of a collective (MPI_Win_fence,
   MPI_Win_free), and no handle of that communicator reaches the program,
   so the name is seen nowhere else. */
void shmpi_win_name_comm(MPI_Win win)
{
    char label[MPI_MAX_OBJECT_NAME + 48];
    shmpi_win_label_short(win, label, sizeof label);
    shmpi_core_name_set(win->comm->name, label);
}

/* win_name must have room for MPI_MAX_OBJECT_NAME characters. */
int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    static const char *fn = "MPI_Win_get_name";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (!win_name || !resultlen)
        return shmpi_win_raise(win, MPI_ERR_ARG, fn, "%s is NULL",
                               win_name ? "resultlen" : "win_name");
    *resultlen = shmpi_core_name_get(win->name, win_name);
    return MPI_SUCCESS;
}

/* The group of the communicator the window was made over, as a new
   handle the program frees with MPI_Group_free. */
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    static const char *fn = "MPI_Win_get_group";
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (!group)
        return shmpi_win_raise(win, MPI_ERR_ARG, fn, "group is NULL");
    struct shmpi_group *g = shmpi_comm_get_group(win->comm);
    if (!g)
        return shmpi_win_raise(win, MPI_ERR_NO_MEM, fn,
                               "no memory for a group");
    *group = g;
    shmpi_group_handed(g, fn);
    return MPI_SUCCESS;
}
