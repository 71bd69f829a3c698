/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rng.h - the seeded generator the randomized tests share (splitmix64):
 * a test that fails prints its seed, and the same seed replays the same
 * run on any machine.
 *
 *   struct rng r = {seed};
 *   rng_next(&r)        64 random bits
 *   rnd(&r, n)          uniform in [0, n), 0 when n <= 1
 *   range(&r, lo, hi)   uniform in [lo, hi]
 */
#ifndef SHMPI_TEST_RNG_H
#define SHMPI_TEST_RNG_H

#include <stdint.h>

struct rng {
    uint64_t s;
};

static inline uint64_t rng_next(struct rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline long rnd(struct rng *r, long n)
{
    return n <= 1 ? 0 : (long)(rng_next(r) % (uint64_t)n);
}

static inline long range(struct rng *r, long lo, long hi)
{
    return lo + rnd(r, hi - lo + 1);
}

#endif
