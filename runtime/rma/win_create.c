/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win_create.c - MPI_Win_create (MPI-3.1 11.2.1): a window over memory
 * the program already has.
 *
 * Any memory will do, and each member's is reached by the others as
 * map.h describes: MPI_Alloc_mem memory through its segment; heap,
 * anonymous and static memory by moving its pages onto a memfd at the
 * same addresses (the program sees the same bytes at the same places;
 * peers then map them, so a put is a memcpy); stack and file-mapped
 * memory with process_vm_readv/writev.  MPI_Win_free puts moved pages
 * back as private memory, contents kept.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * disp_unit an MPI_Aint, at most INT_MAX, as a window keeps an int).
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/win_impl.h"

SHMPI_WEAK_ALIAS(Win_create)
SHMPI_WEAK_ALIAS(Win_create_c)

static int check_args(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                      MPI_Comm comm, MPI_Win *win, const char *fn)
{
    int rc = shmpi_win_check_memory(comm, size, disp_unit, info, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!win)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "win is NULL");
    return MPI_SUCCESS;
}

/* How peers reach [base, base + size): into mine (a failure, and its
   reason, too). */
static void share_memory(MPI_Win w, struct shmpi_win_member *mine)
{
    if (mine->size == 0)
        return;
    if (!(w->share = malloc(sizeof *w->share))) {
        mine->status = MPI_ERR_NO_MEM;
        snprintf(mine->why, sizeof mine->why,
                 "no memory for the window object");
        return;
    }
    if (shmpi_rma_map_share(w->base, (size_t)mine->size, w->share) != 0) {
        free(w->share);
        w->share = NULL;
        mine->status = MPI_ERR_BASE;
        snprintf(mine->why, sizeof mine->why,
                 "[base, base + size) is not all memory of the calling "
                 "process (part of it is not mapped)");
        return;
    }
    mine->fd = w->share->fd;
    mine->fd_offset = w->share->offset;
}

/* Both forms: MPI_Win_create, and MPI_Win_create_c (MPI-4.0), whose
   disp_unit is an MPI_Aint (checked to fit the window's int). */
static int create(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                  MPI_Comm comm, MPI_Win *win, const char *fn)
{
    SHMPI_REQUIRE_INIT(fn);
    MPI_Win w;
    int rc = check_args(size, disp_unit, info, comm, win, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_win_begin(comm, MPI_WIN_FLAVOR_CREATE, info, fn, &w);
    if (rc != MPI_SUCCESS)
        return rc;
    w->base = base;
    w->size = size;
    w->disp_unit = (int)disp_unit;
    struct shmpi_win_member mine = {.base = (uintptr_t)base,
                                    .size = size,
                                    .disp_unit = (int)disp_unit,
                                    .fd = -1};
    share_memory(w, &mine);
    rc = shmpi_win_publish(w, &mine, 0, comm, fn);
    if (rc != MPI_SUCCESS) {
        shmpi_win_destroy(w);
        return rc;
    }
    *win = w;
    return MPI_SUCCESS;
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                    MPI_Comm comm, MPI_Win *win)
{
    return create(base, size, disp_unit, info, comm, win, "MPI_Win_create");
}

int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit,
                      MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return create(base, size, disp_unit, info, comm, win, "MPI_Win_create_c");
}
