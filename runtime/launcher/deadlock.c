/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * deadlock.c - the deadlock report and the hang report (SHMPI_DEADLOCK_MS,
 * SHMPI_HANG_REPORT): a timer reads every rank's "blocked in" record
 * (shm_arena/blocked.h) in the arena.
 *
 * DEADLOCK.  Declared only when, for a whole interval of SHMPI_DEADLOCK_MS
 * (default 1000 ms), every rank either has exited or has every thread
 * asleep on its doorbell in an MPI wait, and no rank's (asleep, gen,
 * doorbell seq) changed; and then /proc shows each such rank with no
 * other thread and every thread sleeping (state S).  Why nothing else
 * can pass for it:
 *   - a rank computing outside MPI, or with one thread outside MPI, is
 *     not asleep (asleep == 0), or has a task that is not counted asleep
 *     (the task count of /proc/PID/task exceeds asleep);
 *   - a message in flight was published, then its sender rang the
 *     receiver's doorbell (core/wait.h's rule): a sleeper counted on that
 *     bell gets its seq bumped, which the next tick sees; a receiver not
 *     yet counted finds the message in its done() before it sleeps, and
 *     a sender still copying (a rendezvous in progress, a stream of
 *     chunks) is not asleep;
 *   - a thread counted asleep but not yet in futex_wait (between
 *     blocked_enter and the syscall), preempted or stopped (SIGSTOP, a
 *     debugger) is in state R, T or t, not S: the /proc check refuses it;
 *   - doorbell sleeps have no timeout (core/wait.c): a thread in one
 *     wakes only by a ring, so if every thread of every live rank is in
 *     one and nobody rang for an interval, only the launcher could ring.
 * False negatives are accepted: a rank polling with MPI_Test or
 * MPI_Iprobe (livelock), a rank whose other thread waits outside MPI
 * (pthread_join on threads blocked in MPI), waits of MPI's own helper
 * threads (rma/map_vm.c).
 *
 * After the decision every sleeping rank is asked for its lines (ask,
 * then a ring: blocked.h), which its threads write as they wake and go
 * back to sleep; after at most ASK_TICKS x ASK_MS the graph is printed
 * with what came, then the cycles of "waits for" edges, and the job is
 * killed with status 125 (SHMPI_EXIT_DEADLOCK).
 *
 * HANG.  With SHMPI_HANG_REPORT=S, a rank whose current wait has slept
 * for more than S seconds (since_ns) while some rank is not asleep is
 * asked for its line and reported once per wait; the job goes on.
 *
 * COST.  One io_uring timeout per tick: every SHMPI_DEADLOCK_MS (or
 * every min(1 s, S/2) with the hang report), a scan of np slots - four
 * loads each, on lines the ranks write only when they sleep or wake.
 * /proc is read only for a job that was quiet a whole interval.  The
 * measured cost at np = 256 is in runtime/launcher/README.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "launcher/job.h"

#define ASK_MS 20     /* while the ranks write their lines */
#define ASK_TICKS 50  /* at most 1 s of that */
#define HANG_TICK_MAX_MS 1000

