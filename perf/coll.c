/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coll.c - latency of the collectives MPI_Barrier, MPI_Bcast, MPI_Allreduce
 * and MPI_Alltoall, OSU style (osu_barrier, osu_bcast, osu_allreduce,
 * osu_alltoall).
 *
 * Standard MPI only, so the one source builds with shmpi's ./mpicc,
 * mpicc.openmpi and mpicc.mpich.  perf/coll.sh builds it three ways and
 * runs it.
 *
 *   coll -o OP [-s SIZES] [-T MS] [-b BATCHES]
 *
 *   OP        barrier, bcast, allreduce or alltoall (one per run)
 *   SIZES     comma list with K/M suffixes, default 8,64,1K,16K,256K,1M,4M
 *             (ignored by barrier):
 *               bcast      SIZE bytes (MPI_BYTE) from rank 0
 *               allreduce  SIZE/8 doubles, MPI_SUM
 *               alltoall   SIZE bytes (MPI_BYTE) from every rank to every
 *                          rank (send and receive buffers of np * SIZE)
 *   -T MS     timed milliseconds per cell (default 30)
 *   -b N      timed batches per cell (default 5)
 *
 * How a cell is timed.  Buffers are written before use.  Each cell is first
 * checked once (bcast: a pattern compared on every rank; allreduce: a sum
 * of known exact values; alltoall: every block tagged with its source and
 * destination); a wrong result prints a line "coll: wrong result" on stderr
 * and every rank exits with status 3, so a broken library never prints a
 * number.  Then a calibration, which is also the warm-up: batches of 1, 2,
 * 4, ... iterations until one batch takes a tenth of the target.  Then
 * BATCHES timed batches of target/BATCHES each (3 batches of one iteration
 * when one iteration takes longer than that).  Every batch starts after an
 * MPI_Barrier; each rank times it with MPI_Wtime and the batch's time is
 * the slowest rank's (an MPI_Allreduce MAX outside the timed region), over
 * the iterations.  The figure is the median over the batches.  Every rank
 * sees the same maxima, so they all take the same decisions without
 * further messages.
 *
 * Output (stdout, rank 0), whitespace separated:
 *   # comment lines
 *   OP SIZE NP ITERS_PER_BATCH BATCHES MEDIAN_US MIN_US MAX_US
 * with SIZE 0 for barrier.
 */
#define _POSIX_C_SOURCE 200809L /* bench.h */
#include <mpi.h>

#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op { OP_BARRIER, OP_BCAST, OP_ALLREDUCE, OP_ALLTOALL };
static const char *const op_names[] = {"barrier", "bcast", "allreduce", "alltoall"};

#define MAX_SIZES 32
#define MAX_BATCHES 101

static enum op op = OP_BARRIER;
static long sizes[MAX_SIZES];
static int nsizes;
static double target_s = 0.03;
static int nbatches = 5;
static int rank, nprocs;
static unsigned char *sbuf, *rbuf;

