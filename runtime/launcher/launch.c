/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * launch.c - shmpi_ln_launch: set a job up, run it, take it down.
 *
 * The order is chosen so that whatever can fail without a child fails
 * first, with one message and nothing to clean up but memory: options and
 * tunables, the program (searched once, so a typo is reported before any
 * fork with status 127), the CPU plan, the arena (a full /dev/shm is
 * reported here, not as a SIGBUS later).  Then the ring and the signal
 * mask, and only then the ranks, one after another; a rank that cannot be
 * started fails the job through the same path as a rank that dies, so the
 * ranks already running are killed and reaped by the loop like any other.
 *
 * Teardown is one function for every path: it cancels what is still in
 * flight on the ring, closes every descriptor the job owns, frees every
 * buffer and restores what it changed in the process (signal mask,
 * SIGCHLD, RLIMIT_NOFILE) - the in-library launch runs inside the user's
 * program.  The arena file has no name (arena.c), so nothing is left in
 * /dev/shm however the job ends, even if we are SIGKILLed: then the
 * ranks' parent-death signal takes them down too.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launcher/job.h"

bool shmpi_ln_finished(const struct shmpi_job *j)
{
    return j->alive == 0 && j->open_streams == 0 && shmpi_ln_outq_idle(j);
}

static void job_init(struct shmpi_job *j, const struct shmpi_launch_opts *o)
{
    memset(j, 0, sizeof *j);
    clock_gettime(CLOCK_MONOTONIC, &j->t0);
    j->opts = o;
    j->tool = o->tool ? o->tool : "mpirun";
    j->arena_fd = j->devnull = j->sigfd = j->noinit_rank = j->named = -1;
    j->tree.guard_fd = -1;
    j->timeout_s = o->timeout_s > 0 ? o->timeout_s : 0;
}

/* Every variable the launcher or a rank reads (core/tunables.c), from
   the environment the ranks will get: ours and -x.  A rank's variable
   is parsed here too, so that garbage is one line now rather than one
   in every rank; the job-wide ones go into the arena (make_arena). */
static int read_tunables(struct shmpi_job *j)
{
    char err[SHMPI_TUN_ERR];
    if (shmpi_tun_load(&j->tun, SHMPI_TUN_READERS(SHMPI_TUN_BY_LAUNCHER) |
                                    SHMPI_TUN_READERS(SHMPI_TUN_BY_RANK),
                       j->opts->exports, 0, err, sizeof err) != 0) {
        shmpi_ln_say(j->tool, "%s", err);
        return SHMPI_EXIT_USAGE;
    }
    if (j->timeout_s == 0)
        j->timeout_s = (double)j->tun.value[SHMPI_TUN_TIMEOUT] / 1e9;
    j->grace_ms = (int)j->tun.value[SHMPI_TUN_KILL_GRACE_MS];
    return 0;
}

/* With 0, 1 or 2 closed, our pipes could get those numbers and the
   child's dup2 onto them would go wrong; /dev/null fills the gaps. */
static void ensure_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
            open("/dev/null", O_RDWR) < 0)
            return;
}

static int resolve_program(struct shmpi_job *j)
{
    int e = shmpi_ln_find_program(j->opts->argv[0], &j->path);
    if (e == 0)
        return 0;
    shmpi_ln_say(j->tool, "cannot run '%s': %s", j->opts->argv[0], strerror(e));
    return e == ENOENT   ? SHMPI_EXIT_NOTFOUND
           : e == ENOMEM ? SHMPI_EXIT_LAUNCH_ERROR
                         : SHMPI_EXIT_NOEXEC;
}

static int plan_cpus(struct shmpi_job *j)
{
    const struct shmpi_launch_opts *o = j->opts;
    if (shmpi_ln_topo_read(&j->topo) != 0) {
        shmpi_ln_say(j->tool, "cannot read the CPU affinity: %s",
                     strerror(errno));
        return SHMPI_EXIT_LAUNCH_ERROR;
    }
    bool need = o->report_bindings || o->np == 0 ||
                o->bind == SHMPI_BIND_CORE ||
                (o->bind == SHMPI_BIND_AUTO && o->np <= j->topo.ncpus);
    if (need && shmpi_ln_topo_cores(&j->topo) != 0) {
        shmpi_ln_say(j->tool, "cannot read the CPU topology: out of memory");
        return SHMPI_EXIT_LAUNCH_ERROR;
    }
    j->np = o->np ? o->np : j->topo.ncores;
    shmpi_ln_topo_plan(&j->topo, o->bind, j->np);
    return 0;
}

