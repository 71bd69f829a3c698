/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rma_win.h - windows of every flavor for the RMA tests, behind one
 * interface, so that each test runs its checks over all of them:
 *
 *   struct twin w;
 *   twin_open(&w, flavor, bytes, disp_unit, stack_or_NULL);
 *   ... RMA on w.win; this rank's memory is w.base (bytes long) ...
 *   MPI_Aint d = twin_disp(&w, target, byte_offset);   target_disp
 *   twin_close(&w);
 *
 * Flavors: MPI_Win_allocate, MPI_Win_create over malloc'd memory, over
 * MPI_Alloc_mem memory and over the caller's stack (which shmpi reaches
 * with process_vm_writev, the others by mapping), MPI_Win_allocate_shared,
 * and MPI_Win_create_dynamic with one attached malloc'd region, whose
 * target_disp is the target's address (every rank's is gathered).
 * Window memory starts filled with 0xee bytes.
 */
#ifndef SHMPI_TEST_RMA_WIN_H
#define SHMPI_TEST_RMA_WIN_H

#include "check.h"

enum twin_flavor {
    TW_ALLOCATE,
    TW_CREATE_HEAP,
    TW_CREATE_ALLOC_MEM,
    TW_CREATE_STACK,
    TW_SHARED,
    TW_DYNAMIC,
    TW_FLAVORS
};

static const char *const twin_names[TW_FLAVORS] = {
    "MPI_Win_allocate", "MPI_Win_create (malloc)",
    "MPI_Win_create (MPI_Alloc_mem)", "MPI_Win_create (stack)",
    "MPI_Win_allocate_shared", "MPI_Win_create_dynamic",
};

struct twin {
    enum twin_flavor flavor;
    MPI_Win win;
    unsigned char *base;       /* this rank's window memory */
    MPI_Aint bytes;
    int disp_unit;
    MPI_Aint *addrs;           /* dynamic: each rank's region address */
};

/* Collective over MPI_COMM_WORLD.  stack: the caller's memory of
   `bytes`, for TW_CREATE_STACK only. */
static inline void twin_open(struct twin *w, enum twin_flavor flavor,
                             MPI_Aint bytes, int disp_unit, void *stack)
{
    int n;
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    *w = (struct twin){.flavor = flavor, .bytes = bytes,
                       .disp_unit = disp_unit};
    switch (flavor) {
    case TW_ALLOCATE:
        CHECK_MPI(MPI_Win_allocate(bytes, disp_unit, MPI_INFO_NULL,
                                   MPI_COMM_WORLD, &w->base, &w->win));
        break;
    case TW_CREATE_HEAP:
        w->base = malloc((size_t)bytes);
        CHECK(w->base, "malloc");
        CHECK_MPI(MPI_Win_create(w->base, bytes, disp_unit, MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &w->win));
        break;
    case TW_CREATE_ALLOC_MEM:
        CHECK_MPI(MPI_Alloc_mem(bytes, MPI_INFO_NULL, &w->base));
        CHECK_MPI(MPI_Win_create(w->base, bytes, disp_unit, MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &w->win));
        break;
    case TW_CREATE_STACK:
        w->base = stack;
        CHECK_MPI(MPI_Win_create(w->base, bytes, disp_unit, MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &w->win));
        break;
    case TW_SHARED:
        CHECK_MPI(MPI_Win_allocate_shared(bytes, disp_unit, MPI_INFO_NULL,
                                          MPI_COMM_WORLD, &w->base, &w->win));
        break;
    case TW_DYNAMIC:
        w->disp_unit = 1;
        w->base = malloc((size_t)bytes);
        w->addrs = malloc((size_t)n * sizeof *w->addrs);
        CHECK(w->base && w->addrs, "malloc");
        CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD,
                                         &w->win));
        CHECK_MPI(MPI_Win_attach(w->win, w->base, bytes));
        MPI_Aint mine;
        CHECK_MPI(MPI_Get_address(w->base, &mine));
        CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, w->addrs, 1, MPI_AINT,
                                MPI_COMM_WORLD));
        break;
    case TW_FLAVORS:
        break;
    }
    /* local stores before the first synchronization: visible to RMA
       after it */
    memset(w->base, 0xee, (size_t)bytes);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* target_disp naming byte `offset` of target's window memory. */
static inline MPI_Aint twin_disp(const struct twin *w, int target,
                                 MPI_Aint offset)
{
    if (w->flavor == TW_DYNAMIC)
        return w->addrs[target] + offset;
    return offset / w->disp_unit;
}

static inline void twin_close(struct twin *w)
{
    if (w->flavor == TW_DYNAMIC)
        CHECK_MPI(MPI_Win_detach(w->win, w->base));
    CHECK_MPI(MPI_Win_free(&w->win));
    if (w->flavor == TW_CREATE_HEAP || w->flavor == TW_DYNAMIC)
        free(w->base);
    if (w->flavor == TW_CREATE_ALLOC_MEM)
        CHECK_MPI(MPI_Free_mem(w->base));
    free(w->addrs);
}

#endif
