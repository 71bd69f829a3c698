/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * memwatch.c - the memory a whole job uses, sampled while it runs
 * (perf/memory.sh).  Plain C, no MPI.
 *
 *   memwatch [-d DIR] [-i MS] [-p MS] [-g S] -o FILE -- CMD ARGS...
 *
 * Runs CMD (a launcher and the ranks it starts) and samples, until every
 * process of the job is gone:
 *
 *   - every -i MS (default 2): the used bytes of the filesystem at DIR
 *     (default /dev/shm), from statfs: (f_blocks - f_bfree) * f_frsize,
 *     the blocks tmpfs has allocated, which is what a size= limit (a
 *     container's /dev/shm) counts - files, unlinked files still open or
 *     mapped, and O_TMPFILE files alike.  The figure is the largest used
 *     minus the used just before CMD started;
 *   - every -p MS (default 20): VmHWM (peak resident set) of every process
 *     of the job, from /proc/PID/status; the figure is the sum over the
 *     processes of the last value seen of each (VmHWM only grows; a
 *     process that lived less than MS may be missed).  Shared pages count
 *     in every process that touched them, as the kernel counts them.
 *
 * "The job" is every process descended from memwatch: it is a child
 * subreaper, so a rank whose launcher exits first is still its descendant.
 * perf/memory.sh runs it as the first process of a private PID namespace,
 * where it is the reaper of everything anyway.  When CMD has exited,
 * memwatch waits up to -g S (default 10) for the rest of the job to exit,
 * then kills what is left (and says so).  memwatch runs at nice -10 where
 * it may (root), the job at the nice memwatch was started with.
 *
 * FILE receives, one per line, "name value":
 *   shm_base_bytes   used bytes of DIR before CMD started
 *   shm_peak_bytes   largest used minus base, while the job ran
 *   shm_left_bytes   used minus base after the job was gone (files left)
 *   rss_sum_kib      sum over the job's processes of their VmHWM
 *   procs            processes of the job seen
 *   samples          statfs samples taken
 *   left_procs       processes still running -g S after CMD exited (killed)
 * memwatch exits with CMD's status (128 + the signal if CMD was killed),
 * 125 if it could not run CMD.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PROCS 8192

struct proc {
    int pid;
    long hwm_kib;
};

static struct proc procs[MAX_PROCS];
static int nprocs;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void usage(void)
{
    fprintf(stderr, "usage: memwatch [-d DIR] [-i MS] [-p MS] [-g S] -o FILE -- CMD ARGS...\n");
    exit(125);
}

/* Used bytes of the filesystem at dir, or -1. */
static long long fs_used(const char *dir)
{
    struct statfs s;
    if (statfs(dir, &s) != 0)
        return -1;
    return (long long)(s.f_blocks - s.f_bfree) * (long long)s.f_frsize;
}

/* The parent pid of pid from /proc/PID/stat, or -1 when it is gone.  The
 * command name may hold spaces and parentheses: the fields start after
 * the last ')'. */
static int ppid_of(int pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    int ppid;
    char state;
    if (!p || sscanf(p + 1, " %c %d", &state, &ppid) != 2)
        return -1;
    return ppid;
}

static long hwm_of(int pid)
{
    char path[64], line[256];
    long kib = -1;
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

static struct proc *proc_entry(int pid)
{
    for (int i = 0; i < nprocs; i++)
        if (procs[i].pid == pid)
            return &procs[i];
    if (nprocs == MAX_PROCS)
        return NULL;
    procs[nprocs].pid = pid;
    procs[nprocs].hwm_kib = 0;
    return &procs[nprocs++];
}

/*
 * The job's processes now: every pid whose chain of parents reaches
 * memwatch.  Fills live[] (at most max) and returns how many; with
 * record, also records each one's VmHWM.
 */
static int scan_job(int *live, int max, int record)
{
    static int pid[65536], ppid[65536];
    static signed char mine[65536];
    int n = 0, self = getpid();
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 65536) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        int p = atoi(e->d_name), pp = ppid_of(p);
        if (pp < 0 || p == self)
            continue;
        pid[n] = p, ppid[n] = pp, mine[n] = pp == self;
        n++;
    }
    closedir(d);
    /* grandchildren and below: until nothing changes (the tree is shallow) */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < n; i++) {
            if (mine[i])
                continue;
            for (int j = 0; j < n; j++)
                if (mine[j] && pid[j] == ppid[i]) {
                    mine[i] = 1, changed = 1;
                    break;
                }
        }
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!mine[i])
            continue;
        if (k < max)
            live[k++] = pid[i];
        if (record) {
            long h = hwm_of(pid[i]);
            struct proc *pr = h > 0 ? proc_entry(pid[i]) : NULL;
            if (pr && h > pr->hwm_kib)
                pr->hwm_kib = h;
        }
    }
    return k;
}

