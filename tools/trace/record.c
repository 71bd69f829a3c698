/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record.c - each thread's records and profile, and the rank's files.
 *
 * mpirun --trace/--profile names a private directory in SHMPI_TRACE_DIR
 * (launcher/trace_file.h has the files' layout); the rank is SHMPI_RANK,
 * both set by the launcher.  A thread's first MPI call gives it a chunk
 * of NREC records and a profile (calls, time per function), linked into
 * the rank's list under a mutex, taken once per thread; the wrappers
 * then touch only their thread's own, inline (wrap.h: the cursor,
 * shmpi_trace_end); this file has the slow paths - a thread's first
 * call, a full chunk.  A full chunk goes to the rank's writer thread,
 * which appends it to DIR/RANK.ev (O_APPEND: the threads' chunks do not
 * interleave) and hands it back to be filled again, while the thread
 * goes on in another: a rank holds at most SPARE chunks a thread (8
 * MiB), however long it runs, and its records reach the disk as it
 * runs.  MPI_Finalize (and MPI_Abort) writes the chunks being filled,
 * after those the writer still has, then DIR/RANK.prof.  A record is
 * 32 bytes (launcher/trace_file.h): t0 counted from the thread's base
 * (a BASE record, written when t0 is 2^31 ticks or more past it, or
 * before it), and the values too wide for its fields in a wide record
 * right after it, in the same chunk (the chunk's last slot is kept for
 * it); BASE records that repeat the base pad a chunk to whole blocks.
 * Records are kept only when DIR holds a file named "events" (--trace);
 * --profile alone keeps the profile only.  Timestamps stay counter
 * ticks: the .prof file's header says how they map to CLOCK_MONOTONIC
 * (clock.c), and mpirun converts.
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
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wrap.h"

#define CHUNK (2u << 20)   /* a chunk's bytes: one transparent huge page */
#define NREC (CHUNK / sizeof(struct shmpi_trace_rec))   /* 65536 */
#define BLOCK 4096         /* O_DIRECT: each write a multiple of it */
#define SPARE 4            /* chunks a thread may have at the writer */

_Static_assert(sizeof(struct shmpi_trace_rec) == 32 &&
               sizeof(struct shmpi_trace_wide) == 32, "records of 32 B");
_Static_assert(CHUNK % BLOCK == 0 && BLOCK % 32 == 0, "blocks of records");

/* Records only: the chunk goes to the file as it is (O_DIRECT). */
struct chunk {
    struct shmpi_trace_rec rec[NREC];
};

/* A chunk on its way to the file, or free for the next thread that
   fills one. */
struct job {
    struct chunk *c;
    size_t len;   /* bytes to write, a multiple of BLOCK */
    struct job *next;
};

/* A thread's: its cursor and profile (wrap.h) first, where
   shmpi_trace_me points. */
struct thread_log {
    struct shmpi_trace_thread pub;
    struct chunk *cur;
    struct thread_log *next;
};

static struct {
    char dir[4000];
    int rank;
    int on;              /* SHMPI_TRACE_DIR and SHMPI_RANK were given */
    int ev_fd;
    uint32_t dropped;    /* the writer's, then the finishing thread's */
    uint64_t t_start, t_end;
    pthread_mutex_t lock;   /* threads, next_tid */
    struct thread_log *threads;
    unsigned next_tid;
} g = {.ev_fd = -1, .lock = PTHREAD_MUTEX_INITIALIZER};

/* The writer: a thread of the rank's own, started when a chunk first
   fills, that writes full chunks to DIR/RANK.ev and hands them back.
   Its lock is taken twice a chunk (65536 records); the chunk's records,
   written before the hand-over's unlock, are the writer's after its
   lock (the mutex orders them). */
static struct {
    pthread_mutex_t lock;   /* all below */
    pthread_cond_t work;    /* a job queued, or stop */
    pthread_cond_t freed;   /* a chunk back */
    struct job *head, *tail;   /* to write, oldest first */
    struct job *free;       /* written, to fill again */
    struct job *spare;      /* nodes without a chunk */
    unsigned queued;        /* jobs in head's list or being written */
    unsigned chunks, cap;   /* made, and the most there may be */
    int started, stop;
    pthread_t thread;
} wq = {.lock = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER,
       .freed = PTHREAD_COND_INITIALIZER};

