/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * unexpected.c - memory for messages that arrive before their receive.
 *
 * A program that streams small messages ahead of its receives allocates
 * and frees one of these per message; straight malloc/free then lets
 * glibc hand the memory back to the kernel and fault it in again on the
 * next burst (2026-11-22, perf/pt2pt -t bw: a window of 64
 * eager 8 KiB messages spent most of its time in page faults, ~3 GB/s;
 * ~12 GB/s with this; commit db4ad4e).  So freed entries are kept for reuse, sorted
 * by power-of-two size class of their payload (64 B up to 128 KiB), at
 * most KEEP per class; larger ones go straight back to malloc.  The class
 * is not stored: it follows from the entry's type and size.
 *
 * Every entry handed out counts, with the payload room it was allocated
 * with, towards the memory this rank holds for messages before their
 * receive (flow.c) until it is given back; kept entries do not.
 *
 * State: the kept entries are shmpi_proc.pt2pt->unexp_cache (pt2pt.h).
 */
#include <stdlib.h>

#include "core/proc.h"
#include "pt2pt/flow.h"
#include "pt2pt/pt2pt.h"

#define SMALLEST 64ull         /* payload of class 0 */
#define CLASSES SHMPI_UNEXP_CLASSES /* up to SMALLEST << 11 = 128 KiB */
#define KEEP 64                /* cached entries per class */

/* What is cached lives in this rank's private memory only. */
static struct shmpi_unexp_cache *cache(struct shmpi_lane *l)
{
    return &l->unexp_cache;
}

static int class_of(uint64_t payload)
{
    int c = 0;
    while (c < CLASSES && (SMALLEST << c) < payload)
        c++;
    return c; /* CLASSES: not cached */
}

static uint64_t payload_of(const struct shmpi_unexpected *u)
{
    return u->type == SHMPI_MSG_EAGER ? u->nbytes : 0;
}

/* What an entry of class c (with `payload` bytes) takes of the heap. */
static uint64_t bytes_of(int c, uint64_t payload)
{
    return sizeof(struct shmpi_unexpected) +
           (c < CLASSES ? SMALLEST << c : payload);
}

struct shmpi_unexpected *shmpi_p2p_unexpected_alloc(struct shmpi_lane *l,
                                                    uint64_t payload)
{
    int c = class_of(payload);
    struct shmpi_unexpected *u = NULL;
    if (c < CLASSES && (u = cache(l)->free[c])) {
        cache(l)->free[c] = u->next;
        cache(l)->count[c]--;
    } else {
        u = malloc(bytes_of(c, payload));
    }
    if (u)
        shmpi_p2p_held_add(shmpi_proc.pt2pt, bytes_of(c, payload));
    return u;
}

void shmpi_p2p_unexpected_free(struct shmpi_unexpected *u)
{
    struct shmpi_lane *l = shmpi_p2p_lane_of(u->context);
    int c = class_of(payload_of(u));
    shmpi_p2p_held_sub(shmpi_proc.pt2pt, bytes_of(c, payload_of(u)));
    if (c >= CLASSES || cache(l)->count[c] >= KEEP) {
        free(u);
        return;
    }
    u->next = cache(l)->free[c];
    cache(l)->free[c] = u;
    cache(l)->count[c]++;
}
