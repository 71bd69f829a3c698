/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * outbox.h - every rank's outbox: the area of the arena from which it
 * takes the records it sends through its peers' mailboxes (mpsc.h).
 *
 * A record is {header, body} contiguous, on cache lines: the header
 * holds the mailbox link, the sending rank, the record's size and a
 * `done` flag; the body is what pt2pt writes (a struct shmpi_msg and its
 * payload, pt2pt/proto.h), so a receiver reads a record from a mailbox
 * exactly as one from a ring.  Records stay on cache lines, where a
 * ring's are 16 bytes apart (ring.h): a receiver writes `done` into a
 * record's header, and a record packed into the line of the next one
 * would put that write in a line its owner is writing (the short EAGER
 * header, pt2pt/proto.h, still makes an 8-byte message's record one line
 * instead of two).  The owner takes records in order, around
 * the area; receivers - several, each at its own pace - finish them in
 * any order by setting `done`; the owner takes space back from its
 * oldest record forward over the done ones.  One slow receiver thus
 * holds back the space behind its records (the owner then waits, as for
 * a full ring); the pairs that talk a lot get rings of their own and
 * leave the outbox (pt2pt/conn.c).
 *
 * The area's pages are reserved (posix_fallocate on the arena's file) as
 * the owner's high-water mark grows, SHMPI_OUTBOX_STEP at a time: a rank
 * that sends little costs little, and a full /dev/shm is an error of the
 * send that needed the page, never a SIGBUS.
 *
 * Threads: the owner's side (struct shmpi_outbox_tx) is one thread's at a
 * time.  Several sending threads of one rank would need an outbox each
 * (the receivers do not care whose area a record lies in: its header
 * says whom to tell) or a lock around reserve..post.
 */
#ifndef SHMPI_OUTBOX_H
#define SHMPI_OUTBOX_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "queues/mpsc.h"
#include "shm_arena/arena.h"

#define SHMPI_OUTBOX_STEP (64 * 1024) /* pages reserved at a time */

struct shmpi_outbox_rec {
    struct shmpi_mpsc_node link; /* in the receiver's mailbox */
    int32_t src;               /* the owner's rank */
    uint32_t bytes;            /* the whole record, header included, a
                                  multiple of 64 */
    _Atomic uint32_t done;     /* the receiver is through with it */
    uint32_t unused;
};
#define SHMPI_OUTBOX_HEADER 24
_Static_assert(sizeof(struct shmpi_outbox_rec) == SHMPI_OUTBOX_HEADER,
               "a record's header is 24 bytes, its body 8-aligned after it");

/* The owner's line in shared memory: set by the owner when the area is
   full, cleared by the receiver that rings it (outbox.c, point 3). */
struct shmpi_outbox_flag {
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t waiting;
};

/* The owner's side, private to it. */
struct shmpi_outbox_tx {
    unsigned char *base;       /* what offsets count from (the arena) */
    uint64_t data;             /* offset of the area */
    uint64_t size;             /* bytes of area, a multiple of 64 */
    struct shmpi_outbox_flag *flag;
    int32_t src;               /* the owner's rank, for the headers */
    int fd;                    /* the file that holds base (fallocate);
                                  -1: every page is there already */
    uint64_t head, head_at;    /* bytes taken so far; head % size */
    uint64_t oldest, oldest_at; /* bytes given back so far; % size */
    uint64_t reserved;         /* [0, reserved) of the area has pages */
    char why[160];             /* the last failed reservation, a line that
                                  says how many bytes and /dev/shm's room */
};

void shmpi_outbox_tx_init(struct shmpi_outbox_tx *tx, unsigned char *base,
                          uint64_t data, uint64_t size,
                          struct shmpi_outbox_flag *flag, int32_t src,
                          int fd);

/* Largest body an area of size bytes takes: its record is at most a
   quarter of the area, as in a ring (queues/ring.h). */
uint64_t shmpi_outbox_max_body(uint64_t size);

/* Space for a body of len bytes, or NULL: *err 0 when the area is full
   now, else the errno of reserving its pages. */
void *shmpi_outbox_reserve(struct shmpi_outbox_tx *tx, size_t len, int *err);
/* Pages for the next record of up to len bytes, reserved now: 0 or an
   errno (reserve then cannot fail for want of them). */
int shmpi_outbox_prepare(struct shmpi_outbox_tx *tx, size_t len);
/* The body of the last reserve goes to the mailbox q. */
void shmpi_outbox_post(struct shmpi_outbox_tx *tx, void *body,
                       struct shmpi_mpsc *q);
/* The area was full: ask the receivers to ring our doorbell when they
   finish a record; 1 if space appeared meanwhile (then do not sleep). */
int shmpi_outbox_ask_for_space(struct shmpi_outbox_tx *tx, size_t len);

/* Receiver: the record popped from a mailbox at offset off. */
static inline struct shmpi_outbox_rec *
shmpi_outbox_rec_at(unsigned char *base, uint64_t off)
{
    return (struct shmpi_outbox_rec *)(base + off);
}
static inline void *shmpi_outbox_body(struct shmpi_outbox_rec *rec)
{
    return (unsigned char *)rec + SHMPI_OUTBOX_HEADER;
}
/* Receiver: through with rec, whose owner's flag is owner; returns 1 if
   the owner waits for space (the caller rings its doorbell). */
int shmpi_outbox_done(struct shmpi_outbox_rec *rec,
                      struct shmpi_outbox_flag *owner);

#endif
