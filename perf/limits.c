/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * limits.c - the machine's own limits for point-to-point traffic, measured
 * next to the MPI runs so that every pt2pt figure can be read against them.
 * Plain C11 + Linux, no MPI.
 *
 *   limits [-t cacheline,memcpy,pvreadv] [-T MS] [-b BATCHES]
 *
 *   cacheline  one cache line bounced between two processes pinned to two
 *              different CPUs: A writes an odd value, B spins until it sees
 *              it and writes the next even value, A spins for that.  A round
 *              trip is two crossings; reported: one crossing, in ns.
 *   memcpy     one thread (pinned) copying SIZE bytes from one touched
 *              buffer to another, again and again; reported: bytes copied
 *              per second, in GB/s (10^9), for 8 KiB .. 64 MiB.  Buffers of
 *              up to 1 MiB stay in this core's L2, 4 MiB and 16 MiB in L3,
 *              64 MiB go to DRAM.
 *   pvreadv    process_vm_readv of SIZE bytes (one iovec each side) from a
 *              forked child's touched buffer into a touched local one, the
 *              single copy Open MPI's and MPICH's CMA paths use; reported in
 *              GB/s for 1 MiB and 16 MiB, and the cost of one 64-byte call
 *              in us (the fixed cost per call).
 *
 * -t picks the tests (default all three).  `limits -t cacheline -T 20 -b 5`
 * is the quick probe (~40 ms) pt2pt.sh runs before and after every MPI run:
 * on this VM the crossing flipped, every few seconds, between ~50 ns and
 * ~230 ns (2026-11-22, that probe in a loop; the hypervisor moves the two vCPUs nearer or farther apart), and
 * every MPI's latency and bandwidth flips with it.
 *
 * Each figure: a calibration (which warms up) sizes a batch to take
 * target/BATCHES (-T, default 200 ms; -b, default 15); the median over the
 * batches is reported with the minimum and maximum.  Output lines, like
 * pt2pt.c's:  TEST SIZE ITERS BATCHES MEDIAN MIN MAX UNIT
 * (for GB/s, MIN is the slowest batch).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_BATCHES 101

static double target_s = 0.2;
static int nbatches = 15;
static int cpu_a = -1, cpu_b = -1;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void pin(int cpu)
{
    if (cpu < 0)
        return;
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    if (sched_setaffinity(0, sizeof s, &s) != 0)
        perror("limits: sched_setaffinity");
}