static struct shmpi_rank_slot *slot(const struct shmpi_job *j, int r)
{
    return shmpi_arena_slot(j->hdr, r);
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void arm(struct shmpi_job *j, long ms)
{
    shmpi_ln_loop_timeout(j, UD_WATCH, &j->watch.ts, ms);
    j->watch.armed = true;
}

void shmpi_ln_watch_start(struct shmpi_job *j)
{
    struct shmpi_ln_watch *w = &j->watch;
    w->deadlock_ms = (long)j->tun.value[SHMPI_TUN_DEADLOCK_MS];
    w->hang_ns = j->tun.value[SHMPI_TUN_HANG_REPORT];
    w->tick_ms = w->deadlock_ms ? w->deadlock_ms : HANG_TICK_MAX_MS;
    if (w->hang_ns) {
        long half = (long)(w->hang_ns / 2000000);
        long t = half < HANG_TICK_MAX_MS ? half : HANG_TICK_MAX_MS;
        t = t < ASK_MS ? ASK_MS : t;
        w->tick_ms = w->tick_ms < t ? w->tick_ms : t;
    }
    if (!w->deadlock_ms && !w->hang_ns)
        return;
    w->snap = calloc((size_t)j->np, sizeof *w->snap);
    w->hung = calloc((size_t)j->np, sizeof *w->hung);
    w->asked = calloc(((size_t)j->np + 63) / 64, sizeof *w->asked);
    if (!w->snap || !w->hung || !w->asked)
        return; /* no report then: the job itself is not harmed */
    arm(j, w->tick_ms);
}

void shmpi_ln_watch_free(struct shmpi_job *j)
{
    free(j->watch.snap);
    free(j->watch.hung);
    free(j->watch.asked);
}

/* Rank r's quiet key: 0 if it is not quiet (running, computing, not in
   MPI), else what must stay the same over an interval. */
static uint64_t quiet_key(const struct shmpi_job *j, int r)
{
    if (!j->ranks[r].alive)
        return 1; /* exited (0 after MPI_Finalize, else the job ended) */
    struct shmpi_rank_slot *s = slot(j, r);
    if (atomic_load_explicit(&s->state, memory_order_acquire) !=
        SHMPI_RANK_INITIALIZED)
        return 0;
    uint32_t asleep =
        atomic_load_explicit(&s->blocked.asleep, memory_order_relaxed);
    if (asleep == 0)
        return 0;
    uint32_t gen = atomic_load_explicit(&s->blocked.gen, memory_order_relaxed);
    uint32_t seq =
        atomic_load_explicit(&s->doorbell.seq, memory_order_relaxed);
    return ((uint64_t)gen << 32 | seq) | 2; /* never 0 or 1 */
}

/* Every rank quiet, at least one asleep, and the keys as in snap: the
   keys are written to snap (changed: 0 returned). */
static bool all_quiet_same(struct shmpi_job *j)
{
    bool same = j->watch.snap_valid, any_asleep = false, quiet = true;
    for (int r = 0; r < j->np; r++) {
        uint64_t k = quiet_key(j, r);
        quiet = quiet && k != 0;
        any_asleep = any_asleep || k > 1;
        same = same && k == j->watch.snap[r];
        j->watch.snap[r] = k;
    }
    j->watch.snap_valid = quiet;
    return quiet && any_asleep && same;
}

/* /proc/PID/task: n tasks, all sleeping (S)? */
static bool tasks_all_asleep(pid_t pid, uint32_t asleep)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d)
        return false;
    uint32_t n = 0;
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char stat[320], buf[512];
        snprintf(stat, sizeof stat, "/proc/%d/task/%s/stat", (int)pid,
                 e->d_name);
        int fd = open(stat, O_RDONLY | O_CLOEXEC);
        ssize_t len = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
        if (fd >= 0)
            close(fd);
        buf[len > 0 ? len : 0] = '\0';
        const char *p = strrchr(buf, ')');
        ok = p && p[1] == ' ' && p[2] == 'S';
        n++;
    }
    closedir(d);
    return ok && n == asleep;
}

static pid_t rank_pid(const struct shmpi_job *j, int r)
{
    int32_t owner =
        atomic_load_explicit(&slot(j, r)->owner_pid, memory_order_relaxed);
    return owner ? owner : j->ranks[r].pid;
}

static bool kernel_agrees(struct shmpi_job *j)
{
    for (int r = 0; r < j->np; r++) {
        if (!j->ranks[r].alive)
            continue;
        uint32_t asleep = atomic_load_explicit(&slot(j, r)->blocked.asleep,
                                               memory_order_relaxed);
        if (!tasks_all_asleep(rank_pid(j, r), asleep))
            return false;
    }
    /* nobody slept or woke while we read /proc */
    return all_quiet_same(j);
}

