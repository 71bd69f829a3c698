/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace.c - mpirun --trace FILE / --profile around the job (trace.h):
 * before it, the check that the program can be wrapped and the private
 * directory; after it, the merge of the ranks' files (trace_file.h) into
 * a Chrome trace-event JSON file (the format Perfetto and chrome://tracing
 * open: {"traceEvents": [...]}, "X" complete events with ts and dur in
 * microseconds, "s"/"f" flow events for the arrows, "M" metadata naming
 * the tracks), the profile table on stderr, and the directory removed.
 *
 * The trace: one process per rank ("rank N", pid N), one thread track per
 * thread of the rank that called MPI; every call a slice named after its
 * function, with the arguments the wrapper kept (a run of polls that
 * found nothing is one slice, its count in "polls"); every received message an
 * arrow from the send call to the call that completed the receive.  The
 * pairing: the k-th receive (in posting order) that got a message of
 * (source, communicator, tag) on rank d matched the k-th send (in call
 * order) of source to d with (communicator, tag) - MPI-3.1 3.5's
 * non-overtaking order.  ts counts from the first rank's MPI_Init.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launcher/job.h"
#include "launcher/trace.h"
#include "launcher/trace_file.h"
#include "mpi.h"

#define LIBNAME "libshmpi_trace.so"
#define WIN_TRACKS 64   /* a rank's windows with a track of their own */

/* An event of a rank's .ev file, as the trace shows it: times in
   nanoseconds, every argument in a field of its own (-1, MPI_PROC_NULL
   or UINT32_MAX: not given). */
struct ev {
    uint64_t t0, t1;
    int64_t count, bytes;
    uint32_t comm, win, polls;
    int32_t peer, wpeer, tag, root;
    uint16_t fn;
    uint8_t kind, tid;
};

/* One rank's files, read back. */
struct rank_log {
    int have;                       /* its .prof was there */
    struct shmpi_trace_head h;
    struct shmpi_trace_fn *fns;     /* h.nfn */
    struct ev *recs;                /* its .ev's events */
    size_t nrecs;
    uint32_t wins[WIN_TRACKS];  /* its windows, in order of appearance */
    int nwins;
};

/* ---------------------------------------------------------- the program */

/* Reads n bytes at off; 0 on success. */
static int pread_all(int fd, void *buf, size_t n, off_t off)
{
    return pread(fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

/* 1 if the program at path holds libmpi.a: its text has the format of
   MPI_Get_library_version (core/environ.c), which only libshmpi.so
   holds otherwise.  A program linked with libmpi.so, a script, or a
   program that starts another (valgrind, env) gives 0: checked no
   further (a rank that leaves no record is reported after the job). */
static int linked_statically(const char *path)
{
    static const char mark[] = "(MPI %d.%d, shared memory, one machine)";
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    int found = 0;
    if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
                       0);
        if (p != MAP_FAILED) {
            found = memmem(p, (size_t)st.st_size, mark, sizeof mark - 1)
                    != NULL;
            munmap(p, (size_t)st.st_size);
        }
    }
    if (fd >= 0)
        close(fd);
    return found;
}

/* LIBNAME beside us: DIR/lib/ in the build tree (./mpirun), DIR/../lib/
   once installed (PREFIX/bin/mpirun).  Returns a malloc'd path or NULL. */
/* dl_iterate_phdr's callback: the path of a loaded ASan runtime. */
static int asan_of(struct dl_phdr_info *info, size_t size, void *out)
{
    (void)size;
    if (!strstr(info->dlpi_name, "/libasan.so"))
        return 0;
    *(const char **)out = info->dlpi_name;
    return 1;
}

static char *find_library(void)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return NULL;
    self[n] = '\0';
    *strrchr(self, '/') = '\0';
    static const char *const where[] = {"/lib/", "/../lib/"};
    for (size_t i = 0; i < 2; i++) {
        char *p = malloc(strlen(self) + strlen(where[i]) + sizeof LIBNAME);
        if (!p)
            return NULL;
        strcat(strcat(strcpy(p, self), where[i]), LIBNAME);
        if (access(p, R_OK) == 0)
            return p;
        free(p);
    }
    return NULL;
}