int main(int argc, char **argv)
{
    const char *dir = "/dev/shm", *out = NULL;
    double every = 0.002, every_proc = 0.020, grace = 10;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (!strcmp(a, "-d") && v) {
            dir = v, i++;
        } else if (!strcmp(a, "-o") && v) {
            out = v, i++;
        } else if (!strcmp(a, "-i") && v) {
            every = atof(v) / 1000, i++;
        } else if (!strcmp(a, "-p") && v) {
            every_proc = atof(v) / 1000, i++;
        } else if (!strcmp(a, "-g") && v) {
            grace = atof(v), i++;
        } else {
            usage();
        }
    }
    if (!out || i >= argc || every <= 0 || every_proc <= 0)
        usage();
    FILE *of = fopen(out, "w");
    if (!of) {
        fprintf(stderr, "memwatch: %s: %s\n", out, strerror(errno));
        return 125;
    }
    long long base = fs_used(dir);
    if (base < 0) {
        fprintf(stderr, "memwatch: statfs %s: %s\n", dir, strerror(errno));
        return 125;
    }
    /* orphans of the job come back here, so they stay "the job" and are
     * reaped */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    /* Oversubscribed, 128 ranks that poll leave a sampler of nice 0 a
     * time slice every few hundred ms (measured: 343 samples in a 91 s
     * job of MPICH at np=128, 2026-11-29); at nice -10 it wakes on time.
     * The job runs at the nice it was given.  Not allowed: sampled
     * less often, no more. */
    int nice0 = getpriority(PRIO_PROCESS, 0);
    setpriority(PRIO_PROCESS, 0, -10);

    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "memwatch: fork: %s\n", strerror(errno));
        return 125;
    }
    if (child == 0) {
        setpriority(PRIO_PROCESS, 0, nice0);
        execvp(argv[i], argv + i);
        fprintf(stderr, "memwatch: %s: %s\n", argv[i], strerror(errno));
        _exit(125);
    }

    long long peak = 0;
    long samples = 0;
    int status = 0, child_done = 0, left = 0;
    static int live[MAX_PROCS];
    double next_proc = 0, deadline = 0;
    struct timespec tick = {0, (long)(every * 1e9)};
    for (;;) {
        long long u = fs_used(dir);
        if (u >= 0 && u - base > peak)
            peak = u - base;
        samples++;
        double t = now();
        int nlive = -1;
        if (t >= next_proc) {
            nlive = scan_job(live, MAX_PROCS, 1);
            next_proc = t + every_proc;
        }
        /* reap: the launcher, and any orphan handed to us */
        int st;
        pid_t w;
        while ((w = waitpid(-1, &st, WNOHANG)) > 0)
            if (w == child)
                status = st, child_done = 1, deadline = now() + grace;
        if (w < 0 && errno == ECHILD && child_done)
            break; /* nobody left */
        if (child_done && now() > deadline) {
            if (nlive < 0)
                nlive = scan_job(live, MAX_PROCS, 0);
            left = nlive;
            for (int k = 0; k < nlive; k++)
                kill(live[k], SIGKILL);
            while (waitpid(-1, &st, 0) > 0)
                ;
            break;
        }
        nanosleep(&tick, NULL);
    }
    long long end = fs_used(dir);
    long long rss = 0;
    for (int k = 0; k < nprocs; k++)
        rss += procs[k].hwm_kib;
    fprintf(of, "shm_base_bytes %lld\nshm_peak_bytes %lld\nshm_left_bytes %lld\n"
                "rss_sum_kib %lld\nprocs %d\nsamples %ld\nleft_procs %d\n",
            base, peak, end - base, rss, nprocs, samples, left);
    fclose(of);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
