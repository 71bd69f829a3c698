/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wrap.h - what the wrappers of lib/libshmpi_trace.so share: the clock,
 * the record of a call (record.c) and the arguments it keeps.
 *
 * Every wrapper MPI_x times PMPI_x and calls shmpi_trace_end, which adds
 * the time to this thread's profile and, when mpirun asked for a trace,
 * returns a record to fill with the call's arguments, each field once
 * (shmpi_trace_fill; NULL otherwise, or when the call failed: the
 * arguments of a failed call may be invalid handles).  The record lives
 * in this thread's buffer until the next record of the thread.  A poll
 * that found nothing (shmpi_trace_poll) right after another of the same
 * function adds to that one's record instead.  The hot path takes no
 * lock and makes no system call: two counter reads, the profile's two
 * adds, and with --trace one 32-byte record (launcher/trace_file.h).
 *
 * The library must not depend on libshmpi.so at load time: mpirun's
 * LD_PRELOAD reaches every process of a rank's tree (a wrapper script's
 * shell, helpers), and loading libshmpi.so there would make that process
 * the rank (init/init.c's constructor).  So it is linked without it and
 * lazily (-z lazy): the PMPI_ functions it calls are bound at the first
 * call, in the rank's program, which has libshmpi.so loaded; and it names
 * none of mpi.h's predefined objects (no MPI_BYTE, no MPI_COMM_WORLD).
 */
#ifndef SHMPI_TRACE_WRAP_H
#define SHMPI_TRACE_WRAP_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/objects.h"
#include "datatypes/datatype.h"
#include "rma/win.h"
#include "launcher/trace_file.h"
#include "mpi.h"
#include "fn.h"

extern const char *const shmpi_trace_fn_names[SHMPI_TRACE_NFN];

/* clock.c: a timestamp.  Where the CPU's time-stamp counter runs at one
   rate whatever the core's frequency and sleep state (CPUID's invariant
   TSC bit), it is the counter itself, read in one instruction, and the
   records keep it: the .prof file's header says how it maps to
   CLOCK_MONOTONIC nanoseconds (shmpi_trace_clock_map), and mpirun
   converts; else CLOCK_MONOTONIC. */
extern int shmpi_trace_tsc;
uint64_t shmpi_trace_mono(void);
void shmpi_trace_clock_start(void);
void shmpi_trace_clock_map(struct shmpi_trace_head *h);
uint64_t shmpi_trace_clock_at(uint64_t t);
uint64_t shmpi_trace_clock_span(uint64_t ticks);

/* The profile's two adds stay two adds: GCC's SLP vectorizer paired
   them in an SSE register once the call's duration had a second use
   (the record's dt), 9 instructions for 5 (callgrind, MPI_Comm_rank
   loop under --profile, 2026-11-30: 76.6 a call against 71.6). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-slp-vectorize")
#endif

/* The wrappers' fast path is inlined whatever the compiler thinks of
   its size: a call's frame costs more than these bodies. */
#define SHMPI_TRACE_INLINE static inline __attribute__((always_inline))

SHMPI_TRACE_INLINE uint64_t shmpi_trace_now(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_expect(shmpi_trace_tsc, 1))
        return __builtin_ia32_rdtsc();
#endif
    return shmpi_trace_mono();
}

/* record.c: a thread's cursor in its records and its profile.  next is
   the next free record and end the end of its chunk but one, kept for a
   wide record (both NULL under --profile alone, or before the thread's
   first call, or after MPI_Finalize); poll is the record of a poll that
   found nothing, which may grow while it is next's predecessor; base the
   tick the records' t0 count from (the thread's last BASE record). */
struct shmpi_trace_thread {
    struct shmpi_trace_rec *next, *end, *poll;
    uint64_t base;
    uint8_t tid;
    struct shmpi_trace_fn_prof {
        uint64_t calls, ticks;
    } prof[SHMPI_TRACE_NFN];
};

/* This thread's, NULL before its first MPI call.  initial-exec: a
   preloaded library's TLS is static (allocated at start), so a read is
   one load from %fs, not a __tls_get_addr call (27 instructions of
   callgrind's count per call, 2026-11-29). */
extern _Thread_local struct shmpi_trace_thread *shmpi_trace_me
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

extern int shmpi_trace_events;   /* --trace: records are kept */
struct shmpi_trace_rec *shmpi_trace_end_slow(int fn, uint64_t t0,
                                             uint64_t t1, int rc);
struct shmpi_trace_rec *shmpi_trace_new_slow(struct shmpi_trace_thread *t,
                                             int fn, uint64_t t0,
                                             uint64_t t1);
struct shmpi_trace_rec *shmpi_trace_poll(int fn, uint64_t t0, uint64_t t1,
                                         int rc, int found);
void shmpi_trace_started(uint64_t t0);
void shmpi_trace_finished(void);

