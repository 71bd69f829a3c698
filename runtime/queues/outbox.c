/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * outbox.c - a rank's outbox (see outbox.h): records taken in order
 * around an area, given back out of order.
 *
 * Memory ordering:
 *   1. The owner writes a record (header and body) with plain stores and
 *      posts it with the mailbox's push, whose link is a RELEASE store
 *      that the receiver's pop loads with ACQUIRE (mpsc.c, point 1).
 *   2. The receiver, through with the body, stores `done` with RELEASE;
 *      the owner loads it with ACQUIRE before it takes the space back, so
 *      the receiver's reads happen before the owner's next writes there.
 *      The owner clears `done` when it takes the record again; nobody else
 *      writes it before the record is posted again (point 1 orders it).
 *   3. Full area: the owner stores `waiting`, issues a seq_cst fence and
 *      reads the `done` flags again; a receiver stores `done`, issues a
 *      seq_cst fence and reads `waiting`.  One of the two sees the other
 *      (the store-buffer litmus with fences, as in ring.c point 4): the
 *      owner finds the space, or the receiver rings its doorbell.  The
 *      receiver clears `waiting` with an exchange, so one flag set is
 *      one ring.
 * A record that would run past the end of the area is preceded by a
 * filler record the owner marks done itself (never posted), and starts
 * at 0.  Space is given back contiguously from the oldest record: the
 * receivers' flags are read, never a list of them.
 */
#include "queues/outbox.h"

#include <fcntl.h>

static uint64_t rec_bytes(size_t body)
{
    return (SHMPI_OUTBOX_HEADER + body + SHMPI_CACHELINE - 1) &
           ~(uint64_t)(SHMPI_CACHELINE - 1);
}

static struct shmpi_outbox_rec *at(struct shmpi_outbox_tx *tx, uint64_t pos)
{
    return (struct shmpi_outbox_rec *)(tx->base + tx->data + pos);
}

static uint64_t advance(uint64_t pos, uint64_t n, uint64_t size)
{
    pos += n;
    return pos >= size ? pos - size : pos;
}

void shmpi_outbox_tx_init(struct shmpi_outbox_tx *tx, unsigned char *base,
                          uint64_t data, uint64_t size,
                          struct shmpi_outbox_flag *flag, int32_t src,
                          int fd)
{
    *tx = (struct shmpi_outbox_tx){.base = base, .data = data, .size = size,
                                   .flag = flag, .src = src, .fd = fd,
                                   .reserved = fd < 0 ? size : 0};
}

uint64_t shmpi_outbox_max_body(uint64_t size)
{
    return ((size / 4) & ~(uint64_t)(SHMPI_CACHELINE - 1)) -
           SHMPI_OUTBOX_HEADER;
}

/* Take back the space of the oldest records the receivers are done
   with (point 2). */
static void reclaim(struct shmpi_outbox_tx *tx)
{
    while (tx->oldest != tx->head) {
        struct shmpi_outbox_rec *r = at(tx, tx->oldest_at);
        if (!atomic_load_explicit(&r->done, memory_order_acquire))
            return;
        tx->oldest += r->bytes;
        tx->oldest_at = advance(tx->oldest_at, r->bytes, tx->size);
    }
}

/* Where a record of need bytes goes: head_at, or 0 after a filler. */
static uint64_t place_of(const struct shmpi_outbox_tx *tx, uint64_t need)
{
    return tx->head_at + need > tx->size ? 0 : tx->head_at;
}

static int has_room(struct shmpi_outbox_tx *tx, uint64_t need)
{
    uint64_t total = place_of(tx, need) ? need
                     : need + (tx->head_at ? tx->size - tx->head_at : 0);
    if (tx->head + total - tx->oldest <= tx->size)
        return 1;
    reclaim(tx);
    return tx->head + total - tx->oldest <= tx->size;
}

int shmpi_outbox_prepare(struct shmpi_outbox_tx *tx, size_t len)
{
    uint64_t need = rec_bytes(len), end = tx->head_at + need;
    if (end > tx->size) /* a filler's header at head_at, then 0.. */
        end = need > tx->head_at + SHMPI_CACHELINE
                  ? need : tx->head_at + SHMPI_CACHELINE;
    if (end <= tx->reserved)
        return 0;
    uint64_t to = tx->reserved + SHMPI_OUTBOX_STEP;
    to = to < end ? end : to;
    to = to > tx->size ? tx->size : to;
    int rc = shmpi_arena_reserve(tx->fd, tx->data + tx->reserved,
                                 to - tx->reserved, "this rank's outbox",
                                 tx->why, sizeof tx->why);
    if (rc == 0)
        tx->reserved = to;
    return rc;
}

void *shmpi_outbox_reserve(struct shmpi_outbox_tx *tx, size_t len, int *err)
{
    uint64_t need = rec_bytes(len);
    *err = 0;
    if (!has_room(tx, need))
        return NULL;
    if ((*err = shmpi_outbox_prepare(tx, len)) != 0)
        return NULL;
    if (!place_of(tx, need) && tx->head_at) { /* the filler */
        struct shmpi_outbox_rec *f = at(tx, tx->head_at);
        f->bytes = (uint32_t)(tx->size - tx->head_at);
        atomic_store_explicit(&f->done, 1, memory_order_relaxed);
        tx->head += f->bytes;
        tx->head_at = 0;
    }
    struct shmpi_outbox_rec *r = at(tx, tx->head_at);
    r->src = tx->src;
    r->bytes = (uint32_t)need;
    atomic_store_explicit(&r->done, 0, memory_order_relaxed);
    return shmpi_outbox_body(r);
}

void shmpi_outbox_post(struct shmpi_outbox_tx *tx, void *body,
                       struct shmpi_mpsc *q)
{
    struct shmpi_outbox_rec *r =
        (struct shmpi_outbox_rec *)((unsigned char *)body -
                                    SHMPI_OUTBOX_HEADER);
    uint64_t off = (uint64_t)((unsigned char *)r - tx->base);
    tx->head += r->bytes;
    tx->head_at = advance(tx->head_at, r->bytes, tx->size);
    shmpi_mpsc_push(tx->base, q, off);
}

int shmpi_outbox_ask_for_space(struct shmpi_outbox_tx *tx, size_t len)
{
    atomic_store_explicit(&tx->flag->waiting, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    return has_room(tx, rec_bytes(len));
}

int shmpi_outbox_done(struct shmpi_outbox_rec *rec,
                      struct shmpi_outbox_flag *owner)
{
    atomic_store_explicit(&rec->done, 1, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    if (!atomic_load_explicit(&owner->waiting, memory_order_relaxed))
        return 0;
    return atomic_exchange_explicit(&owner->waiting, 0, memory_order_relaxed);
}
