/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pack.c - moving the bytes of (buf, count, type) to and from their packed
 * form, from any byte offset of that form, and between two typed buffers.
 *
 * A contiguous type is one memcpy.  Anything else is walked (iterate.c)
 * over its compiled form (compile.c), and the walk hands the whole runs
 * of each RUNS node to the kernels here: one loop per node visit,
 * specialised at compile time for a class of run lengths, so that no
 * loop branches on the length of its runs: the lengths that are a
 * single move (1, 2, 4, 8, 16, 32 bytes; 8-byte runs go two at a time),
 * then 3, 5-7, 9-15, 17-31, 33-64, 65-128 and 129-256 bytes (a few moves
 * from both ends, overlapping in the middle), up to 2 KiB (a loop of
 * 32-byte moves) and memcpy beyond.  Runs of lengths that vary take one
 * loop of 64-byte steps.  No call through a pointer, no call per run
 * below 2 KiB, no per-byte work.  The kernels are built twice, with and
 * without AVX2, and prefetch what lies beyond L2 (both below).
 *
 * Measured against the kernels before these (16-byte moves below 256
 * bytes, memcpy above) on 2026-11-22 on the development machine (AMD
 * EPYC Zen 5 VM), with perf/pack.c's layouts, both builds in one process
 * on the same buffers, interleaved (60 rounds at 64 KiB, 25 at 8 MiB,
 * medians of the per-round ratio; the other figures in this file's
 * comments come from the same program and day): at 64 KiB, 24-byte indexed blocks
 * 1.3-1.8x, a 15-byte struct 1.1-1.6x, 160-byte subarray rows 1.15-1.7x,
 * 256 B and 4 KiB vector blocks unchanged (memcpy per block was as
 * good); at 8 MiB, packing 256 B and 4 KiB vector blocks 1.35-1.7x and
 * 1.4x, indexed types 1.3-1.8x.  perf/README.md compares them with Open
 * MPI, MPICH, memcpy and hand-written loops.
 */
#include <string.h>

#include "datatypes/datatype.h"
#include "datatypes/flat.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* 16 and 32 bytes through a vector register.  `wide`: the kernel is the
   AVX2 build (see the end of the kernels), where 32 bytes are one ymm
   load and store; elsewhere they are two xmm ones (a 32-byte vector
   without AVX would go through the stack). */
typedef unsigned char v16 __attribute__((vector_size(16)));
typedef unsigned char v32 __attribute__((vector_size(32)));

ALWAYS_INLINE void move16(unsigned char *d, const unsigned char *s)
{
    v16 v;
    memcpy(&v, s, 16);
    memcpy(d, &v, 16);
}

ALWAYS_INLINE void move32(unsigned char *d, const unsigned char *s, int wide)
{
    if (wide) {
        v32 v;
        memcpy(&v, s, 32);
        memcpy(d, &v, 32);
    } else {
        move16(d, s);
        move16(d + 16, s + 16);
    }
}

/* Runs from this length on go to memcpy: glibc switches to `rep movsb`
   near 2 KiB, and on the development machine (AMD Zen 5) that beats any
   loop of vector moves by a third (one 64 KiB copy: 110 GB/s, against 84
   for a loop of 32-byte moves and 80 for 64-byte ones). */
#define COPY_CALL_MIN 2048

/* Copy n bytes, lo <= n <= hi, where lo and hi are constants: a kernel
   specialised for a class of lengths keeps that class's branch alone.
   Moves from both ends that overlap in the middle, so no byte loop and,
   up to 256 bytes, no loop at all; small classes first, since for them a
   taken branch costs as much as the move. */
