/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * walltime.c - wall-clock timing of whole commands, interleaved.
 *
 *   walltime [-r RUNS] [-w WARMUP] [-t TIMEOUT_S] [-l LOGDIR] \
 *            [-n NOISE_PCT] [-q QUIET_WAIT_S] [-R RETRIES] \
 *            LABEL COPIES [NAME=VALUE...] CMD ARGS... [::: LABEL COPIES ...]...
 *
 * Each "cell" is a command started COPIES times at once (COPIES = 1 for a
 * launcher; COPIES = N for the machine's floor: N processes forked and
 * exec'd in parallel).  A round runs every cell once, in the order given
 * (A B C A B C ...), so that drift of a noisy machine hits all cells alike.
 * WARMUP rounds are run first and not counted; then RUNS counted rounds.
 *
 * One sample = clock_gettime(CLOCK_MONOTONIC) just before the first fork
 * to the moment the last copy has been reaped with waitpid: the whole
 * process lifetime of the launcher and everything it waits for.
 *
 * Leading NAME=VALUE words are added to the command's environment, as
 * with env(1) but without exec'ing env.  Children get stdin from
 * /dev/null, stdout+stderr into LOGDIR/LABEL.log (truncated every run) and
 * their own process group, so a run that outlives TIMEOUT_S is killed with
 * its whole tree.  walltime is a child subreaper, so processes that
 * outlive the command come back to it; they are killed and reported.  A cell whose run
 * exits non-zero, dies by a signal or times out is marked failed and is
 * not run again; its result line says why instead of giving a time.
 *
 * The machine is shared: each counted round is measured for the CPU time
 * that *other* processes used while it ran - machine-wide busy ticks from
 * /proc/stat (steal included) minus the CPU time of walltime and its
 * reaped descendants (getrusage), as a percentage of the whole machine.
 * A round above NOISE_PCT (default 10; negative: no guard) is run again,
 * after waiting at most QUIET_WAIT_S (default 10) for a 200 ms stretch
 * quieter than NOISE_PCT, up to RETRIES (default 2) times; the last
 * attempt is kept either way, and the figures are reported.
 *
 * Output, one line per cell, tab-separated, then one line for the rounds:
 *   LABEL    ok    MEDIAN_S MIN_S MAX_S RUNS
 *   LABEL    FAIL  REASON (free text, may contain spaces)
 *   #others  MEDIAN_PCT MAX_PCT RERUNS   (others' share over kept rounds)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct cell {
    const char *label;
    int copies;
    char **argv;
    double *t;          /* counted samples */
    int n;
    char fail[256];     /* non-empty once the cell failed */
    char log[4096];
    int leftover;       /* runs that left processes behind */
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void usage(void)
{
    fprintf(stderr, "usage: walltime [-r runs] [-w warmup] [-t timeout_s] [-l logdir]\n"
                    "         [-n noise_pct] [-q quiet_wait_s] [-R retries]\n"
                    "         LABEL COPIES [NAME=VALUE...] CMD ARGS... [::: LABEL COPIES ...]...\n");
    exit(2);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Runs one sample of cell c; returns elapsed seconds, or < 0 on failure
 * (with c->fail filled in). */
static double run_once(struct cell *c, double timeout)
{
    pid_t pids[c->copies];
    int live = 0;
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);

    double t0 = now();
    for (int i = 0; i < c->copies; i++) {
        pid_t p = fork();
        if (p < 0) {
            snprintf(c->fail, sizeof c->fail, "fork: %s", strerror(errno));
            break;
        }
        if (p == 0) {
            sigprocmask(SIG_UNBLOCK, &chld, NULL);
            setpgid(0, 0);
            int in = open("/dev/null", O_RDONLY);
            int out = open(c->log, O_WRONLY | O_CREAT | (i == 0 ? O_TRUNC : O_APPEND), 0644);
            if (in < 0 || out < 0)
                _exit(126);
            dup2(in, 0);
            dup2(out, 1);
            dup2(out, 2);
            close(in);
            close(out);
            char **av = c->argv;
            while (av[0] && av[1] && av[0][0] != '/' && strchr(av[0], '='))
                putenv(*av++);              /* leading NAME=VALUE, as env(1) */
            execvp(av[0], av);
            fprintf(stderr, "walltime: cannot run %s: %s\n", av[0], strerror(errno));
            _exit(127);
        }
        setpgid(p, p);
        pids[live++] = p;
    }

    double deadline = t0 + timeout;
    int left = live;
    while (left > 0) {
        int st;
        pid_t p = waitpid(-1, &st, WNOHANG);
        if (p > 0) {
            for (int i = 0; i < live; i++)
                if (pids[i] == p) {
                    pids[i] = -pids[i];     /* reaped */
                    left--;
                    if (c->fail[0]) {
                    } else if (WIFSIGNALED(st)) {
                        snprintf(c->fail, sizeof c->fail, "killed by signal %d (%s)",
                                 WTERMSIG(st), strsignal(WTERMSIG(st)));
                    } else if (WEXITSTATUS(st) != 0) {
                        snprintf(c->fail, sizeof c->fail, "exit status %d",
                                 WEXITSTATUS(st));
                    }
                }
            continue;
        }
        if (p < 0 && errno != EINTR) {
            if (!c->fail[0])
                snprintf(c->fail, sizeof c->fail, "waitpid: %s", strerror(errno));
            break;
        }
        double rest = deadline - now();
        if (rest <= 0) {
            if (!c->fail[0])
                snprintf(c->fail, sizeof c->fail, "timed out after %g s", timeout);
            for (int i = 0; i < live; i++)
                if (pids[i] > 0)
                    kill(-pids[i], SIGKILL);
            deadline = now() + 3600;        /* now just reap them */
            continue;
        }
        struct timespec ts = {(time_t)rest, (long)((rest - (double)(time_t)rest) * 1e9)};
        sigtimedwait(&chld, NULL, &ts);     /* woken by any child's exit */
    }
    double t1 = now();
    /* walltime is a child subreaper: a descendant that outlives the
     * launcher is reparented here.  Such leftovers would run into the next
     * sample, so they are killed (their process group is still alive, so
     * its id cannot have been reused) and reaped, and reported. */
    int st;
    if (waitpid(-1, &st, WNOHANG) >= 0) {
        if (!c->fail[0] && !c->leftover++)
            fprintf(stderr, "walltime: %s: processes outlived the command; "
                            "killing them\n", c->label);
        for (int i = 0; i < live; i++)
            kill(-(pids[i] < 0 ? -pids[i] : pids[i]), SIGKILL);
        /* Reap until none is left; give up (and say so) after 10 s, e.g.
         * when a leftover moved to a process group of its own. */
        double stop = now() + 10;
        pid_t r;
        while ((r = waitpid(-1, &st, WNOHANG)) >= 0 && now() < stop)
            if (r == 0)
                nanosleep(&(struct timespec){0, 1000000}, NULL);
        if (r >= 0)
            fprintf(stderr, "walltime: %s: some leftover processes are still "
                            "running\n", c->label);
    }
    return c->fail[0] ? -1 : t1 - t0;
}

/* Machine-wide CPU time from /proc/stat (clock ticks, all CPUs; steal
 * counts as busy: the host took it) and the CPU time of this process and
 * its reaped descendants (which includes every process of a job: a
 * launcher reaps its ranks, walltime reaps the launcher and any orphan). */
struct load {
    double busy, total, ours;
};

static struct load load_now(void)
{
    struct load l = {0, 0, 0};
    unsigned long long v[10] = {0};
    FILE *f = fopen("/proc/stat", "r");
    if (f) {
        if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
            l.busy = (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]);
            l.total = l.busy + (double)(v[3] + v[4]);
        }
        fclose(f);
    }
    double hz = (double)sysconf(_SC_CLK_TCK);
    struct rusage ru;
    for (int who = 0; who < 2; who++) {
        getrusage(who ? RUSAGE_CHILDREN : RUSAGE_SELF, &ru);
        l.ours += ((double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
                   ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e-6) * hz;
    }
    return l;
}

