/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * say.c - the launcher's own messages: one line each, "tool: text".
 *
 * Before and after the event loop a message is written straight to fd 2
 * (no stdio: the in-library launch must not disturb the program's stdio
 * buffers, and a message must never be held in a buffer while ranks are
 * killed).  While the loop runs, a message goes through the output queue
 * instead, behind the rank output that arrived before it, so it is never
 * printed in the middle of a forwarded line; if the last forwarded bytes
 * left a line open (a rank's last line without newline), a newline goes
 * first.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "launcher/job.h"

#define SAY_MAX 512

/* write(2) until done: retries EINTR and short writes, waits out EAGAIN
   on a non-blocking descriptor.  Returns 0 or -1 with errno set. */
int shmpi_ln_write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
        } else if (w < 0 && errno == EAGAIN) {
            struct pollfd pfd = {.fd = fd, .events = POLLOUT};
            poll(&pfd, 1, -1);
        } else if (w == 0 || errno != EINTR) {
            return -1;
        }
    }
    return 0;
}

static size_t format_line(char *buf, const char *tool, const char *fmt,
                          va_list ap)
{
    int n = snprintf(buf, SAY_MAX, "%s: ", tool);
    if (n < 0 || n >= SAY_MAX - 2)
        n = 0;
    int m = vsnprintf(buf + n, (size_t)(SAY_MAX - n - 1), fmt, ap);
    if (m < 0)
        m = 0;
    size_t len = (size_t)n + (size_t)m;
    if (len > SAY_MAX - 2)
        len = SAY_MAX - 2;
    buf[len++] = '\n';
    return len;
}

void shmpi_ln_say(const char *tool, const char *fmt, ...)
{
    char buf[SAY_MAX];
    va_list ap;
    va_start(ap, fmt);
    size_t len = format_line(buf, tool, fmt, ap);
    va_end(ap);
    shmpi_ln_write_all(2, buf, len);
}

void shmpi_ln_job_say(struct shmpi_job *j, const char *fmt, ...)
{
    char buf[SAY_MAX + 1];
    size_t at = j->out.midline; /* a rank left a line open: close it */
    buf[0] = '\n';
    va_list ap;
    va_start(ap, fmt);
    size_t len = at + format_line(buf + at, j->tool, fmt, ap);
    va_end(ap);
    struct shmpi_chunk *c = j->ring_ok ? shmpi_ln_chunk_new(2, len) : NULL;
    if (!c) {
        shmpi_ln_write_all(2, buf, len);
        return;
    }
    memcpy(c->data, buf, len);
    c->len = len;
    shmpi_ln_outq_add(j, c);
}