int shmpi_trace_events;

_Thread_local struct shmpi_trace_thread *shmpi_trace_me;

/* DIR/RANK.ev, written with O_DIRECT where the file system has it: the
   records then go from the chunk to the disk without a page of the page
   cache, and the chunk is filled again.  Memory this VM has not touched
   lately costs 7-11 us a 4 KiB page the first time (70-80 ns a record;
   the guest gives freed memory back to the host within seconds), and a
   traced halo iteration spent 38 % of its time in the kernel zeroing
   fresh pages when every chunk was new (2026-12-01, /usr/bin/time
   around the ranks of perf/halo.c -S isend -s 8). */
static void open_ev(const char *path)
{
    int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC;
    g.ev_fd = open(path, flags | O_DIRECT, 0600);
    if (g.ev_fd < 0 && errno == EINVAL)   /* tmpfs before Linux 6.6 */
        g.ev_fd = open(path, flags, 0600);
}

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
        open_ev(path);
    g.on = 1;
}

/* len bytes of c to the file.  A file system that takes O_DIRECT at
   open but not this write is written through the page cache. */
static void put(const struct chunk *c, size_t len)
{
    const char *p = (const char *)c->rec;
    while (len && g.ev_fd >= 0) {
        ssize_t n = write(g.ev_fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EINVAL &&
            (fcntl(g.ev_fd, F_GETFL) & O_DIRECT)) {
            fcntl(g.ev_fd, F_SETFL, fcntl(g.ev_fd, F_GETFL) & ~O_DIRECT);
            continue;
        }
        if (n <= 0)
            break;
        p += n;
        len -= (size_t)n;
    }
    g.dropped += (uint32_t)(len / sizeof(struct shmpi_trace_rec));
}

static void *writer(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&wq.lock);
    for (;;) {
        while (!wq.head && !wq.stop)
            pthread_cond_wait(&wq.work, &wq.lock);
        struct job *j = wq.head;
        if (!j)
            break;
        wq.head = j->next;
        pthread_mutex_unlock(&wq.lock);
        put(j->c, j->len);
        pthread_mutex_lock(&wq.lock);
        wq.queued--;
        j->next = wq.free;
        wq.free = j;
        pthread_cond_signal(&wq.freed);
    }
    pthread_mutex_unlock(&wq.lock);
    return NULL;
}

/* The writer started, with every signal blocked (they are the
   program's); 0 if it could not be. */
static int writer_start(void)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    wq.started = pthread_create(&wq.thread, NULL, writer, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return wq.started;
}