int shmpi_ln_trace_begin(struct shmpi_ln_trace *t, const char *program)
{
    const char *opt = t->out ? "--trace" : "--profile";
    char *path;
    if (shmpi_ln_find_program(program, &path) == 0) {
        int st = linked_statically(path);
        free(path);
        if (st) {
            shmpi_ln_say(t->tool, "%s: %s is linked with libmpi.a: its MPI "
                         "calls cannot be wrapped; build it with "
                         "'mpicc -shared-mpi'", opt, program);
            return SHMPI_EXIT_USAGE;
        }
    }   /* else the launch says it is not there */
    if (t->out && !(t->file = fopen(t->out, "w"))) {
        shmpi_ln_say(t->tool, "--trace: %s: %s", t->out, strerror(errno));
        return SHMPI_EXIT_USAGE;
    }
    char *lib = find_library();
    const char *tmp = getenv("TMPDIR"), *pre = getenv("LD_PRELOAD");
    if (!lib || asprintf(&t->dir, "%s/shmpi-trace.XXXXXX",
                         tmp && *tmp ? tmp : "/tmp") < 0 || !mkdtemp(t->dir)) {
        shmpi_ln_say(t->tool, "%s: %s", opt, !lib ? "cannot find " LIBNAME
                     " beside mpirun" : strerror(errno));
        free(lib);
        free(t->dir);
        t->dir = NULL;
        return SHMPI_EXIT_LAUNCH_ERROR;
    }
    /* A build with ASan (make SANITIZE=1) links the wrappers' library,
       like mpirun, with libasan.so, which must be the first library a
       process loads: then it goes first in the ranks' LD_PRELOAD. */
    const char *asan = NULL;
    dl_iterate_phdr(asan_of, &asan);
    char *ev = NULL;
    int ok = asprintf(&t->preload, "LD_PRELOAD=%s%s%s%s%s", asan ? asan : "",
                      asan ? ":" : "", lib, pre ? ":" : "",
                      pre ? pre : "") > 0 &&
             asprintf(&t->dir_var, "%s=%s", SHMPI_TRACE_DIR_ENV, t->dir) > 0 &&
             asprintf(&ev, "%s/events", t->dir) > 0;
    free(lib);
    if (ok && t->out) {   /* the wrappers keep records */
        int fd = open(ev, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
        ok = fd >= 0;
        if (fd >= 0)
            close(fd);
    }
    free(ev);
    if (!ok) {
        shmpi_ln_say(t->tool, "%s: %s", opt, strerror(errno));
        return SHMPI_EXIT_LAUNCH_ERROR;
    }
    return 0;
}

/* ------------------------------------------------------------ read back */

static void *read_file(const char *dir, int rank, const char *ext,
                       size_t *len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%d.%s", dir, rank, ext);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    void *buf = NULL;
    if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0 &&
        (buf = malloc((size_t)st.st_size)) &&
        pread_all(fd, buf, (size_t)st.st_size, 0)) {
        free(buf);
        buf = NULL;
    }
    if (fd >= 0)
        close(fd);
    *len = buf ? (size_t)st.st_size : 0;
    return buf;
}

/* tick t of the rank of header h in nanoseconds (trace_file.h). */
static uint64_t ns_of(const struct shmpi_trace_head *h, uint64_t t)
{
    return h->ns0 +
           (uint64_t)(int64_t)((double)(int64_t)(t - h->tick0) *
                               h->ns_per_tick);
}

/* The n records at r as events in out; returns how many.  A BASE record
   sets its thread's base, a wide one (after a record with an escaped
   field) gives those fields. */
