/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iofwd.c - read the ranks' stdout/stderr pipes and cut them into lines.
 *
 * Each rank writes into two pipes of its own, so bytes of different ranks
 * never mix in the kernel.  Every pipe has one read in flight on the ring
 * into a 64 KiB buffer; after each read, everything up to the last
 * newline is handed to the output queue (outq.c) as one chunk, and the
 * unfinished line stays in the buffer until its newline arrives.  So no
 * forwarded line is ever torn or interleaved with another rank's.  Two
 * escapes keep memory bounded and output complete: a line that fills the
 * whole buffer is passed on as it is, and whatever is left when the pipe
 * reaches EOF is passed on too.
 *
 * Without --tag-output the bytes go out unchanged (a rank may write
 * binary data, or a prompt without newline).  With it, every line gets
 * "[rank] " in front and every chunk ends with a newline (one is added
 * to a cut or final partial line), so tagged output is always whole
 * tagged lines.
 *
 * Back-pressure: when the output queue holds more than SHMPI_OUTQ_HIGH
 * bytes (our stdout is slower than the ranks), a pipe whose read completes
 * is not re-armed; the rank then blocks in write() once its pipe is full.
 * The queue re-arms the stalled pipes when it drains (shmpi_ln_iofwd_resume).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launcher/job.h"

static struct shmpi_stream *stream_at(struct shmpi_job *j, unsigned index)
{
    return &j->ranks[index / 2].io[index % 2];
}

static unsigned stream_index(const struct shmpi_stream *s)
{
    return (unsigned)s->rank * 2 + (s->dest == 2);
}

static int make_pipes(int p[2][2])
{
    if (pipe2(p[0], O_CLOEXEC) != 0)
        return -1;
    if (pipe2(p[1], O_CLOEXEC) == 0)
        return 0;
    close(p[0][0]);
    close(p[0][1]);
    return -1;
}

/* Makes both pipes of rank; write_ends get the child's sides. */
int shmpi_ln_iofwd_pipes(struct shmpi_job *j, int rank, int write_ends[2])
{
    int p[2][2];
    char *buf[2] = {malloc(SHMPI_STREAM_BUF), malloc(SHMPI_STREAM_BUF)};
    if (!buf[0] || !buf[1] || make_pipes(p) != 0) {
        int e = buf[0] && buf[1] ? errno : ENOMEM;
        free(buf[0]);
        free(buf[1]);
        errno = e;
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        struct shmpi_stream *s = &j->ranks[rank].io[k];
        s->buf = buf[k];
        s->fd = p[k][0];
        s->rank = rank;
        s->dest = k + 1;
        write_ends[k] = p[k][1];
    }
    j->open_streams += 2;
    return 0;
}

void shmpi_ln_iofwd_arm(struct shmpi_job *j, struct shmpi_stream *s)
{
    if (s->fd < 0 || s->reading)
        return;
    if (shmpi_ln_outq_full(j)) {
        if (!s->stalled)
            j->out.stalled++;
        s->stalled = true;
        return;
    }
    struct io_uring_sqe *sqe = shmpi_ln_loop_sqe(j);
    io_uring_prep_read(sqe, s->fd, s->buf + s->len,
                       (unsigned)(SHMPI_STREAM_BUF - s->len), (uint64_t)-1);
    shmpi_ln_loop_tag(sqe, UD_READ, stream_index(s));
    s->reading = true;
}

static size_t count_lines(const char *p, size_t len)
{
    size_t n = 0;
    for (const char *q = p; (q = memchr(q, '\n', len - (size_t)(q - p))); q++)
        n++;
    return n + (len > 0 && p[len - 1] != '\n');
}

/* "[rank] " before every line of p, and a newline at the end. */
static size_t tag_lines(char *out, const char *p, size_t len, int rank)
{
    size_t n = 0;
    while (len > 0) {
        const char *nl = memchr(p, '\n', len);
        size_t line = nl ? (size_t)(nl - p) + 1 : len;
        n += (size_t)sprintf(out + n, "[%d] ", rank);
        memcpy(out + n, p, line);
        n += line;
        p += line;
        len -= line;
    }
    if (out[n - 1] != '\n')
        out[n++] = '\n';
    return n;
}

