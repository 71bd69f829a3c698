/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * conflict_check.c - two RMA accesses of one origin to the same target
 * bytes in one epoch where MPI-3.1 11.7.1 makes the program erroneous:
 * a put with any other access, a get with a put or an accumulate, and
 * two accumulates of different ops or basic types (accumulates of one op
 * and type are atomic per element, and may overlap; so may gets, and an
 * MPI_Get_accumulate with MPI_NO_OP, a read, with any accumulate of its
 * type); check mode only.
 *
 * shmpi moves the data at the call, in program order, so the result
 * here is the one a program expects; on another MPI the two may reach
 * the target in either order, or interleaved.  Each put, get and
 * accumulate to a contiguous target range notes [addr, addr + len) of
 * its target (addr: where this process reaches it, shmpi_rma_locate) and
 * is compared with the notes of its window and target; the calls that
 * order the accesses at the target forget them - MPI_Win_fence,
 * MPI_Win_complete, MPI_Win_unlock(_all) for the epoch, MPI_Win_flush
 * (its target) and MPI_Win_flush_all.  Only this process's accesses are
 * compared: two origins that touch the same bytes are not seen.
 *
 * At most SLOTS notes a process, under `table.lock`; accesses beyond
 * them go unchecked until a flush or an epoch's end frees places.
 */
#include <stdio.h>

#include "core/check.h"
#include "core/lock.h"
#include "core/objects.h"
#include "rma/xfer.h"

#define SLOTS 256

struct access {
    MPI_Win win;               /* NULL: the slot is free */
    uint64_t win_id;
    int target, kind;          /* MPI_MODE_WIN_PUT, _GET, _ACCUMULATE */
    uint64_t lo, hi;           /* [lo, hi) of the target's bytes */
    MPI_Op op;                 /* accumulates */
    MPI_Datatype basic;
    char call[256];            /* "MPI_Put(target=1, disp=0, 16 bytes,
                                   window #1)" */
};

static struct {
    struct shmpi_core_lock lock;
    struct access slot[SLOTS];
} table;

static int of(const struct access *a, MPI_Win win, int target)
{
    return a->win == win && a->win_id == win->id &&
           (target < 0 || a->target == target);
}

/* May a and b touch the same bytes in one epoch (11.7.1)? */
static int compatible(const struct access *a, const struct access *b)
{
    if (a->kind == MPI_MODE_WIN_GET && b->kind == MPI_MODE_WIN_GET)
        return 1;
    if (a->kind != MPI_MODE_WIN_ACCUMULATE ||
        b->kind != MPI_MODE_WIN_ACCUMULATE || a->basic != b->basic)
        return 0;
    return a->op == b->op || a->op == MPI_NO_OP || b->op == MPI_NO_OP;
}

static void report(const struct access *old, const struct access *new)
{
    uint64_t lo = old->lo > new->lo ? old->lo : new->lo;
    uint64_t hi = old->hi < new->hi ? old->hi : new->hi;
    shmpi_core_check_report(
        "conflicting RMA accesses to the same target bytes in one epoch",
        "11.7.1",
        "complete the first at the target (MPI_Win_flush, or end the "
        "epoch) before the second, or make both accumulates of one op and "
        "type",
        "%s and %s overlap in %llu bytes", old->call, new->call,
        (unsigned long long)(hi - lo));
}

void shmpi_rma_conflict_note(MPI_Win win, int target, MPI_Aint disp,
                             const struct shmpi_rma_loc *loc, uint64_t len,
                             MPI_Datatype ttype, int kind, MPI_Op op,
                             const char *fn)
{
    if (!ttype->contig || len == 0 || win->access == SHMPI_EPOCH_SYNC_OPS)
        return;
    struct access n = {win, win->id, target, kind, loc->addr,
                       loc->addr + len, op, ttype->basic, ""};
    char label[MPI_MAX_OBJECT_NAME + 48];
    shmpi_win_label_short(win, label, sizeof label);
    snprintf(n.call, sizeof n.call, "%s(target=%d, disp=%lld, %llu bytes, %s)",
             fn, target, (long long)disp, (unsigned long long)len, label);
    struct access *free = NULL;
    shmpi_core_mutex_lock(&table.lock);
    for (int i = 0; i < SLOTS; i++) {
        struct access *a = &table.slot[i];
        if (!a->win) {
            free = free ? free : a;
        } else if (of(a, win, target) && a->lo < n.hi && n.lo < a->hi &&
                   !compatible(a, &n)) {
            report(a, &n);
            free = NULL; /* one report per access; not noted again */
            break;
        }
    }
    if (free)
        *free = n;
    shmpi_core_mutex_unlock(&table.lock);
}

void shmpi_rma_conflict_end(MPI_Win win, int target)
{
    shmpi_core_mutex_lock(&table.lock);
    for (int i = 0; i < SLOTS; i++)
        if (of(&table.slot[i], win, target))
            table.slot[i].win = NULL;
    shmpi_core_mutex_unlock(&table.lock);
}
