/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * policy.c - how a rank ended, whether that ends the job, and the status.
 *
 * A job fails at the first rank that (in this order of precedence):
 *   - recorded an abort in the arena (MPI_Abort, or a fatal MPI error
 *     under MPI_ERRORS_ARE_FATAL); hdr->first_abort names the rank that
 *     aborted first, so that rank is named even if another one's death
 *     (a consequence) is seen first;
 *   - was killed by a signal;
 *   - exited with a non-zero status;
 *   - exited 0 after MPI_Init without MPI_Finalize;
 *   - exited 0 without ever calling MPI_Init while another rank did
 *     (noinit.c: without MPI_Init in every rank it is a non-MPI job).
 *
 * On a failure we SIGKILL every other rank at once: their state depends
 * on the failed rank's, so there is nothing useful left for them to do,
 * and no grace period.  Then ONE line names the rank and what happened;
 * it is printed when the output of every rank has been forwarded, so it
 * is the job's last line, not lost in the middle of the ranks' last
 * words.  Later deaths are not reported one by one: the ranks that failed
 * by themselves (an abort or fatal error recorded in the arena, a signal
 * that is not our SIGKILL, a non-zero status) are counted, and the line
 * ends with "; N other ranks failed too" - when every rank checks the
 * same bad argument, a job of 64 ranks says so in one line (plus the
 * first rank's own, see shmpi_core_fatal in core/error.c).
 * Arena slots are read after the rank is gone; its exit orders the
 * loads after its stores.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launcher/job.h"

void shmpi_ln_fail(struct shmpi_job *j, int status, const char *fmt, ...)
{
    if (j->decided)
        return;
    j->decided = true;
    j->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->verdict, sizeof j->verdict, fmt, ap);
    va_end(ap);
    j->verdict_pending = true;
    shmpi_ln_kill_all(j, SIGKILL);
}

/* The failure line goes out once every rank is gone and its output is
   read, so it is the last line of the job (direct: without the ring). */
void shmpi_ln_verdict_flush(struct shmpi_job *j, bool direct)
{
    if (!j->verdict_pending || (!direct && (j->alive || j->open_streams)))
        return;
    j->verdict_pending = false;
    char others[64] = "";
    if (j->others_failed > 0)
        snprintf(others, sizeof others, "; %d other rank%s failed too",
                 j->others_failed, j->others_failed == 1 ? "" : "s");
    if (direct)
        shmpi_ln_say(j->tool, "%s%s", j->verdict, others);
    else
        shmpi_ln_job_say(j, "%s%s", j->verdict, others);
}

/* A signal to a rank goes to its process group: a wrapper script's
   program and the helpers the rank started get it too (tree.c).  Only
   while the rank is unreaped: until then its pid, and so its group's
   number, cannot be reused.  A rank that left its group still gets the
   signal itself; SIGKILL goes both ways, as it cannot be caught twice. */
static void signal_rank(const struct shmpi_rank *rk, int sig)
{
    bool leads = rk->own_group && getpgid(rk->pid) == rk->pid;
    if (leads)
        kill(-rk->pid, sig);
    if (!leads || sig == SIGKILL)
        syscall(SYS_pidfd_send_signal, rk->pidfd, sig, NULL, 0);
}

void shmpi_ln_kill_all(struct shmpi_job *j, int sig)
{
    for (int r = 0; r < j->started; r++)
        if (j->ranks[r].alive)
            signal_rank(&j->ranks[r], sig);
    if (sig == SIGKILL)
        j->killed = true;
}

static void report_abort(struct shmpi_job *j, int r)
{
    struct shmpi_rank_slot *slot = shmpi_arena_slot(j->hdr, r);
    int code = slot->abort_code;
    int status = code & 255 ? code & 255 : 1;
    char what[sizeof slot->abort_what + 1];
    memcpy(what, slot->abort_what, sizeof slot->abort_what);
    what[sizeof slot->abort_what] = '\0';
    if (slot->abort_kind == SHMPI_ABORT_FATAL_ERROR)
        shmpi_ln_fail(j, status, "rank %d hit a fatal MPI error (%s); "
                      "job aborted", r, what);
    else if (strncmp(what, "MPI_Abort(", 10) == 0)
        shmpi_ln_fail(j, status, "rank %d called %s; job aborted", r, what);
    else
        shmpi_ln_fail(j, status, "rank %d called MPI_Abort(..., %d); "
                      "job aborted", r, code);
}

static void report_signal(struct shmpi_job *j, int r, const siginfo_t *si)
{
    int sig = si->si_status;
    if (shmpi_ln_signal_pending(j, sig))
        return; /* the same signal reached us: our stop path reports it */
    const char *core = si->si_code == CLD_DUMPED ? ", core dumped" : "";
    shmpi_ln_fail(j, 128 + sig, "rank %d (pid %d) was killed by signal %d "
                  "(%s%s); job aborted", r, (int)j->ranks[r].pid, sig,
                  strsignal(sig), core);
}

