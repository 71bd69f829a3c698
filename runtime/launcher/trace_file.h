/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace_file.h - the files a rank's profiling wrappers (tools/trace,
 * lib/libshmpi_trace.so) leave for mpirun --trace/--profile (trace.c).
 *
 * mpirun makes a private directory and names it in SHMPI_TRACE_DIR; rank
 * R (SHMPI_RANK) appends its records to DIR/R.ev whenever its buffer is
 * full and at MPI_Finalize, then writes DIR/R.prof once: a header, then
 * nfn function entries.  Both are in the machine's own byte order, read
 * back on the same machine.  Times are CLOCK_MONOTONIC nanoseconds, one
 * clock for every process of the machine (the wrappers may read another
 * counter and convert on the way out: tools/trace/clock.c).
 */
#ifndef SHMPI_TRACE_FILE_H
#define SHMPI_TRACE_FILE_H

#include <stdint.h>

#define SHMPI_TRACE_DIR_ENV "SHMPI_TRACE_DIR"
#define SHMPI_TRACE_MAGIC   0x31435254u  /* "TRC1" */
#define SHMPI_TRACE_NAME    40           /* "MPI_" + the longest name (29) */

enum shmpi_trace_kind {
    SHMPI_TRACE_CALL,   /* one MPI call: t0..t1 its start and end */
    SHMPI_TRACE_MATCH   /* a receive that completed, inside the call fn
                           whose slice holds t1; t0 is when the receive
                           was posted (the order receives match in) */
};

struct shmpi_trace_rec {
    uint64_t t0, t1;
    int64_t count;      /* the element count given, or -1 */
    int64_t bytes;      /* count * the datatype's size; a MATCH's bytes
                           received; or -1 */
    uint32_t comm;      /* the communicator's context (the same on every
                           rank), or UINT32_MAX */
    int32_t peer;       /* dest/source/target rank as given, a MATCH's
                           source, or MPI_PROC_NULL (-3) */
    int32_t wpeer;      /* peer as a rank of MPI_COMM_WORLD, or -1 */
    int32_t tag;        /* the tag given (sendtag), a MATCH's tag, or -1 */
    int32_t root;       /* a collective's root, or -1 */
    uint32_t win;       /* the window's id (the same on every rank) of a
                           call on a window, or UINT32_MAX */
    uint32_t polls;     /* a CALL: the calls it stands for, 1 or a run of
                           polls that found nothing (tools/trace/record.c) */
    uint16_t fn;        /* index in the .prof file's function list */
    uint8_t kind;       /* enum shmpi_trace_kind */
    uint8_t tid;        /* the rank's n-th thread to call MPI */
};

struct shmpi_trace_head {
    uint32_t magic;
    int32_t rank;
    int32_t nfn;
    uint32_t dropped;   /* records lost (the file could not be written) */
    uint64_t t_start;   /* MPI_Init's start */
    uint64_t t_end;     /* MPI_Finalize's end */
};

struct shmpi_trace_fn {
    char name[SHMPI_TRACE_NAME];
    uint64_t calls;
    uint64_t ns;        /* total time inside the function */
};

#endif
