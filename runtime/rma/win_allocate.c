/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win_allocate.c - windows whose memory MPI allocates (MPI-3.1 11.2.2,
 * 11.2.3): MPI_Win_allocate, MPI_Win_allocate_shared and
 * MPI_Win_shared_query.
 *
 * MPI_Win_allocate gives each member a memfd of its own, mapped shared,
 * which every peer maps too: a put is a memcpy into the peer's pages,
 * and MPI_Win_shared_query hands out those mappings (below).
 *
 * MPI_Win_allocate_shared puts every member's memory in one segment -
 * the window's control segment, after the control blocks - so that the
 * members' parts follow each other in rank order in every process's
 * mapping: contiguous, as the standard's default asks (a member's part
 * starts where the previous one's ends, to the byte).  With the hint
 * "alloc_shared_noncontig" set to true by every member, each part starts
 * on a page of its own instead (no false sharing between neighbours);
 * one member asking for contiguous memory gets it for all, since
 * contiguous is also a valid answer to the hint.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * disp_unit an MPI_Aint, at most INT_MAX, as a window keeps an int).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/check.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/win_impl.h"

SHMPI_WEAK_ALIAS(Win_allocate)
SHMPI_WEAK_ALIAS(Win_allocate_shared)
SHMPI_WEAK_ALIAS(Win_shared_query)
SHMPI_WEAK_ALIAS(Win_allocate_c)
SHMPI_WEAK_ALIAS(Win_allocate_shared_c)
SHMPI_WEAK_ALIAS(Win_shared_query_c)

/* The arguments both constructors take. */
static int check_args(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                      MPI_Comm comm, void *baseptr, MPI_Win *win,
                      const char *fn)
{
    int rc = shmpi_win_check_memory(comm, size, disp_unit, info, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!baseptr || !win)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "%s is NULL",
                           baseptr ? "win" : "baseptr");
    return MPI_SUCCESS;
}

/* What both constructors start with: the checks, the window object of
   `flavor` with this process's size and unit, and its member entry. */
static int begin(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                 MPI_Comm comm, void *baseptr, MPI_Win *win, int flavor,
                 const char *fn, MPI_Win *w, struct shmpi_win_member *mine)
{
    int rc = check_args(size, disp_unit, info, comm, baseptr, win, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_win_begin(comm, flavor, info, fn, w);
    if (rc != MPI_SUCCESS)
        return rc;
    (*w)->size = size;
    (*w)->disp_unit = (int)disp_unit; /* checked to fit */
    *mine = (struct shmpi_win_member){
        .size = size, .disp_unit = (int)disp_unit, .fd = -1};
    return MPI_SUCCESS;
}

/* The window's memory and how it ends, after shmpi_win_publish. */
static int finish(MPI_Win w, int rc, void *baseptr, MPI_Win *win)
{
    if (rc != MPI_SUCCESS) {
        shmpi_win_destroy(w);
        return rc;
    }
    if (shmpi_core_checking())
        shmpi_rma_local_watch(w); /* its own loads and stores seen */
    *(void **)baseptr = w->base;
    *win = w;
    return MPI_SUCCESS;
}

/* MPI_Win_allocate and MPI_Win_allocate_c (disp_unit an MPI_Aint). */
static int allocate(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                    MPI_Comm comm, void *baseptr, MPI_Win *win, const char *fn)
{
    SHMPI_REQUIRE_INIT(fn);
    MPI_Win w;
    struct shmpi_win_member mine;
    int rc = begin(size, disp_unit, info, comm, baseptr, win,
                   MPI_WIN_FLAVOR_ALLOCATE, fn, &w, &mine);
    if (rc != MPI_SUCCESS)
        return rc;
    if (size > 0) {
        void *base = NULL;
        int err = ENOMEM;
        if ((w->share = malloc(sizeof *w->share)) != NULL)
            err = shmpi_rma_map_alloc((size_t)size, &base, w->share);
        if (err == 0) {
            w->base = base;
            mine.base = (uintptr_t)base;
            mine.fd = w->share->fd;
            mine.fd_offset = w->share->offset;
        } else {
            free(w->share);
            w->share = NULL;
            mine.status = MPI_ERR_NO_MEM;
            snprintf(mine.why, sizeof mine.why,
                     "cannot allocate %ld bytes of shared memory: %s",
                     (long)size, strerror(err));
        }
    }
    rc = shmpi_win_publish(w, &mine, 0, comm, fn);
    return finish(w, rc, baseptr, win);
}

/* Where each member's part goes: *offset for this process, the total in
   *bytes; MPI_SUCCESS or an error raised on comm. */
static int lay_out(MPI_Win w, MPI_Aint size, MPI_Comm comm,
                   uint64_t *offset, size_t *bytes, const char *fn)
{
    int n = w->comm->size;
    int64_t mine[2] = {size, w->alloc_shared_noncontig};
    int64_t *all = malloc((size_t)n * sizeof mine);
    if (!all)
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for the members' sizes");
    int rc = PMPI_Allgather(mine, 2, MPI_INT64_T, all, 2, MPI_INT64_T,
                            w->comm);
    if (rc == MPI_SUCCESS) {
        int noncontig = 1;
        for (int r = 0; r < n; r++)
            noncontig &= all[2 * r + 1] != 0;
        w->alloc_shared_noncontig = noncontig;
        uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE), at = 0;
        for (int r = 0; r < n; r++) {
            if (noncontig)
                at = (at + pg - 1) / pg * pg;
            if (r == w->comm->rank)
                *offset = at;
            at += (uint64_t)all[2 * r];
        }
        *bytes = (size_t)((at + pg - 1) / pg * pg);
    }
    free(all);
    return rc;
}

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                      MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return allocate(size, disp_unit, info, comm, baseptr, win,
                    "MPI_Win_allocate");
}

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                        MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return allocate(size, disp_unit, info, comm, baseptr, win,
                    "MPI_Win_allocate_c");
}

