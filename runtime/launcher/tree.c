/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tree.c - the job is every process a rank started, not only the ranks.
 *
 * A rank is often not the MPI process itself: `mpirun -np 4 ./run.sh`
 * runs a shell that runs the program as its child, and any rank may start
 * helpers (system(), fork(), a daemon).  Signalling only the pids we
 * started would leave all of those running, mapping the arena, for ever.
 * Three mechanisms, for the three ways a job ends:
 *
 *   - Each rank leads a process group of its own (spawn.c: setpgid
 *     before exec), which its children inherit, and every signal to a
 *     rank goes to its group (policy.c, signal_rank).  A rank that exited
 *     is kept a zombie (waitid WNOWAIT) until every rank has: its pid -
 *     the number of its group - cannot be reused until then.  When the
 *     last rank has exited, shmpi_ln_tree_sweep SIGKILLs every rank's
 *     group (a wrapper's program still running, the helpers), then reaps
 *     the ranks.  Exception: when our stdin is a terminal, rank 0 (which
 *     reads it) stays in our process group - in a group of its own a read
 *     of the terminal would stop it with SIGTTIN; its children are then
 *     reached by the subreaper only.
 *   - We are a child subreaper (PR_SET_CHILD_SUBREAPER): a process of the
 *     job whose parent died - a rank's helper after the rank exited, a
 *     daemon that double-forked or called setsid - becomes our child
 *     instead of init's.  After the group kills, a child we still have
 *     (waitid P_ALL says so, without a look at /proc) is such a process
 *     that left its group: only then is /proc searched for our children,
 *     and they are killed and reaped, round after round, since the
 *     children of a killed one become ours in turn.  (In the in-library
 *     launch, the program's own children from before the launch are left
 *     alone.)  /proc is not searched otherwise: reading /proc/PID/stat of
 *     each of 120 processes took 5 to 7 ms here (2026-11-28, a loop of 10
 *     scans), as much as a third of a whole job of one rank.
 *   - If we are SIGKILLed nothing of ours runs.  The ranks have
 *     PR_SET_PDEATHSIG(SIGKILL), but that is one process each (a wrapper's
 *     child has none), and execve of a set-user-ID program clears it.
 *     So a guardian, forked before the arena exists (it never maps it)
 *     and in a session of its own (a kill of our process group or a
 *     hangup of the terminal does not reach it), holds the read end of a
 *     pipe whose only writer is us.  Each rank's process group goes to
 *     memory shared with it; once every rank has exited, one byte on the
 *     pipe lets it exit.  End of file without that byte means we died: it
 *     SIGKILLs every group in its list, then exits.  The ranks' zombies, which kept those numbers,
 *     are reaped by init once we are dead, so this one kill could in
 *     theory reach a new group that took a freed number: the pid
 *     counter would have to wrap around in between.  A set-user-ID rank
 *     program is still ours to kill (its real uid is ours); one that also
 *     changed its real uid is not, under any launcher.
 *
 * What escapes: a process that left its rank's group (setsid, setpgid)
 * while we were SIGKILLed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launcher/job.h"

#define SWEEP_BATCH 256

/* ---- our children, from /proc ---------------------------------------- */

/* The parent of pid (as /proc/pid/stat says), or -1. */
static pid_t parent_of(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    /* "pid (comm) state ppid ...": comm may hold anything, even ")" */
    char *p = strrchr(buf, ')');
    int ppid;
    return p && sscanf(p + 1, " %*c %d", &ppid) == 1 ? (pid_t)ppid : -1;
}

static bool listed(const pid_t *v, int n, pid_t pid)
{
    for (int i = 0; i < n; i++)
        if (v[i] == pid)
            return true;
    return false;
}

/* Our children (any thread's) except those in skip[nskip], up to max. */
static int children(pid_t *out, int max, const pid_t *skip, int nskip)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    pid_t self = getpid();
    int n = 0;
    struct dirent *e;
    while (n < max && (e = readdir(d))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || listed(skip, nskip, (pid_t)pid))
            continue;
        if (parent_of((pid_t)pid) == self)
            out[n++] = (pid_t)pid;
    }
    closedir(d);
    return n;
}

/* ---- the guardian -------------------------------------------------- */

static _Noreturn void guardian_main(int in, struct shmpi_guard_list *list)
{
    setsid();
    prctl(PR_SET_NAME, "shmpi-guardian", 0, 0, 0);
    dup2(in, 0); /* in >= 3: ensure_std_fds ran */
    syscall(SYS_close_range, 1u, ~0u, 0u);
    char done;
    ssize_t got;
    while ((got = read(0, &done, 1)) < 0 && errno == EINTR)
        ;
    if (got == 1)
        _exit(0); /* the job is over */
    /* end of file: the launcher is gone without saying so */
    int n = atomic_load_explicit(&list->count, memory_order_acquire);
    for (int i = 0; i < n; i++)
        kill(-list->group[i], SIGKILL);
    _exit(0);
}