static void order(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

static void report(const char *test, long size, long iters, double *v,
                   const char *unit)
{
    order(v, nbatches);
    double med = nbatches % 2 ? v[nbatches / 2]
                              : (v[nbatches / 2 - 1] + v[nbatches / 2]) / 2;
    printf("%s %ld %ld %d %.4g %.4g %.4g %s\n", test, size, iters, nbatches, med,
           v[0], v[nbatches - 1], unit);
    fflush(stdout);
}

/*
 * Run fn(arg, n) timed: calibrate n by doubling until a run takes a tenth
 * of the target, then nbatches runs of target/nbatches each.  secs[b] gets
 * the seconds of batch b; returns the iterations per batch.
 */
static long timed(double (*fn)(void *, long), void *arg, double *secs)
{
    long n = 1;
    double t;
    for (;;) {
        t = fn(arg, n);
        if (t >= target_s / 10 || n >= (1L << 40))
            break;
        n *= 2;
    }
    long iters = (long)(target_s / nbatches / (t / (double)n));
    if (iters < 1)
        iters = 1;
    for (int b = 0; b < nbatches; b++)
        secs[b] = fn(arg, iters);
    return iters;
}

/* ------------------------------------------------------------ cache line */

struct line {
    _Alignas(64) _Atomic long v;
    char pad[64 - sizeof(long)];
};

static double bounce(void *arg, long n)
{
    struct line *l = arg;
    long v = atomic_load_explicit(&l->v, memory_order_relaxed);
    double t0 = now();
    for (long i = 0; i < n; i++) {
        atomic_store_explicit(&l->v, v + 1, memory_order_release);
        v += 2;
        while (atomic_load_explicit(&l->v, memory_order_acquire) != v)
            ;
    }
    return now() - t0;
}

static void cacheline(void)
{
    if (cpu_b < 0) {
        printf("# cacheline: needs two CPUs; skipped\n");
        return;
    }
    struct line *l = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (l == MAP_FAILED) {
        perror("limits: mmap");
        return;
    }
    atomic_store(&l->v, 0);
    pid_t pid = fork();
    if (pid == 0) {
        pin(cpu_b);
        for (;;) {
            long v = atomic_load_explicit(&l->v, memory_order_acquire);
            if (v < 0)
                _exit(0);
            if (v & 1)
                atomic_store_explicit(&l->v, v + 1, memory_order_release);
        }
    }
    pin(cpu_a);
    double secs[MAX_BATCHES], v[MAX_BATCHES];
    long iters = timed(bounce, l, secs);
    atomic_store(&l->v, -1);
    waitpid(pid, NULL, 0);
    munmap(l, 4096);
    for (int b = 0; b < nbatches; b++)
        v[b] = secs[b] / (2.0 * iters) * 1e9;
    report("cacheline", 64, iters, v, "ns");
}

/* ------------------------------------------------------------ memcpy */

struct copy {
    char *dst, *src;
    size_t size;
};

static double copy_run(void *arg, long n)
{
    struct copy *c = arg;
    double t0 = now();
    for (long i = 0; i < n; i++) {
        memcpy(c->dst, c->src, c->size);
        __asm__ volatile("" ::: "memory"); /* every copy happens */
    }
    return now() - t0;
}

static void *touched(size_t n, int fill)
{
    void *p = aligned_alloc(4096, (n + 4095) / 4096 * 4096);
    if (p)
        memset(p, fill, n);
    return p;
}

static void memcpy_bw(size_t size)
{
    struct copy c = {touched(size, 0), touched(size, 1), size};
    if (!c.dst || !c.src) {
        printf("# memcpy %zu: out of memory\n", size);
        free(c.dst), free(c.src);
        return;
    }
    double secs[MAX_BATCHES], v[MAX_BATCHES];
    long iters = timed(copy_run, &c, secs);
    for (int b = 0; b < nbatches; b++)
        v[b] = (double)size * iters / secs[b] / 1e9;
    report("memcpy", (long)size, iters, v, "GB/s");
    free(c.dst), free(c.src);
}

/* ------------------------------------------------------------ process_vm_readv */

struct pvr {
    pid_t pid;
    void *remote, *local;
    size_t size;
    int err;
};

static double pvr_run(void *arg, long n)
{
    struct pvr *p = arg;
    struct iovec l = {p->local, p->size}, r = {p->remote, p->size};
    double t0 = now();
    for (long i = 0; i < n && !p->err; i++)
        if (process_vm_readv(p->pid, &l, 1, &r, 1, 0) != (ssize_t)p->size)
            p->err = errno ? errno : EIO;
    return now() - t0;
}

static void pvreadv(void)
{
    const size_t sizes[] = {64, 1 << 20, 16 << 20}, max = 16 << 20;
    void **addr = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int go[2];
    if (addr == MAP_FAILED || pipe(go) != 0) {
        perror("limits: pvreadv setup");
        return;
    }
    *addr = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        char c;
        pin(cpu_b);
        close(go[1]);
        void *buf = touched(max, 2);
        __atomic_store_n(addr, buf, __ATOMIC_RELEASE);
        (void)!read(go[0], &c, 1); /* sleeps until the parent is done */
        _exit(0);
    }
    close(go[0]);
    pin(cpu_a);
    struct pvr p = {pid, NULL, touched(max, 3), 0, 0};
    while (!(p.remote = __atomic_load_n(addr, __ATOMIC_ACQUIRE)))
        usleep(1000);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes && p.local; i++) {
        double secs[MAX_BATCHES], v[MAX_BATCHES];
        p.size = sizes[i];
        long iters = timed(pvr_run, &p, secs);
        if (p.err) {
            printf("# pvreadv: process_vm_readv failed: %s\n", strerror(p.err));
            break;
        }
        for (int b = 0; b < nbatches; b++)
            v[b] = sizes[i] < 4096 ? secs[b] / iters * 1e6
                                   : (double)sizes[i] * iters / secs[b] / 1e9;
        report("pvreadv", (long)sizes[i], iters, v, sizes[i] < 4096 ? "us" : "GB/s");
    }
    close(go[1]);
    waitpid(pid, NULL, 0);
    free(p.local);
    munmap(addr, 4096);
}

int main(int argc, char **argv)
{
    const char *tests = "cacheline,memcpy,pvreadv";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-t") && i + 1 < argc)
            tests = argv[++i];
        else if (!strcmp(argv[i], "-T") && i + 1 < argc)
            target_s = atof(argv[++i]) / 1000;
        else if (!strcmp(argv[i], "-b") && i + 1 < argc)
            nbatches = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: limits [-t cacheline,memcpy,pvreadv] [-T MS] "
                            "[-b BATCHES]\n");
            return 2;
        }
    }
    if (target_s <= 0 || nbatches < 1 || nbatches > MAX_BATCHES) {
        fprintf(stderr, "limits: bad -T or -b\n");
        return 2;
    }
    cpu_set_t s;
    if (sched_getaffinity(0, sizeof s, &s) == 0)
        for (int c = 0; c < CPU_SETSIZE && cpu_b < 0; c++)
            if (CPU_ISSET(c, &s)) {
                if (cpu_a < 0)
                    cpu_a = c;
                else
                    cpu_b = c;
            }
    printf("# limits: CPUs %d and %d; target_ms=%g batches=%d\n", cpu_a, cpu_b,
           target_s * 1000, nbatches);
    printf("# test size_B iters_per_batch batches median min max unit\n");
    fflush(stdout);
    if (strstr(tests, "cacheline"))
        cacheline();
    const size_t sizes[] = {8 << 10, 64 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20};
    for (size_t i = 0; strstr(tests, "memcpy") && i < sizeof sizes / sizeof *sizes; i++)
        memcpy_bw(sizes[i]);
    if (strstr(tests, "pvreadv"))
        pvreadv();
    return 0;
}