static size_t decode(const struct shmpi_trace_head *h,
                     const struct shmpi_trace_rec *r, size_t n,
                     struct ev *out)
{
    uint64_t base[256] = {0};   /* a thread's, by tid */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const struct shmpi_trace_rec *x = &r[i];
        if (SHMPI_TRACE_KIND(x->kind) == SHMPI_TRACE_BASE) {
            base[x->tid] = (uint64_t)x->dt << 32 | x->t0;
            continue;
        }
        struct shmpi_trace_wide w = {x->dt, x->count, x->bytes, x->peer,
                                     x->wpeer};
        if (x->dt == UINT32_MAX || x->peer == SHMPI_TRACE_ESC16 ||
            x->wpeer == SHMPI_TRACE_ESC16 || x->count == SHMPI_TRACE_ESC32 ||
            x->bytes == SHMPI_TRACE_ESC32) {
            if (++i == n)
                break;   /* cut short */
            const struct shmpi_trace_wide *y =
                (const struct shmpi_trace_wide *)&r[i];
            w = (struct shmpi_trace_wide){
                x->dt == UINT32_MAX ? y->dt : x->dt,
                x->count == SHMPI_TRACE_ESC32 ? y->count : x->count,
                x->bytes == SHMPI_TRACE_ESC32 ? y->bytes : x->bytes,
                x->peer == SHMPI_TRACE_ESC16 ? y->peer : x->peer,
                x->wpeer == SHMPI_TRACE_ESC16 ? y->wpeer : x->wpeer};
        }
        uint64_t t0 = base[x->tid] + x->t0;
        struct ev e = {ns_of(h, t0), ns_of(h, t0 + w.dt), w.count, w.bytes,
                       x->comm, UINT32_MAX, 1, w.peer, w.wpeer, x->tag, -1,
                       x->fn, SHMPI_TRACE_KIND(x->kind), x->tid};
        if (x->kind & SHMPI_TRACE_ROOT)
            e.root = e.peer, e.peer = MPI_PROC_NULL;
        if (x->kind & SHMPI_TRACE_ONWIN)
            e.win = (uint32_t)e.tag, e.tag = -1;
        if (x->kind & SHMPI_TRACE_POLLS)
            e.polls = (uint32_t)e.count, e.count = -1;
        out[k++] = e;
    }
    return k;
}

static void read_rank(const char *dir, int rank, struct rank_log *l)
{
    size_t len;
    char *p = read_file(dir, rank, "prof", &len);
    memset(l, 0, sizeof *l);
    if (p && len >= sizeof l->h) {
        memcpy(&l->h, p, sizeof l->h);
        if (l->h.magic == SHMPI_TRACE_MAGIC && l->h.nfn > 0 &&
            len == sizeof l->h + (size_t)l->h.nfn * sizeof *l->fns &&
            (l->fns = malloc((size_t)l->h.nfn * sizeof *l->fns))) {
            memcpy(l->fns, p + sizeof l->h, (size_t)l->h.nfn * sizeof *l->fns);
            l->have = 1;
        }
    }
    free(p);
    struct shmpi_trace_rec *raw = read_file(dir, rank, "ev", &len);
    size_t n = len / sizeof *raw;
    /* without the .prof, names and clock unknown: nothing to show */
    l->recs = l->have && n ? malloc(n * sizeof *l->recs) : NULL;
    l->nrecs = l->recs ? decode(&l->h, raw, n, l->recs) : 0;
    free(raw);
    for (size_t i = 0; i < l->nrecs && l->nwins < WIN_TRACKS; i++) {
        uint32_t w = l->recs[i].win;
        int k = 0;
        for (; k < l->nwins && l->wins[k] != w; k++)
            ;
        if (w != UINT32_MAX && k == l->nwins)
            l->wins[l->nwins++] = w;
    }
}

/* The largest rank that left a file, + 1. */
static int ranks_in(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        int r = atoi(e->d_name);
        if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && r + 1 > n)
            n = r + 1;
    }
    if (d)
        closedir(d);
    return n;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlinkat(dirfd(d), e->d_name, 0);
    if (d)
        closedir(d);
    rmdir(dir);
}

/* ---------------------------------------------------------------- arrows */

/* One end of a message: a send call, or a MATCH record. */
struct end {
    int32_t src, dst, tag;
    uint32_t comm;
    uint64_t order;     /* the send's start; the receive's posting */
    uint64_t ts;        /* where the arrow starts or ends */
    int rank, tid;
};

