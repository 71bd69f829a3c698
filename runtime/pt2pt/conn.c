/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * conn.c - connecting rings between pairs of ranks, lazily.
 *
 * The first time rank S sends to rank D, S reserves the pages of ring
 * (S -> D) in the arena file with fallocate (a full /dev/shm then fails
 * this send with MPI_ERR_NO_MEM instead of a SIGBUS later), sets bit S in
 * D's connection bitmap and bumps D's `connections` counter, both with
 * RELEASE.  D notices the counter change (ACQUIRE) on its next progress
 * call, rescans its bitmap and starts polling the new ring.  The ring's
 * pages read as zeros until S writes, which is what D expects.
 *
 * shmpi_p2p_init (MPI_Init) sets up this rank's engine and gives the
 * wait loop its stall hook, the pull of large messages (core/hooks.h).
 *
 * Tunables (core/tunables.c, read at MPI_Init; the first two one value
 * for the whole job):
 *   SHMPI_EAGER_LIMIT  largest message sent eagerly, data included in the
 *                      ring (default 16384 bytes)
 *   SHMPI_CHUNK        bytes per DATA record of a large message (default
 *                      32768); both are capped to a quarter of the ring
 *   SHMPI_PULL_LIMIT_MB  largest message a stalled wait takes in before
 *                      its receive is posted past the bound below, one
 *                      at a time (pull.c; default 1024)
 *   SHMPI_UNEXPECTED_MB  memory held for messages before their receive;
 *                      past it senders send RTS and wait (flow.c;
 *                      default 16)
 *
 * State: this rank's point-to-point state is shmpi_proc.pt2pt (struct
 * shmpi_pt2pt, pt2pt.h), allocated here at MPI_Init and kept until the
 * process exits: MPI_Finalize tears nothing of pt2pt down (its rings stay
 * mapped with the arena), and a program may still call what is allowed
 * after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

#include "core/hooks.h"
#include "core/proc.h"
#include "core/wait.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"

static struct shmpi_ring *ring_at(int src, int dst)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    return (struct shmpi_ring *)((char *)a + a->rings_offset +
                                 ((uint64_t)dst * a->nranks + (uint64_t)src) *
                                     a->ring_bytes);
}

int shmpi_p2p_init(void)
{
    struct shmpi_pt2pt *pt = calloc(1, sizeof *pt);
    if (!pt)
        return -1;
    int n = shmpi_proc.size;
    pt->peers = calloc((size_t)n, sizeof *pt->peers);
    pt->sources = calloc((size_t)n, sizeof *pt->sources);
    pt->backlog = calloc((size_t)n, sizeof *pt->backlog);
    pt->unexpected = calloc((size_t)n, sizeof *pt->unexpected);
    if (!pt->peers || !pt->sources || !pt->backlog || !pt->unexpected)
        return -1;
    uint64_t max_body =
        n > 1 ? shmpi_ring_max_body(shmpi_proc.arena->ring_bytes) -
                    sizeof(struct shmpi_msg)
              : 0;
    const struct shmpi_tun_set *tun = &shmpi_proc.tun;
    pt->eager_limit = tun->value[SHMPI_TUN_EAGER_LIMIT];
    pt->chunk = tun->value[SHMPI_TUN_CHUNK];
    pt->pull_limit = tun->value[SHMPI_TUN_PULL_LIMIT_MB]; /* in bytes */
    pt->held_limit = tun->value[SHMPI_TUN_UNEXPECTED_MB]; /* ditto */
    if (pt->eager_limit > max_body)
        pt->eager_limit = max_body;
    if (pt->chunk > max_body || pt->chunk == 0)
        pt->chunk = max_body;
    shmpi_proc.pt2pt = pt;
    shmpi_core_stall_hook_set(shmpi_p2p_pull_stalled);
    return 0;
}

int shmpi_p2p_peer_connect(int dst, struct shmpi_peer **out)
{
    struct shmpi_proc *p = &shmpi_proc;
    struct shmpi_peer *peer = &p->pt2pt->peers[dst];
    *out = peer;
    if (peer->tx.ring)
        return 0;
    struct shmpi_arena_header *a = p->arena;
    struct shmpi_ring *ring = ring_at(p->rank, dst);
    int rc = posix_fallocate(p->arena_fd, (off_t)((char *)ring - (char *)a),
                             (off_t)a->ring_bytes);
    if (rc != 0)
        return rc;
    shmpi_ring_tx_init(&peer->tx, ring, a->ring_bytes);
    atomic_fetch_or_explicit(&shmpi_arena_bitmap(a, dst)[p->rank / 64],
                             1ull << (p->rank % 64), memory_order_release);
    atomic_fetch_add_explicit(&shmpi_arena_slot(a, dst)->connections, 1,
                              memory_order_release);
    return 0;
}

void shmpi_p2p_poll_new_connections(struct shmpi_pt2pt *pt)
{
    struct shmpi_proc *p = &shmpi_proc;
    uint32_t now = atomic_load_explicit(&p->slot->connections,
                                        memory_order_acquire);
    if (now == pt->connections_seen)
        return;
    pt->connections_seen = now;
    _Atomic uint64_t *bits = shmpi_arena_bitmap(p->arena, p->rank);
    for (int src = 0; src < p->size; src++) {
        struct shmpi_peer *peer = &pt->peers[src];
        uint64_t word = atomic_load_explicit(&bits[src / 64],
                                             memory_order_acquire);
        if (peer->rx.ring || !(word & (1ull << (src % 64))))
            continue;
        shmpi_ring_rx_init(&peer->rx, ring_at(src, p->rank),
                           p->arena->ring_bytes);
        pt->sources[pt->nsources++] = src;
    }
}

void shmpi_p2p_backlog_add(struct shmpi_pt2pt *pt, int rank)
{
    if (pt->peers[rank].has_backlog)
        return;
    pt->peers[rank].has_backlog = 1;
    pt->backlog[pt->nbacklog++] = rank;
}
