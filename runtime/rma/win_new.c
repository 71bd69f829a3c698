/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win_new.c - what the four window constructors share (win_impl.h): the
 * window object, the control segment, the exchange that tells every
 * member how to reach every other member's memory, and the teardown.
 *
 * THE CONTROL SEGMENT is one memfd, made by member 0 and mapped by every
 * member through /proc/<pid of member 0>/fd/<fd>: member m's block (its
 * struct shmpi_win_ctl, posted[n], and on a dynamic window its region
 * table) at m * ctl_bytes.  The shared flavor puts the window memory of
 * all members after the blocks, from the next page on, so one mapping
 * gives both.  It is zero-filled by the kernel, which is every word's
 * initial value; member 0 closes its descriptor once everybody mapped it
 * - except on the shared flavor, where it keeps it (w->shared.fd) for the
 * processes that MPI_Win_change_comm may add later: they map the memory
 * through it, where it is (win_change_comm.c).
 *
 * THE EXCHANGE is one allgather of struct shmpi_win_member over the
 * window's private communicator, then one allreduce of the outcome:
 * making its part (or member 0 the control segment) or mapping the
 * control segment can fail on a member (say, out of memory, address
 * space or file descriptors), and then every member fails together,
 * each told which rank failed at what and why - on the shared flavor,
 * whose memory is in the control segment, with MPI_ERR_RMA_SHARED
 * (MPI-3.1 11.2.3: memory that cannot be shared); and if some origin
 * found process_vm refused, the members whose memory needs it start
 * their helper thread (map_vm.c) before anyone returns.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "comm/comm.h"
#include "core/check.h"
#include "core/error.h"
#include "core/fint.h"
#include "core/live.h"
#include "core/proc.h"
#include "rma/state.h"
#include "rma/win_impl.h"

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

static size_t posted_end(int nmembers)
{
    return round_up(sizeof(struct shmpi_win_ctl) +
                        (size_t)nmembers * sizeof(uint32_t),
                    SHMPI_CACHELINE);
}

size_t shmpi_win_ctl_bytes(int nmembers)
{
    return posted_end(nmembers) + shmpi_rma_conflict_bytes();
}

void *shmpi_win_conflict_block(MPI_Win w, int member)
{
    return (unsigned char *)shmpi_win_ctl_of(w, member) +
           posted_end(w->comm->size);
}

const char *shmpi_win_maker(MPI_Win w)
{
    switch (w->flavor) {
    case MPI_WIN_FLAVOR_CREATE: return "MPI_Win_create";
    case MPI_WIN_FLAVOR_ALLOCATE: return "MPI_Win_allocate";
    case MPI_WIN_FLAVOR_SHARED: return "MPI_Win_allocate_shared";
    default: return "MPI_Win_create_dynamic";
    }
}

/* Bytes of the blocks, page-rounded: the shared flavor's memory follows. */
size_t shmpi_win_shared_offset(MPI_Win w)
{
    return round_up((size_t)w->comm->size * w->ctl_bytes,
                    (size_t)sysconf(_SC_PAGESIZE));
}

unsigned char *shmpi_win_shared_memory(MPI_Win w)
{
    if (w->shared.at)
        return w->shared.at;
    return (unsigned char *)w->ctl + shmpi_win_shared_offset(w);
}

static int alloc_tables(MPI_Win w, int n)
{
    w->targets = calloc((size_t)n, sizeof *w->targets);
    w->views = calloc((size_t)n, sizeof *w->views);
    w->epoch_part = calloc((size_t)n, sizeof *w->epoch_part);
    w->posts_seen = calloc((size_t)n, sizeof *w->posts_seen);
    return w->targets && w->views && w->epoch_part && w->posts_seen;
}

int shmpi_win_check_comm(MPI_Comm comm, const char *fn)
{
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (comm->is_inter)
        return shmpi_raise(comm, MPI_ERR_COMM, fn,
                           "windows are made over intracommunicators, "
                           "this one is an intercommunicator");
    return MPI_SUCCESS;
}