static int end_cmp(const void *pa, const void *pb)
{
    const struct end *a = pa, *b = pb;
    if (a->src != b->src) return a->src < b->src ? -1 : 1;
    if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
    if (a->comm != b->comm) return a->comm < b->comm ? -1 : 1;
    if (a->tag != b->tag) return a->tag < b->tag ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static int is_send(const char *name)
{
    static const char *const sends[] = {
        "MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Isend",
        "MPI_Issend", "MPI_Ibsend", "MPI_Irsend", "MPI_Sendrecv",
        "MPI_Sendrecv_replace"};
    for (size_t i = 0; i < sizeof sends / sizeof *sends; i++)
        if (!strcmp(name, sends[i]))
            return 1;
    return 0;
}

/* The sends (sends == 1) or the receives of every rank. */
static struct end *ends(const struct rank_log *l, int np, int sends,
                        size_t *n)
{
    size_t cap = 0;
    for (int r = 0; r < np; r++)
        cap += l[r].nrecs;
    struct end *e = malloc((cap ? cap : 1) * sizeof *e);
    *n = 0;
    for (int r = 0; e && r < np; r++)
        for (size_t i = 0; i < l[r].nrecs; i++) {
            const struct ev *x = &l[r].recs[i];
            if (x->fn >= l[r].h.nfn || x->wpeer < 0)
                continue;
            if (sends ? x->kind != SHMPI_TRACE_CALL ||
                            !is_send(l[r].fns[x->fn].name)
                      : x->kind != SHMPI_TRACE_MATCH)
                continue;
            e[(*n)++] = (struct end){
                sends ? r : x->wpeer, sends ? x->wpeer : r, x->tag, x->comm,
                x->t0, sends ? x->t0 + (x->t1 - x->t0) / 2 : x->t1, r, x->tid};
        }
    if (e)
        qsort(e, *n, sizeof *e, end_cmp);
    return e;
}

static int same_envelope(const struct end *a, const struct end *b)
{
    return a->src == b->src && a->dst == b->dst && a->comm == b->comm &&
           a->tag == b->tag;
}

/* Pairs sends and receives envelope by envelope, in order; writes a
   flow event pair per message.  Returns the number of arrows. */
static size_t arrows(FILE *f, const struct rank_log *l, int np,
                     uint64_t base)
{
    size_t ns, nr, k = 0;
    struct end *s = ends(l, np, 1, &ns), *r = ends(l, np, 0, &nr);
    for (size_t i = 0, j = 0; s && r && i < ns && j < nr;) {
        int c = end_cmp(&s[i], &r[j]);
        if (!same_envelope(&s[i], &r[j])) {   /* unmatched: skip it */
            c < 0 ? i++ : j++;
            continue;
        }
        fprintf(f, ",\n{\"name\":\"message\",\"cat\":\"p2p\",\"ph\":\"s\","
                   "\"id\":%zu,\"pid\":%d,\"tid\":%d,\"ts\":%.3f}",
                k, s[i].rank, s[i].tid, (s[i].ts - base) / 1e3);
        fprintf(f, ",\n{\"name\":\"message\",\"cat\":\"p2p\",\"ph\":\"f\","
                   "\"bp\":\"e\",\"id\":%zu,\"pid\":%d,\"tid\":%d,"
                   "\"ts\":%.3f}",
                k, r[j].rank, r[j].tid, (r[j].ts - base) / 1e3);
        k++, i++, j++;
    }
    free(s);
    free(r);
    return k;
}

/* ----------------------------------------------------------------- JSON */

#define WIN_TID 1000      /* the first window track's tid */

/* The track of record x: its thread's, or its window's (the rank's
   windows numbered in the order they first appear; those past
   WIN_TRACKS share the last track). */
static int track_of(const struct rank_log *l, const struct ev *x)
{
    if (x->win == UINT32_MAX)
        return x->tid;
    int k = 0;
    for (; k < l->nwins && l->wins[k] != x->win; k++)
        ;
    return WIN_TID + (k < WIN_TRACKS ? k : WIN_TRACKS - 1);
}

static void slice(FILE *f, const struct rank_log *l, int rank,
                  const struct ev *x, uint64_t base)
{
    fprintf(f, ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,"
               "\"ts\":%.3f,\"dur\":%.3f,\"args\":{",
            l->fns[x->fn].name, rank, track_of(l, x), (x->t0 - base) / 1e3,
            (x->t1 - x->t0) / 1e3);
    const char *sep = "";
    if (x->peer != MPI_PROC_NULL) {
        fprintf(f, "\"peer\":%d", x->peer);
        sep = ",";
        if (x->wpeer >= 0)
            fprintf(f, ",\"peer_world\":%d", x->wpeer);
    }
    if (x->tag != -1 && x->tag != MPI_ANY_TAG)   /* none, or any */
        fprintf(f, "%s\"tag\":%d", sep, x->tag), sep = ",";
    if (x->root != -1)
        fprintf(f, "%s\"root\":%d", sep, x->root), sep = ",";
    if (x->count != -1)
        fprintf(f, "%s\"count\":%lld", sep, (long long)x->count), sep = ",";
    if (x->bytes != -1)
        fprintf(f, "%s\"bytes\":%lld", sep, (long long)x->bytes), sep = ",";
    if (x->comm != UINT32_MAX)
        fprintf(f, "%s\"comm\":%u", sep, x->comm), sep = ",";
    if (x->win != UINT32_MAX)
        fprintf(f, "%s\"win\":%u", sep, x->win), sep = ",";
    if (x->polls > 1)   /* a run of polls that found nothing */
        fprintf(f, "%s\"polls\":%u", sep, x->polls);
    fputs("}}", f);
}

static void tracks(FILE *f, const struct rank_log *l, int rank)
{
    if (rank)   /* rank 0's is the file's first event */
        fprintf(f, ",\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,"
                   "\"args\":{\"name\":\"rank %d\"}}", rank, rank);
    fprintf(f, ",\n{\"name\":\"process_sort_index\",\"ph\":\"M\","
               "\"pid\":%d,\"args\":{\"sort_index\":%d}}", rank, rank);
    int seen[256] = {0};
    for (size_t i = 0; i < l->nrecs; i++)
        if (l->recs[i].win == UINT32_MAX && !seen[l->recs[i].tid]++)
            fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\","
                       "\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"%s %d\"}}",
                    rank, l->recs[i].tid, l->recs[i].tid ? "thread" : "rank",
                    l->recs[i].tid ? l->recs[i].tid : rank);
    for (int k = 0; k < l->nwins; k++)
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\","
                   "\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"window %u\"}}",
                rank, WIN_TID + k, l->wins[k]);
}

