/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * signals.c - SIGINT, SIGTERM, SIGHUP, SIGQUIT (and SIGTSTP, SIGCONT) sent
 * to the launcher.
 *
 * They are blocked in the launching thread and read from a signalfd on
 * the ring, so a signal is an ordinary event of the loop: no async-
 * signal-safety rules, no EINTR.
 *
 * Other threads.  The in-library launch runs inside the program, which
 * may have started threads before MPI_Init; the mask is per thread, so
 * the kernel would hand a stop signal sent to the process to one of
 * them, whose default action kills the launcher on the spot: no line,
 * no signal passed on, no grace (the ranks die of their parent-death
 * signal).  So each stop signal also gets a handler, pass_to_launcher,
 * which only sends it on to the launching thread (tgkill), where it is
 * blocked and the signalfd reads it like any other (a signalfd reads
 * the signals pending for its reader's thread as well as the
 * process's).  In a process of one thread the handler never runs.  A signal the launcher ignores
 * when the job starts (nohup) is left out and stays ignored, by us and
 * by the ranks.  SIGPIPE is blocked too (not read): a write to a reader
 * that went away then fails with EPIPE, which the output queue handles;
 * a SIGPIPE left pending is consumed before the old mask comes back.
 *
 * On the first stop signal the job is over: we print one line, forward
 * the signal to every rank (a rank may want to clean up, as under any
 * shell) and arm the grace timer; ranks still alive when it expires get
 * SIGKILL.  A second signal SIGKILLs them at once.  The grace period is
 * SHMPI_KILL_GRACE_MS (default 1000 ms, 0 = SIGKILL at once).  The exit
 * status is 128 + the signal number, as a shell reports a killed command.
 *
 * SIGTSTP and SIGCONT: the ranks lead process groups of their own
 * (tree.c), which a terminal's Ctrl-Z does not reach, so they are read
 * here too: on SIGTSTP every rank's group gets SIGSTOP and then we stop
 * ourselves, as the default action would have; the SIGCONT of `fg` or
 * `bg` continues us (blocking does not prevent that) and is passed on.
 *
 * SIGCHLD: children are reaped with waitid on their pidfds, which needs
 * them to become zombies; a caller that ignores SIGCHLD (or set
 * SA_NOCLDWAIT) would make them vanish, so SIGCHLD is set to SIG_DFL for
 * the duration of the launch.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "launcher/job.h"

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP,
                                   SIGQUIT, SIGTSTP, SIGCONT};
#define NSTOP (sizeof stop_signals / sizeof *stop_signals)
_Static_assert(NSTOP == SHMPI_LN_STOP_SIGNALS, "job.h's count of stop_signals");

/* The launching thread, for pass_to_launcher: a handler has no other way
   to find it (core/proc.h lists this static among the state kept outside
   shmpi_proc).  Stored before the handlers are installed. */
static _Atomic pid_t launcher_tid;

static void pass_to_launcher(int sig)
{
    int e = errno;
    syscall(SYS_tgkill, getpid(),
            atomic_load_explicit(&launcher_tid, memory_order_acquire), sig);
    errno = e;
}

/* Installs pass_to_launcher for the stop signals taken (j->sigs); the
   actions they had are kept for shmpi_ln_signals_restore. */
static void forward_from_other_threads(struct shmpi_job *j)
{
    atomic_store_explicit(&launcher_tid, (pid_t)syscall(SYS_gettid),
                          memory_order_release);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pass_to_launcher;
    sa.sa_flags = SA_RESTART;
    sigfillset(&sa.sa_mask);
    for (size_t i = 0; i < NSTOP; i++)
        j->stop_forwarded[i] =
            sigismember(&j->sigs, stop_signals[i]) &&
            sigaction(stop_signals[i], &sa, &j->old_stop[i]) == 0;
}

static void default_sigchld(struct shmpi_job *j)
{
    struct sigaction sa;
    if (sigaction(SIGCHLD, NULL, &j->old_chld) != 0)
        return;
    if (j->old_chld.sa_handler != SIG_IGN &&
        !(j->old_chld.sa_flags & SA_NOCLDWAIT))
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    j->chld_reset = sigaction(SIGCHLD, &sa, NULL) == 0;
}

