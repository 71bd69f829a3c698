/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pull.c - taking in a large message before its receive is posted.
 *
 * Rendezvous alone deadlocks the classic exchange in which two ranks both
 * MPI_Send a large message to each other before receiving: each waits for
 * a CTS the other never sends.  So a rank whose wait has stalled - it
 * spun and yielded and nothing moved (core/wait.c) - asks for the data of
 * every large message still waiting for its receive, into memory of its
 * own (an internal request does the receiving), and keeps it with the
 * unexpected message; the receive that matches later copies it out - at
 * once if it has all arrived, otherwise when the last chunk does.
 * Pulling only when stalled keeps the common case - the receive is
 * posted soon after the RTS arrives - at one copy and no allocation.
 *
 * Not pulled: synchronous sends (their CTS would tell the sender that a
 * receive matched, which is false) and what does not fit under the bound
 * on memory held for unexpected messages, SHMPI_UNEXPECTED_MB (the data
 * pulled counts towards it) - except that while nothing is pulled, one
 * message of up to SHMPI_PULL_LIMIT_MB (default 1024) is, so that the
 * exchange of one large message each way completes whatever the bound
 * (flow.c); those not pulled wait for their receive, as rendezvous does
 * in other MPIs.
 */
#include <stdlib.h>

#include "core/error.h"
#include "core/proc.h"
#include "datatypes/datatype.h"
#include "pt2pt/claim.h"
#include "pt2pt/flow.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"

static void deliver_pulled(struct shmpi_request *r,
                           struct shmpi_unexpected *u)
{
    struct shmpi_envelope env = {u->source, u->tag, u->nbytes, u->cookie, 0,
                                 NULL};
    shmpi_p2p_deliver_eager(r, &env, u->pulled);
    atomic_fetch_sub_explicit(&shmpi_proc.pt2pt->pulled_bytes, u->nbytes,
                              memory_order_relaxed); /* a bound: flow.c */
    shmpi_p2p_held_sub(shmpi_proc.pt2pt, u->nbytes);
    shmpi_p2p_request_release(u->pull);
    free(u->pulled);
    shmpi_p2p_unexpected_free(u);
}

/* The internal receive finished: hand the data on if a receive waits. */
static void pull_done(struct shmpi_request *pull)
{
    struct shmpi_unexpected *u = pull->owner;
    if (u->waiter)
        deliver_pulled(u->waiter, u);
}

static int pull_wanted(struct shmpi_pt2pt *pt, struct shmpi_unexpected *u)
{
    return u->type == SHMPI_MSG_RTS && !u->pull && !u->sync &&
           shmpi_p2p_pull_fits(pt, u->nbytes);
}

/* Ask the sender for the data of u (the caller claimed the message);
   without memory for it, u just waits for its receive. */
static int pull_start(struct shmpi_lane *l, struct shmpi_pt2pt *pt,
                      struct shmpi_unexpected *u)
{
    struct shmpi_request *pull = shmpi_p2p_request_new_in(l, SHMPI_REQ_RECV);
    unsigned char *data = pull ? malloc(u->nbytes ? u->nbytes : 1) : NULL;
    if (!data) {
        if (pull)
            shmpi_p2p_request_release(pull);
        return 0;
    }
    u->pull = pull;
    u->pulled = data;
    pull->buf = data;
    pull->datatype = MPI_BYTE;
    pull->nbytes = pull->granted = pull->msg_bytes = u->nbytes;
    pull->owner = u;
    pull->on_complete = pull_done;
    atomic_fetch_add_explicit(&pt->pulled_bytes, u->nbytes,
                              memory_order_relaxed); /* a bound: flow.c */
    shmpi_p2p_held_add(pt, u->nbytes);
    struct shmpi_msg cts = {.type = SHMPI_MSG_CTS, .nbytes = u->nbytes,
                            .cookie = u->cookie, .rcookie = (uintptr_t)pull};
    shmpi_p2p_send_control(l, u->source, &cts);
    return 1;
}

/* Lane l's large unexpected messages. */
static int pull_lane(struct shmpi_lane *l)
{
    struct shmpi_pt2pt *pt = shmpi_proc.pt2pt;
    int pulled = 0;
    for (int s = 0; s < shmpi_proc.size; s++) {
        struct shmpi_unexpected *u = l->unexpected[s].head, *next;
        for (; u; u = next) {
            next = u->next;
            if (!pull_wanted(pt, u))
                continue;
            if (!shmpi_p2p_claim_match(u->source, u->claim)) {
                shmpi_p2p_unexpected_remove(l, u); /* cancelled: drop */
                free(u->sig); /* NULL outside check mode */
                shmpi_p2p_unexpected_free(u);
                continue;
            }
            u->claim = 0;
            pulled += pull_start(l, pt, u);
        }
    }
    return pulled;
}

int shmpi_p2p_pull_stalled(void)
{
    int pulled = 0;
    for (uint32_t i = 0; i < shmpi_p2p_nlanes(); i++) {
        struct shmpi_lane *l = &shmpi_proc.pt2pt->lanes[i];
        if (!shmpi_p2p_lane_try(l))
            continue; /* its holder progresses it */
        pulled += pull_lane(l);
        shmpi_p2p_lane_leave(l);
    }
    return pulled;
}

/* A receive matched a pulled message (already off the unexpected queue). */
void shmpi_p2p_recv_pulled(struct shmpi_request *r, struct shmpi_unexpected *u)
{
    if (shmpi_request_is_complete(u->pull))
        deliver_pulled(r, u);
    else
        u->waiter = r; /* pull_done delivers */
}