/* Percent of the whole machine used by other processes between a and b. */
static double others_pct(struct load a, struct load b)
{
    double total = b.total - a.total;
    if (total <= 0)
        return 0;
    double o = ((b.busy - a.busy) - (b.ours - a.ours)) * 100 / total;
    return o < 0 ? 0 : o;
}

/* Waits (at most max_s) until others use at most pct% over 200 ms. */
static void wait_quiet(double pct, double max_s)
{
    double stop = now() + max_s;
    do {
        struct load a = load_now();
        nanosleep(&(struct timespec){0, 200000000}, NULL);
        if (others_pct(a, load_now()) <= pct)
            return;
    } while (now() < stop);
}

static void show_log(const struct cell *c)
{
    FILE *f = fopen(c->log, "r");
    if (!f)
        return;
    char line[512];
    int k = 0;
    fprintf(stderr, "walltime: %s failed (%s); its output:\n", c->label, c->fail);
    while (k < 15 && fgets(line, sizeof line, f)) {
        fprintf(stderr, "    %s", line);
        if (!strchr(line, '\n'))
            fputc('\n', stderr);
        k++;
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    int runs = 10, warmup = 1;
    double timeout = 120;
    const char *logdir = NULL;
    int opt;
    double noise_pct = 10, quiet_wait = 10;
    int retries = 2;
    while ((opt = getopt(argc, argv, "+r:w:t:l:n:q:R:")) != -1) {
        switch (opt) {
        case 'n': noise_pct = atof(optarg); break;
        case 'q': quiet_wait = atof(optarg); break;
        case 'R': retries = atoi(optarg); break;
        case 'r': runs = atoi(optarg); break;
        case 'w': warmup = atoi(optarg); break;
        case 't': timeout = atof(optarg); break;
        case 'l': logdir = optarg; break;
        default: usage();
        }
    }
    if (runs < 1 || warmup < 0 || timeout <= 0 || optind >= argc)
        usage();
    char tmpdir[] = "/tmp/walltime.XXXXXX";
    if (!logdir && !(logdir = mkdtemp(tmpdir))) {
        perror("walltime: mkdtemp");
        return 2;
    }

    int ncells = 0;
    struct cell *cells = calloc((size_t)argc, sizeof *cells);
    for (int i = optind; i < argc;) {
        if (argc - i < 3)
            usage();
        struct cell *c = &cells[ncells++];
        c->label = argv[i];
        c->copies = atoi(argv[i + 1]);
        if (c->copies < 1)
            usage();
        c->argv = &argv[i + 2];
        int j = i + 2;
        while (j < argc && strcmp(argv[j], ":::"))
            j++;
        if (j < argc)
            argv[j++] = NULL;       /* ends this cell's argv */
        c->t = calloc((size_t)runs, sizeof *c->t);
        snprintf(c->log, sizeof c->log, "%s/%s.log", logdir, c->label);
        for (char *s = c->log + strlen(logdir) + 1; *s; s++)
            if (*s == '/' || *s == ' ')
                *s = '_';
        i = j;
    }

    /* SIGCHLD blocked so that sigtimedwait can wait for it; children
     * unblock it again before exec. */
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    prctl(PR_SET_CHILD_SUBREAPER, 1);

    /* Counted rounds are guarded against other people's work: a round
     * during which other processes took more than noise_pct of the machine
     * is run again (after waiting up to quiet_wait s for a quiet moment),
     * at most retries times; the last attempt is kept either way. */
    double *others = calloc((size_t)runs, sizeof *others);
    int kept = 0, reruns = 0;
    for (int round = 0; round < warmup + runs; round++) {
        int counted = round >= warmup;
        for (int attempt = 0;; attempt++) {
            if (counted && noise_pct >= 0)
                wait_quiet(noise_pct, quiet_wait);
            int n0[ncells];
            for (int k = 0; k < ncells; k++)
                n0[k] = cells[k].n;
            struct load l0 = load_now();
            for (int k = 0; k < ncells; k++) {
                struct cell *c = &cells[k];
                if (c->fail[0])
                    continue;
                double t = run_once(c, timeout);
                if (t < 0)
                    show_log(c);
                else if (counted)
                    c->t[c->n++] = t;
            }
            if (!counted)
                break;
            double o = others_pct(l0, load_now());
            if (noise_pct < 0 || o <= noise_pct || attempt >= retries) {
                others[kept++] = o;
                break;
            }
            fprintf(stderr, "walltime: other processes took %.0f%% of the machine "
                            "during round %d; running it again\n", o, round - warmup + 1);
            reruns++;
            for (int k = 0; k < ncells; k++)
                cells[k].n = n0[k];
        }
    }

    for (int k = 0; k < ncells; k++) {
        struct cell *c = &cells[k];
        if (c->fail[0]) {
            printf("%s\tFAIL\t%s\n", c->label, c->fail);
            continue;
        }
        qsort(c->t, (size_t)c->n, sizeof *c->t, cmp);
        double med = c->n % 2 ? c->t[c->n / 2]
                              : (c->t[c->n / 2 - 1] + c->t[c->n / 2]) / 2;
        printf("%s\tok\t%.6f\t%.6f\t%.6f\t%d\n", c->label, med, c->t[0],
               c->t[c->n - 1], c->n);
    }
    if (kept) {
        qsort(others, (size_t)kept, sizeof *others, cmp);
        printf("#others\t%.0f\t%.0f\t%d\n", others[kept / 2], others[kept - 1], reruns);
    }
    if (logdir == tmpdir) {
        for (int k = 0; k < ncells; k++)
            unlink(cells[k].log);
        rmdir(tmpdir);
    }
    return 0;
}