static void write_trace(struct shmpi_ln_trace *t, const struct rank_log *l,
                        int np)
{
    uint64_t base = UINT64_MAX;
    for (int r = 0; r < np; r++)
        if (l[r].have && l[r].h.t_start && l[r].h.t_start < base)
            base = l[r].h.t_start;
    for (int r = 0; r < np; r++)
        for (size_t i = 0; i < l[r].nrecs; i++)
            if (l[r].recs[i].t0 < base)
                base = l[r].recs[i].t0;
    FILE *f = t->file;
    t->file = NULL;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
          "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,"
          "\"args\":{\"name\":\"rank 0\"}}", f);
    size_t slices = 0;
    for (int r = 0; r < np; r++) {
        tracks(f, &l[r], r);
        for (size_t i = 0; i < l[r].nrecs; i++)
            if (l[r].recs[i].kind == SHMPI_TRACE_CALL &&
                l[r].recs[i].fn < l[r].h.nfn)
                slice(f, &l[r], r, &l[r].recs[i], base), slices++;
    }
    size_t n = arrows(f, l, np, base);
    fputs("\n]}\n", f);
    if (fclose(f) != 0)
        shmpi_ln_say(t->tool, "--trace: %s: %s", t->out, strerror(errno));
    else
        shmpi_ln_say(t->tool, "--trace: %s: %zu calls, %zu messages", t->out,
                     slices, n);
}

/* -------------------------------------------------------------- profile */

struct fn_sum {
    int fn;
    uint64_t calls, ns, min, max;
    int max_rank;
};

static int by_time(const void *pa, const void *pb)
{
    const struct fn_sum *a = pa, *b = pb;
    return a->ns != b->ns ? (a->ns < b->ns ? 1 : -1) : a->fn - b->fn;
}

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* Every function some rank called, over the ranks that left a profile,
   sorted by total time; returns how many. */
static int summarize(const struct rank_log *l, int np, int nfn,
                     struct fn_sum *s)
{
    int n = 0;
    for (int fn = 0; fn < nfn; fn++) {
        struct fn_sum x = {fn, 0, 0, UINT64_MAX, 0, 0};
        for (int r = 0; r < np; r++) {
            if (!l[r].have || l[r].h.nfn != nfn)
                continue;
            const struct shmpi_trace_fn *f = &l[r].fns[fn];
            x.calls += f->calls;
            x.ns += f->ns;
            if (f->ns < x.min)
                x.min = f->ns;
            if (f->ns >= x.max)
                x.max = f->ns, x.max_rank = r;
        }
        if (x.calls)
            s[n++] = x;
    }
    qsort(s, (size_t)n, sizeof *s, by_time);
    return n;
}

