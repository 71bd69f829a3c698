/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce.c - MPI_Reduce, Allreduce, Reduce_scatter(_block), Scan and
 * Exscan on the area.
 *
 * Results are combined in rank order whatever the op: x0 op x1 op ... op
 * x(n-1), with shmpi_op_reduce computing inout = in op inout, so a fold
 * starts from the highest member's data and takes in the lower ones one
 * by one.  Non-commutative user ops need exactly that; commutative ones
 * lose nothing by it.
 *
 * Folded whole (up to SHMPI_COLL_FOLD_MAX bytes, default 16 KiB): every
 * member packs its contribution into its half (or its control line, up
 * to 16 bytes) and publishes (seq, 1); whoever needs a result waits for
 * the contributions it needs and folds them into its receive buffer -
 * every member for Allreduce, the root for Reduce, member i the first
 * i + 1 for Scan (i for Exscan), and for Reduce_scatter each member its
 * own segment only.  One store and one wait per member; n - 1
 * reductions of the whole vector per member that needs it.
 *
 * Reduced in slices (larger vectors): in rounds of one half each, every
 * member packs its piece of the vector into its half and publishes
 * (seq, 2t + 1); when all have, member k reduces slice k of the piece -
 * 1/n of it, 64-byte aligned - across all halves, in place in the last
 * member's half (for Scan and Exscan: as a running prefix, half j's slice
 * becoming x0 op ... op xj); it publishes (seq, 2t + 2), and once all have
 * the members that need the result unpack it (the whole piece from the
 * last member's half, or from their own or the previous one's for Scan
 * and Exscan).  Reduce_scatter cuts the slices along the segments instead,
 * so that each member reduces straight into its receive buffer and the
 * second step is not needed.  Rounds alternate halves; a member publishes
 * (seq, 2t + 3) only after unpacking round t, so waiting for every
 * (seq, 2t + 3) in round t + 1 is what allows round t + 2 to overwrite the
 * half of round t.  Each member writes into other members' halves here,
 * but only its own slice, and only between two steps that every reader
 * waits for.
 *
 * MPI_IN_PLACE: the contribution is packed before any result is written,
 * and results land in the receive buffer only in positions already packed
 * (a piece is packed in its round before that round writes the piece or
 * anything before it), so the receive buffer may be the send buffer.
 */
#include <string.h>

#include "coll/fallback.h"
#include "coll/reduce.h"
#include "core/copy.h"
#include "core/error.h"
#include "datatypes/datatype.h"

void shmpi_coll_segment(const struct shmpi_coll_red *x, int size, int i,
                        MPI_Count *first, MPI_Count *count)
{
    if (!x->seg_counts.p) {
        *first = (MPI_Count)i * x->seg_count;
        *count = x->seg_count;
        return;
    }
    MPI_Count at = 0;
    for (int j = 0; j < i && j < size; j++)
        at += shmpi_coll_count_at(x->seg_counts, j);
    *first = at;
    *count = shmpi_coll_count_at(x->seg_counts, i);
}

/* Who reads a member's contribution. */
static int readers_of(const struct shmpi_coll_red *x)
{
    return x->kind == SHMPI_RED_REDUCE ? x->root : SHMPI_COLL_ALL;
}

/* ------------------------------------------------------------------ */
/* Folded whole                                                        */
/* ------------------------------------------------------------------ */

/* Member j's packed contribution of this collective. */
static const unsigned char *contribution(struct shmpi_coll *c, int j, int p,
                                         uint64_t len)
{
    return len <= SHMPI_COLL_INLINE ? shmpi_coll_ctl(c, j)->data[p]
                                    : shmpi_coll_half(c, j, p);
}

/* Member j's contribution as fold_range reads it: this member's own from
   its send buffer where that holds it packed - a contiguous type, not
   MPI_IN_PLACE, whose receive buffer the fold overwrites - rather than
   from the line or half it published (coll.h: not reading one's own line
   back). */
