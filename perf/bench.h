/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench.h - what the MPI benchmarks of perf/ share: size lists, medians,
 * the MPI's name, touched buffers, and the cache-line probe that tells
 * which of its two states this VM is in.
 *
 * Header only, every function static inline: each benchmark is one source
 * file that perf/common.sh builds with three MPIs' compiler wrappers.
 * Include it after <mpi.h>, with _POSIX_C_SOURCE 200809L defined before
 * any header (shm_open, ftruncate).
 */
#ifndef PERF_BENCH_H
#define PERF_BENCH_H

#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ------------------------------------------------------------ sizes */

/* The size at s, "8", "4K" or "1M" (k and m too), in bytes, and where it
 * ends (*end_out); -1 when s does not start with one. */
static inline long bench_size(const char *s, const char **end_out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    long v = strtol(s, &end, 10);
    if (*end == 'K' || *end == 'k')
        v *= 1024, end++;
    else if (*end == 'M' || *end == 'm')
        v *= 1024 * 1024, end++;
    *end_out = end;
    return v;
}

/* A comma list of sizes into sizes[0..max); the count, or -1 when the
 * list is malformed or longer than max.  Callers check their own limits. */
static inline int bench_sizes(const char *list, long *sizes, int max)
{
    const char *p = list, *end;
    int n = 0;
    do {
        long v = bench_size(p, &end);
        if (v < 0 || (*end && *end != ',') || n == max)
            return -1;
        sizes[n++] = v;
        p = end + (*end == ',');
    } while (*p);
    return n;
}

/* ------------------------------------------------------------ figures */

/* Sorts v[0..n) ascending (n is small: a few batches) and returns the
 * median. */