#define RANK_DETAIL 8   /* ranks shown one by one up to this -np */

static void print_profile(const struct rank_log *l, int np, int have)
{
    int nfn = 0;
    uint64_t job = 0, mpi = 0;
    const struct shmpi_trace_fn *names = NULL;
    for (int r = 0; r < np; r++)
        if (l[r].have) {
            nfn = l[r].h.nfn;
            names = l[r].fns;
            job += l[r].h.t_end - l[r].h.t_start;
        }
    struct fn_sum *s = malloc((size_t)(nfn ? nfn : 1) * sizeof *s);
    int n = s ? summarize(l, np, nfn, s) : 0;
    for (int i = 0; i < n; i++)
        mpi += s[i].ns;
    fprintf(stderr, "\nMPI profile: %d rank%s, job time %.6f s (MPI_Init, "
            "or the first MPI_Session_init, to the end of MPI, summed over "
            "ranks), MPI %.2f%% of it\n", have,
            have == 1 ? "" : "s", job / 1e9, pct(mpi, job));
    fprintf(stderr, "%-28s %10s %12s %7s %11s %11s %11s %5s\n", "function",
            "calls", "total ms", "% job", "min ms", "mean ms", "max ms",
            "@rank");
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%-28s %10llu %12.3f %7.2f %11.3f %11.3f %11.3f %5d\n",
                names[s[i].fn].name,
                (unsigned long long)s[i].calls, s[i].ns / 1e6,
                pct(s[i].ns, job), s[i].min / 1e6,
                s[i].ns / 1e6 / (have ? have : 1), s[i].max / 1e6,
                s[i].max_rank);
    if (np > RANK_DETAIL)
        fprintf(stderr, "(a table per rank only up to %d ranks: min, mean "
                "and max are over the ranks)\n", RANK_DETAIL);
    for (int r = 0; np <= RANK_DETAIL && r < np; r++) {
        if (!l[r].have)
            continue;
        uint64_t t = l[r].h.t_end - l[r].h.t_start;
        fprintf(stderr, "\nrank %d: job time %.6f s\n", r, t / 1e9);
        n = summarize(&l[r], 1, nfn, s);
        for (int i = 0; i < n; i++)
            fprintf(stderr, "  %-26s %10llu %12.3f %7.2f\n",
                    l[r].fns[s[i].fn].name, (unsigned long long)s[i].calls,
                    s[i].ns / 1e6, pct(s[i].ns, t));
    }
    free(s);
}

/* Reads what the np ranks left, writes the trace and the profile. */
static void report(struct shmpi_ln_trace *t, int np)
{
    struct rank_log *l = calloc((size_t)(np ? np : 1), sizeof *l);
    int have = 0, missing = -1;
    uint64_t dropped = 0;
    for (int r = 0; l && r < np; r++) {
        read_rank(t->dir, r, &l[r]);
        have += l[r].have;
        dropped += l[r].h.dropped;
        if (!l[r].have && missing < 0)
            missing = r;
    }
    if (have < np)
        shmpi_ln_say(t->tool, "%s: %d of %d ranks left no record (rank %d "
                     "first: it did not reach MPI_Finalize, or its program "
                     "does not load libmpi.so)", t->out ? "--trace" :
                     "--profile", np - have, np, missing);
    if (dropped)
        shmpi_ln_say(t->tool, "--trace: %llu records lost (a rank could "
                     "not write them)", (unsigned long long)dropped);
    if (l && t->out)
        write_trace(t, l, np);
    if (l && t->profile && have)
        print_profile(l, np, have);
    for (int r = 0; l && r < np; r++) {
        free(l[r].fns);
        free(l[r].recs);
    }
    free(l);
}

void shmpi_ln_trace_end(struct shmpi_ln_trace *t, int np, int status)
{
    if (t->dir && status != SHMPI_EXIT_NOEXEC &&
        status != SHMPI_EXIT_NOTFOUND)
        report(t, np > 0 ? np : ranks_in(t->dir));
    if (t->dir)
        remove_dir(t->dir);
    if (t->file) {   /* no rank ran: no trace */
        fclose(t->file);
        unlink(t->out);
    }
    free(t->dir);
    free(t->preload);
    free(t->dir_var);
    t->file = NULL;
    t->dir = t->preload = t->dir_var = NULL;
}