static const unsigned char *folded(struct shmpi_coll *c,
                                   const struct shmpi_coll_red *x, int j,
                                   int p, uint64_t len)
{
    if (j == c->rank && x->type->contig && x->sbuf != x->rbuf)
        return x->sbuf;
    return contribution(c, j, p, len);
}

/* dst (typed, n elements) = x_lo op ... op x_(hi-1), from element first. */
static void fold_range(struct shmpi_coll *c, const struct shmpi_coll_red *x,
                       int p, int lo, int hi, MPI_Count first, MPI_Count n,
                       void *dst)
{
    MPI_Datatype t = x->type;
    uint64_t len = (uint64_t)(x->count * t->size);
    uint64_t off = (uint64_t)(first * t->size);
    shmpi_dt_unpack(dst, t, 0, folded(c, x, hi - 1, p, len) + off,
                    (uint64_t)(n * t->size));
    for (int j = hi - 2; j >= lo; j--)
        shmpi_coll_reduce_into(c, x->op, t, folded(c, x, j, p, len) + off,
                               dst, n);
}

/* The members whose contributions this one folds: [0, *hi), or none. */
static int needs(const struct shmpi_coll *c, const struct shmpi_coll_red *x,
                 int *hi)
{
    switch (x->kind) {
    case SHMPI_RED_REDUCE:
        *hi = c->size;
        return c->rank == x->root;
    case SHMPI_RED_SCAN:
        *hi = c->rank + 1;
        return c->rank > 0;
    case SHMPI_RED_EXSCAN:
        *hi = c->rank;
        return c->rank > 0;
    default:
        *hi = c->size;
        return 1;
    }
}

/* Allreduce with more ranks than CPUs: the contributions are published
   through the counter barrier (barrier.c), so each member runs once to
   arrive and once to fold, and only the last arriver rings anyone; a
   member waiting for the words one by one would be woken, and need a
   CPU, many times.  The counter settles what members owed, as a barrier
   does; reading the others' contributions after it, each member skips
   its STEP_DONE (shmpi_coll_finish). */
static void fold_counted(struct shmpi_coll *c, const struct shmpi_coll_red *x,
                         int p)
{
    c->owe_all = 0;
    shmpi_coll_counter(c);
    c->known_done = c->seq - 1;
    fold_range(c, x, p, 0, c->size, 0, x->count, x->rbuf);
    shmpi_coll_finish(c, 1, SHMPI_COLL_NOBODY);
}

static void fold_whole(struct shmpi_coll *c, const struct shmpi_coll_red *x)
{
    int p = (int)(shmpi_coll_begin(c) & 1), hi;
    uint64_t len = (uint64_t)(x->count * x->type->size);
    struct shmpi_coll_ctl *mine = shmpi_coll_ctl(c, c->rank);
    shmpi_coll_claim(c, p);
    shmpi_dt_pack(x->sbuf, x->type, 0,
                  (unsigned char *)contribution(c, c->rank, p, len), len);
    mine->len[p] = len;
    shmpi_coll_wrote(c, p, readers_of(x));
    if (x->kind == SHMPI_RED_ALLREDUCE &&
        shmpi_proc.coll_tune.counter_barrier) {
        fold_counted(c, x, p);
        return;
    }
    shmpi_coll_publish(c, 1);
    if (!needs(c, x, &hi)) {
        shmpi_coll_ring(c, readers_of(x));
        if (x->kind == SHMPI_RED_SCAN) /* member 0: its own data */
            shmpi_dt_unpack(x->rbuf, x->type, 0, contribution(c, 0, p, len),
                            len);
        shmpi_coll_finish(c, 1, SHMPI_COLL_NOBODY);
        return;
    }
    shmpi_coll_wait_range(c, 0, hi, 1);
    MPI_Count first = 0, n = x->count;
    if (x->kind == SHMPI_RED_SCATTER)
        shmpi_coll_segment(x, c->size, c->rank, &first, &n);
    if (n > 0)
        fold_range(c, x, p, 0, hi, first, n, x->rbuf);
    /* ring after the wait (barrier.c says why that is safe) and after the
       fold: the lines just fetched are read before a woken peer can
       write its next collective into them */
    shmpi_coll_ring(c, readers_of(x));
    shmpi_coll_finish(c, 1, SHMPI_COLL_ALL);
}

