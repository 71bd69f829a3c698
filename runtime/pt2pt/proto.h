/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * proto.h - what one rank writes into another's ring or mailbox: the wire
 * protocol
 * of point-to-point messaging.
 *
 *   small message (<= eager limit)    EAGER(envelope + data) ->
 *                                     <- ACK          (synchronous mode only)
 *   large message                     RTS(envelope) ->
 *                                     <- CTS(bytes wanted, receiver cookie)
 *                                     DATA(offset, chunk) -> ... DATA ->
 *   the pair turns hot (conn.c)       CONNECT(slot, bytes) -> (last through
 *                                     the mailbox; then the ring only)
 *   the pair's ring grows (conn.c)    CONNECT(slot, bytes, half) -> (last
 *                                     through the old ring; then the new)
 *
 * A message up to the eager limit goes as an RTS too while its receiver
 * holds more than its bound of unexpected messages (flow.c).
 *
 * Matching happens in ring order (EAGER and RTS records), so messages of
 * one sender never overtake each other; DATA, CTS and ACK records only
 * move bytes and completions and may interleave freely.  A cookie is the
 * address of a request in the process that created it, handed back to
 * that process only; a cancelled message is never answered, so its
 * cookie is never used after the send was cancelled.
 *
 * Two header formats.  The full one, struct shmpi_msg (48 bytes), serves
 * every type.  An EAGER message that nobody waits to hear of - a
 * standard (ready, buffered) send's: no ACK wanted, so no cookie, and no
 * claim, as it cannot be cancelled once written - goes as SHORT, a
 * 16-byte header: tag, context, size.  In a ring (16-byte records,
 * queues/ring.h) a message of up to 8 bytes then takes 32 bytes, two
 * per cache line, and a 64-byte one 96 instead of 128: the receiver
 * pulls fewer lines per message, which is what bounds the streaming
 * rate of small messages when a line crossing is slow (2026-11-29, ~214
 * ns in the VM's far state).  The outbox carries the same bodies
 * (queues/outbox.h), so a sender builds one record whatever the
 * channel; there an 8-byte message's record is one line instead of two.
 * Both formats start with `type`; shmpi_p2p_msg_read is the one reader.
 */
#ifndef SHMPI_PROTO_H
#define SHMPI_PROTO_H

#include <stdint.h>

enum shmpi_msg_type {
    SHMPI_MSG_EAGER = 1,
    SHMPI_MSG_RTS,
    SHMPI_MSG_CTS,
    SHMPI_MSG_DATA,
    SHMPI_MSG_ACK,
    SHMPI_MSG_CONNECT,         /* offset: the hot-ring slot the sender
                                  uses from now on, cookie: which half of
                                  it, nbytes: that ring's size (conn.c) */
    SHMPI_MSG_SHORT,           /* an EAGER record with the short header;
                                  read as EAGER (shmpi_p2p_msg_read) */
};

#define SHMPI_MSG_SYNC 1       /* flags: sender wants an ACK when matched */
#define SHMPI_MSG_SIGNED 2     /* flags, EAGER/RTS, check mode only: the
                                  send's type signature follows the data
                                  (pt2pt/sigcheck.h) */

struct shmpi_msg {
    uint16_t type;             /* enum shmpi_msg_type */
    uint16_t flags;
    int32_t tag;
    uint32_t context;
    uint32_t claim;            /* EAGER/RTS: the sender's claim word, or 0
                                  (claim.h) */
    uint64_t nbytes;           /* EAGER/RTS: message; CTS: wanted; DATA: chunk */
    uint64_t cookie;           /* the sender's request */
    uint64_t rcookie;          /* CTS, DATA: the receiver's request */
    uint64_t offset;           /* DATA: byte offset of the chunk */
};
/* The header of SHORT: an EAGER message with no flags, no claim and no
   cookie.  Its size fits 32 bits: a record is at most a quarter of a
   ring or an outbox, whose prefixes count bytes in 32 bits (and
   SHMPI_EAGER_LIMIT is at most 1 GiB, core/tunables.c). */
struct shmpi_msg_short {
    uint16_t type;             /* SHMPI_MSG_SHORT */
    uint16_t unused;
    int32_t tag;
    uint32_t context;
    uint32_t nbytes;
};
_Static_assert(sizeof(struct shmpi_msg_short) == 16 &&
                   8 + sizeof(struct shmpi_msg_short) + 8 <= 32,
               "ring prefix, short header and an 8-byte payload: 32 bytes, "
               "two records per cache line");
_Static_assert(sizeof(void *) <= sizeof(uint64_t),
               "a cookie holds a request's address");

/* Whether an eager message goes as SHORT: its sender does not want to
   hear of the match, and it cannot be cancelled. */
static inline int shmpi_p2p_msg_is_short(int sync, uint32_t claim)
{
    return !sync && !claim;
}

/* Write a SHORT header at rec; where the data goes. */
static inline void *shmpi_p2p_msg_put_short(void *rec, int tag,
                                            uint32_t context, uint64_t nbytes)
{
    struct shmpi_msg_short *s = rec;
    *s = (struct shmpi_msg_short){.type = SHMPI_MSG_SHORT, .tag = tag,
                                  .context = context,
                                  .nbytes = (uint32_t)nbytes};
    return s + 1;
}

/* The one reader of a record's body, from a ring or a mailbox: its header
   as a full one in *m (SHORT reads as EAGER, with no flags, claim or
   cookie), and where its data starts. */
static inline const void *shmpi_p2p_msg_read(const void *rec,
                                             struct shmpi_msg *m)
{
    const struct shmpi_msg_short *s = rec;
    if (s->type == SHMPI_MSG_SHORT) {
        *m = (struct shmpi_msg){.type = SHMPI_MSG_EAGER, .tag = s->tag,
                                .context = s->context, .nbytes = s->nbytes};
        return s + 1;
    }
    *m = *(const struct shmpi_msg *)rec;
    return (const struct shmpi_msg *)rec + 1;
}

#endif
