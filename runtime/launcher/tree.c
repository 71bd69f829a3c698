/*
 * tree.c - the job is every process a rank started, not only the ranks.
 *
 * A rank is often not the MPI process itself: `mpirun -np 4 ./run.sh`
 * runs a shell that runs the program as its child, and any rank may start
 * helpers (system(), fork(), a daemon).  Signalling only the pids we
 * started would leave all of those running, mapping the arena, for ever.
 * Three mechanisms, for the three ways a job ends:
 *
 *   - While we run, each rank is the leader of a process group of its own
 *     (spawn.c: setpgid before exec), which its children inherit, and
 *     every signal to a rank goes to its group (shmpi_ln_kill_all).  The
 *     group's number cannot be reused while the rank is unreaped (a
 *     zombie keeps its pid), and groups are only signalled then.
 *     Exception: when our stdin is a terminal, rank 0 (which reads it)
 *     stays in our process group - in a group of its own a read of the
 *     terminal would stop it with SIGTTIN; its subtree is then reached by
 *     the two mechanisms below only.
 *   - We are a child subreaper (PR_SET_CHILD_SUBREAPER): a process of the
 *     job whose parent died - a rank's helper after the rank exited, a
 *     daemon that double-forked or called setsid - becomes our child
 *     instead of init's.  Once every rank is reaped, whatever children we
 *     have besides the guardian (and, in the in-library launch, the
 *     program's own children from before the launch) belong to the job:
 *     shmpi_ln_tree_sweep kills and reaps them, round after round, since
 *     the children of a killed one become ours in turn.
 *   - If we are SIGKILLed nothing of ours runs.  The ranks have
 *     PR_SET_PDEATHSIG(SIGKILL), but that is one process each (a wrapper's
 *     child has none), and execve of a set-user-ID program clears it.
 *     So a guardian, forked before the arena exists and in a session of
 *     its own (a kill of our process group or a hangup of the terminal
 *     does not reach it), holds the read end of a pipe whose only writer
 *     is us.  We send it each rank's process group; at a normal end a 0
 *     that lets it exit.  End of file without that 0 means we died: it
 *     SIGKILLs every group it was given, then exits.  A group whose rank
 *     was reaped before our death keeps its number only while it has
 *     members, so this one kill could in theory reach a new group that
 *     took a freed number: the pid counter would have to wrap around in
 *     between.  A set-user-ID rank program is still ours to kill (its real
 *     uid is ours); one that also changed its real uid is not, under any
 *     launcher.
 *
 * What escapes all three: a process that both left its rank's group
 * (setsid, setpgid) and lost its parent chain to us while we were
 * SIGKILLed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

static _Noreturn void guardian_main(int fd, int32_t *groups, int max)
{
    setsid();
    prctl(PR_SET_NAME, "shmpi-guardian", 0, 0, 0);
    if (fd != 0) {
        dup2(fd, 0);
        fd = 0;
    }
    syscall(SYS_close_range, 1u, ~0u, 0u);
    int n = 0;
    for (;;) {
        int32_t buf[64];
        ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break; /* the launcher is gone without saying "done" */
        for (size_t i = 0; i < (size_t)got / sizeof *buf; i++) {
            if (buf[i] == 0)
                _exit(0);
            if (n < max)
                groups[n++] = buf[i];
        }
    }
    for (int i = 0; i < n; i++)
        kill(-groups[i], SIGKILL);
    _exit(0);
}

/* Forks the guardian (see the top of the file); every signal blocked in
   it from the first instruction: only SIGKILL ends it early. */
static int guardian_start(struct shmpi_job *j)
{
    struct shmpi_tree *t = &j->tree;
    int p[2];
    t->groups = calloc((size_t)j->np, sizeof *t->groups);
    if (!t->groups || pipe2(p, O_CLOEXEC) != 0)
        return -1;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = fork();
    if (pid == 0)
        guardian_main(p[0], t->groups, j->np);
    int e = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(p[0]);
    if (pid < 0) {
        close(p[1]);
        errno = e;
        return -1;
    }
    t->guardian = pid;
    t->guard_fd = p[1];
    return 0;
}

static void guardian_tell(struct shmpi_job *j, int32_t what)
{
    int fd = j->tree.guard_fd;
    if (fd >= 0 && shmpi_ln_write_all(fd, (const char *)&what, sizeof what))
        j->tree.guard_fd = -1, close(fd); /* it died: nobody to tell */
}

/* ---- the job's side ----------------------------------------------- */

int shmpi_ln_tree_start(struct shmpi_job *j)
{
    struct shmpi_tree *t = &j->tree;
    /* in the in-library launch, the program's own children are not ours */
    t->nbefore = children(t->before, SHMPI_TREE_BEFORE, NULL, 0);
    int old = 0;
    if (prctl(PR_GET_CHILD_SUBREAPER, &old, 0, 0, 0) == 0 && !old)
        t->subreaper_set = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
    return guardian_start(j);
}

void shmpi_ln_tree_rank(struct shmpi_job *j, int r)
{
    if (j->ranks[r].own_group)
        guardian_tell(j, (int32_t)j->ranks[r].pid);
}

/* Kills and reaps every child we have that is not a rank still
   unreaped, the guardian or one from before the job. */
void shmpi_ln_tree_sweep(struct shmpi_job *j)
{
    struct shmpi_tree *t = &j->tree;
    if (t->guardian <= 0)
        return; /* the job never started: nothing of it to look for */
    int nskip = t->nbefore + 1 + j->started;
    pid_t *skip = malloc((size_t)nskip * sizeof *skip);
    if (!skip)
        return;
    memcpy(skip, t->before, (size_t)t->nbefore * sizeof *skip);
    skip[t->nbefore] = t->guardian;
    for (int r = 0; r < j->started; r++)
        skip[t->nbefore + 1 + r] = j->ranks[r].alive ? j->ranks[r].pid : 0;
    pid_t left[SWEEP_BATCH];
    int n;
    while ((n = children(left, SWEEP_BATCH, skip, nskip)) > 0) {
        for (int i = 0; i < n; i++)
            kill(left[i], SIGKILL);
        for (int i = 0; i < n; i++)
            while (waitpid(left[i], NULL, 0) < 0 && errno == EINTR)
                ;
    }
    free(skip);
}

void shmpi_ln_tree_end(struct shmpi_job *j)
{
    struct shmpi_tree *t = &j->tree;
    if (t->guardian > 0) {
        guardian_tell(j, 0);
        if (t->guard_fd >= 0)
            close(t->guard_fd);
        while (waitpid(t->guardian, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    free(t->groups);
    if (t->subreaper_set)
        prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
}
