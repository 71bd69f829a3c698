/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * claim.c - the claim words of cancellable sends (see claim.h).
 *
 * State: where the search starts is shmpi_proc.pt2pt->claim_cursor
 * (pt2pt.h); the words are in the arena.
 */
#include <stdatomic.h>

#include "core/proc.h"
#include "pt2pt/claim.h"
#include "pt2pt/pt2pt.h"

enum { CLAIM_FREE, CLAIM_PENDING, CLAIM_MATCHED, CLAIM_CANCELLED };

static _Atomic uint32_t *word(int rank, uint32_t claim)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    return (_Atomic uint32_t *)((char *)a + a->claims_offset) +
           (size_t)rank * SHMPI_CLAIMS + (claim - 1);
}

uint32_t shmpi_p2p_claim_take(void)
{
    struct shmpi_pt2pt *pt = shmpi_proc.pt2pt;
    for (int i = 0; i < SHMPI_CLAIMS; i++) {
        uint32_t c = (pt->claim_cursor + (uint32_t)i) % SHMPI_CLAIMS + 1;
        _Atomic uint32_t *w = word(shmpi_proc.rank, c);
        if (atomic_load_explicit(w, memory_order_acquire) == CLAIM_FREE) {
            atomic_store_explicit(w, CLAIM_PENDING, memory_order_relaxed);
            pt->claim_cursor = c;
            return c;
        }
    }
    return 0;
}

void shmpi_p2p_claim_free(uint32_t claim)
{
    if (claim)
        atomic_store_explicit(word(shmpi_proc.rank, claim), CLAIM_FREE,
                              memory_order_release);
}

int shmpi_p2p_claim_cancel(uint32_t claim)
{
    uint32_t expect = CLAIM_PENDING;
    return claim && atomic_compare_exchange_strong_explicit(
                        word(shmpi_proc.rank, claim), &expect,
                        CLAIM_CANCELLED, memory_order_acq_rel,
                        memory_order_acquire);
}

int shmpi_p2p_claim_match(int sender, uint32_t claim)
{
    if (!claim)
        return 1;
    _Atomic uint32_t *w = word(sender, claim);
    uint32_t expect = CLAIM_PENDING;
    if (atomic_compare_exchange_strong_explicit(w, &expect, CLAIM_MATCHED,
                                                memory_order_acq_rel,
                                                memory_order_acquire))
        return 1;
    atomic_store_explicit(w, CLAIM_FREE, memory_order_release);
    return 0;
}

int shmpi_p2p_claim_free_if_cancelled(int sender, uint32_t claim)
{
    if (!claim)
        return 0;
    _Atomic uint32_t *w = word(sender, claim);
    if (atomic_load_explicit(w, memory_order_acquire) != CLAIM_CANCELLED)
        return 0;
    atomic_store_explicit(w, CLAIM_FREE, memory_order_release);
    return 1;
}
