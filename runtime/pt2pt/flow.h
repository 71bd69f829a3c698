/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * flow.h - flow control for messages that arrive before their receive:
 * the receiver's count of the memory it holds for them, and the one word
 * a sender reads to choose between EAGER and RTS (flow.c says why and
 * argues the memory ordering).
 */
#ifndef SHMPI_FLOW_H
#define SHMPI_FLOW_H

#include <stdatomic.h>

#include "core/proc.h"
#include "pt2pt/pt2pt.h"

/* Sender: is world rank `world` over its bound?  Then a message to it
   goes as an RTS, however small.  Relaxed: the word only picks the
   protocol, and either protocol is correct; flow.c bounds what a stale
   0 lets through. */
static inline int shmpi_p2p_receiver_over(int world)
{
    return atomic_load_explicit(
               &shmpi_arena_slot(shmpi_proc.arena, world)->unexpected_over,
               memory_order_relaxed) != 0;
}

/* Receiver: the word changes only when the amount held crosses the
   bound going up, or falls to the low-water mark going down.  `held` is
   one counter per rank that the lanes add to at once (flow.c argues the
   orderings); seq_cst RMWs cost what relaxed ones do on x86 (lock xadd)
   and are paid per unexpected message only. */
void shmpi_p2p_flow_publish(struct shmpi_pt2pt *pt);

static inline void shmpi_p2p_held_add(struct shmpi_pt2pt *pt, uint64_t bytes)
{
    uint64_t held = atomic_fetch_add(&pt->held, bytes) + bytes;
    if (held > pt->held_limit && !atomic_load(&pt->held_over))
        shmpi_p2p_flow_publish(pt);
}

static inline void shmpi_p2p_held_sub(struct shmpi_pt2pt *pt, uint64_t bytes)
{
    uint64_t held = atomic_fetch_sub(&pt->held, bytes) - bytes;
    if (atomic_load(&pt->held_over) &&
        held <= pt->held_limit - pt->held_limit / 4)
        shmpi_p2p_flow_publish(pt);
}

/* pull.c: may a stalled wait take in `bytes` more of a large message? */
int shmpi_p2p_pull_fits(struct shmpi_pt2pt *pt, uint64_t bytes);

#endif
