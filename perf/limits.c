/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * limits.c - the machine's own limits for point-to-point traffic, measured
 * next to the MPI runs so that every pt2pt figure can be read against them.
 * Plain C11 + Linux, no MPI.
 *
 *   limits [-t cacheline,memcpy,pvreadv,stream,tsc] [-T MS] [-b BATCHES]
 *          [-r RING_BYTES] [-P NEAR_NS]
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
 *   stream     one-way streaming of SIZE-byte records (1 B .. 16 KiB)
 *              between two processes pinned to the two CPUs, through a ring
 *              of -r bytes in shared memory (default 256 KiB: faster at 4
 *              and 16 KiB than 64 KiB, the size of shmpi's hot rings in
 *              pt2pt.c's bw test, and as fast below), and no MPI: the
 *              producer copies the payload in from a private buffer and
 *              publishes the record with a release store of its flag word
 *              (records back to back, flag in the first 8 bytes, rounded
 *              up to 16 bytes: 1 and 8 B payloads make 16 B records); the
 *              consumer polls the next record's flag (acquire), copies the
 *              payload out to a private buffer, and gives the space back
 *              through a consumer index.  It is the best a simple ring can
 *              do: what any shared-memory MPI's streaming of SIZE-byte
 *              messages pays at least (the same copies in and out, the
 *              same cache lines crossing), without headers, matching or
 *              requests.  Reported: payload bytes per second in GB/s, like
 *              pt2pt.c's bw, and, since the machine has two states (below),
 *              one line per timed batch labelled as pt2pt.c labels its
 *              batches: the same probe, 1000 cache-line round trips
 *              between the two processes, before the first batch and after
 *              each; near when both sides read below -P NEAR_NS (default
 *              150), far when both read at or above, else mixed:
 *                batch stream SIZE GBPS GB/s STATE PROBE_BEFORE PROBE_AFTER
 *
 *   tsc        the clock mpirun --trace's wrappers read twice per MPI call
 *              (tools/trace/clock.c): the time-stamp counter (rdtsc) where
 *              CPUID says it is invariant, else clock_gettime
 *              (CLOCK_MONOTONIC); read back to back, as often as a batch
 *              takes, pinned to the first CPU (where rank 0 runs under
 *              --bind-to core); reported: one read, in ns.  It is a floor
 *              of any in-process tracer that draws each call as a slice
 *              (perf/trace.sh prints it beside every cell).  Not in the
 *              default list: asked for by name.
 *
 * -t picks the tests (default the first four).  `limits -t cacheline -T 20 -b 5`
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
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

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
 * The iterations of fn(arg, n) a batch takes: n doubled until a run takes
 * a tenth of the target, then scaled to target/nbatches.
 */
static long calibrate(double (*fn)(void *, long), void *arg)
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
    return iters < 1 ? 1 : iters;
}

/* Run fn(arg, n) timed: calibrated, then nbatches runs of target/nbatches
   each.  secs[b] gets the seconds of batch b; returns the iterations per
   batch. */
static long timed(double (*fn)(void *, long), void *arg, double *secs)
{
    long iters = calibrate(fn, arg);
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

/* ------------------------------------------------------------ tsc */

static volatile uint64_t clock_sink; /* the reads' sum: no read is dropped */

#if defined(__x86_64__) || defined(__i386__)
/* The test of tools/trace/clock.c, which this program cannot link: CPUID
   leaf 0x80000007, EDX bit 8 "TscInvariant" (AMD APM 2.16.4; Intel SDM
   17.17.1). */
static int tsc_invariant(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8));
}

/* As the wrappers read it: a bare rdtsc, no fence around it. */
static double rdtsc_run(void *arg, long n)
{
    (void)arg;
    uint64_t sum = 0;
    double t0 = now();
    for (long i = 0; i < n; i++)
        sum += __builtin_ia32_rdtsc();
    double t = now() - t0;
    clock_sink = sum;
    return t;
}
#endif

