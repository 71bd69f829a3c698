/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pscw.c - general active target synchronization (MPI-3.1 11.5.2):
 * MPI_Win_post, MPI_Win_start, MPI_Win_complete, MPI_Win_wait and
 * MPI_Win_test, on counters in the control segment (win.h):
 *
 *   posted[o][t]  in origin o's ctl block, bumped by target t's post that
 *                 names o; o consumes one per start (win->posts_seen[t]
 *                 counts what it consumed), so a post made long before
 *                 its start is never lost and never counted twice
 *   completed     in target t's ctl, bumped by each origin's complete;
 *                 t's wait waits for it to reach completes_expected, which
 *                 each post advances by the size of its group
 *
 * Counters only grow (wrapping at 2^32, compared as signed differences),
 * so no one ever resets a word someone else may still read.
 *
 * Start before post: MPI_Win_start does not wait (11.5.2 allows either).
 * It marks each target of its group SHMPI_TARGET_AWAIT_POST, and the
 * first RMA call to a target (shmpi_rma_enter_epoch) waits for that
 * target's post; MPI_Win_complete waits for the posts of targets never
 * accessed.  An origin then overlaps its start with targets that post
 * late, and a target it does not touch in this epoch never delays it
 * before complete.  Complete must see every post before it bumps
 * `completed`: a complete counted before its target posted would be
 * counted in the target's previous exposure epoch.
 *
 * MPI_MODE_NOCHECK (start and post: "if and only if it is specified in
 * each matching post call") skips the post -> start handshake: post bumps
 * no posted[] and start opens its targets at once.  complete -> wait
 * still happens: it is what tells the target the accesses are done.
 * MPI_MODE_NOSTORE and MPI_MODE_NOPUT on post are accepted and change
 * nothing: post's release increment is all the publishing there is.
 *
 * Memory ordering.  Post's fetch_add on posted[o][t] is a release: the
 * target's stores to its window before post are visible to o after o's
 * acquire load sees the count (post_arrived).  Complete's fetch_add on
 * `completed` is a release: o's puts (plain stores into the mapping, or
 * process_vm_writev, complete at return) before complete are visible to
 * t after its acquire load in wait/test sees the count.  Each bump is
 * followed by shmpi_core_doorbell_ring of the process that may be waiting for
 * it (core/wait.h): a waiter turns the progress engine while it waits,
 * so a rank blocked in MPI_Win_wait still serves its messages.
 *
 * Groups are groups of MPI_COMM_WORLD processes; their members are
 * translated to ranks of the window's communicator, and a member that is
 * not in the window is MPI_ERR_GROUP.
 */
#include <stdio.h>

#include "rma/sync.h"

#include "comm/comm.h"
#include "core/blocked.h"
#include "core/check.h"
#include "core/pmpi.h"
#include "core/wait.h"
#include "rma/state.h"

SHMPI_WEAK_ALIAS(Win_post)
SHMPI_WEAK_ALIAS(Win_start)
SHMPI_WEAK_ALIAS(Win_complete)
SHMPI_WEAK_ALIAS(Win_wait)
SHMPI_WEAK_ALIAS(Win_test)

/* Window rank of member i of group g (checked by check_group first). */
static int win_rank(MPI_Win win, MPI_Group g, int i)
{
    return shmpi_comm_from_world(win->comm, g->ranks[i]);
}

