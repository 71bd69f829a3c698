/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hash.c - a 64-bit hash of the bytes a (buf, count, datatype) describes,
 * in packed order: the check mode's way to see that a send buffer
 * changed between its send's start and its completion (pt2pt/bufcheck.c).
 * The memory runs come from the one walker of the compiled form
 * (shmpi_dt_fill_iov, iterate.c), a batch at a time, so that a derived
 * type's gaps are never read.  Not a cryptographic hash: a change that
 * keeps it equal is missed with odds of 2^-64 per check.
 */
#include <string.h>
#include <sys/uio.h>

#include "datatypes/datatype.h"

#define MUL 0x9e3779b97f4a7c15ull /* 2^64 / the golden ratio, odd */

/* One word into h; the final mix makes every input bit reach every
   output bit (the finalizer of MurmurHash3, fmix64).  sig.c hashes a
   type signature with the same two. */
uint64_t shmpi_dt_hash_mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * MUL;
    return h ^ (h >> 29);
}

uint64_t shmpi_dt_hash_final(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

/* Whole words, then the tail bytes; the run's length goes in too, so
   that moving bytes between runs changes the hash. */
static uint64_t hash_run(uint64_t h, const unsigned char *p, size_t n)
{
    uint64_t w;
    for (; n >= 8; n -= 8, p += 8) {
        memcpy(&w, p, 8);
        h = shmpi_dt_hash_mix(h, w);
    }
    w = 0;
    memcpy(&w, p, n);
    return shmpi_dt_hash_mix(h, w ^ ((uint64_t)n << 56));
}

uint64_t shmpi_dt_hash(const void *buf, MPI_Count count, MPI_Datatype t)
{
    enum { BATCH = 32 };
    struct iovec iov[BATCH];
    uint64_t len = (uint64_t)count * t->size, at = 0, h = MUL;
    while (at < len) {
        uint64_t covered;
        int n = shmpi_dt_fill_iov(buf, t, at, len - at, iov, BATCH, &covered);
        for (int i = 0; i < n; i++)
            h = hash_run(h, iov[i].iov_base, iov[i].iov_len);
        if (covered == 0) /* no run left: cannot happen below len */
            break;
        at += covered;
    }
    return shmpi_dt_hash_final(h ^ len);
}