static double mono_run(void *arg, long n)
{
    (void)arg;
    uint64_t sum = 0;
    struct timespec ts;
    double t0 = now();
    for (long i = 0; i < n; i++) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sum += (uint64_t)ts.tv_nsec;
    }
    double t = now() - t0;
    clock_sink = sum;
    return t;
}

static void tsc(void)
{
    double (*run)(void *, long) = mono_run;
#if defined(__x86_64__) || defined(__i386__)
    if (tsc_invariant())
        run = rdtsc_run;
#endif
    pin(cpu_a);
    printf("# tsc: %s, back to back on CPU %d\n",
           run == mono_run ? "clock_gettime(CLOCK_MONOTONIC) (no invariant TSC)"
                           : "rdtsc (invariant TSC)", cpu_a);
    double secs[MAX_BATCHES], v[MAX_BATCHES];
    long iters = timed(run, NULL, secs);
    for (int b = 0; b < nbatches; b++)
        v[b] = secs[b] / (double)iters * 1e9;
    report("tsc", 0, iters, v, "ns");
}

/* ------------------------------------------------------------ stream */

/*
 * One shared mapping: the control lines, then the ring.  Positions are
 * absolute byte counts (never wrap); a record at position p lives at
 * p % ring_bytes (a power of two: a mask, no division per record).  The
 * flag of a record is p | 1 ("a record starts here"), or p | 2 ("no room
 * before the end: go to the next lap"); the payload pattern (0x5a bytes)
 * never reads as either.
 */
enum { OP_STREAM = 1, OP_PROBE, OP_STOP };

struct stream_shm {
    _Alignas(64) _Atomic long cmd; /* bumped by the producer, after op and n */
    long op, n, size, ring;
    _Alignas(64) _Atomic long done; /* = cmd when the consumer finished it */
    _Alignas(64) _Atomic long head; /* bytes the consumer gave back */
    struct line probe;
    _Alignas(4096) char ring_mem[];
};

static long ring_bytes = 256 << 10;
static double near_ns = 150;
static const long probe_rounds = 1000;

static long rec_bytes(long size) { return (8 + size + 15) & ~15L; }

/* Producer: n records of size bytes copied in from src + 8 (the private
   buffers are used from 8 bytes into a line, as the payload starts after
   its flag, so that memcpy sees source and destination equally aligned:
   16 KiB records streamed 10-12 GB/s near from page-aligned private
   buffers, 15-16 from these, 2026-11-29, side by side).  The consumer's
   head is read (acquire: the space it frees was read before it gave it
   back) only when the space known free runs out.  Inlined into each call
   with a constant size: the copy of a short payload is then a move or two
   rather than a call to memcpy (1 B, 8 B and 256 B stream 2-4x faster,
   2026-11-29, variants of this file side by side). */
static inline __attribute__((always_inline)) void
produce(struct stream_shm *m, const char *src, long size, long n, long *tail,
        long *head)
{
    const long rec = rec_bytes(size), ring = m->ring, mask = ring - 1;
    long t = *tail, h = *head;
    for (long i = 0; i < n; i++) {
        long off = t & mask, need = off + rec > ring ? ring - off + rec : rec;
        while (t + need - h > ring)
            h = atomic_load_explicit(&m->head, memory_order_acquire);
        if (need != rec) { /* the lap's end: a skip flag, then lap start */
            atomic_store_explicit((_Atomic long *)(m->ring_mem + off), t | 2,
                                  memory_order_release);
            t += ring - off;
            off = 0;
        }
        char *r = m->ring_mem + off;
        memcpy(r + 8, src + 8, (size_t)size);
        /* release: the payload is visible before the flag that says so */
        atomic_store_explicit((_Atomic long *)r, t | 1, memory_order_release);
        t += rec;
    }
    *tail = t, *head = h;
}

/* Consumer: n records copied out to dst.  The head goes back to the
   producer once per STREAM_GIVE_BACK of the ring and whenever the next
   record is not there yet (nothing to do but wait anyway), not per record:
   a store per record to a line the producer reads keeps that line moving
   between the CPUs: once per record streamed 1 and 64 B records 2-20x
   slower (2026-11-29, 64 KiB ring, side by side).  Pausing in the wait
   or not made no difference measured; prefetching the record's lines, or
   lines ahead, before the copies made none or cost. */