/* The line of the record 8 slots after r taken for writing: a chunk's
   lines are not in the cache once written out, and the records' stores
   wait for each line's read for ownership, all of it when the library's
   next locked instruction drains the store buffer.  Four lines ahead, a
   traced halo iteration of 4 calls (perf/halo.c -S fence -s 8, np = 2)
   took 8-29 ns less in four alternated runs of 63-135 batches, the
   counters scheme 6-8 ns; 16 records ahead, fence 7-28 ns and counters
   nothing (Xeon VM, 2026-12-02); on an AMD EPYC VM in its far state, 16
   ahead, nothing.  prefetchw is a no-op on a CPU without it and does not
   fault past the chunk's end; the address is an integer, as no C
   pointer may point so far. */
SHMPI_TRACE_INLINE void shmpi_trace_prefetch(const struct shmpi_trace_rec *r)
{
    uintptr_t a = (uintptr_t)r + 8 * sizeof *r;
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("prefetchw (%0)" ::"r"(a));
#else
    __builtin_prefetch((const void *)a, 1, 3);
#endif
}

/* A new record of thread t for the call fn from t0 to t1: its times,
   fn and thread written, the rest left to shmpi_trace_fill; NULL if
   none is kept.  Inline, as shmpi_trace_end: the wrappers' fast path is
   a compare with the chunk's end, a check that both times are below
   2^31 (one OR and a shift), a store of the cursor, a prefetch and
   the record's 32 bytes, each field written once (a call into
   record.c, its checks and its frame cost 79 of the 140 instructions
   --trace added to a call, callgrind, 2026-11-30).  record.c has the
   rest: a full chunk, a t0 too far from the base (a BASE record
   first), a longer dt (escaped from 2^32 - 1 ticks on, into a wide
   record after). */
SHMPI_TRACE_INLINE struct shmpi_trace_rec *
shmpi_trace_new(struct shmpi_trace_thread *t, int fn, uint64_t t0,
                uint64_t t1)
{
    struct shmpi_trace_rec *r = t->next;
    uint64_t d = t0 - t->base, dt = t1 - t0;
    if (__builtin_expect(r >= t->end || (d | dt) >> 31, 0))
        return r ? shmpi_trace_new_slow(t, fn, t0, t1)
                 : NULL;   /* --profile alone, or after MPI_Finalize */
    t->next = r + 1;
    shmpi_trace_prefetch(r);
    r->t0 = (uint32_t)d;
    r->dt = (uint32_t)dt;
    r->fn = (uint16_t)fn;
    r->tid = t->tid;
    return r;
}

/* The call fn ran from t0 to t1 and returned rc: its time goes to the
   profile; returns the record to fill (shmpi_trace_fill), or NULL (no
   trace kept, or the call failed: the arguments of a failed call may be
   invalid handles). */
SHMPI_TRACE_INLINE struct shmpi_trace_rec *
shmpi_trace_end(int fn, uint64_t t0, uint64_t t1, int rc)
{
    struct shmpi_trace_thread *t = shmpi_trace_me;
    if (__builtin_expect(!t, 0))
        return shmpi_trace_end_slow(fn, t0, t1, rc);
    t->prof[fn].calls++;
    t->prof[fn].ticks += t1 - t0;
    if (rc != MPI_SUCCESS)
        return NULL;
    return shmpi_trace_new(t, fn, t0, t1);
}

/* What a record says besides its times, gathered in registers by the
   wrapper and stored once (shmpi_trace_fill): a record's fields written
   twice, defaults then values, and checked one pair at a time cost a
   traced halo isend iteration 85 instructions (3030 with 64-byte
   records, 3115 with 32-byte ones; callgrind, 2026-11-30).  The fields
   of launcher/trace_file.h, wider: fill checks that they fit. */
struct shmpi_trace_args {
    int64_t count, bytes;
    int32_t peer, wpeer, tag;
    uint32_t comm;
    uint8_t kind;
};

/* A record of kind k that knows nothing else. */
#define SHMPI_TRACE_ARGS(k)                                               \
    ((struct shmpi_trace_args){.count = -1, .bytes = -1,                  \
                               .peer = MPI_PROC_NULL, .wpeer = -1,         \
                               .tag = -1, .comm = UINT32_MAX, .kind = (k)})

/* record.c: count, bytes, peer or wpeer too wide for r, escaped there
   and kept whole in its wide record. */
void shmpi_trace_widen(struct shmpi_trace_rec *r, int64_t count,
                       int64_t bytes, int64_t peer, int64_t wpeer);

/* r's fields but its times, fn and thread, from a, each written once.
   One check for the four that may not fit: count and bytes in [-2^30,
   2^30), peer and wpeer in [-2^14, 2^14) (launcher/trace_file.h); each
   offset by its limit is below 2^31, or 2^15 for the ranks, which
   shifted left by 16 is below 2^31 too, so one OR of the four and one
   shift test them all. */
