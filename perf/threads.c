/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * threads.c - small-message rate with several threads per rank under
 * MPI_THREAD_MULTIPLE, and one-thread latency at SINGLE and at MULTIPLE.
 *
 * Standard MPI and POSIX threads only, so the one source builds with
 * shmpi's ./mpicc, mpicc.openmpi and mpicc.mpich (-pthread); perf/threads.sh
 * builds it three ways and runs it.  Exactly 2 ranks.
 *
 *   threads -l single|multiple [-t rate,lat] [-n 1,2,4] [-m dup,world]
 *           [-T MS] [-b BATCHES] [-w WINDOW] [-p PROBE_ROUNDS] [-P NEAR_NS]
 *
 *   -l    the level asked of MPI_Init_thread: MPI_THREAD_SINGLE or
 *         MPI_THREAD_MULTIPLE.  What the library provided is printed; the
 *         rows with more than one thread run only when it provided
 *         MPI_THREAD_MULTIPLE, else each prints an "unsup" line (and under
 *         -l single they are not run at all).
 *   rate  (osu_mbw_mr with threads) T threads per rank, the main thread
 *         being thread 0.  Each thread of rank 0 posts WINDOW (default 64)
 *         MPI_Isend of 8 bytes, MPI_Waitall, and waits for a 0-byte ack;
 *         its partner thread of rank 1 posts WINDOW MPI_Irecv (one 8-byte
 *         slot each), MPI_Waitall, sends the ack.  Mode "dup": thread t on
 *         its own MPI_Comm_dup of MPI_COMM_WORLD; mode "world": every
 *         thread on MPI_COMM_WORLD, thread t's data on tag 2t+100 and its
 *         ack on 2t+101.  Reported: messages per second per rank, summed
 *         over its threads (T * WINDOW * iterations / batch time).
 *   lat   (osu_latency, main thread only) 8-byte ping-pong on
 *         MPI_COMM_WORLD; half the round trip, microseconds.
 *
 * How a cell is timed.  Every cell is first checked once: each thread
 * sends one window whose messages carry (thread, index), and rank 1's
 * threads compare what arrived; a mismatch prints "threads: wrong result"
 * and ends the job with MPI_Abort(MPI_COMM_WORLD, 3), so a broken library
 * never prints a number.  Then a calibration, which is also the warm-up:
 * batches of 1, 2, 4, ... iterations until one takes a tenth of the target
 * (-T, default 200 ms per cell); then BATCHES (-b, default 9) timed batches
 * of target/BATCHES each.  A batch starts with an MPI_Barrier made by the
 * main threads alone (the other threads wait on a pthread barrier, outside
 * MPI); rank 0's main thread times from there until every thread of rank
 * 0 has finished its iterations.  The figure of a cell is the median over
 * its batches.  Rank 0 decides everything and tells rank 1, before each
 * step, with an MPI_Bcast made by the main threads alone.
 *
 * The machine's state.  As in pt2pt.c (bench.h): the two ranks bounce one
 * cache line before each timed batch and after the last, and a batch is
 * "near", "far" or "mixed" by what the probes on both sides of it read
 * (-p round trips, default 1000, 0: no probe; -P NS, default 150).
 *
 * Output (stdout, rank 0), whitespace separated:
 *   # comment lines
 *   provided LEVEL                       (the level MPI_Init_thread gave)
 *   batch TEST MODE T LEVEL VALUE UNIT STATE PROBE_BEFORE_NS PROBE_AFTER_NS
 *   cell TEST MODE T LEVEL ITERS BATCHES MEDIAN UNIT
 *   unsup TEST MODE T LEVEL PROVIDED     (a row that was not run)
 * TEST rate or lat; MODE dup or world (lat: "-"); LEVEL the level asked
 * (single, multiple); UNIT msg/s (rate) or us (lat).
 */
#define _POSIX_C_SOURCE 200809L /* shm_open, ftruncate (bench.h) */
#include <mpi.h>

#include "bench.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_END, K_CHECK, K_CALIB, K_TIMED, K_PROBE, K_QUIT };
enum { TEST_RATE, TEST_LAT };
enum { MODE_DUP, MODE_WORLD };
enum { TAG_LAT = 90, TAG_BASE = 100 };

#define MAX_THREADS 64
#define MAX_BATCHES 101
#define MAX_LIST 8

