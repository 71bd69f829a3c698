/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcoll.c - a persistent collective (MPI-4.0 6.13, 7.8) against its
 * blocking form: MPI_Allreduce_init + MPI_Start + MPI_Wait against
 * MPI_Allreduce, and MPI_Neighbor_alltoall_init against
 * MPI_Neighbor_alltoall on a periodic one-dimensional MPI_Cart_create
 * communicator (two neighbours each).
 *
 * Standard MPI-4.0 only, so the one source builds with shmpi's ./mpicc
 * and mpicc.mpich (Open MPI 4.1 has neither init call).  perf/pcoll.sh
 * builds and runs it.
 *
 *   pcoll -o OP [-s SIZES] [-T MS] [-b BATCHES] [-p ROUNDS] [-P NS]
 *
 *   OP      allreduce, allreduce_init, neighbor or neighbor_init
 *   SIZES   comma list with K/M suffixes (default 8,1K): allreduce SIZE/8
 *           doubles, MPI_SUM; neighbor SIZE bytes to each neighbour
 *   -T MS   timed milliseconds per cell (default 30)
 *   -b N    timed batches per cell (default 5)
 *   -p N    the probe's round trips (default 1000; 0: no probe, no floor)
 *   -P NS   the probe's near/far threshold (default 150)
 *
 * Each cell is checked once before it is timed (a sum of known exact
 * values; each neighbour's block tagged with its source): a wrong result
 * prints "pcoll: wrong result" on stderr and exits 3.  The persistent
 * forms make their request once per cell, outside the timed batches, and
 * free it after; a timed iteration is MPI_Start and MPI_Wait.  Timing is
 * coll.c's: calibration (the warm-up) to a tenth of the target, then
 * BATCHES batches, each after an MPI_Barrier, each the slowest rank's
 * time per operation (MPI_Allreduce MAX outside the timed region); the
 * figure is the median batch.
 *
 * The machine's state and the floor (np = 2, the 8 B Allreduce of either
 * form): as in pt2pt.c, the two ranks bounce one cache line before the
 * first batch and after each, and a batch is near, far or mixed by what
 * the probes on both sides of it read (bench.h).  After each batch, before
 * its second probe, the two ranks run bench_exchange (bench.h) as many
 * rounds as the batch had operations: the same two lines crossing with no
 * MPI call, the floor any library's 8 B Allreduce at np = 2 stands on,
 * in the same state as the batch.
 *
 * Output (stdout, rank 0): comment lines starting with #, then for the
 * batches with a floor
 *   batch OP SIZE ITERS US FLOOR_US STATE PROBE_BEFORE_NS PROBE_AFTER_NS
 * and for every cell
 *   OP SIZE NP ITERS_PER_BATCH BATCHES MEDIAN_US MIN_US MAX_US
 */
#define _POSIX_C_SOURCE 200809L /* bench.h */
#include <mpi.h>

#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op { ALLREDUCE, ALLREDUCE_INIT, NEIGHBOR, NEIGHBOR_INIT };
static const char *const op_names[] = {"allreduce", "allreduce_init",
                                       "neighbor", "neighbor_init"};

#define MAX_SIZES 32
#define MAX_BATCHES 101

static enum op op;
static long sizes[MAX_SIZES];
static int nsizes;
static double target_s = 0.03;
static int nbatches = 5;
static int rank, nprocs;
static MPI_Comm cart;
static unsigned char *sbuf, *rbuf;
static MPI_Request req = MPI_REQUEST_NULL;
static _Atomic long *pline;  /* the probe's page (bench.h), NULL: none */
static long probe_rounds = 1000;
static double near_ns = 150;

