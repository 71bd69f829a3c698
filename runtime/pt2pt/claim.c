/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * claim.c - the claim words of cancellable sends (see claim.h).
 *
 * State: where the search starts is each lane's claim_cursor
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
    return (_Atomic uint32_t *)((char *)a +
                                shmpi_arena_claims_offset(a, rank)) +
           (claim - 1);
}

/* This rank's table gets its page at its first cancellable send, not at
   launch (shm_arena/arena.h): a receiver touches word (sender, claim)
   only for a claim the sender named in an envelope, after this.  If
   /dev/shm has no room for it, the send takes no claim - it is simply
   not cancellable once its envelope is out, which MPI_Cancel allows
   (3.8.4) - and the reservation is tried again at the next send. */
static int have_table(void)
{
    struct shmpi_rank_slot *slot = shmpi_proc.slot;
    if (atomic_load_explicit(&slot->reserved, memory_order_relaxed) &
        SHMPI_ARENA_HAS_CLAIMS)
        return 1;
    char err[160];
    if (shmpi_arena_reserve(shmpi_proc.arena_fd,
                            shmpi_arena_claims_offset(shmpi_proc.arena,
                                                      shmpi_proc.rank),
                            SHMPI_ARENA_CLAIMS_BYTES, "this rank's claim table",
                            err, sizeof err) != 0)
        return 0;
    /* relaxed: only this rank reads its bit; a receiver learns of a
       claim from its envelope, published (release) after this */
    atomic_fetch_or_explicit(&slot->reserved, SHMPI_ARENA_HAS_CLAIMS,
                             memory_order_relaxed);
    return 1;
}

/* The lanes share the rank's table, each looking from its own cursor
   (lane k starts at k / SHMPI_LANES of it, so that lanes seldom meet):
   two lanes' holders may find one word free at once, so it is taken by
   a compare-and-swap from FREE (acquire, as the load it replaces: the
   receiver's release store of FREE came after its last read of the
   word).  Splitting the table in shares instead, load and store alone,
   made unit_claim, which runs the table full, 5 times slower with 4
   lanes (256 words; 2026-11-29, test/run-tests unit_claim: 5.1 s against
   1.1 s).  The CAS is paid by synchronous and large sends only. */
uint32_t shmpi_p2p_claim_take(struct shmpi_lane *l)
{
    if (!have_table())
        return 0;
    for (uint32_t i = 0; i < SHMPI_CLAIMS; i++) {
        uint32_t c = (l->claim_cursor + i) % SHMPI_CLAIMS + 1;
        _Atomic uint32_t *w = word(shmpi_proc.rank, c);
        uint32_t expect = CLAIM_FREE;
        if (atomic_load_explicit(w, memory_order_relaxed) == CLAIM_FREE &&
            atomic_compare_exchange_strong_explicit(
                w, &expect, CLAIM_PENDING, memory_order_acquire,
                memory_order_relaxed)) {
            l->claim_cursor = c;
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

int shmpi_p2p_claim_match_word(int sender, uint32_t claim)
{
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