/* Passes len bytes of s (whole lines, or a cut/final piece) on. */
static void emit(struct shmpi_job *j, struct shmpi_stream *s, size_t len)
{
    bool tag = j->opts->tag_output;
    size_t cap = tag ? len + count_lines(s->buf, len) * 16 + 1 : len;
    struct shmpi_chunk *c = shmpi_ln_chunk_new(s->dest, cap);
    if (!c)
        return; /* out of memory: this output is lost, the job goes on */
    if (tag) {
        c->len = tag_lines(c->data, s->buf, len, s->rank);
    } else {
        memcpy(c->data, s->buf, len);
        c->len = len;
    }
    shmpi_ln_outq_add(j, c);
}

/* Emits the complete lines in buf; fresh: where the new bytes start. */
static void emit_lines(struct shmpi_job *j, struct shmpi_stream *s,
                       size_t fresh)
{
    char *nl = memrchr(s->buf + fresh, '\n', s->len - fresh);
    size_t done = nl ? (size_t)(nl - s->buf) + 1 : 0;
    if (!nl && s->len == SHMPI_STREAM_BUF)
        done = s->len; /* a line longer than the buffer: cut it here */
    if (done == 0)
        return;
    emit(j, s, done);
    memmove(s->buf, s->buf + done, s->len - done);
    s->len -= done;
}

static void close_stream(struct shmpi_job *j, struct shmpi_stream *s)
{
    if (s->len > 0)
        emit(j, s, s->len);
    s->len = 0;
    close(s->fd);
    s->fd = -1;
    j->open_streams--;
}

void shmpi_ln_iofwd_read_done(struct shmpi_job *j, unsigned index, int res)
{
    struct shmpi_stream *s = stream_at(j, index);
    s->reading = false;
    if (s->fd < 0)
        return; /* abandoned (see shmpi_ln_iofwd_abandon) */
    if (res == -EINTR || res == -EAGAIN) {
        shmpi_ln_iofwd_arm(j, s);
        return;
    }
    if (res <= 0) {
        close_stream(j, s);
        return;
    }
    size_t fresh = s->len;
    s->len += (size_t)res;
    j->linger_heard = true; /* evloop.c, linger_over() */
    emit_lines(j, s, fresh);
    shmpi_ln_iofwd_arm(j, s);
}

void shmpi_ln_iofwd_resume(struct shmpi_job *j)
{
    for (int r = 0; r < j->started && j->out.stalled > 0; r++) {
        for (int k = 0; k < 2; k++) {
            struct shmpi_stream *s = &j->ranks[r].io[k];
            if (!s->stalled)
                continue;
            s->stalled = false;
            j->out.stalled--;
            shmpi_ln_iofwd_arm(j, s);
        }
    }
}

/*
 * Every rank is gone but some pipe is still open: a process the rank
 * started holds its write end.  Pass on what we have and stop waiting;
 * a read still in flight is cancelled at teardown, when its buffer is
 * freed (shmpi_ln_loop_quiesce runs first).
 */
void shmpi_ln_iofwd_abandon(struct shmpi_job *j)
{
    for (int r = 0; r < j->started; r++)
        for (int k = 0; k < 2; k++)
            if (j->ranks[r].io[k].fd >= 0)
                close_stream(j, &j->ranks[r].io[k]);
}

void shmpi_ln_iofwd_free(struct shmpi_job *j)
{
    for (int r = 0; j->ranks && r < j->np; r++) {
        for (int k = 0; k < 2; k++) {
            struct shmpi_stream *s = &j->ranks[r].io[k];
            if (s->fd >= 0)
                close(s->fd);
            s->fd = -1;
            free(s->buf);
            s->buf = NULL;
        }
    }
}
