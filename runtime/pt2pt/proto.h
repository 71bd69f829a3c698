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
 * cookie is never used after the send was cancelled.  The header fits with an 8-byte payload in one
 * cache line (8-byte ring prefix + 48 + 8).
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
};

#define SHMPI_MSG_SYNC 1       /* flags: sender wants an ACK when matched */

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
_Static_assert(8 + sizeof(struct shmpi_msg) + 8 <= 64,
               "ring prefix, header and an 8-byte payload fit a cache line");
_Static_assert(sizeof(void *) <= sizeof(uint64_t),
               "a cookie holds a request's address");

#endif