static int check_group(MPI_Win win, MPI_Group g, const char *fn)
{
    if (!shmpi_group_ok(g))
        return shmpi_win_raise(win, MPI_ERR_GROUP, fn,
                               g == MPI_GROUP_NULL ? "group is MPI_GROUP_NULL"
                                                   : "invalid group");
    for (int i = 0; i < g->size; i++)
        if (win_rank(win, g, i) == MPI_UNDEFINED)
            return shmpi_win_raise(win, MPI_ERR_GROUP, fn,
                                   "member %d of the group (process %d of "
                                   "MPI_COMM_WORLD) is not in the window's "
                                   "group", i, g->ranks[i]);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ target */

/* The exposure epoch may not begin while the window is locked (11.5.3).
   Dekker with lock.c: post stores `exposed` then loads `lock`, a locker
   takes `lock` then loads `exposed`, all seq_cst, so at least one of the
   two sees the other. */
static int check_not_locked(MPI_Win win, const char *fn)
{
    struct shmpi_win_ctl *me = shmpi_win_ctl_of(win, win->comm->rank);
    atomic_store_explicit(&me->exposed, 1, memory_order_seq_cst);
    uint32_t lock = atomic_load_explicit(&me->lock, memory_order_seq_cst);
    if (lock == 0)
        return MPI_SUCCESS;
    atomic_store_explicit(&me->exposed, 0, memory_order_relaxed);
    return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                           "the window is locked (%s, by MPI_Win_lock or "
                           "MPI_Win_lock_all of some process): a window may "
                           "not be locked and exposed at once (11.5.3)",
                           lock & SHMPI_WIN_LOCK_EXCL ? "exclusively"
                                                      : "shared");
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    static const char fn[] = "MPI_Win_post";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_rma_check_win(win, fn);
    if (rc == MPI_SUCCESS)
        rc = check_group(win, group, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_rma_check_assert(win, assert, MPI_MODE_NOCHECK |
                                    MPI_MODE_NOSTORE | MPI_MODE_NOPUT, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->post_group != MPI_GROUP_NULL)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "the exposure epoch of the previous "
                               "MPI_Win_post is still open: call "
                               "MPI_Win_wait (or MPI_Win_test until true) "
                               "first");
    if ((rc = check_not_locked(win, fn)) != MPI_SUCCESS)
        return rc;
    shmpi_group_retain(group);
    shmpi_core_lock(&win->lock);
    win->post_group = group;
    win->completes_expected += (uint32_t)group->size;
    shmpi_core_unlock(&win->lock);
    if (assert & MPI_MODE_NOCHECK)
        return MPI_SUCCESS;
    int me = win->comm->rank;
    for (int i = 0; i < group->size; i++) {
        int o = win_rank(win, group, i);
        /* release: the window's contents before post go with it */
        atomic_fetch_add_explicit(shmpi_win_posted(win, o, me), 1,
                                  memory_order_release);
        shmpi_core_doorbell_ring(shmpi_comm_to_world(win->comm, o));
    }
    return MPI_SUCCESS;
}

struct completes_wait {
    _Atomic uint32_t *completed;
    uint32_t expected;
};

static int all_completed(const struct completes_wait *w)
{
    /* acquire: the origins' puts before their complete */
    uint32_t c = atomic_load_explicit(w->completed, memory_order_acquire);
    return (int32_t)(c - w->expected) >= 0;
}

/* MPI_Win_wait asleep: the count and, for the deadlock report, the
   window (built only once the first look found the count short). */
struct exposure_wait {
    struct completes_wait *w;
    MPI_Win win;
};

static int exposure_over(void *arg)
{
    return all_completed(((struct exposure_wait *)arg)->w);
}

/* For the launcher's wait-for graph (core/wait.h): how many of the
   posted group's MPI_Win_complete calls are missing, and the group.
   The count says how many, not who: one member is an edge, more are
   listed (up to a few). */
static int describe_exposure(void *arg, char *buf, size_t len)
{
    const struct exposure_wait *e = arg;
    MPI_Win win = e->win;
    MPI_Group g = win->post_group;
    char label[MPI_MAX_OBJECT_NAME + 48], who[96] = "";
    uint32_t c = atomic_load_explicit(e->w->completed, memory_order_relaxed);
    int n = g != MPI_GROUP_NULL ? g->size : 0, at = 0;
    for (int i = 0; i < n && i < 8 && at < (int)sizeof who; i++)
        at += snprintf(who + at, sizeof who - (size_t)at, "%s%d",
                       i ? ", " : "", g->ranks[i]);
    shmpi_win_label_short(win, label, sizeof label);
    snprintf(buf, len, "MPI_Win_wait on %s: %u MPI_Win_complete missing, "
             "of the posted group (world ranks %s%s)", label,
             e->w->expected - c, who, n > 8 ? ", ..." : "");
    return n == 1 ? g->ranks[0] : -1;
}