/* A chunk: 2 MiB aligned, so that the kernel can back it with one
   transparent huge page (MADV_HUGEPAGE): about two page faults a chunk
   (perf stat of a rank's 10^6 records, 2026-11-30), not one every 128
   records; and O_DIRECT wants its buffer aligned.  NULL if no memory. */
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
static size_t used(const struct thread_log *t)
{
    return t->cur ? (size_t)(t->pub.next - t->cur->rec) : 0;
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

/* The bytes of t's chunk to write: its records, and BASE records that
   repeat the thread's base up to a whole block (mpirun skips them). */
static size_t pad(struct thread_log *t)
{
    size_t n = used(t), len = (n * sizeof *t->cur->rec + BLOCK - 1) /
                              BLOCK * BLOCK;
    struct shmpi_trace_rec b = {
        .t0 = (uint32_t)t->pub.base, .dt = (uint32_t)(t->pub.base >> 32),
        .kind = SHMPI_TRACE_BASE, .tid = t->pub.tid};
    for (struct shmpi_trace_rec *r = t->pub.next;
         r < t->cur->rec + len / sizeof *r; r++)
        *r = b;
    return len;
}

/* A chunk to fill: one the writer is done with, a new one while there
   are fewer than wq.cap, else the next one the writer is done with
   (wq.lock held).  NULL if there is none and none will come back. */
static struct chunk *chunk_next(void)
{
    for (;;) {
        struct job *j = wq.free;
        if (j) {
            wq.free = j->next;
            j->next = wq.spare;
            wq.spare = j;
            return j->c;
        }
        struct chunk *c = wq.chunks < wq.cap ? chunk_new() : NULL;
        if (c) {
            wq.chunks++;
            return c;
        }
        if (!wq.queued)
            return NULL;
        pthread_cond_wait(&wq.freed, &wq.lock);
    }
}

/* c's first len bytes to the file, after every chunk handed over
   before them (wq.lock held): to the writer, or, with no writer (or no
   memory for the job), written here - then 1, and c is the caller's
   again. */
static int submit(struct chunk *c, size_t len)
{
    struct job *j = wq.spare;
    if (j)
        wq.spare = j->next;
    else
        j = malloc(sizeof *j);
    if (!j || (!wq.started && !writer_start())) {
        free(j);
        while (wq.queued)
            pthread_cond_wait(&wq.freed, &wq.lock);
        put(c, len);
        return 1;
    }
    *j = (struct job){c, len, NULL};
    if (wq.head)
        wq.tail->next = j;
    else
        wq.head = j;
    wq.tail = j;
    wq.queued++;
    pthread_cond_signal(&wq.work);
    return 0;
}

/* t's chunk is full: to the file, and t goes on in another (at worst
   the same one, once written). */
static void chunk_full(struct thread_log *t)
{
    size_t len = pad(t);
    pthread_mutex_lock(&wq.lock);
    start_chunk(t, submit(t->cur, len) ? t->cur : chunk_next());
    pthread_mutex_unlock(&wq.lock);
}

static struct thread_log *thread_log_new(void)
{
    struct thread_log *t = calloc(1, sizeof *t);
    struct chunk *c = NULL;
    if (t && shmpi_trace_events) {
        pthread_mutex_lock(&wq.lock);
        wq.cap += SPARE;
        c = chunk_next();
        pthread_mutex_unlock(&wq.lock);
    }
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

/* The writer's last jobs done, and it gone; every chunk it had unmapped,
   every job's node freed. */
static void writer_stop(void)
{
    pthread_mutex_lock(&wq.lock);
    wq.stop = 1;
    pthread_cond_signal(&wq.work);
    pthread_mutex_unlock(&wq.lock);
    if (wq.started)
        pthread_join(wq.thread, NULL);
    wq.started = 0;
    for (struct job *j = wq.free, *next; j; j = next) {
        next = j->next;
        munmap(j->c, sizeof *j->c);
        free(j);
    }
    for (struct job *j = wq.spare, *next; j; j = next) {
        next = j->next;
        free(j);
    }
    wq.free = wq.spare = NULL;
}

/* MPI_Finalize's end (or MPI_Abort's start): every thread's records to
   the file, after the chunks the writer still has, then the profile.
   The other threads have made their last MPI call by now (MPI-3.1 8.7:
   MPI_Finalize is the last one). */
void shmpi_trace_finished(void)
{
    if (!g.on)
        return;
    g.t_end = shmpi_trace_now();
    pthread_mutex_lock(&g.lock);
    pthread_mutex_lock(&wq.lock);
    for (struct thread_log *t = g.threads; t; t = t->next) {
        struct chunk *c = t->cur;
        if (c && used(t)) {
            size_t len = pad(t);
            if (!wq.started)
                put(c, len);
            else if (!submit(c, len))
                c = NULL;   /* the writer's, unmapped once written */
        }
        if (c)
            munmap(c, sizeof *c);
        start_chunk(t, NULL);   /* later calls: the profile only */
    }
    pthread_mutex_unlock(&wq.lock);
    writer_stop();
    if (g.ev_fd >= 0)
        close(g.ev_fd);
    g.ev_fd = -1;
    write_prof();
    g.on = 0;
    pthread_mutex_unlock(&g.lock);
}
