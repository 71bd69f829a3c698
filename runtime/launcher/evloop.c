/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * evloop.c - the one io_uring ring that drives a running job.
 *
 * Everything the launcher waits for is an operation on this ring: a read
 * on every output pipe, a poll for POLLIN on every rank's pidfd (= the
 * rank exited), a read on the signalfd, timeouts (--timeout, the kill
 * grace period, the linger for pipes held open by grandchildren, the
 * deadlock report's tick) and the writes of the output queue.  The loop
 * is submit-and-wait for at least one completion, then dispatch a batch;
 * there is no other blocking call and no polling but that tick (one scan
 * of the ranks' slots per SHMPI_DEADLOCK_MS, deadlock.c), so an idle job
 * costs next to no CPU and every event is handled in one wake-up.
 *
 * Completions are tagged with a kind and an index in user_data (job.h).
 * Within a batch signal completions are handled first: when a terminal's
 * Ctrl-C reaches mpirun and its ranks at once, the ranks' deaths by
 * SIGINT then read as "mpirun was interrupted", not as a rank failure.
 * The linger timeout is handled last, so a read that completed in the
 * same batch counts as heard before a pipe is given up.
 *
 * The ring is set up with SINGLE_ISSUER | DEFER_TASKRUN where the kernel
 * has them (6.1+): completions are then only processed when we wait, in
 * one batch, instead of interrupting us.  Older kernels get a plain ring.
 * The CQ is sized for every operation that can be in flight (3 per rank
 * plus a few); the kernel keeps overflowing CQEs anyway (FEAT_NODROP).
 *
 * Teardown (shmpi_ln_loop_quiesce) cancels what is still in flight by its
 * user_data and waits until every CQE has arrived, so no buffer is freed
 * while the kernel may still write to it.
 */
#include <errno.h>
#include <string.h>

#include "launcher/job.h"

#define BATCH 64

static unsigned pow2_at_least(unsigned n)
{
    unsigned p = 8;
    while (p < n && p < (1u << 16))
        p *= 2;
    return p;
}

int shmpi_ln_loop_init(struct shmpi_job *j)
{
    unsigned want = pow2_at_least(3u * (unsigned)j->np + 16);
    unsigned sq = want < 1024 ? want : 1024;
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SINGLE_ISSUER |
              IORING_SETUP_DEFER_TASKRUN;
    p.cq_entries = want;
    int rc = io_uring_queue_init_params(sq, &j->ring, &p);
    if (rc == -EINVAL) {
        memset(&p, 0, sizeof p);
        p.flags = IORING_SETUP_CQSIZE;
        p.cq_entries = want;
        rc = io_uring_queue_init_params(sq, &j->ring, &p);
    }
    if (rc < 0)
        return rc;
    j->ring_ok = true;
    return 0;
}

/* A free SQE (submitting what is queued if the SQ is full). */
struct io_uring_sqe *shmpi_ln_loop_sqe(struct shmpi_job *j)
{
    struct io_uring_sqe *sqe;
    while (!(sqe = io_uring_get_sqe(&j->ring)))
        io_uring_submit(&j->ring);
    j->inflight++;
    return sqe;
}

void shmpi_ln_loop_tag(struct io_uring_sqe *sqe, enum shmpi_ud kind,
                       unsigned index)
{
    io_uring_sqe_set_data64(sqe, (uint64_t)index << 8 | (uint64_t)kind);
}

void shmpi_ln_loop_timeout(struct shmpi_job *j, enum shmpi_ud kind,
                           struct __kernel_timespec *ts, long ms)
{
    ts->tv_sec = ms / 1000;
    ts->tv_nsec = (ms % 1000) * 1000000L;
    struct io_uring_sqe *sqe = shmpi_ln_loop_sqe(j);
    io_uring_prep_timeout(sqe, ts, 0, 0);
    shmpi_ln_loop_tag(sqe, kind, 0);
}

/*
 * Every rank is gone, yet we are still waiting: for a pipe that a rank's
 * own child holds open, or - once the job was stopped by a signal or the
 * timeout - for a reader of our output that does not read.  A stopped
 * job must end, so after SHMPI_LINGER_MS both are given up.
 *
 * A job that ends by itself gives up a pipe only after SHMPI_LINGER_MS of
 * silence in which we were ready to read it.  What a dead rank left in its
 * pipe (up to the pipe's 64 KiB) is not silence: while our own stdout is
 * slow, its stream is stalled by back-pressure (iofwd.c) and the queue is
 * busy, and giving up then dropped those lines.  So the timer is re-armed
 * while a stream is stalled, the queue holds bytes, or a read brought
 * data since it was armed (j->linger_heard).
 */
static bool lingering(const struct shmpi_job *j)
{
    return j->alive == 0 &&
           (j->open_streams > 0 || (j->stopping && !shmpi_ln_outq_idle(j)));
}

static void maybe_linger(struct shmpi_job *j)
{
    if (lingering(j) && !j->linger_armed) {
        shmpi_ln_loop_timeout(j, UD_LINGER, &j->linger_ts, SHMPI_LINGER_MS);
        j->linger_armed = true;
        j->linger_heard = false;
    }
}

static bool still_draining(const struct shmpi_job *j)
{
    return !j->stopping && (j->linger_heard || j->out.stalled > 0 ||
                            !shmpi_ln_outq_idle(j));
}

static void linger_over(struct shmpi_job *j, int res)
{
    if (res != -ETIME)
        return;
    if (still_draining(j)) {
        j->linger_armed = false; /* maybe_linger arms it afresh */
        return;
    }
    shmpi_ln_iofwd_abandon(j);
    if (j->stopping)
        shmpi_ln_outq_abandon(j);
}

static void dispatch(struct shmpi_job *j, uint64_t ud, int res)
{
    unsigned index = (unsigned)(ud >> 8);
    switch ((enum shmpi_ud)(ud & 0xff)) {
    case UD_READ: shmpi_ln_iofwd_read_done(j, index, res); break;
    case UD_EXIT: shmpi_ln_rank_exited(j, (int)index, res); break;
    case UD_SIGNAL: shmpi_ln_signal_seen(j, res); break;
    case UD_TIMEOUT: shmpi_ln_timed_out(j, res); break;
    case UD_GRACE: shmpi_ln_grace_over(j, res); break;
    case UD_LINGER: linger_over(j, res); break;
    case UD_WRITE: shmpi_ln_outq_write_done(j, res); break;
    case UD_WRITE_POLL: shmpi_ln_outq_poll_done(j, res); break;
    case UD_RECHECK: shmpi_ln_noinit_timer(j, res); break;
    case UD_WATCH: shmpi_ln_watch_tick(j, res); break;
    case UD_CANCEL: break;
    }
}

struct event {
    uint64_t ud;
    int res;
};

/* Takes up to BATCH completions off the ring; returns how many. */
static unsigned take_batch(struct shmpi_job *j, struct event *ev)
{
    struct io_uring_cqe *cqes[BATCH];
    unsigned n = io_uring_peek_batch_cqe(&j->ring, cqes, BATCH);
    for (unsigned i = 0; i < n; i++) {
        ev[i].ud = cqes[i]->user_data;
        ev[i].res = cqes[i]->res;
    }
    io_uring_cq_advance(&j->ring, n);
    j->inflight -= n;
    return n;
}

static void process_batch(struct shmpi_job *j)
{
    struct event ev[BATCH];
    unsigned n = take_batch(j, ev);
    static const enum shmpi_ud first = UD_SIGNAL, last = UD_LINGER;
    for (unsigned i = 0; i < n; i++)
        if ((ev[i].ud & 0xff) == first)
            dispatch(j, ev[i].ud, ev[i].res);
    for (unsigned i = 0; i < n; i++)
        if ((ev[i].ud & 0xff) != first && (ev[i].ud & 0xff) != last)
            dispatch(j, ev[i].ud, ev[i].res);
    for (unsigned i = 0; i < n; i++)
        if ((ev[i].ud & 0xff) == last)
            dispatch(j, ev[i].ud, ev[i].res);
}

/* The ring itself failed: no more events, so end the job the hard way. */
static void ring_broke(struct shmpi_job *j, int rc)
{
    if (!j->decided) {
        j->decided = true;
        j->status = SHMPI_EXIT_LAUNCH_ERROR;
    }
    shmpi_ln_say(j->tool, "io_uring failed (%s); killing %d ranks",
                 strerror(-rc), j->alive);
    shmpi_ln_verdict_flush(j, true);
    shmpi_ln_kill_all(j, SIGKILL);
    shmpi_ln_reap_all(j);
}

void shmpi_ln_loop_run(struct shmpi_job *j)
{
    for (;;) {
        shmpi_ln_verdict_flush(j, false);
        if (shmpi_ln_finished(j))
            return;
        maybe_linger(j);
        int rc = io_uring_submit_and_wait(&j->ring, 1);
        if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
            ring_broke(j, rc);
            return;
        }
        process_batch(j);
    }
}

/*
 * While the ranks are being started: submit what is queued and handle
 * whatever has completed, without waiting.  Starting 1024 ranks takes
 * seconds on a loaded machine (2-19 s here, 2026-11-29); without this a
 * --timeout, a signal or a rank that failed at once was only seen after
 * the last rank had started, and the ranks' output waited in their
 * pipes.  A ring that failed is left to shmpi_ln_loop_run to report.
 */
void shmpi_ln_loop_poll(struct shmpi_job *j)
{
    io_uring_submit_and_get_events(&j->ring);
    while (io_uring_cq_ready(&j->ring) > 0)
        process_batch(j);
}

static void cancel(struct shmpi_job *j, enum shmpi_ud kind, unsigned index)
{
    struct io_uring_sqe *sqe = shmpi_ln_loop_sqe(j);
    io_uring_prep_cancel64(sqe, (uint64_t)index << 8 | (uint64_t)kind, 0);
    shmpi_ln_loop_tag(sqe, UD_CANCEL, 0);
}

static void cancel_all(struct shmpi_job *j)
{
    static const enum shmpi_ud singles[] = {
        UD_SIGNAL, UD_TIMEOUT, UD_GRACE,      UD_LINGER,
        UD_RECHECK, UD_WRITE,  UD_WRITE_POLL, UD_WATCH,
    };
    for (size_t i = 0; i < sizeof singles / sizeof *singles; i++)
        cancel(j, singles[i], 0);
    for (int r = 0; r < j->started; r++) {
        for (int k = 0; k < 2; k++)
            if (j->ranks[r].io[k].reading)
                cancel(j, UD_READ, (unsigned)(r * 2 + k));
        if (j->ranks[r].alive)
            cancel(j, UD_EXIT, (unsigned)r);
    }
}

void shmpi_ln_loop_quiesce(struct shmpi_job *j)
{
    if (!j->ring_ok || j->inflight == 0)
        return;
    cancel_all(j);
    while (j->inflight > 0) {
        int rc = io_uring_submit_and_wait(&j->ring, 1);
        if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
            return;
        struct event ev[BATCH];
        take_batch(j, ev); /* only counted: the job is over */
    }
}