/* Before the arena: the guardian (a fork) must not map it. */
static int start_tree(struct shmpi_job *j)
{
    j->tty_stdin = isatty(0);
    if (shmpi_ln_tree_start(j) == 0)
        return 0;
    shmpi_ln_say(j->tool, "cannot start the job's guardian: %s",
                 strerror(errno));
    return SHMPI_EXIT_LAUNCH_ERROR;
}

static int make_arena(struct shmpi_job *j)
{
    char err[256];
    struct shmpi_arena_params params;
    shmpi_tun_arena_params(&j->tun, &params);
    if (shmpi_arena_create(j->np, j->topo.ncpus, &params, &j->arena_fd,
                           &j->hdr, err, sizeof err) == 0) {
        j->hdr->launcher_pid = (int32_t)getpid(); /* see rma/map.c */
        shmpi_tun_record(&j->tun, j->hdr);
        return 0;
    }
    j->arena_fd = -1;
    shmpi_ln_say(j->tool, "%s", err);
    return SHMPI_EXIT_LAUNCH_ERROR;
}

static int alloc_job(struct shmpi_job *j)
{
    j->ranks = calloc((size_t)j->np, sizeof *j->ranks);
    for (int r = 0; j->ranks && r < j->np; r++) {
        struct shmpi_rank *rk = &j->ranks[r];
        rk->pidfd = rk->io[0].fd = rk->io[1].fd = -1;
    }
    j->stack = shmpi_ln_spawn_stack();
    if (!j->ranks || !j->stack || shmpi_ln_env_build(j) != 0) {
        shmpi_ln_say(j->tool, "out of memory");
        return SHMPI_EXIT_LAUNCH_ERROR;
    }
    j->devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (j->devnull < 0) {
        shmpi_ln_say(j->tool, "cannot open /dev/null: %s", strerror(errno));
        return SHMPI_EXIT_LAUNCH_ERROR;
    }
    return 0;
}

/*
 * Room for 3 descriptors a rank (two pipes and a pidfd) before the first
 * fork: the soft limit is raised, and the hard one where we may (root, up
 * to fs.nr_open); the ranks get the old limits back.  A limit that
 * cannot be raised is one line now - before, -np 1024 under 'ulimit -n
 * 1024' started 337 ranks, then failed on the 338th and killed them.
 */
static int fit_nofile(struct shmpi_job *j)
{
    rlim_t need = (rlim_t)j->np * 3 + 64;
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
        rl.rlim_cur >= need)
        return 0;
    j->nofile_orig = rl;
    rl.rlim_cur = need;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need)
        rl.rlim_max = need;
    if (setrlimit(RLIMIT_NOFILE, &rl) == 0) {
        j->nofile_raised = true;
        return 0;
    }
    shmpi_ln_say(j->tool,
                 "%d ranks need %llu file descriptors here (3 per rank), "
                 "but 'ulimit -n' allows %llu and cannot be raised: raise "
                 "it, or run fewer ranks",
                 j->np, (unsigned long long)need,
                 (unsigned long long)j->nofile_orig.rlim_max);
    return SHMPI_EXIT_LAUNCH_ERROR;
}

/* The kernel's limits on processes, before the first fork, so that a job
   too large is one line rather than a failure at rank k after k ranks
   started.  RLIMIT_NPROC counts every process of the user; only the
   ranks are counted here, so a user near the limit may still meet it at
   fork (start_error says so then).  Root is not held to RLIMIT_NPROC. */
static int fit_processes(struct shmpi_job *j)
{
    struct rlimit rl;
    unsigned long long want = (unsigned long long)j->np + 2, most = 0;
    FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
    if (f) {
        if (fscanf(f, "%llu", &most) == 1 && want + 300 > most) {
            fclose(f);
            shmpi_ln_say(j->tool,
                         "%d ranks are more processes than the kernel "
                         "numbers (kernel.pid_max = %llu)",
                         j->np, most);
            return SHMPI_EXIT_LAUNCH_ERROR;
        }
        fclose(f);
    }
    if (geteuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 &&
        rl.rlim_cur != RLIM_INFINITY && want > rl.rlim_cur) {
        shmpi_ln_say(j->tool,
                     "%d ranks need %llu processes, but 'ulimit -u' "
                     "allows %llu: raise it, or run fewer ranks",
                     j->np, want, (unsigned long long)rl.rlim_cur);
        return SHMPI_EXIT_LAUNCH_ERROR;
    }
    return 0;
}