static void judge(struct shmpi_job *j, int r, const siginfo_t *si)
{
    int first = atomic_load(&j->hdr->first_abort);
    int state = atomic_load_explicit(&shmpi_arena_slot(j->hdr, r)->state,
                                     memory_order_acquire);
    int pid = (int)j->ranks[r].pid;
    int named = first > 0 && first <= j->np ? first - 1 : r;
    if (first > 0 && first <= j->np)
        report_abort(j, first - 1);
    else if (state == SHMPI_RANK_ABORTED)
        report_abort(j, r);
    else if (si->si_code == CLD_KILLED || si->si_code == CLD_DUMPED)
        report_signal(j, r, si);
    else if (si->si_status != 0)
        shmpi_ln_fail(j, si->si_status, "rank %d (pid %d) exited with "
                      "status %d; job aborted", r, pid, si->si_status);
    else if (state == SHMPI_RANK_INITIALIZED)
        shmpi_ln_fail(j, 1, "rank %d (pid %d) exited without calling "
                      "MPI_Finalize; job aborted", r, pid);
    else if (state == SHMPI_RANK_STARTED)
        shmpi_ln_noinit_exit(j, r);
    if (j->decided && j->named < 0)
        j->named = named;
}

/* After the verdict: did rank r fail by itself, not by our SIGKILL? */
static bool failed_too(struct shmpi_job *j, int r, const siginfo_t *si)
{
    if (!j->verdict_pending || j->stopping || r == j->named)
        return false;
    if (atomic_load_explicit(&shmpi_arena_slot(j->hdr, r)->state,
                             memory_order_acquire) == SHMPI_RANK_ABORTED)
        return true;
    if (si->si_code == CLD_KILLED || si->si_code == CLD_DUMPED)
        return si->si_status != SIGKILL || !j->killed;
    return si->si_status != 0;
}

/* Collects how rank r ended.  WNOWAIT: it stays a zombie, so that its
   pid - the number of its process group - cannot be reused until
   shmpi_ln_tree_sweep has killed what is left of that group. */
static void reap(struct shmpi_job *j, int r, siginfo_t *si)
{
    struct shmpi_rank *rk = &j->ranks[r];
    memset(si, 0, sizeof *si);
    int rc;
    do
        rc = waitid((idtype_t)P_PIDFD, (id_t)rk->pidfd, si,
                    WEXITED | WNOWAIT);
    while (rc != 0 && errno == EINTR);
    if (rc != 0) { /* someone else reaped it: the arena state decides */
        si->si_code = CLD_EXITED;
        si->si_status = 0;
        close(rk->pidfd); /* no zombie holds its pid: never signal it */
        rk->pidfd = -1;
    }
    rk->alive = false;
    j->alive--;
}

void shmpi_ln_rank_exited(struct shmpi_job *j, int r, int res)
{
    if (res == -EINTR || res == -EAGAIN) { /* poll again */
        struct io_uring_sqe *sqe = shmpi_ln_loop_sqe(j);
        io_uring_prep_poll_add(sqe, j->ranks[r].pidfd, POLLIN);
        shmpi_ln_loop_tag(sqe, UD_EXIT, (unsigned)r);
        return;
    }
    if (res == -ECANCELED)
        return;
    siginfo_t si; /* POLLIN (or a poll error: waitid tells the truth) */
    reap(j, r, &si);
    if (!j->decided)
        judge(j, r, &si);
    if (failed_too(j, r, &si))
        j->others_failed++;
    shmpi_ln_noinit_check(j); /* did this exit show the job uses MPI? */
    if (j->alive == 0)
        shmpi_ln_tree_sweep(j); /* the ranks' children end with them */
}

void shmpi_ln_timed_out(struct shmpi_job *j, int res)
{
    if (res != -ETIME || j->decided)
        return;
    j->stopping = true;
    shmpi_ln_fail(j, SHMPI_EXIT_TIMEOUT, "job timed out after %g s; "
                  "killing %d rank%s", j->timeout_s, j->alive,
                  j->alive == 1 ? "" : "s");
}

/* Without the ring: wait for every rank still alive (SIGKILLed first). */
void shmpi_ln_reap_all(struct shmpi_job *j)
{
    for (int r = 0; r < j->started; r++) {
        if (j->ranks[r].alive) {
            siginfo_t si;
            reap(j, r, &si);
        }
    }
}

/* A job every rank of which ended well: status 123 if the check mode
   (core/check.c) reported problems, with one line that counts them,
   the job's last (every rank is gone and its output forwarded); else 0.
   Each slot's count is read after its rank exited, as the rest of it. */
int shmpi_ln_check_verdict(struct shmpi_job *j)
{
    unsigned long long n = 0;
    for (int r = 0; r < j->started; r++)
        n += atomic_load_explicit(&shmpi_arena_slot(j->hdr, r)->check_reports,
                                  memory_order_relaxed);
    if (n == 0)
        return 0;
    shmpi_ln_say(j->tool, "--check reported %llu problem%s", n,
                 n == 1 ? "" : "s");
    return SHMPI_EXIT_CHECK;
}