int shmpi_win_check_info(MPI_Comm comm, MPI_Info info, const char *fn)
{
    if (info != MPI_INFO_NULL && !shmpi_info_ok(info))
        return shmpi_raise(comm, MPI_ERR_INFO, fn,
                           "info is not a valid info object");
    return MPI_SUCCESS;
}

int shmpi_win_check_memory(MPI_Comm comm, MPI_Aint size, MPI_Aint disp_unit,
                           MPI_Info info, const char *fn)
{
    int rc = shmpi_win_check_comm(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (size < 0)
        return shmpi_raise(comm, MPI_ERR_SIZE, fn, "size %ld is negative",
                           (long)size);
    if (disp_unit <= 0)
        return shmpi_raise(comm, MPI_ERR_DISP, fn,
                           "disp_unit %ld is not positive", (long)disp_unit);
    /* the _c constructors take an MPI_Aint; the window keeps an int, as
       its MPI_WIN_DISP_UNIT attribute is one (MPI-4.0 12.2.6) */
    if (disp_unit > INT_MAX)
        return shmpi_raise(comm, MPI_ERR_DISP, fn,
                           "disp_unit %ld is beyond INT_MAX, which the "
                           "window's MPI_WIN_DISP_UNIT attribute (an int) "
                           "cannot give back",
                           (long)disp_unit);
    if ((rc = shmpi_win_check_info(comm, info, fn)) != MPI_SUCCESS)
        return rc;
    return MPI_SUCCESS;
}

int shmpi_win_begin(MPI_Comm comm, int flavor, MPI_Info info,
                    const char *fn, MPI_Win *out)
{
    MPI_Comm dup;
    int rc = shmpi_comm_dup(comm, &dup, fn); /* collective: first */
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Win w = calloc(1, sizeof *w);
    if (!w) {
        PMPI_Comm_free(&dup);
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for a window object");
    }
    w->magic = SHMPI_MAGIC_WIN;
    w->flavor = flavor;
    w->comm = dup;
    w->disp_unit = 1;
    w->start_group = MPI_GROUP_NULL;
    w->post_group = MPI_GROUP_NULL;
    w->shared.fd = -1;
    w->errhandler = MPI_ERRORS_ARE_FATAL; /* 8.3: every window starts so */
    w->ctl_bytes = shmpi_win_ctl_bytes(dup->size);
    if (!alloc_tables(w, dup->size)) {
        shmpi_win_destroy(w);
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for a window object");
    }
    shmpi_win_read_info(w, info);
    if (shmpi_core_checking())
        shmpi_core_live_made(SHMPI_LIVE_WIN, w, fn, w->name);
    *out = w;
    return MPI_SUCCESS;
}

/* Where target t's memory is, as this process reaches it; 0 if it
   needs t's mailbox (process_vm refused). */
static int reach_target(MPI_Win w, int t, const struct shmpi_win_member *m)
{
    struct shmpi_win_target *tg = &w->targets[t];
    *tg = (struct shmpi_win_target){NULL, m->base, (MPI_Aint)m->size,
                                    m->disp_unit, 1, m->pid};
    if (w->flavor == MPI_WIN_FLAVOR_SHARED) {
        tg->base = shmpi_win_shared_memory(w) + m->fd_offset;
        return 1;
    }
    if (t == w->comm->rank) {
        tg->base = w->base;
        return 1;
    }
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC) /* reached by region */
        shmpi_win_dynamic_peer(w, t, m->regions_fd);
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        return m->mbox_fd < 0 || shmpi_rma_vm_connect(m->pid, m->probe,
                                                      m->mbox_fd);
    if (m->size == 0 || (m->fd >= 0 &&
                         shmpi_rma_map_peer(m->pid, m->fd, m->fd_offset,
                                            (size_t)m->size, &tg->base,
                                            &w->views[t]) == 0))
        return 1;
    tg->direct = 0;
    return shmpi_rma_vm_connect(m->pid, m->probe, m->mbox_fd);
}