/* Launcher side of the ask (blocked.h): reset, publish, ring. */
static void ask(struct shmpi_job *j, int r)
{
    struct shmpi_rank_slot *s = slot(j, r);
    atomic_store_explicit(&s->blocked.ntext, 0, memory_order_relaxed);
    atomic_store_explicit(&s->blocked.told, 0, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->blocked.ask, 1, memory_order_release);
    atomic_fetch_add_explicit(&s->doorbell.seq, 1, memory_order_release);
    syscall(SYS_futex, (uint32_t *)&s->doorbell.seq, FUTEX_WAKE_BITSET,
            INT_MAX, NULL, NULL, FUTEX_BITSET_MATCH_ANY);
    j->watch.asked[r / 64] |= 1ull << (r % 64);
}

static bool asked(const struct shmpi_job *j, int r)
{
    return j->watch.asked[r / 64] >> (r % 64) & 1;
}

static uint32_t told(const struct shmpi_job *j, int r)
{
    return atomic_load_explicit(&slot(j, r)->blocked.told,
                                memory_order_acquire);
}

static bool all_told(const struct shmpi_job *j)
{
    for (int r = 0; r < j->np; r++)
        if (asked(j, r) && j->ranks[r].alive && told(j, r) == 0)
            return false;
    return true;
}

/* Rank r's first thread's line, and whom it waits for (-1: unknown). */
static int line_of(const struct shmpi_job *j, int r, char *buf, size_t len)
{
    struct shmpi_arena_blocked *b = &slot(j, r)->blocked;
    uint32_t n = told(j, r);
    if (n == 0) {
        snprintf(buf, len, "asleep in MPI (no description came)");
        return -1;
    }
    snprintf(buf, len, "%.*s", SHMPI_BLOCKED_TEXT, b->text[0]);
    for (uint32_t i = 1; i < n && i < SHMPI_BLOCKED_THREADS; i++) {
        size_t at = strlen(buf);
        snprintf(buf + at, len - at, "; and %.*s", SHMPI_BLOCKED_TEXT,
                 b->text[i]);
    }
    return b->waits_for[0];
}

static void print_cycles(struct shmpi_job *j, const int *next)
{
    /* colour: 0 unseen, 1 on the current path, 2 done */
    unsigned char *col = calloc((size_t)j->np, 1);
    if (!col)
        return;
    for (int s = 0; s < j->np; s++) {
        int r = s;
        while (r >= 0 && r < j->np && col[r] == 0) {
            col[r] = 1;
            r = next[r];
        }
        if (r >= 0 && r < j->np && col[r] == 1) { /* a new cycle at r */
            char buf[400];
            int at = snprintf(buf, sizeof buf, "cycle: rank %d", r);
            for (int q = next[r]; at < (int)sizeof buf; q = next[q]) {
                at += snprintf(buf + at, sizeof buf - (size_t)at,
                               " waits for rank %d", q);
                if (q == r)
                    break;
            }
            shmpi_ln_job_say(j, "  %s", buf);
        }
        for (r = s; r >= 0 && r < j->np && col[r] == 1; r = next[r])
            col[r] = 2;
    }
    free(col);
}

static bool finalizing(const struct shmpi_job *j, int r)
{
    return !j->ranks[r].alive ||
           atomic_load_explicit(&slot(j, r)->blocked.finalizing,
                                memory_order_relaxed);
}

/* Rank r's line of the graph; its edge (world rank, -1: none) in *to. */
static void graph_line(struct shmpi_job *j, int r, int *to)
{
    char buf[SHMPI_BLOCKED_THREADS * (SHMPI_BLOCKED_TEXT + 8)];
    *to = -1;
    if (!j->ranks[r].alive) {
        shmpi_ln_job_say(j, "  rank %d has finalized and exited", r);
        return;
    }
    *to = line_of(j, r, buf, sizeof buf);
    if (finalizing(j, r))
        shmpi_ln_job_say(j, "  rank %d has finalized (is in MPI_Finalize): "
                         "%s", r, buf);
    else
        shmpi_ln_job_say(j, "  rank %d: %s", r, buf);
    if (*to >= 0 && *to < j->np && !finalizing(j, r) && finalizing(j, *to))
        shmpi_ln_job_say(j, "  rank %d waits for rank %d, which has "
                         "finalized", r, *to);
}

