/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * range.c - the target range of an RMA call, checked at the origin
 * (MPI-3.1 11.3.1's advice to implementors, made the rule): the bytes
 * that target_count x target_datatype touch at target_disp x disp_unit lie
 * inside the target's window - or, on a dynamic window, inside one
 * region the target attached - or the call raises MPI_ERR_RMA_RANGE
 * saying which window, which target, which bytes and how large the
 * window is.  Nothing outside a window is ever written because nothing
 * is moved before this check passed.
 *
 * The bytes touched by count elements of t at 0 are [lo, hi): the
 * elements sit at i * extent (extent may be negative), each covering
 * [true_lb, true_ub) from there.  Arithmetic is done in 128 bits, so no
 * displacement, however absurd, wraps around into the window.
 *
 * xfer.h has the inline good path for contiguous types on mapped
 * windows; this file is everything else.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rma/xfer.h"

__extension__ typedef __int128 wide;

struct span {
    wide lo, hi;               /* bytes touched, relative to the buffer */
};

static struct span type_span(MPI_Count count, MPI_Datatype t)
{
    wide last = (wide)(count - 1) * t->extent;
    wide first = 0;
    return (struct span){(last < first ? last : first) + t->true_lb,
                         (last < first ? first : last) + t->true_ub};
}

static const char *type_name(MPI_Datatype t)
{
    return t->name[0] ? t->name : "a derived datatype";
}

/* "16 bytes (2 x MPI_DOUBLE)", or "[-8, 24) (2 x a derived datatype)"
   when the data does not start at the buffer. */
static void span_text(struct span s, MPI_Count count, MPI_Datatype t,
                      char *buf, size_t len)
{
    if (s.lo == 0)
        snprintf(buf, len, "%" PRId64 " bytes (%lld x %s)", (int64_t)s.hi,
                 (long long)count, type_name(t));
    else
        snprintf(buf, len, "[%" PRId64 ", %" PRId64 ") (%lld x %s)",
                 (int64_t)s.lo, (int64_t)s.hi, (long long)count, type_name(t));
}

static int out_of_window(MPI_Win win, int target, MPI_Aint disp, wide off,
                         struct span s, MPI_Count count, MPI_Datatype t,
                         const char *fn)
{
    const struct shmpi_win_target *w = &win->targets[target];
    char data[160];
    span_text(s, count, t, data, sizeof data);
    wide start = off + s.lo, end = off + s.hi;
    if (off > INT64_MAX || off < INT64_MIN)
        return shmpi_win_raise(win, MPI_ERR_RMA_RANGE, fn,
                               "target %d's window is %" PRId64 " bytes; "
                               "disp %" PRId64 " x disp_unit %d is far "
                               "beyond it", target, (int64_t)w->size,
                               (int64_t)disp, w->disp_unit);
    return shmpi_win_raise(win, MPI_ERR_RMA_RANGE, fn,
                           "target %d's window is %" PRId64 " bytes; the "
                           "target range [%" PRId64 ", %" PRId64 ") = disp %"
                           PRId64 " x disp_unit %d + %s %s", target,
                           (int64_t)w->size, (int64_t)start, (int64_t)end,
                           (int64_t)disp, w->disp_unit, data,
                           start < 0 ? "starts before its beginning"
                                     : "runs past its end");
}

/* A dynamic window: the target addresses [start, end) must lie in one
   region the target attached (win_dynamic.c finds it, and maps it here
   when it can). */
static int in_region(MPI_Win win, int target, MPI_Aint disp, struct span s,
                     MPI_Count count, MPI_Datatype t, const char *fn,
                     struct shmpi_rma_loc *loc)
{
    wide start = (wide)disp + s.lo, end = (wide)disp + s.hi;
    unsigned char *local;
    int found = 0;
    if (start >= 0 && end <= (wide)UINT64_MAX &&
        (found = shmpi_win_region_find(win, target, (uint64_t)start,
                                       (uint64_t)(end - start), &local)) < 0)
        return shmpi_win_raise(win, MPI_ERR_OTHER, fn,
                               "cannot map target %d's table of attached "
                               "regions (its memory file, opened as "
                               "/proc/%d/fd/...): %s", target,
                               (int)win->targets[target].pid,
                               strerror(errno));
    if (found) {
        loc->direct = local != NULL;
        loc->pid = win->targets[target].pid;
        loc->addr = local ? (uint64_t)(uintptr_t)local - (uint64_t)s.lo
                          : (uint64_t)disp;
        return MPI_SUCCESS;
    }
    uint64_t near_base, near_size;
    char data[160];
    span_text(s, count, t, data, sizeof data);
    if (!shmpi_win_region_nearest(win, target,
                                  start < 0 ? 0 : (uint64_t)start,
                                  end > (wide)UINT64_MAX ? UINT64_MAX
                                                         : (uint64_t)end,
                                  &near_base, &near_size))
        return shmpi_win_raise(win, MPI_ERR_RMA_RANGE, fn,
                               "target %d has no memory attached to this "
                               "dynamic window (MPI_Win_attach); the target "
                               "range is address %#" PRIx64 " + %s", target,
                               (uint64_t)disp, data);
    return shmpi_win_raise(win, MPI_ERR_RMA_RANGE, fn,
                           "the target range [%#" PRIx64 ", %#" PRIx64 ") = "
                           "address %#" PRIx64 " + %s is not inside one "
                           "region target %d attached to this dynamic "
                           "window; the nearest is [%#" PRIx64 ", %#" PRIx64
                           ") (%" PRIu64 " bytes)", (uint64_t)start,
                           (uint64_t)end, (uint64_t)disp, data, target,
                           near_base, near_base + near_size, near_size);
}

int shmpi_rma_locate_slow(MPI_Win win, int target, MPI_Aint disp,
                          MPI_Count count, MPI_Datatype t, const char *fn,
                          struct shmpi_rma_loc *loc)
{
    if (count == 0 || t->size == 0) { /* touches nothing */
        *loc = (struct shmpi_rma_loc){.addr = 0, .direct = 1};
        return MPI_SUCCESS;
    }
    struct span s = type_span(count, t);
    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        return in_region(win, target, disp, s, count, t, fn, loc);
    const struct shmpi_win_target *w = &win->targets[target];
    wide off = (wide)disp * w->disp_unit;
    if (off + s.lo < 0 || off + s.hi > w->size)
        return out_of_window(win, target, disp, off, s, count, t, fn);
    loc->direct = w->direct;
    loc->pid = w->pid;
    loc->addr = (w->direct ? (uint64_t)(uintptr_t)w->base : w->remote_base) +
                (uint64_t)off;
    return MPI_SUCCESS;
}
