/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clock.c - the wrappers' timestamps, and their conversion to the
 * CLOCK_MONOTONIC nanoseconds of the rank's files (launcher/trace_file.h).
 *
 * A call's slice needs two timestamps, taken on every MPI call: their
 * cost is the tracer's floor.  clock_gettime(CLOCK_MONOTONIC) through the
 * vDSO reads the time-stamp counter and scales it (kvm-clock here: a
 * version-checked read of the hypervisor's page); reading the counter
 * alone costs about half (2026-11-30, 2 vCPUs AMD EPYC under KVM, loaded:
 * 81 ns a clock_gettime, 34 ns an rdtsc, loops of 5M reads).
 * CLOCK_MONOTONIC_COARSE is 11 ns but ticks every 4 ms: useless for
 * slices of microseconds.  So where CPUID says the counter is invariant
 * (one rate in every P-, C- and T-state, the same on every core: Intel
 * SDM 17.17.1, AMD APM 2.16.4 "TscInvariant"), the wrappers keep raw
 * counts, and the .prof file's header says how they map to nanoseconds
 * (mpirun converts them): linearly between two pairs (counter,
 * CLOCK_MONOTONIC) read back to back, one when the library is loaded and
 * one at MPI_Finalize.  Every timestamp lies between the two, so the
 * error is the pairs' own (tens of ns), not a rate error multiplied out;
 * and each rank maps to the one CLOCK_MONOTONIC of the machine, so the
 * ranks' tracks line up.
 * Elsewhere (no invariant counter, another architecture) the timestamps
 * are CLOCK_MONOTONIC itself and the conversion is none.
 */
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "wrap.h"

int shmpi_trace_tsc;

/* A counter reading and the CLOCK_MONOTONIC time of the same moment. */
struct pair {
    uint64_t tick, ns;
};

static struct pair first;   /* at load time; read-only after */

uint64_t shmpi_trace_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The counter read on both sides of the clock: the pair's tick is the
   middle, so the clock read's own duration does not skew it. */
static struct pair pair_now(void)
{
    uint64_t a = shmpi_trace_now(), ns = shmpi_trace_mono();
    uint64_t b = shmpi_trace_now();
    return (struct pair){a + (b - a) / 2, ns};
}

/* Called once, by the library's constructor, before any timestamp. */
void shmpi_trace_clock_start(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (__get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8)))
        shmpi_trace_tsc = 1;
#endif
    if (shmpi_trace_tsc)
        first = pair_now();
}

/* ns of tick t: linear between first and now, at rate ns a tick. */
static uint64_t convert(uint64_t t, double rate)
{
    int64_t dt = (int64_t)(t - first.tick);   /* < 0: not expected */
    return first.ns + (uint64_t)(int64_t)((double)dt * rate);
}

static double rate_to(const struct pair *now)
{
    int64_t span = (int64_t)(now->tick - first.tick);
    return span > 0 ? (double)(now->ns - first.ns) / (double)span : 0;
}

/* How the rank's ticks map to CLOCK_MONOTONIC nanoseconds: the pair
   taken at load time and the rate since (launcher/trace_file.h).  The
   records are converted by their reader, not here: converting each
   record's times on the way out cost the rank 10 instructions a record
   (callgrind, MPI_Comm_rank loop, 2026-11-30). */
void shmpi_trace_clock_map(struct shmpi_trace_head *h)
{
    h->tick0 = h->ns0 = 0;
    h->ns_per_tick = 1;
    if (!shmpi_trace_tsc)
        return;
    struct pair now = pair_now();
    h->tick0 = first.tick;
    h->ns0 = first.ns;
    h->ns_per_tick = rate_to(&now);
}

/* One timestamp as CLOCK_MONOTONIC nanoseconds. */
uint64_t shmpi_trace_clock_at(uint64_t t)
{
    if (!shmpi_trace_tsc)
        return t;
    struct pair now = pair_now();
    return convert(t, rate_to(&now));
}

/* A duration of ticks in nanoseconds, at the rate measured since load. */
uint64_t shmpi_trace_clock_span(uint64_t ticks)
{
    if (!shmpi_trace_tsc)
        return ticks;
    struct pair now = pair_now();
    return (uint64_t)((double)ticks * rate_to(&now));
}
