/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * put_bibw.c - osu_put_bibw's pattern (OSU 7.x, mpi/one-sided): two
 * ranks put into each other at once, per message size a new window.
 *
 * Standard MPI-3.1 only, so the one source builds with shmpi's ./mpicc,
 * mpicc.openmpi and mpicc.mpich.  perf/put_bibw.sh builds it three ways
 * and runs it.
 *
 *   put_bibw [-w create|allocate|dynamic] [-s fence|pscw] [-m MAX]
 *
 * For each size from 1 B to MAX (default 4M; K/M suffixes), doubling,
 * as osu_put_bibw does:
 *   - each rank makes a window of 64 x size bytes, disp_unit 1: -w
 *     create: MPI_Win_create over page-aligned memory of posix_memalign,
 *     memset first; allocate: MPI_Win_allocate; dynamic:
 *     MPI_Win_create_dynamic + MPI_Win_attach of such memory, the
 *     address (MPI_Get_address) sent to the peer, which puts at it;
 *     the origin buffer is 64 x size bytes of posix_memalign memory too;
 *   - skip + iterations iterations (10 + 100 up to 8 KiB, 2 + 20 above:
 *     OSU's BW_SKIP/LOOP_SMALL and _LARGE), each on both ranks:
 *       fence: MPI_Win_fence(0); 64 MPI_Put of size MPI_CHAR to the
 *              peer, put j from origin offset j x size to target offset
 *              j x size; MPI_Win_fence(0)
 *       pscw:  MPI_Win_post(peer); MPI_Win_start(peer); the 64 puts;
 *              MPI_Win_complete; MPI_Win_wait
 *   - the window is freed (and the memory).
 * Rank 0 times the iterations after the skipped ones with MPI_Wtime;
 * bandwidth is OSU's: 2 x size x 64 x iterations / time, MB/s (10^6 B/s).
 *
 * Beyond OSU, to say what a user waits for and to check the data: each
 * size's whole cost - window made, every iteration, window freed - is
 * timed on rank 0 from a barrier before the window to a barrier after it
 * is freed, and within it the making (to the barrier after it) and the
 * freeing (from a barrier before MPI_Win_detach / MPI_Win_free); and each
 * origin buffer holds a pattern of its rank, size and
 * offset, which the peer's window must hold after the last epoch (checked
 * by the owner after its last fence or wait, before the window is freed).
 * A wrong result prints "put_bibw: wrong result" on stderr and every rank
 * exits with status 3, so a broken library never prints a number.
 *
 * Output (stdout, rank 0), whitespace separated:
 *   # comment lines
 *   WINDOW SYNC SIZE_B ITERATIONS MBPS SIZE_SECONDS MAKE_SECONDS
 *       FREE_SECONDS
 *   total WINDOW SYNC SECONDS       (MPI_Init to the last size's barrier)
 */
#define _POSIX_C_SOURCE 200809L /* getopt, posix_memalign, bench.h */
#include <mpi.h>

#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WINDOW_OPS 64        /* OSU's window_size_large: puts per epoch */
#define LARGE_MESSAGE 8192   /* OSU's LARGE_MESSAGE_SIZE */
#define LOOP_SMALL 100
#define SKIP_SMALL 10
#define LOOP_LARGE 20
#define SKIP_LARGE 2

enum kind { WIN_CREATE, WIN_ALLOCATE, WIN_DYNAMIC };
static const char *const kind_names[] = {"create", "allocate", "dynamic"};

static enum kind kind = WIN_CREATE;
static int pscw;
static long max_size = 4L << 20;
static int rank, nprocs, peer;
static MPI_Group peer_group;

static void usage(void)
{
    if (rank == 0)
        fprintf(stderr, "usage: put_bibw [-w create|allocate|dynamic] "
                        "[-s fence|pscw] [-m MAX]; np=2\n");
    MPI_Finalize();
    exit(2);
}

static void *page_memory(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes) != 0) {
        fprintf(stderr, "put_bibw: rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

static unsigned char pattern(int who, long size, size_t i)
{
    return (unsigned char)(i * 13 + (size_t)size * 5 + (size_t)who * 101 + 1);
}

/* One size's window: *mem is this rank's window memory, *disp the
 * displacement of the peer's (its address on a dynamic window). */
static MPI_Win make_window(size_t bytes, unsigned char **mem, MPI_Aint *disp)
{
    MPI_Win win;
    *disp = 0;
    if (kind == WIN_ALLOCATE) {
        MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                         mem, &win);
        memset(*mem, 'a', bytes);
        return win;
    }
    *mem = page_memory(bytes);
    memset(*mem, 'a', bytes);
    if (kind == WIN_CREATE) {
        MPI_Win_create(*mem, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                       &win);
        return win;
    }
    MPI_Aint mine;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_attach(win, *mem, (MPI_Aint)bytes);
    MPI_Get_address(*mem, &mine);
    MPI_Sendrecv(&mine, 1, MPI_AINT, peer, 1, disp, 1, MPI_AINT, peer, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return win;
}

static void free_window(MPI_Win *win, unsigned char *mem)
{
    if (kind == WIN_DYNAMIC)
        MPI_Win_detach(*win, mem);
    MPI_Win_free(win);
    if (kind != WIN_ALLOCATE)
        free(mem);
}

/* One iteration on this rank: an epoch of 64 puts to the peer. */
static void iteration(MPI_Win win, const unsigned char *sbuf, long size,
                      MPI_Aint disp)
{
    int n = (int)size;
    if (pscw) {
        MPI_Win_post(peer_group, 0, win);
        MPI_Win_start(peer_group, 0, win);
    } else {
        MPI_Win_fence(0, win);
    }
    for (long j = 0; j < WINDOW_OPS; j++)
        MPI_Put(sbuf + j * size, n, MPI_CHAR, peer, disp + j * size, n,
                MPI_CHAR, win);
    if (pscw) {
        MPI_Win_complete(win);
        MPI_Win_wait(win);
    } else {
        MPI_Win_fence(0, win);
    }
}

/* One size: its line of output; false when the data came out wrong. */
static int one_size(long size)
{
    size_t bytes = (size_t)size * WINDOW_OPS;
    int loop = size > LARGE_MESSAGE ? LOOP_LARGE : LOOP_SMALL;
    int skip = size > LARGE_MESSAGE ? SKIP_LARGE : SKIP_SMALL;
    unsigned char *sbuf = page_memory(bytes), *mem;
    for (size_t i = 0; i < bytes; i++)
        sbuf[i] = pattern(rank, size, i);
    MPI_Barrier(MPI_COMM_WORLD);
    double t_size = MPI_Wtime(), t_start = 0;
    MPI_Aint disp;
    MPI_Win win = make_window(bytes, &mem, &disp);
    MPI_Barrier(MPI_COMM_WORLD);
    double t_make = MPI_Wtime() - t_size;
    for (int i = 0; i < skip + loop; i++) {
        if (i == skip)
            t_start = MPI_Wtime();
        iteration(win, sbuf, size, disp);
    }
    double t = MPI_Wtime() - t_start;
    int bad = 0, any = 0;
    for (size_t i = 0; i < bytes && !bad; i++)
        bad = mem[i] != pattern(peer, size, i);
    MPI_Barrier(MPI_COMM_WORLD);
    double t_free = MPI_Wtime();
    free_window(&win, mem);
    MPI_Barrier(MPI_COMM_WORLD);
    t_free = MPI_Wtime() - t_free;
    t_size = MPI_Wtime() - t_size;
    free(sbuf);
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad)
        fprintf(stderr, "put_bibw: wrong result: %s window, %s, %ld B, in "
                        "rank %d's window\n", kind_names[kind],
                pscw ? "pscw" : "fence", size, rank);
    if (rank == 0 && !any) {
        printf("%s %s %ld %d %.2f %.4f %.4f %.4f\n", kind_names[kind],
               pscw ? "pscw" : "fence", size, loop,
               2.0 * (double)size * WINDOW_OPS * loop / t / 1e6, t_size,
               t_make, t_free);
        fflush(stdout);
    }
    return !any;
}

static void parse_args(int argc, char **argv)
{
    int c;
    const char *end;
    opterr = 0; /* usage() says it, once */
    while ((c = getopt(argc, argv, "w:s:m:")) != -1) {
        switch (c) {
        case 'w':
            for (kind = WIN_CREATE; kind <= WIN_DYNAMIC; kind++)
                if (!strcmp(optarg, kind_names[kind]))
                    break;
            if (kind > WIN_DYNAMIC)
                usage();
            break;
        case 's':
            if (strcmp(optarg, "fence") && strcmp(optarg, "pscw"))
                usage();
            pscw = !strcmp(optarg, "pscw");
            break;
        case 'm':
            max_size = bench_size(optarg, &end);
            if (max_size < 1 || *end || max_size > (16L << 20))
                usage();
            break;
        default: usage();
        }
    }
    if (optind < argc || nprocs != 2)
        usage();
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double t_total = MPI_Wtime();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    parse_args(argc, argv);
    peer = 1 - rank;
    MPI_Group world_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_incl(world_group, 1, &peer, &peer_group);
    MPI_Group_free(&world_group);
    if (rank == 0) {
        printf("# put_bibw: %s; np=%d window=%s sync=%s max=%ld\n",
               bench_library(), nprocs, kind_names[kind],
               pscw ? "pscw" : "fence", max_size);
        printf("# window sync size_B iterations MBps size_seconds "
               "make_seconds free_seconds\n");
        fflush(stdout);
    }
    int status = 0;
    for (long size = 1; size <= max_size && !status; size *= 2)
        if (!one_size(size))
            status = 3;
    if (rank == 0 && !status)
        printf("total %s %s %.3f\n", kind_names[kind], pscw ? "pscw" : "fence",
               MPI_Wtime() - t_total);
    MPI_Group_free(&peer_group);
    MPI_Finalize();
    return status;
}
