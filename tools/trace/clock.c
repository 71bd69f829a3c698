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
 * counts, and turn them into nanoseconds when records leave the process:
 * linearly between two pairs (counter, CLOCK_MONOTONIC) read back to
 * back, one when the library is loaded and one at that moment.  Every
 * timestamp lies between the two, so the error is the pairs' own (tens
 * of ns), not a rate error multiplied out; and each rank maps to the one
 * CLOCK_MONOTONIC of the machine, so the ranks' tracks line up.
 * Elsewhere (no invariant counter, another architecture) the timestamps
 * are CLOCK_MONOTONIC itself and the conversion is none.
 */
#include <stddef.h>
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

#if defined(__SSE2__)
#include <emmintrin.h>

/* convert() of both timestamps of each of n records at once, in the two
   lanes of an SSE2 register, for tick counts within 2^51 of first's (on
   either side; the caller checks).  SSE2 has no 64-bit integer <->
   double conversion, so the signed count is made a double by adding it
   to the bits of 2^52 + 2^51 and subtracting that number (exact), and
   the product back by adding it again (which rounds to an integer) and
   taking the bits: 11 instructions a record where two scalar conversions
   took 20 (callgrind, MPI_Comm_rank loop, 2026-11-30). */
static void convert_pairs(struct shmpi_trace_rec *r, size_t n, double rate)
{
    const double big = 0x1p52 + 0x1p51;
    const __m128i magic = _mm_set1_epi64x(0x4338000000000000);
    const __m128d bigd = _mm_set1_pd(big), rate2 = _mm_set1_pd(rate);
    const __m128i tick0 = _mm_set1_epi64x((long long)first.tick);
    const __m128i ns0 = _mm_set1_epi64x((long long)first.ns);
    for (size_t i = 0; i < n; i++) {
        __m128i *p = (__m128i *)&r[i].t0;   /* t0, t1 */
        __m128i dt = _mm_sub_epi64(_mm_loadu_si128(p), tick0);
        __m128d d = _mm_sub_pd(_mm_castsi128_pd(_mm_add_epi64(dt, magic)),
                               bigd);
        __m128d ns = _mm_add_pd(_mm_mul_pd(d, rate2), bigd);
        __m128i q = _mm_sub_epi64(_mm_castpd_si128(ns), magic);
        _mm_storeu_si128(p, _mm_add_epi64(q, ns0));
    }
}
#endif

/* n records' timestamps, taken since the library was loaded, as
   CLOCK_MONOTONIC nanoseconds. */
void shmpi_trace_clock_ns(struct shmpi_trace_rec *r, size_t n)
{
    if (!shmpi_trace_tsc || !n)
        return;
    struct pair now = pair_now();
    double rate = rate_to(&now);
#if defined(__SSE2__)
    _Static_assert(offsetof(struct shmpi_trace_rec, t1) ==
                   offsetof(struct shmpi_trace_rec, t0) + 8, "t0, t1 adjacent");
    /* every timestamp was taken between first (give or take the cores'
       skew) and now: all within 2^51 ticks of first if now is within
       2^50 (4 days of a 3 GHz counter) */
    if (now.tick - first.tick < (1ull << 50)) {
        convert_pairs(r, n, rate);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++) {
        r[i].t0 = convert(r[i].t0, rate);
        r[i].t1 = convert(r[i].t1, rate);
    }
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
