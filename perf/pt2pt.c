/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pt2pt.c - point-to-point latency and bandwidth, OSU style.
 *
 * Standard MPI only (MPI_Send/Recv/Isend/Irecv/Waitall/Sendrecv/Wtime and
 * friends), so the one source builds with shmpi's ./mpicc, mpicc.openmpi
 * and mpicc.mpich.  perf/pt2pt.sh builds it three ways and runs it.
 *
 *   pt2pt [-t lat,bw|ring] [-s SIZES] [-T MS] [-b BATCHES] [-w WINDOW]
 *         [-p PROBE_ROUNDS (0: no probe)] [-P NEAR_NS]
 *
 *   lat   (2 ranks) ping-pong, osu_latency: rank 0 sends SIZE bytes, rank 1
 *         receives them and sends SIZE bytes back.  Reported: half the
 *         round trip, in microseconds.
 *   bw    (2 ranks) streaming, osu_bw: rank 0 posts WINDOW (default 64)
 *         MPI_Isend of SIZE bytes from one buffer, MPI_Waitall, then waits
 *         for a zero-byte ack; rank 1 posts WINDOW MPI_Irecv into one
 *         buffer, MPI_Waitall, sends the ack.  Reported: SIZE * WINDOW per
 *         iteration over the time, in MB/s (10^6 bytes per second).
 *   ring  (any number of ranks) every rank MPI_Sendrecv's SIZE bytes to its
 *         right neighbour and from its left one, once per iteration.
 *         Reported: time per iteration, in microseconds, on rank 0.
 *
 * SIZES is a comma list with optional K/M suffixes (powers of two); the
 * default for lat and bw is 0,1,8,64,256,1K,4K,16K,64K,256K,1M,4M,16M and
 * for ring 8.
 *
 * How a cell is timed.  Buffers are allocated page aligned and written
 * before use (receive buffers too), so no page fault lands in a timing.
 * Each size first has its data checked once (a pattern sent and compared at
 * the receiver; a mismatch aborts the job, so a broken library never
 * prints a number).  Then a calibration, which is also the warm-up: batches
 * of 1, 2, 4, ... iterations until one batch takes at least a tenth of the
 * target time (-T, default 200 ms per size and test).  Then BATCHES (-b,
 * default 9) timed batches of the number of iterations that should take
 * target/BATCHES each (fewer batches, at least 3, of one iteration each
 * when one iteration takes longer than that).  The figure is the median
 * over the batches, with the minimum and maximum; each batch is a mean
 * over its iterations.  Many short batches and their median, rather than
 * one long mean, keep a burst of other work on this shared machine from
 * moving the figure.
 * Rank 0 decides everything and tells the other ranks, before each batch,
 * what to run, in a control message outside the timed region.
 *
 * The machine's state, batch by batch (2 ranks only).  On the shared VM
 * this was written on, one cache line crossing between the two vCPUs takes
 * ~50 ns for a few seconds, then ~230 ns for a few seconds (2026-11-22,
 * perf/limits -t cacheline; the hypervisor moves the vCPUs), and every MPI's latency and bandwidth flips with it -
 * more than the differences being measured.  So the two ranks also share
 * one page (a POSIX shm object, the only thing here outside MPI; if it
 * cannot be made, there is no probe) and, right before every timed batch
 * and after the last, bounce one cache line on it (-p, default 1000 round
 * trips, well under a millisecond).  A batch is "near" when the probes on
 * both sides of it read below -P NS (default 150) one way, "far" when both
 * read at or above, else "mixed" ("-" without a probe).  Medians per state
 * are then comparisons of like with like.
 *
 * Output (stdout, rank 0), whitespace separated:
 *   # comment lines
 *   TEST SIZE ITERS BATCHES MEDIAN MIN MAX UNIT NEAR_N NEAR_MED FAR_N FAR_MED
 * one per measurement, e.g. "lat 8 131072 9 0.183 0.139 0.390 us 5 0.14 4
 * 0.38" (for bw MIN is the slowest batch, MAX the fastest; a state without
 * batches shows 0 -), and one per timed batch:
 *   batch TEST SIZE VALUE UNIT STATE PROBE_BEFORE_NS PROBE_AFTER_NS
 */
