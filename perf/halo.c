/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * halo.c - a halo exchange timed per iteration under five kinds of
 * synchronization: shmpi's RMA synchronization counters (a shmpi
 * extension) and the four a standard MPI program can use.
 *
 * The source builds unchanged with shmpi's ./mpicc, mpicc.openmpi and
 * mpicc.mpich; the counters scheme exists only where mpi.h defines
 * SHMPI_SYNC_COUNTERS.  perf/halo.sh builds it three ways and runs it.
 *
 *   halo -S SCHEME [-g ring,grid] [-s SIZES] [-T MS] [-b BATCHES]
 *        [-p PROBE_ROUNDS (0: no probe)] [-P NEAR_NS]
 *
 * Topologies (-g, one or both; each is set up, measured at every size and
 * torn down in turn):
 *   ring  1-D periodic: two neighbours, left and right (at np=2 both are
 *         the other rank)
 *   grid  2-D periodic 5-point stencil on MPI_Dims_create(np, 2): four
 *         neighbours, -x +x -y +y (at np=2 the grid is 2 x 1: -x and +x
 *         are the other rank, -y and +y this rank itself)
 * Each rank sends SIZE bytes to every neighbour per iteration, from a
 * buffer of its own per direction, into that neighbour's halo slot for
 * this direction (-s: comma list with K/M suffixes, default
 * 8,64,512,4K,64K).  The RMA schemes use one MPI_Win_allocate window per
 * topology: two arrays of flag words, then one slot per neighbour.
 *
 * Schemes (-S, one per run); per iteration, every rank:
 *   counters  (shmpi only) MPI_Win_sync_ops_init / _object_init requests
 *             both ways, the proposal's Example A3 made correct: signal
 *             "my halo slots are free" to every neighbour (sync_mode 0
 *             requests), wait until every neighbour has said so
 *             (dest_halos_free), MPI_Put to each, complete the put
 *             requests (each signals its neighbour's my_halos_updated),
 *             wait for my_halos_updated.  One request of each kind per
 *             neighbour process, as PSCW has each in its group once.  The
 *             requests carry the info key "restart", so none is started in
 *             the loop.  Started with MPI_Start/MPI_Startall in every
 *             iteration instead, as in the proposal, the iteration costs
 *             460 more instructions (1297 -> 1758, callgrind, np=1) and
 *             1.15-1.2x the time (np=2, near state, 8 B: ring 0.198 ->
 *             0.234 us, grid 0.266 -> 0.306 us; 2026-11-22).
 *   fence     MPI_Win_fence, the puts, MPI_Win_fence
 *   pscw      MPI_Win_post and MPI_Win_start (the group of neighbours),
 *             the puts, MPI_Win_complete, MPI_Win_wait
 *   flag      inside one MPI_Win_lock_all epoch per topology: put the
 *             iteration number into my "free" flag word in every
 *             neighbour process (MPI_Accumulate MPI_REPLACE) and flush;
 *             spin, reading my flags with MPI_Fetch_and_op MPI_NO_OP on
 *             myself, until every neighbour's "free" flag shows this
 *             iteration; MPI_Win_sync; put the halos and flush; put the
 *             iteration number into my "updated" flag in each neighbour
 *             and flush; spin until every "updated" flag shows it;
 *             MPI_Win_sync
 *   isend     MPI_Irecv from and MPI_Isend to every neighbour (tags tell
 *             the directions apart), MPI_Waitall
 *
 * Two more schemes need one synchronization per iteration instead of
 * two: the halo slots are double-buffered (iteration k puts into set
 * k % 2), so no "free" signal is needed - a neighbour puts into set p in
 * iteration k only after it saw this rank's signal of iteration k - 1,
 * which this rank sends after it is done with set p of iteration k - 2.
 *   counters1 (shmpi only) one counter per neighbour process, count 1
 *             (a counter counts signals, not who sent them: a shared one
 *             could be completed by one neighbour running a round ahead
 *             of another); per iteration MPI_Put to each, complete the
 *             put requests (signals), wait for my counters.  "restart".
 *   flag1     the flag scheme without its "free" flags: put the halos,
 *             flush, put the iteration number into my "updated" flag in
 *             each neighbour and flush, spin until every "updated" flag
 *             shows it, MPI_Win_sync
 *
 * How a cell (scheme, topology, size) is checked.  Every send buffer
 * holds a pattern of (position, stamp, sender, direction); before the
 * first iteration of a cell and before its last, every rank writes a new
 * stamp into its buffers, and after those iterations it compares every
 * byte of every halo slot with what its neighbour must have sent.  A
 * scheme that does not wait for the data would see the older stamp.  A
 * mismatch prints "halo: wrong result" on stderr and every rank exits
 * with status 3, so a broken scheme never prints a time.
 *
 * How a cell is timed, as coll.c and rma.c: a calibration, which is also
 * the warm-up, of batches of 1, 2, 4, ... iterations until one batch
 * takes a tenth of the target (-T, default 200 ms per cell); then BATCHES
 * timed batches (-b, default 9) of target/BATCHES each.  Every batch
 * starts after an MPI_Barrier; each rank times it with MPI_Wtime and the
 * batch's figure is the slowest rank's time (an MPI_Allreduce MAX outside
 * the timed region) over its iterations.  The last batch's last iteration
 * includes writing the new stamp (the verification comes after the clock
 * stops); at 64 KiB that is a few microseconds in tens of milliseconds.
 *
 * The machine's state (np=2 only), as in pt2pt.c (bench.h): ranks 0 and 1
 * bounce a cache line (-p, default 1000 round trips) before every timed
 * batch and after the last; a batch is "near" when both probes around it
 * read below -P NS (default 150) one way, "far" when both read at or
 * above, else "mixed"; "-" without a probe.
 *
 * A scheme this MPI lacks (counters outside shmpi) prints "halo:
 * unsupported: ..." on stderr and exits with status 4.  Any MPI error
 * aborts (the error handlers are MPI_ERRORS_ARE_FATAL).
 *
 * Output (stdout, rank 0), whitespace separated:
 *   # comment lines
 *   batch SCHEME TOPO NP SIZE US STATE PROBE_BEFORE_NS PROBE_AFTER_NS
 *       one per timed batch: the slowest rank's microseconds per iteration
 *   SCHEME TOPO NP SIZE ITERS_PER_BATCH BATCHES MEDIAN_US MIN_US MAX_US
 *       one per cell, over its batches
 */
#define _POSIX_C_SOURCE 200809L /* shm_open, ftruncate (bench.h), getopt */
#include <mpi.h>

#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_NB 4        /* neighbours of the grid */
#define MAX_SIZES 16
#define MAX_BATCHES 101
#define LINE 64
#define PAGE 4096
#define TAG_PROBE 7101

struct topo {
    const char *name;
    int nnb;          /* neighbours: 2 (ring) or 4 (grid) */
    int nb[MAX_NB];   /* the neighbour in direction d; d ^ 1 is the
                         opposite direction, so what this rank sends in
                         direction d lands in nb[d]'s slot d ^ 1 */
};

struct scheme {
    const char *name;
    int rma;                 /* works on the window */
    void (*open)(void);      /* per topology, after the window is made */
    void (*iterate)(void);   /* one halo exchange */
    void (*close)(void);     /* per topology, before the window is freed */
};

static int rank, nprocs;
static const struct scheme *scheme;
static struct topo topo;
static long sizes[MAX_SIZES];
static int nsizes;
static long size, max_size;        /* this cell's halo, the largest one */
static double target_s = 0.2;
static int nbatches = 9;
static long probe_rounds = 1000;
static double near_ns = 150;
static _Atomic long *probe_line;   /* NULL: no probe */

static MPI_Win win;
static unsigned char *win_mem;     /* flag lines, then the halo slots */
static MPI_Aint halo_off;          /* where the halo slots start in it */
static unsigned char *halo;        /* slot d (from nb[d]) at d * max_size;
                                      the double-buffered schemes point it
                                      at the set their last iteration
                                      filled */
static long rounds;                /* iterations of this topology so far */
static unsigned char *sendbuf[MAX_NB];

static void die(const char *msg)
{
    fprintf(stderr, "halo: rank %d: %s\n", rank, msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

/* Into halo set `set` (0, or 1 for the second set of the
 * double-buffered schemes). */
static void put_halo_set(int set)
{
    MPI_Aint at = halo_off + set * MAX_NB * max_size;
    for (int d = 0; d < topo.nnb; d++)
        MPI_Put(sendbuf[d], (int)size, MPI_BYTE, topo.nb[d],
                at + (d ^ 1) * max_size, (int)size, MPI_BYTE, win);
}

static void put_halos(void)
{
    put_halo_set(0);
}

/* The double-buffered schemes: this iteration's set; once it is in,
 * halo_filled() makes the checks read it. */
static int next_set(void)
{
    return (int)(++rounds & 1);
}

static void halo_filled(int set)
{
    halo = win_mem + halo_off + set * MAX_NB * max_size;
}

/* The neighbours, each once (at np=2 the two of a ring are one rank,
 * and so on): what synchronization is per process, not per direction.
 * Their count. */
static int distinct_neighbours(int *ranks)
{
    int n = 0;
    for (int d = 0; d < topo.nnb; d++) {
        int k = 0;
        while (k < n && ranks[k] != topo.nb[d])
            k++;
        if (k == n)
            ranks[n++] = topo.nb[d];
    }
    return n;
}

/* ------------------------------------------------------------ fence */

static void nothing(void)
{
}

static void fence_iterate(void)
{
    MPI_Win_fence(0, win);
    put_halos();
    MPI_Win_fence(0, win);
}

/* ------------------------------------------------------------ pscw */

static MPI_Group neighbours;

static void pscw_open(void)
{
    int ranks[MAX_NB], n = distinct_neighbours(ranks);
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, n, ranks, &neighbours);
    MPI_Group_free(&world);
}

static void pscw_iterate(void)
{
    MPI_Win_post(neighbours, 0, win);
    MPI_Win_start(neighbours, 0, win);
    put_halos();
    MPI_Win_complete(win);
    MPI_Win_wait(win);
}

static void pscw_close(void)
{
    MPI_Group_free(&neighbours);
}

/* ------------------------------------------------------------ flag */

/* Two arrays of flag words at the start of the window, a word per rank
 * of MPI_COMM_WORLD (each written by that rank only), each array on
 * lines of its own: FLAG_FREE[r] holds the last iteration in which
 * neighbour r said that its halo slots for me are free for my puts;
 * FLAG_UPDATED[r] the last iteration whose halos r has put into my
 * slots.  One signal per neighbour process, as PSCW and the counters. */
enum { FLAG_FREE = 0, FLAG_UPDATED = 1 };
static MPI_Aint flag_bytes;   /* one array, whole lines */
static long iteration;        /* of this topology, counted from 1 */
static int npeers, peers[MAX_NB];

static MPI_Aint flag_at(int which, int r)
{
    return which * flag_bytes + r * (MPI_Aint)sizeof(long);
}

static void flag_open(void)
{
    iteration = 0;
    npeers = distinct_neighbours(peers);
    MPI_Win_lock_all(0, win);
}

/* In every neighbour, my flag word `which` gets this iteration's number;
 * then flushed. */
static void flag_signal(int which)
{
    for (int k = 0; k < npeers; k++)
        MPI_Accumulate(&iteration, 1, MPI_LONG, peers[k], flag_at(which, rank),
                       1, MPI_LONG, MPI_REPLACE, win);
    MPI_Win_flush_all(win);
}

/* true when every neighbour's flag `which` shows this iteration.  The
 * flags are read with MPI_Fetch_and_op MPI_NO_OP on this rank itself, not
 * with loads after MPI_Win_sync: the neighbours write them with
 * MPI_Accumulate, and MPICH 4.0.2 completes those (the neighbour's flush)
 * only while this rank makes progress, which MPI_Win_sync does not: a rank
 * spinning on MPI_Win_sync waits forever for a neighbour that waits in
 * MPI_Win_flush_all for it. */
static int flags_reached(int which)
{
    long seen[MAX_NB];
    for (int k = 0; k < npeers; k++)
        MPI_Fetch_and_op(NULL, &seen[k], MPI_LONG, rank, flag_at(which, peers[k]),
                         MPI_NO_OP, win);
    MPI_Win_flush(rank, win);
    for (int k = 0; k < npeers; k++)
        if (seen[k] < iteration)
            return 0;
    return 1;
}

/* Spin until every neighbour's flag `which` shows this iteration; then
 * MPI_Win_sync, so that what this rank reads next (its halos, written by
 * the neighbours' puts that they flushed before the flag) is current. */
static void flag_wait(int which)
{
    while (!flags_reached(which))
        ;
    MPI_Win_sync(win);
}

static void flag_iterate(void)
{
    iteration++;
    flag_signal(FLAG_FREE);
    flag_wait(FLAG_FREE);
    put_halos();
    MPI_Win_flush_all(win);
    flag_signal(FLAG_UPDATED);
    flag_wait(FLAG_UPDATED);
}

static void flag_close(void)
{
    MPI_Win_unlock_all(win);
}

static void flag1_iterate(void)
{
    int set = next_set();
    iteration++;
    put_halo_set(set);
    MPI_Win_flush_all(win);
    flag_signal(FLAG_UPDATED);
    flag_wait(FLAG_UPDATED);
    halo_filled(set);
}

/* ------------------------------------------------------------ isend */

static void isend_iterate(void)
{
    MPI_Request req[2 * MAX_NB];
    MPI_Status st[2 * MAX_NB]; /* MPICH's header makes gcc warn about
                                  MPI_STATUSES_IGNORE in MPI_Waitall */
    int n = topo.nnb;
    for (int d = 0; d < n; d++)
        MPI_Irecv(halo + d * max_size, (int)size, MPI_BYTE, topo.nb[d], d,
                  MPI_COMM_WORLD, &req[d]);
    for (int d = 0; d < n; d++)
        MPI_Isend(sendbuf[d], (int)size, MPI_BYTE, topo.nb[d], d ^ 1,
                  MPI_COMM_WORLD, &req[n + d]);
    MPI_Waitall(2 * n, req, st);
}

/* ------------------------------------------------------------ counters */

#ifdef SHMPI_SYNC_COUNTERS
/* Mine: [UPDATED] counts the neighbours that have put my halos of this
 * iteration, [FREE] those whose halo slots are free for my puts; one
 * request per neighbour process (not per direction: one sync_ops request
 * covers every put to its target), as PSCW's group has each once. */
enum { UPDATED = 0, FREE = 1 };
static MPI_Sync counters[2];
static int nsync;                              /* distinct neighbours */
static MPI_Request updated_req, free_req;      /* on my counters */
static MPI_Request put_req[MAX_NB];            /* signal their UPDATED */
static MPI_Request free_sig[MAX_NB];           /* signal their FREE */

static void counters_open(void)
{
    int peer[MAX_NB];
    MPI_Sync *all = malloc(sizeof *all * 2 * (size_t)nprocs);
    MPI_Info restart;
    if (!all)
        die("out of memory");
    nsync = distinct_neighbours(peer);
    MPI_Win_alloc_sync_objects(2, counters, win, MPI_INFO_NULL);
    MPI_Allgather(counters, 2, MPI_HANDLE_SYNC, all, 2, MPI_HANDLE_SYNC,
                  MPI_COMM_WORLD);
    MPI_Info_create(&restart);
    MPI_Info_set(restart, "restart", "true");
    MPI_Win_sync_object_init(counters[UPDATED], nsync, win, restart, &updated_req);
    MPI_Win_sync_object_init(counters[FREE], nsync, win, restart, &free_req);
    for (int k = 0; k < nsync; k++) {
        const MPI_Sync *theirs = all + 2 * peer[k];
        MPI_Win_sync_ops_init(peer[k], MPI_MODE_WIN_PUT, theirs[UPDATED], win,
                              restart, &put_req[k]);
        MPI_Win_sync_ops_init(peer[k], 0, theirs[FREE], win, restart,
                              &free_sig[k]);
    }
    MPI_Info_free(&restart);
    free(all);
    /* started once: "restart" re-arms each one when Wait completes it */
    MPI_Start(&updated_req);
    MPI_Start(&free_req);
    MPI_Startall(nsync, put_req);
    MPI_Startall(nsync, free_sig);
}

static void counters_iterate(void)
{
    MPI_Waitall(nsync, free_sig, MPI_STATUSES_IGNORE);  /* mine are free */
    MPI_Wait(&free_req, MPI_STATUS_IGNORE);             /* theirs are */
    put_halos();
    MPI_Waitall(nsync, put_req, MPI_STATUSES_IGNORE);   /* theirs updated */
    MPI_Wait(&updated_req, MPI_STATUS_IGNORE);          /* mine are */
}

/* Every signal to my counters has come once the last iteration's Waits
 * returned, so they can go at once.  (Freeing an active restart request
 * ends its rounds: it signals nothing.) */
static void counters_close(void)
{
    MPI_Request_free(&updated_req);
    MPI_Request_free(&free_req);
    for (int k = 0; k < nsync; k++) {
        MPI_Request_free(&put_req[k]);
        MPI_Request_free(&free_sig[k]);
    }
    MPI_Win_free_sync_objects(2, counters, win);
}

/* counters1: mine[k] is signalled by peer k only (count 1). */
static MPI_Sync mine[MAX_NB];
static MPI_Request mine_req[MAX_NB];

static void counters1_open(void)
{
    int peer[MAX_NB];
    MPI_Sync *for_rank = calloc((size_t)nprocs, sizeof *for_rank);
    MPI_Sync *theirs = calloc((size_t)nprocs, sizeof *theirs);
    MPI_Info restart;
    if (!for_rank || !theirs)
        die("out of memory");
    nsync = distinct_neighbours(peer);
    MPI_Win_alloc_sync_objects(nsync, mine, win, MPI_INFO_NULL);
    for (int k = 0; k < nsync; k++)
        for_rank[peer[k]] = mine[k];
    /* theirs[r]: rank r's counter for me */
    MPI_Alltoall(for_rank, 1, MPI_HANDLE_SYNC, theirs, 1, MPI_HANDLE_SYNC,
                 MPI_COMM_WORLD);
    MPI_Info_create(&restart);
    MPI_Info_set(restart, "restart", "true");
    for (int k = 0; k < nsync; k++) {
        MPI_Win_sync_object_init(mine[k], 1, win, restart, &mine_req[k]);
        MPI_Win_sync_ops_init(peer[k], MPI_MODE_WIN_PUT, theirs[peer[k]], win,
                              restart, &put_req[k]);
    }
    MPI_Info_free(&restart);
    free(for_rank);
    free(theirs);
    MPI_Startall(nsync, mine_req);
    MPI_Startall(nsync, put_req);
}

static void counters1_iterate(void)
{
    int set = next_set();
    put_halo_set(set);
    MPI_Waitall(nsync, put_req, MPI_STATUSES_IGNORE);   /* theirs updated */
    MPI_Waitall(nsync, mine_req, MPI_STATUSES_IGNORE);  /* mine are */
    halo_filled(set);
}

static void counters1_close(void)
{
    for (int k = 0; k < nsync; k++) {
        MPI_Request_free(&mine_req[k]);
        MPI_Request_free(&put_req[k]);
    }
    MPI_Win_free_sync_objects(nsync, mine, win);
}
#endif

static const struct scheme schemes[] = {
#ifdef SHMPI_SYNC_COUNTERS
    {"counters", 1, counters_open, counters_iterate, counters_close},
    {"counters1", 1, counters1_open, counters1_iterate, counters1_close},
#else
    {"counters", 1, NULL, NULL, NULL},
    {"counters1", 1, NULL, NULL, NULL},
#endif
    {"fence", 1, nothing, fence_iterate, nothing},
    {"pscw", 1, pscw_open, pscw_iterate, pscw_close},
    {"flag", 1, flag_open, flag_iterate, flag_close},
    {"flag1", 1, flag_open, flag1_iterate, flag_close},
    {"isend", 0, nothing, isend_iterate, nothing},
};
#define NSCHEMES (int)(sizeof schemes / sizeof schemes[0])

/* ------------------------------------------------------------ topologies */

static void set_topology(const char *name)
{
    topo.name = name;
    if (!strcmp(name, "ring")) {
        topo.nnb = 2;
        topo.nb[0] = (rank + nprocs - 1) % nprocs;
        topo.nb[1] = (rank + 1) % nprocs;
        return;
    }
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Comm cart;
    MPI_Dims_create(nprocs, 2, dims);
    /* no reordering: ranks in cart are ranks in MPI_COMM_WORLD */
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    topo.nnb = 4;
    for (int dim = 0; dim < 2; dim++)
        MPI_Cart_shift(cart, dim, 1, &topo.nb[2 * dim], &topo.nb[2 * dim + 1]);
    MPI_Comm_free(&cart);
}

/* The window of the RMA schemes, or plain halo memory for isend; zeroed
 * (flags at 0: no iteration yet) before any rank can touch it. */
static void make_halos(void)
{
    size_t slots = 2 * (size_t)MAX_NB * (size_t)max_size; /* two sets */
    if (scheme->rma) {
        flag_bytes = (nprocs * (MPI_Aint)sizeof(long) + LINE - 1) / LINE * LINE;
        halo_off = (2 * flag_bytes + PAGE - 1) / PAGE * PAGE;
        MPI_Win_allocate(halo_off + (MPI_Aint)slots, 1, MPI_INFO_NULL,
                         MPI_COMM_WORLD, &win_mem, &win);
        memset(win_mem, 0, (size_t)halo_off + slots);
        halo = win_mem + halo_off;
        rounds = 0;
    } else {
        halo = bench_alloc_touched(slots, 0);
        if (!halo)
            die("out of memory");
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void free_halos(void)
{
    if (scheme->rma)
        MPI_Win_free(&win);
    else
        free(halo);
}

/* ------------------------------------------------------------ the checks */

static unsigned char pattern(long i, long stamp, int from, int dir)
{
    return (unsigned char)(i * 31 + stamp * 7 + from * 13 + dir * 53 + 1);
}

static void fill(long stamp)
{
    for (int d = 0; d < topo.nnb; d++)
        for (long i = 0; i < size; i++)
            sendbuf[d][i] = pattern(i, stamp, rank, d);
}

/* true when every halo slot holds what its neighbour sent with stamp */
static int halos_ok(long stamp)
{
    for (int d = 0; d < topo.nnb; d++) {
        const unsigned char *slot = halo + d * max_size;
        for (long i = 0; i < size; i++)
            if (slot[i] != pattern(i, stamp, topo.nb[d], d ^ 1))
                return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ timing */

/* One batch of n iterations; the slowest rank's seconds per iteration.
 * With a stamp, the last iteration sends it and *bad is set unless every
 * halo holds it afterwards. */
static double batch(long n, long stamp, int *bad)
{
    double t, slowest;
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    for (long i = 1; i < n; i++)
        scheme->iterate();
    if (stamp)
        fill(stamp);
    scheme->iterate();
    t = (MPI_Wtime() - t) / (double)n;
    if (stamp && !halos_ok(stamp))
        *bad = 1;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

static void report(long iters, int nb, double *us, const double *pr)
{
    for (int b = 0; b < nb; b++)
        printf("batch %s %s %d %ld %.4f %s %.0f %.0f\n", scheme->name, topo.name,
               nprocs, size, us[b], bench_state(pr[b], pr[b + 1], near_ns),
               pr[b], pr[b + 1]);
    double med = bench_median(us, nb);
    printf("%s %s %d %ld %ld %d %.4f %.4f %.4f\n", scheme->name, topo.name,
           nprocs, size, iters, nb, med, us[0], us[nb - 1]);
    fflush(stdout);
}

/* Check, calibrate and time one cell; false when its data were wrong. */
static int measure(void)
{
    double us[MAX_BATCHES], pr[MAX_BATCHES + 1];
    static long stamps;   /* the checks so far, the same on every rank */
    long n = 1;
    int bad = 0, any = 0;

    batch(1, ++stamps, &bad); /* the first iteration, checked */
    /* the calibration, which is also the warm-up */
    double per_iter = batch(n, 0, &bad);
    while (per_iter * (double)n < target_s / 10 && n < (1L << 30))
        per_iter = batch(n *= 2, 0, &bad);
    long iters = (long)(target_s / nbatches / per_iter);
    int nb = iters < 1 && nbatches > 3 ? 3 : nbatches;
    iters = iters < 1 ? 1 : iters;
    pr[0] = bench_probe(probe_line, rank, probe_rounds);
    for (int b = 0; b < nb; b++) {
        us[b] = batch(iters, b == nb - 1 ? ++stamps : 0, &bad) * 1e6;
        pr[b + 1] = bench_probe(probe_line, rank, probe_rounds);
    }
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad)
        fprintf(stderr, "halo: wrong result: %s, %s, np=%d, %ld B: rank %d's "
                        "halos do not hold what its neighbours sent\n",
                scheme->name, topo.name, nprocs, size, rank);
    if (!any && rank == 0)
        report(iters, nb, us, pr);
    return !any;
}

/* ------------------------------------------------------------ setup */

static void usage(void)
{
    if (rank == 0) {
        fprintf(stderr, "usage: halo -S SCHEME [-g ring,grid] [-s SIZES] [-T MS] "
                        "[-b BATCHES] [-p PROBE_ROUNDS] [-P NEAR_NS]; SCHEME one of");
        for (int i = 0; i < NSCHEMES; i++)
            fprintf(stderr, " %s", schemes[i].name);
        fprintf(stderr, "\n");
    }
    MPI_Finalize();
    exit(2);
}

static const struct scheme *find_scheme(const char *name)
{
    for (int k = 0; k < NSCHEMES; k++)
        if (!strcmp(name, schemes[k].name))
            return &schemes[k];
    usage();
    return NULL;
}

static const char *topologies = "ring,grid";

static void parse_args(int argc, char **argv)
{
    int c;
    nsizes = bench_sizes("8,64,512,4K,64K", sizes, MAX_SIZES);
    opterr = 0; /* usage() says it, once */
    while ((c = getopt(argc, argv, "S:g:s:T:b:p:P:")) != -1) {
        switch (c) {
        case 'S': scheme = find_scheme(optarg); break;
        case 'g': topologies = optarg; break;
        case 's': nsizes = bench_sizes(optarg, sizes, MAX_SIZES); break;
        case 'T': target_s = atof(optarg) / 1000; break;
        case 'b': nbatches = atoi(optarg); break;
        case 'p': probe_rounds = atol(optarg); break;
        case 'P': near_ns = atof(optarg); break;
        default: usage();
        }
    }
    if (optind < argc || !scheme || target_s <= 0 || nbatches < 1 ||
        nbatches > MAX_BATCHES || nsizes < 1 || probe_rounds < 0)
        usage();
    for (const char *t = topologies; *t; t += *t == ',')
        if (!strncmp(t, "ring", 4) || !strncmp(t, "grid", 4))
            t += 4;
        else
            usage();
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] < 1 || sizes[i] > (16L << 20))
            die("bad -s list (sizes from 1 B to 16M, like 8,4K,64K)");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    parse_args(argc, argv);
    if (!scheme->iterate) {
        if (rank == 0)
            fprintf(stderr, "halo: unsupported: %s: this MPI has no RMA "
                            "synchronization counters (SHMPI_SYNC_COUNTERS)\n",
                    scheme->name);
        MPI_Finalize();
        return 4;
    }
    max_size = 0;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] > max_size)
            max_size = sizes[i];
    for (int d = 0; d < MAX_NB; d++)
        if (!(sendbuf[d] = bench_alloc_touched((size_t)max_size, 0)))
            die("out of memory");
    if (nprocs == 2 && probe_rounds > 0)
        probe_line = bench_probe_map(rank, TAG_PROBE);

    if (rank == 0) {
        printf("# halo: %s; np=%d scheme=%s target_ms=%g batches=%d", bench_library(),
               nprocs, scheme->name, target_s * 1000, nbatches);
        if (probe_line)
            printf("; probe %ld round trips, near < %g ns\n", probe_rounds, near_ns);
        else
            printf("; no probe\n");
        printf("# batch scheme topology np size_B us state probe_before_ns "
               "probe_after_ns\n");
        printf("# scheme topology np size_B iters_per_batch batches median_us "
               "min_us max_us\n");
        fflush(stdout);
    }
    int status = 0;
    for (const char *t = topologies; *t && !status; t += 4 + (t[4] == ',')) {
        set_topology(t[0] == 'r' ? "ring" : "grid");
        make_halos();
        scheme->open();
        for (int i = 0; i < nsizes && !status; i++) {
            size = sizes[i];
            if (!measure())
                status = 3;
        }
        scheme->close();
        free_halos();
    }
    if (probe_line)
        munmap((void *)probe_line, 4096);
    for (int d = 0; d < MAX_NB; d++)
        free(sendbuf[d]);
    MPI_Finalize();
    return status;
}