ALWAYS_INLINE void copy_run(unsigned char *d, const unsigned char *s,
                            uint64_t n, uint64_t lo, uint64_t hi, int wide)
{
    if (lo < 4 && n < 4) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    } else if (lo < 8 && n < 8) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        if (hi > 4)
            memcpy(d + n - 4, &b, 4);
    } else if (lo < 16 && n < 16) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        if (hi > 8)
            memcpy(d + n - 8, &b, 8);
    } else if (lo < 32 && n < 32) {
        move16(d, s);
        if (hi > 16)
            move16(d + n - 16, s + n - 16);
    } else if (lo <= 64 && n <= 64) {
        move32(d, s, wide);
        if (hi > 32)
            move32(d + n - 32, s + n - 32, wide);
    } else if (lo <= 128 && n <= 128) {
        move32(d, s, wide);
        move32(d + 32, s + 32, wide);
        move32(d + n - 64, s + n - 64, wide);
        move32(d + n - 32, s + n - 32, wide);
    } else if (lo <= 256 && n <= 256) {
        for (int v = 0; v < 128; v += 32) {
            move32(d + v, s + v, wide);
            move32(d + n - 128 + v, s + n - 128 + v, wide);
        }
    } else if (hi >= COPY_CALL_MIN && n >= COPY_CALL_MIN) {
        memcpy(d, s, n);
    } else {
        for (uint64_t k = 0; k + 128 < n; k += 128)
            for (int v = 0; v < 128; v += 32)
                move32(d + k + v, s + k + v, wide);
        for (int v = 128; v > 0; v -= 32)
            move32(d + n - v, s + n - v, wide);
    }
}

/* Copy n bytes when n changes from run to run (indexed types): there the
   class branches of copy_run mispredict, so from 64 bytes on it is one
   loop of 64-byte steps whose last step overlaps the one before (at
   64 KiB as fast as memcpy per run, 1.2-1.35x faster beyond the caches). */
ALWAYS_INLINE void copy_varying(unsigned char *d, const unsigned char *s,
                                uint64_t n, int wide)
{
    if (n < 64 || n >= COPY_CALL_MIN) {
        copy_run(d, s, n, 1, UINT64_MAX, wide);
        return;
    }
    for (uint64_t k = 0; k + 64 < n; k += 64) {
        move32(d + k, s + k, wide);
        move32(d + k + 32, s + k + 32, wide);
    }
    move32(d + n - 64, s + n - 64, wide);
    move32(d + n - 32, s + n - 32, wide);
}

/* One run between the typed buffer and the packed bytes. */
ALWAYS_INLINE void move(unsigned char *typed, unsigned char *packed,
                        uint64_t len, uint64_t lo, uint64_t hi,
                        int to_packed, int wide)
{
    if (to_packed)
        copy_run(packed, typed, len, lo, hi, wide);
    else
        copy_run(typed, packed, len, lo, hi, wide);
}

/* Software prefetch.  Runs spread over more than the L2 cache (1 MiB on
   the development machine) come from L3 or memory, and the hardware
   prefetchers, which stop at page boundaries and spend part of their
   reach on the gaps between runs, leave many runs waiting for their
   lines: so the kernels fetch the lines of the run about PREFETCH_AHEAD
   bytes ahead of the one they move (for writing, when unpacking indexed
   types).  Measured at 8 MiB: vectors of 256-byte blocks pack 1.4-2x
   faster, of 4 KiB blocks 1.1-1.4x; indexed types pack 1.6-2x and unpack
   1.1-1.4x faster.  Within L2 the same prefetches cost 10-15 %, hence
   the threshold. */
#define PREFETCH_SPAN (1 << 20)
#define PREFETCH_AHEAD 8192

/* How many runs ahead to prefetch: n runs over `span` bytes, or 0 when
   they fit in L2 or are packed so densely (less than a cache line apart
   on average) that the hardware follows them. */
ALWAYS_INLINE uint64_t prefetch_distance(uint64_t n, uint64_t span)
{
    if (span < PREFETCH_SPAN || span < 64 * n)
        return 0;
    return PREFETCH_AHEAD / (span / n) + 1;
}

ALWAYS_INLINE void prefetch_run(const unsigned char *p, uint64_t len,
                                int to_packed)
{
    for (uint64_t k = 0; k < len; k += 64) {
        if (to_packed)
            __builtin_prefetch(p + k, 0);
        else
            __builtin_prefetch(p + k, 1);
    }
}

