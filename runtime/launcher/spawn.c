/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * spawn.c - start one rank: clone, set the child up, exec.
 *
 * The child is made the way glibc's posix_spawn makes one: clone with
 * CLONE_VM | CLONE_VFORK on a small stack of its own.  No page tables are
 * copied (fork of a large program - the in-library launch runs inside the
 * user's program - costs milliseconds; this costs the same whatever the
 * parent's size), and we are suspended until the child has exec'd, so
 * the child can report a failed exec simply by storing errno in shared
 * memory (args->exec_errno).  posix_spawn itself cannot be used: it can
 * neither set a parent-death signal nor CPU affinity.
 *
 * The price of sharing memory is discipline in the child: it only makes
 * system calls, touches nothing but *args, and runs with every signal
 * blocked until each handler the parent installed is reset to SIG_DFL
 * (a handler running on the child's stack would write to the parent's
 * memory).  Signals the parent ignores stay ignored, as across any exec
 * (so `nohup mpirun` works); the child ends with an empty mask.
 *
 * In the child, in order: PR_SET_PDEATHSIG(SIGKILL) and a check that the
 * launcher is still our parent (else it died before the prctl and nobody
 * would kill us), a process group of its own (tree.c: the rank's children
 * are then signalled with it), its pid in its arena slot (before exec, so
 * MPI_Init can tell the rank from its children, init/init.c), signals, stdin/stdout/stderr, the arena descriptor made
 * inheritable (it is O_CLOEXEC in the launcher, so no other exec'd child
 * of the program gets it), the original RLIMIT_NOFILE if the launcher
 * raised its own, CPU affinity, execve.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "launcher/job.h"

#define SPAWN_STACK (256 * 1024) /* generous: sanitizer builds use more */

/* The child runs on a stack ASan does not know; uninstrumented code there
   avoids ASan's false alarms (UBSan checks stay). */
#define CHILD_CODE __attribute__((no_sanitize_address))

/* ThreadSanitizer's clone interceptor treats every clone as a fork: the
   child detaches from TSan's state and the parent reattaches, which with
   CLONE_VM is the same state, and TSan aborts (CHECK failed in
   ForkAfter; clang 14).  A TSan build calls glibc's __clone, which TSan
   does not intercept: the child borrows the suspended parent's thread
   state for its few system calls, as it borrows its memory.  It must
   not write TSan's state, though: TSan keeps the program's signal
   handlers in a table of its own, which the child shares, so the
   child's resets to SIG_DFL through TSan's sigaction would become the
   parent's (its handlers would stop running).  The child calls glibc's
   __sigaction, which TSan does not intercept either. */
#if defined(__SANITIZE_THREAD__)
#define SHMPI_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SHMPI_TSAN 1
#endif
#endif
#ifdef SHMPI_TSAN
extern int __clone(int (*fn)(void *), void *stack, int flags, void *arg, ...);
extern int __sigaction(int sig, const struct sigaction *act,
                       struct sigaction *old);
#define spawn_clone __clone
#define child_sigaction __sigaction
#else
#define spawn_clone clone
#define child_sigaction sigaction
#endif

void *shmpi_ln_spawn_stack(void)
{
    void *p = mmap(NULL, SPAWN_STACK, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void shmpi_ln_spawn_stack_free(void *stack)
{
    if (stack)
        munmap(stack, SPAWN_STACK);
}

/* The child's copy of from becomes fd to, without FD_CLOEXEC. */
CHILD_CODE static int move_fd(int from, int to)
{
    if (from == to)
        return fcntl(to, F_SETFD, 0);
    return dup2(from, to) < 0 ? -1 : 0;
}

CHILD_CODE static void default_signals(void)
{
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction sa;
        if (sig == SIGKILL || sig == SIGSTOP ||
            child_sigaction(sig, NULL, &sa) != 0)
            continue;
        if (sa.sa_handler == SIG_IGN || sa.sa_handler == SIG_DFL)
            continue;
        sa.sa_handler = SIG_DFL;
        sa.sa_flags = 0;
        child_sigaction(sig, &sa, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

CHILD_CODE static int setup_fds(const struct shmpi_spawn_args *a)
{
    if (a->in_fd >= 0 && move_fd(a->in_fd, 0) != 0)
        return -1;
    if (move_fd(a->out_fd, 1) != 0 || move_fd(a->err_fd, 2) != 0)
        return -1;
    return fcntl(a->arena_fd, F_SETFD, 0);
}

CHILD_CODE static int child_main(void *arg)
{
    struct shmpi_spawn_args *a = arg;
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != a->launcher)
        _exit(127);
    if (a->new_group && setpgid(0, 0) != 0) {
        a->exec_errno = errno;
        _exit(127);
    }
    *a->pid_slot = (int32_t)getpid();
    default_signals();
    if (setup_fds(a) != 0) {
        a->exec_errno = errno;
        _exit(127);
    }
    if (a->nofile)
        setrlimit(RLIMIT_NOFILE, a->nofile);
    if (a->cpus)
        sched_setaffinity(0, a->setsize, a->cpus); /* best effort */
    execve(a->path, a->argv, a->envp);
    a->exec_errno = errno ? errno : ENOEXEC;
    _exit(127);
}

/* Starts the child; returns its pid (exec done, or exec_errno set) or -1
   with errno set if no child could be made. */
pid_t shmpi_ln_spawn(struct shmpi_spawn_args *a, void *stack)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    a->exec_errno = 0;
    pid_t pid = spawn_clone(child_main, (char *)stack + SPAWN_STACK,
                            CLONE_VM | CLONE_VFORK | SIGCHLD, a);
    int err = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = err;
    return pid;
}
