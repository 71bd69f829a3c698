/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iterate.c - walking the compiled form (compile.c) of count x type from
 * any packed byte offset to any other: the one walk behind pack, unpack,
 * typed copies and iovec lists.
 *
 * A walk never keeps state between calls: it is given (offset, len) and
 * finds where offset lies by descending the program - a division per
 * RUNS node, a binary search over the entries of a LOOPS node - so a
 * pipelined message that moves in chunks splitting blocks anywhere pays
 * O(depth) per chunk, never a replay from the start.  Within the range it
 * visits the runs in packed order: whole runs of a RUNS node go to the
 * kernels of pack.c, a call per node visit, never per block; the two
 * runs the range may split at its ends, and every run of an iovec walk,
 * go through piece() below.
 */
#include <string.h>

#include "datatypes/datatype.h"
#include "datatypes/flat.h"

/* Hand one memory run over; 0 when the iovec array is full. */
static int piece(struct shmpi_dt_walk *w, unsigned char *p, uint64_t n)
{
    switch (w->op) {
    case SHMPI_WALK_PACK:
        memcpy(w->packed, p, n);
        w->packed += n;
        return 1;
    case SHMPI_WALK_UNPACK:
        memcpy(p, w->packed, n);
        w->packed += n;
        return 1;
    case SHMPI_WALK_IOV:
        if (w->iov_used) {
            struct iovec *last = &w->iov[w->iov_used - 1];
            if ((unsigned char *)last->iov_base + last->iov_len == p) {
                last->iov_len += n;
                return 1;
            }
        }
        if (w->iov_used == w->iov_max)
            return 0;
        w->iov[w->iov_used++] = (struct iovec){p, n};
        return 1;
    }
    return 0;
}

static uint64_t run_len(const struct shmpi_flat_runs *r, uint64_t j)
{
    return r->uniform ? r->uniform : shmpi_runs_len(r)[j];
}

/* The run holding packed byte `within` of an iteration, and where in
   that run it is. */
static uint64_t find_run(const struct shmpi_flat_runs *r, uint64_t within,
                         uint64_t *off)
{
    if (r->uniform) {
        *off = within % r->uniform;
        return within / r->uniform;
    }
    const uint64_t *prefix = shmpi_runs_prefix(r);
    uint64_t lo = 0, hi = r->h.n - 1;
    while (lo < hi) {
        uint64_t mid = hi - (hi - lo) / 2;
        if (prefix[mid] <= within)
            lo = mid;
        else
            hi = mid - 1;
    }
    *off = within - prefix[lo];
    return lo;
}

/* Packed offset of run j within an iteration (j == n: its end). */
static uint64_t run_start(const struct shmpi_flat_runs *r, uint64_t j)
{
    if (j == r->h.n)
        return r->h.size;
    return r->uniform ? j * r->uniform : shmpi_runs_prefix(r)[j];
}

/* IOV: the runs from run j, off bytes in, for len bytes or until the
   array is full. */
static uint64_t list_runs(const struct shmpi_flat_runs *r,
                          unsigned char *origin, uint64_t j, uint64_t off,
                          uint64_t len, struct shmpi_dt_walk *w)
{
    uint64_t done = 0;
    for (; done < len; origin += r->stride, j = 0) {
        for (; j < r->h.n && done < len; j++, off = 0) {
            uint64_t n = run_len(r, j) - off;
            if (n > len - done)
                n = len - done;
            if (!piece(w, origin + r->disp[j] + off, n))
                return done;
            done += n;
        }
    }
    return done;
}

/* Whole runs [first, end) of iters iterations, by the kernels. */
static void kernel(const struct shmpi_flat_runs *r, uint64_t first,
                   uint64_t end, unsigned char *origin, uint64_t iters,
                   struct shmpi_dt_walk *w)
{
    if (w->op == SHMPI_WALK_PACK)
        w->packed = shmpi_dt_runs_pack(r, first, end, origin, iters, w->packed);
    else
        w->packed = (unsigned char *)shmpi_dt_runs_unpack(r, first, end, origin,
                                                          iters, w->packed);
}

/* PACK, UNPACK: from run j, off bytes in, len bytes.  Only the two runs
   the range splits go through piece(); the rest is whole runs. */