/* Runs [first, end) of r in each of iters iterations. */
struct span {
    const int64_t *disp;       /* disp[first] */
    const uint64_t *len;       /* len[first]; NULL when uniform */
    uint64_t n;                /* end - first */
    int64_t stride;
};

/* The bytes from the first run of s to the last, in one iteration. */
ALWAYS_INLINE uint64_t span_bytes(struct span s)
{
    int64_t d = s.disp[s.n - 1] - s.disp[0];
    return (uint64_t)(d < 0 ? -d : d);
}

/* A vector of 8-byte blocks two at a time: two 8-byte moves on the
   strided side, one 16-byte move on the packed side (half the loop, half
   the packed-side accesses: 1.5-2x faster than one block at a time).
   Returns the blocks moved, an even number. */
ALWAYS_INLINE uint64_t move_pairs8(unsigned char *p, int64_t stride,
                                   uint64_t iters, unsigned char *packed,
                                   int to_packed)
{
    uint64_t i = 0;
    for (; i + 2 <= iters; i += 2) {
        unsigned char *a = p + (int64_t)i * stride, *b = a + stride;
        unsigned char v[16];
        if (to_packed) {
            memcpy(v, a, 8);
            memcpy(v + 8, b, 8);
            memcpy(packed + i * 8, v, 16);
        } else {
            memcpy(v, packed + i * 8, 16);
            memcpy(a, v, 8);
            memcpy(b, v + 8, 8);
        }
    }
    return i;
}

/* A vector: one run per iteration, iters of them. */
ALWAYS_INLINE unsigned char *move_vector(unsigned char *p, int64_t stride,
                                         uint64_t iters,
                                         unsigned char *packed, uint64_t len,
                                         uint64_t lo, uint64_t hi,
                                         int to_packed, int wide)
{
    uint64_t step = (uint64_t)(stride < 0 ? -stride : stride);
    /* unpacking, the stores need no help (4 KiB blocks: 15 % slower) */
    uint64_t i = 0, ahead = to_packed ? prefetch_distance(iters, iters * step)
                                      : 0;
    if (lo == 8 && hi == 8)
        i = move_pairs8(p, stride, iters, packed, to_packed);
    for (; i + ahead < iters && ahead; i++) {
        prefetch_run(p + (int64_t)(i + ahead) * stride, len, to_packed);
        move(p + (int64_t)i * stride, packed + i * len, len, lo, hi,
             to_packed, wide);
    }
    for (; i < iters; i++)
        move(p + (int64_t)i * stride, packed + i * len, len, lo, hi,
             to_packed, wide);
    return packed + iters * len;
}

/* All runs of a length in [lo, hi] (lo == hi: that length exactly). */
ALWAYS_INLINE unsigned char *move_uniform(struct span s, unsigned char *origin,
                                          uint64_t iters,
                                          unsigned char *packed,
                                          uint64_t len, uint64_t lo,
                                          uint64_t hi, int to_packed,
                                          int wide)
{
    if (s.n == 1) /* the loop that matters most */
        return move_vector(origin + s.disp[0], s.stride, iters, packed, len,
                           lo, hi, to_packed, wide);
    uint64_t ahead = prefetch_distance(s.n, span_bytes(s));
    for (uint64_t i = 0; i < iters; i++) {
        unsigned char *o = origin + (int64_t)i * s.stride;
        uint64_t j = 0;
        for (; j + ahead < s.n && ahead; j++, packed += len) {
            prefetch_run(o + s.disp[j + ahead], len, to_packed);
            move(o + s.disp[j], packed, len, lo, hi, to_packed, wide);
        }
        for (; j < s.n; j++, packed += len)
            move(o + s.disp[j], packed, len, lo, hi, to_packed, wide);
    }
    return packed;
}

