/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * big.h - buffers of gigabytes for the large-count tests, and a pattern
 * to fill and check them with.
 *
 *   big_alloc(n)             n bytes that end right before a page the
 *                            process may not touch, so a write or read
 *                            past the end faults at its first byte; NULL
 *                            when the memory is not there
 *   big_free(p, n)           gives back what big_alloc(n) returned
 *   big_pat(i, key, m)       byte i of a pattern
 *   big_fill(b, n, key, m)   byte i of b = big_pat(i, key, m), i < n
 *   big_wrong(b, n, key, m)  the first i < n where it is not, or -1
 *
 * Why not malloc: on this project's VMs a 4 KiB page costs about 1 us to
 * fault in, and a 2 GiB buffer has 524288 of them on each side of a
 * message (perf record of p2p_huge, 2026-11-30: 34 % of its time in the
 * page-fault handler).  The buffer is asked for in transparent huge pages
 * (MADV_HUGEPAGE: the kernel's default mode here is "madvise"), 512 times
 * fewer faults.  And an overrun by the library lands on the guard page
 * at once, where a malloc'd buffer would need AddressSanitizer's redzone
 * to show it.
 *
 * Linux only, no MPI: the tests that use it also build with Open MPI
 * and MPICH.  Include it before check.h: MAP_ANONYMOUS and MADV_HUGEPAGE
 * need _DEFAULT_SOURCE before the first system header.
 */
#ifndef SHMPI_TEST_BIG_H
#define SHMPI_TEST_BIG_H

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BIG_HUGE ((size_t)2 << 20)

/* The mapping behind a buffer of n bytes: n rounded up to huge pages,
   and one more page for the guard. */
static inline size_t big_span_(size_t n, size_t page)
{
    return (n + BIG_HUGE - 1) / BIG_HUGE * BIG_HUGE + page;
}

static inline void *big_alloc(size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), span = big_span_(n, page);
    /* One huge page more than the span, so that the span can start on a
       huge-page boundary whatever address mmap gives; the rest is cut. */
    char *m = mmap(NULL, span + BIG_HUGE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    char *start = (char *)(((uintptr_t)m + BIG_HUGE - 1) & ~(BIG_HUGE - 1));
    if (start > m)
        munmap(m, (size_t)(start - m));
    munmap(start + span, (size_t)(m + span + BIG_HUGE - (start + span)));
    char *guard = start + span - page;
    if (mprotect(guard, page, PROT_NONE) != 0) {
        munmap(start, span);
        return NULL;
    }
    /* A hint: without it the buffer still works, page by page. */
    (void)madvise(start, span - page, MADV_HUGEPAGE);
    return guard - n;
}

static inline void big_free(void *p, size_t n)
{
    if (p == NULL)
        return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), span = big_span_(n, page);
    munmap((char *)p + n + page - span, span);
}

/* Byte i of pattern `key`: it differs at every offset of a 4-byte piece
   boundary and from one GiB to the next, so data that lands a piece off
   shows; with m, also from one 128 KiB block to the next. */
static inline unsigned char big_pat(uint64_t i, unsigned key, int m)
{
    return (unsigned char)(i ^ (i >> 9) ^ (i >> 30) ^ (m ? i >> 17 : 0) ^ key);
}

/* Bytes i to i + 7 of the pattern, i a multiple of 8, as they lie in
   memory: across them only i's low 3 bits change (i >> 9, i >> 17 and
   i >> 30 do not), so byte j is byte 0 XOR j.  Eight bytes a step: a
   byte loop over 2 GiB took seconds a pass. */
static inline uint64_t big_pat8(uint64_t i, unsigned key, int m)
{
    uint64_t w = big_pat(i, key, m) * 0x0101010101010101ull ^
                 0x0706050403020100ull;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static inline void big_fill(unsigned char *b, uint64_t n, unsigned key, int m)
{
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = big_pat8(i, key, m);
        memcpy(b + i, &w, 8);
    }
    for (; i < n; i++)
        b[i] = big_pat(i, key, m);
}

static inline int64_t big_wrong(const unsigned char *b, uint64_t n,
                                unsigned key, int m)
{
    uint64_t i = 0, w;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, b + i, 8);
        if (w != big_pat8(i, key, m))
            break;
    }
    for (; i < n; i++)
        if (b[i] != big_pat(i, key, m))
            return (int64_t)i;
    return -1;
}

#endif
