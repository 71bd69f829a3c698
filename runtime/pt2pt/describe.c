/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * describe.c - the line a rank asleep in a point-to-point wait gives the
 * launcher (core/wait.h's describe; launcher/deadlock.c prints it in the
 * wait-for graph): the call, the peer in MPI_COMM_WORLD and in the
 * communicator, the tag, the communicator.  Run only when the launcher
 * asks, on the waiting thread, with the request alive: never on a
 * message's path.
 */
#include <stdio.h>

#include "core/blocked.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"

/* The blocking call a request on the stack belongs to; a request of the
   program's is waited for by MPI_Wait & co. (the caller says which). */
static const char *call_of(const struct shmpi_request *r, const char *wait)
{
    if (!r->on_stack)
        return wait;
    if (r->kind == SHMPI_REQ_RECV)
        return "MPI_Recv";
    return r->mode == SHMPI_MODE_SYNC ? "MPI_Ssend" : "MPI_Send";
}

static void tag_text(char *buf, size_t len, int tag)
{
    if (tag == MPI_ANY_TAG)
        snprintf(buf, len, "any tag");
    else
        snprintf(buf, len, "tag %d", tag);
}

int shmpi_p2p_request_describe(const struct shmpi_request *r,
                               const char *wait, char *buf, size_t len)
{
    char peer[MPI_MAX_OBJECT_NAME + 64], tag[32];
    const char *call = call_of(r, wait);
    if (r->kind != SHMPI_REQ_SEND && r->kind != SHMPI_REQ_RECV) {
        shmpi_core_req_describer *d = shmpi_core_blocked_kind_of(r->kind);
        if (d)
            return d(r, call, buf, len);
        snprintf(buf, len, "%s on a request of kind %d", call, r->kind);
        return -1;
    }
    shmpi_core_blocked_peer(peer, sizeof peer, r->comm, r->peer);
    tag_text(tag, sizeof tag, r->tag);
    if (r->kind == SHMPI_REQ_RECV)
        snprintf(buf, len, "%s: receive from %s, %s", call, peer, tag);
    else
        snprintf(buf, len, "%s: %s to %s, %s", call,
                 r->mode == SHMPI_MODE_SYNC ? "synchronous send"
                                            : "send (no room or rendezvous)",
                 peer, tag);
    return r->peer;
}

int shmpi_p2p_envelope_describe(const char *call, uint32_t context,
                                int source, int tag, char *buf, size_t len)
{
    char comm[48], tagt[32];
    shmpi_core_blocked_context(comm, sizeof comm, context);
    tag_text(tagt, sizeof tagt, tag);
    if (source < 0)
        snprintf(buf, len, "%s: a message from any rank of %s, %s", call,
                 comm, tagt);
    else
        snprintf(buf, len, "%s: a message from rank %d (of MPI_COMM_WORLD) "
                 "on %s, %s", call, source, comm, tagt);
    return source;
}
