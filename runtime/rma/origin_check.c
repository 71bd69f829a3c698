/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * origin_check.c - the origin buffer of an RMA call, unchanged until the
 * call that completes it (MPI-3.1 11.3: "the origin buffer ... must not
 * be modified until the operation completes at the origin"; 11.5: the
 * fence, MPI_Win_complete, MPI_Win_unlock(_all), MPI_Win_flush(_all),
 * MPI_Win_flush_local(_all) complete it); check mode only.
 *
 * shmpi copies the origin data at the call (win.h), so a program that
 * writes its origin buffer before the epoch ends works here and sends
 * the new bytes elsewhere.  In check mode MPI_Put, MPI_Accumulate and
 * MPI_Get_accumulate (and their _c forms) hash their origin bytes
 * (datatypes/hash.c) into a record; the completing calls hash them again
 * and report a difference naming both calls (reading an origin in a
 * watched window through its unprotected mapping, local_check.c: the
 * hash is the library's access, not the program's).  The request forms are not
 * recorded: their completion is the request's, which this room does not
 * see.
 *
 * The records: one table for the process, under `table.lock` (threads
 * may issue on one window at once), at most PER_WIN pending for one
 * window and SLOTS in all - calls beyond them are not checked (the man
 * page says so).  A record names its window by pointer and id, so that a
 * record of a window freed inside an epoch (an error the program was
 * told of) never matches a later window at the same address.
 *
 * The completing calls complete the gets too: shmpi_rma_origin_complete
 * gives their result buffers back (result_check.c).
 */
#include <stdio.h>

#include "core/check.h"
#include "core/lock.h"
#include "core/objects.h"
#include "rma/xfer.h"

#define SLOTS 256
#define PER_WIN 32

struct origin {
    MPI_Win win;               /* NULL: the slot is free */
    uint64_t win_id;
    int target;
    const void *buf;
    MPI_Count count;
    MPI_Datatype dt;           /* retained while recorded */
    uint64_t hash;
    char call[256];            /* "MPI_Put(origin=0x..., count=4, ...)" */
};

static struct {
    struct shmpi_core_lock lock;
    struct origin slot[SLOTS];
} table;

static int mine(const struct origin *o, MPI_Win win)
{
    return o->win == win && o->win_id == win->id;
}

/* A free slot, if win has fewer than PER_WIN; under table.lock. */
static struct origin *free_slot(MPI_Win win)
{
    struct origin *free = NULL;
    int n = 0;
    for (int i = 0; i < SLOTS; i++) {
        if (!table.slot[i].win && !free)
            free = &table.slot[i];
        n += mine(&table.slot[i], win);
    }
    return n < PER_WIN ? free : NULL;
}

static void describe(struct origin *o, const char *fn, MPI_Aint disp,
                     MPI_Win win)
{
    char type[MPI_MAX_OBJECT_NAME], label[MPI_MAX_OBJECT_NAME + 48];
    if (shmpi_core_name_get(o->dt->name, type) <= 0)
        snprintf(type, sizeof type, "a derived datatype");
    shmpi_win_label_short(win, label, sizeof label);
    snprintf(o->call, sizeof o->call,
             "%s(origin=%p, count=%lld, %s, target=%d, disp=%lld, %s)", fn,
             o->buf, (long long)o->count, type, o->target, (long long)disp,
             label);
}

void shmpi_rma_origin_record(MPI_Win win, int target, MPI_Aint disp,
                             const void *buf, MPI_Count count,
                             MPI_Datatype dt, const char *fn)
{
    if (win->access == SHMPI_EPOCH_SYNC_OPS)
        return; /* completed by its sync_ops request (sync_epoch.c) */
    uint64_t hash = shmpi_dt_hash(
        shmpi_rma_local_unwatched(buf, count, dt, 0), count, dt);
    shmpi_core_mutex_lock(&table.lock);
    struct origin *o = free_slot(win);
    if (o) {
        *o = (struct origin){win, win->id, target, buf, count, dt, hash, ""};
        shmpi_dt_retain(dt);
        describe(o, fn, disp, win);
    }
    shmpi_core_mutex_unlock(&table.lock);
}

void shmpi_rma_origin_complete(MPI_Win win, int target, const char *fn)
{
    shmpi_rma_result_complete(win, target); /* and the gets' results */
    shmpi_core_mutex_lock(&table.lock);
    for (int i = 0; i < SLOTS; i++) {
        struct origin *o = &table.slot[i];
        if (!mine(o, win) || (target >= 0 && o->target != target))
            continue;
        if (shmpi_dt_hash(
                shmpi_rma_local_unwatched(o->buf, o->count, o->dt, 0),
                o->count, o->dt) != o->hash)
            shmpi_core_check_report(
                "RMA origin buffer modified before the operation completed",
                "11.3",
                "do not write the origin buffer until the call that "
                "completes the operation (fence, MPI_Win_complete, unlock, "
                "flush or flush_local) has returned",
                "%s and its completion in %s", o->call, fn);
        shmpi_dt_release(o->dt);
        o->win = NULL;
    }
    shmpi_core_mutex_unlock(&table.lock);
}
