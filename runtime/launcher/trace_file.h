/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace_file.h - the files a rank's profiling wrappers (tools/trace,
 * lib/libshmpi_trace.so) leave for mpirun --trace/--profile (trace.c).
 *
 * mpirun makes a private directory and names it in SHMPI_TRACE_DIR; rank
 * R (SHMPI_RANK) appends its records to DIR/R.ev whenever its buffer is
 * full and at MPI_Finalize, then writes DIR/R.prof once: a header, then
 * nfn function entries.  Both are in the machine's own byte order, read
 * back on the same machine.  The header's times are CLOCK_MONOTONIC
 * nanoseconds, one clock for every process of the machine; the records'
 * are the counter the wrappers read (tools/trace/clock.c), which the
 * header maps to that clock: the reader converts them.
 */
#ifndef SHMPI_TRACE_FILE_H
#define SHMPI_TRACE_FILE_H

#include <stdint.h>

#define SHMPI_TRACE_DIR_ENV "SHMPI_TRACE_DIR"
#define SHMPI_TRACE_MAGIC   0x32435254u  /* "TRC2" */
#define SHMPI_TRACE_NAME    40           /* "MPI_" + the longest name (29) */

enum shmpi_trace_kind {
    SHMPI_TRACE_CALL,   /* one MPI call: t0..t0+dt its start and end */
    SHMPI_TRACE_MATCH,  /* a receive that completed, inside the call fn
                           whose slice holds its end; t0 is when the
                           receive was posted (the order receives match
                           in) */
    SHMPI_TRACE_BASE    /* no event: the thread's later records count
                           their t0 from the tick (uint64_t)dt << 32 | t0 */
};

/* A record's kind byte: the kind in its low two bits, and flags. */
#define SHMPI_TRACE_KIND(k) ((k) & 3)
#define SHMPI_TRACE_ROOT    0x04u   /* peer is a collective's root */
#define SHMPI_TRACE_ONWIN   0x08u   /* tag is the window's id */
#define SHMPI_TRACE_POLLS   0x10u   /* count is the calls the record
                                       stands for: a run of polls that
                                       found nothing (tools/trace/record.c) */

/* One event of a thread, 32 bytes: a traced call writes one, and the
   memory a long run of calls touches is what a tracer costs beyond its
   clock reads (perf/README.md, trace).  Times are counter ticks (the
   header's tick0, ns0 and ns_per_tick make them CLOCK_MONOTONIC
   nanoseconds), t0 counted from the thread's last BASE record (below
   2^31).  count and bytes outside [-LIM32, LIM32), peer and wpeer
   outside [-LIM16, LIM16), a dt of UINT32_MAX ticks or more: the field
   holds its escape (SHMPI_TRACE_ESC32, _ESC16, UINT32_MAX), and the
   value is in the struct shmpi_trace_wide that follows the record, in
   the same chunk and file. */
struct shmpi_trace_rec {
    uint32_t t0;        /* ticks after the thread's base */
    uint32_t dt;        /* t1 - t0, ticks */
    uint16_t fn;        /* index in the .prof file's function list */
    uint8_t kind;       /* enum shmpi_trace_kind | flags */
    uint8_t tid;        /* the rank's n-th thread to call MPI */
    uint32_t comm;      /* the communicator's context (the same on every
                           rank), or UINT32_MAX */
    int16_t peer;       /* dest/source/target rank as given, a MATCH's
                           source, or MPI_PROC_NULL (-3); or the root */
    int16_t wpeer;      /* peer as a rank of MPI_COMM_WORLD, or -1 */
    int32_t tag;        /* the tag given (sendtag), a MATCH's tag, or -1;
                           or the window's id (the same on every rank) */
    int32_t count;      /* the element count given, or -1; or the polls */
    int32_t bytes;      /* count * the datatype's size; a MATCH's bytes
                           received; or -1 */
};

#define SHMPI_TRACE_ESC16 INT16_MIN   /* peer, wpeer: in the wide record */
#define SHMPI_TRACE_ESC32 INT32_MIN   /* count, bytes: in the wide record */
#define SHMPI_TRACE_LIM16 (1 << 14)
#define SHMPI_TRACE_LIM32 (1 << 30)

/* The values of the record before it that did not fit. */
struct shmpi_trace_wide {
    uint64_t dt;
    int64_t count, bytes;
    int32_t peer, wpeer;
};

struct shmpi_trace_head {
    uint32_t magic;
    int32_t rank;
    int32_t nfn;
    uint32_t dropped;   /* records lost (the file could not be written) */
    uint64_t t_start;   /* MPI_Init's start, ns */
    uint64_t t_end;     /* MPI_Finalize's end, ns */
    uint64_t tick0, ns0;   /* the records' tick t is ns0 + (t - tick0) */
    double ns_per_tick;    /* * ns_per_tick nanoseconds */
};

struct shmpi_trace_fn {
    char name[SHMPI_TRACE_NAME];
    uint64_t calls;
    uint64_t ns;        /* total time inside the function */
};

#endif