static void report_deadlock(struct shmpi_job *j)
{
    int *next = malloc((size_t)j->np * sizeof *next);
    shmpi_ln_job_say(j, "deadlock: every rank is blocked in MPI and nothing "
                     "has moved for %ld ms; the wait-for graph:",
                     j->watch.deadlock_ms);
    for (int r = 0; r < j->np; r++) {
        int to;
        graph_line(j, r, &to);
        if (next)
            next[r] = to;
    }
    if (next)
        print_cycles(j, next);
    free(next);
    shmpi_ln_fail(j, SHMPI_EXIT_DEADLOCK, "deadlock: every rank blocked in "
                  "MPI (SHMPI_DEADLOCK_MS=%ld); job aborted",
                  j->watch.deadlock_ms);
}

static void report_hangs(struct shmpi_job *j)
{
    uint64_t now = now_ns();
    for (int r = 0; r < j->np; r++) {
        if (!asked(j, r) || !j->ranks[r].alive)
            continue;
        char buf[SHMPI_BLOCKED_THREADS * (SHMPI_BLOCKED_TEXT + 8)];
        line_of(j, r, buf, sizeof buf);
        double s = (double)(now - j->watch.hung[r]) / 1e9;
        shmpi_ln_job_say(j, "possible hang: rank %d has been blocked for "
                         "%.1f s in %s", r, s, buf);
    }
}

/* Ask the ranks whose current wait slept longer than the hang limit and
   that were not reported for it yet. */
static bool ask_hangs(struct shmpi_job *j)
{
    uint64_t now = now_ns();
    bool any = false;
    for (int r = 0; r < j->np; r++) {
        if (!j->ranks[r].alive)
            continue;
        struct shmpi_rank_slot *s = slot(j, r);
        uint64_t since =
            atomic_load_explicit(&s->blocked.since_ns, memory_order_relaxed);
        if (since == 0 || since == j->watch.hung[r] ||
            now - since < j->watch.hang_ns ||
            atomic_load_explicit(&s->blocked.asleep, memory_order_relaxed) ==
                0)
            continue;
        j->watch.hung[r] = since;
        ask(j, r);
        any = true;
    }
    return any;
}

static void clear_asks(struct shmpi_job *j)
{
    memset(j->watch.asked, 0,
           ((size_t)j->np + 63) / 64 * sizeof *j->watch.asked);
}

/* While the asked ranks write their lines. */
static void answers_tick(struct shmpi_job *j)
{
    struct shmpi_ln_watch *w = &j->watch;
    if (!all_told(j) && ++w->ask_ticks < ASK_TICKS) {
        arm(j, ASK_MS);
        return;
    }
    if (w->deciding)
        report_deadlock(j);
    else
        report_hangs(j);
    w->asking = w->deciding = false;
    clear_asks(j);
    if (!j->decided)
        arm(j, w->tick_ms);
}

static void start_asking(struct shmpi_job *j)
{
    j->watch.asking = true;
    j->watch.ask_ticks = 0;
    arm(j, ASK_MS);
}

static void scan_tick(struct shmpi_job *j)
{
    struct shmpi_ln_watch *w = &j->watch;
    uint64_t now = now_ns();
    if (w->deadlock_ms) {
        if (!all_quiet_same(j))
            w->snap_ns = now; /* the interval starts again */
        else if (now - w->snap_ns >= (uint64_t)w->deadlock_ms * 1000000ull &&
                 kernel_agrees(j)) {
            for (int r = 0; r < j->np; r++)
                if (j->ranks[r].alive)
                    ask(j, r);
            w->deciding = true;
            start_asking(j);
            return;
        }
    }
    /* a hang while another rank computes: when all are asleep (snap_valid)
       it is the deadlock report's to make */
    if (w->hang_ns && !(w->deadlock_ms && w->snap_valid) && ask_hangs(j)) {
        start_asking(j);
        return;
    }
    arm(j, w->tick_ms);
}

void shmpi_ln_watch_tick(struct shmpi_job *j, int res)
{
    j->watch.armed = false;
    if (res != -ETIME || j->decided || j->alive == 0)
        return;
    if (j->watch.asking)
        answers_tick(j);
    else
        scan_tick(j);
}