static inline __attribute__((always_inline)) void
consume(struct stream_shm *m, char *dst, long size, long n, long *pos)
{
    const long rec = rec_bytes(size), ring = m->ring, mask = ring - 1;
    const long chunk = ring / 4;
    long p = *pos, given = p;
    for (long i = 0; i < n; i++) {
        for (;;) {
            _Atomic long *f = (_Atomic long *)(m->ring_mem + (p & mask));
            /* acquire: the payload after the flag is read after it */
            long v = atomic_load_explicit(f, memory_order_acquire);
            if (v == (p | 1))
                break;
            if (v == (p | 2)) {
                p += ring - (p & mask);
                continue;
            }
            if (given != p) { /* release: the records were read */
                atomic_store_explicit(&m->head, p, memory_order_release);
                given = p;
            }
            while (atomic_load_explicit(f, memory_order_relaxed) == v)
                __builtin_ia32_pause();
        }
        memcpy(dst + 8, m->ring_mem + (p & mask) + 8, (size_t)size);
        __asm__ volatile("" ::: "memory"); /* every copy happens */
        p += rec;
        if (p - given >= chunk) {
            atomic_store_explicit(&m->head, p, memory_order_release);
            given = p;
        }
    }
    atomic_store_explicit(&m->head, p, memory_order_release);
    *pos = p;
}

static void stream_child(struct stream_shm *m)
{
    long seen = 0, pos = 0;
    char *dst = touched(1 << 20, 4);
    pin(cpu_b);
    for (;;) {
        long c;
        while ((c = atomic_load_explicit(&m->cmd, memory_order_acquire)) == seen)
            __builtin_ia32_pause();
        seen = c;
        if (m->op == OP_STOP)
            _exit(0);
        if (m->op == OP_STREAM)
            switch (m->size) { /* the sizes streamed, as constants */
            case 1: consume(m, dst, 1, m->n, &pos); break;
            case 8: consume(m, dst, 8, m->n, &pos); break;
            case 64: consume(m, dst, 64, m->n, &pos); break;
            case 256: consume(m, dst, 256, m->n, &pos); break;
            default: consume(m, dst, m->size, m->n, &pos); break;
            }
        else if (m->op == OP_PROBE) /* answer until the producer says -1 */
            for (long v; (v = atomic_load_explicit(&m->probe.v,
                                                   memory_order_acquire)) != -1;)
                if (v & 1)
                    atomic_store_explicit(&m->probe.v, v + 1, memory_order_release);
        atomic_store_explicit(&m->done, c, memory_order_release);
    }
}

struct stream_run {
    struct stream_shm *m;
    char *src;
    long size, tail, head;
};

/* Tell the consumer what to do (release: op, n and size before cmd). */
static void stream_cmd(struct stream_shm *m, long op, long n, long size)
{
    m->op = op, m->n = n, m->size = size;
    atomic_store_explicit(&m->cmd, atomic_load(&m->cmd) + 1, memory_order_release);
}

static void stream_wait(struct stream_shm *m)
{
    long c = atomic_load_explicit(&m->cmd, memory_order_relaxed);
    while (atomic_load_explicit(&m->done, memory_order_acquire) != c)
        ;
}

/* n records, from the command to the consumer's "done" (one crossing more
   than the records themselves). */
static double stream_run(void *arg, long n)
{
    struct stream_run *s = arg;
    double t0 = now();
    stream_cmd(s->m, OP_STREAM, n, s->size);
    switch (s->size) { /* as the consumer's */
    case 1: produce(s->m, s->src, 1, n, &s->tail, &s->head); break;
    case 8: produce(s->m, s->src, 8, n, &s->tail, &s->head); break;
    case 64: produce(s->m, s->src, 64, n, &s->tail, &s->head); break;
    case 256: produce(s->m, s->src, 256, n, &s->tail, &s->head); break;
    default: produce(s->m, s->src, s->size, n, &s->tail, &s->head); break;
    }
    stream_wait(s->m);
    return now() - t0;
}

