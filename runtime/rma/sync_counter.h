/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_counter.h - RMA synchronization counters (shmpi_sync(7); the
 * proposal "Flexible RMA Synchronization for MPI-3"): the counters in
 * the arena, their handles, and the two persistent requests that drive
 * them.
 *
 *   sync_counter.c   the table: allocate, free, find a handle's counter,
 *                    signal one (one atomic add)
 *   sync_req.c       MPI_Win_sync_ops_init / MPI_Win_sync_object_init and
 *                    what Start, Test/Wait, Cancel and Request_free do
 *                    with them (the operations of SHMPI_REQ_SYNC,
 *                    pt2pt/request.h)
 *   sync_epoch.c     the sync_ops access epoch and the window's list of
 *                    sync requests (MPI_Win_free, MPI_Win_change_comm)
 *
 * THE TABLE.  The arena holds, for each rank, sync_per_rank slots of one
 * cache line each (arena.h).  A counter is a slot; its handle, an
 * MPI_Sync, is (generation << B | index + 1), so one int names a
 * counter in every process alike and MPI_HANDLE_SYNC moves it as it is.
 * B is the fewest bits that hold index + 1 for the job's whole table
 * (at most 21, arena.c), so the generation gets the other 31 - B bits
 * (21 for two ranks of 256 counters).  It changes each time the owner
 * reuses the slot: a handle of a freed counter no longer matches
 * slot->handle until the slot was reused 2^(31 - B) - 1 times.  The
 * owner of index i is rank i / sync_per_rank.  One line per counter:
 * the signallers of one counter share its line anyway, and a counter
 * never shares one with
 * another (a halo's "updated" and "free" counters are hit by the same
 * neighbours at different moments).
 */
#ifndef SHMPI_RMA_SYNC_COUNTER_H
#define SHMPI_RMA_SYNC_COUNTER_H

#include <stdatomic.h>
#include <stdint.h>

#include "pt2pt/request.h"
#include "rma/win.h"


struct shmpi_sync_slot {
    /* Signals received since the counter was allocated: only ever
       incremented, by the signallers (release), so the owner never
       writes the line its signallers write.  The counter's value is
       (counts armed - signals); the owner keeps the first in its own
       memory (struct shmpi_sync_own) and polls this with acquire. */
    _Alignas(SHMPI_CACHELINE) _Atomic int64_t signals;
    /* The live handle, 0 while free.  The owner stores it (release)
       after win_id and signals are set; a signaller loads it (acquire)
       to know the slot is the counter its handle names. */
    _Atomic uint32_t handle;
    uint64_t win_id;           /* struct shmpi_win.id of its window */
};
_Static_assert(sizeof(struct shmpi_sync_slot) == SHMPI_CACHELINE,
               "one cache line per counter");

/* What only the owner knows of one of its counters (private memory). */
struct shmpi_sync_own {
    struct shmpi_request *armer; /* active sync_object request, or NULL */
    int64_t armed;             /* the counts MPI_Start added, in total */
    uint32_t gen;              /* generation of the last handle */
    uint8_t used;
};

/* One sync request's own part (struct shmpi_request.owner). */
struct shmpi_sync_req {
    struct shmpi_request *req;
    MPI_Win win;               /* NULL once the window was freed */
    struct shmpi_sync_req *next; /* in the window's list */
    MPI_Sync counter;
    struct shmpi_sync_slot *slot; /* its counter, found at init */
    struct shmpi_sync_own *own; /* sync_object: the owner's part */
    int owner;                 /* the counter's owner, world rank */
    int is_ops;                /* sync_ops (1) or sync_object (0) */
    int target;                /* sync_ops: rank in win's group, or
                                  MPI_PROC_NULL */
    int mode;                  /* sync_ops: MPI_MODE_WIN_* bits */
    int count;                 /* sync_object: what MPI_Start adds */
    int restart;               /* info "restart" = "true" */
    char why[200];             /* what a failed completion was */
};

/* A window's sync state (struct shmpi_win.sync). */
struct shmpi_win_sync {
    struct shmpi_sync_req *reqs; /* every sync request made on it */
    int active;                /* of those, started and not completed */
    int covering;              /* started sync_ops with sync_mode != 0 */
    uint16_t (*cover)[3];      /* [group size]: those, per target and
                                  kind (put, get, accumulate) */
};

/* sync_counter.c: the slot a handle names while that counter lives,
   else NULL; *owner is its owner's rank in MPI_COMM_WORLD. */
struct shmpi_sync_slot *shmpi_rma_sync_find(MPI_Sync h, int *owner);

/* sync_counter.c: n new counters of this process on win, value 0, or
   MPI_ERR_NO_MEM with none allocated and a one-line reason in err (no
   counters left, or no room in /dev/shm for this process's table, which
   is reserved at its first counter). */
int shmpi_rma_sync_alloc(MPI_Win win, int n, MPI_Sync *out, char *err,
                         size_t errlen);
/* sync_counter.c: is h a live counter of this process on win? */
int shmpi_rma_sync_mine(MPI_Win win, MPI_Sync h);
/* sync_counter.c: free one counter of this process (shmpi_rma_sync_mine)
   in fn; in check mode, report one with signals no round consumed. */
void shmpi_rma_sync_release(MPI_Sync h, const char *fn);
/* sync_counter.c: free every counter this process has on win (in
   MPI_Win_free, and so checked). */
void shmpi_rma_sync_release_window(MPI_Win win);
/* sync_counter.c: this process's counters of window old_id now belong
   to window new_id (a newcomer of MPI_Win_change_comm). */
void shmpi_rma_sync_move_window(uint64_t old_id, uint64_t new_id);
/* sync_counter.c: the owner's part of counter h, a live counter of this
   process; NULL if it is not one. */
struct shmpi_sync_own *shmpi_rma_sync_own_of(MPI_Sync h);

/* sync_counter.c: one signal: the counter goes one down (its signals
   one up), and its owner is woken if it sleeps. */
void shmpi_rma_sync_signal(struct shmpi_sync_slot *slot, int owner);

/* ---- sync_req.c: the request side */

/* MPI_Init: lends pt2pt the operations of SHMPI_REQ_SYNC. */
void shmpi_rma_sync_register_kind(void);

/* ---- sync_epoch.c: the window side */

/* The sync_ops epoch: a started request of sync_mode `mode` to target
   opens it (MPI_ERR_RMA_SYNC if another access epoch is open), its
   completion closes its part. */
int shmpi_rma_sync_cover(MPI_Win win, int target, int mode, const char *fn);
void shmpi_rma_sync_uncover(MPI_Win win, int target, int mode);
/* MPI_Start and the end of a sync request: win->sync->active += by. */
void shmpi_rma_sync_count_active(MPI_Win win, int by);
/* The window's sync requests: made (init) and gone (Request_free). */
int shmpi_rma_sync_link(MPI_Win win, struct shmpi_sync_req *s);
void shmpi_rma_sync_unlink(MPI_Win win, struct shmpi_sync_req *s);
/* MPI_Win_free, MPI_Win_change_comm: MPI_ERR_RMA_SYNC while a sync
   request on win is active. */
int shmpi_rma_sync_check_change(MPI_Win win, const char *fn);
/* MPI_Win_free: the window's requests outlive it as dead handles, its
   counters of this process are freed. */
void shmpi_rma_sync_window_gone(MPI_Win win);
/* MPI_Win_change_comm, after the change: new_rank_of_old[r] is old rank
   r's rank in the new group. */
void shmpi_rma_sync_retarget(MPI_Win win, const int *new_rank_of_old);

#endif