/*
 * The small Allreduce of the common case - a predefined op on a
 * contiguous predefined type, at most SHMPI_COLL_INLINE bytes, two
 * buffers, a CPU per rank - straight from the arguments.  The algorithm
 * is fold_whole's (publish in the control line, wait for everyone, fold
 * in rank order); what it skips is the rest of the general path - the
 * argument table, the packing, the kernel lookup - which at 8 bytes cost
 * more than the cache-line crossing itself (865 instructions a call at
 * np = 2 against about 330 on this path: callgrind, 2026-11-22, commit
 * d7b1533).  The conditions check every argument: the kernel cache
 * holds only valid (predefined op, predefined type) pairs (fold.c), so a
 * hit proves op, type and their pairing; anything else, errors included,
 * takes the general path.
 */
int shmpi_coll_allreduce_small(const void *sendbuf, void *recvbuf,
                               int count, MPI_Datatype t, MPI_Op op,
                               MPI_Comm comm)
{
    struct shmpi_coll *c;
    if (!shmpi_comm_ok(comm) || comm->is_inter || !(c = comm->coll) ||
        shmpi_proc.coll_tune.counter_barrier || c->kernel.op != op ||
        c->kernel.type != t || !c->kernel.fn || count <= 0 ||
        (uint64_t)count * t->size > SHMPI_COLL_INLINE || !sendbuf ||
        !recvbuf || sendbuf == MPI_IN_PLACE || sendbuf == recvbuf)
        return 0;
    size_t len = (size_t)count * t->size;
    shmpi_coll_calling(c, "MPI_Allreduce", -1);
    int p = (int)(shmpi_coll_begin(c) & 1);
    struct shmpi_coll_ctl *mine = shmpi_coll_ctl(c, c->rank);
    shmpi_coll_claim(c, p);
    shmpi_copy_short(mine->data[p], sendbuf, len);
    mine->len[p] = len;
    shmpi_coll_wrote(c, p, SHMPI_COLL_ALL);
    shmpi_coll_publish(c, 1);
    shmpi_coll_wait_range(c, 0, c->size, 1);
    /* this member's own data from sendbuf (coll.h: not reading one's own
       line back) */
    int me = c->rank, last = c->size - 1;
    shmpi_copy_short(recvbuf,
                     me == last ? sendbuf : shmpi_coll_ctl(c, last)->data[p],
                     len);
    for (int j = last - 1; j >= 0; j--)
        c->kernel.fn(j == me ? sendbuf : shmpi_coll_ctl(c, j)->data[p],
                     recvbuf, (size_t)count);
    shmpi_coll_ring(c, SHMPI_COLL_ALL); /* after the fold: fold_whole */
    shmpi_coll_finish(c, 1, SHMPI_COLL_ALL);
    return 1;
}

/* ------------------------------------------------------------------ */
/* Reduced in slices                                                   */
/* ------------------------------------------------------------------ */

struct piece {
    int h;                     /* the half of this round */
    MPI_Count first, n;        /* elements [first, first + n) */
};

