/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * count.c - the per-peer counts of count.h, counted while MPI_T watches,
 * and their reading for MPI_T.
 */
#include <stdatomic.h>
#include <stddef.h>

#include "pt2pt/count.h"
#include "pt2pt/pt2pt.h"

/* Single writer per lane (count.h): a relaxed load and store, not a
   read-modify-write. */
static void bump(_Atomic uint64_t *v, uint64_t by)
{
    atomic_store_explicit(v, atomic_load_explicit(v, memory_order_relaxed) + by,
                          memory_order_relaxed);
}

/* A message of nbytes on context with the peer whose counts are c. */
static void count(struct shmpi_p2p_counts *c, int recvd, uint32_t context,
                  uint64_t nbytes)
{
    if (context & 1) /* the library's own messages (internal.h) */
        return;
    bump(recvd ? &c->recvd : &c->sent, 1);
    bump(recvd ? &c->recvd_bytes : &c->sent_bytes, nbytes);
}

void shmpi_p2p_counted_send(const struct shmpi_request *r)
{
    count(&r->lane->peers[r->peer].counts, 0, r->context, r->nbytes);
}

void shmpi_p2p_counted_recv(const struct shmpi_request *r, int source,
                            uint64_t nbytes)
{
    count(&r->lane->peers[source].counts, 1, r->context, nbytes);
}

void shmpi_p2p_counted_fast(struct shmpi_peer *peer, MPI_Comm comm,
                            uint64_t nbytes)
{
    count(&peer->counts, 1, comm->context, nbytes);
}

void shmpi_p2p_counted_fast_send(struct shmpi_ring_tx *tx, const void *rec)
{
    struct shmpi_peer *peer =
        (struct shmpi_peer *)((char *)tx - offsetof(struct shmpi_peer, tx));
    struct shmpi_msg m;
    shmpi_p2p_msg_read(rec, &m);
    count(&peer->counts, 0, m.context, m.nbytes);
}

/* The rank's pt2pt state once MPI_Init made it (the acquire load of
   `initialized` orders its pointer), else NULL. */
static struct shmpi_pt2pt *state(void)
{
    return atomic_load_explicit(&shmpi_proc.initialized, memory_order_acquire)
               ? shmpi_proc.pt2pt
               : NULL;
}

void shmpi_p2p_counts_read(int w, uint64_t out[4])
{
    struct shmpi_pt2pt *pt = state();
    out[0] = out[1] = out[2] = out[3] = 0;
    for (uint32_t i = 0; pt && i <= pt->lane_mask; i++) {
        struct shmpi_p2p_counts *c = &pt->lanes[i].peers[w].counts;
        out[0] += atomic_load_explicit(&c->sent, memory_order_relaxed);
        out[1] += atomic_load_explicit(&c->sent_bytes, memory_order_relaxed);
        out[2] += atomic_load_explicit(&c->recvd, memory_order_relaxed);
        out[3] += atomic_load_explicit(&c->recvd_bytes, memory_order_relaxed);
    }
}

uint64_t shmpi_p2p_unexpected_length(void)
{
    struct shmpi_pt2pt *pt = state();
    return pt ? atomic_load_explicit(&pt->unexp_len, memory_order_relaxed)
              : 0;
}

uint64_t shmpi_p2p_unexpected_peak(void)
{
    struct shmpi_pt2pt *pt = state();
    return pt ? atomic_load_explicit(&pt->unexp_peak, memory_order_relaxed)
              : 0;
}

uint64_t shmpi_p2p_unexpected_bytes(void)
{
    struct shmpi_pt2pt *pt = state();
    return pt ? atomic_load_explicit(&pt->held, memory_order_relaxed) : 0;
}