#define _POSIX_C_SOURCE 200809L /* shm_open, ftruncate (bench.h) */
#include <mpi.h>

#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { T_DONE = 0, T_LAT = 1, T_BW = 2, T_RING = 3, T_CHECK = 4, T_PROBE = 5 };
enum { TAG_CTL = 7001, TAG_DATA = 7002, TAG_ACK = 7003, TAG_CHECK = 7004 };

#define MAX_SIZES 64
#define MAX_BATCHES 101

static long sizes[MAX_SIZES];
static int nsizes;
static double target_s = 0.2;
static int nbatches = 9;
static int window = 64;
static int rank, nprocs;
static unsigned char *sbuf, *rbuf;
static long bufsize;
static MPI_Request *reqs;
static MPI_Status *stats; /* osu_bw waits with a status array too */
static _Atomic long *pline;  /* the probe's cache line, NULL: no probe */
static long probe_rounds = 1000;
static double near_ns = 150;

static void die(const char *msg)
{
    fprintf(stderr, "pt2pt: rank %d: %s\n", rank, msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

static void parse_sizes(const char *list)
{
    int ok = (nsizes = bench_sizes(list, sizes, MAX_SIZES)) > 0;
    for (int i = 0; ok && i < nsizes; i++)
        ok = sizes[i] <= (1L << 30);
    if (!ok)
        die("bad -s list (sizes like 0,8,4K,1M; at most 1 GiB)");
}

static void *alloc_touched(long bytes, int fill)
{
    void *p = bench_alloc_touched((size_t)bytes, fill);
    if (!p)
        die("out of memory");
    return p;
}

static unsigned char pattern(long i, long size)
{
    return (unsigned char)(i * 31 + size * 7 + 1);
}

/* ------------------------------------------------------------ the kernels */

static void lat_batch(long size, long n)
{
    int peer = 1 - rank;
    for (long i = 0; i < n; i++) {
        if (rank == 0) {
            MPI_Send(sbuf, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(rbuf, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(rbuf, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(sbuf, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
        }
    }
}

static void bw_batch(long size, long n)
{
    for (long i = 0; i < n; i++) {
        if (rank == 0) {
            for (int j = 0; j < window; j++)
                MPI_Isend(sbuf, (int)size, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD,
                          &reqs[j]);
            MPI_Waitall(window, reqs, stats);
            MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_ACK, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            for (int j = 0; j < window; j++)
                MPI_Irecv(rbuf, (int)size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD,
                          &reqs[j]);
            MPI_Waitall(window, reqs, stats);
            MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD);
        }
    }
}

static void ring_batch(long size, long n)
{
    int right = (rank + 1) % nprocs, left = (rank + nprocs - 1) % nprocs;
    for (long i = 0; i < n; i++)
        MPI_Sendrecv(sbuf, (int)size, MPI_BYTE, right, TAG_DATA, rbuf, (int)size,
                     MPI_BYTE, left, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Rank 0 sends SIZE bytes of a pattern to every other rank, which checks
 * what arrived and answers with 0 (good) or 1 (bad). */
static void check_data(long size)
{
    if (rank == 0) {
        for (long i = 0; i < size; i++)
            sbuf[i] = pattern(i, size);
        for (int r = 1; r < nprocs; r++) {
            int bad = 0;
            MPI_Send(sbuf, (int)size, MPI_BYTE, r, TAG_CHECK, MPI_COMM_WORLD);
            MPI_Recv(&bad, 1, MPI_INT, r, TAG_CHECK, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            if (bad) {
                char msg[160];
                snprintf(msg, sizeof msg,
                         "data check failed at %ld bytes (rank %d got wrong "
                         "data or count)", size, r);
                die(msg);
            }
        }
    } else {
        MPI_Status st;
        int count = -1, bad = 0;
        memset(rbuf, 0xEE, (size_t)(size > 0 ? size : 1));
        MPI_Recv(rbuf, (int)size, MPI_BYTE, 0, TAG_CHECK, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        if (count != size)
            bad = 1;
        for (long i = 0; i < size && !bad; i++)
            if (rbuf[i] != pattern(i, size))
                bad = 1;
        MPI_Send(&bad, 1, MPI_INT, 0, TAG_CHECK, MPI_COMM_WORLD);
    }
}

/* ------------------------------------------------------------ the probe */

static void run(int test, long size, long n)
{
    switch (test) {
    case T_LAT: lat_batch(size, n); break;
    case T_BW: bw_batch(size, n); break;
    case T_RING: ring_batch(size, n); break;
    case T_CHECK: check_data(size); break;
    case T_PROBE: if (pline) bench_probe_answer(pline); break;
    }
}

/* ------------------------------------------------------------ rank 0 */

/* Tell every other rank what to run next, then run it; returns seconds. */
static double batch(int test, long size, long n)
{
    long ctl[3] = {test, size, n};
    int last = (test == T_LAT || test == T_BW) ? 1 : nprocs - 1;
    for (int r = 1; r <= last; r++)
        MPI_Send(ctl, 3, MPI_LONG, r, TAG_CTL, MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    run(test, size, n);
    return MPI_Wtime() - t0;
}

/* One cache line crossing between the two ranks, one way, in ns; -1
 * without a probe. */
static double probe(void)
{
    if (!pline)
        return -1;
    bench_probe_reset(pline);
    long ctl[3] = {T_PROBE, 0, 0};
    MPI_Send(ctl, 3, MPI_LONG, 1, TAG_CTL, MPI_COMM_WORLD);
    return bench_probe_bounce(pline, probe_rounds);
}

static void print_median(double *v, int n)
{
    if (n == 0) {
        printf(" 0 -");
        return;
    }
    printf(" %d %.4g", n, bench_median(v, n));
}

static void measure(int test, long size)
{
    static const char *name[] = {"", "lat", "bw", "ring"};
    batch(T_CHECK, size, 1);

    /* calibration and warm-up */
    long n = 1;
    double t;
    for (;;) {
        t = batch(test, size, n);
        if (t >= target_s / 10 || n >= (1L << 40))
            break;
        n *= 2;
    }
    double per = t / (double)n;
    long iters = (long)(target_s / nbatches / (per > 0 ? per : 1e-9));
    if (iters < 1)
        iters = 1;

    /* a size whose one iteration takes more than a batch's share (16 MiB
       bw) runs fewer batches, never fewer than 3 */
    int nb = nbatches;
    if (iters == 1 && per * nb > 2 * target_s) {
        nb = (int)(2 * target_s / per);
        nb = nb < 3 ? 3 : nb > nbatches ? nbatches : nb;
    }
    double v[MAX_BATCHES] = {0}, pr[MAX_BATCHES + 1];
    const char *unit = test == T_BW ? "MB/s" : "us";
    pr[0] = probe();
    for (int b = 0; b < nb; b++) {
        t = batch(test, size, iters);
        pr[b + 1] = probe();
        if (test == T_BW)
            v[b] = (double)size * window * iters / t / 1e6;
        else if (test == T_LAT)
            v[b] = t / (2.0 * iters) * 1e6;
        else
            v[b] = t / iters * 1e6;
    }
    double vn[MAX_BATCHES], vf[MAX_BATCHES];
    int nn = 0, nf = 0;
    for (int b = 0; b < nb; b++) {
        const char *st = bench_state(pr[b], pr[b + 1], near_ns);
        printf("batch %s %ld %.4g %s %s %.0f %.0f\n", name[test], size, v[b], unit,
               st, pr[b], pr[b + 1]);
        if (!strcmp(st, "near"))
            vn[nn++] = v[b];
        else if (!strcmp(st, "far"))
            vf[nf++] = v[b];
    }
    double med = bench_median(v, nb);
    printf("%s %ld %ld %d %.4g %.4g %.4g %s", name[test], size, iters, nb, med,
           v[0], v[nb - 1], unit);
    print_median(vn, nn);
    print_median(vf, nf);
    printf("\n");
    fflush(stdout);
}

static void usage(void)
{
    if (rank == 0)
        fprintf(stderr,
                "usage: pt2pt [-t lat,bw|ring] [-s SIZES] [-T MS] [-b BATCHES] "
                "[-w WINDOW] [-p PROBE_ROUNDS (0: none)] [-P NEAR_NS]\n");
    MPI_Finalize();
    exit(2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    int want_lat = 1, want_bw = 1, want_ring = 0, have_sizes = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-t") && v) {
            want_lat = strstr(v, "lat") != NULL;
            want_bw = strstr(v, "bw") != NULL;
            want_ring = strstr(v, "ring") != NULL;
            i++;
        } else if (!strcmp(a, "-s") && v) {
            parse_sizes(v), have_sizes = 1, i++;
        } else if (!strcmp(a, "-T") && v) {
            target_s = atof(v) / 1000, i++;
        } else if (!strcmp(a, "-b") && v) {
            nbatches = atoi(v), i++;
        } else if (!strcmp(a, "-w") && v) {
            window = atoi(v), i++;
        } else if (!strcmp(a, "-p") && v) {
            probe_rounds = atol(v), i++;
        } else if (!strcmp(a, "-P") && v) {
            near_ns = atof(v), i++;
        } else {
            usage();
        }
    }
    if (target_s <= 0 || nbatches < 1 || nbatches > MAX_BATCHES || window < 1 ||
        (want_ring && (want_lat || want_bw)) || (!want_ring && !want_lat && !want_bw))
        usage();
    if (!want_ring && nprocs != 2)
        die("lat and bw need exactly 2 ranks");
    if (!have_sizes)
        parse_sizes(want_ring ? "8" : "0,1,8,64,256,1K,4K,16K,64K,256K,1M,4M,16M");

    bufsize = 0;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] > bufsize)
            bufsize = sizes[i];
    sbuf = alloc_touched(bufsize, 'a' + rank % 26);
    rbuf = alloc_touched(bufsize, 0);
    reqs = malloc(sizeof *reqs * (size_t)window);
    stats = malloc(sizeof *stats * (size_t)window);
    if (!reqs || !stats)
        die("out of memory");
    if (probe_rounds > 0 && nprocs == 2)
        pline = bench_probe_map(rank, TAG_CTL);

    if (rank == 0) {
        printf("# pt2pt: %s; np=%d window=%d target_ms=%g batches=%d",
               bench_library(), nprocs, window, target_s * 1000, nbatches);
        if (pline)
            printf("; probe %ld round trips, near < %g ns\n", probe_rounds, near_ns);
        else
            printf("; no probe\n");
        printf("# test size_B iters_per_batch batches median min max unit "
               "near_batches near_median far_batches far_median\n");
        printf("# batch test size_B value unit state probe_before_ns "
               "probe_after_ns\n");
        fflush(stdout);
        if (want_lat)
            for (int i = 0; i < nsizes; i++)
                measure(T_LAT, sizes[i]);
        if (want_bw)
            for (int i = 0; i < nsizes; i++)
                measure(T_BW, sizes[i]);
        if (want_ring)
            for (int i = 0; i < nsizes; i++)
                measure(T_RING, sizes[i]);
        long ctl[3] = {T_DONE, 0, 0};
        for (int r = 1; r < nprocs; r++)
            MPI_Send(ctl, 3, MPI_LONG, r, TAG_CTL, MPI_COMM_WORLD);
    } else {
        for (;;) {
            long ctl[3];
            MPI_Recv(ctl, 3, MPI_LONG, 0, TAG_CTL, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            if (ctl[0] == T_DONE)
                break;
            if (ctl[1] > bufsize)
                die("control message names a size beyond the buffers");
            run((int)ctl[0], ctl[1], ctl[2]);
        }
    }
    if (pline)
        munmap((void *)pline, 4096);
    free(reqs);
    free(stats);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