/* Runs of differing lengths. */
ALWAYS_INLINE unsigned char *move_mixed(struct span s, unsigned char *origin,
                                        uint64_t iters, unsigned char *packed,
                                        int to_packed, int wide)
{
    uint64_t ahead = prefetch_distance(s.n, span_bytes(s));
    for (uint64_t i = 0; i < iters; i++) {
        unsigned char *o = origin + (int64_t)i * s.stride;
        for (uint64_t j = 0; j < s.n; packed += s.len[j], j++) {
            unsigned char *t = o + s.disp[j];
            if (j + ahead < s.n && ahead)
                prefetch_run(o + s.disp[j + ahead], s.len[j + ahead],
                             to_packed);
            if (to_packed)
                copy_varying(packed, t, s.len[j], wide);
            else
                copy_varying(t, packed, s.len[j], wide);
        }
    }
    return packed;
}

/* One kernel per length class, so that each loop holds one kind of move:
   the lengths that are a single move exactly, the others by the branch
   of copy_run they take. */
ALWAYS_INLINE unsigned char *move_runs(const struct shmpi_flat_runs *r,
                                       uint64_t first, uint64_t end,
                                       unsigned char *origin, uint64_t iters,
                                       unsigned char *packed, int to_packed,
                                       int wide)
{
    struct span s = {r->disp + first, NULL, end - first, r->stride};
    uint64_t u = r->uniform;
#define UNIFORM(lo, hi) \
    move_uniform(s, origin, iters, packed, u, lo, hi, to_packed, wide)
    switch (u) {
    case 0:
        s.len = shmpi_runs_len(r) + first;
        return move_mixed(s, origin, iters, packed, to_packed, wide);
    case 1: return UNIFORM(1, 1);
    case 2: return UNIFORM(2, 2);
    case 4: return UNIFORM(4, 4);
    case 8: return UNIFORM(8, 8);
    case 16: return UNIFORM(16, 16);
    case 32: return UNIFORM(32, 32);
    }
    if (u == 3) return UNIFORM(3, 3);
    if (u < 8) return UNIFORM(5, 7);
    if (u < 16) return UNIFORM(9, 15);
    if (u < 32) return UNIFORM(17, 31);
    if (u <= 64) return UNIFORM(33, 64);
    if (u <= 128) return UNIFORM(65, 128);
    if (u <= 256) return UNIFORM(129, 256);
    if (u < COPY_CALL_MIN) return UNIFORM(257, COPY_CALL_MIN - 1);
    return UNIFORM(COPY_CALL_MIN, UINT64_MAX);
#undef UNIFORM
}

/* The kernels, built twice: for any CPU (16-byte moves) and for x86-64s
   with AVX2 (32-byte moves: within L2, 1.25x on 256-byte blocks and 1.5x
   on 160-byte rows), picked per call from the CPU flags the compiler's
   runtime reads once at startup.  Aligned so that their loops do not
   move with whatever the linker puts before them: unaligned, two copies
   of the same code measured 1x and 1.6x in one binary. */
#define KERNEL_ALIGN __attribute__((aligned(64)))

KERNEL_ALIGN static unsigned char *
pack_narrow(const struct shmpi_flat_runs *r, uint64_t first, uint64_t end,
            unsigned char *origin, uint64_t iters, unsigned char *out)
{
    return move_runs(r, first, end, origin, iters, out, 1, 0);
}

KERNEL_ALIGN static unsigned char *
unpack_narrow(const struct shmpi_flat_runs *r, uint64_t first, uint64_t end,
              unsigned char *origin, uint64_t iters, unsigned char *in)
{
    return move_runs(r, first, end, origin, iters, in, 0, 0);
}

#if defined(__x86_64__)
KERNEL_ALIGN __attribute__((target("avx2"))) static unsigned char *
pack_wide(const struct shmpi_flat_runs *r, uint64_t first, uint64_t end,
          unsigned char *origin, uint64_t iters, unsigned char *out)
{
    return move_runs(r, first, end, origin, iters, out, 1, 1);
}

KERNEL_ALIGN __attribute__((target("avx2"))) static unsigned char *
unpack_wide(const struct shmpi_flat_runs *r, uint64_t first, uint64_t end,
            unsigned char *origin, uint64_t iters, unsigned char *in)
{
    return move_runs(r, first, end, origin, iters, in, 0, 1);
}
#endif