static int rank, provided, asked;
static double target_s = 0.2;
static int nbatches = 9, window = 64;
static _Atomic long *pline;
static long probe_rounds = 1000;
static double near_ns = 150;

static void die(const char *msg)
{
    fprintf(stderr, "threads: rank %d: %s\n", rank, msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

static const char *level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    }
    return "unknown";
}

/* ------------------------------------------------------------ a cell */

/* What every thread of both ranks runs for one cell.  The main thread is
 * thread 0 and also the one that takes part in the steps' MPI_Bcast and
 * MPI_Barrier; threads 1..T-1 wait on `go` between steps, outside MPI. */
struct cell {
    int test, mode, nthreads;
    MPI_Comm comm[MAX_THREADS];
    pthread_barrier_t go, done;
    int kind;         /* the step: written by thread 0 before `go` */
    long iters;
};

struct worker {
    struct cell *c;
    int id;
    MPI_Request *req;
    MPI_Status *st;    /* osu_mbw_mr waits with a status array too */
    long *sbuf, *rbuf; /* one 8-byte slot per message of a window */
};

static void window_send(struct worker *w, MPI_Comm comm, int tag)
{
    for (int j = 0; j < window; j++)
        MPI_Isend(&w->sbuf[j], 1, MPI_LONG, 1, tag, comm, &w->req[j]);
    MPI_Waitall(window, w->req, w->st);
    MPI_Recv(NULL, 0, MPI_BYTE, 1, tag + 1, comm, MPI_STATUS_IGNORE);
}

static void window_recv(struct worker *w, MPI_Comm comm, int tag)
{
    for (int j = 0; j < window; j++)
        MPI_Irecv(&w->rbuf[j], 1, MPI_LONG, 0, tag, comm, &w->req[j]);
    MPI_Waitall(window, w->req, w->st);
    MPI_Send(NULL, 0, MPI_BYTE, 0, tag + 1, comm);
}

