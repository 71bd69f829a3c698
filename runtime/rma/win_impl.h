/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win_impl.h - what the window files (win_*.c) share among themselves;
 * the rest of runtime/rma/ uses win.h.
 *
 * A constructor (win_create.c, win_allocate.c, win_dynamic.c) runs:
 *   shmpi_win_begin     the object, a private dup of comm, the hints
 *   ... its own memory: struct shmpi_win_member for this process ...
 *   shmpi_win_publish   the control segment, every member's part known
 *                       to every member and mapped where possible
 * and on a failure after begin, shmpi_win_destroy (which MPI_Win_free
 * ends with too).
 */
#ifndef SHMPI_RMA_WIN_IMPL_H
#define SHMPI_RMA_WIN_IMPL_H

#include "rma/map.h"
#include "rma/win.h"

/* What each member tells the others when a window is made. */
struct shmpi_win_member {
    uint64_t base;             /* its address of its window memory */
    int64_t size;
    uint64_t fd_offset;        /* where base is in fd */
    int32_t pid;
    int32_t fd;                /* memfd holding it, or -1 (process_vm) */
    int32_t disp_unit;
    int32_t status;            /* MPI_SUCCESS, or the class of its
                                  failure to make its part */
    int32_t ctl_fd;            /* member 0: the control segment */
    int32_t mbox_fd;           /* its process's mailbox (map_vm.c), or -1
                                  when all its memory can be mapped */
    uint64_t probe;            /* an address always readable in it */
    uint64_t id;               /* member 0: the window's struct
                                  shmpi_win.id */
    int32_t regions_fd;        /* dynamic windows: its table of attached
                                  regions (win_dynamic.c) */
    char why[160];             /* what failed and why, when status is
                                  not MPI_SUCCESS: every member's
                                  message quotes it */
};

/* A new window of `flavor` over a private dup of comm (collective), its
   hints read from info, error handler MPI_ERRORS_ARE_FATAL.  MPI_SUCCESS
   or an error raised on comm under fn. */
int shmpi_win_begin(MPI_Comm comm, int flavor, MPI_Info info,
                    const char *fn, MPI_Win *out);

/* Collective: member 0 makes the control segment (with shared_bytes of
   window memory after it: the shared flavor), every member learns
   every other's `mine`, maps the control segment and, for the create
   and allocate flavors, the peers' memory.  A member whose `mine.status`
   is not MPI_SUCCESS has said why in `mine.why`.  MPI_SUCCESS, or an
   error raised on the creation's comm (every member then fails, with
   the same class; on the shared flavor, memory that cannot be made or
   mapped is MPI_ERR_RMA_SHARED). */
int shmpi_win_publish(MPI_Win w, struct shmpi_win_member *mine,
                      size_t shared_bytes, MPI_Comm comm, const char *fn);

/* Where the shared flavor's memory starts in the control segment. */
size_t shmpi_win_shared_offset(MPI_Win w);
/* Where the shared flavor's memory starts in this process: after the
   control segment's blocks, or at w->shared.at (a joined window). */
unsigned char *shmpi_win_shared_memory(MPI_Win w);

/* Unmaps, closes and frees everything of w; *w's handle dies. */
void shmpi_win_destroy(MPI_Win w);

/* win_dynamic.c: detaches every region of a dynamic window (no-op for
   the other flavors). */
void shmpi_win_dynamic_free(MPI_Win w);
/* win_dynamic.c: the region state of a new dynamic window w (before
   shmpi_win_publish): a new, empty table of regions - or, from
   MPI_Win_change_comm, the table of `from` (not NULL), which w takes over
   at shmpi_win_dynamic_carry; its descriptor into mine->regions_fd.  0,
   with mine's status and why set, if it cannot be made. */
int shmpi_win_dynamic_begin(MPI_Win w, MPI_Win from,
                            struct shmpi_win_member *mine);
/* win_dynamic.c (shmpi_win_publish): the descriptor of member t's table
   of regions, which this process maps when it first targets t. */
void shmpi_win_dynamic_peer(MPI_Win w, int t, int regions_fd);
/* win_dynamic.c (MPI_Win_change_comm): this process's attached regions
   of `from` become to's - their table (to's already, from
   shmpi_win_dynamic_begin) and their shares; from's mappings of its
   peers' tables and regions are unmapped and from is left with none. */
void shmpi_win_dynamic_carry(MPI_Win to, MPI_Win from);
/* win_dynamic.c: has this process memory attached to w (size 0 too)? */
int shmpi_win_dynamic_exposes(MPI_Win w);

/* win_info.c: the hints of info (MPI_INFO_NULL: none) into w's fields;
   keys it does not know and values it cannot read are ignored (9). */
void shmpi_win_read_info(MPI_Win w, MPI_Info info);

/* Checks shared by the constructors: MPI_SUCCESS or raised on comm. */
int shmpi_win_check_comm(MPI_Comm comm, const char *fn);
int shmpi_win_check_info(MPI_Comm comm, MPI_Info info, const char *fn);
/* The above, and size >= 0 (MPI_ERR_SIZE), 0 < disp_unit <= INT_MAX
   (MPI_ERR_DISP): what the constructors with memory check first, for
   their MPI-3.1 and large-count (_c) forms. */
int shmpi_win_check_memory(MPI_Comm comm, MPI_Aint size, MPI_Aint disp_unit,
                           MPI_Info info, const char *fn);

#endif