static MPI_Count gcd(MPI_Count a, MPI_Count b)
{
    while (b) {
        MPI_Count r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Member k's slice [*a, *b) of a piece of n elements: whole units of
   elements that fill a multiple of 64 bytes, so every slice starts on a
   cache line of its own. */
static void slice_of(const struct shmpi_coll *c, MPI_Datatype t, int k,
                     MPI_Count n, MPI_Count *a, MPI_Count *b)
{
    MPI_Count unit = 64 / gcd(t->size, 64);
    MPI_Count units = (n + unit - 1) / unit;
    *a = units * k / c->size * unit;
    *b = units * (k + 1) / c->size * unit;
    if (*a > n)
        *a = n;
    if (*b > n)
        *b = n;
}

/* Reduce_scatter: this member's segment of the piece, folded from every
   half straight into its receive buffer. */
static void fold_segment(struct shmpi_coll *c, const struct shmpi_coll_red *x,
                         const struct piece *pc)
{
    MPI_Datatype t = x->type;
    MPI_Count seg0, segn;
    shmpi_coll_segment(x, c->size, c->rank, &seg0, &segn);
    MPI_Count lo = seg0 > pc->first ? seg0 : pc->first;
    MPI_Count hi = seg0 + segn < pc->first + pc->n ? seg0 + segn
                                                   : pc->first + pc->n;
    if (lo >= hi)
        return;
    uint64_t off = (uint64_t)((lo - pc->first) * t->size);
    unsigned char *dst = (unsigned char *)x->rbuf + (lo - seg0) * t->extent;
    shmpi_dt_unpack(dst, t, 0, shmpi_coll_half(c, c->size - 1, pc->h) + off,
                    (uint64_t)((hi - lo) * t->size));
    for (int j = c->size - 2; j >= 0; j--)
        shmpi_coll_reduce_into(c, x->op, t,
                               shmpi_coll_half(c, j, pc->h) + off, dst,
                               hi - lo);
}

/* This member's slice, across every half (the first step of a round). */
static void reduce_slice(struct shmpi_coll *c, const struct shmpi_coll_red *x,
                         const struct piece *pc)
{
    MPI_Datatype t = x->type;
    MPI_Count a, b;
    if (x->kind == SHMPI_RED_SCATTER) {
        fold_segment(c, x, pc);
        return;
    }
    slice_of(c, t, c->rank, pc->n, &a, &b);
    uint64_t off = (uint64_t)(a * t->size);
    int last = c->size - 1;
    if (x->kind == SHMPI_RED_SCAN || x->kind == SHMPI_RED_EXSCAN) {
        for (int j = 1; j <= last; j++)
            shmpi_coll_reduce_packed(c, x->op, t,
                                     shmpi_coll_half(c, j - 1, pc->h) + off,
                                     shmpi_coll_half(c, j, pc->h) + off,
                                     b - a);
        return;
    }
    for (int j = last - 1; j >= 0; j--)
        shmpi_coll_reduce_packed(c, x->op, t,
                                 shmpi_coll_half(c, j, pc->h) + off,
                                 shmpi_coll_half(c, last, pc->h) + off,
                                 b - a);
}

/* Whose half holds this member's result after the first step, or -1. */
static int result_from(const struct shmpi_coll *c,
                       const struct shmpi_coll_red *x)
{
    switch (x->kind) {
    case SHMPI_RED_REDUCE:
        return c->rank == x->root ? c->size - 1 : -1;
    case SHMPI_RED_SCAN:
        return c->rank;
    case SHMPI_RED_EXSCAN:
        return c->rank - 1;
    case SHMPI_RED_SCATTER:
        return -1;
    default:
        return c->size - 1;
    }
}

static void slice_round(struct shmpi_coll *c, const struct shmpi_coll_red *x,
                        uint64_t t, const struct piece *pc)
{
    MPI_Datatype dt = x->type;
    uint32_t step = (uint32_t)(2 * t + 1);
    if (t < 2)
        shmpi_coll_claim(c, pc->h);
    if (t == 0) /* the length, for a member that refuses (sync.c) */
        shmpi_coll_ctl(c, c->rank)->len[pc->h] =
            (uint64_t)(x->count * dt->size);
    shmpi_dt_pack(x->sbuf, dt, (uint64_t)(pc->first * dt->size),
                  shmpi_coll_half(c, c->rank, pc->h),
                  (uint64_t)(pc->n * dt->size));
    shmpi_coll_wrote(c, pc->h, SHMPI_COLL_ALL);
    shmpi_coll_publish(c, step);
    shmpi_coll_wait_all(c, step);
    shmpi_coll_ring(c, SHMPI_COLL_ALL);
    reduce_slice(c, x, pc);
    if (x->kind == SHMPI_RED_SCATTER)
        return;
    shmpi_coll_publish(c, step + 1);
    int from = result_from(c, x);
    if (from >= 0)
        shmpi_coll_wait_all(c, step + 1);
    shmpi_coll_ring(c, SHMPI_COLL_ALL);
    if (from >= 0)
        shmpi_dt_unpack(x->rbuf, dt, (uint64_t)(pc->first * dt->size),
                        shmpi_coll_half(c, from, pc->h),
                        (uint64_t)(pc->n * dt->size));
}

static void by_slices(struct shmpi_coll *c, const struct shmpi_coll_red *x)
{
    int p = (int)(shmpi_coll_begin(c) & 1);
    MPI_Count per_round = (MPI_Count)c->half / x->type->size;
    uint64_t rounds = (uint64_t)((x->count + per_round - 1) / per_round);
    for (uint64_t t = 0; t < rounds; t++) {
        struct piece pc = {(int)((p + t) & 1), (MPI_Count)t * per_round,
                           per_round};
        if (pc.first + pc.n > x->count)
            pc.n = x->count - pc.first;
        slice_round(c, x, t, &pc);
    }
    shmpi_coll_finish(c, rounds == 1, SHMPI_COLL_ALL);
}

/* ------------------------------------------------------------------ */

/* Is a reduction of len bytes folded whole (fold_whole), not in slices? */
static int whole(const struct shmpi_coll *c, int kind, uint64_t len)
{
    return len <= c->half &&
           (len <= shmpi_proc.coll_tune.fold_max || kind == SHMPI_RED_SCATTER);
}

/* Every member of an Allreduce publishes its length with its first word,
   (seq, 1), unless it refused. */
int shmpi_coll_counted_by_others(struct shmpi_coll *c)
{
    if (!shmpi_proc.coll_tune.counter_barrier)
        return 0;
    for (int j = 0; j < c->size; j++) {
        if (j == c->rank)
            continue;
        shmpi_coll_wait(c, j, 1);
        if (!shmpi_coll_refused_seq(c, j))
            return whole(c, SHMPI_RED_ALLREDUCE,
                         shmpi_coll_ctl(c, j)->len[c->seq & 1]);
    }
    return 0; /* all refused: nobody arrives */
}

int shmpi_coll_reduction(MPI_Comm comm, struct shmpi_coll_red *x,
                         const char *fn)
{
    struct shmpi_coll *c = comm->coll;
    uint64_t len = (uint64_t)(x->count * x->type->size);
    if (!c || (uint64_t)x->type->size > c->half)
        return shmpi_coll_fb_reduction(comm, x, fn);
    shmpi_coll_calling(c, fn, x->kind == SHMPI_RED_REDUCE ? x->root : -1);
    /* what this member packs into a half: nothing beyond its control
       line when folded whole from there (contribution) */
    uint64_t in_half = whole(c, x->kind, len) && len <= SHMPI_COLL_INLINE
                           ? 0
                       : len < c->half ? len
                                       : c->half;
    char no_mem[192] = "no memory to stage elements of the datatype";
    if (shmpi_coll_fold_prepare(c, x->type) != MPI_SUCCESS ||
        shmpi_coll_reserve(c, in_half, no_mem, sizeof no_mem) !=
            MPI_SUCCESS) {
        shmpi_coll_refuse(c, x->kind == SHMPI_RED_ALLREDUCE);
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn, "%s", no_mem);
    }
    if (whole(c, x->kind, len))
        fold_whole(c, x);
    else
        by_slices(c, x);
    return shmpi_coll_outcome(c, comm, fn);
}