/* Blocks the stop signals and opens the signalfd that reads them. */
int shmpi_ln_signals_take(struct shmpi_job *j)
{
    sigemptyset(&j->sigs);
    for (size_t i = 0; i < NSTOP; i++) {
        struct sigaction sa;
        if (sigaction(stop_signals[i], NULL, &sa) == 0 &&
            sa.sa_handler != SIG_IGN)
            sigaddset(&j->sigs, stop_signals[i]);
    }
    sigset_t block = j->sigs;
    sigaddset(&block, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &block, &j->old_mask);
    j->sigfd = signalfd(-1, &j->sigs, SFD_CLOEXEC);
    if (j->sigfd < 0) {
        int e = errno;
        pthread_sigmask(SIG_SETMASK, &j->old_mask, NULL);
        errno = e;
        return -1;
    }
    default_sigchld(j);
    forward_from_other_threads(j);
    return 0;
}

void shmpi_ln_signals_arm(struct shmpi_job *j)
{
    struct io_uring_sqe *sqe = shmpi_ln_loop_sqe(j);
    io_uring_prep_read(sqe, j->sigfd, &j->siginfo, sizeof j->siginfo,
                       (uint64_t)-1);
    shmpi_ln_loop_tag(sqe, UD_SIGNAL, 0);
}

/* Consumes SIGPIPEs raised by our writes while it was blocked. */
static void drop_sigpipe(const sigset_t *old_mask)
{
    sigset_t pending, pipe;
    if (sigismember(old_mask, SIGPIPE) || sigpending(&pending) != 0 ||
        !sigismember(&pending, SIGPIPE))
        return;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    struct timespec zero = {0, 0};
    while (sigtimedwait(&pipe, NULL, &zero) == SIGPIPE)
        ;
}

void shmpi_ln_signals_restore(struct shmpi_job *j)
{
    if (j->sigfd < 0)
        return;
    close(j->sigfd);
    j->sigfd = -1;
    drop_sigpipe(&j->old_mask);
    pthread_sigmask(SIG_SETMASK, &j->old_mask, NULL);
    if (j->chld_reset)
        sigaction(SIGCHLD, &j->old_chld, NULL);
    for (size_t i = 0; i < NSTOP; i++)
        if (j->stop_forwarded[i])
            sigaction(stop_signals[i], &j->old_stop[i], NULL);
}

static void stop_job(struct shmpi_job *j, int sig)
{
    j->stop_signal = sig;
    j->stopping = true;
    j->decided = true;
    j->status = 128 + sig;
    if (j->alive == 0)
        return;
    const char *s = j->alive == 1 ? "" : "s";
    shmpi_ln_job_say(j, "received signal %d (%s); passing it to %d rank%s, "
                     "SIGKILL in %d ms", sig, strsignal(sig), j->alive, s,
                     j->grace_ms);
    shmpi_ln_kill_all(j, sig);
    if (j->grace_ms == 0) {
        shmpi_ln_kill_all(j, SIGKILL);
        return;
    }
    shmpi_ln_loop_timeout(j, UD_GRACE, &j->grace_ts, j->grace_ms);
}

/* Ctrl-Z and fg/bg, for the whole job (see the top). */
static void job_control(struct shmpi_job *j, int sig)
{
    if (sig == SIGCONT) {
        shmpi_ln_kill_all(j, SIGCONT);
        return;
    }
    shmpi_ln_kill_all(j, SIGSTOP);
    raise(SIGSTOP);
}

void shmpi_ln_signal_seen(struct shmpi_job *j, int res)
{
    if (res < 0 && res != -EINTR && res != -EAGAIN)
        return; /* cancelled at teardown (or the signalfd broke) */
    int sig = res == (int)sizeof j->siginfo ? (int)j->siginfo.ssi_signo : 0;
    shmpi_ln_signals_arm(j);
    if (sig == 0)
        return;
    if (sig == SIGTSTP || sig == SIGCONT)
        job_control(j, sig);
    else if (j->stop_signal && !j->killed)
        shmpi_ln_kill_all(j, SIGKILL); /* second signal: no more grace */
    else if (!j->decided)
        stop_job(j, sig);
}

void shmpi_ln_grace_over(struct shmpi_job *j, int res)
{
    if (res == -ETIME && !j->killed)
        shmpi_ln_kill_all(j, SIGKILL);
}

/* Is sig one of ours and waiting to be read?  (See evloop.c.) */
bool shmpi_ln_signal_pending(const struct shmpi_job *j, int sig)
{
    sigset_t pending;
    return sigismember(&j->sigs, sig) == 1 && sigpending(&pending) == 0 &&
           sigismember(&pending, sig) == 1;
}
