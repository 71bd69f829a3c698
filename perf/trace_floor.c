/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace_floor.c - the floor of a call tracer, measured: PMPI wrappers
 * of the calls in the timed loops of perf/halo.c's isend, counters and
 * fence schemes, preloaded into the ranks by perf/trace.sh.
 *
 * Built twice.  With FLOOR_CLOCK=1 (trace.sh's "reads") each wrapper
 * reads the clock the tracer reads (rdtsc on x86, tools/trace/wrap.h)
 * before and after the PMPI call and keeps both values live, nothing
 * more: what drawing a call as a slice costs at least.  With
 * FLOOR_CLOCK=0 ("bare") it only calls PMPI: the interposition alone.
 * Their difference is the two clock reads in place, which back-to-back
 * reads (perf/limits.c -t tsc) understate: 12 reads a counters 8 B
 * iteration added 0.20 µs where back-to-back reads of 8.7 ns would give
 * 0.10 (2026-12-02, near state, alternated runs of these two libraries
 * preloaded into `mpirun -np 2 --bind-to core halo-so -S counters -g ring
 * -s 8 -T 50 -b 9 -P 150`, 54 batches each).
 */
#include <stdint.h>
#include <time.h>

#include "mpi.h"

static inline uint64_t now(void)
{
#if !FLOOR_CLOCK
    return 0;
#elif defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* Keeps a call's two times live, so no read is dropped, and costs no
   instruction of its own. */
#define SLICE(call)                                                      \
    do {                                                                 \
        uint64_t t0 = now();                                             \
        int rc = call;                                                   \
        uint64_t t1 = now();                                             \
        __asm__ volatile("" ::"r"(t0), "r"(t1));                         \
        return rc;                                                       \
    } while (0)

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
              MPI_Comm comm, MPI_Request *req)
{
    SLICE(PMPI_Irecv(buf, count, type, source, tag, comm, req));
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm, MPI_Request *req)
{
    SLICE(PMPI_Isend(buf, count, type, dest, tag, comm, req));
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    SLICE(PMPI_Wait(req, status));
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    SLICE(PMPI_Waitall(n, reqs, statuses));
}

int MPI_Put(const void *origin, int ocount, MPI_Datatype otype, int target,
            MPI_Aint disp, int tcount, MPI_Datatype ttype, MPI_Win win)
{
    SLICE(PMPI_Put(origin, ocount, otype, target, disp, tcount, ttype, win));
}

int MPI_Win_fence(int assert, MPI_Win win)
{
    SLICE(PMPI_Win_fence(assert, win));
}