/* Every member but 0 maps the control segment, then every target: into
   out[0] MPI_SUCCESS or the class of a failure, into out[1] whether
   some target needs its mailbox, into out[2] rank * 4096 + errno of a
   failure to map (errnos are below 4096), for everyone's message. */
static void reach_all(MPI_Win w, const struct shmpi_win_member *all,
                      int64_t out[3])
{
    out[0] = MPI_SUCCESS;
    out[1] = out[2] = 0;
    if (w->comm->rank != 0) {
        unsigned char *at;
        struct shmpi_win_view v;
        int err = shmpi_rma_map_peer(all[0].pid, all[0].ctl_fd, 0,
                                     w->ctl_map_bytes, &at, &v);
        if (err != 0) {
            out[0] = w->flavor == MPI_WIN_FLAVOR_SHARED ? MPI_ERR_RMA_SHARED
                                                       : MPI_ERR_OTHER;
            out[2] = (int64_t)w->comm->rank * 4096 + err;
            return;
        }
        w->ctl = (struct shmpi_win_ctl *)at;
    }
    for (int t = 0; t < w->comm->size; t++)
        out[1] |= !reach_target(w, t, &all[t]);
}

/* What every member raises when some member (the highest one, `who` of
   reach_all) could not map the control segment. */
static int raise_unmapped(MPI_Win w, const struct shmpi_win_member *all,
                          int cls, int64_t who, MPI_Comm comm,
                          const char *fn)
{
    return shmpi_raise(comm, cls, fn,
                       "rank %d cannot map the window's %s (the memory "
                       "file rank 0 made, opened as /proc/%d/fd/%d): %s",
                       (int)(who / 4096),
                       w->flavor == MPI_WIN_FLAVOR_SHARED
                           ? "shared memory"
                           : "control segment",
                       (int)all[0].pid, (int)all[0].ctl_fd,
                       strerror((int)(who % 4096)));
}

static int first_failed(const struct shmpi_win_member *all, int n)
{
    for (int r = 0; r < n; r++)
        if (all[r].status != MPI_SUCCESS)
            return r;
    return -1;
}

/* What this process tells the others besides its memory. */
static void describe_process(MPI_Win w, struct shmpi_win_member *mine)
{
    static const int always_readable = 1;
    mine->pid = getpid();
    mine->ctl_fd = -1;
    mine->mbox_fd = -1;
    mine->probe = (uintptr_t)&always_readable;
    int unshared = mine->fd < 0 && w->flavor != MPI_WIN_FLAVOR_SHARED &&
                   (mine->size > 0 || w->flavor == MPI_WIN_FLAVOR_DYNAMIC);
    if (unshared) {
        /* before anyone tries process_vm */
        shmpi_rma_map_allow_peers(shmpi_proc.arena->launcher_pid);
        mine->mbox_fd = shmpi_rma_vm_mailbox();
    }
}

