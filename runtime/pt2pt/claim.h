/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * claim.h - one word in shared memory that a receive and a cancel race
 * for, so that cancelling a send is decided at once, locally (3.8.4).
 *
 * A send that may sit at its receiver while incomplete (synchronous, or
 * large) takes a claim word from its own rank's table in the arena and
 * names it in its envelope.  The receiver moves it PENDING -> MATCHED
 * with a compare-and-swap when a receive takes the message; MPI_Cancel
 * moves it PENDING -> CANCELLED with a compare-and-swap.  Exactly one
 * wins.  A cancelled message is dropped by the receiver when it meets
 * it, which also frees the word; a matched one is freed by the sender
 * when its send completes.
 *
 * Memory ordering: the sender sets PENDING before it publishes the
 * envelope (ring release/acquire makes PENDING visible to the receiver);
 * both CASes are acq_rel; whoever frees the word stores FREE with
 * release, and the sender takes only words it loads as FREE (acquire).
 */
#ifndef SHMPI_CLAIM_H
#define SHMPI_CLAIM_H

#include <stdint.h>

/* Sender side.  0 means "no claim": the send cannot be cancelled once
   its envelope is in the ring (the table was full). */
struct shmpi_lane;
uint32_t shmpi_p2p_claim_take(struct shmpi_lane *l);
void shmpi_p2p_claim_free(uint32_t claim);     /* never published, or done */
int shmpi_p2p_claim_cancel(uint32_t claim);    /* 1: cancelled, 0: matched */

/* Receiver side: 1 if the message is ours to receive, 0 if its sender
   cancelled it (the word is freed; drop the message).  Claim 0 - every
   eager standard send's - is 1 without a call. */
int shmpi_p2p_claim_match_word(int sender, uint32_t claim);
static inline int shmpi_p2p_claim_match(int sender, uint32_t claim)
{
    return !claim || shmpi_p2p_claim_match_word(sender, claim);
}
/* 1 if the sender has cancelled it (then the word is freed). */
int shmpi_p2p_claim_free_if_cancelled(int sender, uint32_t claim);

#endif