unsigned char *shmpi_dt_runs_pack(const struct shmpi_flat_runs *r,
                                  uint64_t first, uint64_t end,
                                  const unsigned char *origin, uint64_t iters,
                                  unsigned char *out)
{
    /* the typed side is only read */
    unsigned char *typed = (unsigned char *)origin;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2"))
        return pack_wide(r, first, end, typed, iters, out);
#endif
    return pack_narrow(r, first, end, typed, iters, out);
}

const unsigned char *shmpi_dt_runs_unpack(const struct shmpi_flat_runs *r,
                                          uint64_t first, uint64_t end,
                                          unsigned char *origin, uint64_t iters,
                                          const unsigned char *in)
{
    /* the packed side is only read */
    unsigned char *packed = (unsigned char *)in;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2"))
        return unpack_wide(r, first, end, origin, iters, packed);
#endif
    return unpack_narrow(r, first, end, origin, iters, packed);
}

void shmpi_dt_pack(const void *buf, MPI_Datatype t, uint64_t offset, void *out,
                   uint64_t len)
{
    if (len == 0)
        return;
    if (t->contig) {
        memcpy(out, (const unsigned char *)buf + offset, len);
        return;
    }
    struct shmpi_dt_walk w = {.op = SHMPI_WALK_PACK, .packed = out};
    shmpi_dt_walk(shmpi_dt_flat_of(t), (unsigned char *)buf, offset, len, &w);
}

void shmpi_dt_unpack(void *buf, MPI_Datatype t, uint64_t offset, const void *in,
                     uint64_t len)
{
    if (len == 0)
        return;
    if (t->contig) {
        memcpy((unsigned char *)buf + offset, in, len);
        return;
    }
    struct shmpi_dt_walk w = {.op = SHMPI_WALK_UNPACK,
                           .packed = (unsigned char *)in};
    shmpi_dt_walk(shmpi_dt_flat_of(t), buf, offset, len, &w);
}

/* Both sides scattered: their iovec lists, a batch at a time, are merged
   run against run - each byte is copied once, straight across. */
#define IOV_BATCH 64

struct side {
    const void *buf;
    MPI_Datatype t;
    uint64_t listed;           /* packed bytes covered by lists so far */
    struct iovec iov[IOV_BATCH];
    int n, at;                 /* entries in iov, the current one */
    size_t used;               /* bytes of iov[at] already copied */
};

/* The current run of s (listing the next batch when needed) and how much
   of it is left. */
static unsigned char *side_run(struct side *s, uint64_t len, size_t *left)
{
    if (s->at == s->n) {
        uint64_t covered;
        s->n = shmpi_dt_fill_iov(s->buf, s->t, s->listed, len - s->listed,
                                 s->iov, IOV_BATCH, &covered);
        s->listed += covered;
        s->at = 0;
        s->used = 0;
    }
    *left = s->iov[s->at].iov_len - s->used;
    return (unsigned char *)s->iov[s->at].iov_base + s->used;
}

static void side_advance(struct side *s, size_t n)
{
    s->used += n;
    if (s->used == s->iov[s->at].iov_len) {
        s->at++;
        s->used = 0;
    }
}

void shmpi_dt_copy_typed(void *dst, MPI_Datatype dt, const void *src,
                         MPI_Datatype st, uint64_t len)
{
    if (len == 0)
        return;
    if (dt->contig) {
        shmpi_dt_pack(src, st, 0, dst, len);
        return;
    }
    if (st->contig) {
        shmpi_dt_unpack(dst, dt, 0, src, len);
        return;
    }
    struct side d = {.buf = dst, .t = dt}, s = {.buf = src, .t = st};
    for (uint64_t done = 0; done < len;) {
        size_t dleft, sleft;
        unsigned char *to = side_run(&d, len, &dleft);
        unsigned char *from = side_run(&s, len, &sleft);
        size_t n = dleft < sleft ? dleft : sleft;
        memcpy(to, from, n);
        side_advance(&d, n);
        side_advance(&s, n);
        done += n;
    }
}