static const struct shmpi_rma_waitfor exposure_waitfor = {exposure_over,
                                                          describe_exposure};

static struct completes_wait completes_of(MPI_Win win)
{
    return (struct completes_wait){
        &shmpi_win_ctl_of(win, win->comm->rank)->completed,
        win->completes_expected};
}

static void end_exposure(MPI_Win win)
{
    atomic_store_explicit(&shmpi_win_ctl_of(win, win->comm->rank)->exposed,
                          0, memory_order_release);
    shmpi_core_lock(&win->lock);
    MPI_Group g = win->post_group;
    win->post_group = MPI_GROUP_NULL;
    shmpi_core_unlock(&win->lock);
    shmpi_group_release(g);
}

static int check_exposed(MPI_Win win, const char *fn)
{
    int rc = shmpi_rma_check_win(win, fn);
    if (rc == MPI_SUCCESS && win->post_group == MPI_GROUP_NULL)
        rc = shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                             "no exposure epoch to end: %s without "
                             "MPI_Win_post", fn);
    return rc;
}

int PMPI_Win_wait(MPI_Win win)
{
    static const char fn[] = "MPI_Win_wait";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_exposed(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    struct completes_wait w = completes_of(win);
    if (!all_completed(&w)) {
        struct exposure_wait e = {&w, win};
        shmpi_rma_wait(&exposure_waitfor, &e, 1);
    }
    end_exposure(win);
    return MPI_SUCCESS;
}

int PMPI_Win_test(MPI_Win win, int *flag)
{
    static const char fn[] = "MPI_Win_test";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_exposed(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!flag)
        return shmpi_win_raise(win, MPI_ERR_ARG, fn, "flag is NULL");
    struct completes_wait w = completes_of(win);
    *flag = all_completed(&w);
    if (!*flag) {
        shmpi_rma_progress();
        *flag = all_completed(&w);
    }
    if (*flag)
        end_exposure(win);
    else
        shmpi_core_poll_idle();
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ origin */

struct post_wait {
    _Atomic uint32_t *posted;
    uint32_t seen;
};

static int post_arrived(const struct post_wait *w)
{
    /* acquire: the target's window contents as of its post */
    uint32_t p = atomic_load_explicit(w->posted, memory_order_acquire);
    return (int32_t)(p - w->seen) >= 0;
}

/* An access epoch's first call to a target asleep: its post, and, for
   the deadlock report, the window and the target (built only once the
   first look found no post). */
struct access_wait {
    struct post_wait *w;
    MPI_Win win;
    int target;
};

static int access_open(void *arg)
{
    return post_arrived(((struct access_wait *)arg)->w);
}

/* For the launcher's wait-for graph (core/wait.h): the target whose
   MPI_Win_post has not come. */
static int describe_access(void *arg, char *buf, size_t len)
{
    const struct access_wait *a = arg;
    char label[MPI_MAX_OBJECT_NAME + 48], peer[160];
    int world = shmpi_comm_to_world(a->win->comm, a->target);
    shmpi_win_label_short(a->win, label, sizeof label);
    shmpi_core_blocked_peer(peer, sizeof peer, a->win->comm, world);
    snprintf(buf, len, "an access epoch of MPI_Win_start on %s (its first "
             "access or MPI_Win_complete): waiting for %s to call "
             "MPI_Win_post", label, peer);
    return world;
}

static const struct shmpi_rma_waitfor access_waitfor = {access_open,
                                                        describe_access};

/* Several threads may access one target of the epoch at once, and each
   of its first calls waits here: the post is consumed (posts_seen) and
   the target opened once, by the first of them to come back, under
   win->lock - which none holds while it waits (the post may be this
   process's own, from a thread that needs the lock).  Release: a thread
   that finds the target OPEN (epoch.c, acquire) sees the window as of
   the post, as the thread whose acquire load saw the post does. */
void shmpi_rma_await_post(MPI_Win win, int target)
{
    shmpi_core_lock(&win->lock);
    int awaited = win->epoch_part[target] == SHMPI_TARGET_AWAIT_POST;
    struct post_wait w = {shmpi_win_posted(win, win->comm->rank, target),
                          win->posts_seen[target] + 1};
    shmpi_core_unlock(&win->lock);
    if (!awaited)
        return;
    if (!post_arrived(&w)) {
        struct access_wait a = {&w, win, target};
        shmpi_rma_wait(&access_waitfor, &a, 1);
    }
    shmpi_core_lock(&win->lock);
    if (win->epoch_part[target] == SHMPI_TARGET_AWAIT_POST) {
        win->posts_seen[target] = w.seen;
        atomic_store_explicit(&win->epoch_part[target], SHMPI_TARGET_OPEN,
                              memory_order_release);
    }
    shmpi_core_unlock(&win->lock);
}

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    static const char fn[] = "MPI_Win_start";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_rma_check_win(win, fn);
    if (rc == MPI_SUCCESS)
        rc = check_group(win, group, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_rma_check_assert(win, assert, MPI_MODE_NOCHECK, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_rma_check_no_access(win, SHMPI_EPOCH_NONE, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    uint8_t state = assert & MPI_MODE_NOCHECK ? SHMPI_TARGET_OPEN
                                              : SHMPI_TARGET_AWAIT_POST;
    shmpi_group_retain(group);
    shmpi_core_lock(&win->lock);
    for (int i = 0; i < group->size; i++)
        shmpi_rma_part_set(win, win_rank(win, group, i), state);
    win->start_group = group;
    shmpi_rma_set_access(win, SHMPI_EPOCH_PSCW);
    atomic_store_explicit(&win->fence_open, 0, memory_order_relaxed);
    shmpi_core_unlock(&win->lock);
    return MPI_SUCCESS;
}

int PMPI_Win_complete(MPI_Win win)
{
    static const char fn[] = "MPI_Win_complete";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->access != SHMPI_EPOCH_PSCW)
        return shmpi_win_raise(win, MPI_ERR_RMA_SYNC, fn,
                               "MPI_Win_complete without MPI_Win_start "
                               "(this process is in %s)",
                               shmpi_rma_epoch_name(win));
    if (shmpi_core_checking()) {
        shmpi_rma_origin_complete(win, -1, fn);
        shmpi_rma_conflict_end(win, -1);
    }
    /* no thread accesses the epoch's targets any more (11.5.2: complete
       ends the epoch), so its state is this call's alone but for the
       lock that other threads' epoch calls on win take */
    MPI_Group g = win->start_group;
    for (int i = 0; i < g->size; i++) {
        int t = win_rank(win, g, i);
        shmpi_rma_await_post(win, t);
        shmpi_rma_part_set(win, t, SHMPI_TARGET_CLOSED);
        /* release: this origin's accesses to t are done */
        atomic_fetch_add_explicit(&shmpi_win_ctl_of(win, t)->completed, 1,
                                  memory_order_release);
        shmpi_core_doorbell_ring(shmpi_comm_to_world(win->comm, t));
    }
    shmpi_core_lock(&win->lock);
    win->start_group = MPI_GROUP_NULL;
    shmpi_rma_set_access(win, SHMPI_EPOCH_NONE);
    shmpi_core_unlock(&win->lock);
    shmpi_group_release(g);
    return MPI_SUCCESS;
}
