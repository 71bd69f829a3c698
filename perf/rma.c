/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rma.c - latency and bandwidth of one-sided communication, OSU style
 * (osu_put_latency, osu_get_latency, osu_put_bw, osu_get_bw,
 * osu_acc_latency, osu_fop_latency, osu_cas_latency): two ranks, rank 0
 * the origin, rank 1 the target.
 *
 * Standard MPI-3.1 only, so the one source builds with shmpi's ./mpicc,
 * mpicc.openmpi and mpicc.mpich.  perf/rma.sh builds it three ways and
 * runs it.
 *
 *   rma -t TEST [-w allocate|create] [-s SIZES] [-T MS] [-b BATCHES]
 *
 *   TEST      one per run; per iteration (sizes in bytes, MPI_BYTE unless
 *             said otherwise; every operation at target displacement 0):
 *     put_lock    MPI_Win_lock(EXCLUSIVE) + MPI_Put + MPI_Win_unlock
 *     get_lock    the same with MPI_Get
 *     put_flush   MPI_Put + MPI_Win_flush, in one MPI_Win_lock_all epoch
 *     get_flush   MPI_Get + MPI_Win_flush, likewise
 *     put_fence   MPI_Put + MPI_Win_fence (the fence on both ranks)
 *     get_fence   the same with MPI_Get
 *     fence       MPI_Win_fence on both ranks: the epoch alone (no size)
 *     pscw        origin MPI_Win_start + MPI_Put + MPI_Win_complete,
 *                 target MPI_Win_post + MPI_Win_wait
 *     get_pscw    the same with MPI_Get
 *     pscw_empty  the same epoch without the put (no size)
 *     put_bw      64 MPI_Put of SIZE + one MPI_Win_flush, in one
 *                 MPI_Win_lock_all epoch
 *     get_bw      64 MPI_Get of SIZE + one MPI_Win_flush, likewise
 *     put_bw_lock, get_bw_lock    64 MPI_Put (MPI_Get) in one
 *                 MPI_Win_lock(EXCLUSIVE) ... MPI_Win_unlock epoch
 *     put_bw_fence, get_bw_fence  64 MPI_Put (MPI_Get) + MPI_Win_fence
 *     put_bw_pscw, get_bw_pscw    origin MPI_Win_start + 64 MPI_Put
 *                 (MPI_Get) + MPI_Win_complete, target MPI_Win_post +
 *                 MPI_Win_wait
 *                 (the 64 operations of a bandwidth test all go to
 *                 displacement 0, from or into the same origin buffer, as
 *                 put_bw's always did: the bytes any two of them write are
 *                 the same, and the window stays the largest size + 64 B;
 *                 osu_get_bw gives each its own slice of both instead)
 *     acc_flush   MPI_Accumulate of SIZE/8 MPI_DOUBLE, MPI_SUM, +
 *                 MPI_Win_flush, in one MPI_Win_lock_all epoch
 *     fop         MPI_Fetch_and_op of one MPI_LONG, MPI_SUM, + flush, likewise
 *     cas         MPI_Compare_and_swap of one MPI_LONG + flush, likewise
 *   -w        the window: allocate (MPI_Win_allocate, the default) or
 *             create (MPI_Win_create over malloc'd memory); the largest
 *             size plus 64 bytes rounded up to whole 4 KiB pages,
 *             disp_unit 1, on both ranks.  (Whole pages, as the OSU
 *             tests have: with 72-byte MPI_Win_allocate windows, whose
 *             rank 1 part is not 16-byte aligned in MPICH 4.0.2's shared
 *             segment, its fetch_and_op and compare_and_swap neither see
 *             nor change the target's word; 80 bytes work.)
 *   SIZES     comma list with K/M suffixes, multiples of 8, default
 *             8,64,1K,16K,256K,1M,4M (ignored by fence, pscw_empty, fop
 *             and cas)
 *   -T MS     timed milliseconds per cell (default 30)
 *   -b N      timed batches per cell (default 5)
 *
 * How a cell is checked.  Before it is timed, each cell runs one iteration
 * of the very code that is timed, on known data: the target writes a
 * pattern into its window (passive target tests inside a lock on itself;
 * fence and PSCW tests just before the fence or post that publishes it);
 * a put must leave the origin's pattern in the target's window and the 64
 * bytes after it untouched, a get must bring the target's pattern back,
 * an accumulate must leave the exact sums of small integers, two
 * fetch_and_ops must return the old value and the old value plus the
 * first operand and leave the sum of both, and two compare_and_swaps
 * must swap once (matching compare value) and not the second time.  The
 * target reads its window after the epoch that completes the operation
 * (under a lock on itself for passive target tests).  A wrong result
 * prints a line "rma: wrong result" on stderr and every rank exits with
 * status 3, so a broken library never prints a number.
 *
 * How a cell is timed, as in coll.c: a calibration, which is also the
 * warm-up, of batches of 1, 2, 4, ... iterations until one batch takes a
 * tenth of the target; then BATCHES timed batches of target/BATCHES each
 * (3 batches of one iteration when one iteration takes longer than that).
 * Every batch starts after an MPI_Barrier; each rank times it with
 * MPI_Wtime and the batch's time is the slowest rank's (an MPI_Allreduce
 * MAX outside the timed region), over the iterations.  In passive target
 * tests the target has nothing to do in a batch and waits in that
 * MPI_Allreduce (where implementations that need the target to progress
 * find it), so the figure is the origin's.  The figure is the median
 * batch.  The flush tests open their MPI_Win_lock_all epoch once per cell,
 * before the first batch, and close it after the last.
 *
 * A window the MPI cannot create (Open MPI's osc sm has no
 * MPI_Win_create) prints "rma: unsupported: ..." on stderr and exits with
 * status 4 without a figure.  Any other MPI error aborts (the window's
 * error handler is MPI_ERRORS_ARE_FATAL).
 *
 * Output (stdout, rank 0), whitespace separated:
 *   # comment lines
 *   TEST WINDOW SIZE NP ITERS_PER_BATCH BATCHES MEDIAN_US MIN_US MAX_US GBPS
 * with SIZE 0 for fence and pscw_empty, 8 (one long) for fop and cas, and
 * GBPS the bytes moved per second of the median batch (10^9 B/s) for the
 * bandwidth tests (*_bw*), "-" for the others.
 */
#define _POSIX_C_SOURCE 200809L /* getopt, bench.h */
#include <mpi.h>

#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum sync { SYNC_LOCK, SYNC_FLUSH, SYNC_FENCE, SYNC_PSCW };
enum move { MOVE_NONE, MOVE_PUT, MOVE_GET, MOVE_ACC, MOVE_FOP, MOVE_CAS };

#define BW_WINDOW 64 /* operations per epoch or flush in *_bw*, as osu_put_bw */

struct test {
    const char *name;
    enum sync sync;
    enum move move;
    int ops;         /* operations per iteration: 1, or BW_WINDOW (*_bw*) */
    long fixed_size; /* the size reported when the test has none; -1: sized */
};

static const struct test tests[] = {
    {"put_lock", SYNC_LOCK, MOVE_PUT, 1, -1},
    {"get_lock", SYNC_LOCK, MOVE_GET, 1, -1},
    {"put_flush", SYNC_FLUSH, MOVE_PUT, 1, -1},
    {"get_flush", SYNC_FLUSH, MOVE_GET, 1, -1},
    {"put_fence", SYNC_FENCE, MOVE_PUT, 1, -1},
    {"get_fence", SYNC_FENCE, MOVE_GET, 1, -1},
    {"fence", SYNC_FENCE, MOVE_NONE, 1, 0},
    {"pscw", SYNC_PSCW, MOVE_PUT, 1, -1},
    {"get_pscw", SYNC_PSCW, MOVE_GET, 1, -1},
    {"pscw_empty", SYNC_PSCW, MOVE_NONE, 1, 0},
    {"put_bw", SYNC_FLUSH, MOVE_PUT, BW_WINDOW, -1},
    {"get_bw", SYNC_FLUSH, MOVE_GET, BW_WINDOW, -1},
    {"put_bw_lock", SYNC_LOCK, MOVE_PUT, BW_WINDOW, -1},
    {"get_bw_lock", SYNC_LOCK, MOVE_GET, BW_WINDOW, -1},
    {"put_bw_fence", SYNC_FENCE, MOVE_PUT, BW_WINDOW, -1},
    {"get_bw_fence", SYNC_FENCE, MOVE_GET, BW_WINDOW, -1},
    {"put_bw_pscw", SYNC_PSCW, MOVE_PUT, BW_WINDOW, -1},
    {"get_bw_pscw", SYNC_PSCW, MOVE_GET, BW_WINDOW, -1},
    {"acc_flush", SYNC_FLUSH, MOVE_ACC, 1, -1},
    {"fop", SYNC_FLUSH, MOVE_FOP, 1, (long)sizeof(long)},
    {"cas", SYNC_FLUSH, MOVE_CAS, 1, (long)sizeof(long)},
};
#define NTESTS (int)(sizeof tests / sizeof tests[0])

#define ORIGIN 0
#define TARGET 1
#define GUARD 64 /* bytes after a put's range that must stay untouched */
#define PAGE 4096
#define MAX_SIZES 32
#define MAX_BATCHES 101

static const struct test *test;
static int create_window; /* -w create */
static long sizes[MAX_SIZES];
static int nsizes;
static double target_s = 0.03;
static int nbatches = 5;
static int rank, nprocs;

static MPI_Win win;
static unsigned char *win_mem;  /* this rank's window memory */
static size_t win_bytes;
static unsigned char *obuf;     /* the origin's buffer */
static MPI_Group peer_group;    /* the other rank, for PSCW */
/* the fetch_and_op operand and compare_and_swap values of an iteration */
static long fop_operand = 1, cas_compare, cas_swap = 1, fetched;

static void die(const char *msg)
{
    fprintf(stderr, "rma: rank %d: %s\n", rank, msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

static void usage(void)
{
    if (rank == 0) {
        fprintf(stderr, "usage: rma -t TEST [-w allocate|create] [-s SIZES] "
                        "[-T MS] [-b BATCHES]; TEST one of");
        for (int i = 0; i < NTESTS; i++)
            fprintf(stderr, " %s", tests[i].name);
        fprintf(stderr, "; np=2\n");
    }
    MPI_Finalize();
    exit(2);
}

/* -s: sizes with K/M suffixes, multiples of 8 (acc_flush works on
 * doubles), at most 64 MiB (counts are ints). */
static void parse_sizes(const char *list)
{
    int ok = (nsizes = bench_sizes(list, sizes, MAX_SIZES)) > 0;
    for (int i = 0; ok && i < nsizes; i++)
        ok = sizes[i] > 0 && sizes[i] % 8 == 0 && sizes[i] <= (64L << 20);
    if (!ok)
        die("bad -s list (multiples of 8 like 8,1K,4M; at most 64 MiB)");
}

/* ------------------------------------------------------------ the kernels */

/* One operation of the test, at the origin; no synchronization. */
static void move_one(long size)
{
    int count = (int)size;
    switch (test->move) {
    case MOVE_NONE:
        break;
    case MOVE_PUT:
        MPI_Put(obuf, count, MPI_BYTE, TARGET, 0, count, MPI_BYTE, win);
        break;
    case MOVE_GET:
        MPI_Get(obuf, count, MPI_BYTE, TARGET, 0, count, MPI_BYTE, win);
        break;
    case MOVE_ACC:
        MPI_Accumulate(obuf, count / 8, MPI_DOUBLE, TARGET, 0, count / 8,
                       MPI_DOUBLE, MPI_SUM, win);
        break;
    case MOVE_FOP:
        MPI_Fetch_and_op(&fop_operand, &fetched, MPI_LONG, TARGET, 0, MPI_SUM, win);
        break;
    case MOVE_CAS:
        MPI_Compare_and_swap(&cas_swap, &cas_compare, &fetched, MPI_LONG,
                             TARGET, 0, win);
        break;
    }
}

/* The data movement of one iteration, at the origin. */
static void move(long size)
{
    for (int k = 0; k < test->ops; k++)
        move_one(size);
}

/* n iterations of the test, on both ranks.  The flush tests run inside
 * the caller's MPI_Win_lock_all epoch. */
static void run_iters(long size, long n)
{
    int origin = rank == ORIGIN;
    for (long i = 0; i < n; i++) {
        switch (test->sync) {
        case SYNC_LOCK:
            if (origin) {
                MPI_Win_lock(MPI_LOCK_EXCLUSIVE, TARGET, 0, win);
                move(size);
                MPI_Win_unlock(TARGET, win);
            }
            break;
        case SYNC_FLUSH:
            if (origin) {
                move(size);
                MPI_Win_flush(TARGET, win);
            }
            break;
        case SYNC_FENCE:
            if (origin)
                move(size);
            MPI_Win_fence(0, win);
            break;
        case SYNC_PSCW:
            if (origin) {
                MPI_Win_start(peer_group, 0, win);
                move(size);
                MPI_Win_complete(win);
            } else {
                MPI_Win_post(peer_group, 0, win);
                MPI_Win_wait(win);
            }
            break;
        }
    }
}

static void open_flush_epoch(void)
{
    if (test->sync == SYNC_FLUSH && rank == ORIGIN)
        MPI_Win_lock_all(0, win);
}

static void close_flush_epoch(void)
{
    if (test->sync == SYNC_FLUSH && rank == ORIGIN)
        MPI_Win_unlock_all(win);
}

/* ------------------------------------------------------------ the checks */

static unsigned char pattern(long i, long seed, int who)
{
    return (unsigned char)(i * 31 + seed * 7 + who * 101 + 1);
}

/* The target fills its window for a check, and reads it afterwards, under
 * a lock on itself in passive target tests; fence and PSCW tests rely on
 * the fence or post that follows the fill and the fence or wait that
 * precedes the read instead (locking would mix epoch kinds). */
static void target_lock(void)
{
    if (test->sync == SYNC_LOCK || test->sync == SYNC_FLUSH)
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, TARGET, 0, win);
}

static void target_unlock(void)
{
    if (test->sync == SYNC_LOCK || test->sync == SYNC_FLUSH)
        MPI_Win_unlock(TARGET, win);
}

#define FOP_BASE 1000
#define FOP_FIRST 5
#define FOP_SECOND 7
#define CAS_SWAP 424242

static void fill(long size)
{
    double *w = (double *)win_mem, *a = (double *)obuf;
    if (rank == TARGET) {
        target_lock();
        if (test->move == MOVE_ACC)
            for (size_t i = 0; i < win_bytes / 8; i++)
                w[i] = (double)(i % 7);
        else if (test->move == MOVE_FOP || test->move == MOVE_CAS)
            *(long *)win_mem = FOP_BASE + size;
        else
            for (size_t i = 0; i < win_bytes; i++)
                win_mem[i] = pattern((long)i, size, TARGET);
        target_unlock();
        return;
    }
    if (test->move == MOVE_ACC)
        for (long i = 0; i < size / 8; i++)
            a[i] = (double)(i % 5 + 1);
    else if (test->move == MOVE_GET)
        memset(obuf, 0, (size_t)size);
    else
        for (long i = 0; i < size; i++)
            obuf[i] = pattern(i, size, ORIGIN);
}

/* The target's window after the check; true when right. */
static int target_ok(long size)
{
    const double *w = (const double *)win_mem;
    const long v = *(const long *)win_mem;
    int ok = 1;
    switch (test->move) {
    case MOVE_NONE:
    case MOVE_GET:
        break;
    case MOVE_PUT:
        for (long i = 0; i < size && ok; i++)
            ok = win_mem[i] == pattern(i, size, ORIGIN);
        for (long i = size; i < size + GUARD && ok; i++)
            ok = win_mem[i] == pattern(i, size, TARGET);
        break;
    case MOVE_ACC:
        for (long i = 0; i < size / 8 && ok; i++)
            ok = w[i] == (double)(i % 7 + i % 5 + 1);
        for (long i = size / 8; i < (size + GUARD) / 8 && ok; i++)
            ok = w[i] == (double)(i % 7);
        break;
    case MOVE_FOP:
        ok = v == FOP_BASE + size + FOP_FIRST + FOP_SECOND;
        break;
    case MOVE_CAS:
        ok = v == CAS_SWAP;
        break;
    }
    return ok;
}

/* One checked iteration at the origin (two for fop and cas, whose results
 * must differ); true when what came back is right. */
static int origin_ok(long size)
{
    long base = FOP_BASE + size;
    int ok = 1;
    open_flush_epoch();
    if (test->move == MOVE_FOP) {
        fop_operand = FOP_FIRST;
        run_iters(size, 1);
        ok = fetched == base;
        fop_operand = FOP_SECOND;
        run_iters(size, 1);
        ok = ok && fetched == base + FOP_FIRST;
    } else if (test->move == MOVE_CAS) {
        cas_compare = base, cas_swap = CAS_SWAP;
        run_iters(size, 1);
        ok = fetched == base;
        run_iters(size, 1); /* compare no longer matches: no swap */
        ok = ok && fetched == CAS_SWAP;
    } else {
        run_iters(size, 1);
    }
    close_flush_epoch();
    for (long i = 0; test->move == MOVE_GET && i < size && ok; i++)
        ok = obuf[i] == pattern(i, size, TARGET);
    /* the timed iterations' values */
    fop_operand = 1, cas_compare = 0, cas_swap = 1;
    return ok;
}

static int check(long size)
{
    int bad = 0, any = 0;
    fill(size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (test->sync == SYNC_FENCE)
        MPI_Win_fence(0, win); /* opens the epoch of the checked iteration */
    if (rank == ORIGIN)
        bad = !origin_ok(size);
    else if (test->sync == SYNC_FENCE || test->sync == SYNC_PSCW)
        run_iters(size, 1); /* the target's half of the epoch */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == TARGET) {
        target_lock();
        bad = !target_ok(size);
        target_unlock();
    }
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad)
        fprintf(stderr, "rma: wrong result: %s on a %s window, %ld B, seen by "
                        "the %s (rank %d)\n", test->name,
                create_window ? "create" : "allocate", size,
                rank == ORIGIN ? "origin" : "target", rank);
    return !any;
}

/* ------------------------------------------------------------ timing */

/* One batch of n iterations; the slowest rank's seconds per iteration. */
static double batch(long size, long n)
{
    double mine, slowest;
    MPI_Barrier(MPI_COMM_WORLD);
    mine = MPI_Wtime();
    run_iters(size, n);
    mine = (MPI_Wtime() - mine) / (double)n;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

/* The calibration, which is also the warm-up: batches of 1, 2, 4, ...
 * iterations until one takes a tenth of the target; the last one's
 * seconds per iteration. */
static double calibrate(long size)
{
    for (long n = 1;; n *= 2) {
        double per_iter = batch(size, n);
        if (per_iter * (double)n >= target_s / 10 || n >= (1L << 30))
            return per_iter;
    }
}

/* The output line of a cell from its batches' times t[0..nb) (sorted
 * here). */
static void report(long size, long iters, int nb, double *t)
{
    double med = bench_median(t, nb);
    char gbps[32] = "-";
    if (test->ops > 1)
        snprintf(gbps, sizeof gbps, "%.4f", test->ops * (double)size / med / 1e9);
    printf("%s %s %ld %d %ld %d %.4f %.4f %.4f %s\n", test->name,
           create_window ? "create" : "allocate", size, nprocs, iters, nb,
           med * 1e6, t[0] * 1e6, t[nb - 1] * 1e6, gbps);
    fflush(stdout);
}

static void measure(long size)
{
    double t[MAX_BATCHES];
    open_flush_epoch();
    double per_iter = calibrate(size);
    /* BATCHES batches of target/BATCHES; 3 of one iteration if that is longer */
    long iters = (long)(target_s / nbatches / per_iter);
    int nb = iters < 1 && nbatches > 3 ? 3 : nbatches;
    iters = iters < 1 ? 1 : iters;
    for (int b = 0; b < nb; b++)
        t[b] = batch(size, iters);
    close_flush_epoch();
    if (rank == 0)
        report(size, iters, nb, t);
}

/* ------------------------------------------------------------ setup */

/* The window on both ranks; false (after a line on stderr) when this MPI
 * cannot make that kind of window. */
static int make_window(size_t bytes)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int rc, len = 0, ok, all = 0;
    win_bytes = bytes;
    /* a window that cannot be made is a result, not a crash */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (create_window) {
        win_mem = malloc(bytes);
        if (!win_mem)
            die("out of memory");
        memset(win_mem, 0, bytes);
        rc = MPI_Win_create(win_mem, (MPI_Aint)bytes, 1, MPI_INFO_NULL,
                            MPI_COMM_WORLD, &win);
    } else {
        rc = MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                              &win_mem, &win);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    ok = rc == MPI_SUCCESS;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!ok) {
        MPI_Error_string(rc, msg, &len);
        fprintf(stderr, "rma: unsupported: %s on rank %d: %s\n",
                create_window ? "MPI_Win_create" : "MPI_Win_allocate", rank, msg);
    }
    if (ok != all) /* the other rank holds a window this one lacks */
        MPI_Abort(MPI_COMM_WORLD, 4);
    return all;
}

static const struct test *find_test(const char *name)
{
    for (int k = 0; k < NTESTS; k++)
        if (!strcmp(name, tests[k].name))
            return &tests[k];
    usage();
    return NULL;
}

static void parse_args(int argc, char **argv)
{
    int c;
    parse_sizes("8,64,1K,16K,256K,1M,4M");
    opterr = 0; /* usage() says it, once */
    while ((c = getopt(argc, argv, "t:w:s:T:b:")) != -1) {
        switch (c) {
        case 't': test = find_test(optarg); break;
        case 'w':
            if (strcmp(optarg, "allocate") && strcmp(optarg, "create"))
                usage();
            create_window = !strcmp(optarg, "create");
            break;
        case 's': parse_sizes(optarg); break;
        case 'T': target_s = atof(optarg) / 1000; break;
        case 'b': nbatches = atoi(optarg); break;
        default: usage();
        }
    }
    if (optind < argc || !test || nprocs != 2 || target_s <= 0 || nbatches < 1 ||
        nbatches > MAX_BATCHES)
        usage();
    if (test->fixed_size >= 0)
        sizes[0] = test->fixed_size, nsizes = 1; /* no size; one cell */
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    parse_args(argc, argv);

    long largest = 8;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] > largest)
            largest = sizes[i];
    obuf = malloc((size_t)largest);
    if (!obuf)
        die("out of memory");
    memset(obuf, 0x5a, (size_t)largest);
    MPI_Group world_group;
    int peer = 1 - rank;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_incl(world_group, 1, &peer, &peer_group);
    MPI_Group_free(&world_group);

    if (rank == 0) {
        printf("# rma: %s; np=%d test=%s window=%s target_ms=%g batches=%d\n",
               bench_library(), nprocs, test->name, create_window ? "create" : "allocate",
               target_s * 1000, nbatches);
        printf("# test window size_B np iters_per_batch batches median_us "
               "min_us max_us GBps\n");
        fflush(stdout);
    }
    int status = 4;
    if (make_window(((size_t)largest + GUARD + PAGE - 1) / PAGE * PAGE)) {
        status = 0;
        for (int i = 0; i < nsizes && !status; i++) {
            if (!check(sizes[i]))
                status = 3;
            else
                measure(sizes[i]);
        }
        MPI_Win_free(&win);
        if (create_window)
            free(win_mem);
    }
    MPI_Group_free(&peer_group);
    free(obuf);
    MPI_Finalize();
    return status;
}
