/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record.c - each thread's records and profile, and the rank's files.
 *
 * mpirun --trace/--profile names a private directory in SHMPI_TRACE_DIR
 * (launcher/trace_file.h has the files' layout); the rank is SHMPI_RANK,
 * both set by the launcher.  A thread's first MPI call gives it a chunk
 * of NREC records and a profile (calls, time per function), linked into
 * the rank's list under a mutex - the only lock, taken once per thread;
 * the wrappers then touch only their thread's own, inline (wrap.h: the
 * cursor, shmpi_trace_end); this file has the slow paths - a thread's
 * first call, a full chunk.  A full chunk is kept
 * and a new one started: the records stay in memory, up to KEEP chunks
 * a thread, and are written to DIR/RANK.ev (O_APPEND: the threads'
 * writes do not interleave) at MPI_Finalize (and MPI_Abort), with
 * DIR/RANK.prof - or when a thread has KEEP full chunks, all of them at
 * once.  A record is 32 bytes (launcher/trace_file.h): t0 counted from
 * the thread's base (a BASE record, written when t0 is 2^31 ticks or
 * more past it, or before it), and the values too wide for its
 * fields in a wide record right after it, in the same chunk (the
 * chunk's last slot is kept for it).  Writing each chunk as it filled
 * cost a traced halo iteration more than everything else (1-2 us a
 * record with DIR on the disk, 2026-11-30, loaded: each written page a
 * fresh page of the page cache).  Records are kept only when DIR holds a file named "events"
 * (--trace); --profile alone keeps the profile only.  Timestamps stay
 * counter ticks: the .prof file's header says how they map to
 * CLOCK_MONOTONIC (clock.c), and mpirun converts.
 *
 * Polls are coalesced: a call of a polling function (MPI_Test and its
 * forms, MPI_Iprobe, MPI_Win_test, ...) that found nothing, right after
 * one of the same function that found nothing - no other record of the
 * thread between them - extends that one's slice to its own end and adds
 * one to its polls, instead of a record of its own.  A loop of polls is
 * then one slice "MPI_Test, polls: N" (the time between the polls, the
 * program's, inside it), and one record, not N: the trace of a program
 * that spins on MPI_Test stays the size of the work it did.  The profile
 * still counts every call and only the time inside them.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wrap.h"

#define CHUNK (2u << 20)   /* a chunk's bytes: one transparent huge page */
#define NREC (CHUNK / sizeof(struct shmpi_trace_rec) - 1)   /* 65535 */
#define KEEP 128           /* full chunks a thread keeps (256 MiB) */

_Static_assert(sizeof(struct shmpi_trace_rec) == 32 &&
               sizeof(struct shmpi_trace_wide) == 32, "records of 32 B");

struct chunk {
    struct chunk *next;
    unsigned n;   /* its records, once full */
    struct shmpi_trace_rec rec[NREC] __attribute__((aligned(32)));
};
_Static_assert(sizeof(struct chunk) == CHUNK, "a chunk is one huge page");

/* A thread's: its cursor and profile (wrap.h) first, where
   shmpi_trace_me points. */
struct thread_log {
    struct shmpi_trace_thread pub;
    struct chunk *cur, *full, *last;   /* full: the kept ones, oldest first */
    unsigned nfull;
    struct thread_log *next;
};

static struct {
    char dir[4000];
    int rank;
    int on;              /* SHMPI_TRACE_DIR and SHMPI_RANK were given */
    int ev_fd;
    uint32_t dropped;
    uint64_t t_start, t_end;
    pthread_mutex_t lock;   /* threads, next_tid */
    struct thread_log *threads;
    unsigned next_tid;
} g = {.ev_fd = -1, .lock = PTHREAD_MUTEX_INITIALIZER};

int shmpi_trace_events;

_Thread_local struct shmpi_trace_thread *shmpi_trace_me;

__attribute__((constructor)) static void setup(void)
{
    const char *dir = getenv(SHMPI_TRACE_DIR_ENV);
    const char *rank = getenv("SHMPI_RANK");
    if (!dir || !rank || strlen(dir) >= sizeof g.dir)
        return;
    char *end;
    long r = strtol(rank, &end, 10);
    if (!*rank || *end || r < 0)
        return;
    strcpy(g.dir, dir);
    g.rank = (int)r;
    shmpi_trace_clock_start();
    char path[sizeof g.dir + 32];
    snprintf(path, sizeof path, "%s/events", g.dir);
    shmpi_trace_events = access(path, F_OK) == 0;
    snprintf(path, sizeof path, "%s/%d.ev", g.dir, g.rank);
    if (shmpi_trace_events)
        g.ev_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                       0600);
    g.on = 1;
}

static void append(const struct shmpi_trace_rec *rec, unsigned n)
{
    size_t len = n * sizeof *rec;
    if (g.ev_fd < 0 || write(g.ev_fd, rec, len) != (ssize_t)len)
        g.dropped += n;
}

/* A chunk: 2 MiB aligned, so that the kernel can back it with one
   transparent huge page (MADV_HUGEPAGE): about two page faults a chunk
   (perf stat of a rank's 10^6 records, 2026-11-30), not one every 128
   records (a fault costs ~80 us on this VM: 1.1-1.4 us a 64-byte
   record through fresh 4 KiB pages, MAP_POPULATE or not, 5 ns through a
   huge page the process had used before; 2026-11-30, loops writing 64 B
   at a time).  Memory the VM never touched stays dear whatever the page
   size (0.5-15 us a record, depending on the host's load): that is the
   floor of keeping every call (perf/README.md, trace).  NULL if no
   memory. */
static struct chunk *chunk_new(void)
{
    char *raw = mmap(NULL, 2 * CHUNK, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    char *p = (char *)(((uintptr_t)raw + CHUNK - 1) & ~(uintptr_t)(CHUNK - 1));
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    munmap(p + CHUNK, (size_t)(raw + CHUNK - p));
    madvise(p, CHUNK, MADV_HUGEPAGE);   /* a hint: 4 KiB pages otherwise */
    return (struct chunk *)p;
}

/* The records of t's current chunk. */
static unsigned used(const struct thread_log *t)
{
    return t->cur ? (unsigned)(t->pub.next - t->cur->rec) : 0;
}

/* t's cursor at the start of chunk c (NULL: no records kept); its last
   slot is for a wide record only. */
static void start_chunk(struct thread_log *t, struct chunk *c)
{
    t->cur = c;
    t->pub.next = c ? c->rec : NULL;
    t->pub.end = c ? c->rec + NREC - 1 : NULL;
    t->pub.poll = NULL;
}

/* Every record t holds to the file; its current chunk reused. */
static void write_out(struct thread_log *t)
{
    for (struct chunk *c = t->full, *next; c; c = next) {
        next = c->next;
        append(c->rec, c->n);
        munmap(c, sizeof *c);
    }
    t->full = t->last = NULL;
    t->nfull = 0;
    if (!t->cur)
        return;
    append(t->cur->rec, used(t));
    start_chunk(t, t->cur);
}

/* t's chunk is full: kept, and a new one started; or, KEEP kept or no
   memory, all written out. */
static void chunk_full(struct thread_log *t)
{
    struct chunk *c = t->nfull < KEEP ? chunk_new() : NULL;
    if (!c) {
        write_out(t);
        return;
    }
    t->cur->next = NULL;
    t->cur->n = used(t);
    if (t->last)
        t->last->next = t->cur;
    else
        t->full = t->cur;
    t->last = t->cur;
    t->nfull++;
    start_chunk(t, c);
}

static struct thread_log *thread_log_new(void)
{
    struct thread_log *t = calloc(1, sizeof *t);
    struct chunk *c = t && shmpi_trace_events ? chunk_new() : NULL;
    if (!t || (shmpi_trace_events && !c)) {   /* --profile: no chunk */
        free(t);
        return NULL;
    }
    start_chunk(t, c);
    pthread_mutex_lock(&g.lock);
    t->pub.tid = (uint8_t)g.next_tid++;
    t->next = g.threads;
    g.threads = t;
    pthread_mutex_unlock(&g.lock);
    return t;
}

/* This thread's, made at its first MPI call (NULL if no memory, or the
   process is not a rank of a traced job). */
static struct thread_log *thread_log(void)
{
    if (!shmpi_trace_me && g.on) {
        struct thread_log *t = thread_log_new();
        shmpi_trace_me = t ? &t->pub : NULL;
    }
    return (struct thread_log *)shmpi_trace_me;
}

/* shmpi_trace_end's first call on this thread. */
struct shmpi_trace_rec *shmpi_trace_end_slow(int fn, uint64_t t0,
                                             uint64_t t1, int rc)
{
    return thread_log() ? shmpi_trace_end(fn, t0, t1, rc) : NULL;
}

/* The wide record after r, made if r has none yet: r is then the
   thread's last record (its fields are filled right after it is made),
   and the chunk's slot past end is free for it. */
static struct shmpi_trace_wide *widen(struct shmpi_trace_rec *r)
{
    if (r + 1 != shmpi_trace_me->next)
        return (struct shmpi_trace_wide *)(r + 1);
    struct shmpi_trace_wide *w =
        (struct shmpi_trace_wide *)shmpi_trace_me->next++;
    *w = (struct shmpi_trace_wide){0};
    return w;
}

/* shmpi_trace_new's record when the fast path cannot make it: a full
   chunk, a t0 that does not fit (a BASE record first), a dt that does
   not fit (escaped, in a wide record).  NULL when no records are
   kept. */
struct shmpi_trace_rec *shmpi_trace_new_slow(struct shmpi_trace_thread *p,
                                             int fn, uint64_t t0, uint64_t t1)
{
    if (!p->next)
        return NULL;
    if (p->end - p->next < 2)   /* a BASE, the record, its wide */
        chunk_full((struct thread_log *)p);
    if ((t0 - p->base) >> 31) {   /* as shmpi_trace_new checks */
        *p->next++ = (struct shmpi_trace_rec){
            .t0 = (uint32_t)t0, .dt = (uint32_t)(t0 >> 32),
            .kind = SHMPI_TRACE_BASE, .tid = p->tid};
        p->base = t0;
    }
    struct shmpi_trace_rec *r = shmpi_trace_new(p, fn, t0, t0);
    if (t1 - t0 >= UINT32_MAX) {
        widen(r)->dt = t1 - t0;
        r->dt = UINT32_MAX;
    } else {
        r->dt = (uint32_t)(t1 - t0);
    }
    return r;
}

/* v kept whole in *w and escaped as esc in *field, when outside [-lim,
   lim). */
#define ESCAPE(v, lim, esc, field, w)                                     \
    do {                                                                  \
        if ((v) < -(lim) || (v) >= (lim)) {                               \
            (w) = (v);                                                    \
            (field) = (esc);                                              \
        }                                                                 \
    } while (0)

void shmpi_trace_widen(struct shmpi_trace_rec *r, int64_t count,
                       int64_t bytes, int64_t peer, int64_t wpeer)
{
    struct shmpi_trace_wide *w = widen(r);
    ESCAPE(count, SHMPI_TRACE_LIM32, SHMPI_TRACE_ESC32, r->count, w->count);
    ESCAPE(bytes, SHMPI_TRACE_LIM32, SHMPI_TRACE_ESC32, r->bytes, w->bytes);
    ESCAPE(peer, SHMPI_TRACE_LIM16, SHMPI_TRACE_ESC16, r->peer, w->peer);
    ESCAPE(wpeer, SHMPI_TRACE_LIM16, SHMPI_TRACE_ESC16, r->wpeer, w->wpeer);
}

/* A polling call: found says it found what it looked for (a completed
   request, a message, ...).  One that did not, after one of the same
   function that did not, grows that one's record and returns NULL. */
struct shmpi_trace_rec *shmpi_trace_poll(int fn, uint64_t t0, uint64_t t1,
                                         int rc, int found)
{
    struct shmpi_trace_thread *t = shmpi_trace_me;
    struct shmpi_trace_rec *p = t ? t->poll : NULL;
    uint64_t dt = p ? t1 - t->base - p->t0 : 0;
    if (rc == MPI_SUCCESS && !found && p && p == t->next - 1 && p->fn == fn &&
        dt < UINT32_MAX && p->count < INT32_MAX) {
        t->prof[fn].calls++;
        t->prof[fn].ticks += t1 - t0;
        p->dt = (uint32_t)dt;
        p->count = p->kind & SHMPI_TRACE_POLLS ? p->count + 1 : 2;
        p->kind |= SHMPI_TRACE_POLLS;
        return NULL;
    }
    struct shmpi_trace_rec *r = shmpi_trace_end(fn, t0, t1, rc);
    if (r && !found)
        shmpi_trace_me->poll = r;
    return r;
}

/* A call on a window: its id, and its target rank as a world rank. */
void shmpi_trace_window(struct shmpi_trace_args *a, MPI_Win win)
{
    a->tag = (int32_t)(uint32_t)win->id;   /* no call on a window has a tag */
    a->kind |= SHMPI_TRACE_ONWIN;
    a->comm = shmpi_trace_context(win->comm);
    if (a->peer != MPI_PROC_NULL)
        shmpi_trace_peer(a, win->comm, a->peer);
}

void shmpi_trace_started(uint64_t t0)
{
    g.t_start = t0;
}

static void write_prof(void)
{
    struct shmpi_trace_head h = {
        .magic = SHMPI_TRACE_MAGIC, .rank = g.rank, .nfn = SHMPI_TRACE_NFN,
        .dropped = g.dropped, .t_start = shmpi_trace_clock_at(g.t_start),
        .t_end = shmpi_trace_clock_at(g.t_end)};
    shmpi_trace_clock_map(&h);
    static struct shmpi_trace_fn fns[SHMPI_TRACE_NFN];
    for (int i = 0; i < SHMPI_TRACE_NFN; i++) {
        snprintf(fns[i].name, sizeof fns[i].name, "%s",
                 shmpi_trace_fn_names[i]);
        fns[i].calls = fns[i].ns = 0;
        for (struct thread_log *t = g.threads; t; t = t->next) {
            fns[i].calls += t->pub.prof[i].calls;
            fns[i].ns += t->pub.prof[i].ticks;
        }
        fns[i].ns = shmpi_trace_clock_span(fns[i].ns);
    }
    char path[sizeof g.dir + 32], tmp[sizeof g.dir + 32];
    snprintf(path, sizeof path, "%s/%d.prof", g.dir, g.rank);
    snprintf(tmp, sizeof tmp, "%s/%d.prof.tmp", g.dir, g.rank);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    int ok = write(fd, &h, sizeof h) == (ssize_t)sizeof h &&
             write(fd, fns, sizeof fns) == (ssize_t)sizeof fns;
    close(fd);
    if (ok)
        rename(tmp, path);   /* whole, or not there */
}

/* MPI_Finalize's end (or MPI_Abort's start): every thread's records to
   the file, then the profile.  The other threads have made their last
   MPI call by now (MPI-3.1 8.7: MPI_Finalize is the last one). */
void shmpi_trace_finished(void)
{
    if (!g.on)
        return;
    g.t_end = shmpi_trace_now();
    pthread_mutex_lock(&g.lock);
    for (struct thread_log *t = g.threads; t; t = t->next) {
        if (shmpi_trace_events)
            write_out(t);
        start_chunk(t, NULL);   /* later calls: the profile only */
    }
    if (g.ev_fd >= 0)
        close(g.ev_fd);
    g.ev_fd = -1;
    write_prof();
    g.on = 0;
    pthread_mutex_unlock(&g.lock);
}