static uint64_t move_runs(const struct shmpi_flat_runs *r,
                          unsigned char *origin, uint64_t j, uint64_t off,
                          uint64_t len, struct shmpi_dt_walk *w)
{
    uint64_t done = 0, iter = r->h.size;
    if (off) { /* the rest of a run that an earlier call began */
        done = run_len(r, j) - off < len ? run_len(r, j) - off : len;
        piece(w, origin + r->disp[j] + off, done);
        if (++j == r->h.n) {
            j = 0;
            origin += r->stride;
        }
    }
    while (done < len) {
        uint64_t rem = len - done;
        if (j == 0 && rem >= iter) {
            uint64_t whole = rem / iter;
            kernel(r, 0, r->h.n, origin, whole, w);
            origin += (int64_t)whole * r->stride;
            done += whole * iter;
            continue;
        }
        /* within one iteration: whole runs [j, end), then the head of
           run `end` */
        uint64_t start = run_start(r, j), head = 0;
        uint64_t end = start + rem >= iter ? r->h.n
                                           : find_run(r, start + rem, &head);
        if (end > j)
            kernel(r, j, end, origin, 1, w);
        done += run_start(r, end) - start;
        if (end == r->h.n) {
            j = 0;
            origin += r->stride;
        } else if (head) {
            piece(w, origin + r->disp[end], head);
            done += head;
        }
    }
    return done;
}

static uint64_t walk_runs(const struct shmpi_flat_runs *r,
                          unsigned char *base, uint64_t skip, uint64_t len,
                          struct shmpi_dt_walk *w)
{
    uint64_t iter = r->h.size, off;
    unsigned char *origin = base + (int64_t)(skip / iter) * r->stride;
    uint64_t j = find_run(r, skip % iter, &off);
    if (w->op == SHMPI_WALK_IOV)
        return list_runs(r, origin, j, off, len, w);
    return move_runs(r, origin, j, off, len, w);
}

static uint64_t walk_node(const struct shmpi_flat *f, uint64_t at,
                          unsigned char *base, uint64_t skip, uint64_t len,
                          struct shmpi_dt_walk *w);

/* The entry holding packed byte `skip` of a LOOPS node. */
static uint64_t find_entry(const struct shmpi_flat_loops *l, uint64_t skip)
{
    uint64_t lo = 0, hi = l->h.n - 1;
    while (lo < hi) {
        uint64_t mid = hi - (hi - lo) / 2;
        if (l->e[mid].prefix <= skip)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static uint64_t walk_loops(const struct shmpi_flat *f,
                           const struct shmpi_flat_loops *l,
                           unsigned char *base, uint64_t skip, uint64_t len,
                           struct shmpi_dt_walk *w)
{
    uint64_t k = find_entry(l, skip), done = 0;
    skip -= l->e[k].prefix;
    for (; done < len; k++, skip = 0) {
        const struct shmpi_flat_entry *e = &l->e[k];
        uint64_t i = skip / e->unit, within = skip % e->unit;
        unsigned char *origin = base + e->disp + (int64_t)i * e->stride;
        for (; i < e->count && done < len; i++, within = 0) {
            uint64_t want = e->unit - within;
            if (want > len - done)
                want = len - done;
            uint64_t got = walk_node(f, e->body, origin, within, want, w);
            done += got;
            if (got < want)
                return done;
            origin += e->stride;
        }
    }
    return done;
}

static uint64_t walk_node(const struct shmpi_flat *f, uint64_t at,
                          unsigned char *base, uint64_t skip, uint64_t len,
                          struct shmpi_dt_walk *w)
{
    const struct shmpi_flat_node *n = shmpi_flat_node_at(f, at);
    if (n->kind == SHMPI_NODE_RUNS)
        return walk_runs((const struct shmpi_flat_runs *)n, base, skip, len,
                         w);
    return walk_loops(f, (const struct shmpi_flat_loops *)n, base, skip, len,
                      w);
}

uint64_t shmpi_dt_walk(const struct shmpi_flat *f, unsigned char *buf,
                       uint64_t offset, uint64_t len, struct shmpi_dt_walk *w)
{
    if (len == 0)
        return 0;
    if (f->solid)
        return piece(w, buf + f->solid_disp + offset, len) ? len : 0;
    return walk_node(f, f->top, buf, offset, len, w);
}

int shmpi_dt_fill_iov(const void *buf, MPI_Datatype t, uint64_t offset,
                      uint64_t len, struct iovec *iov, int max,
                      uint64_t *covered)
{
    struct shmpi_dt_walk w = {.op = SHMPI_WALK_IOV, .iov = iov, .iov_max = max};
    *covered = shmpi_dt_walk(shmpi_dt_flat_of(t), (unsigned char *)buf,
                             offset, len, &w);
    return w.iov_used;
}
