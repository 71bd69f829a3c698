/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * outq.c - write forwarded output (and our own messages) in order.
 *
 * One FIFO of chunks for both of our outputs, with at most one write in
 * flight on the ring.  Why one queue and not one per fd: `mpirun ... >log
 * 2>&1` makes fd 1 and 2 the same file, and two concurrent writes at the
 * current position could land on the same offset; one queue also keeps
 * a rank's stdout and stderr lines in the order we read them, and our
 * "job aborted" line behind the output that came before it.
 *
 * Writes go through the ring, never write(2) in the loop, so a slow or
 * stuck reader of our stdout (a pager, a full pipe) never blocks the
 * loop: signals, rank deaths and timeouts are still handled at once.
 * Short writes continue where they stopped; a non-blocking output fd
 * that returns EAGAIN is polled for POLLOUT; EINTR retries.  Any other
 * error (EPIPE: our reader went away; ENOSPC) marks that fd broken: its
 * queued and future output is dropped while the job runs on - SIGPIPE
 * is blocked during the launch, so it does not kill us.  Once a job was
 * stopped (signal, timeout) and every rank is gone, output nobody reads
 * is dropped after SHMPI_LINGER_MS (evloop.c): a stopped job always ends.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#include "launcher/job.h"

struct shmpi_chunk *shmpi_ln_chunk_new(int fd, size_t cap)
{
    struct shmpi_chunk *c = malloc(sizeof *c + cap);
    if (c) {
        c->next = NULL;
        c->fd = fd;
        c->len = c->off = 0;
    }
    return c;
}

static void kick(struct shmpi_job *j)
{
    struct shmpi_outq *q = &j->out;
    struct shmpi_chunk *c = q->head;
    if (q->busy || !c)
        return;
    struct io_uring_sqe *sqe = shmpi_ln_loop_sqe(j);
    io_uring_prep_write(sqe, c->fd, c->data + c->off,
                        (unsigned)(c->len - c->off), (uint64_t)-1);
    shmpi_ln_loop_tag(sqe, UD_WRITE, 0);
    q->busy = true;
}

void shmpi_ln_outq_add(struct shmpi_job *j, struct shmpi_chunk *c)
{
    struct shmpi_outq *q = &j->out;
    if (c->len == 0 || q->broken[c->fd] || q->abandoned) {
        free(c);
        return;
    }
    if (q->tail)
        q->tail->next = c;
    else
        q->head = c;
    q->tail = c;
    q->bytes += c->len;
    q->midline = c->data[c->len - 1] != '\n';
    kick(j);
}

static void pop(struct shmpi_outq *q)
{
    struct shmpi_chunk *c = q->head;
    q->head = c->next;
    if (!q->head)
        q->tail = NULL;
    q->bytes -= c->len - c->off;
    free(c);
}

/* Writing to fd failed for good: drop everything queued for it. */
static void drop_fd(struct shmpi_outq *q, int fd)
{
    q->broken[fd] = true;
    struct shmpi_chunk **link = &q->head;
    q->tail = NULL;
    while (*link) {
        struct shmpi_chunk *c = *link;
        if (c->fd != fd) {
            q->tail = c;
            link = &c->next;
            continue;
        }
        *link = c->next;
        q->bytes -= c->len - c->off;
        free(c);
    }
}

void shmpi_ln_outq_write_done(struct shmpi_job *j, int res)
{
    struct shmpi_outq *q = &j->out;
    struct shmpi_chunk *c = q->head;
    q->busy = false;
    if (q->abandoned) {
        pop(q);
        return;
    }
    if (res > 0) {
        c->off += (size_t)res;
        q->bytes -= (size_t)res;
        if (c->off == c->len)
            pop(q);
    } else if (res == -EAGAIN) {
        struct io_uring_sqe *sqe = shmpi_ln_loop_sqe(j);
        io_uring_prep_poll_add(sqe, c->fd, POLLOUT);
        shmpi_ln_loop_tag(sqe, UD_WRITE_POLL, 0);
        q->busy = true;
        return;
    } else if (res != -EINTR) {
        drop_fd(q, c->fd); /* includes res == 0: no progress possible */
    }
    kick(j);
    if (q->bytes < SHMPI_OUTQ_LOW && q->stalled > 0)
        shmpi_ln_iofwd_resume(j);
}

void shmpi_ln_outq_poll_done(struct shmpi_job *j, int res)
{
    (void)res; /* on a poll error the write itself tells what is wrong */
    j->out.busy = false;
    if (j->out.abandoned)
        pop(&j->out);
    else
        kick(j);
}

/* The job was stopped and our reader does not read: drop what is queued
   (a write in flight is cancelled at teardown, its chunk freed then). */
void shmpi_ln_outq_abandon(struct shmpi_job *j)
{
    struct shmpi_outq *q = &j->out;
    struct shmpi_chunk *c = q->busy ? q->head->next : q->head;
    if (q->busy)
        q->head->next = NULL; /* the kernel still uses the head */
    else
        q->head = NULL;
    q->tail = q->head;
    q->abandoned = true;
    while (c) {
        struct shmpi_chunk *next = c->next;
        q->bytes -= c->len - c->off;
        free(c);
        c = next;
    }
}

bool shmpi_ln_outq_full(const struct shmpi_job *j)
{
    return j->out.bytes >= SHMPI_OUTQ_HIGH;
}

bool shmpi_ln_outq_idle(const struct shmpi_job *j)
{
    return (!j->out.head && !j->out.busy) || j->out.abandoned;
}

void shmpi_ln_outq_free(struct shmpi_job *j)
{
    while (j->out.head)
        pop(&j->out);
}