static inline double bench_median(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The MPI's name and version: its library version string up to the first
 * comma or newline ("Open MPI v4.1.4", "MPICH Version: 4.0.2", ...). */
static inline const char *bench_library(void)
{
    static char name[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(name, &len);
    name[strcspn(name, "\n,")] = 0;
    return name;
}

/* bytes (at least one) of page-aligned memory, every page written, so no
 * page fault lands in a timing; NULL when out of memory. */
static inline void *bench_alloc_touched(size_t bytes, int fill)
{
    size_t n = ((bytes ? bytes : 1) + 4095) / 4096 * 4096;
    void *p = aligned_alloc(4096, n);
    if (p)
        memset(p, fill, n);
    return p;
}

/* ------------------------------------------------------------ the probe */

/*
 * On this VM one cache line crossing between the two vCPUs takes ~50 ns
 * for a few seconds, then ~230 ns for a few seconds, and every MPI's
 * latency flips with it.  So a two-rank benchmark bounces one cache line
 * between its ranks 0 and 1 around every timed batch and labels the batch
 * by what it read.  The line lives in one page of a POSIX shm object, the
 * only thing outside MPI.
 *
 * bench_probe_map: collective over ranks 0 and 1 of MPI_COMM_WORLD (tag
 * for its two messages); rank 0 makes the object, rank 1 maps it, rank 0
 * unlinks it at once (nothing is left behind unless rank 0 dies in
 * between).  The line, or NULL (no probe) on both ranks when either could
 * not map it.  Release it with munmap((void *)line, 4096).
 */
static inline _Atomic long *bench_probe_map(int rank, int tag)
{
    char name[64] = "";
    void *p = MAP_FAILED;
    int ok = 0;
    if (rank == 0) {
        snprintf(name, sizeof name, "/perf-probe-%ld-%ld", (long)getpid(),
                 (long)(MPI_Wtime() * 1e6) % 1000000);
        int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd >= 0 && ftruncate(fd, 4096) == 0)
            p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (fd >= 0)
            close(fd);
        if (p == MAP_FAILED) {
            if (fd >= 0)
                shm_unlink(name);
            name[0] = 0;
        }
        MPI_Send(name, sizeof name, MPI_CHAR, 1, tag, MPI_COMM_WORLD);
        MPI_Recv(&ok, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (name[0])
            shm_unlink(name);
    } else if (rank == 1) {
        MPI_Recv(name, sizeof name, MPI_CHAR, 0, tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        if (name[0]) {
            int fd = shm_open(name, O_RDWR, 0);
            if (fd >= 0) {
                p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
                close(fd);
            }
        }
        ok = p != MAP_FAILED;
        MPI_Send(&ok, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
    }
    if (ok && p != MAP_FAILED)
        return p;
    if (p != MAP_FAILED)
        munmap(p, 4096);
    return NULL;
}

/* Rank 0, before it lets rank 1 answer: a line that rank 1 will answer
 * (a leftover -2 from the last probe would make it return at once). */
static inline void bench_probe_reset(_Atomic long *line)
{
    atomic_store_explicit(line, 0, memory_order_release);
}

/* Rank 1's side: answer every odd value with the next even one until rank
 * 0 writes -1, then say so with -2. */
static inline void bench_probe_answer(_Atomic long *line)
{
    for (;;) {
        long v = atomic_load_explicit(line, memory_order_acquire);
        if (v < 0)
            break;
        if (v & 1)
            atomic_store_explicit(line, v + 1, memory_order_release);
    }
    atomic_store_explicit(line, -2, memory_order_release);
}

/* Rank 0's side, once rank 1 answers: rounds round trips after a first
 * untimed one (which waits for rank 1 to arrive); one crossing, in ns. */
static inline double bench_probe_bounce(_Atomic long *line, long rounds)
{
    long v = 0;
    double t0 = 0;
    for (long i = 0; i <= rounds; i++) {
        if (i == 1)
            t0 = MPI_Wtime();
        atomic_store_explicit(line, v + 1, memory_order_release);
        v += 2;
        while (atomic_load_explicit(line, memory_order_acquire) != v)
            ;
    }
    double t = MPI_Wtime() - t0;
    atomic_store_explicit(line, -1, memory_order_release);
    while (atomic_load_explicit(line, memory_order_acquire) != -2)
        ;
    return t / (2.0 * (double)rounds) * 1e9;
}

/* One probe, collective over MPI_COMM_WORLD at np = 2 (line from
 * bench_probe_map): one crossing in ns on rank 0; -1 on rank 1, or on
 * both without a line. */
static inline double bench_probe(_Atomic long *line, int rank, long rounds)
{
    if (!line)
        return -1;
    if (rank == 0)
        bench_probe_reset(line);
    MPI_Barrier(MPI_COMM_WORLD); /* the reset before rank 1 answers */
    if (rank == 0)
        return bench_probe_bounce(line, rounds);
    bench_probe_answer(line);
    return -1;
}

/* The state a batch ran in, from the probes before and after it: "near"
 * when both read below near_ns, "far" when both read at or above, else
 * "mixed"; "-" without a probe. */
static inline const char *bench_state(double before, double after, double near_ns)
{
    if (before < 0 || after < 0)
        return "-";
    if (before < near_ns && after < near_ns)
        return "near";
    if (before >= near_ns && after >= near_ns)
        return "far";
    return "mixed";
}

/* ------------------------------------------------------------ the exchange */

/*
 * The floor of an 8-byte MPI_Allreduce of two ranks, in the probe's page:
 * each of ranks 0 and 1 has a cache line of its own there (the page's
 * second and third) holding a round number and two 8-byte slots.  A round
 * writes this rank's value in slot (round & 1) and the round number
 * (release), spins until the other's number reaches the round (acquire,
 * pauses between polls) and adds the other's value: the two lines cross
 * at once, as the words of any shared-memory Allreduce must, with no
 * argument, request or collective number around them.  Slots alternate so
 * that a rank a round ahead never overwrites what the other still reads.
 *
 * How often the spinning rank polls changes what a round costs: each poll
 * of the other's line pulls it back while its writer waits to own it.  On
 * this VM's far state a round took 262 ns with one pause between polls,
 * 265 with two, 175 with four, 230 with eight and 300 with sixteen
 * (2026-12-01: the loop below in two processes, 5 runs of each, medians).
 * So the floor is the fastest of the rhythms in bench_rhythms, each run
 * for a share of the rounds, in the same state.
 *
 * bench_exchange: ranks 0 and 1 both call it with the same rounds (each
 * rhythm's first round, untimed, waits for the other to arrive); rank 0
 * gets the fastest rhythm's round in ns, rank 1 0.  Round numbers go on
 * from call to call.
 */

/* One pause (x86; elsewhere nothing). */
static inline void bench_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

struct bench_xline {
    _Alignas(64) _Atomic long round;
    double val[2];
};

/* Pauses between two polls, tried in turn. */
static const int bench_rhythms[] = {1, 2, 4, 8};
#define BENCH_RHYTHMS (int)(sizeof bench_rhythms / sizeof bench_rhythms[0])

/* rounds rounds polling every `pauses` pauses: one round in ns. */
static inline double bench_exchange_at(_Atomic long *page, int rank,
                                       long rounds, int pauses)
{
    struct bench_xline *x = (struct bench_xline *)((char *)page + 64);
    struct bench_xline *me = &x[rank], *other = &x[!rank];
    long k = atomic_load_explicit(&me->round, memory_order_relaxed);
    double sum = 1, t0 = 0;
    for (long i = 0; i <= rounds; i++) {
        if (i == 1)
            t0 = MPI_Wtime();
        k++;
        me->val[k & 1] = sum;
        atomic_store_explicit(&me->round, k, memory_order_release);
        while (atomic_load_explicit(&other->round, memory_order_acquire) < k)
            for (int q = 0; q < pauses; q++)
                bench_pause();
        sum += other->val[k & 1] * 0x1p-40;
    }
    double t = MPI_Wtime() - t0;
    /* sum is read so that the adds, the fold of each round, stay in */
    return sum > 0 ? t / (double)rounds * 1e9 : 0;
}

static inline double bench_exchange(_Atomic long *page, int rank, long rounds)
{
    long share = rounds / BENCH_RHYTHMS > 0 ? rounds / BENCH_RHYTHMS : 1;
    double best = 0;
    for (int i = 0; i < BENCH_RHYTHMS; i++) {
        double t = bench_exchange_at(page, rank, share, bench_rhythms[i]);
        if (i == 0 || t < best)
            best = t;
    }
    return rank == 0 ? best : 0;
}

#endif
