/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wrap.h - what the wrappers of lib/libshmpi_trace.so share: the clock,
 * the record of a call (record.c) and the arguments it keeps.
 *
 * Every wrapper MPI_x times PMPI_x and calls shmpi_trace_call, which adds
 * the time to this thread's profile and, when mpirun asked for a trace,
 * returns a record to fill (NULL otherwise, or when the call failed: the
 * arguments of a failed call may be invalid handles).  The record lives
 * in this thread's buffer until the next record of the thread.  A poll
 * that found nothing (shmpi_trace_poll) right after another of the same
 * function adds to that one's record instead.  The hot path takes no
 * lock and makes no system call: two counter reads, the profile's two
 * adds, and with --trace one 64-byte record.
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
   TSC bit), it is the counter itself, read in one instruction, and
   records are converted to CLOCK_MONOTONIC nanoseconds when they leave
   the process (shmpi_trace_clock_ns); else CLOCK_MONOTONIC. */
extern int shmpi_trace_tsc;
uint64_t shmpi_trace_mono(void);
void shmpi_trace_clock_start(void);
void shmpi_trace_clock_ns(struct shmpi_trace_rec *r, size_t n);
uint64_t shmpi_trace_clock_at(uint64_t t);
uint64_t shmpi_trace_clock_span(uint64_t ticks);

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
   the next free record and end the end of its chunk (both NULL under
   --profile alone, or before the thread's first call, or after
   MPI_Finalize); poll is the record of a poll that found nothing, which
   may grow while it is next's predecessor. */
struct shmpi_trace_thread {
    struct shmpi_trace_rec *next, *end, *poll;
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
struct shmpi_trace_rec *shmpi_trace_next_slow(void);
struct shmpi_trace_rec *shmpi_trace_poll(int fn, uint64_t t0, uint64_t t1,
                                         int rc, int found);
void shmpi_trace_window(struct shmpi_trace_rec *r, MPI_Win win);
void shmpi_trace_started(uint64_t t0);
void shmpi_trace_finished(void);

/* The next free record of this thread, its tid set; NULL if none is
   kept.  Inline, as shmpi_trace_end: the wrappers' fast path is one
   thread-local load, a compare and a store of the cursor (a call into
   record.c, its checks and its frame cost 79 of the 140 instructions
   --trace added to a call, callgrind, 2026-11-30). */
SHMPI_TRACE_INLINE struct shmpi_trace_rec *shmpi_trace_record(void)
{
    struct shmpi_trace_thread *t = shmpi_trace_me;
    if (__builtin_expect(!t || t->next == t->end, 0))
        return shmpi_trace_next_slow();
    struct shmpi_trace_rec *r = t->next++;
    r->tid = t->tid;
    return r;
}

/* The call fn ran from t0 to t1 and returned rc: its time goes to the
   profile; returns the record to fill with its arguments, or NULL (no
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
    struct shmpi_trace_rec *r = t->next;
    if (__builtin_expect(r == t->end, 0)) {
        if (!r || !(r = shmpi_trace_next_slow()))   /* !r: --profile */
            return NULL;
    } else {
        t->next = r + 1;
    }
    *r = (struct shmpi_trace_rec){
        .t0 = t0, .t1 = t1, .count = -1, .bytes = -1, .comm = UINT32_MAX,
        .peer = MPI_PROC_NULL, .wpeer = -1, .tag = -1, .root = -1,
        .win = UINT32_MAX, .polls = 1, .fn = (uint16_t)fn,
        .kind = SHMPI_TRACE_CALL, .tid = t->tid};
    return r;
}

/* The call fn that started at t0 returned rc. */
SHMPI_TRACE_INLINE struct shmpi_trace_rec *
shmpi_trace_call(int fn, uint64_t t0, int rc)
{
    return shmpi_trace_end(fn, t0, shmpi_trace_now(), rc);
}

/* count elements of type: the datatype's size read in one load
   (datatypes/datatype.h), as the context below; MPI_DATATYPE_NULL
   (valid with count 0 in some calls) has no bytes. */
SHMPI_TRACE_INLINE void shmpi_trace_count(struct shmpi_trace_rec *r,
                                         MPI_Count count, MPI_Datatype type)
{
    r->count = count;
    r->bytes = type == MPI_DATATYPE_NULL ? -1 : count * type->size;
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
shmpi_trace_peer(struct shmpi_trace_rec *r, MPI_Comm comm, int peer)
{
    r->peer = peer;
    if (comm == MPI_COMM_NULL || peer < 0)
        return;
    const int *map = comm->is_inter ? comm->remote_world : comm->world_ranks;
    r->wpeer = map ? map[peer] : peer;
}

/* posted.c: an MPI_Irecv's request until it completes */
struct shmpi_trace_posted {
    MPI_Request req;   /* NULL: a free slot */
    MPI_Comm comm;
    uint64_t t;        /* when it was posted */
};
void shmpi_trace_remember(MPI_Request req, MPI_Comm comm, uint64_t t);
int shmpi_trace_forget(MPI_Request req, struct shmpi_trace_posted *out);

/* p2p.c */
void shmpi_trace_match(MPI_Comm comm, const MPI_Status *st, int fn,
                       uint64_t posted, uint64_t t0, uint64_t t1);

#endif