/* After the allgather: map, then agree that all went well. */
static int agree(MPI_Win w, const struct shmpi_win_member *all,
                 const struct shmpi_win_member *mine, MPI_Comm comm,
                 const char *fn)
{
    int64_t local[3], worst[3];
    reach_all(w, all, local);
    int rc = PMPI_Allreduce(local, worst, 3, MPI_INT64_T, MPI_MAX, w->comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (worst[0] != MPI_SUCCESS)
        return raise_unmapped(w, all, (int)worst[0], worst[2], comm, fn);
    if (worst[1] && w->comm->rank == 0)
        shmpi_rma_vm_warn();
    if (worst[1] && mine->mbox_fd >= 0 && shmpi_rma_vm_serve() != 0)
        return shmpi_raise(comm, MPI_ERR_OTHER, fn,
                           "cannot start the thread that serves this "
                           "process's window memory to peers refused "
                           "process_vm");
    return MPI_SUCCESS;
}

/* Member 0: the control segment, with the shared flavor's memory after
   it; keep: its descriptor stays open, for MPI_Win_change_comm's
   newcomers. */
static void make_control(MPI_Win w, struct shmpi_win_member *mine, int keep)
{
    void *ctl;
    int err = shmpi_rma_map_segment(w->ctl_map_bytes, &ctl, &mine->ctl_fd);
    if (err == 0) {
        w->ctl = ctl;
        if (keep) {
            w->shared.fd = mine->ctl_fd;
            w->shared.fd_offset = shmpi_win_shared_offset(w);
        }
        return;
    }
    int shared = w->flavor == MPI_WIN_FLAVOR_SHARED;
    mine->status = shared ? MPI_ERR_RMA_SHARED : MPI_ERR_NO_MEM;
    snprintf(mine->why, sizeof mine->why,
             "cannot make the memory file of %zu bytes that would hold "
             "the window's %s: %s", w->ctl_map_bytes,
             shared ? "shared memory" : "control segment", strerror(err));
}

int shmpi_win_publish(MPI_Win w, struct shmpi_win_member *mine,
                      size_t shared_bytes, MPI_Comm comm, const char *fn)
{
    int n = w->comm->size, me = w->comm->rank;
    struct shmpi_win_member *all = malloc((size_t)n * sizeof *all);
    if (!all)
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for the window's member table");
    describe_process(w, mine);
    w->ctl_map_bytes = shmpi_win_shared_offset(w) + shared_bytes;
    int keep = w->flavor == MPI_WIN_FLAVOR_SHARED && !w->shared.at;
    if (keep)
        w->shared.len = shared_bytes; /* it follows the blocks */
    if (me == 0) { /* unique in the job while the window lives */
        /* relaxed: only the number must be new (threads may make
           windows on different communicators at once) */
        mine->id = (uint64_t)shmpi_proc.rank << 32 |
                   (atomic_fetch_add_explicit(&shmpi_proc.rma->windows_made, 1,
                                              memory_order_relaxed) + 1);
    }
    if (me == 0 && mine->status == MPI_SUCCESS)
        make_control(w, mine, keep);
    int rc = PMPI_Allgather(mine, sizeof *mine, MPI_BYTE, all, sizeof *mine,
                            MPI_BYTE, w->comm);
    int bad = rc == MPI_SUCCESS ? first_failed(all, n) : -1;
    if (rc == MPI_SUCCESS) {
        w->id = all[0].id;
        shmpi_win_name_comm(w);
    }
    if (rc == MPI_SUCCESS && bad < 0)
        rc = agree(w, all, mine, comm, fn);
    if (mine->ctl_fd >= 0 && mine->ctl_fd != w->shared.fd)
        close(mine->ctl_fd); /* everybody mapped it, or gave up */
    if (bad == me)
        rc = shmpi_raise(comm, mine->status, fn, "%s", mine->why);
    else if (bad >= 0)
        rc = shmpi_raise(comm, all[bad].status, fn,
                         "rank %d could not make its part of the window: "
                         "%s", bad, all[bad].why);
    free(all);
    return rc;
}

void shmpi_win_destroy(MPI_Win w)
{
    if (shmpi_core_checking()) {
        shmpi_core_live_freed(SHMPI_LIVE_WIN, w);
        shmpi_rma_local_unwatch(w);
    }
    shmpi_win_dynamic_free(w);
    for (int t = 0; w->views && t < w->comm->size; t++)
        shmpi_rma_map_unview(&w->views[t]);
    if (w->ctl)
        munmap(w->ctl, w->ctl_map_bytes);
    if (w->shared.at)
        munmap(w->shared.at, w->shared.len);
    if (w->shared.fd >= 0)
        close(w->shared.fd);
    if (w->share) {
        shmpi_rma_map_release(w->share);
        free(w->share);
    }
    free(w->targets);
    free(w->views);
    free(w->epoch_part);
    free(w->posts_seen);
    if (w->comm != MPI_COMM_NULL)
        PMPI_Comm_free(&w->comm);
    shmpi_core_errhandler_release(w->errhandler);
    shmpi_fint_drop(SHMPI_FINT_WIN, &w->fint);
    w->magic = 0;
    free(w);
}