static void die(const char *msg)
{
    fprintf(stderr, "pcoll: rank %d: %s\n", rank, msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

static void usage(void)
{
    if (rank == 0)
        fprintf(stderr, "usage: pcoll -o allreduce|allreduce_init|neighbor|"
                        "neighbor_init [-s SIZES] [-T MS] [-b BATCHES] "
                        "[-p ROUNDS] [-P NS]\n");
    MPI_Finalize();
    exit(2);
}

static int persistent(void)
{
    return op == ALLREDUCE_INIT || op == NEIGHBOR_INIT;
}

/* The persistent request of a cell, made once (not timed). */
static void make_request(long size)
{
    int n = (int)size;
    if (op == ALLREDUCE_INIT)
        MPI_Allreduce_init(sbuf, rbuf, n / 8, MPI_DOUBLE, MPI_SUM,
                           MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    else if (op == NEIGHBOR_INIT)
        MPI_Neighbor_alltoall_init(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, cart,
                                   MPI_INFO_NULL, &req);
}

static void run_ops(long size, long n)
{
    int count = (int)size;
    for (long i = 0; i < n; i++) {
        switch (op) {
        case ALLREDUCE:
            MPI_Allreduce(sbuf, rbuf, count / 8, MPI_DOUBLE, MPI_SUM,
                          MPI_COMM_WORLD);
            break;
        case NEIGHBOR:
            MPI_Neighbor_alltoall(sbuf, count, MPI_BYTE, rbuf, count,
                                  MPI_BYTE, cart);
            break;
        case ALLREDUCE_INIT:
        case NEIGHBOR_INIT:
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            break;
        }
    }
}

static unsigned char pattern(long i, int from, int to)
{
    return (unsigned char)(i * 31 + from * 7 + to * 13 + 1);
}

/* One operation on known data; true when every rank got the right
   result.  Leaves the buffers filled for the timed runs. */
static int check(long size)
{
    int bad = 0, left, right;
    MPI_Cart_shift(cart, 0, 1, &left, &right);
    int nb[2] = {left, right};
    if (op == ALLREDUCE || op == ALLREDUCE_INIT) {
        double *in = (double *)sbuf, *out = (double *)rbuf;
        long n = size / 8;
        for (long i = 0; i < n; i++)
            in[i] = (double)((rank + 1) * (i % 7 + 1)), out[i] = -1;
    } else {
        for (int k = 0; k < 2; k++)
            for (long i = 0; i < size; i++)
                sbuf[k * size + i] = pattern(i, rank, nb[k]);
        memset(rbuf, 0, 2 * (size_t)size);
    }
    run_ops(size, 1);
    if (op == ALLREDUCE || op == ALLREDUCE_INIT) {
        double *out = (double *)rbuf;
        double ranks = (double)nprocs * (nprocs + 1) / 2;
        for (long i = 0; i < size / 8 && !bad; i++)
            bad = out[i] != ranks * (double)(i % 7 + 1);
    } else {
        /* block k came from neighbour k, which sent it as its block for
           us: its other side (with two ranks, left is right) */
        for (int k = 0; k < 2 && !bad; k++)
            for (long i = 0; i < size && !bad; i++)
                bad = rbuf[k * size + i] != pattern(i, nb[k], rank);
    }
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad)
        fprintf(stderr, "pcoll: wrong result: %s of %ld B at np=%d on rank "
                        "%d\n",
                op_names[op], size, nprocs, rank);
    return !any;
}

/* The floor of n operations (bench_exchange): one round in us, rank 0. */
static double floor_us(long n)
{
    MPI_Barrier(MPI_COMM_WORLD);
    return bench_exchange(pline, rank, n) * 1e-3;
}

static double batch(long size, long n)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    run_ops(size, n);
    double t = MPI_Wtime() - t0, worst = 0;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst / (double)n;
}

static void measure(long size)
{
    double per_op = 0, t[MAX_BATCHES];
    long n = 1;
    for (;;) {
        per_op = batch(size, n);
        if (per_op * (double)n >= target_s / 10 || n >= (1L << 30))
            break;
        n *= 2;
    }
    int nb = nbatches;
    long iters = (long)(target_s / nb / per_op);
    if (iters < 1)
        iters = 1, nb = nb < 3 ? nb : 3;
    int floored = pline && size == 8 && (op == ALLREDUCE || op == ALLREDUCE_INIT);
    double pr[MAX_BATCHES + 1], fl[MAX_BATCHES];
    if (floored)
        pr[0] = bench_probe(pline, rank, probe_rounds);
    for (int b = 0; b < nb; b++) {
        t[b] = batch(size, iters);
        if (floored) {
            fl[b] = floor_us(iters);
            pr[b + 1] = bench_probe(pline, rank, probe_rounds);
        }
    }
    for (int b = 0; floored && rank == 0 && b < nb; b++)
        printf("batch %s %ld %ld %.4f %.4f %s %.0f %.0f\n", op_names[op], size,
               iters, t[b] * 1e6, fl[b], bench_state(pr[b], pr[b + 1], near_ns),
               pr[b], pr[b + 1]);
    double med = bench_median(t, nb);
    if (rank == 0) {
        printf("%s %ld %d %ld %d %.4f %.4f %.4f\n", op_names[op], size,
               nprocs, iters, nb, med * 1e6, t[0] * 1e6, t[nb - 1] * 1e6);
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    int have_op = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    nsizes = bench_sizes("8,1K", sizes, MAX_SIZES);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-o") && v) {
            have_op = 0;
            for (int k = 0; k < 4; k++)
                if (!strcmp(v, op_names[k]))
                    op = (enum op)k, have_op = 1;
            if (!have_op)
                usage();
            i++;
        } else if (!strcmp(a, "-s") && v) {
            nsizes = bench_sizes(v, sizes, MAX_SIZES), i++;
        } else if (!strcmp(a, "-T") && v) {
            target_s = atof(v) / 1000, i++;
        } else if (!strcmp(a, "-b") && v) {
            nbatches = atoi(v), i++;
        } else if (!strcmp(a, "-p") && v) {
            probe_rounds = atol(v), i++;
        } else if (!strcmp(a, "-P") && v) {
            near_ns = atof(v), i++;
        } else {
            usage();
        }
    }
    if (!have_op || nsizes <= 0 || target_s <= 0 || nbatches < 1 ||
        nbatches > MAX_BATCHES || probe_rounds < 0 || near_ns <= 0)
        usage();
    long largest = 0;
    for (int i = 0; i < nsizes; i++) {
        if (sizes[i] <= 0 || sizes[i] % 8 || sizes[i] > (16L << 20))
            die("bad -s list (multiples of 8, at most 16 MiB)");
        if (sizes[i] > largest)
            largest = sizes[i];
    }
    int dims = nprocs, periods = 1;
    MPI_Cart_create(MPI_COMM_WORLD, 1, &dims, &periods, 0, &cart);
    sbuf = malloc(2 * (size_t)largest);
    rbuf = malloc(2 * (size_t)largest);
    if (!sbuf || !rbuf)
        die("out of memory");
    memset(sbuf, 0x5a, 2 * (size_t)largest);
    memset(rbuf, 0x5a, 2 * (size_t)largest);
    if (probe_rounds > 0 && nprocs == 2)
        pline = bench_probe_map(rank, 1);
    if (rank == 0) {
        printf("# pcoll: %s; np=%d target_ms=%g batches=%d", bench_library(),
               nprocs, target_s * 1000, nbatches);
        if (pline)
            printf("; probe %ld round trips, near < %g ns", probe_rounds,
                   near_ns);
        printf("\n");
        fflush(stdout);
    }
    for (int i = 0; i < nsizes; i++) {
        if (persistent())
            make_request(sizes[i]);
        if (!check(sizes[i])) {
            MPI_Finalize();
            return 3;
        }
        measure(sizes[i]);
        if (persistent())
            MPI_Request_free(&req);
    }
    if (pline)
        munmap((void *)pline, 4096);
    MPI_Comm_free(&cart);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