static void die(const char *msg)
{
    fprintf(stderr, "coll: rank %d: %s\n", rank, msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

static void usage(void)
{
    if (rank == 0)
        fprintf(stderr, "usage: coll -o barrier|bcast|allreduce|alltoall "
                        "[-s SIZES] [-T MS] [-b BATCHES]\n");
    MPI_Finalize();
    exit(2);
}

static void parse_sizes(const char *list)
{
    int ok = (nsizes = bench_sizes(list, sizes, MAX_SIZES)) > 0;
    /* allreduce works on doubles; counts are ints */
    for (int i = 0; ok && i < nsizes; i++)
        ok = sizes[i] > 0 && sizes[i] % 8 == 0 && sizes[i] <= (64L << 20);
    if (!ok)
        die("bad -s list (multiples of 8 like 8,1K,4M; at most 64 MiB)");
}

static void *alloc_touched(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        die("out of memory");
    memset(p, 0x5a, bytes);
    return p;
}

/* ------------------------------------------------------------ the kernels */

static void run_ops(long size, long n)
{
    int count = (int)size;
    for (long i = 0; i < n; i++) {
        switch (op) {
        case OP_BARRIER:
            MPI_Barrier(MPI_COMM_WORLD);
            break;
        case OP_BCAST:
            MPI_Bcast(sbuf, count, MPI_BYTE, 0, MPI_COMM_WORLD);
            break;
        case OP_ALLREDUCE:
            MPI_Allreduce(sbuf, rbuf, count / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            break;
        case OP_ALLTOALL:
            MPI_Alltoall(sbuf, count, MPI_BYTE, rbuf, count, MPI_BYTE, MPI_COMM_WORLD);
            break;
        }
    }
}

/* ------------------------------------------------------------ the checks */

static unsigned char pattern(long i, int from, int to)
{
    return (unsigned char)(i * 31 + from * 7 + to * 13 + 1);
}

/* Run the operation once on known data; true when every rank got the
 * right result.  Leaves the buffers filled for the timed runs. */
static int check(long size)
{
    int bad = 0;
    switch (op) {
    case OP_BARRIER:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    case OP_BCAST:
        for (long i = 0; i < size; i++)
            sbuf[i] = rank == 0 ? pattern(i, 0, 0) : 0;
        MPI_Bcast(sbuf, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);
        for (long i = 0; i < size && !bad; i++)
            bad = sbuf[i] != pattern(i, 0, 0);
        break;
    case OP_ALLREDUCE: {
        /* small integers: every sum is exact in any order */
        double *in = (double *)sbuf, *out = (double *)rbuf;
        long n = size / 8;
        for (long i = 0; i < n; i++)
            in[i] = (double)((rank + 1) * (i % 7 + 1)), out[i] = -1;
        MPI_Allreduce(in, out, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double ranks = (double)nprocs * (nprocs + 1) / 2;
        for (long i = 0; i < n && !bad; i++)
            bad = out[i] != ranks * (double)(i % 7 + 1);
        break;
    }
    case OP_ALLTOALL:
        for (int to = 0; to < nprocs; to++)
            for (long i = 0; i < size; i++)
                sbuf[to * size + i] = pattern(i, rank, to);
        memset(rbuf, 0, (size_t)size * (size_t)nprocs);
        MPI_Alltoall(sbuf, (int)size, MPI_BYTE, rbuf, (int)size, MPI_BYTE,
                     MPI_COMM_WORLD);
        for (int from = 0; from < nprocs && !bad; from++)
            for (long i = 0; i < size && !bad; i++)
                bad = rbuf[from * size + i] != pattern(i, from, rank);
        break;
    }
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad)
        fprintf(stderr, "coll: wrong result: %s of %ld B at np=%d on rank %d\n",
                op_names[op], size, nprocs, rank);
    return !any;
}

/* ------------------------------------------------------------ timing */

/* One batch of n operations; the slowest rank's seconds per operation. */
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
    /* calibration and warm-up */
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
    for (int b = 0; b < nb; b++)
        t[b] = batch(size, iters);
    double med = bench_median(t, nb);
    if (rank == 0) {
        printf("%s %ld %d %ld %d %.4f %.4f %.4f\n", op_names[op],
               op == OP_BARRIER ? 0 : size, nprocs, iters, nb, med * 1e6,
               t[0] * 1e6, t[nb - 1] * 1e6);
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    int have_op = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    parse_sizes("8,64,1K,16K,256K,1M,4M");
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
            parse_sizes(v), i++;
        } else if (!strcmp(a, "-T") && v) {
            target_s = atof(v) / 1000, i++;
        } else if (!strcmp(a, "-b") && v) {
            nbatches = atoi(v), i++;
        } else {
            usage();
        }
    }
    if (!have_op || target_s <= 0 || nbatches < 1 || nbatches > MAX_BATCHES)
        usage();
    if (op == OP_BARRIER)
        sizes[0] = 8, nsizes = 1; /* no size; one cell */

    long largest = 0;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] > largest)
            largest = sizes[i];
    size_t bytes = (size_t)largest * (op == OP_ALLTOALL ? (size_t)nprocs : 1);
    sbuf = alloc_touched(bytes);
    rbuf = alloc_touched(bytes);

    if (rank == 0) {
        printf("# coll: %s; np=%d target_ms=%g batches=%d\n", bench_library(),
               nprocs, target_s * 1000, nbatches);
        printf("# op size_B np iters_per_batch batches median_us min_us max_us\n");
        fflush(stdout);
    }
    int status = 0;
    for (int i = 0; i < nsizes && !status; i++) {
        if (!check(sizes[i]))
            status = 3;
        else
            measure(sizes[i]);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return status;
}