/* The state probe of pt2pt.c: 1000 cache-line round trips, ns one way. */
static double stream_probe(struct stream_shm *m)
{
    atomic_store(&m->probe.v, 0);
    stream_cmd(m, OP_PROBE, 0, 0);
    double t = bounce(&m->probe, probe_rounds);
    atomic_store_explicit(&m->probe.v, -1, memory_order_release);
    stream_wait(m);
    return t / (2.0 * probe_rounds) * 1e9;
}

static const char *state_of(double before, double after)
{
    return before < near_ns && after < near_ns     ? "near"
           : before >= near_ns && after >= near_ns ? "far"
                                                   : "mixed";
}

static void stream_size(struct stream_run *s, long size)
{
    double secs[MAX_BATCHES], v[MAX_BATCHES], pr[MAX_BATCHES + 1];
    s->size = size;
    long iters = calibrate(stream_run, s);
    pr[0] = stream_probe(s->m);
    for (int b = 0; b < nbatches; b++) {
        secs[b] = stream_run(s, iters);
        pr[b + 1] = stream_probe(s->m);
    }
    for (int b = 0; b < nbatches; b++) {
        v[b] = (double)size * iters / secs[b] / 1e9;
        printf("batch stream %ld %.4g GB/s %s %.0f %.0f\n", size, v[b],
               state_of(pr[b], pr[b + 1]), pr[b], pr[b + 1]);
    }
    report("stream", size, iters, v, "GB/s");
}

static void stream(void)
{
    if (cpu_b < 0) {
        printf("# stream: needs two CPUs; skipped\n");
        return;
    }
    size_t len = sizeof(struct stream_shm) + (size_t)ring_bytes;
    struct stream_shm *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    struct stream_run s = {m, touched(1 << 20, 0x5a), 0, 0, 0};
    if (m == MAP_FAILED || !s.src) {
        perror("limits: stream setup");
        return;
    }
    m->ring = ring_bytes;
    memset(m->ring_mem, 0, (size_t)ring_bytes);
    printf("# stream: ring %ld bytes; records: an 8-byte flag, then the "
           "payload, rounded up to 16 bytes\n", ring_bytes);
    pid_t pid = fork();
    if (pid == 0)
        stream_child(m);
    pin(cpu_a);
    const long sizes[] = {1, 8, 64, 256, 1 << 10, 4 << 10, 16 << 10};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        if (rec_bytes(sizes[i]) <= ring_bytes / 2)
            stream_size(&s, sizes[i]);
    stream_cmd(m, OP_STOP, 0, 0);
    waitpid(pid, NULL, 0);
    munmap(m, len);
    free(s.src);
}

int main(int argc, char **argv)
{
    const char *tests = "cacheline,memcpy,pvreadv,stream";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-t") && i + 1 < argc)
            tests = argv[++i];
        else if (!strcmp(argv[i], "-T") && i + 1 < argc)
            target_s = atof(argv[++i]) / 1000;
        else if (!strcmp(argv[i], "-b") && i + 1 < argc)
            nbatches = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            ring_bytes = atol(argv[++i]);
        else if (!strcmp(argv[i], "-P") && i + 1 < argc)
            near_ns = atof(argv[++i]);
        else {
            fprintf(stderr, "usage: limits [-t cacheline,memcpy,pvreadv,stream,tsc] "
                            "[-T MS] [-b BATCHES] [-r RING_BYTES] [-P NEAR_NS]\n");
            return 2;
        }
    }
    if (target_s <= 0 || nbatches < 1 || nbatches > MAX_BATCHES ||
        ring_bytes < 4096 || (ring_bytes & (ring_bytes - 1)) || near_ns <= 0) {
        fprintf(stderr, "limits: bad -T, -b, -r or -P\n");
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
    if (strstr(tests, "stream"))
        stream();
    if (strstr(tests, "tsc"))
        tsc();
    return 0;
}