static int start_loop(struct shmpi_job *j)
{
    int rc = shmpi_ln_loop_init(j);
    if (rc < 0) {
        shmpi_ln_say(j->tool, "cannot set up io_uring: %s", strerror(-rc));
        return SHMPI_EXIT_LAUNCH_ERROR;
    }
    if (shmpi_ln_signals_take(j) != 0) {
        shmpi_ln_say(j->tool, "signalfd: %s", strerror(errno));
        return SHMPI_EXIT_LAUNCH_ERROR;
    }
    return 0;
}

/* Everything before the first fork; returns 0 or the exit status. */
static int prepare(struct shmpi_job *j)
{
    const struct shmpi_launch_opts *o = j->opts;
    if (o->np < 0 || !o->argv || !o->argv[0]) {
        shmpi_ln_say(j->tool, "no program to run");
        return SHMPI_EXIT_USAGE;
    }
    int st = read_tunables(j);
    if (st == 0) {
        ensure_std_fds();
        st = resolve_program(j);
    }
    if (st == 0)
        st = plan_cpus(j);
    if (st == 0)
        st = fit_processes(j);
    if (st == 0)
        st = fit_nofile(j);
    if (st == 0)
        st = start_tree(j);
    if (st == 0)
        st = make_arena(j);
    if (st == 0 && o->report_bindings)
        shmpi_ln_topo_report(&j->topo, j->np, j->tool);
    if (st == 0)
        st = alloc_job(j);
    if (st == 0)
        st = start_loop(j);
    return st;
}