/* MPI_Win_allocate_shared and its _c form. */
static int allocate_shared(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                           MPI_Comm comm, void *baseptr, MPI_Win *win,
                           const char *fn)
{
    SHMPI_REQUIRE_INIT(fn);
    MPI_Win w;
    struct shmpi_win_member mine;
    int rc = begin(size, disp_unit, info, comm, baseptr, win,
                   MPI_WIN_FLAVOR_SHARED, fn, &w, &mine);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t bytes = 0;
    rc = lay_out(w, size, comm, &mine.fd_offset, &bytes, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_win_publish(w, &mine, bytes, comm, fn);
    if (rc == MPI_SUCCESS)
        w->base = w->targets[w->comm->rank].base;
    return finish(w, rc, baseptr, win);
}

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
                             MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return allocate_shared(size, disp_unit, info, comm, baseptr, win,
                           "MPI_Win_allocate_shared");
}

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit,
                               MPI_Info info, MPI_Comm comm, void *baseptr,
                               MPI_Win *win)
{
    return allocate_shared(size, disp_unit, info, comm, baseptr, win,
                           "MPI_Win_allocate_shared_c");
}

/* MPI_Win_shared_query on the create and allocate flavors (MPI-4.1
   12.2.3 allows it; MPI-3.1 raised MPI_ERR_RMA_FLAVOR): a member's memory
   is mapped in this process whenever peers reach it with loads and
   stores (win.h: direct), which is always for MPI_Win_allocate and for
   created memory that is not on a stack or in a file mapping; the
   answer is then that mapping - loads and stores through it reach the
   member's window memory.  Memory that peers reach with process_vm has
   no address here: size 0 and NULL, as MPI-4.1 answers for memory the
   implementation cannot share.  Dynamic windows have no memory of their
   own, and MPI-4.1 refuses them with MPI_ERR_RMA_FLAVOR.  Both forms:
   the unit goes to *unit, the caller's disp_unit argument being
   unit_arg (an int * or, for MPI_Win_shared_query_c, an MPI_Aint *). */
static int query(MPI_Win win, int rank, MPI_Aint *size, const void *unit_arg,
                 MPI_Aint *unit, void *baseptr, const char *fn)
{
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        return shmpi_win_raise(win, MPI_ERR_RMA_FLAVOR, fn,
                               "the window was made by %s: its memory is "
                               "the regions attached to it, which have no "
                               "window base to query (MPI-4.1 12.2.3)",
                               shmpi_win_maker(win));
    int n = win->comm->size;
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= n))
        return shmpi_win_raise(win, MPI_ERR_RANK, fn,
                               "rank %d is not in the window's group "
                               "(0..%d, or MPI_PROC_NULL)", rank, n - 1);
    if (!size || !unit_arg || !baseptr)
        return shmpi_win_raise(win, MPI_ERR_ARG, fn, "%s is NULL",
                               !size       ? "size"
                               : !unit_arg ? "disp_unit"
                                           : "baseptr");
    if (rank == MPI_PROC_NULL) { /* the lowest rank that gave memory */
        rank = 0;
        while (rank < n - 1 && win->targets[rank].size == 0)
            rank++;
    }
    const struct shmpi_win_target *t = &win->targets[rank];
    *size = t->direct ? t->size : 0;
    *unit = t->disp_unit;
    *(void **)baseptr = t->direct ? t->base : NULL;
    return MPI_SUCCESS;
}

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
                          int *disp_unit, void *baseptr)
{
    MPI_Aint unit;
    int rc = query(win, rank, size, disp_unit, &unit, baseptr,
                   "MPI_Win_shared_query");
    if (rc == MPI_SUCCESS)
        *disp_unit = (int)unit; /* a window's unit is an int */
    return rc;
}

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size,
                            MPI_Aint *disp_unit, void *baseptr)
{
    return query(win, rank, size, disp_unit, disp_unit, baseptr,
                 "MPI_Win_shared_query_c");
}