SHMPI_TRACE_INLINE void shmpi_trace_fill(struct shmpi_trace_rec *r,
                                         const struct shmpi_trace_args *a)
{
    uint64_t ranks = (uint64_t)((int64_t)a->peer + SHMPI_TRACE_LIM16) |
                     (uint64_t)((int64_t)a->wpeer + SHMPI_TRACE_LIM16);
    uint64_t all = ((uint64_t)a->count + SHMPI_TRACE_LIM32) |
                   ((uint64_t)a->bytes + SHMPI_TRACE_LIM32) | ranks << 16;
    r->kind = a->kind;
    r->comm = a->comm;
    r->peer = (int16_t)a->peer;
    r->wpeer = (int16_t)a->wpeer;
    r->tag = a->tag;
    r->count = (int32_t)a->count;
    r->bytes = (int32_t)a->bytes;
    if (__builtin_expect(all >> 31, 0))
        shmpi_trace_widen(r, a->count, a->bytes, a->peer, a->wpeer);
}

/* The call fn ran from t0 to t1 and returned rc; its record, if kept,
   says nothing of its arguments. */
SHMPI_TRACE_INLINE void shmpi_trace_bare(int fn, uint64_t t0, uint64_t t1,
                                         int rc)
{
    struct shmpi_trace_rec *r = shmpi_trace_end(fn, t0, t1, rc);
    if (r) {
        struct shmpi_trace_args a = SHMPI_TRACE_ARGS(SHMPI_TRACE_CALL);
        shmpi_trace_fill(r, &a);
    }
}

/* The call fn that started at t0 returned rc (a bare record). */
SHMPI_TRACE_INLINE void shmpi_trace_call(int fn, uint64_t t0, int rc)
{
    shmpi_trace_bare(fn, t0, shmpi_trace_now(), rc);
}

/* The poll fn (record.c, shmpi_trace_poll) with a bare record. */
SHMPI_TRACE_INLINE void shmpi_trace_poll_bare(int fn, uint64_t t0,
                                              uint64_t t1, int rc, int found)
{
    struct shmpi_trace_rec *r = shmpi_trace_poll(fn, t0, t1, rc, found);
    if (r) {
        struct shmpi_trace_args a = SHMPI_TRACE_ARGS(SHMPI_TRACE_CALL);
        shmpi_trace_fill(r, &a);
    }
}

/* count elements of type: the datatype's size read in one load
   (datatypes/datatype.h), as the context below; MPI_DATATYPE_NULL
   (valid with count 0 in some calls) has no bytes. */
SHMPI_TRACE_INLINE void shmpi_trace_count(struct shmpi_trace_args *a,
                                         MPI_Count count, MPI_Datatype type)
{
    a->count = count;
    a->bytes = type == MPI_DATATYPE_NULL ? -1 : count * type->size;
}

/* The communicator's context (core/objects.h): the job-wide name of a
   communicator that the MPI_T events also give, one load.  A window's
   id and its communicator (rma/win.h) the same way. */
SHMPI_TRACE_INLINE uint32_t shmpi_trace_context(MPI_Comm comm)
{
    return comm == MPI_COMM_NULL ? UINT32_MAX : comm->context;
}

/* peer as the world rank it is (core/objects.h: world_ranks, or for an
   intercommunicator remote_world); comm NULL: unknown (a window's).
   Inline: two or three loads, less than a call's frame. */
SHMPI_TRACE_INLINE void
shmpi_trace_peer(struct shmpi_trace_args *a, MPI_Comm comm, int peer)
{
    int wpeer = -1;
    if (comm != MPI_COMM_NULL && peer >= 0) {
        const int *map =
            comm->is_inter ? comm->remote_world : comm->world_ranks;
        wpeer = map ? map[peer] : peer;
    }
    a->peer = peer;
    a->wpeer = wpeer;
}

/* A collective's root, in the peer field (no call has both). */
SHMPI_TRACE_INLINE void shmpi_trace_root(struct shmpi_trace_args *a, int root)
{
    a->kind |= SHMPI_TRACE_ROOT;
    a->peer = root;
}

/* A call on a window, into a (its peer already there): the window's id,
   and the target rank as a world rank.  Inline: out of line, a's fields
   went through memory on both sides of the call, which cost a traced
   MPI_Put 19 of its 130 instructions and MPI_Win_fence 34 of its 102
   (callgrind, halo fence np = 1, 2026-12-02). */
SHMPI_TRACE_INLINE void shmpi_trace_window(struct shmpi_trace_args *a,
                                           MPI_Win win)
{
    a->tag = (int32_t)(uint32_t)win->id;   /* no call on a window has a tag */
    a->kind |= SHMPI_TRACE_ONWIN;
    a->comm = shmpi_trace_context(win->comm);
    if (a->peer != MPI_PROC_NULL)
        shmpi_trace_peer(a, win->comm, a->peer);
}

#endif
