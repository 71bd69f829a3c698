/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win_change_comm.c - MPI_Win_change_comm, a shmpi extension (the
 * proposal "Flexible RMA Synchronization for MPI-3", 1.2.6;
 * shmpi_sync(7)): a window's group becomes new_comm's, and the processes
 * of new_comm that were not members join it, exposing no memory.
 *
 * WHO IS WHO.  Every caller passes a window.  The one passed by the
 * process peer_rank of new_comm is "the window"; a caller whose window
 * is the same window (the same job-wide id, struct shmpi_win.id) is a
 * member, any other a newcomer, whose window must have a group of one
 * and expose no memory (size 0, nothing attached): it is only the handle
 * that will designate the joined window.
 *
 * AGREEING FIRST.  Each caller checks what it can alone (its window is
 * one, peer_rank is a rank of new_comm, no epoch and no sync request is
 * active on its window) and raises what it finds; then one allgather over
 * new_comm of struct joiner gives every caller the same table, from which
 * every caller draws the same verdict: a failure somewhere, differing
 * peer_ranks, a newcomer's window that is not a one-process window
 * without memory, a member of the window missing from new_comm.  So an
 * error is always returned by every caller (each raises it through its
 * window's handler) and nobody is left waiting in a collective; and
 * nothing has changed yet.
 *
 * THE JOINED WINDOW is made like a new one (win_new.c): shmpi_win_begin
 * over new_comm (a private dup, new tables sized for it), then
 * shmpi_win_publish of every caller's part - a member's memory as it
 * already is (the same share, so nothing moves and peers map the same
 * memfd), a newcomer's nothing - which makes a new control segment with
 * one block per member of new_comm and maps the peers' memory.  A failure
 * there is agreed by publish itself: every caller returns it, each with
 * its window unchanged.  Then a member carries over what is its own: its
 * memory's share (created and allocated memory stay where they are), on
 * a dynamic window its attached regions (their table, which its peers
 * in the joined window map anew), on the shared flavor the memory's
 * mapping (below).  Finally the new internals replace the old ones in
 * the caller's struct shmpi_win, so the MPI_Win every caller holds stays
 * valid and designates the joined window; what belongs to the handle
 * rather than to the group stays: name, attributes, error handler, info
 * hints, sync requests (retargeted to the new ranks by sync_epoch.c) -
 * a newcomer keeps its own.  The old internals go with
 * shmpi_win_destroy, now holding none of the memory.  A barrier ends the
 * call: once it returns anywhere, every member's part (its region table
 * included) is in place.  The window keeps its id, newcomers adopt it,
 * so the sync counters of the members keep belonging to it.  Every
 * caller starts the joined window with no epoch: a fence epoch in which
 * no RMA call was made (allowed here, as by MPI_Win_free) is dropped.
 *
 * THE SHARED FLAVOR keeps its memory where it is: in the control segment
 * of the window's creation, after the blocks, at the same addresses in
 * every member (so base pointers and MPI_Win_shared_query results stay
 * valid).  The new blocks go to a new segment; a member unmaps only the
 * old blocks and keeps the memory's part of the old mapping
 * (w->shared.at); a newcomer maps that part through the descriptor that
 * member 0 of the creation keeps open for this (w->shared.fd, win_new.c).
 * The layout is unchanged, so contiguous memory stays contiguous, the
 * newcomers' empty parts at its start.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/sync.h"
#include "rma/sync_counter.h"
#include "rma/win_impl.h"

SHMPI_WEAK_ALIAS(Win_change_comm)

/* What each caller tells the others. */
struct joiner {
    uint64_t id;               /* its window's, 0 if it has none */
    uint64_t shared_fd_offset; /* the shared flavor's segment: where the */
    uint64_t shared_len;       /* memory is in shared_fd, and its length */
    int32_t shared_fd;         /* kept open by this process, or -1 */
    int32_t pid;
    int32_t status;            /* MPI_SUCCESS, or what it raised */
    int32_t peer_rank;
    int32_t old_rank, old_size; /* in its window's group */
    int32_t flavor;
    int32_t exposes;           /* its window exposes memory */
};

/* One call's facts, once agreed. */
struct change {
    MPI_Win win;               /* the caller's handle */
    MPI_Comm new_comm;
    const struct joiner *all;  /* [new_comm size] */
    const struct joiner *peer; /* the window's, all[peer_rank] */
    int member;                /* this process is one (not a newcomer) */
    const char *fn;
};