/* Starts the guardian (see the top of the file): a fork whose exit
   signal is none instead of SIGCHLD - a "clone child", which a wait
   without __WCLONE does not see, so that have_children() below speaks
   of the job's processes only.  Every signal is blocked in it from the
   start: only SIGKILL ends it early.  The groups are written to shared
   memory, not to the pipe: the guardian wakes up once, at the end, not
   at every rank (on this 2-core machine, loaded, each wake-up of another
   process cost a job of 4 ranks about a millisecond, 2026-11-28). */
static int guardian_start(struct shmpi_job *j)
{
    struct shmpi_tree *t = &j->tree;
    int in[2];
    t->list_bytes = sizeof *t->list + (size_t)j->np * sizeof(int32_t);
    void *m = mmap(NULL, t->list_bytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    t->list = m;
    if (pipe2(in, O_CLOEXEC) != 0)
        return -1;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    /* raw clone, like fork: the child only makes system calls */
    long pid = syscall(SYS_clone, 0L, NULL, NULL, NULL, 0L);
    if (pid == 0)
        guardian_main(in[0], t->list);
    int e = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(in[0]);
    if (pid < 0) {
        close(in[1]);
        errno = e;
        return -1;
    }
    t->guardian = (pid_t)pid;
    t->guard_fd = in[1];
    return 0;
}

/* The job is over: the guardian may go. */
static void guardian_release(struct shmpi_tree *t)
{
    if (t->guard_fd < 0)
        return;
    char done = 1;
    while (write(t->guard_fd, &done, 1) < 0 && errno == EINTR)
        ;
    close(t->guard_fd);
    t->guard_fd = -1;
}

/* ---- the job's side ----------------------------------------------- */

/* Do we have a child (alive or not) besides the guardian?  Without a
   look at /proc. */
static bool have_children(void)
{
    siginfo_t si;
    return waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) == 0;
}

int shmpi_ln_tree_start(struct shmpi_job *j)
{
    struct shmpi_tree *t = &j->tree;
    /* in the in-library launch, the program's own children are not ours */
    t->had_children = have_children();
    if (t->had_children)
        t->nbefore = children(t->before, SHMPI_TREE_BEFORE - 1, NULL, 0);
    if (guardian_start(j) != 0)
        return -1;
    t->before[t->nbefore++] = t->guardian; /* never swept */
    t->started = true;
    int old = 0;
    if (prctl(PR_GET_CHILD_SUBREAPER, &old, 0, 0, 0) == 0 && !old)
        t->subreaper_set = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
    return 0;
}

void shmpi_ln_tree_rank(struct shmpi_job *j, int r)
{
    struct shmpi_guard_list *l = j->tree.list;
    if (!l || !j->ranks[r].own_group)
        return;
    int n = atomic_load_explicit(&l->count, memory_order_relaxed);
    l->group[n] = (int32_t)j->ranks[r].pid;
    /* release: the guardian reads group[n] after it loads the count */
    atomic_store_explicit(&l->count, n + 1, memory_order_release);
}

/* Kills and reaps, round after round, every child we have that is not
   the guardian or one of the program's own from before the job. */
static void sweep_children(struct shmpi_job *j)
{
    struct shmpi_tree *t = &j->tree;
    pid_t left[SWEEP_BATCH];
    int n;
    while ((n = children(left, SWEEP_BATCH, t->before, t->nbefore)) > 0) {
        for (int i = 0; i < n; i++)
            kill(left[i], SIGKILL);
        for (int i = 0; i < n; i++)
            while (waitpid(left[i], NULL, 0) < 0 && errno == EINTR)
                ;
    }
}

/* Once every rank has exited (and none is still to be started): the
   guardian may go, what is left of the ranks' groups is killed, the
   ranks are reaped, then whatever else of the job is still ours is
   killed. */
void shmpi_ln_tree_sweep(struct shmpi_job *j)
{
    if (!j->tree.started || j->alive > 0 || j->launching)
        return;
    guardian_release(&j->tree);
    for (int r = 0; r < j->started; r++) {
        struct shmpi_rank *rk = &j->ranks[r];
        if (rk->pidfd >= 0 && rk->own_group)
            kill(-rk->pid, SIGKILL); /* its zombie keeps the number */
    }
    for (int r = 0; r < j->started; r++) {
        struct shmpi_rank *rk = &j->ranks[r];
        if (rk->pidfd < 0)
            continue;
        siginfo_t si;
        while (waitid((idtype_t)P_PIDFD, (id_t)rk->pidfd, &si, WEXITED) != 0 &&
               errno == EINTR)
            ;
        close(rk->pidfd);
        rk->pidfd = -1;
    }
    if (!j->tree.had_children) /* else they could be the program's */
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
    if (have_children())
        sweep_children(j);
}

void shmpi_ln_tree_end(struct shmpi_job *j)
{
    struct shmpi_tree *t = &j->tree;
    guardian_release(t);
    /* Reaped if it is gone already; else it is left to init: waiting
       for it to be scheduled would cost a job of one rank up to a few
       ms on a loaded machine, and we (mpirun, or the program of the
       in-library launch) exit right after this. */
    if (t->guardian > 0)
        waitpid(t->guardian, NULL, __WCLONE | WNOHANG);
    if (t->list)
        munmap(t->list, t->list_bytes);
    if (t->subreaper_set)
        prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
}