/* The check: one window of (thread, index) values, compared by rank 1. */
static void check_window(struct worker *w, MPI_Comm comm, int tag)
{
    for (int j = 0; j < window; j++) {
        w->sbuf[j] = (long)w->id << 32 | j;
        w->rbuf[j] = -1;
    }
    if (rank == 0) {
        window_send(w, comm, tag);
        return;
    }
    window_recv(w, comm, tag);
    for (int j = 0; j < window; j++)
        if (w->rbuf[j] != ((long)w->id << 32 | j)) {
            fprintf(stderr, "threads: wrong result: thread %d message %d of "
                    "the check window held %ld, expected %ld\n", w->id, j,
                    w->rbuf[j], (long)w->id << 32 | j);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
}

static void lat_iters(long n)
{
    long x = 0;
    for (long i = 0; i < n; i++) {
        if (rank == 0) {
            MPI_Send(&x, 1, MPI_LONG, 1, TAG_LAT, MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_LONG, 1, TAG_LAT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_LONG, 0, TAG_LAT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&x, 1, MPI_LONG, 0, TAG_LAT, MPI_COMM_WORLD);
        }
    }
}

/* Thread w's share of the current step. */
static void step(struct worker *w)
{
    struct cell *c = w->c;
    MPI_Comm comm = c->mode == MODE_DUP ? c->comm[w->id] : MPI_COMM_WORLD;
    int tag = TAG_BASE + 2 * w->id;
    if (c->test == TEST_LAT) {
        if (c->kind == K_CHECK || c->kind == K_CALIB || c->kind == K_TIMED)
            lat_iters(c->kind == K_CHECK ? 1 : c->iters);
        return;
    }
    if (c->kind == K_CHECK) {
        check_window(w, comm, tag);
        return;
    }
    for (long i = 0; i < c->iters; i++) {
        if (rank == 0)
            window_send(w, comm, tag);
        else
            window_recv(w, comm, tag);
    }
}

static void *helper(void *arg)
{
    struct worker *w = arg;
    for (;;) {
        pthread_barrier_wait(&w->c->go);
        if (w->c->kind == K_QUIT)
            return NULL;
        step(w);
        pthread_barrier_wait(&w->c->done);
    }
}

/* One step on both ranks: rank 0 chose (kind, iters) and the main threads
 * agree on it; returns the seconds rank 0's threads took (K_CALIB, K_TIMED). */
static double run_step(struct cell *c, struct worker *w0, int *kind, long *iters)
{
    long ctl[2] = {*kind, *iters};
    MPI_Bcast(ctl, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    *kind = (int)ctl[0];
    *iters = ctl[1];
    if (*kind == K_END)
        return 0;
    if (*kind == K_PROBE)
        return bench_probe(pline, rank, probe_rounds);
    c->kind = *kind;
    c->iters = *iters;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    pthread_barrier_wait(&c->go);
    step(w0);
    pthread_barrier_wait(&c->done);
    return MPI_Wtime() - t0;
}

static const char *test_name(int test) { return test == TEST_RATE ? "rate" : "lat"; }
static const char *mode_name(const struct cell *c)
{
    return c->test == TEST_LAT ? "-" : c->mode == MODE_DUP ? "dup" : "world";
}
static const char *asked_name(void) { return asked == MPI_THREAD_SINGLE ? "single" : "multiple"; }

/* Rank 0: the check, the calibration and the timed batches of a cell. */
static void drive(struct cell *c, struct worker *w0)
{
    int kind = K_CHECK;
    long n = 1;
    run_step(c, w0, &kind, &n);
    double t;
    for (;;) {
        kind = K_CALIB;
        t = run_step(c, w0, &kind, &n);
        if (t >= target_s / 10 || n >= (1L << 40))
            break;
        n *= 2;
    }
    double per = t / (double)n;
    long iters = (long)(target_s / nbatches / (per > 0 ? per : 1e-9));
    if (iters < 1)
        iters = 1;
    double v[MAX_BATCHES], pr[MAX_BATCHES + 1];
    kind = K_PROBE;
    pr[0] = run_step(c, w0, &kind, &n);
    for (int b = 0; b < nbatches; b++) {
        kind = K_TIMED;
        n = iters;
        t = run_step(c, w0, &kind, &n);
        kind = K_PROBE;
        pr[b + 1] = run_step(c, w0, &kind, &n);
        v[b] = c->test == TEST_RATE
                   ? (double)c->nthreads * window * (double)iters / t
                   : t / (2.0 * (double)iters) * 1e6;
    }
    kind = K_END;
    run_step(c, w0, &kind, &n);
    const char *unit = c->test == TEST_RATE ? "msg/s" : "us";
    for (int b = 0; b < nbatches; b++)
        printf("batch %s %s %d %s %.6g %s %s %.0f %.0f\n", test_name(c->test),
               mode_name(c), c->nthreads, asked_name(), v[b], unit,
               bench_state(pr[b], pr[b + 1], near_ns), pr[b], pr[b + 1]);
    printf("cell %s %s %d %s %ld %d %.6g %s\n", test_name(c->test), mode_name(c),
           c->nthreads, asked_name(), iters, nbatches, bench_median(v, nbatches),
           unit);
    fflush(stdout);
}

/* Rank 1: follows rank 0's steps until the end of the cell. */
static void follow(struct cell *c, struct worker *w0)
{
    int kind;
    long n = 0;
    do
        run_step(c, w0, &kind, &n);
    while (kind != K_END);
}

static void run_cell(int test, int mode, int nthreads)
{
    static struct cell c;
    struct worker w[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    c.test = test, c.mode = mode, c.nthreads = nthreads;
    if (test == TEST_RATE && mode == MODE_DUP)
        for (int i = 0; i < nthreads; i++)
            MPI_Comm_dup(MPI_COMM_WORLD, &c.comm[i]);
    if (pthread_barrier_init(&c.go, NULL, (unsigned)nthreads) ||
        pthread_barrier_init(&c.done, NULL, (unsigned)nthreads))
        die("pthread_barrier_init failed");
    for (int i = 0; i < nthreads; i++) {
        w[i] = (struct worker){.c = &c, .id = i};
        w[i].req = malloc(sizeof *w[i].req * (size_t)window);
        w[i].st = malloc(sizeof *w[i].st * (size_t)window);
        w[i].sbuf = bench_alloc_touched(sizeof(long) * (size_t)window, 0);
        w[i].rbuf = bench_alloc_touched(sizeof(long) * (size_t)window, 0);
        if (!w[i].req || !w[i].st || !w[i].sbuf || !w[i].rbuf)
            die("out of memory");
        if (i > 0 && pthread_create(&tid[i], NULL, helper, &w[i]))
            die("pthread_create failed");
    }
    if (rank == 0)
        drive(&c, &w[0]);
    else
        follow(&c, &w[0]);
    c.kind = K_QUIT;
    pthread_barrier_wait(&c.go);
    for (int i = 0; i < nthreads; i++) {
        if (i > 0)
            pthread_join(tid[i], NULL);
        free(w[i].req);
        free(w[i].st);
        free(w[i].sbuf);
        free(w[i].rbuf);
    }
    pthread_barrier_destroy(&c.go);
    pthread_barrier_destroy(&c.done);
    if (test == TEST_RATE && mode == MODE_DUP)
        for (int i = 0; i < nthreads; i++)
            MPI_Comm_free(&c.comm[i]);
}

/* ------------------------------------------------------------ main */

static int parse_list(const char *s, int *out)
{
    int n = 0;
    char *end;
    while (*s && n < MAX_LIST) {
        long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > MAX_THREADS || (*end && *end != ','))
            return -1;
        out[n++] = (int)v;
        s = end + (*end == ',');
    }
    return *s ? -1 : n;
}

static void usage(void)
{
    if (rank == 0)
        fprintf(stderr, "usage: threads -l single|multiple [-t rate,lat] "
                "[-n 1,2,4] [-m dup,world] [-T MS] [-b BATCHES] [-w WINDOW] "
                "[-p PROBE_ROUNDS (0: none)] [-P NEAR_NS]\n");
    MPI_Finalize();
    exit(2);
}

int main(int argc, char **argv)
{
    /* the level first: it is MPI_Init_thread's argument */
    asked = -1;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-l"))
            asked = !strcmp(argv[i + 1], "single") ? MPI_THREAD_SINGLE
                    : !strcmp(argv[i + 1], "multiple") ? MPI_THREAD_MULTIPLE
                                                       : -2;
    MPI_Init_thread(&argc, &argv, asked < 0 ? MPI_THREAD_SINGLE : asked, &provided);
    int nprocs;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    int want_rate = 1, want_lat = 1, dup = 1, world = 1;
    int tlist[MAX_LIST] = {1, 2, 4}, nt = 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            usage();
        i++;
        if (!strcmp(a, "-l"))
            continue;
        else if (!strcmp(a, "-t"))
            want_rate = strstr(v, "rate") != NULL, want_lat = strstr(v, "lat") != NULL;
        else if (!strcmp(a, "-m"))
            dup = strstr(v, "dup") != NULL, world = strstr(v, "world") != NULL;
        else if (!strcmp(a, "-n"))
            nt = parse_list(v, tlist);
        else if (!strcmp(a, "-T"))
            target_s = atof(v) / 1000;
        else if (!strcmp(a, "-b"))
            nbatches = atoi(v);
        else if (!strcmp(a, "-w"))
            window = atoi(v);
        else if (!strcmp(a, "-p"))
            probe_rounds = atol(v);
        else if (!strcmp(a, "-P"))
            near_ns = atof(v);
        else
            usage();
    }
    if (asked < 0 || nt < 1 || target_s <= 0 || nbatches < 1 ||
        nbatches > MAX_BATCHES || window < 1 || (!want_rate && !want_lat) ||
        (want_rate && !dup && !world))
        usage();
    if (nprocs != 2)
        die("needs exactly 2 ranks");
    if (probe_rounds > 0)
        pline = bench_probe_map(rank, TAG_LAT);

    if (rank == 0) {
        printf("# threads: %s; asked %s, provided %s; window=%d target_ms=%g "
               "batches=%d", bench_library(), level_name(asked),
               level_name(provided), window, target_s * 1000, nbatches);
        if (pline)
            printf("; probe %ld round trips, near < %g ns\n", probe_rounds, near_ns);
        else
            printf("; no probe\n");
        printf("provided %s\n", level_name(provided));
        fflush(stdout);
    }
    if (want_lat)
        run_cell(TEST_LAT, MODE_WORLD, 1);
    for (int m = MODE_DUP; want_rate && m <= MODE_WORLD; m++) {
        if (!(m == MODE_DUP ? dup : world))
            continue;
        for (int i = 0; i < nt; i++) {
            if (tlist[i] > 1 && provided < MPI_THREAD_MULTIPLE) {
                if (rank == 0)
                    printf("unsup rate %s %d %s %s\n", m == MODE_DUP ? "dup" : "world",
                           tlist[i], asked_name(), level_name(provided));
                continue;
            }
            run_cell(TEST_RATE, m, tlist[i]);
        }
    }
    if (pline)
        munmap((void *)pline, 4096);
    MPI_Finalize();
    return 0;
}