static void reap_pid(pid_t pid)
{
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

/* errno as a message, with advice where there is some. */
static const char *start_error(int e)
{
    if (e == EMFILE || e == ENFILE)
        return "too many open files (3 per rank here; raise 'ulimit -n')";
    if (e == EAGAIN)
        return "too many processes (raise 'ulimit -u', or kernel.pid_max "
               "and kernel.threads-max)";
    return strerror(e);
}

/* From now on the loop knows rank r: its exit is one of its events. */
static int watch(struct shmpi_job *j, int r)
{
    struct shmpi_rank *rk = &j->ranks[r];
    rk->pidfd = (int)syscall(SYS_pidfd_open, rk->pid, 0);
    if (rk->pidfd < 0) {
        int e = errno;
        kill(rk->pid, SIGKILL);
        reap_pid(rk->pid);
        shmpi_ln_fail(j, SHMPI_EXIT_LAUNCH_ERROR, "cannot watch rank %d: %s", r,
                      start_error(e));
        return -1;
    }
    rk->alive = true;
    j->alive++;
    shmpi_ln_tree_rank(j, r);
    struct io_uring_sqe *sqe = shmpi_ln_loop_sqe(j);
    io_uring_prep_poll_add(sqe, rk->pidfd, POLLIN);
    shmpi_ln_loop_tag(sqe, UD_EXIT, (unsigned)r);
    return 0;
}

/* Clones rank r with its pipes' write ends w; returns the pid or -1,
   and in *err why there is no running rank (0 if there is one). */
static pid_t clone_rank(struct shmpi_job *j, int r, const int w[2], int *err)
{
    shmpi_ln_env_set_rank(j, r);
    struct shmpi_spawn_args a = {
        .path = j->path,
        .argv = j->opts->argv,
        .envp = j->envp,
        .in_fd = r == 0 ? -1 : j->devnull,
        .out_fd = w[0],
        .err_fd = w[1],
        .arena_fd = j->arena_fd,
        .cpus = shmpi_ln_topo_rank_cpus(&j->topo, r),
        .setsize = j->topo.setsize,
        .nofile = j->nofile_raised ? &j->nofile_orig : NULL,
        .launcher = getpid(),
        .new_group = j->ranks[r].own_group,
        .pid_slot = &shmpi_arena_slot(j->hdr, r)->pid,
    };
    pid_t pid = shmpi_ln_spawn(&a, j->stack);
    *err = pid < 0 ? errno : a.exec_errno;
    return pid;
}

static int start_rank(struct shmpi_job *j, int r)
{
    int w[2], e;
    j->ranks[r].own_group = !(r == 0 && j->tty_stdin);
    if (shmpi_ln_iofwd_pipes(j, r, w) != 0) {
        shmpi_ln_fail(j, SHMPI_EXIT_LAUNCH_ERROR, "cannot start rank %d: %s", r,
                      start_error(errno));
        return -1;
    }
    pid_t pid = clone_rank(j, r, w, &e);
    close(w[0]);
    close(w[1]);
    j->started = r + 1;
    shmpi_ln_iofwd_arm(j, &j->ranks[r].io[0]);
    shmpi_ln_iofwd_arm(j, &j->ranks[r].io[1]);
    if (pid > 0 && e == 0) {
        j->ranks[r].pid = pid;
        return watch(j, r);
    }
    if (pid < 0) {
        shmpi_ln_fail(j, SHMPI_EXIT_LAUNCH_ERROR, "cannot start rank %d: %s", r,
                      start_error(e));
        return -1;
    }
    reap_pid(pid); /* exec failed: the child exited at once */
    shmpi_ln_fail(j, e == ENOENT ? SHMPI_EXIT_NOTFOUND : SHMPI_EXIT_NOEXEC,
                  "cannot run '%s': %s", j->opts->argv[0], strerror(e));
    return -1;
}

/* --timeout counts from the start of shmpi_ln_launch, as the user sees it
   (not from the last fork, which can be late on a loaded machine). */
static void arm_deadline(struct shmpi_job *j)
{
    long long ns = j->t0.tv_nsec + (long long)(j->timeout_s * 1e9);
    j->timeout_ts.tv_sec = j->t0.tv_sec + ns / 1000000000;
    j->timeout_ts.tv_nsec = ns % 1000000000;
    struct io_uring_sqe *sqe = shmpi_ln_loop_sqe(j);
    io_uring_prep_timeout(sqe, &j->timeout_ts, 0, IORING_TIMEOUT_ABS);
    shmpi_ln_loop_tag(sqe, UD_TIMEOUT, 0);
}

/* Ranks are started while the events of those already running are
   handled every POLL_EVERY starts (shmpi_ln_loop_poll): a job decided
   meanwhile (a failed rank, --timeout, a signal) starts no more.  The
   sweep of a job whose started ranks all exited waits for the end of
   the launch (tree.c), when no more will come. */
enum { POLL_EVERY = 16 };

static void run(struct shmpi_job *j)
{
    shmpi_ln_signals_arm(j);
    if (j->timeout_s > 0)
        arm_deadline(j);
    j->launching = true;
    for (int r = 0; r < j->np && !j->decided; r++) {
        if (start_rank(j, r) != 0)
            break;
        if (r % POLL_EVERY == POLL_EVERY - 1)
            shmpi_ln_loop_poll(j);
    }
    j->launching = false;
    if (!j->decided)
        shmpi_ln_watch_start(j);
    shmpi_ln_tree_sweep(j);
    shmpi_ln_loop_run(j);
}

static void teardown(struct shmpi_job *j)
{
    shmpi_ln_verdict_flush(j, true); /* only if the loop could not */
    shmpi_ln_loop_quiesce(j);
    shmpi_ln_tree_sweep(j);
    shmpi_ln_tree_end(j);
    if (j->ring_ok)
        io_uring_queue_exit(&j->ring);
    for (int r = 0; j->ranks && r < j->np; r++)
        if (j->ranks[r].pidfd >= 0)
            close(j->ranks[r].pidfd);
    shmpi_ln_iofwd_free(j);
    shmpi_ln_outq_free(j);
    shmpi_ln_watch_free(j);
    free(j->ranks);
    free(j->envp);
    free(j->path);
    shmpi_ln_topo_free(&j->topo);
    if (j->hdr)
        shmpi_arena_detach(j->hdr);
    if (j->arena_fd >= 0)
        close(j->arena_fd);
    if (j->devnull >= 0)
        close(j->devnull);
    shmpi_ln_spawn_stack_free(j->stack);
    shmpi_ln_signals_restore(j);
    if (j->nofile_raised)
        setrlimit(RLIMIT_NOFILE, &j->nofile_orig);
}

int shmpi_ln_launch(const struct shmpi_launch_opts *opts)
{
    struct shmpi_job j;
    job_init(&j, opts);
    int status = prepare(&j);
    if (status == 0) {
        run(&j);
        status = j.decided ? j.status : shmpi_ln_check_verdict(&j);
    }
    teardown(&j);
    return status;
}
