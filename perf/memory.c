/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * memory.c - an all-pairs exchange, for what a job of many ranks costs in
 * memory (perf/memory.sh, which samples /dev/shm and the processes from
 * outside while it runs).
 *
 * Standard MPI only, so the one source builds with shmpi's ./mpicc,
 * mpicc.openmpi and mpicc.mpich.
 *
 *   memory [-n SMALL] [-s SMALL_BYTES] [-l LARGE_BYTES] [-w PEERS]
 *
 * Every rank sends to every other rank SMALL (default 100) messages of
 * SMALL_BYTES (8) and one of LARGE_BYTES (64 KiB), and receives as many
 * from every other rank, so that every pair of ranks has exchanged both
 * sizes both ways: whatever an MPI sets up per pair (connections, rings,
 * segments) is set up for every pair.  The exchange goes by distance: in
 * step d rank r sends to r + d and receives from r - d (mod np), PEERS
 * (default 8) distances in flight at once (their MPI_Irecv posted first,
 * then the MPI_Isend, then one MPI_Waitall), which keeps every rank
 * busy with several peers without posting np x 101 receives at once.
 * Message k of a pair has tag k (the large one tag SMALL), and every
 * payload is a pattern of (source, destination, tag, byte), checked on
 * arrival together with the count: a wrong result prints "memory: wrong
 * result ..." on stderr and the job exits with status 3.
 *
 * After the exchange (before MPI_Finalize) each rank reads its VmPeak and
 * VmHWM from /proc/self/status.  Output (stdout, rank 0), one line:
 *   memory NP SECONDS VMPEAK_RANK0_KIB VMPEAK_MAX_KIB VMHWM_SUM_KIB
 * SECONDS: the exchange's wall time on rank 0 (from a barrier before it
 * to the end of rank 0's part); the VM figures are -1 where
 * /proc/self/status cannot be read.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, np;

static void die(const char *msg, int code)
{
    fprintf(stderr, "memory: %s (rank %d)\n", msg, rank);
    MPI_Abort(MPI_COMM_WORLD, code);
    exit(code);
}

static unsigned char pattern(int src, int dst, int tag, long i)
{
    return (unsigned char)(src * 131 + dst * 31 + tag * 7 + i * 3 + 1);
}

static void fill(unsigned char *p, long n, int src, int dst, int tag)
{
    for (long i = 0; i < n; i++)
        p[i] = pattern(src, dst, tag, i);
}

static int matches(const unsigned char *p, long n, int src, int dst, int tag)
{
    for (long i = 0; i < n; i++)
        if (p[i] != pattern(src, dst, tag, i))
            return 0;
    return 1;
}

/* VmPeak and VmHWM of this process, KiB; -1 when unknown. */
static void vm_figures(long *peak, long *hwm)
{
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    *peak = *hwm = -1;
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        sscanf(line, "VmPeak: %ld", peak);
        sscanf(line, "VmHWM: %ld", hwm);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    int nsmall = 100, window = 8;
    long small = 8, large = 64 * 1024;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            die("usage: memory [-n SMALL] [-s SMALL_BYTES] [-l LARGE_BYTES] [-w PEERS]", 2);
        if (!strcmp(a, "-n"))
            nsmall = atoi(v);
        else if (!strcmp(a, "-s"))
            small = atol(v);
        else if (!strcmp(a, "-l"))
            large = atol(v);
        else if (!strcmp(a, "-w"))
            window = atoi(v);
        else
            die("usage: memory [-n SMALL] [-s SMALL_BYTES] [-l LARGE_BYTES] [-w PEERS]", 2);
        i++;
    }
    if (nsmall < 0 || small < 1 || large < 1 || window < 1 || small > (1 << 20) ||
        large > (1 << 30))
        die("bad arguments", 2);
    if (window > np - 1)
        window = np > 1 ? np - 1 : 1;

    /* one message = one slot of its own: the SMALL small ones, then the
       large one, per distance in flight, for sending and for receiving */
    int per = nsmall + 1;
    long slot_bytes = (long)nsmall * small + large;
    unsigned char *sbuf = malloc((size_t)window * slot_bytes);
    unsigned char *rbuf = malloc((size_t)window * slot_bytes);
    MPI_Request *req = malloc(sizeof *req * 2 * (size_t)window * per);
    if (!sbuf || !rbuf || !req)
        die("out of memory", 2);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int d0 = 1; d0 < np; d0 += window) {
        int nd = np - d0 < window ? np - d0 : window, nreq = 0;
        for (int k = 0; k < nd; k++) {
            int src = (rank - (d0 + k) + np) % np;
            unsigned char *r = rbuf + k * slot_bytes;
            memset(r, 0, (size_t)slot_bytes);
            for (int t = 0; t < per; t++)
                MPI_Irecv(r + (long)t * small, (int)(t < nsmall ? small : large), MPI_BYTE,
                          src, t, MPI_COMM_WORLD, &req[nreq++]);
        }
        for (int k = 0; k < nd; k++) {
            int dst = (rank + d0 + k) % np;
            unsigned char *s = sbuf + k * slot_bytes;
            for (int t = 0; t < per; t++) {
                long n = t < nsmall ? small : large;
                fill(s + (long)t * small, n, rank, dst, t);
                MPI_Isend(s + (long)t * small, (int)n, MPI_BYTE, dst, t, MPI_COMM_WORLD,
                          &req[nreq++]);
            }
        }
        MPI_Status *st = malloc(sizeof *st * (size_t)nreq);
        if (!st)
            die("out of memory", 2);
        MPI_Waitall(nreq, req, st);
        for (int k = 0; k < nd; k++) {
            int src = (rank - (d0 + k) + np) % np;
            const unsigned char *r = rbuf + k * slot_bytes;
            for (int t = 0; t < per; t++) {
                long n = t < nsmall ? small : large;
                int count = -1;
                MPI_Get_count(&st[k * per + t], MPI_BYTE, &count);
                if (count != n || !matches(r + (long)t * small, n, src, rank, t)) {
                    char msg[160];
                    snprintf(msg, sizeof msg,
                             "wrong result: message %d of %ld B from rank %d "
                             "(count %d)", t, n, src, count);
                    die(msg, 3);
                }
            }
        }
        free(st);
    }
    double secs = MPI_Wtime() - t0;

    long peak, hwm, v[3], r[3];
    vm_figures(&peak, &hwm);
    v[0] = peak, v[1] = hwm, v[2] = hwm < 0 ? 1 : 0;
    MPI_Reduce(&v[0], &r[0], 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&v[1], &r[1], 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&v[2], &r[2], 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("memory %d %.3f %ld %ld %ld\n", np, secs, peak, r[0], r[2] ? -1 : r[1]);
        fflush(stdout);
    }
    free(req);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
