/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * copy.h - memcpy for the few bytes that latency-bound calls move (an
 * 8-byte message, put or reduction), without a call: at these sizes the
 * call into libc's memcpy and its size dispatch cost more than the copy.
 */
#ifndef SHMPI_COPY_H
#define SHMPI_COPY_H

#include <stdint.h>
#include <string.h>

/* n bytes from src to dst, which do not overlap; buffers may be NULL when
   n is 0.  Two overlapping moves of 8, 4 or 1 bytes cover 1..16; larger
   copies are memcpy's. */
static inline void shmpi_copy_short(void *dst, const void *src, uint64_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n > 16) {
        memcpy(d, s, n);
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n > 0) { /* 1..3 */
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

#endif