/* Raised through the window's handler where there is a window, else
   comm's. */
static int fail(MPI_Win win, MPI_Comm comm, int code, const char *fn,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int fail(MPI_Win win, MPI_Comm comm, int code, const char *fn,
                const char *fmt, ...)
{
    char what[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (shmpi_win_ok(win))
        return shmpi_win_raise(win, code, fn, "%s", what);
    return shmpi_raise(comm, code, fn, "%s", what);
}

/* ------------------------------------------------------------------ */
/* The checks                                                          */
/* ------------------------------------------------------------------ */

static int check_comm(MPI_Comm comm, MPI_Win win, const char *fn)
{
    if (!shmpi_comm_ok(comm))
        return fail(win, MPI_COMM_WORLD, MPI_ERR_COMM, fn,
                    "new_comm is not a valid communicator");
    if (comm->is_inter)
        return fail(win, comm, MPI_ERR_COMM, fn,
                    "new_comm is an intercommunicator: a window's group "
                    "is the group of an intracommunicator");
    return MPI_SUCCESS;
}

/* What this process can check alone; raised here. */
static int check_alone(MPI_Comm new_comm, int peer_rank, MPI_Win win,
                       const char *fn)
{
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (peer_rank < 0 || peer_rank >= new_comm->size)
        return shmpi_win_raise(win, MPI_ERR_RANK, fn,
                               "peer_rank %d is not a rank of new_comm "
                               "(0..%d)", peer_rank, new_comm->size - 1);
    /* the joined window starts with no epoch, and a newcomer could not
       take part in one */
    return shmpi_rma_epoch_check_closed(win, "changing the window's group",
                                        fn);
}

/* Does win expose memory at this process? */
static int exposes(MPI_Win win)
{
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return win->size > 0;
    return shmpi_win_dynamic_exposes(win);
}

static void describe(MPI_Win win, int peer_rank, int status,
                     struct joiner *mine)
{
    *mine = (struct joiner){.shared_fd = -1, .pid = getpid(),
                            .status = status, .peer_rank = peer_rank};
    if (status != MPI_SUCCESS)
        return;
    mine->id = win->id;
    mine->shared_fd_offset = win->shared.fd_offset;
    mine->shared_len = win->shared.len;
    mine->shared_fd = win->shared.fd;
    mine->old_rank = win->comm->rank;
    mine->old_size = win->comm->size;
    mine->flavor = win->flavor;
    mine->exposes = exposes(win);
}

/* A newcomer's window must be a one-process window without memory. */
static int check_newcomers(const struct change *c, int n)
{
    for (int r = 0; r < n; r++) {
        const struct joiner *j = &c->all[r];
        if (j->id == c->peer->id)
            continue;
        if (j->old_size != 1)
            return fail(c->win, c->new_comm, MPI_ERR_WIN, c->fn,
                        "rank %d of new_comm is not a member of the window "
                        "of peer_rank %d, and its window has a group of "
                        "%d: a process new to the window passes one of "
                        "its own, with a group of one", r,
                        (int)(c->peer - c->all), j->old_size);
        if (j->exposes)
            return fail(c->win, c->new_comm, MPI_ERR_WIN, c->fn,
                        "rank %d of new_comm is new to the window, and "
                        "the window it passes exposes memory: a "
                        "newcomer's window exposes none (size 0, nothing "
                        "attached)", r);
    }
    return MPI_SUCCESS;
}

/* Every member of the window must be in new_comm. */
static int check_members(const struct change *c, int n)
{
    for (int old = 0; old < c->peer->old_size; old++) {
        int r = 0;
        while (r < n && (c->all[r].id != c->peer->id ||
                         c->all[r].old_rank != old))
            r++;
        if (r == n)
            return fail(c->win, c->new_comm, MPI_ERR_GROUP, c->fn,
                        "rank %d of the window's group is not in new_comm "
                        "(or passes another window): every member takes "
                        "part, and keeps its memory in the joined window",
                        old);
    }
    return MPI_SUCCESS;
}

/* The verdict, the same at every caller. */
static int agree(struct change *c, int n, int me)
{
    const struct joiner *all = c->all;
    for (int r = 0; r < n; r++)
        if (all[r].status != MPI_SUCCESS)
            return all[me].status != MPI_SUCCESS
                       ? all[me].status /* raised already */
                       : fail(c->win, c->new_comm, all[r].status, c->fn,
                              "rank %d of new_comm cannot take part (%s "
                              "there): the window is unchanged",
                              r, shmpi_core_error_class_name(all[r].status));
    for (int r = 0; r < n; r++)
        if (all[r].peer_rank != all[me].peer_rank)
            return fail(c->win, c->new_comm, MPI_ERR_RANK, c->fn,
                        "peer_rank differs between the callers: %d at "
                        "rank %d of new_comm, %d here", all[r].peer_rank,
                        r, all[me].peer_rank);
    c->peer = &all[all[me].peer_rank];
    c->member = all[me].id == c->peer->id;
    int rc = check_newcomers(c, n);
    return rc != MPI_SUCCESS ? rc : check_members(c, n);
}

/* ------------------------------------------------------------------ */
/* The joined window                                                   */
/* ------------------------------------------------------------------ */

/* The member that keeps the shared flavor's segment open. */
static const struct joiner *keeper(const struct change *c, int n)
{
    for (int r = 0; r < n; r++)
        if (c->all[r].id == c->peer->id && c->all[r].shared_fd >= 0)
            return &c->all[r];
    return NULL;
}

/* The shared flavor: nw->shared.at is where the members' memory is
   mapped here (a member: where it already is; a newcomer maps it). */
static void place_shared(const struct change *c, MPI_Win nw, int n,
                         struct shmpi_win_member *mine)
{
    MPI_Win win = c->win;
    if (c->member) {
        if (win->shared.len == 0)
            return; /* no memory: it may follow the new blocks */
        nw->shared.at = shmpi_win_shared_memory(win);
        nw->shared.len = win->shared.len;
        mine->fd_offset = (uint64_t)((unsigned char *)win->base -
                                     nw->shared.at);
        return;
    }
    const struct joiner *k = keeper(c, n);
    if (!k || k->shared_len == 0)
        return;
    struct shmpi_win_view view;
    int err = shmpi_rma_map_peer(k->pid, k->shared_fd, k->shared_fd_offset,
                                 (size_t)k->shared_len, &nw->shared.at, &view);
    if (err != 0) {
        nw->shared.at = NULL;
        mine->status = MPI_ERR_RMA_SHARED;
        snprintf(mine->why, sizeof mine->why,
                 "cannot map the window's shared memory (the memory file "
                 "of rank %d of new_comm, opened as /proc/%d/fd/%d): %s",
                 (int)(k - c->all), (int)k->pid, (int)k->shared_fd,
                 strerror(err));
        return;
    }
    nw->shared.len = view.len; /* the memory starts on a page: all of it */
}

/* This process's part of the joined window, before publishing. */
static void describe_part(const struct change *c, MPI_Win nw, int n,
                          struct shmpi_win_member *mine)
{
    MPI_Win win = c->win;
    *mine = (struct shmpi_win_member){.disp_unit = 1, .fd = -1};
    if (c->member) { /* its memory as it is; a newcomer has none */
        nw->base = win->base;
        nw->size = win->size;
        nw->disp_unit = win->disp_unit;
        mine->base = (uintptr_t)win->base;
        mine->size = win->size;
        mine->disp_unit = win->disp_unit;
        if (win->share) { /* created or allocated memory, as shared */
            mine->fd = win->share->fd;
            mine->fd_offset = win->share->offset;
        }
    }
    if (nw->flavor == MPI_WIN_FLAVOR_SHARED)
        place_shared(c, nw, n, mine);
    if (nw->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        shmpi_win_dynamic_begin(nw, c->member ? win : NULL, mine);
}

/* A member's memory moves from win's internals to nw's. */
static void carry_memory(MPI_Win nw, MPI_Win win)
{
    nw->share = win->share;
    win->share = NULL;
    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        shmpi_win_dynamic_carry(nw, win);
    if (win->flavor != MPI_WIN_FLAVOR_SHARED || !nw->shared.at)
        return;
    nw->shared.fd = win->shared.fd;
    nw->shared.fd_offset = win->shared.fd_offset;
    win->shared.fd = -1;
    if (win->shared.at)
        win->shared.at = NULL; /* nw's mapping now */
    else
        win->ctl_map_bytes = shmpi_win_shared_offset(win); /* blocks only */
}

/* What belongs to the handle goes with it; the rest of nw and win trade
   places, so the program's MPI_Win designates the joined window and nw
   holds the old internals. */
static void swap_internals(MPI_Win win, MPI_Win nw)
{
    nw->errhandler = win->errhandler;
    win->errhandler = MPI_ERRORS_ARE_FATAL; /* predefined: no reference */
    nw->fint = win->fint;      /* its Fortran integer (core/fint.h) */
    win->fint = 0;
    nw->attrs = win->attrs;
    win->attrs = NULL;
    nw->sync = win->sync;
    win->sync = NULL;
    memcpy(nw->name, win->name, sizeof nw->name);
    nw->no_locks = win->no_locks;
    nw->acc_ordering = win->acc_ordering;
    nw->acc_ordering_none = win->acc_ordering_none;
    nw->acc_same_op = win->acc_same_op;
    nw->same_size = win->same_size;
    nw->same_disp_unit = win->same_disp_unit;
    nw->alloc_shared_noncontig = win->alloc_shared_noncontig;
    for (int k = 0; k < SHMPI_RMA_KINDS; k++) /* MPI_T's counts (win.h) */
        atomic_store_explicit(&nw->issued[k],
                              atomic_load_explicit(&win->issued[k],
                                                   memory_order_relaxed),
                              memory_order_relaxed);
    struct shmpi_win old = *win;
    *win = *nw;
    *nw = old;
}

/* new_rank_of_old[r]: the rank in new_comm of old rank r of the caller's
   window (a newcomer's: itself). */
static void rank_map(const struct change *c, int n, int me,
                     int *new_rank_of_old)
{
    if (!c->member) {
        new_rank_of_old[0] = me;
        return;
    }
    for (int r = 0; r < n; r++)
        if (c->all[r].id == c->peer->id)
            new_rank_of_old[c->all[r].old_rank] = r;
}

static int join(const struct change *c, int *new_rank_of_old)
{
    MPI_Comm comm = c->new_comm;
    int n = comm->size;
    MPI_Win nw;
    int rc = shmpi_win_begin(comm, c->peer->flavor, MPI_INFO_NULL, c->fn,
                             &nw);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_win_member mine;
    describe_part(c, nw, n, &mine);
    rc = shmpi_win_publish(nw, &mine, 0, comm, c->fn);
    if (rc != MPI_SUCCESS) {
        if (c->member)
            nw->shared.at = NULL; /* still the old window's */
        shmpi_win_destroy(nw);
        return rc;
    }
    if (c->member)
        carry_memory(nw, c->win);
    if (nw->flavor == MPI_WIN_FLAVOR_SHARED) /* as MPI_Win_allocate_shared */
        nw->base = nw->targets[comm->rank].base;
    nw->id = c->peer->id;
    if (!c->member) /* its counters go with it into the joined window */
        shmpi_rma_sync_move_window(c->win->id, nw->id);
    rank_map(c, n, comm->rank, new_rank_of_old);
    swap_internals(c->win, nw);
    shmpi_rma_sync_retarget(c->win, new_rank_of_old);
    shmpi_win_destroy(nw); /* the old internals, without the memory */
    return PMPI_Barrier(c->win->comm);
}

int PMPI_Win_change_comm(MPI_Comm new_comm, int peer_rank, MPI_Win win)
{
    static const char *fn = "MPI_Win_change_comm";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_comm(new_comm, win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int n = new_comm->size, me = new_comm->rank;
    struct joiner *all = malloc((size_t)n * sizeof *all);
    int *new_rank_of_old = malloc((size_t)n * sizeof *new_rank_of_old);
    if (!all || !new_rank_of_old) {
        free(all);
        free(new_rank_of_old);
        return fail(win, new_comm, MPI_ERR_NO_MEM, fn,
                    "no memory for the callers' table");
    }
    struct joiner mine;
    describe(win, peer_rank, check_alone(new_comm, peer_rank, win, fn),
             &mine);
    rc = PMPI_Allgather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine,
                        MPI_BYTE, new_comm);
    struct change c = {win, new_comm, all, NULL, 0, fn};
    if (rc == MPI_SUCCESS)
        rc = agree(&c, n, me);
    if (rc == MPI_SUCCESS)
        rc = join(&c, new_rank_of_old);
    free(all);
    free(new_rank_of_old);
    return rc;
}
