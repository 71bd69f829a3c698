/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * result_check.c - the result buffer of a get, neither read nor written
 * by the program until the call that completes the get (MPI-3.1 11.3:
 * the get's data may be accessed only once it completed at the origin;
 * 11.5: fence, MPI_Win_complete, MPI_Win_unlock(_all), MPI_Win_flush
 * (_all) and MPI_Win_flush_local(_all) complete it); check mode only.
 *
 * shmpi copies the target data at the call (win.h), so a program that
 * reads a get's result before the epoch ends finds the data here, and
 * stale bytes under an MPI that moves it later; one that writes it has
 * its bytes overwritten there.  No hash can see a read: MPI_Get,
 * MPI_Get_accumulate, MPI_Fetch_and_op and MPI_Compare_and_swap (and
 * their _c forms) watch their result bytes (watch.c) from the return of
 * the call to the completing one, and the first load or store of the
 * program inside them is reported there and then, naming the byte and
 * the call.  The completing calls reach shmpi_rma_result_complete
 * through origin_check.c's completion.  The request forms MPI_Rget and
 * MPI_Rget_accumulate (11.3.5) are completed by those calls too, and by
 * the MPI_Wait or MPI_Test (or their any/all/some forms) that hands
 * their request's completion out: the request carries a ticket of the
 * record (pt2pt/bufcheck.h, shmpi_p2p_bufcheck_on_end), and that call
 * gives the record up if it is still there - an epoch's completion may
 * have ended it first, and its slot may hold another's record by then,
 * which the ticket tells apart.  MPI_Request_free of such a request
 * completes nothing: its result stays watched until the epoch's
 * completing call.
 *
 * Not watched, and so not checked (the man page says so): a result
 * buffer of a derived, non-contiguous type (the holes between its
 * blocks are no part of it); one on the calling thread's stack (the
 * signal frame goes there); the operations of a sync_ops epoch;
 * processes where
 * watch.c cannot watch (shmpi_rma_watch_possible); calls beyond SLOTS
 * pending at once.
 *
 * THE RECORDS: one table for the process, changed by the MPI calls
 * under `lock` (below MPI_THREAD_MULTIPLE, which watch.c requires, one
 * thread at a time, the lock orders the threads of a SERIALIZED
 * program); the handler reads a record's line through the watch's arg.
 * The line is written at the call, so that the handler only copies it
 * out (snprintf of strings and numbers, and write(2): what a signal
 * handler may do here).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/check.h"
#include "core/lock.h"
#include "core/objects.h"
#include "pt2pt/bufcheck.h"
#include "pt2pt/request.h"
#include "rma/watch.h"
#include "rma/xfer.h"

#define SLOTS 32

struct result {
    MPI_Win win;               /* NULL: the slot is free */
    uint64_t win_id;
    int target;
    int watch;                 /* watch.c's id */
    uintptr_t lo;
    uint64_t ticket;           /* request forms: their request's; else 0 */
    char call[256];            /* "MPI_Get(result=0x..., count=4, ...)" */
};

static struct {
    struct shmpi_core_lock lock;
    struct result slot[SLOTS];
} table;

static void hit(void *arg, void *addr, int write)
{
    const struct result *r = arg;
    shmpi_core_check_report(
        "RMA result buffer accessed before the operation completed",
        "11.3",
        r->ticket ? "do not read or write the result buffer until MPI_Wait "
                    "or MPI_Test says its request is complete (or a fence, "
                    "unlock or flush has completed the operation)"
                  : "do not read or write the result buffer until the call "
                    "that completes the operation (fence, MPI_Win_complete, "
                    "unlock, flush or flush_local) has returned",
        "%s, byte %lu of its result %s before the call that completes it",
        r->call, (unsigned long)((uintptr_t)addr - r->lo),
        write ? "written" : "read");
}

static void describe(struct result *r, const char *fn, const void *buf,
                     MPI_Count count, MPI_Datatype dt, MPI_Aint disp,
                     MPI_Win win)
{
    char type[MPI_MAX_OBJECT_NAME], label[MPI_MAX_OBJECT_NAME + 48];
    if (shmpi_core_name_get(dt->name, type) <= 0)
        snprintf(type, sizeof type, "a derived datatype");
    shmpi_win_label_short(win, label, sizeof label);
    snprintf(r->call, sizeof r->call,
             "%s(result=%p, count=%lld, %s, target=%d, disp=%lld, %s)", fn,
             buf, (long long)count, type, r->target, (long long)disp,
             label);
}

/* A record of the result, ticket its request's (or 0): whether it is
   watched. */
static int watch(MPI_Win win, int target, MPI_Aint disp, const void *buf,
                 MPI_Count count, MPI_Datatype dt, uint64_t ticket,
                 const char *fn)
{
    if (win->access == SHMPI_EPOCH_SYNC_OPS || !dt->contig || count <= 0 ||
        !shmpi_rma_watch_possible())
        return 0;
    int watched = 0;
    shmpi_core_mutex_lock(&table.lock);
    for (int i = 0; i < SLOTS; i++) {
        struct result *r = &table.slot[i];
        if (r->win)
            continue;
        *r = (struct result){win, win->id, target, -1, (uintptr_t)buf,
                             ticket, ""};
        describe(r, fn, buf, count, dt, disp, win);
        r->watch = shmpi_rma_watch_add(buf, (size_t)count * (size_t)dt->size,
                                       hit, r);
        if (r->watch < 0)
            r->win = NULL;
        watched = r->watch >= 0;
        break;
    }
    shmpi_core_mutex_unlock(&table.lock);
    return watched;
}

void shmpi_rma_result_watch(MPI_Win win, int target, MPI_Aint disp,
                            const void *buf, MPI_Count count, MPI_Datatype dt,
                            const char *fn)
{
    watch(win, target, disp, buf, count, dt, 0, fn);
}

/* The request of ticket handed out complete by fn: its record, if the
   epoch did not end it first, given up. */
static void request_done(uint64_t ticket, const char *fn)
{
    if (strcmp(fn, "MPI_Request_free") == 0)
        return; /* completes nothing: the epoch's call will */
    shmpi_core_mutex_lock(&table.lock);
    for (int i = 0; i < SLOTS; i++) {
        struct result *r = &table.slot[i];
        if (r->win && r->ticket == ticket) {
            shmpi_rma_watch_remove(r->watch);
            r->win = NULL;
        }
    }
    shmpi_core_mutex_unlock(&table.lock);
}

void shmpi_rma_result_watch_request(struct shmpi_request *req, MPI_Win win,
                                    int target, MPI_Aint disp,
                                    const void *buf, MPI_Count count,
                                    MPI_Datatype dt, const char *fn)
{
    static _Atomic uint64_t tickets; /* threads may issue at once */
    uint64_t ticket =
        atomic_fetch_add_explicit(&tickets, 1, memory_order_relaxed) + 1;
    if (watch(win, target, disp, buf, count, dt, ticket, fn))
        shmpi_p2p_bufcheck_on_end(req, request_done, ticket);
}

void shmpi_rma_result_complete(MPI_Win win, int target)
{
    shmpi_core_mutex_lock(&table.lock);
    for (int i = 0; i < SLOTS; i++) {
        struct result *r = &table.slot[i];
        if (r->win != win || r->win_id != win->id ||
            (target >= 0 && r->target != target))
            continue;
        shmpi_rma_watch_remove(r->watch);
        r->win = NULL;
    }
    shmpi_core_mutex_unlock(&table.lock);
}
